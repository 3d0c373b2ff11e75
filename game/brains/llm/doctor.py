"""`python main.py doctor`: what the configured endpoint can do, asked with a few tiny
requests, and the settings to use with it.

It tries each output mode (json_schema, json_object, text) with a one-line question,
asks /v1/embeddings for two texts, times two requests sent at once against one alone
(a server that serves one at a time gets max_parallel 1), and asks a small schema-bound
question a few times to see whether the model follows the schema. The verdict and the
settings are printed and kept in the user cache (see settled.py), where the next run
starts from them.
"""

from __future__ import annotations

import threading
import time
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


@dataclass(frozen=True)
class Verdict:
    endpoint: str
    model: str
    modes: dict[str, str]  # mode -> 'works' or why not
    mode: OutputMode | None
    embeddings: str  # 'works (N dimensions)' or why not
    latency: float  # seconds for one small answer
    tokens_per_second: float
    follows_schema: str  # 'k of n'
    max_parallel: int  # 1 when two requests took as long as two in a row, else 0
    problems: list[str] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        return self.mode is not None

    def line(self) -> str:
        if not self.usable:
            return f"unusable: {'; '.join(self.problems) or 'no output mode works'}"
        mode = self.mode.value if self.mode else "none"
        speed = f"{self.latency:.1f} s a request, {self.tokens_per_second:.0f} tokens/s"
        return f"usable in {mode} mode; {speed}; schema followed {self.follows_schema}"

    def settings(self) -> dict[str, Any]:
        """The settings to put in the config file's [llm] table."""
        out: dict[str, Any] = {}
        if self.mode is not None:
            out["output_mode"] = self.mode.value
        if self.max_parallel:
            out["max_parallel"] = self.max_parallel
        out["timeout"] = max(30, round(self.latency * 20))
        if not self.embeddings.startswith("works"):
            out["embeddings"] = False
        return out


def check(settings: LLMSettings, say: Callable[[str], None] = lambda line: None) -> Verdict:
    """Ask the endpoint; every failure becomes part of the verdict, never an exception."""
    chat = OpenAIChat(settings.base_url, settings.api_key, settings.timeout, settings.api_key_env)
    endpoint = public_url(settings.base_url or DEFAULT_URL)
    problems: list[str] = []
    try:
        modes, mode, quirks = _modes(chat, settings, say, problems)
        embeddings = _embeddings(chat, settings, say)
        follows = _follows(chat, settings, mode, quirks, say) if mode else "0 of 0"
        warm = _warm(chat, settings, mode, quirks) if mode else None
        latency, speed = (warm.seconds, _speed(warm)) if warm else (0.0, 0.0)
        serial = _serial(chat, settings, mode, quirks, latency) if warm else False
    finally:
        chat.close()
    return Verdict(
        endpoint,
        settings.model,
        modes,
        mode,
        embeddings,
        latency,
        speed,
        follows,
        1 if serial else 0,
        problems,
    )


def remember(verdict: Verdict) -> None:
    """The verdict in the user cache: the next run starts on its mode and parallelism."""
    facts: dict[str, Any] = {"verdict": verdict.line(), "embeddings": verdict.embeddings}
    if verdict.mode is not None:
        facts["mode"] = verdict.mode
    facts["max_parallel"] = verdict.max_parallel
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
    quirks = request.quirks
    for _ in range(len(Quirk) + 1):
        try:
            return chat.chat(replace(request, quirks=quirks)), quirks
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


def _speed(reply: ChatReply) -> float:
    return reply.completion_tokens / reply.seconds if reply.seconds > 0 else 0.0


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


def _warm(chat, settings, mode, quirks) -> ChatReply | None:
    """One request after the first few: its time is the endpoint's, not its warming up
    (the first request to llama.cpp's server evaluates the whole prompt cold)."""
    try:
        return _ask(chat, _request(settings, mode, quirks, seed=9))[0]
    except ModelError:
        return None


def _serial(chat, settings, mode, quirks, alone: float) -> bool:
    """Two requests at once that take about twice as long as one: one at a time."""
    took: list[float] = []

    def one(seed: int) -> None:
        began = time.perf_counter()
        try:
            _ask(chat, _request(settings, mode, quirks, seed=10 + seed))
        except ModelError:
            return
        took.append(time.perf_counter() - began)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(took) == 2 and alone > 0 and max(took) > 1.6 * alone
