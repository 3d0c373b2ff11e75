"""The day plan: broad strokes, decomposed just in time to hours and to 5-15 minute actions.

Immutable: a decomposition returns a new DayPlan, so a worker can read one while the
simulation holds another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from game.core.records import PlanItem


def fit_to_span(
    parent: PlanItem, subs: Sequence[PlanItem], inherit_place: bool = True
) -> list[PlanItem]:
    """Make sub-items fill the parent's span exactly: contiguous from its start, durations
    summing to its minutes. Brains (a model especially) may miscount; the architecture,
    not the brain, guarantees the invariant."""
    subs = [s for s in subs if s.description.strip()]
    if not subs:
        return [parent]
    weights = [max(1, s.minutes) for s in subs]
    total = sum(weights)
    minutes = [max(1, round(w * parent.minutes / total)) for w in weights]
    while len(minutes) > parent.minutes:  # more items than minutes: merge the tail
        minutes.pop()
        subs = subs[: len(minutes)]
    minutes[-1] += parent.minutes - sum(minutes)
    while minutes[-1] < 1:
        minutes.pop()
        subs = subs[: len(minutes)]
        minutes[-1] += parent.minutes - sum(minutes)
    out, start = [], parent.start
    for sub, m in zip(subs, minutes, strict=True):
        place = sub.place or (parent.place if inherit_place else "")
        out.append(replace(sub, description=sub.description.strip(), start=start, minutes=m,
                           place=place, intent=sub.intent or parent.intent))  # fmt: skip
        start += timedelta(minutes=m)
    return out


def fit_day(items: Sequence[PlanItem], start: datetime, end: datetime) -> list[PlanItem]:
    """Broad items made contiguous from waking to sleeping, in time order."""
    span = PlanItem("the day", start, max(1, int((end - start).total_seconds() // 60)))
    ordered = sorted((i for i in items if i.minutes > 0), key=lambda i: i.start)
    return fit_to_span(span, ordered, inherit_place=False)


def _covering(items: Sequence[PlanItem], when: datetime) -> int | None:
    for i, item in enumerate(items):
        if item.covers(when):
            return i
    return None


@dataclass(frozen=True)
class DayPlan:
    """Broad items; for some of them hour chunks; for some chunks the actions."""

    day: str = ""  # ISO date of the waking day
    broad: tuple[PlanItem, ...] = ()
    hours: dict[int, tuple[PlanItem, ...]] = field(default_factory=dict)
    actions: dict[tuple[int, int], tuple[PlanItem, ...]] = field(default_factory=dict)

    @property
    def end(self) -> datetime | None:
        return self.broad[-1].end if self.broad else None

    def locate(self, when: datetime) -> tuple[int | None, int | None, int | None]:
        """Indices (broad, hour, action) covering a time; None where not yet decomposed."""
        b = _covering(self.broad, when)
        if b is None or b not in self.hours:
            return b, None, None
        h = _covering(self.hours[b], when)
        if h is None or (b, h) not in self.actions:
            return b, h, None
        return b, h, _covering(self.actions[(b, h)], when)

    def with_hours(self, b: int, items: Sequence[PlanItem]) -> DayPlan:
        return replace(self, hours={**self.hours, b: tuple(items)})

    def with_actions(self, b: int, h: int, items: Sequence[PlanItem]) -> DayPlan:
        return replace(self, actions={**self.actions, (b, h): tuple(items)})

    def replan_from(self, when: datetime, item: PlanItem) -> DayPlan:
        """Insert a reaction: the broad item running at `when` is cut there, the new item
        takes its place, and the rest of that item's time is planned afresh later."""
        b = _covering(self.broad, when)
        if b is None:
            return self
        cur = self.broad[b]
        # every piece starts a whole number of minutes after the item it cuts, so the
        # pieces tile it exactly: a gap of seconds would leave a moment with no plan
        head_m = int((when - cur.start).total_seconds() // 60)
        start = cur.start + timedelta(minutes=head_m)
        pieces = []
        if head_m > 0:
            pieces.append(replace(cur, minutes=head_m))
        want = int(-(-(min(item.end, cur.end) - start).total_seconds() // 60))
        react_m = max(1, min(want, cur.minutes - head_m))
        react = replace(item, start=start, minutes=react_m)
        pieces.append(react)
        tail_m = cur.minutes - head_m - react_m
        if tail_m > 0:
            pieces.append(PlanItem(cur.description, react.end, tail_m, cur.place))
        broad = self.broad[:b] + tuple(pieces) + self.broad[b + 1 :]
        shift = len(pieces) - 1

        def moved(i: int) -> int | None:
            return i if i < b else (i + shift if i > b else None)

        hours = {moved(i): v for i, v in self.hours.items() if moved(i) is not None}
        actions = {(moved(i), h): v for (i, h), v in self.actions.items() if moved(i) is not None}
        return DayPlan(self.day, broad, hours, actions)

    def next_start(self, when: datetime) -> datetime | None:
        """When the next broad item after `when` begins, if the plan has one."""
        return next((i.start for i in self.broad if i.start > when), None)

    def lines(self) -> list[str]:
        """The broad plan as text, for the plan memory and the inspector."""
        return [
            f"{i.start.strftime('%H:%M')}-{i.end.strftime('%H:%M')} {i.description}"
            for i in self.broad
        ]
