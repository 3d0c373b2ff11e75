"""TOML out: the config file written so that `tomllib` reads back exactly what was written.

The standard library reads TOML but does not write it. The settings screen used to write
strings with `json.dumps`, whose `\\ud83d\\ude00` escapes for an emoji are surrogates TOML
rejects: from then on every command failed to read its config. Here a string is a TOML
basic string: quotes, backslashes and control characters escaped, format characters (bidi
marks, zero-width) escaped too so the file reads the same in any editor, everything else
written as itself in UTF-8.
"""

from __future__ import annotations

import math
import re
import unicodedata
from datetime import date, datetime, time
from typing import Any

from game.core.errors import SmallvilleError

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_ESCAPED = ("Cc", "Cf", "Zl", "Zp", "Co", "Cn")  # controls, format (bidi), separators, unassigned


def dumps(doc: dict[str, Any]) -> str:
    """Top-level values first, then one [table] per dict (a dict inside a table is an
    inline table). Raises SmallvilleError for what TOML cannot hold (a lone surrogate,
    None, a type it has no form for)."""
    top = [f"{key(k)} = {value(v)}" for k, v in doc.items() if not isinstance(v, dict)]
    out = top[:]
    for name, table in doc.items():
        if isinstance(table, dict):
            rows = [f"{key(k)} = {value(v)}" for k, v in table.items()]
            out += ([""] if out else []) + [f"[{key(name)}]", *rows]
    return "\n".join(out) + "\n"


def key(name: object) -> str:
    """A bare key where TOML allows one, else a quoted one."""
    text = str(name)
    return text if _BARE_KEY.fullmatch(text) else string(text)


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, datetime | date | time):
        return v.isoformat()
    if isinstance(v, list | tuple):
        return "[" + ", ".join(value(item) for item in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{key(k)} = {value(item)}" for k, item in v.items()) + "}"
    raise SmallvilleError(f"a setting of type {type(v).__name__} cannot be written as TOML")


def string(text: str) -> str:
    """A TOML basic string that reads back as `text`, whatever it holds."""
    return '"' + "".join(_char(c) for c in text) + '"'


def _char(c: str) -> str:
    if c in _SHORT:
        return _SHORT[c]
    code = ord(c)
    if 0xD800 <= code <= 0xDFFF:  # half of a pair: no character, and TOML cannot hold it
        raise SmallvilleError("a setting holds a broken character (a lone surrogate)")
    if unicodedata.category(c) in _ESCAPED:
        return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"
    return c
