"""What an endpoint turned out to support, remembered per endpoint and model in the user
cache (`endpoints.json`), so the next run starts on the rung that worked instead of
learning it again from a refusal, and `doctor` can leave its verdict for the game.

`effective` lays what is cached over the settings, the one way both a run (stack.py) and
`python main.py config` read them: so what `config` shows, and where it says each value
came from (default, config file, environment, flag, doctor cache), is what a run uses.

The file is a convenience, never a requirement: unreadable or unwritable, it is ignored.
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from game.brains.llm.flight import Pace
from game.brains.llm.openai_chat import DEFAULT_URL
from game.core.config import Config, LLMSettings, OutputMode, cache_dir, describe
from game.core.errors import FileProblem
from game.core.files import write_atomic
from game.core.text import public_url

FILE = "endpoints.json"
_lock = threading.Lock()


@dataclass(frozen=True)
class Settled:
    """One endpoint and model's remembered facts ('' / None where nothing is known)."""

    mode: OutputMode | None = None
    embeddings: str = ""  # 'yes', or why not
    max_parallel: int = 0  # 0 = not measured
    verdict: str = ""  # doctor's one line
    mode_from: str = ""  # who found the mode: 'doctor' or 'a run'
    tokens_per_second: float = 0.0  # doctor's measured generation speed; 0 = not measured
    first_token: float = 0.0  # doctor's first-token deadline in seconds; 0 = not measured


def endpoint_key(endpoint: str, model: str) -> str:
    return f"{endpoint} | {model}"


class EndpointMemory:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or cache_dir() / FILE

    def get(self, endpoint: str, model: str) -> Settled:
        entry = self._load().get(endpoint_key(endpoint, model), {})
        if not isinstance(entry, dict):
            return Settled()
        try:
            mode = OutputMode(entry["mode"]) if entry.get("mode") else None
        except ValueError:
            mode = None
        parallel = entry.get("max_parallel", 0)
        speed = entry.get("tokens_per_second", 0.0)
        fast = _positive(speed)
        first = entry.get("first_token", 0.0)
        return Settled(
            mode=mode if mode is not OutputMode.AUTO else None,
            embeddings=str(entry.get("embeddings", "")),
            max_parallel=parallel if isinstance(parallel, int) and parallel > 0 else 0,
            verdict=str(entry.get("verdict", "")),
            mode_from=str(entry.get("mode_from", "")),
            tokens_per_second=float(speed) if fast else 0.0,
            first_token=min(3600.0, float(first)) if _positive(first) else 0.0,
        )

    def put(self, endpoint: str, model: str, **facts: Any) -> None:
        """Merge facts into the entry (an OutputMode is kept by its value)."""
        values = {k: (v.value if isinstance(v, OutputMode) else v) for k, v in facts.items()}
        with _lock:
            doc = self._load()
            key = endpoint_key(endpoint, model)
            entry = doc.get(key) if isinstance(doc.get(key), dict) else {}
            if all(entry.get(k) == v for k, v in values.items()):
                return
            doc[key] = {**entry, **values}
            text = json.dumps(doc, indent=1, sort_keys=True)
            # A temp file of its own (never a fixed name a link could be planted at); a
            # cache that cannot be written is only a slower next start.
            with contextlib.suppress(FileProblem):
                write_atomic(self.path, text, make_folder=True)

    def _load(self) -> dict[str, Any]:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return doc if isinstance(doc, dict) else {}


