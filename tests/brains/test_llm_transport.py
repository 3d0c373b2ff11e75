"""The openai transport against the real local protocol server: what it sends for each
output mode and quirk, and each HTTP fault turned into its typed failure."""

from __future__ import annotations

import json

import pytest
from llm_fakes import ask
from llm_helpers import SECRET, serve
from protocol_server import refused_url

from game.brains.llm.model import (
    EmbedRequest,
    EndpointDown,
    FormatRefused,
    NoEmbeddings,
    ParamRefused,
    Quirk,
    Refused,
    Transient,
)
from game.brains.llm.openai_chat import OpenAIChat
from game.core.config import OutputMode as M

SCHEMA = {
    "title": "importance",
    "type": "object",
    "properties": {"ratings": {"type": "array", "items": {"type": "integer"}}},
    "required": ["ratings"],
    "additionalProperties": False,
}


@pytest.fixture
def server():
    yield from serve()


def transport(url: str, timeout: float = 5.0, key: str = SECRET) -> OpenAIChat:
    return OpenAIChat(url, lambda: key, timeout)


def sent(server) -> dict:
    return server.chat_requests()[-1]["body"]


def test_a_reply_carries_text_tokens_and_finish_reason(server) -> None:
    reply = transport(server.url).chat(ask("1. Klaus is reading", schema=SCHEMA))
    assert json.loads(reply.text)["ratings"] and reply.finish_reason == "stop"
    assert reply.prompt_tokens > 0 and reply.completion_tokens > 0 and not reply.replayed
    assert server.chat_requests()[-1]["auth"] == f"Bearer {SECRET}"
    body = sent(server)
    assert body["response_format"]["json_schema"]["name"] == "importance"
    assert "title" not in body["response_format"]["json_schema"]["schema"]
    assert body["max_tokens"] == 300 and body["temperature"] == 0.7


def test_the_lower_modes_tell_the_schema_and_quirks_rename_or_drop_parameters(server) -> None:
    model = transport(server.url)
    quirks = frozenset(Quirk)
    model.chat(ask(schema=SCHEMA, mode=M.JSON_OBJECT, quirks=quirks))
    body = sent(server)
    assert body["response_format"] == {"type": "json_object", "schema": SCHEMA}
    said = body["messages"][-1]["content"]  # the fields in words, not the raw schema
    assert "Reply with only a JSON object with" in said and "additionalProperties" not in said
    assert body["max_completion_tokens"] == 300 and "max_tokens" not in body
    assert "temperature" not in body
    model.chat(ask(schema=SCHEMA, mode=M.TEXT))
    body = sent(server)
    assert "response_format" not in body
    assert "follows this JSON schema" in body["messages"][-1]["content"]


def test_refusals_are_typed(server) -> None:
    model = transport(server.url)
    server.accepts = {"text"}
    with pytest.raises(FormatRefused):
        model.chat(ask(schema=SCHEMA))
    server.refuses = {"max_tokens"}
    with pytest.raises(ParamRefused) as caught:
        model.chat(ask(schema=SCHEMA, mode=M.TEXT))
    assert caught.value.quirk is Quirk.MAX_COMPLETION_TOKENS


@pytest.mark.parametrize(
    ("fault", "words"),
    [
        ("rate_limit", "rate limited (429)"),
        ("server_error", "server error (500)"),
        ("dropped", "hung up"),
        ("hang", "no answer within 0.3 s"),
    ],
)
def test_what_may_pass_is_transient(server, fault, words) -> None:
    server.faults.append(fault)
    server.retry_after = "0.25"
    server.hang_seconds = 1.0
    with pytest.raises(Transient) as caught:
        transport(server.url, timeout=0.3).chat(ask(schema=SCHEMA))
    assert words in str(caught.value)
    assert caught.value.retry_after == (0.25 if fault == "rate_limit" else None)


def test_a_refused_connection_and_a_refused_key_are_down_without_the_key(server) -> None:
    with pytest.raises(EndpointDown, match="cannot reach the model endpoint"):
        transport(refused_url()).chat(ask())
    server.always = "unauthorized"  # echoes the key back
    with pytest.raises(EndpointDown) as caught:
        transport(server.url).chat(ask())
    assert "401" in str(caught.value) and "OPENAI_API_KEY" in str(caught.value)
    assert SECRET not in str(caught.value)


def test_a_request_the_endpoint_rejects_is_refused_not_down(server) -> None:
    server.faults.append("bad_request")
    with pytest.raises(Refused, match=r"rejected the request \(400\): messages") as caught:
        transport(server.url).chat(ask())
    assert type(caught.value) is Refused


def test_embeddings_come_in_order_with_their_tokens(server) -> None:
    reply = transport(server.url).embed(EmbedRequest(("a cafe", "the party"), "e"))
    assert len(reply.vectors) == 2 and len(reply.vectors[0]) == server.dim
    assert reply.prompt_tokens > 0 and reply.vectors[0] != reply.vectors[1]


def test_an_endpoint_without_embeddings_says_so(server) -> None:
    server.embeddings = False
    with pytest.raises(NoEmbeddings, match="404"):
        transport(server.url).embed(EmbedRequest(("a",), "e"))


def test_a_grammar_gets_bounded_integers_as_enums() -> None:
    """llama.cpp builds a grammar from the schema but ignores minimum/maximum: in
    json_object mode a short range goes out as an enum, which it enforces."""
    from game.brains.llm.wire import grammar_schema

    schema = {
        "type": "object",
        "properties": {
            "minutes": {"type": "integer", "minimum": 1, "maximum": 137},
            "year": {"type": "integer", "minimum": 0, "maximum": 5000},
            "score": {"type": "integer", "minimum": 1, "maximum": 10, "enum": [1, 5, 10]},
        },
    }
    out = grammar_schema(schema)["properties"]
    assert out["minutes"]["enum"] == list(range(1, 138))
    assert "enum" not in out["year"]  # too wide to list
    assert out["score"]["enum"] == [1, 5, 10]  # an enum already there stays
    assert "enum" not in schema["properties"]["minutes"]  # the original is untouched
