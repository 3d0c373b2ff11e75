"""The usage meter and the budget guard as wrappers (the ledger and the guard themselves
are game/brains/usage.py and game/brains/budget.py).

`Metered` sits above the recording, so a replayed run reports the calls and tokens of
the recorded one (`replayed` says how many came from the file). `Budgeted` sits above
the meter and the recording: a replayed request is still a call the cap counts, so a
replay stops spending where the recorded run did.
"""

from __future__ import annotations

from collections.abc import Callable

from game.brains.budget import BudgetGuard
from game.brains.llm.model import (
    BudgetSpent,
    ChatReply,
    ChatRequest,
    EmbedReply,
    EmbedRequest,
    LanguageModel,
    ModelError,
    RequestFailed,
    Wrapper,
)
from game.brains.usage import UsageMeter

EMBEDDINGS = "embeddings"  # the meter's line for embedding requests


class Metered(Wrapper):
    """Answered requests add calls, tokens, latency and cost; failed ones a failure."""

    def __init__(self, inner: LanguageModel, meter: UsageMeter) -> None:
        super().__init__(inner)
        self.meter = meter

    def chat(self, request: ChatRequest) -> ChatReply:
        try:
            reply = self.inner.chat(request)
        except ModelError:
            self.meter.count("failures", request.purpose, request.agent)
            raise
        self.meter.call(
            request.purpose,
            request.agent,
            reply.prompt_tokens,
            reply.completion_tokens,
            reply.seconds,
            cheap=request.cheap,
            replayed=reply.replayed,
        )
        return reply

    def embed(self, request: EmbedRequest) -> EmbedReply:
        """A batch answered wholly from the recording is a cache hit, not a call."""
        try:
            reply = self.inner.embed(request)
        except RequestFailed:
            self.meter.count("failures", EMBEDDINGS)
            raise
        if not reply.replayed:
            self.meter.call(EMBEDDINGS, "", reply.prompt_tokens, 0, reply.seconds)
        elif request.texts:
            self.meter.count("cache_hits", EMBEDDINGS)
        return reply


class Budgeted(Wrapper):
    """No chat request past the cap. The first refusal is told (once, by the guard); the
    caller falls back to the scripted brain. Embeddings are not capped: a memory without
    a vector would lose its relevance score for good."""

    def __init__(
        self,
        inner: LanguageModel,
        guard: BudgetGuard,
        tell: Callable[[str], None] = lambda message: None,
    ) -> None:
        super().__init__(inner)
        self.guard, self._tell = guard, tell

    def chat(self, request: ChatRequest) -> ChatReply:
        allowed, message = self.guard.allow()
        if message:
            self._tell(message)
        if not allowed:
            raise BudgetSpent(self.guard.exhausted)
        return self.inner.chat(request)
