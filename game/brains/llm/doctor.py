"""`python main.py doctor`: what the configured endpoint can do, asked with a few tiny
requests, and the settings to use with it.

It tries each output mode (json_schema, json_object, text) with a one-line question,
asks /v1/embeddings for two texts, asks a small schema-bound question a few times to see
whether the model follows the schema, and times serving with answers of one length: a
request told to count, with a fixed `max_tokens` it fills, alone and then two at once.
Per generated token, a server that serves one request at a time makes the pair wait about
twice as long as the one alone (then max_parallel 1); a server that batches them does
not. Comparing per token, with the lengths forced equal, is what makes it hold: two
answers of different lengths compared by their whole times told a serial server apart
from a parallel one by chance (Gemma 3 270M, 2 of 2 tries). The alone request also gives
the generation speed (tokens after the first over the time they took), which a run's
answer budgets are made from (flight.Pace). The verdict and the settings are printed
and kept in the user cache (see settled.py), where the next run starts from them.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from game.brains.audit import public_url
from game.brains.llm.jsontext import Invalid, extract_json
from game.brains.llm.model import (
    ChatReply,
    ChatRequest,
    EmbedRequest,
    EndpointDown,
    FormatRefused,
    Message,
    ModelError,
    ParamRefused,
    Quirk,
    Role,
)
from game.brains.llm.modes import LADDER
from game.brains.llm.openai_chat import DEFAULT_URL, OpenAIChat
from game.brains.llm.replies import Streamed
from game.brains.llm.settled import EndpointMemory
from game.core.config import LLMSettings, OutputMode

PROBE_SCHEMA = {
    "title": "check",
    "type": "object",
    "properties": {
        "color": {"type": "string", "enum": ["red", "green", "blue"]},
        "count": {"type": "integer", "minimum": 1, "maximum": 5, "enum": [1, 2, 3, 4, 5]},
        "word": {"type": "string", "minLength": 2, "maxLength": 40},
    },
    "required": ["color", "count", "word"],
    "additionalProperties": False,
}
PROBE_PROMPT = "Pick a color, a count from 1 to 5, and one word describing the sky."
TRIES = 3
# The timing probe: an answer any model writes on and on, cut off at FILL_TOKENS, so the
# requests compared are of one length.
# Its prompt is a few hundred tokens long, so the first request's time to its first
# token says how fast the server reads a prompt: the first-token deadline must cover the
# longest prompt the game sends (PROMPT_ROOM) read at that speed.
FILL_PROMPT = (
    "Counting in digits starts like this: "
    + " ".join(str(n) for n in range(1, 201))
    + ". Count from 1 to 1000 in digits, the numbers separated by single spaces. "
    "Write only the numbers."
)
FILL_TOKENS = 32
PROMPT_ROOM = 2_000  # tokens of the game's longest prompts (a decomposition with memories)
SERIAL_RATIO = 1.6  # per-token time of two at once over one alone: one at a time above it
# The timing probe waits this long for its first token, whatever the configured timeout:
# it reads a prompt of some hundred tokens cold, which took Qwen 1.5B on a shared 2-core
# CPU over the default 60 s, and a probe given up measures nothing.
PROBE_FIRST_TOKEN = 600.0
PROBE_BUDGET = 300.0  # and this long at least for its answer of FILL_TOKENS


@dataclass(frozen=True)
class Verdict:
    endpoint: str
    model: str
    modes: dict[str, str]  # mode -> 'works' or why not
    mode: OutputMode | None
    embeddings: str  # 'works (N dimensions)' or why not
    latency: float  # seconds to the first token of a small answer (to all of it unstreamed)
    tokens_per_second: float  # generation speed, from the timing probe
    follows_schema: str  # 'k of n'
    max_parallel: int  # 1 when two requests took as long as two in a row, else 0
    problems: list[str] = field(default_factory=list)
    serving: str = ""  # the timing probe's figures, for a person
    prompt_speed: float = 0.0  # prompt tokens read a second (0: not measured)

    @property
    def usable(self) -> bool:
        return self.mode is not None

    def line(self) -> str:
        if not self.usable:
            return f"unusable: {'; '.join(self.problems) or 'no output mode works'}"
        mode = self.mode.value if self.mode else "none"
        speed = f"{self.latency:.1f} s to the first token, {self.tokens_per_second:.1f} tokens/s"
        serving = "one request at a time" if self.max_parallel == 1 else "requests in parallel"
        if not self.serving:
            serving = "serving not measured"
        return f"usable in {mode} mode; {speed}; {serving}; schema followed {self.follows_schema}"

    def first_token_deadline(self) -> int:
        """Seconds to allow to the first token: twice the time the longest prompt takes to
        read at the measured speed (else twenty small answers' worth), at least 30."""
        if self.prompt_speed > 0:
            return max(30, round(2 * PROMPT_ROOM / self.prompt_speed))
        return max(30, round(self.latency * 20))

    def settings(self) -> dict[str, Any]:
        """The settings to put in the config file's [llm] table."""
        out: dict[str, Any] = {}
        if self.mode is not None:
            out["output_mode"] = self.mode.value
        if self.max_parallel:
            out["max_parallel"] = self.max_parallel
        out["timeout"] = self.first_token_deadline()
        if not self.embeddings.startswith("works"):
            out["embeddings"] = False
        return out


def check(settings: LLMSettings, say: Callable[[str], None] = lambda line: None) -> Verdict:
    """Ask the endpoint; every failure becomes part of the verdict, never an exception."""
    chat = OpenAIChat(
        settings.base_url,
        settings.api_key,
        settings.timeout,
        settings.api_key_env,
        key_source=settings.key_source,
    )
    endpoint = public_url(settings.base_url or DEFAULT_URL)
    problems: list[str] = []
    try:
        modes, mode, quirks = _modes(chat, settings, say, problems)
        embeddings = _embeddings(chat, settings, say)
        follows = _follows(chat, settings, mode, quirks, say) if mode else "0 of 0"
        warm = _warm(chat, settings, mode, quirks) if mode else None
        latency = (warm.first_token or warm.last_token) if warm else 0.0
        timing = _timing(chat, settings, quirks, say) if warm else None
    finally:
        chat.close()
    return Verdict(
        endpoint,
        settings.model,
        modes,
        mode,
        embeddings,
        latency,
        timing.speed if timing else 0.0,
        follows,
        1 if timing and timing.serial else 0,
        problems,
        timing.line() if timing else "",
        timing.prompt_speed if timing else 0.0,
    )


def remember(verdict: Verdict) -> None:
    """The verdict in the user cache: the next run starts on its mode and parallelism,
    and makes its answer budgets from the measured speed."""
    facts: dict[str, Any] = {"verdict": verdict.line(), "embeddings": verdict.embeddings}
    if verdict.mode is not None:
        facts.update(mode=verdict.mode, mode_from="doctor")
    facts["max_parallel"] = verdict.max_parallel
    if verdict.tokens_per_second > 0:
        facts["tokens_per_second"] = round(verdict.tokens_per_second, 2)
    if verdict.usable:
        facts["first_token"] = verdict.first_token_deadline()
    EndpointMemory().put(verdict.endpoint, verdict.model, **facts)


def remembered(settings: LLMSettings, memory: EndpointMemory | None = None) -> str:
    """The verdict `remember` kept for this endpoint and model ('' if never checked): the
    start screen shows it, so a player learns before starting whether the model will do."""
    endpoint = public_url(settings.base_url or DEFAULT_URL)
    return (memory or EndpointMemory()).get(endpoint, settings.model).verdict


def _request(settings: LLMSettings, mode: OutputMode, quirks, seed: int | None = None):
    return ChatRequest(
        messages=(Message(Role.USER, PROBE_PROMPT),),
        schema=PROBE_SCHEMA,
        model=settings.model,
        purpose="doctor",
        max_tokens=60,
        temperature=settings.temperature,
        mode=mode,
        quirks=quirks,
        seed=seed,
    )


def _ask(chat: OpenAIChat, request: ChatRequest) -> tuple[ChatReply, frozenset[Quirk]]:
    """One request, adapting to parameters the model refuses (as the ladder does)."""
    streamed, quirks = _timed(chat, request)
    return streamed.reply, quirks


def _timed(chat: OpenAIChat, request: ChatRequest) -> tuple[Streamed, frozenset[Quirk]]:
    quirks = request.quirks
    for _ in range(len(Quirk) + 1):
        try:
            return chat.stream(replace(request, quirks=quirks)), quirks
        except ParamRefused as exc:
            if exc.quirk in quirks:
                raise
            quirks = quirks | {exc.quirk}
    raise ModelError("the endpoint refuses every variant of the request")


def _modes(chat, settings, say, problems):
    modes: dict[str, str] = {}
    settled: OutputMode | None = None
    quirks: frozenset[Quirk] = frozenset()
    for mode in LADDER:
        try:
            _, quirks = _ask(chat, _request(settings, mode, quirks))
        except FormatRefused as exc:
            modes[mode.value] = f"refused ({str(exc)[:120]})"
        except EndpointDown as exc:
            problems.append(str(exc))
            modes[mode.value] = f"endpoint down ({str(exc)[:120]})"
            break
        except ModelError as exc:
            modes[mode.value] = f"failed ({str(exc)[:120]})"
        else:
            modes[mode.value] = "works"
            if settled is None:
                settled = mode
        say(f"  {mode.value:<12} {modes[mode.value]}")
    return modes, settled, quirks


def _embeddings(chat: OpenAIChat, settings: LLMSettings, say) -> str:
    try:
        reply = chat.embed(EmbedRequest(("Smallville", "a small town"), settings.embed_model))
        found = f"works ({len(reply.vectors[0])} dimensions)"
    except ModelError as exc:
        found = f"not usable: {str(exc)[:160]}"
    say(f"  embeddings   {found}")
    return found


def _follows(chat, settings, mode, quirks, say) -> str:
    good = 0
    for attempt in range(TRIES):
        try:
            reply, _ = _ask(chat, _request(settings, mode, quirks, seed=attempt))
            good += _fits(extract_json(reply.text))
        except (ModelError, Invalid):
            pass
    found = f"{good} of {TRIES}"
    say(f"  schema       followed {found}")
    return found


def _fits(answer: dict[str, Any]) -> bool:
    props = PROBE_SCHEMA["properties"]
    if set(answer) != set(props):
        return False
    word = answer["word"]
    return (
        answer["color"] in props["color"]["enum"]
        and answer["count"] in props["count"]["enum"]
        and isinstance(word, str)
        and 2 <= len(word) <= 40
    )


def _warm(chat, settings, mode, quirks) -> Streamed | None:
    """One request after the first few: its time is the endpoint's, not its warming up
    (the first request to llama.cpp's server evaluates the whole prompt cold)."""
    try:
        return _timed(chat, _request(settings, mode, quirks, seed=9))[0]
    except ModelError:
        return None


@dataclass(frozen=True)
class Timing:
    """The timing probe: one answer of FILL_TOKENS alone, then two at once."""

    alone: Streamed
    together: tuple[Streamed, ...]  # those of the pair that answered
    cold: Streamed  # the first alone: its prompt read from nothing cached

    @property
    def prompt_speed(self) -> float:
        """Prompt tokens read a second, from the cold request's wait for its first token."""
        first = self.cold.first_token
        return self.cold.reply.prompt_tokens / first if first > 0 else 0.0

    @property
    def speed(self) -> float:
        return self.alone.tokens_per_second()

    @property
    def pair_failed(self) -> bool:
        """One of the pair got no answer, or one that ended with no finish reason (a
        server that serves one at a time may drop or stop the running request for the
        next: llama-cpp-python's ends its stream unfinished, with [DONE] and no reason)."""
        return len(self.together) < 2 or any(not s.reply.finish_reason for s in self.together)

    @property
    def ratio(self) -> float:
        """The slower of the pair's time per token over the one alone's."""
        if self.pair_failed:
            return 0.0
        alone = self.alone.seconds_per_token()
        return max(s.seconds_per_token() for s in self.together) / alone if alone > 0 else 0.0

    @property
    def serial(self) -> bool:
        """One request at a time: the pair waited about twice as long per token, or the
        server could not answer both (a server that batches answers two at once whole)."""
        return self.pair_failed or self.ratio > SERIAL_RATIO

    def lengths(self) -> tuple[int, ...]:
        return tuple(s.reply.completion_tokens for s in (self.alone, *self.together))

    def line(self) -> str:
        per = self.alone.seconds_per_token()
        pair = (
            "the pair failed (one of two at once got no whole answer)"
            if self.pair_failed
            else f"{per * self.ratio:.3f} s two at once"
        )
        sizes = " and ".join(map(str, self.lengths()))
        note = "" if len(set(self.lengths())) == 1 else " (lengths differ: compared per token)"
        reading = f", {self.prompt_speed:.0f} read" if self.prompt_speed else ""
        return (
            f"{per:.3f} s a token alone, {pair} ({sizes} tokens){note}; "
            f"{self.speed:.1f} tokens/s generated{reading}"
        )


def _fill(settings: LLMSettings, quirks: frozenset[Quirk]) -> ChatRequest:
    """The timing probe: plain text, no schema, an answer that runs past max_tokens."""
    return ChatRequest(
        messages=(Message(Role.USER, FILL_PROMPT),),
        schema={},
        model=settings.model,
        purpose="doctor",
        max_tokens=FILL_TOKENS,
        temperature=0.0,
        mode=OutputMode.TEXT,
        quirks=quirks,
    )


def _timing(chat, settings, quirks, say) -> Timing | None:
    """One probe alone, then two at once: per generated token, does the pair wait twice
    as long (one at a time) or about as long (in parallel)?"""
    pace = chat.pace
    chat.pace = replace(
        pace,
        first_token=max(pace.first_token, PROBE_FIRST_TOKEN),
        floor=max(pace.floor, PROBE_BUDGET),
    )
    try:  # twice, the faster kept: the first may read the prompt cold, the pair will not
        first, quirks = _timed(chat, _fill(settings, quirks))
        second, quirks = _timed(chat, _fill(settings, quirks))
    except ModelError as exc:
        say(f"  serving      not measured ({str(exc)[:120]})")
        return None
    alone = min(first, second, key=lambda s: s.seconds_per_token())
    together: list[Streamed] = []

    def one() -> None:
        with contextlib.suppress(ModelError):
            together.append(_timed(chat, _fill(settings, quirks))[0])

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    timing = Timing(alone, tuple(together), first)
    serving = "one at a time" if timing.serial else "in parallel"
    say(f"  serving      {serving}: {timing.line()}")
    return timing
