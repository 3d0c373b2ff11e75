"""Whether the model keeps up: the share of residents' waking time spent waiting for a
decision.

Why a meter of its own: with a slow model and a fast clock, residents stand still while
their next decision is on its way. Players see only that the town looks idle; this meter
turns it into a number the HUD can act on ("the model is the bottleneck: try a lower
speed") and the economy benchmark can report for real-time play.

Why real seconds: the window runs the night fast-forward at hundreds of steps a second,
and a resident waking then waits many steps for a decision that takes a blink. Counted in
steps, those waits filled the recent window and the HUD blamed the model for half a minute
after the night (even with no model at all). Each step therefore weighs the real time it
stood for: a fast-forward step almost nothing, a step at 1x a sixth of a second. In
lockstep (headless runs, tests) a step weighs what it would at 1x.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

# A share above this (over the recent window) means the model is the bottleneck.
BOTTLENECK_SHARE = 0.05
# Real seconds of play in the recent window, and the fewest resident-seconds it must hold
# before it judges (a lone early riser proves little).
WINDOW_SECONDS = 30.0
MIN_RESIDENT_SECONDS = 30.0
BUCKET_SECONDS = 1.0  # the window keeps its steps in buckets of about this much real time


@dataclass(frozen=True)
class Pace:
    """Waiting for decisions, as resident-seconds of real time: recently and over the run."""

    recent_waiting: float = 0.0
    recent_awake: float = 0.0
    total_waiting: float = 0.0
    total_awake: float = 0.0
    waiting_now: int = 0  # residents standing still for a decision at the last step
    model: bool = False  # a language model decides (a scripted brain keeps nobody waiting)

    @property
    def recent_share(self) -> float:
        return self.recent_waiting / self.recent_awake if self.recent_awake else 0.0

    @property
    def total_share(self) -> float:
        return self.total_waiting / self.total_awake if self.total_awake else 0.0

    @property
    def bottleneck(self) -> bool:
        """The model, not the town, sets the pace: worth telling the player."""
        enough = self.recent_awake >= MIN_RESIDENT_SECONDS
        return self.model and enough and self.recent_share > BOTTLENECK_SHARE


@dataclass
class _Bucket:
    waiting: float = 0.0
    awake: float = 0.0
    seconds: float = 0.0


class PaceMeter:
    """Adds up, step by step, the residents awake (or due to wake) and those of them
    waiting, each weighted by the real seconds the step stood for."""

    def __init__(self, window: float = WINDOW_SECONDS) -> None:
        self.window = max(BUCKET_SECONDS, window)
        self._buckets: deque[_Bucket] = deque([_Bucket()])
        self._recent = _Bucket()
        self._total = _Bucket()
        self._now = 0

    def record(self, waiting: int, awake: int, seconds: float = 1.0) -> None:
        seconds = max(0.0, seconds)
        last = self._buckets[-1]
        if last.seconds >= BUCKET_SECONDS:
            last = _Bucket()
            self._buckets.append(last)
        for bucket in (last, self._recent, self._total):
            bucket.waiting += waiting * seconds
            bucket.awake += awake * seconds
            bucket.seconds += seconds
        self._forget_old()
        self._now = waiting

    def _forget_old(self) -> None:
        """Drop the oldest buckets while the rest still cover the window."""
        recent, buckets = self._recent, self._buckets
        while len(buckets) > 1 and recent.seconds - buckets[0].seconds >= self.window:
            old = buckets.popleft()
            recent.waiting -= old.waiting
            recent.awake -= old.awake
            recent.seconds -= old.seconds

    def pace(self, model: bool = False) -> Pace:
        recent, total = self._recent, self._total
        return Pace(
            max(0.0, recent.waiting),
            max(0.0, recent.awake),
            total.waiting,
            total.awake,
            self._now,
            model,
        )
