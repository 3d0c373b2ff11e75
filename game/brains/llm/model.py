"""The language-model protocol inside the LLM brain, and the typed values that cross it.

Every part of the client is a `LanguageModel` that takes the next one inside it: the
openai transport at the centre, then retry, the output-mode ladder, record/replay, the
meter, the audit log, the budget and the circuit breaker. Each does one thing, so each is
tested alone against a fake inner model (the shape of Concordia's language_model
wrappers). A request that gets no usable reply raises one of a small hierarchy of
exceptions, so a caller handles a failure by its type, never by a key in a dict.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum, StrEnum
from typing import Any, Protocol, runtime_checkable

from game.brains.audit import redact
from game.core.config import OutputMode
from game.core.errors import SmallvilleError
from game.core.text import single_line


class Role(StrEnum):
    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"


@dataclass(frozen=True)
class Message:
    role: Role
    content: str

    def as_dict(self) -> dict[str, str]:
        return {"role": str(self.role), "content": self.content}


class Quirk(Enum):
    """A request parameter some endpoint refuses, learnt from its 400 answer."""

    MAX_COMPLETION_TOKENS = "max_completion_tokens"  # newer OpenAI models: not max_tokens
    NO_TEMPERATURE = "no_temperature"  # reasoning models take none
    NO_SEED = "no_seed"  # an endpoint that refuses a seed
    PLAIN_SCHEMA = "plain_schema"  # strict json_schema without limits (minLength...)


# Re-asks after an invalid answer: re-ask k (1, 2, ...) is sent at min(cap, base + k *
# step), never cooler than the base, with seed k. The base is the configured temperature,
# so the steps add up from it and never compound (docs/LLM.md states them).
RETRY_WARMING = 0.15  # temperature added per re-ask
RETRY_TEMPERATURE_CAP = 1.2


def reask_temperature(base: float, attempt: int) -> float:
    """The temperature of re-ask `attempt` (0 = the first ask) from the configured base."""
    if attempt <= 0:
        return base
    return round(max(base, min(RETRY_TEMPERATURE_CAP, base + RETRY_WARMING * attempt)), 3)


def correction_note(problems: Sequence[str]) -> str:
    """What a re-ask adds to the prompt: how many answers were rejected, and why, in order
    (the same reason said once)."""
    reasons = list(dict.fromkeys(problems))
    n = len(problems)
    if n <= 1:
        head = f"An earlier answer to this was rejected: {reasons[0] if reasons else ''}."
    elif len(reasons) == 1:
        head = f"{n} earlier answers to this were rejected, each because {reasons[0]}."
    else:
        head = f"{n} earlier answers to this were rejected: {'; then '.join(reasons)}."
    return f"{head} Write a new answer that fixes this, as the JSON object only."


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion asked for. `purpose` (the question's name) and `agent` say who
    asked, for the meter and the audit log; they never reach the endpoint.

    `messages` are the question's prompt as first asked; a re-ask adds `correction`, what
    was wrong, which goes out at the end of the last user message (see `wire_messages`)."""

    messages: tuple[Message, ...]
    schema: Mapping[str, Any]
    model: str
    purpose: str = ""
    agent: str = ""
    max_tokens: int = 300
    temperature: float = 0.7
    cheap: bool = False  # priced as the cheap model
    mode: OutputMode = OutputMode.JSON_SCHEMA  # set by the ladder
    quirks: frozenset[Quirk] = frozenset()  # set by the ladder
    seed: int | None = None  # set on a re-ask, so a sampling server answers anew
    correction: str = ""  # set on a re-ask: what was wrong with the last answer
    base_temperature: float | None = None  # the first ask's, kept by a re-ask

    @property
    def title(self) -> str:
        return str(self.schema.get("title", "answer"))

    def wire_messages(self) -> list[dict[str, str]]:
        out = [m.as_dict() for m in self.messages]
        if self.correction and out:
            last = out[-1]
            out[-1] = {**last, "content": f"{last['content']}\n{self.correction}"}
        return out

    def key(self) -> dict[str, Any]:
        """What decides the answer: the recording's key (the model is keyed beside it)."""
        key: dict[str, Any] = {"messages": self.wire_messages(), "schema": dict(self.schema)}
        if self.seed is not None:  # a re-ask: another answer than the first try's
            key.update(seed=self.seed, temperature=self.temperature)
        return key

    def corrected(self, problem: str, attempt: int = 1, earlier: Sequence[str] = ()) -> ChatRequest:
        """The request asked again, saying what was wrong with the answer it got.

        The bad answer is never quoted back as the assistant's turn: tiny models copy
        their own last turn (4 of 13 re-asks came back byte for byte the same). The note
        joins the user message, since some chat formats refuse two user turns in a row.
        The seed changes and the temperature steps up from the base (reask_temperature):
        a grammar-bound server asked the same thing with the same sampling answers byte
        for byte the same (171 of 270 retries did, against llama.cpp). `earlier` are the
        problems of the answers before this one, so each re-ask's prompt differs from the
        last one's even when the problem is the same (llama.cpp's server serves a prompt
        it has read from its cache, and its grammar-bound sampler repeats itself)."""
        base = self.temperature if self.base_temperature is None else self.base_temperature
        return replace(
            self,
            correction=correction_note([*earlier, problem]),
            seed=attempt,
            temperature=reask_temperature(base, attempt),
            base_temperature=base,
        )

    def cut_off_from(self, original: ChatRequest, cap: int) -> ChatRequest:
        """A re-ask of an answer stopped by max_tokens: twice the room, within `cap`."""
        return replace(self, max_tokens=max(original.max_tokens, min(cap, original.max_tokens * 2)))


