"""Retry with backoff: a transient failure (429, 5xx, a timeout, a dropped connection) is
asked again, at most `retries` more times, after the wait the server asked for
(Retry-After) or else an exponential backoff with jitter. Every other failure passes
straight up: retrying cannot mend a refused key or a rejected request.

A server that asks for a wait longer than `MAX_WAIT` is not waited for at all: a 429
with `Retry-After: 99999999999` once held every question for two silent minutes (two
capped waits of 60 s) before the scripted fallback answered. It fails at once, saying
the wait asked, and the breaker rests the endpoint. A wait we do honour that a person
would notice (`NOTICE_WAIT` or more) is said as it starts, never waited out in silence."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from game.brains.llm.model import (
    ChatReply,
    ChatRequest,
    EmbedReply,
    EmbedRequest,
    LanguageModel,
    Transient,
    Wrapper,
)

T = TypeVar("T")
MAX_WAIT = 60.0  # seconds: the longest Retry-After we wait out
NOTICE_WAIT = 10.0  # seconds: a wait at least this long is said


def backoff(attempt: int, base: float = 0.5, cap: float = 30.0) -> float:
    """Exponential with full jitter around the mean, so parallel workers do not march."""
    return min(cap, base * 2 ** (attempt - 1)) * random.uniform(0.5, 1.5)


class Retrying(Wrapper):
    """`on_retry(purpose, agent, failure)` hears of each retry (the usage meter counts
    them, the audit log keeps the failure with its HTTP error body); `on_wait(line)` of
    each long wait, as one line for the person at the game."""

    def __init__(
        self,
        inner: LanguageModel,
        retries: int = 2,
        sleep: Callable[[float], None] = time.sleep,
        on_retry: Callable[[str, str, Exception], None] = lambda purpose, agent, exc: None,
        wait: Callable[[int], float] = backoff,
        on_wait: Callable[[str], None] = lambda line: None,
    ) -> None:
        super().__init__(inner)
        self.retries = max(0, retries)
        self._sleep, self._on_retry, self._wait = sleep, on_retry, wait
        self._on_wait = on_wait

    def chat(self, request: ChatRequest) -> ChatReply:
        return self._retrying(lambda: self.inner.chat(request), request.purpose, request.agent)

    def embed(self, request: EmbedRequest) -> EmbedReply:
        return self._retrying(lambda: self.inner.embed(request), "embeddings", "")

    def _retrying(self, call: Callable[[], T], purpose: str, agent: str) -> T:
        attempt = 0
        while True:
            try:
                return call()
            except Transient as exc:
                attempt += 1
                if attempt > self.retries:
                    raise Transient(f"{exc}; gave up after {attempt} tries") from exc
                asked = exc.retry_after
                if asked is not None and asked > MAX_WAIT:
                    raise Transient(
                        f"{exc}: the endpoint asks for a wait of {asked:.0f} s, longer than"
                        f" the {MAX_WAIT:g} s we wait; not retried"
                    ) from exc
                self._on_retry(purpose, agent, exc)
                wait = asked if asked is not None else self._wait(attempt)
                if wait >= NOTICE_WAIT:
                    self._on_wait(f"waiting {wait:.0f} s before asking the model again ({exc})")
                self._sleep(wait)


class Throttled(Wrapper):
    """At most `limit` requests on the wire at once (0: no limit). llama.cpp's Python
    server answers one request at a time: sent three at once, two wait in its queue and
    time out while the first one runs. Innermost, so a retry's backoff holds no slot."""

    def __init__(self, inner: LanguageModel, limit: int = 0) -> None:
        super().__init__(inner)
        self.limit = max(0, limit)
        self._slots = threading.BoundedSemaphore(self.limit) if self.limit else None

    def chat(self, request: ChatRequest) -> ChatReply:
        if self._slots is None:
            return self.inner.chat(request)
        with self._slots:
            return self.inner.chat(request)

    def embed(self, request: EmbedRequest) -> EmbedReply:
        if self._slots is None:
            return self.inner.embed(request)
        with self._slots:
            return self.inner.embed(request)
