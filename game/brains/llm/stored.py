"""Answers and vectors read back from the record/replay cache, through the checks a live
one passes.

The cache is a file anyone can edit, and it used to be trusted: a vector stored as
`"abc"`, `5` or `null` crashed the reader, `prompt_tokens: Infinity` raised
OverflowError in every importance job, and rows of a million numbers took 102 s and
2.3 GB because the 16,384-dimension cap was only applied on the wire. Here a stored
chat answer is rebuilt as the envelope the endpoint would have sent and read by the same
`chat_reply` (content must be text; token counts whole and in range, else estimated), its
text cleaned as a live one is; a stored vector goes through the same `checked_vector` check
(numbers only, finite, 1 to MAX_DIM of them). What fails is a `Damaged` reason, which
`Recording` uses to ask again (recording) or to skip the entry and say so (replaying).
"""

from __future__ import annotations

import math
from typing import Any

from game.brains.llm.model import ChatReply, ChatRequest, ModelError
from game.brains.llm.replies import MAX_DIM, chat_reply, checked_vector
from game.core.text import clean

# Bytes a stored vector can take: MAX_DIM numbers of at most 24 characters and a comma
# each, and room for the JSON around them. A longer row is refused unread.
MAX_VECTOR_ENTRY = MAX_DIM * 26 + 64


class Damaged(Exception):
    """A stored entry that fails the checks of a live answer; str() says why."""


def stored_chat(answer: dict[str, Any], request: ChatRequest, replayed: bool) -> ChatReply:
    """The ChatReply a stored answer stands for, or Damaged naming what is wrong."""
    finish = answer.get("finish_reason")
    doc = {
        "choices": [
            {
                "message": {"content": answer.get("content")},
                "finish_reason": finish if isinstance(finish, str) else "",
            }
        ],
        "usage": {
            "prompt_tokens": answer.get("prompt_tokens"),
            "completion_tokens": answer.get("completion_tokens"),
        },
    }
    try:
        reply = chat_reply(doc, request, 0.0 if replayed else _seconds(answer.get("seconds")))
    except ModelError as exc:
        raise Damaged(str(exc)) from None
    return ChatReply(
        clean(reply.text),
        reply.prompt_tokens,
        reply.completion_tokens,
        reply.seconds,
        reply.finish_reason,
        replayed,
    )


def chat_problem(answer: dict[str, Any], request: ChatRequest) -> str:
    """Why a stored (non-failure) chat answer cannot be used ('' when it can)."""
    try:
        stored_chat(answer, request, replayed=True)
    except Damaged as exc:
        return str(exc)
    return ""


def stored_vector(answer: dict[str, Any], dim: int | None) -> tuple[float, ...]:
    """The vector a stored entry holds, checked as a live one is and, once the run's
    dimension is known, held to it (a save's vectors are all of one embedder)."""
    try:
        vector = checked_vector(answer.get("vector"))
    except ModelError as exc:
        raise Damaged(str(exc)) from None
    if dim is not None and len(vector) != dim:
        raise Damaged(f"an embedding of {len(vector)} dimensions in a run of {dim}")
    return vector


def _seconds(value: Any) -> float:
    """A stored latency, if it is a finite non-negative number (else 0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    seconds = float(value)
    return seconds if math.isfinite(seconds) and seconds >= 0 else 0.0
