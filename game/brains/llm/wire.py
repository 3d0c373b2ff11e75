"""A chat request as the openai package's arguments: the output mode, the schema in the
form the endpoint can take, and the parameters a model refuses left out.
"""

from __future__ import annotations

from typing import Any

from game.brains.llm.jsontext import schema_hint, schema_words
from game.brains.llm.model import ChatRequest, Quirk
from game.core.config import OutputMode

# The limits a schema carries for grammar-bound servers, dropped for a strict mode that
# refuses them (the same limits are checked in `parse` anyway).
LIMIT_KEYWORDS = ("minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum", "pattern")


def plain_schema(schema: Any) -> Any:
    """The schema without its limit keywords."""
    if isinstance(schema, dict):
        return {k: plain_schema(v) for k, v in schema.items() if k not in LIMIT_KEYWORDS}
    if isinstance(schema, list):
        return [plain_schema(v) for v in schema]
    return schema


# Integer ranges up to this wide become enums for a grammar: llama.cpp's schema-to-grammar
# ignores minimum and maximum, but an enum it enforces.
GRAMMAR_ENUM_SPAN = 200


def grammar_schema(schema: Any) -> Any:
    """The schema as a grammar-building server enforces it: bounded integers as enums."""
    if isinstance(schema, list):
        return [grammar_schema(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: grammar_schema(v) for k, v in schema.items()}
    low, high = out.get("minimum"), out.get("maximum")
    bounded = isinstance(low, int) and isinstance(high, int) and "enum" not in out
    if out.get("type") == "integer" and bounded and 0 <= high - low <= GRAMMAR_ENUM_SPAN:
        out["enum"] = list(range(low, high + 1))
    return out


def chat_arguments(request: ChatRequest) -> dict[str, Any]:
    """The keyword arguments of `chat.completions.create` for this request."""
    messages = request.wire_messages()
    kwargs: dict[str, Any] = {"model": request.model}
    if request.mode is OutputMode.JSON_SCHEMA:
        body = {k: v for k, v in request.schema.items() if k != "title"}
        if Quirk.PLAIN_SCHEMA in request.quirks:
            body = plain_schema(body)
        kwargs["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": request.title, "schema": body, "strict": True},
        }
    elif request.mode is OutputMode.JSON_OBJECT:  # the server enforces it: show a shape
        messages = with_example(messages, request.schema)
        schema = grammar_schema(dict(request.schema))
        kwargs["response_format"] = {"type": "json_object", "schema": schema}
    elif request.schema:  # text: the schema in the prompt (a probe without one asks plainly)
        messages = with_schema(messages, request.schema)
    if Quirk.NO_TEMPERATURE not in request.quirks:
        kwargs["temperature"] = request.temperature
    if request.seed is not None and Quirk.NO_SEED not in request.quirks:
        kwargs["seed"] = request.seed
    long_name = Quirk.MAX_COMPLETION_TOKENS in request.quirks
    kwargs["max_completion_tokens" if long_name else "max_tokens"] = request.max_tokens
    kwargs["messages"] = messages
    return kwargs


def with_schema(messages: list[dict[str, str]], schema: Any) -> list[dict[str, str]]:
    """For endpoints that cannot enforce a schema: state it in the prompt."""
    last = messages[-1]
    note = "\nReply with only a JSON object that follows this JSON schema: "
    note += schema_hint(dict(schema))
    return [*messages[:-1], {**last, "content": last["content"] + note}]


def with_example(messages: list[dict[str, str]], schema: Any) -> list[dict[str, str]]:
    """For json_object endpoints (the schema rides in response_format): the fields named
    in words, never the raw schema a tiny model would echo back, nor an example of the
    shape with placeholder values it would copy."""
    last = messages[-1]
    note = f"\nReply with only {schema_words(dict(schema))}."
    return [*messages[:-1], {**last, "content": last["content"] + note}]
