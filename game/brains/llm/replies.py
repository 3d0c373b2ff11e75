"""An endpoint's answer read and checked, field by field, into a typed reply.

A chat answer, streamed (server-sent events) or whole, and an embedding answer: whatever
an endpoint sends, the caller gets a checked reply or a BadReply naming what is wrong.
Usage counts an endpoint leaves out are estimated here.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from game.brains.llm.flight import Flight
from game.brains.llm.jsontext import Invalid, bounded_json
from game.brains.llm.model import (
    BadReply,
    Cancelled,
    ChatReply,
    ChatRequest,
    EmbedReply,
    EmbedRequest,
    NoEmbeddings,
    Transient,
)
from game.core.text import single_line

MAX_DIM = 16_384  # numbers in one embedding (the largest hosted models use 3,072)
MAX_TOKENS = 10_000_000  # a usage count above this is not believed


@dataclass(frozen=True)
class Streamed:
    """A reply and when its tokens came: what doctor times serving by."""

    reply: ChatReply
    first_token: float  # seconds from sending to the first token (0: it came whole)
    last_token: float  # seconds from sending to the last token, or to the whole answer

    @property
    def streamed(self) -> bool:
        return self.first_token > 0

    def seconds_per_token(self) -> float:
        """The whole request's time over the tokens it wrote: what a caller waits per token."""
        return self.last_token / max(1, self.reply.completion_tokens)

    def tokens_per_second(self) -> float:
        """The generation speed: tokens after the first over the time they took (prompt
        reading excluded); for an answer that came whole, tokens over the whole time."""
        tokens = self.reply.completion_tokens
        span = self.last_token - self.first_token
        if self.streamed and tokens > 1 and span > 0:
            return (tokens - 1) / span
        return tokens / self.last_token if self.last_token > 0 else 0.0


def read_events(lines: Iterator[str], request: ChatRequest, flight: Flight) -> Streamed:
    """A streamed answer from its server-sent events, each chunk checked as a whole
    answer is: text deltas joined, the finish reason and usage kept. Stops at [DONE], at
    the end of the stream, or when the flight is hung up."""
    parts: list[str] = []
    finish, usage, chunks, last = "", {}, 0, 0.0
    for line in lines:
        if flight.gone:
            raise Cancelled("the request was given up while its answer was arriving")
        if not line.startswith("data:"):
            continue  # a comment, an event name or a keep-alive
        data = line[5:].strip()
        if data == "[DONE]":
            break
        delta, ended, counts = _chunk(data)
        usage = counts or usage
        finish = ended or finish
        if delta:
            parts.append(delta)
            chunks += 1
            last = flight.token()
    if not chunks and not finish:
        raise BadReply("the stream ended before any answer")
    choice = {"message": {"content": "".join(parts)}, "finish_reason": finish}
    doc = {"choices": [choice], "usage": usage}
    seconds = flight.seconds()
    reply = chat_reply(doc, request, seconds, seen=chunks)
    return Streamed(reply, flight.first_token_seconds(), last or seconds)


def _chunk(data: str) -> tuple[str, str, dict[str, Any]]:
    """(text, finish reason, usage) of one chunk; BadReply for one that breaks the protocol."""
    try:
        chunk = bounded_json(data, "a chunk of the answer")
    except Invalid as exc:
        raise BadReply(str(exc)) from None
    if not isinstance(chunk, dict):
        raise BadReply(f"a chunk of the answer is a JSON {type(chunk).__name__}, not an object")
    if chunk.get("error"):  # llama.cpp's server reports a failure mid-stream this way
        error = chunk["error"]
        message = error.get("message") if isinstance(error, dict) else error
        raise Transient(f"the endpoint failed mid-answer: {single_line(str(message), 300)}")
    usage = chunk.get("usage") if isinstance(chunk.get("usage"), dict) else {}
    choices = chunk.get("choices", [])
    if not isinstance(choices, list):
        raise BadReply("a chunk of the answer has no list of choices")
    if not choices:
        return "", "", usage
    choice = choices[0]
    delta = choice.get("delta", {}) if isinstance(choice, dict) else None
    if not isinstance(delta, dict):
        raise BadReply("a chunk of the answer has no delta")
    text = delta.get("content")
    if text is not None and not isinstance(text, str):
        raise BadReply(f"a chunk's content is {type(text).__name__}, not text")
    finish = choice.get("finish_reason")
    return text or "", single_line(str(finish or ""), 40), usage


