"""What a resident's intentions and commitments add to its day.

Intentions are scenario data (typed intents, #8): a memory of one's own that names an
intent (`Fact.intent`) is an intention. One tied to a dated event the resident hosts makes
it prepare on the days before (and invite people where they are); one without an event
(running for office, a cause) makes it go where people are and talk about it. Every day
also gets one errand of its own (a shop, a walk, a coffee), keyed by the date, so no two
days are the same list.

An errand is always one's own: a plan that names another resident ('meeting Klaus for a
snack') is only made from a memory of an agreement between the two (an accepted
invitation, `Fact.rsvp` with its event), and that is planned as the event it names, at its
time and place, by both (plans._events). One resident's brain cannot see the other's day,
so a meeting made up here would leave the one who came waiting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from game.brains.questions import AgentContext
from game.core.clock import minute_of_day
from game.core.records import Event, FactKind, MemoryRecord, Source
from game.world.roles import Role

from .freetime import is_leisure
from .timeline import Day, Slot, paint
from .util import has_any, pick, shuffled

POLITICAL = ("mayor", "election", "campaign", "vote", "council", "office")
PREP_DAYS = 2  # a host prepares on the days before the event, up to this many
ERRAND_MINUTES = 60
GOAL_MINUTES = 90


@dataclass(frozen=True)
class Goal:
    """An intention of the resident's own: its words, and the event it hosts, if any."""

    intent: str
    text: str
    event: Event | None


def goals(ctx: AgentContext) -> list[Goal]:
    """The resident's own public intentions, as its memories name them by field."""
    me, out = ctx.persona.name, {}
    for m in ctx.memories:
        f = m.fact
        mine = f.subject == me or (f.event is not None and f.event.host == me)
        own = f.kind is FactKind.STATEMENT and f.source in (Source.SEED, Source.SELF)
        if f.intent and mine and own and not f.private and f.rsvp is None:
            out.setdefault(f.intent, Goal(f.intent, f.object, f.event))
    return list(out.values())


def add_goals(ctx: AgentContext, day: Day, slots: list[Slot]) -> list[Slot]:
    for goal in goals(ctx):
        event = goal.event
        if event is None:
            slots = _campaign(day, slots, goal)
        elif 0 < (event.start.date() - day.wake.date()).days <= PREP_DAYS:
            slots = _prepare(day, slots, goal, event)
    return slots


def _campaign(day: Day, slots: list[Slot], goal: Goal) -> list[Slot]:
    """Out where people are (a park in the morning, the cafe later), talking about it."""
    for role in shuffled((Role.PARK, Role.CAFE, Role.BAR), *day.key("campaign")):
        place = day.place(role)
        found = _free_slot(day, slots, place, GOAL_MINUTES, "campaign")
        if found is not None:
            if has_any(goal.text, POLITICAL):
                text = pick(CAMPAIGN, *day.key("campaign-words"))
            else:
                text = "telling people about my plans"
            return paint(slots, day.slot(*found, f"{text} at {place}", place, kind="campaign"))
    return slots


CAMPAIGN = (
    "meeting voters", "campaigning and shaking hands", "talking to neighbours about the election",
    "handing out campaign flyers", "listening to what voters want",
)  # fmt: skip
PREP_TASKS = (  # worded so the actions are preparations ('decorat'), not the event itself
    "making decorations for the {what}", "shopping for decorations for the {what}",
    "planning the decorations and the menu for the {what}",
    "trying out decorations for the {what}",
)  # fmt: skip


def _prepare(day: Day, slots: list[Slot], goal: Goal, event: Event) -> list[Slot]:
    task = pick(PREP_TASKS, *day.key("prep")).format(what=event.what or "event")
    for place in (event.place, day.place(Role.MARKET), day.persona.home):
        found = _free_slot(day, slots, place, GOAL_MINUTES, "prep") if place else None
        if found is not None:
            where = "" if place == day.persona.home else f" at {place}"
            return paint(slots, day.slot(*found, task + where, place, kind="party_prep"))
    return slots


def add_errand(day: Day, slots: list[Slot]) -> list[Slot]:
    """One thing of the day's own: groceries, supplies, a coffee, a walk."""
    options = _errands(day)
    for text, place in shuffled(options, *day.key("errand")):
        found = _free_slot(day, slots, place, ERRAND_MINUTES, "errand")
        if found is not None:
            return paint(slots, day.slot(*found, text, place))
    return slots


def _errands(day: Day) -> list[tuple[str, str]]:
    out = []
    for role, texts in ERRANDS:
        place = day.place(role)
        if place:
            out += [(t.format(place=place), place) for t in texts]
    return out  # a meeting with someone is the other's plan too: it comes from an agreement


ERRANDS: tuple[tuple[Role, tuple[str, ...]], ...] = (
    (Role.MARKET, ("picking up groceries", "picking up some groceries for the week")),
    (Role.SUPPLY, ("buying a few things at {place}",)),
    (Role.PARK, ("taking a walk in {place}", "taking a stroll around {place}")),
    (Role.CAFE, ("having a coffee and a snack at {place}",)),
    (Role.BAR, ("having a drink at {place}",)),
)


CROWDED = 7  # a day with this many items gets a whole free block replaced, not split
WHOLE_MAX = timedelta(minutes=150)


def _free_slot(
    day: Day, slots: Sequence[Slot], place: str, minutes: int, tag: str
) -> tuple[datetime, datetime] | None:
    """A stretch of leisure where `place` is open, at the start or end of a free block
    (the whole block when the day already has many items, so it stays readable)."""
    length = timedelta(minutes=minutes)
    crowded = len(slots) >= CROWDED
    for s in shuffled([s for s in slots if is_leisure(day, s)], *day.key(tag, "slot")):
        whole = length - timedelta(minutes=30) <= s.end - s.start <= WHOLE_MAX
        if whole:
            begin = minute_of_day(s.start)
            span = int((s.end - s.start).total_seconds() // 60)
            if day.is_open(place.split(":")[0], begin, begin + span):
                return s.start, s.end
            continue
        if crowded or s.end - s.start < length + timedelta(minutes=30):
            continue
        for start in (s.start, s.end - length):
            begin = minute_of_day(start)
            if day.is_open(place.split(":")[0], begin, begin + minutes):
                return start, start + length
    return None


def rsvp_of(memories: Sequence[MemoryRecord], event: Event):
    """The resident's latest own answer to this event, if it gave one."""
    found = [
        m for m in memories
        if m.fact.rsvp is not None and m.fact.event is not None
        and (m.fact.event.place, m.fact.event.start) == (event.place, event.start)
    ]  # fmt: skip
    return max(found, key=lambda m: m.created).fact.rsvp if found else None
