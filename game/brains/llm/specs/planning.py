"""Specs for the day plan and its decomposition into hours and actions.

Times are read inside the day they plan, and each action says where, the object's state,
its emoji and its importance in the same answer, so none of them costs another request.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from game.brains.llm import examples as ex
from game.brains.llm import sense
from game.brains.llm.jsontext import Invalid
from game.brains.llm.specs.checks import (
    activity,
    check_emoji,
    items,
    object_state,
    one_of,
    ranged,
    text_field,
    want,
)
from game.brains.llm.specs.quoting import clip
from game.brains.llm.specs.schema import EMOJI_TEXT, SCORE, arr, enum, integer, obj, text, titled
from game.brains.llm.specs.spec import Spec
from game.brains.llm.specs.views import hhmm, memory_lines, persona_line
from game.brains.questions import Chunk, DecomposeHours, DecomposeSteps, PlanDay
from game.core.clock import fmt_hhmm
from game.core.records import PlanItem
from game.world.states import vocabulary


def _hours_note(q: PlanDay, place: str) -> str:
    found = next((p for p in q.places if p.name == place), None)
    if found is None or found.opens is None or found.closes is None:
        return ""
    return f" (open {fmt_hhmm(found.opens)}-{fmt_hhmm(found.closes)})"


def plan_places(q: PlanDay) -> list[str]:
    return [p.name for p in q.places]


def _plan_view(q: PlanDay) -> dict[str, str]:
    ctx = q.ctx
    yesterday = q.yesterday.strip()
    return {
        "summary": ctx.summary,
        "yesterday": f"Yesterday: {clip(yesterday, 400)}" if yesterday else "",
        "date": ctx.now.strftime("%A %B %d, %Y"),
        "name": ctx.persona.name,
        "wake": hhmm(q.wake),
        "sleep": hhmm(q.sleep),
        "memories": memory_lines(ctx.memories),
        "places": "; ".join(p + _hours_note(q, p) for p in plan_places(q)),
        "example": ex.plan_example(ctx.persona, plan_places(q)),
    }


def hours_between(start: datetime, end: datetime) -> dict[str, Any]:
    """HH:MM within [start, end): the hours spelt out in the pattern, so a grammar cannot
    write 23:00 for a day that ends at 23:00 (a tiny model did, three times running)."""
    last = end - timedelta(minutes=1)
    span = min(24, int((last - start.replace(minute=0)).total_seconds() // 3600) + 1)
    hours = sorted({(start.hour + i) % 24 for i in range(max(1, span))})
    return {"type": "string", "pattern": f"^({'|'.join(f'{h:02d}' for h in hours)}):[0-5][0-9]$"}


def _plan_schema(q: PlanDay) -> dict[str, Any]:
    start = hours_between(q.wake, q.sleep)
    entry = obj(start=start, activity=text(3, 120), place=enum([*plan_places(q), ""]))
    return titled("plan_day", obj(items=arr(entry, 2, 12)))


def clock_time(text: str, after: datetime, until: datetime, key: str) -> datetime:
    """'13:30' as the first such moment at or after `after`; must not pass `until`."""
    try:
        hour, minute = (int(x) for x in text.strip().split(":"))
        day = after.replace(hour=hour, minute=minute, second=0, microsecond=0)
    except ValueError:
        raise Invalid(f"{key!r} must be a time like 13:30, not {text!r}") from None
    if day < after - timedelta(minutes=1):
        day += timedelta(days=1)
    if day >= until:
        raise Invalid(f"{key!r} {text} is outside the day ({hhmm(after)} to {hhmm(until)})")
    return max(day, after)


def _plan_parse(data: dict[str, Any], q: PlanDay) -> tuple[PlanItem, ...]:
    places = plan_places(q)
    timed = []
    for entry in items(data, "items", 2, 12):
        start = clock_time(want(entry, "start", str), q.wake, q.sleep, "start")
        place = want(entry, "place", str)
        place = one_of(place, places, "places") if place.strip() else ""
        timed.append((start, activity(entry, "activity", 120), place))
    timed.sort(key=lambda t: t[0])
    ends = [t[0] for t in timed[1:]] + [q.sleep]
    out = []
    for (start, doing, place), end in zip(timed, ends, strict=True):
        minutes = int((end - start).total_seconds() // 60)
        if minutes > 0:
            out.append(PlanItem(doing, start, minutes, place))
    who = q.ctx.persona.name
    problem = (
        sense.plan_problem(out, q.wake, q.sleep, who)
        or sense.block_time_problem(out)
        or sense.day_part_problem(out, q.wake)
        or sense.plan_event_problem(out, q.ctx.memories, who)
    )
    if problem:
        raise Invalid(problem)
    return tuple(out)


PLAN_DAY = Spec(
    PlanDay, "plan_day", "plan_day.txt", _plan_view, _plan_schema, _plan_parse, max_tokens=600
)


def _spot_labels(q: DecomposeHours | DecomposeSteps) -> list[str]:
    return [s.label for s in q.spots]


# The longest action a decomposition may name (the prompt asks for 5 to 15 minutes): a
# short range a grammar-building server can enforce as an enum (see grammar_schema).
STEP_MINUTES = 60


def _step_minutes(q: DecomposeHours | DecomposeSteps) -> int:
    return min(q.item.minutes, STEP_MINUTES)


def _step_schema(q: DecomposeHours | DecomposeSteps) -> dict[str, Any]:
    return obj(
        action=text(3, 100),
        minutes=integer(1, _step_minutes(q)),
        spot=enum([*_spot_labels(q), ""]),
        state=text(2, 60),
        emoji=EMOJI_TEXT,
        importance=SCORE,
    )


def _decompose_view(q: DecomposeHours | DecomposeSteps) -> dict[str, str]:
    ctx, item = q.ctx, q.item
    spots = _spot_labels(q)
    place = f" at {item.place.replace(':', ', ')}" if item.place else ""
    listing = "\n".join(f"- {s}" for s in spots) if spots else "- (none listed)"
    return {
        "persona": persona_line(ctx.persona),
        "name": ctx.persona.first_name,
        "start": hhmm(item.start),
        "end": hhmm(item.end),
        "description": item.description,
        "place": place,
        "minutes": str(item.minutes),
        "memories": memory_lines(ctx.memories, 120),
        "spots": listing,
        "example": ex.step_example(item.description, _spot_kinds(q)),
    }


def _spot_kinds(q: DecomposeHours | DecomposeSteps) -> dict[str, str]:
    """Each spot's label and the kind of its object ('' for a room as a whole)."""
    table = vocabulary()
    return {s.label: table.kind_of(s.object, s.role) if s.object else "" for s in q.spots}


