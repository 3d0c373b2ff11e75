"""PREPARE: the next decision, asked while the current action runs (or the night lasts).

Why: the model's seconds then overlap the action's minutes instead of leaving the agent
standing still, and lockstep need not stop the clock for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta

from game.core.records import ActionKind, Source
from game.mind import facts
from game.mind.agent import AgentSnapshot
from game.mind.effects import NextAction, Prepared, Woke
from game.mind.jobs.common import Mind, Surroundings
from game.mind.jobs.next_action import next_action_job
from game.mind.jobs.recall import foresee
from game.mind.jobs.wake import wake_job


def decide_job(mind: Mind, snap: AgentSnapshot, world: Surroundings) -> list[NextAction | Prepared]:
    """The next action for a resident standing still, and, when it is a short one, the
    decision after it, held (first in the list, so the action's start asks no more): the
    rest of a plan item after a reaction is often a minute long, and would otherwise
    stop the clock a second time."""
    decision = next_action_job(mind, snap, world)
    then = _following(mind, snap, world, decision)
    return [decision] if then is None else [then, decision]


def prepare_next_job(mind: Mind, snap: AgentSnapshot, world: Surroundings) -> Prepared:
    """The next action, asked ahead: `snap.now` is when the current action ends. Why: the
    model's seconds then overlap the action's minutes instead of leaving the agent
    standing still, and lockstep need not stop the clock for it."""
    decision = next_action_job(mind, snap, world)
    then = _following(mind, snap, world, decision)
    _foresee_decisions(mind, world, [decision, *(then.decisions if then else ())])
    return Prepared(snap.name, decisions=(decision,), base=snap.plan, at=snap.now, then=then)


def _foresee_decisions(
    mind: Mind, world: Surroundings, decisions: Sequence[Woke | NextAction]
) -> None:
    """What decisions asked ahead will put into memories when they are used (the
    agent's own, what others will see it doing, the state it leaves an object in)."""
    texts = [m.text for d in decisions for m in d.memories if m.embedding is None]
    for d in decisions:
        action = d.action if isinstance(d, NextAction) else None
        if action is None:
            continue
        texts.append(facts.render(facts.doing(d.agent, action.description, Source.SEEN)))
        if action.object_state and action.address in world.states:
            texts.append(
                facts.render(facts.object_state(action.address, action.object_state), world.town)
            )
    foresee(mind, texts)


# An action shorter than this gets the decision after it asked in the same job.
SHORT_ACTION = timedelta(minutes=5)


def _following(
    mind: Mind, snap: AgentSnapshot, world: Surroundings, decision: NextAction
) -> Prepared | None:
    """The next action after a short one, as the agent would ask it when that one ends."""
    action = decision.action
    if action is None or action.kind is ActionKind.SLEEP or action.end - snap.now >= SHORT_ACTION:
        return None
    later = replace(snap, now=action.end, plan=decision.plan, action=None)
    following = next_action_job(mind, later, world)
    return Prepared(snap.name, decisions=(following,), base=decision.plan, at=action.end)


def prepare_wake_job(mind: Mind, snap: AgentSnapshot, world: Surroundings) -> Prepared:
    """Waking up and the day's first action, asked during the night (`snap.now` is the
    waking time): nothing an asleep agent perceives could change them."""
    woke = wake_job(mind, snap, world.town)
    awake = replace(
        snap,
        plan=woke.plan,
        summary=woke.summary,
        summary_day=woke.summary_day,
        asleep=False,
        action=None,
    )
    first = next_action_job(mind, awake, world)
    then = _following(mind, awake, world, first)
    _foresee_decisions(mind, world, [woke, first, *(then.decisions if then else ())])
    return Prepared(snap.name, decisions=(woke, first), base=snap.plan, at=snap.now, then=then)