def _positive(value: Any) -> bool:
    """A finite positive number (not a bool): a measure worth using."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return number and math.isfinite(value) and 0 < value < 1e6


# -- what a run uses ------------------------------------------------------------------------
DOCTOR = "doctor cache"
DEFAULT_TIMEOUT = LLMSettings().timeout  # at this value, doctor's first-token deadline


@dataclass(frozen=True)
class Setting:
    """One effective value and where it came from."""

    value: Any
    source: str  # 'default', a config file's path, '$VAR', 'flag', or the cache's words


@dataclass(frozen=True)
class Effective:
    """The settings a run's requests go out with, cached knowledge laid on the config.

    An output mode of `auto` starts on the cached rung (and still steps down if it is
    refused); `max_parallel = 0` takes the cached measure; a `timeout` left at its default
    takes doctor's first-token deadline; the answer budget's speed is doctor's measure (there is
    no setting for it)."""

    output_mode: Setting  # OutputMode
    max_parallel: Setting  # int; 0 = no limit
    first_token: Setting  # seconds (the `timeout` setting, else doctor's)
    tokens_per_second: Setting  # float; 0 = not measured


def effective(
    settings: LLMSettings,
    sources: Mapping[str, str] | None = None,
    memory: EndpointMemory | None = None,
    endpoint: str = "",
) -> Effective:
    """The settings with the cache laid on, each with its source. A replay asks nothing
    (so nothing cached applies), nor does a run told not to remember endpoints."""
    sources = sources or {}

    def given(name: str, value: Any) -> Setting:
        return Setting(value, sources.get(f"llm.{name}", "default"))

    use_cache = settings.remember_endpoint and not settings.replay
    known = Settled()
    if use_cache:
        url = endpoint or public_url(settings.base_url or DEFAULT_URL)
        known = (memory or EndpointMemory()).get(url, settings.model)
    mode = given("output_mode", settings.output_mode)
    if settings.output_mode is OutputMode.AUTO and known.mode is not None:
        by = DOCTOR if known.mode_from != "a run" else "endpoint cache (an earlier run)"
        mode = Setting(known.mode, f"{by}; auto starts here, steps down if refused")
    parallel = given("max_parallel", settings.max_parallel)
    if not settings.max_parallel and known.max_parallel:
        parallel = Setting(known.max_parallel, DOCTOR)
    speed = Setting(known.tokens_per_second, DOCTOR)
    if not known.tokens_per_second:
        speed = Setting(0.0, "not measured: run doctor")
    first = given("timeout", settings.timeout)
    if settings.timeout == DEFAULT_TIMEOUT and known.first_token:  # any other value wins
        first = Setting(known.first_token, DOCTOR)
    return Effective(mode, parallel, first, speed)


def described(config: Config, memory: EndpointMemory | None = None) -> str:
    """`python main.py config`: the settings as a run will use them, the cache laid on
    (so `output_mode = "auto"` with a cached json_object shows json_object, and says it
    came from the doctor cache), then how long a request may take."""
    known = effective(config.llm, config.sources, memory)
    llm = replace(
        config.llm, output_mode=known.output_mode.value, max_parallel=known.max_parallel.value
    )
    sources = dict(config.sources)
    for name, setting in (("output_mode", known.output_mode), ("max_parallel", known.max_parallel)):
        if setting.source != "default":
            sources[f"llm.{name}"] = setting.source
    if known.first_token.source == DOCTOR:
        llm = replace(llm, timeout=known.first_token.value)
        sources["llm.timeout"] = DOCTOR
    lines = [describe(replace(config, llm=llm, sources=sources)), *pace_lines(known)]
    return "\n".join(lines)


def pace_lines(known: Effective) -> list[str]:
    """The two clocks of a request (flight.Pace) in words, with their sources."""
    pace = Pace(known.first_token.value, known.tokens_per_second.value)
    speed = known.tokens_per_second
    rate = f"{pace.speed:g} tokens/s ({speed.source})"
    if not speed.value:
        rate = f"{pace.speed:g} tokens/s (assumed: {speed.source})"
    examples = ", ".join(f"{pace.budget(n):.0f} s for {n:,} tokens" for n in (60, 200, 1500))
    return [
        f"# first token within {pace.first_token:g} s: timeout ({known.first_token.source}); "
        "a server that does not stream must answer whole by then",
        f"# then the answer's budget: {pace.margin:g} x max_tokens / {rate}, "
        f"at least {pace.floor:g} s ({examples})",
    ]
