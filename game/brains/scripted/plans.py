"""The day in broad strokes, from the persona's routine, meals, free time and events.

The day is assembled on a timeline of slots from waking to sleeping: the routine blocks
first, then events the persona knows of (painted over whatever they overlap), then the
morning routine and the meals that the routine lacks, then some free-time variety. Every
step only cuts or paints slots, so the day stays contiguous by construction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta

from game.brains.event_words import parse_event
from game.brains.questions import AgentContext
from game.core.clock import minute_of_day
from game.core.records import Event, FactKind, MemoryRecord, PlanItem, Rsvp, Source
from game.world.roles import Role
from game.world.scenario import Resident
from game.world.town import sector_of

from .decompose import RESUME
from .freetime import fill_free, filler, home_free, is_leisure, vary_free_time
from .goals import add_errand, add_goals, rsvp_of
from .places import Directory
from .timeline import (
    MEAL_KINDS,
    MIN_ITEM_MINUTES,
    Day,
    Slot,
    absorb_tiny,
    covering,
    merge_natural,
    merge_same,
    merge_shortest,
    paint,
)
from .traits import declines
from .util import chance, first_name, mentions, pick

MIN_ITEMS, TARGET_ITEMS, MAX_ITEMS = 5, 8, 10  # above the target only natural merges
MORNING_TEXT = "waking up and getting ready for the day"
MORNING_MINUTES = (45, 60, 75, 90)
BREAKFAST_MINUTES = 30
MEAL_MINUTES = 45
MEAL_MAX_WITH_SLIVERS = 75  # a meal may grow this long to swallow a sliver of its host
MEAL_MAX = {"breakfast": 45, "eating": 60, "eating_out": 60, "cooking": 60}
UNBREAKABLE = frozenset({"class", "teaching", "morning", "event"})  # when away from home
LUNCH_TIMES = (12 * 60, 12 * 60 + 30, 13 * 60, 11 * 60 + 30, 13 * 60 + 30)
LUNCH_WINDOW = (11 * 60, 15 * 60)
DINNER_TIMES = (18 * 60, 18 * 60 + 30, 19 * 60, 17 * 60 + 30, 19 * 60 + 30, 20 * 60, 17 * 60)
DINNER_WINDOW = (17 * 60, 21 * 60 + 30)
PREP_MINUTES = 120  # a host gets the place ready this long before the event
BREAK_MINUTES = 20
REPLAN_AFTER_MINUTES = 120  # a plan asked for this long after the usual waking is a replan


def plan_day(ctx: AgentContext, yesterday: str, wake: datetime, seed: int) -> list[PlanItem]:
    persona = ctx.persona
    day = Day(
        persona, wake, sleep_time(persona, wake), seed, _known(ctx), yesterday, Directory.of(ctx)
    )
    slots = _respect_hours(day, _routine_slots(day))
    events = _events(ctx, day)
    for known in events:
        slots = _add_event(day, slots, known)
    for intention in _intentions(ctx, wake):
        end = min(day.sleep, wake + timedelta(minutes=INTENTION_MINUTES))
        slots = interrupt(day, slots, day.slot(wake, end, intention, "", fixed=True))
    if just_woke(persona, wake):
        slots = _add_morning(day, slots)
    slots = _split_compound(day, slots)
    if just_woke(persona, wake):
        slots = _add_breakfast(day, slots)
    slots = _add_meal(day, slots, "lunch", LUNCH_TIMES, LUNCH_WINDOW)
    slots = _add_meal(day, slots, "dinner", DINNER_TIMES, DINNER_WINDOW)
    slots = vary_free_time(day, slots)
    slots = _normalise(day, slots)
    slots = merge_same(add_errand(day, add_goals(ctx, day, slots)))
    intents = {_event_words(persona, k): k.intent for k in events}
    return [_item(s, intents.get(s.text, "") if s.kind == "event" else "") for s in slots]


def _item(s: Slot, intent: str) -> PlanItem:
    """A broad item; an event's item names the scenario intent it serves, so a later replan
    (and the memory of the plan) knows it by field."""
    return PlanItem(s.text, s.start, s.minutes, s.place, intent=intent)


INTENTION_MINUTES = 60  # how long an instruction from the inner voice is acted on
_INTENT_PREFIX = re.compile(
    r"^(?:i|you)\s+(?:should|will|must|want to|need to|have to|am going to|are going to|'ll)\s+",
    re.I,
)


def _intentions(ctx: AgentContext, now: datetime) -> list[str]:
    """Fresh thoughts from the inner voice ('I should bake a cake') become the next thing
    to do: the scripted brain's reading of the paper's inner-voice steering."""
    out = []
    for m in ctx.memories:
        fresh = now - m.created <= timedelta(minutes=30)
        if m.fact.source is Source.INNER_VOICE and fresh:
            text = _INTENT_PREFIX.sub("", m.text.strip().rstrip(".!")).strip()
            if text:
                out.append(text[0].lower() + text[1:])
    return out[:1]


def just_woke(persona: Resident, when: datetime) -> bool:
    """A plan made at waking time (not a replan later in the day) starts with the morning."""
    late = (minute_of_day(when) - persona.wake) % (24 * 60)
    return late <= REPLAN_AFTER_MINUTES or late >= 24 * 60 - REPLAN_AFTER_MINUTES


def sleep_time(persona: Resident, wake: datetime) -> datetime:
    """The first time after waking (by at least an hour) that the persona goes to bed."""
    bed = datetime.combine(wake.date(), time()) + timedelta(minutes=persona.sleep)
    while bed < wake + timedelta(hours=1):
        bed += timedelta(days=1)
    return bed


def _known(ctx: AgentContext) -> frozenset[str]:
    p = ctx.persona
    routine = {sector_of(b.place) for b in p.routine}
    return frozenset({*ctx.known_places, *p.known_places, *routine, p.home, p.workplace or ""})


def interrupt(day: Day, slots: list[Slot], new: Slot) -> list[Slot]:
    """Paint `new` into the middle of an item; the item's rest says 'getting back to ...'."""
    cut = covering(slots, new.end)
    out = paint(slots, new)
    if cut is None or cut.start >= new.start or not _resumable(day, cut):
        return out
    rest = RESUME + cut.text
    return [replace(s, text=rest) if s.start == new.end and s.text == cut.text else s for s in out]


