"""An API key as HTTP can carry it.

A key reaches the Authorization header as it was read, from the environment or the
config file, and the HTTP library fails on one it cannot carry in words that name the
wrong thing: a trailing newline (as `echo` and many editors leave one) was reported as
"cannot reach the model endpoint", a curly quote pasted into it as "an unreadable
answer". `key_problem` names it instead, for the transport (which then sends nothing)
and for `config`. Only the offending character is ever named, never the key.
"""

from __future__ import annotations

import unicodedata


def key_problem(key: str) -> str:
    """What is wrong with an API key ('' when nothing is: an empty key is no key). HTTP
    headers carry printable ASCII, and no provider's key holds a space or a newline."""
    if not key:
        return ""
    if key != key.rstrip():
        return f"ends in {named(key[len(key.rstrip()) :][-1])}"
    if key != key.lstrip():
        return f"starts with {named(key[0])}"
    for i, c in enumerate(key):
        if c.isspace() or not c.isprintable() or not c.isascii():
            return f"holds {named(c)} at position {i + 1} of {len(key)}"
    return ""


def named(c: str) -> str:
    """A character as a person reads it, by its Unicode name: never the key's own letters
    (only a space, a control or a character no key holds is ever named)."""
    names = {"\n": "a newline", "\r": "a carriage return", "\t": "a tab", " ": "a space"}
    if c in names:
        return names[c]
    name = unicodedata.name(c, "")
    kind = "a non-ASCII character" if c.isprintable() else "a control character"
    return f"{kind} (U+{ord(c):04X}{' ' + name if name else ''})"
