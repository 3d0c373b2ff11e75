"""JSON out of a model's reply, and a schema told in words for endpoints that cannot
enforce one.

Endpoints without structured output (and small models with it) wrap JSON in prose or in
Markdown fences; `extract_json` finds the first balanced object in the text.
"""

from __future__ import annotations

import json
from typing import Any

from game.core.text import json_depth


class Invalid(ValueError):
    """An answer that breaks the schema or its meaning. The message is sent back to the
    model on a retry, so it says what was wrong in plain words."""


MAX_DEPTH = 32  # nesting levels: no question's answer needs more than a handful
MAX_CHARS = 200_000  # characters of one reply worth reading


# Lenient: a grammar-bound model (llama.cpp) may put raw newlines or tabs inside strings,
# which strict JSON forbids but which mean only what they say.
LENIENT = json.JSONDecoder(strict=False)


def bounded_json(text: str, what: str = "the reply") -> Any:
    """json.loads with limits: Invalid for too long, too deep, or not JSON at all."""
    if len(text) > 40 * MAX_CHARS:
        raise Invalid(f"{what} is too long ({len(text)} characters)")
    try:
        value = json.loads(text)
    except RecursionError:
        raise Invalid(f"{what} is nested too deeply") from None
    except ValueError as exc:
        raise Invalid(f"{what} is not valid JSON ({str(exc)[:80]})") from None
    if json_depth(value, MAX_DEPTH) > MAX_DEPTH:
        raise Invalid(f"{what} is nested more than {MAX_DEPTH} levels deep")
    return value


def extract_json(text: str) -> dict[str, Any]:
    """The first JSON object in `text`; Invalid when there is none."""
    text = (text or "").strip()
    if not text:
        raise Invalid("the reply was empty; reply with a JSON object")
    if len(text) > MAX_CHARS:
        raise Invalid(f"the reply is too long ({len(text)} characters); answer briefly")
    try:
        value = LENIENT.decode(text)
    except RecursionError:
        raise Invalid("the reply is nested too deeply") from None
    except json.JSONDecodeError:
        value = _first_object(text)
    if json_depth(value, MAX_DEPTH) > MAX_DEPTH:
        raise Invalid("the reply is nested too deeply")
    if not isinstance(value, dict):
        raise Invalid("the reply must be a JSON object, not " + type(value).__name__)
    return value


def _first_object(text: str) -> Any:
    decoder = LENIENT
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
            return value
        except (json.JSONDecodeError, RecursionError):
            start = text.find("{", start + 1)
    raise Invalid("the reply held no valid JSON object")


def schema_hint(schema: dict[str, Any]) -> str:
    """The schema as compact JSON, for the prompt when the endpoint cannot enforce it."""
    return json.dumps(schema, separators=(",", ":"), ensure_ascii=False)


def schema_example(schema: dict[str, Any]) -> str:
    """A short example of the answer's shape, for json_object mode: tiny models shown the
    raw JSON Schema (700 characters for decompose_hours) echo it back, while the server
    enforces the schema itself from response_format."""
    return json.dumps(_example(schema, "answer"), separators=(", ", ": "), ensure_ascii=False)


def _example(schema: dict[str, Any], name: str) -> Any:
    kind = schema.get("type")
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    if kind == "object":
        props = schema.get("properties", {})
        return {key: _example(sub, key) for key, sub in props.items()}
    if kind == "array":
        count = max(1, min(2, int(schema.get("minItems", 1))))
        return [_example(schema.get("items", {}), name) for _ in range(count)]
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1))
    if kind == "boolean":
        return False
    pattern = str(schema.get("pattern", ""))
    if pattern.startswith("^(") and pattern.endswith("):[0-5][0-9]$"):
        return pattern[2:4] + ":00"  # the first hour the pattern allows
    return f"<{name}>"


def schema_words(schema: dict[str, Any]) -> str:
    """The answer's fields named in words, for json_object mode, where the server reads the
    schema from response_format: an example of the shape would need placeholder values,
    and tiny models copy them (`{"answer": "<answer>"}` came back 15 times of 15)."""
    props = schema.get("properties", {}) if schema.get("type") == "object" else {}
    if not props:
        return "a JSON object"
    return "a JSON object with " + _fields(props)


def _fields(props: dict[str, Any]) -> str:
    named = [f'"{key}" ({_kind(sub)})' for key, sub in props.items()]
    if len(named) == 1:
        return "the field " + named[0]
    return "the fields " + ", ".join(named[:-1]) + " and " + named[-1]


def _kind(schema: dict[str, Any]) -> str:
    """What a value is, in a few words: 'text', 'a whole number', 'a list of ...'."""
    enum = schema.get("enum")
    numbers = [v for v in enum or () if isinstance(v, int) and not isinstance(v, bool)]
    if enum and len(numbers) == len(enum) and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"a whole number from {numbers[0]} to {numbers[-1]}"
    if enum:
        shown = ", ".join(json.dumps(v, ensure_ascii=False) for v in enum[:6])
        return f"one of {shown}" + (" or another of the options given" if len(enum) > 6 else "")
    kind = schema.get("type")
    if kind == "object":
        return "an object with " + _fields(schema.get("properties", {}))
    if kind == "array":
        return "a list, each " + _kind(schema.get("items", {}))
    if str(schema.get("pattern", "")).endswith(":[0-5][0-9]$"):
        return "a time, HH:MM on the 24-hour clock"
    return {"integer": "a whole number", "number": "a number", "boolean": "true or false"}.get(
        str(kind), "text"
    )