def _resumable(day: Day, s: Slot) -> bool:
    if s.fixed or s.kind in MEAL_KINDS or s.kind == "morning" or s.text.startswith(RESUME):
        return False
    return not day.activity(s.text, s.place).leisure


# -- the routine -----------------------------------------------------------------------------


def _routine_slots(day: Day) -> list[Slot]:
    """The routine blocks laid on today's timeline, clipped to the waking hours."""
    slots = [Slot(day.wake, day.sleep, "", "", "free")]  # a gap until painted over
    for offset in (0, 1):
        for block in day.persona.routine:
            end_minute = block.end if block.end > block.start else block.end + 24 * 60
            start = max(day.at(block.start, offset), day.wake)
            end = min(day.at(end_minute, offset), day.sleep)
            if end > start:
                slots = paint(slots, day.slot(start, end, block.activity, block.place))
    return fill_free(day, slots)


# -- compound and long blocks ---------------------------------------------------------------
_COMPOUND = re.compile(
    r"^(.*?\b(?:breakfast|brunch|lunch|dinner|supper|cooking|cook\w*)\b[^,]*?) and (\w+ing\b.+)$"
)
LONG_MEAL_MINUTES = 100  # a plain meal block longer than this ends in free time at home
LONG_MEAL_KEEP = 60  # ... after this much of the meal


def _split_compound(day: Day, slots: list[Slot]) -> list[Slot]:
    """'having dinner and chatting with housemates' for 5 hours: dinner, then the chat."""
    out: list[Slot] = []
    for s in slots:
        out.extend(_split_meal(day, s) if s.kind in MEAL_MAX and not s.fixed else [s])
    return out


def _split_meal(day: Day, s: Slot) -> list[Slot]:
    limit = MEAL_MAX[s.kind]
    cut = s.start + timedelta(minutes=limit)
    m = _COMPOUND.match(s.text)
    if m is not None and s.minutes > limit + 30:
        meal = day.slot(s.start, cut, m.group(1), _meal_spot(day, s.place))
        rest = day.slot(cut, s.end, m.group(2), s.place)
        return [*_cook_then_eat(day, meal), rest] if meal.kind == "cooking" else [meal, rest]
    if s.kind == "cooking" and s.minutes > limit + 30:
        return _cook_then_eat(day, s)
    if s.minutes > LONG_MEAL_MINUTES:
        end = s.start + timedelta(minutes=LONG_MEAL_KEEP)
        return [replace(s, end=end), *home_free(day, end, s.end)]
    return [s]


