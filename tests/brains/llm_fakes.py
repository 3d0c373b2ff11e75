"""A test double of OUR LanguageModel protocol (never of the `openai` package): it answers
from a queue of replies and failures, and keeps every request it was sent."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from game.brains.llm.model import (
    ChatReply,
    ChatRequest,
    EmbedReply,
    EmbedRequest,
    Message,
    Role,
)

OK = ChatReply('{"ok": true}', prompt_tokens=10, completion_tokens=5, seconds=0.1)


def ask(text: str = "rate this", **changes: Any) -> ChatRequest:
    base = ChatRequest(
        messages=(Message(Role.SYSTEM, "be brief"), Message(Role.USER, text)),
        schema={"title": "importance", "type": "object"},
        model="m",
        purpose="importance",
        agent="Klaus",
    )
    return replace(base, **changes)


def vector(text: str) -> tuple[float, ...]:
    return (float(len(text)), 1.0)


class FakeModel:
    """`outcomes` are given out in order (a ChatReply / EmbedReply to return, an exception
    to raise); once they run out, chat answers OK and embed answers `vector(text)`."""

    def __init__(self, *outcomes: Any) -> None:
        self.outcomes = list(outcomes)
        self.chats: list[ChatRequest] = []
        self.embeds: list[EmbedRequest] = []

    def chat(self, request: ChatRequest) -> ChatReply:
        self.chats.append(request)
        return self._next(OK)

    def embed(self, request: EmbedRequest) -> EmbedReply:
        self.embeds.append(request)
        made = EmbedReply(tuple(vector(t) for t in request.texts), len(request.texts), 0.2)
        return self._next(made)

    def _next(self, default: Any) -> Any:
        outcome = self.outcomes.pop(0) if self.outcomes else default
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome


class Offline(FakeModel):
    """A model that must never be asked (a replay)."""

    def _next(self, default: Any) -> Any:
        raise AssertionError("the network was asked")