def load_document(raw: bytes) -> dict[str, Any]:
    """The answer's JSON object, parsed with limits on size and depth."""
    try:
        doc = bounded_json(raw.decode("utf-8"), "the answer")
    except UnicodeDecodeError:
        raise BadReply("the answer is not UTF-8 text") from None
    except Invalid as exc:
        raise BadReply(str(exc)) from None
    if not isinstance(doc, dict):
        raise BadReply(f"the answer is a JSON {type(doc).__name__}, not an object")
    return doc


def chat_reply(
    doc: dict[str, Any], request: ChatRequest, seconds: float, seen: int = 0
) -> ChatReply:
    """A checked ChatReply from a chat completion's JSON; BadReply names what is wrong.
    `seen`: the chunks a stream brought, one token each on llama.cpp, vLLM and Ollama,
    for a completion count when the usage is missing."""
    choices = doc.get("choices")
    if not isinstance(choices, list) or not choices:
        raise BadReply("the answer has no choices")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        raise BadReply("the answer's choice has no message")
    text = message.get("content")
    if not isinstance(text, str):
        raise BadReply(f"the answer's content is {type(text).__name__}, not text")
    finish = choice.get("finish_reason")
    usage = doc.get("usage") if isinstance(doc.get("usage"), dict) else {}
    prompt = token_count(usage.get("prompt_tokens"))
    completion = token_count(usage.get("completion_tokens"))
    if prompt is None:
        prompt = sum(estimate_tokens(m.content) for m in request.messages)
    if completion is None:
        completion = seen or estimate_tokens(text)
    return ChatReply(text, prompt, completion, seconds, single_line(str(finish or ""), 40))


def embed_reply(doc: dict[str, Any], request: EmbedRequest, seconds: float) -> EmbedReply:
    """One finite vector per text, all of one length (at most MAX_DIM), in input order."""
    rows = doc.get("data")
    n = len(request.texts)
    if not isinstance(rows, list) or len(rows) != n:
        got = len(rows) if isinstance(rows, list) else 0
        raise BadReply(f"{got} embeddings came back for {n} texts")
    vectors: list[tuple[float, ...] | None] = [None] * n
    for order, row in enumerate(rows):
        index = row.get("index", order) if isinstance(row, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n:
            raise BadReply("an embedding row has no valid index")
        vectors[index] = checked_vector(row.get("embedding"))
    if any(v is None for v in vectors) or len({len(v) for v in vectors if v}) != 1:
        raise BadReply("the embeddings do not cover every text at one dimension")
    usage = doc.get("usage") if isinstance(doc.get("usage"), dict) else {}
    tokens = token_count(usage.get("prompt_tokens"))
    if tokens is None:
        tokens = sum(map(estimate_tokens, request.texts))
    return EmbedReply(tuple(v for v in vectors if v is not None), tokens, seconds)


def checked_vector(raw: Any) -> tuple[float, ...]:
    """One embedding as numbers: finite, 1 to MAX_DIM of them (a per-token answer is
    NoEmbeddings, anything else wrong BadReply). The recording's vectors pass it too."""
    if _per_token(raw):
        raise NoEmbeddings(
            f"the endpoint's /v1/embeddings answered one vector per token ({len(raw)} of "
            "them), not one per text: it serves a chat model, not an embedding model"
        )
    if not isinstance(raw, list) or not 0 < len(raw) <= MAX_DIM:
        size = len(raw) if isinstance(raw, list) else type(raw).__name__
        raise BadReply(f"an embedding of size {size} (1 to {MAX_DIM} numbers expected)")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in raw):
        raise BadReply("an embedding holds something other than numbers")
    vector = tuple(float(x) for x in raw)
    if not all(math.isfinite(x) for x in vector):
        raise BadReply("an embedding holds a value that is not finite")
    return vector


def _per_token(raw: Any) -> bool:
    """llama.cpp serving a chat model with --embedding: a list of equal-length vectors of
    numbers, one per token of the text, where one vector was asked for."""
    if not isinstance(raw, list) or not raw or len(raw) > MAX_DIM:
        return False
    if not isinstance(raw[0], list):
        return False
    rows = [r for r in raw if isinstance(r, list) and r and len(r) == len(raw[0])]
    if len(rows) != len(raw):
        return False
    return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in rows[0])


def token_count(value: Any) -> int | None:
    """A usage count if it is a whole number in range, else None (then estimated)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= MAX_TOKENS else None


def estimate_tokens(text: str) -> int:
    """For an endpoint that sends no usage fields: about four characters a token."""
    return max(1, len(text) // 4)
