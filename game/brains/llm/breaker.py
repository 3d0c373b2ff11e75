"""The circuit breaker: two ways an endpoint stops being asked.

An endpoint that cannot work (EndpointDown: refused connection, refused key, unknown
model) is down for good: that is said once, or under `strict` the run is asked to stop,
and every later request fails at once without touching the network. One that keeps
failing (`threshold` failed requests in a row: hanging, 5xx storms) rests for
`rest_seconds`, so scripted answers stand in instead of every question waiting it out.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from game.brains.llm.model import (
    ChatReply,
    ChatRequest,
    EmbedReply,
    EmbedRequest,
    EndpointDown,
    LanguageModel,
    RequestFailed,
    Resting,
    Signals,
    Wrapper,
)


class Breaker(Wrapper):
    def __init__(
        self,
        inner: LanguageModel,
        signals: Signals,
        threshold: int = 3,
        rest_seconds: float = 30.0,
        strict: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(inner)
        self.signals = signals
        self.threshold, self.rest_seconds, self.strict = max(1, threshold), rest_seconds, strict
        self._clock = clock
        self._lock = threading.Lock()
        self._down = ""
        self._failing = 0  # requests failed in a row
        self._rest_until = float("-inf")

    @property
    def down(self) -> str:
        """Why the endpoint is unusable ('' while it works)."""
        return self._down

    def chat(self, request: ChatRequest) -> ChatReply:
        self._check(resting_too=True)
        try:
            reply = self.inner.chat(request)
        except EndpointDown as exc:
            self._go_down(str(exc))
            raise
        except RequestFailed as exc:
            self._failed(str(exc))
            raise
        with self._lock:
            self._failing = 0
        return reply

    def embed(self, request: EmbedRequest) -> EmbedReply:
        self._check(resting_too=False)
        try:
            return self.inner.embed(request)
        except EndpointDown as exc:
            self._go_down(str(exc))
            raise

    def _check(self, resting_too: bool) -> None:
        if self._down:
            raise EndpointDown(self._down)
        if resting_too and self._clock() < self._rest_until:
            raise Resting("the model endpoint is resting after failing repeatedly")

    def _failed(self, problem: str) -> None:
        with self._lock:
            self._failing += 1
            if self._failing < self.threshold:
                return
            self._failing = 0
            self._rest_until = self._clock() + self.rest_seconds
        self.signals.tell(
            f"the model endpoint keeps failing ({problem}); scripted answers for "
            f"{self.rest_seconds:g} s"
        )

    def _go_down(self, reason: str) -> None:
        with self._lock:
            if self._down:
                return
            self._down = reason
        if self.strict:
            self.signals.stop(reason)
        else:
            self.signals.tell(f"{reason}: the residents continue on the scripted brain")
