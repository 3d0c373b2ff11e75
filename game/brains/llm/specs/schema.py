"""JSON Schema pieces every spec builds its answer's schema from.

They carry every limit JSON Schema can say (lengths, ranges, patterns, enums), in the
forms grammar-building servers honour, so a constrained server cannot write a wrong shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def obj(**props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def arr(items: dict[str, Any], low: int | None = None, high: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": items}
    if low is not None:
        out["minItems"] = low
    if high is not None:
        out["maxItems"] = high
    return out


def text(low: int = 1, high: int | None = None) -> dict[str, Any]:
    """Free text of `low` to `high` characters, with no angle brackets: a grammar then
    cannot echo the example's '<activity>'. The pattern carries the length too, since
    llama.cpp's converter reads a pattern and ignores minLength and maxLength beside it
    (a 135M model wrote a plan item past its context); it also leaves out the quote and
    the backslash, which a pattern's grammar would not escape."""
    counted = high is not None and high <= COUNTED_UP_TO
    times = f"{{{low},{high}}}" if counted else f"{{{low},}}"
    out: dict[str, Any] = {"type": "string", "minLength": low, "pattern": f"^{PLAIN}{times}$"}
    if high is not None:
        out["maxLength"] = high
    return out


def integer(low: int, high: int) -> dict[str, Any]:
    """A range; a short one is also an enum, since some grammar converters (llama-cpp-
    python's) ignore minimum and maximum but every one honours an enum."""
    out: dict[str, Any] = {"type": "integer", "minimum": low, "maximum": max(low, high)}
    if high - low < 16:
        out["enum"] = list(range(low, max(low, high) + 1))
    return out


PLAIN = '[^<>"\\\\]'  # one character of free text (a regex class)
COUNTED_UP_TO = 240  # longer limits stay out of the pattern: a grammar repeats per count
# Emoji and the arrows and symbols blocks; a grammar held to it writes an emoji, not
# '<emoji>' or '*I am ready,' (what SmolLM2-135M wrote without it).
EMOJI_PATTERN = "^[\u2190-\u2bff\U0001f300-\U0001faff\ufe0f\u200d]{1,12}$"
STR = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}
HHMM = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}
EMOJI_TEXT = {"type": "string", "minLength": 1, "maxLength": 12, "pattern": EMOJI_PATTERN}
SCORE = integer(1, 10)


def enum(values: Sequence[str]) -> dict[str, Any]:
    return {"type": "string", "enum": list(dict.fromkeys(values))}


def titled(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"title": name, **schema}