@dataclass(frozen=True)
class ChatReply:
    text: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float = 0.0
    finish_reason: str = ""
    replayed: bool = False  # from the recording, not the network


@dataclass(frozen=True)
class EmbedRequest:
    texts: tuple[str, ...]
    model: str


@dataclass(frozen=True)
class EmbedReply:
    vectors: tuple[tuple[float, ...], ...]  # one per text, in order
    prompt_tokens: int = 0
    seconds: float = 0.0
    replayed: bool = False  # every vector from the recording: no request was sent


@runtime_checkable
class LanguageModel(Protocol):
    def chat(self, request: ChatRequest) -> ChatReply: ...

    def embed(self, request: EmbedRequest) -> EmbedReply: ...


class Wrapper:
    """A LanguageModel around another; what a wrapper does not override passes through."""

    def __init__(self, inner: LanguageModel) -> None:
        self.inner = inner

    def chat(self, request: ChatRequest) -> ChatReply:
        return self.inner.chat(request)

    def embed(self, request: EmbedRequest) -> EmbedReply:
        return self.inner.embed(request)


# -- what can go wrong ------------------------------------------------------------------------
class ModelError(SmallvilleError):
    """No usable reply. Its text is a line for a person, the key already redacted."""


class EndpointDown(ModelError):
    """The endpoint cannot be used at all: refused connection, refused key, no such model,
    no quota. Retrying cannot mend it."""


class Resting(ModelError):
    """The circuit breaker holds requests back while a failing endpoint rests."""


class BudgetSpent(ModelError):
    """The budget guard said no: the cap on cost or calls is reached."""


class ReplayMiss(ModelError):
    """--replay met a request the recording does not hold."""


class Cancelled(ModelError):
    """The run or the window is ending: requests in flight are dropped, none are sent."""


class NoEmbeddings(ModelError):
    """The endpoint has no usable /v1/embeddings."""


class RequestFailed(ModelError):
    """One request failed; the next one may work."""


class Transient(RequestFailed):
    """429, 5xx, a timeout or a dropped connection: worth another try after a wait."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after  # seconds the server asked for, if it did


class Refused(RequestFailed):
    """The endpoint rejected the request as asked (a 4xx other than the ones above)."""


class FormatRefused(Refused):
    """A refusal of our response_format (a 400, 422 or 500 naming it, as llama.cpp's
    server answers json_schema): the ladder steps down; the endpoint is not down."""


class ParamRefused(Refused):
    """A 400 naming a parameter this model refuses: the ladder adapts and asks again."""

    def __init__(self, quirk: Quirk, message: str) -> None:
        super().__init__(message)
        self.quirk = quirk


class BadReply(RequestFailed):
    """An answer that is not what was asked for: its envelope breaks the protocol (no
    message, content that is not text, usage that is not a count, the wrong number of
    vectors, a NaN), it is too large or too deeply nested, or it cannot be read at all.
    The question path turns it into a counted fallback, like any failed request."""


# -- what the stack says to a person ------------------------------------------------------------
class Signals:
    """Notices for the person at the game and the request to stop a run, shared by the parts
    of one stack (never global). Every line passes through redaction of the key: an
    endpoint may echo it back inside an error."""

    def __init__(
        self,
        notify: Callable[[str], None] = lambda message: None,
        secret: Callable[[], str] = lambda: "",
        also: tuple[str, ...] = (),
    ) -> None:
        self._notify, self._secret, self._also = notify, secret, also
        self._lock = threading.Lock()
        self._fatal = ""

    @property
    def fatal(self) -> str:
        """Why the run must stop ('' while it may go on)."""
        return self._fatal

    def clean(self, text: str) -> str:
        return single_line(redact(text, [self._secret(), *self._also]))

    def tell(self, message: str) -> None:
        self._notify(self.clean(message))

    def stop(self, reason: str) -> None:
        """Ask the run to stop; whoever stops it (the CLI) says why, once."""
        with self._lock:
            if not self._fatal:
                self._fatal = self.clean(reason)
