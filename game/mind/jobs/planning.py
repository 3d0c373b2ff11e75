"""The broad day plan from now until bedtime, as the paper stores it in memory.

Its own module because three jobs plan: waking, a conversation that settles an event
today, and the inner voice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from game.brains.questions import Place, PlanDay
from game.core.clock import fmt_datetime, next_time
from game.core.records import MemoryKind, MemoryRecord, PlanItem
from game.mind import facts
from game.mind.agent import AgentSnapshot
from game.mind.effects import NewMemory
from game.mind.jobs.at_hand import commitments
from game.mind.jobs.common import Mind, Note, context, new_memories
from game.mind.jobs.recall import recall
from game.mind.plan import DayPlan, fit_day
from game.world.town import SEP, AreaKind, Town


def plan_query(snap: AgentSnapshot) -> str:
    return f"{snap.persona.name}'s plans and events for {fmt_datetime(snap.now)}"


def plan_places(snap: AgentSnapshot, town: Town) -> tuple[Place, ...]:
    """The places a day plan may name (home, work, what the agent knows) with their hours;
    one's own home and workplace have none (staff come and go as they need)."""
    p = snap.persona
    known = (a for a in sorted(snap.known) if a and SEP not in a)
    names = dict.fromkeys([p.home, *([p.workplace] if p.workplace else []), *known])
    out = []
    for name in names:
        area = town.areas.get(name)
        if area is None or area.kind is not AreaKind.SECTOR:
            continue
        own = name in (p.home, p.workplace)
        out.append(Place(name, None if own else area.opens, None if own else area.closes))
    return tuple(out)


def plan_rest_of_day(
    mind: Mind,
    snap: AgentSnapshot,
    town: Town,
    yesterday: str = "",
    extra: Sequence[MemoryRecord] = (),
) -> tuple[DayPlan, tuple[NewMemory, ...], tuple[int, ...]]:
    """A broad plan from now until bedtime, stored in memory as the paper does.
    `extra` are memories not yet in the stream that the plan must take into account."""
    p, now = snap.persona, snap.now
    records, idx = recall(mind, snap, [plan_query(snap)])
    records = [*extra, *records, *(r for r in commitments(snap) if r.index not in idx)]
    sleep_at = next_time(now + timedelta(minutes=30), p.sleep)
    items: Sequence[PlanItem] = ()
    if mind.settings.ablation.planning:
        ctx = context(snap, town, records)
        places = plan_places(snap, town)
        items = mind.brain.ask(PlanDay(ctx, yesterday, now, sleep_at, places))
    items = [i for i in items if i.start < sleep_at]
    today = now.date().isoformat()
    plan = DayPlan(today, tuple(fit_day(items, now, sleep_at))) if items else DayPlan(today)
    notes = [Note(MemoryKind.PLAN, facts.plan(p.name, plan.broad))] if items else []
    return plan, new_memories(mind, snap, notes), idx
