"""The base URL and the API key (`game/core/keys.py`), checked before anything is sent.

Both reach the HTTP library as they are, and its failures name the wrong thing: a base
URL of `http://[::1/v1` or one holding a newline raised a traceback from deep inside it,
a key with a trailing newline (as `echo` and many editors leave one) failed as "cannot
reach the model endpoint", and a key with a curly quote pasted into it as "an unreadable
answer". Each is said here in one line that names the setting, never the key itself.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from game.core.errors import SettingsError
from game.core.keys import key_problem, named
from game.core.text import public_url, single_line

SCHEMES = ("http", "https")
URL_SOURCES = "--base-url, $OPENAI_BASE_URL or base_url in the config file"


def url_problem(url: str) -> str:
    """What is wrong with a base URL ('' when it is usable; '' is the default URL)."""
    if not url:
        return ""
    odd = next((c for c in url if c.isspace() or not c.isprintable()), None)
    if odd is not None:
        return f"it holds {named(odd)} at position {url.index(odd) + 1}"
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
    """The URL, or SettingsError in one line (never the URL's password)."""
    problem = url_problem(url)
    if problem:
        shown = single_line(public_url(url), 120)
        raise SettingsError(f"the base URL {shown!r} is malformed: {problem}; fix {URL_SOURCES}")
    return url


__all__ = ["checked_url", "key_problem", "url_problem"]
