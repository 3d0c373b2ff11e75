"""NEXT_ACTION: the plan item covering now, decomposed just in time, becomes an action."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial

from game.brains.questions import (
    ActionDetails,
    DecomposeHours,
    DecomposeSteps,
    Details,
    Emoji,
    Spot,
)
from game.core.clock import next_time
from game.core.records import ActionKind, MemoryKind, PlanItem, Source
from game.mind import facts
from game.mind.agent import Action, AgentSnapshot
from game.mind.effects import NextAction
from game.mind.jobs.common import Mind, Note, Surroundings, context, new_memories
from game.mind.jobs.recall import recall
from game.mind.jobs.where import ground, spots_in, until_closing
from game.mind.plan import DayPlan, fit_to_span
from game.world.town import AreaKind, split


def _asks(
    snap: AgentSnapshot, world: Surroundings, item: PlanItem, address: str
) -> ActionDetails | Emoji | None:
    """What doing the item at `address` still asks: the object's state and the bubble
    (one question for both when there is an object), the bubble alone, or nothing when
    the plan item's planner said them."""
    area = world.town.areas.get(address)
    if area is None or area.kind is not AreaKind.OBJECT:
        return None if item.emoji else Emoji(snap.persona, item.description)
    if item.state and item.emoji and item.place == address:
        return None
    old = world.states.get(address, area.default_state)
    return ActionDetails(snap.persona, item.description, area.name, old)


def _details(
    mind: Mind,
    snap: AgentSnapshot,
    world: Surroundings,
    item: PlanItem,
    address: str,
    found: Details | None = None,
) -> tuple[str, str]:
    """The object's state and the bubble: from the plan item when its planner said them,
    else as `found` with the spot (`where.ground`), else asked."""
    asked = _asks(snap, world, item, address)
    if isinstance(asked, Emoji):
        return "", found.emoji if found is not None else mind.brain.ask(asked)
    if isinstance(asked, ActionDetails):
        got = found if found is not None else mind.brain.ask(asked)
        return got.state, got.emoji
    area = world.town.areas.get(address)
    is_object = area is not None and area.kind is AreaKind.OBJECT
    return (item.state if is_object else ""), item.emoji


def make_action(
    mind: Mind,
    snap: AgentSnapshot,
    world: Surroundings,
    item: PlanItem,
    kind: ActionKind = ActionKind.PLAN,
    address: str = "",
) -> Action:
    found = None
    if not address:
        asks = partial(_asks, snap, world, item)
        address, found = ground(mind, snap, world, item.description, item.place, asks)
    state, emoji = _details(mind, snap, world, item, address, found)
    end = until_closing(snap, world, address, max(item.end, snap.now + timedelta(minutes=1)))
    return Action(
        item.description,
        address,
        snap.now,
        end,
        kind,
        emoji,
        state.strip()[:60],
        importance=item.importance,
    )


def sleep_action(mind: Mind, snap: AgentSnapshot) -> Action:
    """Asleep until the plan's next item if it has one (a gap in a day is never a night),
    else until the persona's usual waking time."""
    wake = next_time(snap.now + timedelta(minutes=1), snap.persona.wake)
    planned = snap.plan.next_start(snap.now)
    if planned is not None and planned < wake:
        wake = planned
    details = mind.brain.ask(ActionDetails(snap.persona, "sleeping", "bed", "idle"))
    return Action(
        "sleeping", snap.persona.bed, snap.now, wake, ActionKind.SLEEP, "😴", details.state
    )


def _decomposed(
    mind: Mind, snap: AgentSnapshot, world: Surroundings
) -> tuple[DayPlan, PlanItem | None, PlanItem | None]:
    """The plan with the item covering now decomposed down to an action, just in time;
    also the broad item that action belongs to."""
    plan = snap.plan
    b, h, a = plan.locate(snap.now)
    if b is None:
        return plan, None, None
    broad = plan.broad[b]
    if h is None:
        plan = _hours(mind, snap, world, plan, b)
        b, h, a = plan.locate(snap.now)
    if a is None:
        hour = plan.hours[b][h]
        acts = [hour]
        if hour.minutes > 15:
            records, _ = recall(mind, snap, [hour.description], k=5)
            ctx = context(snap, world.town, records)
            spots = _item_spots(snap, world, hour)
            acts = fit_to_span(hour, mind.brain.ask(DecomposeSteps(ctx, hour, spots)))
        plan = plan.with_actions(b, h, acts)
        b, h, a = plan.locate(snap.now)
    return plan, plan.actions[(b, h)][a], broad


