"""The structured-output ladder, and what else an endpoint turns out to refuse.

`json_schema` first; an endpoint that rejects it gets `json_object` with the schema beside
it (what llama.cpp's server takes); one that rejects that too gets plain text with the
schema in the prompt, and the JSON is dug out of the reply. Newer OpenAI models refuse
`max_tokens` or a temperature; their 400 names the parameter and the request is adapted.
What was learnt is kept by this instance (one per endpoint a brain talks to) for its
life, so every later request is right the first time; nothing is process-global.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import replace

from game.brains.llm.model import (
    ChatReply,
    ChatRequest,
    FormatRefused,
    LanguageModel,
    ParamRefused,
    Quirk,
    Refused,
    Wrapper,
)
from game.core.config import OutputMode

log = logging.getLogger("smallville.llm")

LADDER = (OutputMode.JSON_SCHEMA, OutputMode.JSON_OBJECT, OutputMode.TEXT)


class ModeLadder(Wrapper):
    """`forced` other than AUTO pins one mode: a refusal of it is then final. `start` is
    the rung remembered from an earlier run; `on_settle(mode)` hears, once, of the first
    mode that answered (the brain keeps it in the user cache)."""

    def __init__(
        self,
        inner: LanguageModel,
        forced: OutputMode = OutputMode.AUTO,
        endpoint: str = "",
        start: OutputMode | None = None,
        on_settle: Callable[[OutputMode], None] = lambda mode: None,
        on_refused: Callable[[ChatRequest, Exception], None] = lambda request, exc: None,
    ) -> None:
        super().__init__(inner)
        self.forced, self.endpoint = forced, endpoint
        self._lock = threading.Lock()
        self._mode = start if start in LADDER else LADDER[0]
        self._quirks: frozenset[Quirk] = frozenset()
        self._on_settle = on_settle
        self._on_refused = on_refused  # the audit log keeps each refusal's error body
        self._settled = False
        self.steps: list[str] = []  # what was refused, in order, for the report

    @property
    def settled(self) -> bool:
        """True once a request has been answered in the current mode."""
        return self._settled

    @property
    def mode(self) -> OutputMode:
        return self.forced if self.forced is not OutputMode.AUTO else self._mode

    @property
    def quirks(self) -> frozenset[Quirk]:
        return self._quirks

    def chat(self, request: ChatRequest) -> ChatReply:
        while True:
            mode, quirks = self.mode, self._quirks
            try:
                reply = self.inner.chat(replace(request, mode=mode, quirks=quirks))
            except ParamRefused as exc:
                self._on_refused(replace(request, mode=mode, quirks=quirks), exc)
                if not self._learn(exc.quirk):
                    raise Refused(f"the endpoint rejected the request: {exc}") from exc
                continue
            except FormatRefused as exc:
                self._on_refused(replace(request, mode=mode, quirks=quirks), exc)
                if self.forced is not OutputMode.AUTO or mode is OutputMode.TEXT:
                    raise Refused(f"the endpoint rejected the request: {exc}") from exc
                self._step_down(mode, str(exc))
                continue
            self._settle(mode)
            return reply

    def _settle(self, mode: OutputMode) -> None:
        with self._lock:
            first = not self._settled
            self._settled = True
        if first:
            self._on_settle(mode)

    def _learn(self, quirk: Quirk) -> bool:
        """False when it was known already (the endpoint refuses for another reason)."""
        with self._lock:
            known = quirk in self._quirks
            self._quirks |= {quirk}
        return not known

    def _step_down(self, rejected: OutputMode, why: str) -> None:
        """One rung down from the mode refused; a parallel request may have stepped already."""
        with self._lock:
            if self._mode is rejected:
                self._mode = LADDER[LADDER.index(rejected) + 1]
                self.steps.append(f"{rejected.value} refused ({why[:160]})")
            after = self._mode
        log.info("%s rejected %s output; using %s", self.endpoint, rejected.value, after.value)
