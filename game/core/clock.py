"""Game time.

Game time is a naive `datetime` (the town has one time zone). Memory streams store times
as float game-hours since `EPOCH` so recency arithmetic is one numpy expression.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

EPOCH = datetime(2023, 1, 1)
_HHMM = re.compile(r"^(\d{1,2}):(\d{2})$")


def hours_since_epoch(when: datetime) -> float:
    """Game-hours since EPOCH: the unit of every stored time."""
    return (when - EPOCH).total_seconds() / 3600.0


def from_hours(hours: float) -> datetime:
    """Inverse of hours_since_epoch, rounded to the second."""
    return EPOCH + timedelta(seconds=round(hours * 3600.0))


def parse_hhmm(text: str) -> int:
    """'08:30' -> 510 minutes after midnight; '24:00' is allowed (a closing time)."""
    match = _HHMM.match(text.strip()) if isinstance(text, str) else None
    if not match:
        raise ValueError(f"expected a time as HH:MM, got {text!r}")
    hours, minutes = int(match.group(1)), int(match.group(2))
    if hours > 24 or minutes > 59 or (hours == 24 and minutes):
        raise ValueError(f"no such time of day: {text!r}")
    return hours * 60 + minutes


def minute_of_day(when: datetime) -> int:
    return when.hour * 60 + when.minute


def fmt_hhmm(minutes: int) -> str:
    """510 -> '08:30' (minutes after midnight, wrapping past a day)."""
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def next_time(after: datetime, minute: int) -> datetime:
    """The first datetime at or after `after` whose time of day is `minute`."""
    day = after.replace(hour=0, minute=0, second=0, microsecond=0)
    when = day + timedelta(minutes=minute)
    return when if when >= after else when + timedelta(days=1)


def fmt_time(when: datetime) -> str:
    """'7:05 am': the way the residents speak of times."""
    hour = when.hour % 12 or 12
    return f"{hour}:{when.minute:02d} {'am' if when.hour < 12 else 'pm'}"


def fmt_datetime(when: datetime) -> str:
    """'Monday February 13, 2023, 7:05 am'."""
    return f"{when.strftime('%A %B')} {when.day}, {when.year}, {fmt_time(when)}"


def in_window(minute: int, start: int, end: int) -> bool:
    """Whether minute-of-day lies in [start, end), where the window may wrap past midnight."""
    if start == end:
        return True
    if start < end:
        return start <= minute < end
    return minute >= start or minute < end


@dataclass
class Clock:
    """The simulation's clock: advances in fixed steps of game seconds."""

    now: datetime
    step_seconds: int = 10

    def tick(self) -> datetime:
        self.now += timedelta(seconds=self.step_seconds)
        return self.now