def _hours(mind: Mind, snap: AgentSnapshot, world: Surroundings, plan: DayPlan, b: int) -> DayPlan:
    """A broad item split into hours; the actions of the hours whose answer gave them are
    laid in at once (a model plans an item's hours and actions in one request)."""
    broad = plan.broad[b]
    if broad.minutes <= 60:
        return plan.with_hours(b, [broad])
    records, _ = recall(mind, snap, [broad.description], k=5)
    ctx = context(snap, world.town, records)
    chunks = mind.brain.ask(DecomposeHours(ctx, broad, _item_spots(snap, world, broad)))
    hours = fit_to_span(broad, [c.item for c in chunks])
    plan = plan.with_hours(b, hours)
    if len(hours) == len(chunks):
        for h, (hour, chunk) in enumerate(zip(hours, chunks, strict=True)):
            if chunk.steps and hour.minutes > 15:
                plan = plan.with_actions(b, h, fit_to_span(hour, chunk.steps))
    return plan


def _item_spots(snap: AgentSnapshot, world: Surroundings, item: PlanItem) -> tuple[Spot, ...]:
    """The spots of the sector an item happens in (else where the agent is, else home)."""
    sector = split(item.place or snap.location)[0] if (item.place or snap.location) else ""
    if sector not in world.town.areas:
        sector = snap.persona.home
    return tuple(s for s in spots_in(snap, world, sector) if not _others_room(s, snap))


def _others_room(spot: Spot, snap: AgentSnapshot) -> bool:
    """Another resident's private room ('Klaus Mueller's room' for Maria)."""
    p = snap.persona
    arena = spot.arena
    return "'s " in arena and not (arena.startswith(p.name) or arena.startswith(p.first_name))


def _unplanned(snap: AgentSnapshot) -> DayPlan:
    """Without planning (an ablation) the agent decides an hour at a time."""
    item = PlanItem(f"{snap.persona.name} decides what to do next", snap.now, 60)
    return DayPlan(snap.now.date().isoformat(), (item,))


def _staying(plan: DayPlan, now: datetime, planned: str, went: str) -> DayPlan:
    """The rest of the broad item under way that was planned at sector `planned` goes on
    at sector `went`: one who found the planned place closed or full and went elsewhere
    stays there, instead of trying the planned place again with each of the item's
    actions and being sent across town each time (a model was asked the place, the spot
    and the object's state again for every one of them)."""
    b = plan.locate(now)[0]
    if b is None or not planned or not went or planned == went:
        return plan

    def moved(item: PlanItem) -> PlanItem:
        if item.end <= now or split(item.place)[0] != planned:
            return item
        return replace(item, place=went)

    broad = (*plan.broad[:b], moved(plan.broad[b]), *plan.broad[b + 1 :])
    hours = {k: tuple(map(moved, v)) if k == b else v for k, v in plan.hours.items()}
    acts = {k: tuple(map(moved, v)) if k[0] == b else v for k, v in plan.actions.items()}
    return replace(plan, broad=broad, hours=hours, actions=acts)


def next_action_job(mind: Mind, snap: AgentSnapshot, world: Surroundings) -> NextAction:
    if not snap.plan.broad and not mind.settings.ablation.planning:
        snap = replace(snap, plan=_unplanned(snap))
    plan, item, broad = _decomposed(mind, snap, world)
    action = sleep_action(mind, snap) if item is None else make_action(mind, snap, world, item)
    if item is not None and item.place:
        plan = _staying(plan, snap.now, split(item.place)[0], split(action.address)[0])
    parent = broad.description if broad is not None else ""
    intent = item.intent if item is not None else ""
    fact = facts.doing(snap.name, action.description, Source.SELF, parent, intent)
    note = Note(MemoryKind.OBSERVATION, fact, known=action.importance)
    return NextAction(snap.name, new_memories(mind, snap, [note]), plan=plan, action=action)
