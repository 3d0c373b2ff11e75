"""The usage meter: what the model cost, by question and by resident.

One thread-safe ledger that every request reports to. Its `snapshot()` is the `"model"`
section of the run report and the HUD's usage line, so both read the same numbers.
"""

from __future__ import annotations

import math
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

COUNTERS = (
    "calls",  # requests answered (by the endpoint or from a recording)
    "prompt_tokens",
    "completion_tokens",
    "retries",  # re-asks after an invalid answer, and network retries
    "failures",  # requests that ended in an error or an invalid answer
    "fallbacks",  # questions answered by the scripted brain instead
    "cache_hits",  # questions answered from a memo or the recording, no request
    "skipped",  # trivial questions answered without the model
    "replayed",  # of `calls`, answered from the recording
    "identical_reasks",  # re-asks answered byte for byte as the answer they corrected
)


@dataclass(frozen=True)
class Pricing:
    """USD per million tokens, for the main and the cheap model."""

    main: tuple[float, float] = (0.0, 0.0)
    cheap: tuple[float, float] = (0.0, 0.0)

    def cost(self, prompt: int, completion: int, cheap: bool) -> float:
        rate_in, rate_out = self.cheap if cheap else self.main
        return (prompt * rate_in + completion * rate_out) / 1_000_000


@dataclass
class _Tally:
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTERS, 0))
    latency: float = 0.0
    cost: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.counts,
            "latency_seconds": round(self.latency, 3),
            "cost_usd": round(self.cost, 6),
        }


class UsageMeter:
    """Counts, tokens, latency and cost; totals and breakdowns by question and agent."""

    def __init__(self, pricing: Pricing | None = None) -> None:
        self.pricing = pricing or Pricing()
        self._lock = threading.Lock()
        self._total = _Tally()
        self._by_question: dict[str, _Tally] = defaultdict(_Tally)
        self._by_agent: dict[str, _Tally] = defaultdict(_Tally)

    def count(self, what: str, question: str, agent: str = "", n: int = 1) -> None:
        """Add n to one of COUNTERS."""
        if what not in COUNTERS:
            raise ValueError(f"unknown counter {what!r}")
        with self._lock:
            for tally in self._tallies(question, agent):
                tally.counts[what] += n

    def call(
        self,
        question: str,
        agent: str,
        prompt_tokens: int,
        completion_tokens: int,
        seconds: float,
        cheap: bool = False,
        replayed: bool = False,
    ) -> None:
        """One answered request: its tokens (from the API's usage fields) and latency.
        Counts are clamped to [0, MAX_COUNT] so no answer can make the cost go down."""
        prompt_tokens, completion_tokens = _count(prompt_tokens), _count(completion_tokens)
        seconds = seconds if math.isfinite(seconds) and seconds >= 0 else 0.0
        cost = self.pricing.cost(prompt_tokens, completion_tokens, cheap)
        with self._lock:
            for tally in self._tallies(question, agent):
                tally.counts["calls"] += 1
                tally.counts["prompt_tokens"] += prompt_tokens
                tally.counts["completion_tokens"] += completion_tokens
                tally.counts["replayed"] += int(replayed)
                tally.latency += seconds
                tally.cost += cost

    def _tallies(self, question: str, agent: str) -> list[_Tally]:
        out = [self._total, self._by_question[question]]
        if agent:
            out.append(self._by_agent[agent])
        return out

    @property
    def calls(self) -> int:
        with self._lock:
            return self._total.counts["calls"]

    @property
    def cost(self) -> float:
        with self._lock:
            return self._total.cost

    def restore(self, saved: Any) -> None:
        """Totals and breakdowns from an earlier `snapshot()` (a loaded save)."""
        saved = saved if isinstance(saved, dict) else {}
        with self._lock:
            _fill(self._total, saved)
            for q, tally in _table(saved.get("by_question")):
                _fill(self._by_question[q], tally)
            for a, tally in _table(saved.get("by_agent")):
                _fill(self._by_agent[a], tally)

    def snapshot(self) -> dict[str, Any]:
        """Totals at the top level, then `by_question` and `by_agent`, names sorted."""
        with self._lock:
            out = self._total.as_dict()
            out["by_question"] = {q: t.as_dict() for q, t in sorted(self._by_question.items())}
            out["by_agent"] = {a: t.as_dict() for a, t in sorted(self._by_agent.items())}
        return out


MAX_COUNT = 10_000_000  # tokens of one request worth believing


def _count(value: Any) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        return 0
    return min(MAX_COUNT, max(0, number))


def _number(value: Any) -> float:
    try:
        number = float(value or 0.0)
    except (TypeError, ValueError, OverflowError):
        return 0.0
    return number if math.isfinite(number) and number >= 0 else 0.0


def _fill(tally: _Tally, saved: Any) -> None:
    """From a save's usage section, whatever it holds: counts are whole and >= 0."""
    saved = saved if isinstance(saved, dict) else {}
    for name in COUNTERS:
        tally.counts[name] = int(min(_number(saved.get(name, 0)), 1e15))
    tally.latency = _number(saved.get("latency_seconds", 0.0))
    tally.cost = _number(saved.get("cost_usd", 0.0))


def _table(value: Any) -> list[tuple[str, Any]]:
    return [(str(k), v) for k, v in value.items()] if isinstance(value, dict) else []