def _parse_step(entry: dict[str, Any], q: DecomposeHours | DecomposeSteps) -> PlanItem:
    """An action with what the same answer said about it: where, the object's state while
    it runs, its emoji and its importance (so none of them costs another request)."""
    item = q.item
    label = want(entry, "spot", str)
    address = ""
    if label.strip():
        chosen = one_of(label, _spot_labels(q), "spots")
        address = next(s.address for s in q.spots if s.label == chosen)
    action = activity(entry, "action", 100)
    if address:
        misplaced = sense.spot_problem(action, chosen, _spot_kinds(q))
        if misplaced:
            raise Invalid(misplaced)
    state = text_field(entry, "state", 60, empty=True) if address else ""
    if state:
        spot = next(s for s in q.spots if s.address == address)
        state = object_state(state, spot.object, spot.role, action) if spot.object else ""
    return PlanItem(
        action,
        item.start,
        ranged(entry, "minutes", 1, _step_minutes(q)),
        address or item.place,
        state,
        check_emoji(want(entry, "emoji", str)),
        ranged(entry, "importance", 1, 10),
    )


def _steps_parse(data: dict[str, Any], q: DecomposeSteps) -> tuple[PlanItem, ...]:
    return tuple(_parse_step(e, q) for e in items(data, "steps", 1, 24))


DECOMPOSE_STEPS = Spec(
    DecomposeSteps,
    "decompose_steps",
    "decompose_steps.txt",
    _decompose_view,
    lambda q: titled("decompose_steps", obj(steps=arr(_step_schema(q), 1, 24))),
    _steps_parse,
    max_tokens=700,
)


def _hours_parse(data: dict[str, Any], q: DecomposeHours) -> tuple[Chunk, ...]:
    out = []
    for entry in items(data, "hours", 1, 24):
        steps = tuple(_parse_step(e, q) for e in items(entry, "steps", 1, 12))
        minutes = ranged(entry, "minutes", 1, q.item.minutes)
        hour = replace(q.item, description=activity(entry, "activity", 100), minutes=minutes)
        out.append(Chunk(hour, steps))
    return tuple(out)


DECOMPOSE_HOURS = Spec(
    DecomposeHours,
    "decompose_hours",
    "decompose_hours.txt",
    _decompose_view,
    lambda q: titled(
        "decompose_hours",
        obj(
            hours=arr(
                obj(
                    activity=text(3, 100),
                    minutes=integer(1, q.item.minutes),
                    steps=arr(_step_schema(q), 1, 12),
                ),
                1,
                24,
            )
        ),
    ),
    _hours_parse,
    max_tokens=1500,
)
