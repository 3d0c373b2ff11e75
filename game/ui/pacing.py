"""How many simulation steps a frame must run: the real-time clock of the window.

Why its own class: the rule (speed x elapsed real time, capped per frame, remainder carried,
a large backlog dropped) decides whether the window ever freezes, so it is plain arithmetic
that tests can check without a window.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SPEEDS: tuple[int, ...] = (1, 2, 4, 8, 16, 32)  # game minutes per real second
DEFAULT_SPEED = 1
KEPT_WINDOW_SECONDS = 2.0  # real seconds over which the speed the town keeps is measured
LAG_SHARE = 0.75  # keeping less than this share of the chosen speed is lagging


@dataclass
class Pacer:
    """Turns elapsed real time into a whole number of 10-second sim steps.

    1x is one game minute per real second, so with 10 s steps it asks for 6 steps a second.
    A frame runs at most `max_steps` steps; the rest is carried to the next frame, and a
    backlog beyond `max_backlog_seconds` of real time is dropped (the game clock slips
    rather than the window stalling to catch up).
    """

    step_seconds: int = 10
    speed: int = DEFAULT_SPEED
    paused: bool = False
    max_steps: int = 8
    max_backlog_seconds: float = 1.0
    carry: float = 0.0
    dropped: float = 0.0  # steps dropped so far (for the HUD and tests)
    kept: float | None = None  # game minutes a real second the town last kept (None: unmeasured)
    _window_steps: int = field(default=0, repr=False)
    _window_seconds: float = field(default=0.0, repr=False)

    @property
    def steps_per_second(self) -> float:
        return self.speed * 60.0 / self.step_seconds

    @property
    def fraction(self) -> float:
        """Progress (0..1) toward the next step, for smooth drawing between steps."""
        return min(1.0, max(0.0, self.carry))

    @property
    def lagging(self) -> bool:
        """The town keeps well under the chosen speed: its steps take longer than the real
        time they stand for (100 residents at 8x on a small machine ran at 1.3x to 1.7x,
        with 8x lit on the bar)."""
        return not self.paused and self.kept is not None and self.kept < LAG_SHARE * self.speed

    @property
    def label(self) -> str:
        return "paused" if self.paused else f"{self.speed}x"

    def set_speed(self, speed: int) -> None:
        """Switch speed (and unpause); the carried fraction is kept but never a backlog."""
        self.speed = max(1, speed)
        self.paused = False
        self.carry = min(self.carry, 1.0)
        self.remeasure()

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self.remeasure()

    def ran(self, steps: int, real_seconds: float) -> None:
        """A frame ran `steps` steps in `real_seconds`: every couple of seconds of play,
        the speed the town really kept (what `lagging` compares with the chosen one)."""
        if self.paused:
            return
        self._window_steps += max(0, steps)
        self._window_seconds += max(0.0, real_seconds)
        if self._window_seconds >= KEPT_WINDOW_SECONDS:
            minutes = self._window_steps * self.step_seconds / 60.0
            self.kept = minutes / self._window_seconds
            self._window_steps, self._window_seconds = 0, 0.0

    def remeasure(self) -> None:
        """Forget the speed kept (a new speed, a pause, the night's fast-forward)."""
        self.kept, self._window_steps, self._window_seconds = None, 0, 0.0

    def faster(self) -> None:
        self.set_speed(_neighbour(self.speed, +1))

    def slower(self) -> None:
        self.set_speed(_neighbour(self.speed, -1))

    def due(self, real_seconds: float) -> int:
        """Steps to run this frame for `real_seconds` of elapsed real time."""
        if self.paused:
            return 0
        self.carry += max(0.0, real_seconds) * self.steps_per_second
        backlog = self.max_backlog_seconds * self.steps_per_second
        if self.carry > backlog + self.max_steps:
            self.dropped += self.carry - backlog
            self.carry = backlog
        steps = min(int(self.carry + 1e-9), self.max_steps)  # 60 x 1/60 s is 1, not 0.999...
        self.carry = max(0.0, self.carry - steps)
        return steps

    def give_back(self, steps: int) -> None:
        """Steps a frame could not afford (its time budget ran out) go back to the carry."""
        self.carry += max(0, steps)


def _neighbour(speed: int, direction: int) -> int:
    """The next speed up or down the ladder, staying on it at either end."""
    ladder = list(SPEEDS)
    if speed not in ladder:
        ladder = sorted({*ladder, speed})
    i = ladder.index(speed) + direction
    return ladder[max(0, min(len(ladder) - 1, i))]
