"""The base URL and the API key, checked before anything is sent.

Both reach the HTTP library as they are, and its failures name the wrong thing: a base
URL of `http://[::1/v1` or one holding a newline raised a traceback from deep inside it,
a key with a trailing newline (as `echo` and many editors leave one) failed as "cannot
reach the model endpoint", and a key with a curly quote pasted into it as "an unreadable
answer". Each is said here in one line that names the setting, never the key itself.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from game.core.errors import SmallvilleError
from game.core.text import public_url, single_line

SCHEMES = ("http", "https")
URL_SOURCES = "--base-url, $OPENAI_BASE_URL or base_url in the config file"


def url_problem(url: str) -> str:
    """What is wrong with a base URL ('' when it is usable; '' is the default URL)."""
    if not url:
        return ""
    odd = next((c for c in url if c.isspace() or not c.isprintable()), None)
    if odd is not None:
        return f"it holds {_named(odd)} at position {url.index(odd) + 1}"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        return f"it cannot be read as a URL ({exc})"
    if parts.scheme.lower() not in SCHEMES:
        return f"it must start with http:// or https://, not {parts.scheme or 'nothing'}"
    if not parts.hostname:
        return "it names no host"
    return ""


def checked_url(url: str) -> str:
    """The URL, or SmallvilleError in one line (never the URL's password)."""
    problem = url_problem(url)
    if problem:
        shown = single_line(public_url(url), 120)
        raise SmallvilleError(f"the base URL {shown!r} is malformed: {problem}; fix {URL_SOURCES}")
    return url


def key_problem(key: str) -> str:
    """What is wrong with an API key ('' when nothing is: an empty key is no key). HTTP
    headers carry printable ASCII, and no provider's key holds a space or a newline."""
    if not key:
        return ""
    if key != key.rstrip():
        return f"ends in {_named(key[len(key.rstrip()) :][-1])}"
    if key != key.lstrip():
        return f"starts with {_named(key[0])}"
    for i, c in enumerate(key):
        if c.isspace() or not c.isprintable() or not c.isascii():
            return f"holds {_named(c)} at position {i + 1} of {len(key)}"
    return ""


def _named(c: str) -> str:
    """A character as a person reads it, by its Unicode name: never the key's own letters
    (only a space, a control or a character no key holds is ever named)."""
    names = {"\n": "a newline", "\r": "a carriage return", "\t": "a tab", " ": "a space"}
    if c in names:
        return names[c]
    name = unicodedata.name(c, "")
    kind = "a non-ASCII character" if c.isprintable() else "a control character"
    return f"{kind} (U+{ord(c):04X}{' ' + name if name else ''})"