def _cook_then_eat(day: Day, s: Slot) -> list[Slot]:
    """Cooking, then eating what was cooked, then (if time is left) free time at home."""
    cook_end = s.start + timedelta(minutes=min(MEAL_MAX["cooking"], max(30, s.minutes - 30)))
    eat_end = min(s.end, cook_end + timedelta(minutes=MEAL_MINUTES))
    if s.end - eat_end < timedelta(minutes=30):
        eat_end = s.end
    meal = _meal_word(s.text, s.start)
    eat = day.slot(cook_end, eat_end, f"having {meal}", _meal_spot(day, s.place))
    return [replace(s, end=cook_end), eat, *home_free(day, eat_end, s.end)]


def _meal_spot(day: Day, place: str) -> str:
    """Eat at the table the block names, or in the home (not at someone's desk)."""
    at_home = sector_of(place) == day.persona.home
    return day.persona.home if at_home and place.count(":") >= 2 else place


def _meal_word(text: str, when: datetime) -> str:
    for word in ("breakfast", "lunch", "dinner", "supper"):
        if word in text:
            return word
    return "breakfast" if when.hour < 11 else "lunch" if when.hour < 16 else "dinner"


def _respect_hours(day: Day, slots: list[Slot]) -> list[Slot]:
    """Visits to a public place only while it is open (staff keep their own hours)."""
    out: list[Slot] = []
    for s in slots:
        sector = sector_of(s.place)
        start = minute_of_day(s.start)
        if sector == day.persona.workplace or day.is_open(sector, start, start + s.minutes):
            out.append(s)
            continue
        out.append(filler(day, s.start, s.end))
    return out


# -- events ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class KnownEvent:
    """An event the persona knows of, and the scenario intent it belongs to ('' if none)."""

    event: Event
    intent: str = ""
    text: str = ""  # the words an earlier plan gave it, when what and host are not known


def _events(ctx: AgentContext, day: Day) -> list[KnownEvent]:
    """Events the persona knows of that fall in its waking day and that it will attend:
    the events its memories name by field (a seed fact, news heard, a visitor's claim, an
    earlier plan), and those its own seed paragraph states (the scenario's own words)."""
    places = {*day.known, *day.directory.public()}
    found: dict[tuple[str, datetime], KnownEvent] = {}
    for known in [*remembered_events(ctx.memories), *_seed_events(day, places)]:
        event = known.event
        if event.end <= day.wake or event.start >= day.sleep:
            continue
        key = (event.place, event.start)
        old = found.get(key)
        if old is None or _is_host(day.persona, event):
            found[key] = replace(known, intent=known.intent or (old.intent if old else ""))
        elif known.intent and not old.intent:
            found[key] = replace(old, intent=known.intent)
    events = sorted(found.values(), key=lambda k: k.event.start)
    return [k for k in events if _going(ctx, day, k.event)]


def _going(ctx: AgentContext, day: Day, event: Event) -> bool:
    """By the resident's own answer when it gave one, else by temperament."""
    answer = rsvp_of(ctx.memories, event)
    if answer is Rsvp.ACCEPTED or _is_host(day.persona, event):
        return True
    if answer is Rsvp.DECLINED:
        return False
    return attends(day.persona, event, day.seed)


def remembered_events(memories: tuple[MemoryRecord, ...]) -> list[KnownEvent]:
    """Events named by the memories' fields, then those an earlier plan already holds."""
    out = [KnownEvent(m.fact.event, m.fact.intent) for m in memories if m.fact.event is not None]
    by_intent = {k.intent: k.event for k in out if k.intent}
    return out + [e for m in memories for e in planned_events(m, by_intent)]


def _seed_events(day: Day, places: set[str]) -> list[KnownEvent]:
    """Events the persona's seed paragraph states (scenario data, read as words)."""
    found = (parse_event(t, places, today=day.wake.date()) for t in day.persona.seed_memories())
    return [KnownEvent(e) for e in found if e is not None]


def planned_events(memory: MemoryRecord, events: dict[str, Event]) -> list[KnownEvent]:
    """Events a plan memory already holds: the items it planned for a scenario intent, with
    the intent's event (what and who hosts) when `events` knows it."""
    if memory.fact.kind is not FactKind.PLAN:
        return []
    out = []
    for item in memory.fact.plan:
        if item.intent and item.place:
            full = events.get(item.intent)
            if full is not None:
                event = Event(item.place, item.start, item.end, full.what, full.host)
                out.append(KnownEvent(event, item.intent))
            else:
                event = Event(item.place, item.start, item.end)
                out.append(KnownEvent(event, item.intent, item.description))
    return out


