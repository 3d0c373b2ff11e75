"""Free time: what a resident does when the routine leaves a gap, varied from day to day.

Options come from a table with the hours they make sense in; public places only when the
resident knows them and they are open; at home only what the home has room for (no
television without a television, where the planner knows what the home has); what
yesterday's summary mentions is avoided.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from game.core.clock import minute_of_day
from game.world.roles import Role

from .activities import classify, fits
from .timeline import Day, Slot, paint
from .util import chance, has_any, pick, shuffled

MAX_ITEMS_FOR_VARIETY = 8  # variety is added only while the day is shorter than this

FREE_SWAP_CHANCE = 0.35  # a long free block gets an hour of something else
FREE_SWAP_MINUTES = 60
_OWN = ("his", "her", "their", "'s")


@dataclass(frozen=True)
class FreeTime:
    """Something to do with free time, where, and the hours it makes sense in."""

    text: str  # '{place}' is the place's name
    place: Role | None  # the kind of place it happens in; None: at home
    earliest: int
    latest: int


FREE_TIME: tuple[FreeTime, ...] = (
    FreeTime("taking a walk in {place}", Role.PARK, 7 * 60, 20 * 60),
    FreeTime("having a coffee at {place}", Role.CAFE, 8 * 60, 20 * 60),
    FreeTime("reading a book at home", None, 0, 24 * 60),
    FreeTime("relaxing at home", None, 0, 24 * 60),
    FreeTime("having a drink at {place}", Role.BAR, 17 * 60, 23 * 60),
    FreeTime("watching television at home", None, 18 * 60, 24 * 60),
    FreeTime("doing chores around the house", None, 8 * 60, 20 * 60),
    FreeTime("picking up groceries at {place}", Role.MARKET, 9 * 60, 17 * 60),
    FreeTime("reading about {interest} at home", None, 0, 24 * 60),
)
FREE_SPLIT_OVER = 150  # a free stretch longer than this becomes a few different activities
FREE_PIECES = (90, 120)


def fill_free(day: Day, slots: list[Slot]) -> list[Slot]:
    """Give each unplanned stretch something to do from the free-time table."""
    out: list[Slot] = []
    for s in slots:
        out.extend(_free_stretch(day, s.start, s.end) if s.kind == "free" and not s.text else [s])
    return out


def _free_stretch(day: Day, start: datetime, end: datetime) -> list[Slot]:
    """A long unplanned stretch becomes a few different free-time activities."""
    out: list[Slot] = []
    while end - start > timedelta(minutes=FREE_SPLIT_OVER):
        cut = start + timedelta(minutes=pick(FREE_PIECES, *day.key("piece", start.isoformat())))
        out.append(filler(day, start, cut, exclude=out[-1].text if out else ""))
        start = cut
    out.append(filler(day, start, end, exclude=out[-1].text if out else ""))
    return out


def filler(
    day: Day, start: datetime, end: datetime, exclude: str = "", home_only: bool = False
) -> Slot:
    text, place = free_option(day, start, end, exclude, home_only)
    return day.slot(start, end, text, place, filler=True)


def home_free(day: Day, start: datetime, end: datetime) -> list[Slot]:
    return [filler(day, start, end, home_only=True)] if end > start else []


def free_option(
    day: Day, start: datetime, end: datetime, exclude: str, home_only: bool = False
) -> tuple[str, str]:
    """A free-time activity open and sensible for the whole stretch, varied by day."""
    fitting = [
        f
        for f in FREE_TIME
        if _fits(day, f, start, end)
        and _text(day, f) != exclude
        and (f.place is None or not home_only)
    ]
    fresh = [f for f in fitting if not _done_yesterday(day, f)] or fitting
    if not fresh:
        return "relaxing at home", day.persona.home
    choice = pick(fresh, *day.key("free", start.isoformat()))
    return _text(day, choice), _where(day, choice)


def _where(day: Day, option: FreeTime) -> str:
    """The sector: home, or the known place of the option's kind ('' if none is known)."""
    return day.persona.home if option.place is None else day.place(option.place)


def _text(day: Day, option: FreeTime) -> str:
    return option.text.format(interest=_interest(day), place=_where(day, option))


def _interest(day: Day) -> str:
    """One of the persona's interests that reads well after 'reading about'."""
    plain = [i for i in day.persona.interests if len(i.split()) <= 2 and not has_any(i, _OWN)]
    return pick(plain, *day.key("interest")) if plain else ""


def _fits(day: Day, option: FreeTime, start: datetime, end: datetime) -> bool:
    if "{interest}" in option.text and not _interest(day):
        return False
    s, e = minute_of_day(start), minute_of_day(start) + int((end - start).total_seconds() // 60)
    if s < option.earliest or e > option.latest:
        return False
    where = _where(day, option)
    if option.place is None:
        return fits(classify(_text(day, option), True), day.directory.offers_at(where))
    return bool(where) and day.is_open(where, s, e)


def _done_yesterday(day: Day, option: FreeTime) -> bool:
    """Variety: skip what yesterday's summary already mentions, if there is a choice."""
    done = option.text.replace("{place}", _where(day, option)).split(" at ")[0].lower()
    return bool(day.yesterday) and done in day.yesterday.lower()


def vary_free_time(day: Day, slots: list[Slot]) -> list[Slot]:
    """Some days an hour of a long free block goes to something else: a walk, a drink."""
    candidates = [s for s in slots if is_leisure(day, s) and s.minutes >= 90]
    for s in shuffled(candidates, *day.key("vary")):
        if len(slots) >= MAX_ITEMS_FOR_VARIETY:
            break
        if chance(*day.key("swap", s.start.isoformat())) >= FREE_SWAP_CHANCE:
            continue
        at_end = chance(*day.key("swap-end", s.start.isoformat())) < 0.5
        start = s.end - timedelta(minutes=FREE_SWAP_MINUTES) if at_end else s.start
        end = start + timedelta(minutes=FREE_SWAP_MINUTES)
        swap = filler(day, start, end, exclude=s.text)
        if swap.text != s.text:
            slots = paint(slots, swap)
    return slots


def is_leisure(day: Day, s: Slot) -> bool:
    return not s.fixed and day.activity(s.text, s.place).leisure
