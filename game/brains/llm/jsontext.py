"""JSON out of a model's reply, and a schema told in words for endpoints that cannot
enforce one.

Endpoints without structured output (and small models with it) wrap JSON in prose or in
Markdown fences; `extract_json` finds the first balanced object in the text.
"""

from __future__ import annotations

import json
from typing import Any


class Invalid(ValueError):
    """An answer that breaks the schema or its meaning. The message is sent back to the
    model on a retry, so it says what was wrong in plain words."""


def extract_json(text: str) -> dict[str, Any]:
    """The first JSON object in `text`; Invalid when there is none."""
    text = (text or "").strip()
    if not text:
        raise Invalid("the reply was empty; reply with a JSON object")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = _first_object(text)
    if not isinstance(value, dict):
        raise Invalid("the reply must be a JSON object, not " + type(value).__name__)
    return value


def _first_object(text: str) -> Any:
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
            return value
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
    raise Invalid("the reply held no valid JSON object")


def schema_hint(schema: dict[str, Any]) -> str:
    """The schema as compact JSON, for the prompt when the endpoint cannot enforce it."""
    return json.dumps(schema, separators=(",", ":"), ensure_ascii=False)
