"""Whether the model keeps up: the share of residents' waking time spent waiting for a
decision.

Why a meter of its own: with a slow model and a fast clock, residents stand still while
their next decision is on its way. Players see only that the town looks idle; this meter
turns it into a number the HUD can act on ("the model is the bottleneck: try a lower
speed") and the economy benchmark can report for real-time play.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

# A share above this (over the recent window) means the model is the bottleneck.
BOTTLENECK_SHARE = 0.05
# Steps in the recent window (10-second steps: 30 game minutes), and the fewest
# resident-steps the window must hold before it judges (a lone early riser proves little).
WINDOW_STEPS = 180
MIN_SAMPLES = 200


@dataclass(frozen=True)
class Pace:
    """Waiting for decisions, as resident-steps: recently and over the whole run."""

    recent_waiting: int = 0
    recent_awake: int = 0
    total_waiting: int = 0
    total_awake: int = 0
    waiting_now: int = 0  # residents standing still for a decision at this step

    @property
    def recent_share(self) -> float:
        return self.recent_waiting / self.recent_awake if self.recent_awake else 0.0

    @property
    def total_share(self) -> float:
        return self.total_waiting / self.total_awake if self.total_awake else 0.0

    @property
    def bottleneck(self) -> bool:
        """The model, not the town, sets the pace: worth telling the player."""
        return self.recent_awake >= MIN_SAMPLES and self.recent_share > BOTTLENECK_SHARE


class PaceMeter:
    """Counts, each step, the residents awake (or due to wake) and those of them waiting."""

    def __init__(self, window: int = WINDOW_STEPS) -> None:
        self._recent: deque[tuple[int, int]] = deque(maxlen=max(1, window))
        self._waiting = self._awake = 0
        self._total_waiting = self._total_awake = 0
        self._now = 0

    def record(self, waiting: int, awake: int) -> None:
        if len(self._recent) == self._recent.maxlen:
            old_waiting, old_awake = self._recent[0]
            self._waiting -= old_waiting
            self._awake -= old_awake
        self._recent.append((waiting, awake))
        self._waiting += waiting
        self._awake += awake
        self._total_waiting += waiting
        self._total_awake += awake
        self._now = waiting

    def pace(self) -> Pace:
        return Pace(self._waiting, self._awake, self._total_waiting, self._total_awake, self._now)