def _is_host(persona: Resident, event: Event) -> bool:
    return bool(event.host) and mentions(persona.name, event.host.split()[0])


def attends(persona: Resident, event: Event, seed: int) -> bool:
    """The host always; a guest unless (rarely, by temperament) it turns the invitation down."""
    return _is_host(persona, event) or not declines(persona, event_key(event), seed)


def event_key(event: Event) -> str:
    """The same event however it was worded: its place and start."""
    return f"{event.place}@{event.start.isoformat()}"


def event_text(persona: Resident, event: Event) -> str:
    what = event.what or "event"
    if _is_host(persona, event):
        return f"hosting the {what} at {event.place}"
    if event.host:
        return f"going to {first_name(event.host)}'s {what} at {event.place}"
    return f"going to the {what} at {event.place}"


def _event_words(persona: Resident, known: KnownEvent) -> str:
    return known.text or event_text(persona, known.event)


def _add_event(day: Day, slots: list[Slot], known: KnownEvent) -> list[Slot]:
    event = known.event
    start, end = max(event.start, day.wake), min(event.end, day.sleep)
    if not _is_host(day.persona, event):
        start, end = _staggered(day, event, start, end)
    text = _event_words(day.persona, known)
    slots = interrupt(day, slots, day.slot(start, end, text, event.place, fixed=True, kind="event"))
    if _is_host(day.persona, event):
        prep_start = max(day.wake, start - timedelta(minutes=PREP_MINUTES))
        busy = any(s.fixed and s.start < start and s.end > prep_start for s in slots)
        if prep_start < start and not busy:
            prep = f"decorating {event.place} for the {event.what or 'event'}"
            slots = interrupt(
                day, slots, day.slot(prep_start, start, prep, event.place, fixed=True)
            )
    return slots


ARRIVE_LATE = (0, 5, 10, 15, 20, 25, 35)  # minutes after the start a guest turns up
LEAVE_EARLY = (0, 0, 5, 10, 20)  # minutes before the end a guest heads off


def _staggered(day: Day, event: Event, start: datetime, end: datetime) -> tuple[datetime, datetime]:
    """Guests do not all walk in (or out) in the same minute: each arrives and leaves a
    little apart, by a stable hash of the guest and the event."""
    late = timedelta(minutes=pick(ARRIVE_LATE, *day.key("arrive", event.start.isoformat())))
    early = timedelta(minutes=pick(LEAVE_EARLY, *day.key("leave", event.start.isoformat())))
    if end - start - late - early < timedelta(minutes=45):
        return start, end
    return start + late, end - early


# -- morning and meals -----------------------------------------------------------------------


