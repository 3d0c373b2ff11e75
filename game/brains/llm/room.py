"""How many tokens an answer may need, read from its JSON schema.

`max_tokens` is what a request's time budget is made from (flight.Pace: the
endpoint's tokens per second times the question's max_tokens), so it should be the room
the answer's schema allows, not a round number: an area choice among four names needs a
few dozen tokens, not three hundred, and on a CPU each unused token of room is seconds of
budget. The schemas carry every limit (string lengths, item counts, enums), so the longest
answer they allow can be counted: free text at `CHARS_PER_TOKEN` characters a token,
numbers and words of an enum as the longest, each key and its punctuation, then a
margin for the spaces and line breaks a model or a grammar puts between them.

A question's declared `max_tokens` stays the ceiling (a schema that allows 24 hours of
12 steps each would give thousands); the room only ever lowers it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

CHARS_PER_TOKEN = 3.0  # English runs near 4; names, numbers and odd words run shorter
TEXT_GUESS = 200  # characters of a string with no maxLength
ITEMS_GUESS = 10  # items of an array with no maxItems
MARGIN = 1.25  # spaces, line breaks and indentation between the parts
OVERHEAD = 16  # tokens: the braces, and what some models write before the JSON
LOWEST, HIGHEST = 16, 4096


def answer_room(schema: Mapping[str, Any]) -> int:
    """Tokens for the longest answer the schema allows, with a margin, in [16, 4096]."""
    tokens = math.ceil(_tokens(schema, depth=0) * MARGIN) + OVERHEAD
    return max(LOWEST, min(HIGHEST, tokens))


def max_tokens_for(schema: Mapping[str, Any], declared: int) -> int:
    """The question's max_tokens: its schema's room, never above what it declares."""
    return min(declared, answer_room(schema))


def _tokens(schema: Any, depth: int) -> float:
    if not isinstance(schema, Mapping) or depth > 32:
        return _text(TEXT_GUESS)
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list) and options:
        return max(_tokens(option, depth + 1) for option in options)
    if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
        return max(_text(len(str(value))) for value in schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        return _object(schema, depth)
    if kind == "array":
        return _array(schema, depth)
    if kind in ("integer", "number"):
        return _number(schema)
    if kind in ("boolean", "null"):
        return 1.0
    return _text(_whole(schema.get("maxLength"), TEXT_GUESS))


def _object(schema: Mapping[str, Any], depth: int) -> float:
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return _text(TEXT_GUESS)
    # each property: its quoted key, a colon, a comma, and its value
    return 2 + sum(_text(len(str(k))) + 2 + _tokens(v, depth + 1) for k, v in props.items())


def _array(schema: Mapping[str, Any], depth: int) -> float:
    items = _whole(schema.get("maxItems"), ITEMS_GUESS)
    return 2 + items * (_tokens(schema.get("items", {}), depth + 1) + 1)


def _number(schema: Mapping[str, Any]) -> float:
    high = max(abs(_whole(schema.get("minimum"), 0)), abs(_whole(schema.get("maximum"), 10**6)))
    return 1 + len(str(high)) / 2


def _text(chars: int) -> float:
    """A quoted string of `chars` characters."""
    return 2 + chars / CHARS_PER_TOKEN


def _whole(value: Any, default: int) -> int:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return value if ok else default