def _add_morning(day: Day, slots: list[Slot]) -> list[Slot]:
    """Waking up and getting ready: in free time before the routine starts if there is
    some, else carved from the first item (leaving most of it)."""
    first = slots[0]
    minutes = pick(MORNING_MINUTES, *day.key("morning"))
    if first.filler:
        free = next((s.start for s in slots if not s.filler), day.sleep) - day.wake
        minutes = max(20, min(minutes, int(free.total_seconds() // 60)))
    elif first.kind in MEAL_KINDS:
        minutes = max(20, min(minutes, first.minutes - 30))
    else:
        minutes = max(20, min(minutes, first.minutes // 2))
    end = min(day.wake + timedelta(minutes=minutes), day.sleep)
    morning = day.slot(day.wake, end, MORNING_TEXT, day.persona.home, kind="morning")
    return paint(slots, morning)


def _add_breakfast(day: Day, slots: list[Slot]) -> list[Slot]:
    horizon = day.wake + timedelta(hours=4)
    if any(s.kind == "breakfast" for s in slots if s.start < horizon):
        return slots
    after = next((s for s in slots if s.kind != "morning"), None)
    if after is None or after.fixed:
        return slots
    if not after.filler and after.minutes < BREAKFAST_MINUTES + MIN_ITEM_MINUTES:
        return slots
    start = after.start
    if "before breakfast" in after.text:
        start = after.end - timedelta(minutes=BREAKFAST_MINUTES)
    end = start + timedelta(minutes=BREAKFAST_MINUTES)
    meal = day.slot(start, end, "having breakfast", day.persona.home, kind="breakfast")
    return paint(slots, meal)


def _add_meal(
    day: Day, slots: list[Slot], meal: str, times: tuple[int, ...], window: tuple[int, int]
) -> list[Slot]:
    """A meal where the routine has none: in free time if possible, else a work break."""
    lo, hi = day.at(window[0]), day.at(window[1])
    if day.wake > lo + timedelta(hours=2) or day.sleep < lo + timedelta(hours=2):
        return slots  # the day barely touches the meal's window
    if any(s.kind in MEAL_KINDS and s.start < hi and s.end > lo for s in slots):
        return slots
    if meal == "lunch" and _late_breakfast(slots, day.at(11 * 60)):
        return slots
    for allow_work in (False, True):
        for minute in times:
            found = _meal_slot(day, slots, meal, day.at(minute), allow_work)
            if found is not None:
                return interrupt(day, slots, found)
    return slots


def _unbreakable(day: Day, host: Slot) -> bool:
    """Classes and lectures away from home, the morning routine and events stay whole."""
    return host.kind in UNBREAKABLE and sector_of(host.place) != day.persona.home


def _late_breakfast(slots: list[Slot], when: datetime) -> bool:
    return any(s.kind == "breakfast" and s.end >= when for s in slots)


def _meal_slot(
    day: Day, slots: list[Slot], meal: str, start: datetime, allow_work: bool
) -> Slot | None:
    host = covering(slots, start)
    end = start + timedelta(minutes=MEAL_MINUTES)
    if host is None or host.fixed or end > host.end or _unbreakable(day, host):
        return None
    if day.activity(host.text, host.place).work and not allow_work:
        return None
    sliver = timedelta(minutes=30)
    before, after = start - host.start, host.end - end
    if not is_leisure(day, host):
        # a meal may shorten a routine item, not erase it or leave a sliver of it
        slivers = timedelta(0) < before < sliver or timedelta(0) < after < sliver
        if slivers or (not before and not after):
            return None
        return day.slot(start, end, *_meal_place(day, host, meal, start))
    longest = timedelta(minutes=MEAL_MAX_WITH_SLIVERS)
    if before < sliver and end - host.start <= longest:
        start = host.start
    if after < sliver and host.end - start <= longest:
        end = host.end
    text, place = _meal_place(day, host, meal, start)
    return day.slot(start, end, text, place)


def _meal_place(day: Day, host: Slot, meal: str, start: datetime) -> tuple[str, str]:
    """Eat where one is: at home, at the cafe or pub, or out from work."""
    sector, persona = sector_of(host.place), day.persona
    minute = minute_of_day(start)
    if sector == persona.home or not sector:
        return f"having {meal} at home", persona.home
    eats_out = day.directory.role(sector) in (Role.CAFE, Role.BAR)
    if eats_out and day.is_open(sector, minute, minute + MEAL_MINUTES):
        return f"having {meal} at {sector}", sector
    cafe = day.place(Role.CAFE)
    cafe_ok = bool(cafe) and day.is_open(cafe, minute, minute + MEAL_MINUTES)
    if day.activity(host.text, host.place).work:
        if cafe_ok:
            return f"having {meal} at {cafe}", cafe
        return f"taking a quick {meal} break", sector
    if cafe_ok and chance(*day.key(meal, "cafe")) < 0.5:
        return f"having {meal} at {cafe}", cafe
    return f"having {meal} at home", persona.home


# -- tidying the day -------------------------------------------------------------------------


def _normalise(day: Day, slots: list[Slot]) -> list[Slot]:
    slots = merge_same(slots)
    slots = absorb_tiny(slots)
    while len(slots) > MAX_ITEMS:
        slots = merge_shortest(slots)
    while len(slots) > TARGET_ITEMS:
        merged = merge_natural(slots)
        if merged is None:
            break
        slots = merged
    while len(slots) < MIN_ITEMS:
        longer = _add_break(day, slots)
        if longer is None:
            break
        slots = longer
    return slots


def _add_break(day: Day, slots: list[Slot]) -> list[Slot] | None:
    """Too few items: a short break in the middle of the longest stretch."""
    longest = max((s for s in slots if not s.fixed), key=lambda s: s.minutes, default=None)
    if longest is None or longest.minutes < 2 * MIN_ITEM_MINUTES + BREAK_MINUTES + 30:
        return None
    start = longest.start + timedelta(minutes=(longest.minutes - BREAK_MINUTES) // 2)
    work = day.activity(longest.text, longest.place).work
    text = "taking a short coffee break" if work else "having a cup of tea at home"
    place = sector_of(longest.place) if work else day.persona.home
    end = start + timedelta(minutes=BREAK_MINUTES)
    pause = day.slot(start, end, text, place, kind="break", filler=True)
    return interrupt(day, slots, pause)
