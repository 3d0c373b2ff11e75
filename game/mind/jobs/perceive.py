"""PERCEIVE: store what was seen, and decide whether to react or to talk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from game.brains.questions import React, ReactEach
from game.core.records import (
    ActionKind,
    MemoryKind,
    Observation,
    PlanItem,
    Reaction,
    ReactionKind,
)
from game.mind.agent import AgentSnapshot
from game.mind.effects import Perceived
from game.mind.jobs.common import Mind, Note, Surroundings, context, new_memories
from game.mind.jobs.next_action import make_action
from game.mind.jobs.recall import recall, relationship_query, warm
from game.world.troubles import trouble

MAX_REACT_QUESTIONS = 3


def _seen(obs: Observation) -> Note:
    routine = obs.routine or obs.activity in (ActionKind.SLEEP, ActionKind.CHAT, ActionKind.WAIT)
    return Note(MemoryKind.OBSERVATION, obs.fact, obs.importance, routine)


def perceive_job(
    mind: Mind,
    snap: AgentSnapshot,
    world: Surroundings,
    observations: Sequence[Observation],
    talkable: frozenset[str],
) -> Perceived:
    memories = new_memories(mind, snap, [_seen(o) for o in observations], world.town)
    # A resident using an object is routine: remembered, never a question (a stove left
    # burning by the player, or a state nobody here set, is one).
    candidates = [o for o in observations if not o.is_agent and not o.routine]
    candidates += [o for o in observations if o.is_agent and o.subject in talkable]
    touched: list[int] = []
    candidates = candidates[:MAX_REACT_QUESTIONS]
    if candidates:
        warm(mind, [snap], [q for obs in candidates for q in _react_queries(snap, obs)])
    recalled = [recall(mind, snap, _react_queries(snap, obs), k=5) for obs in candidates]
    pairs = zip(candidates, recalled, strict=True)
    asked = [React(context(snap, world.town, records), o) for o, (records, _) in pairs]
    answers = _reactions(mind, snap, world, asked)  # all: most say "carry on" anyway
    for obs, (_, idx), reaction in zip(candidates, recalled, answers, strict=True):
        touched.extend(idx)  # the first that leads somewhere wins, as if asked in turn
        found = _reaction(mind, snap, world, obs, reaction, talkable)
        if found is not None:
            return replace(found, memories=memories, touched=tuple(touched))
    return Perceived(snap.name, memories, tuple(touched))


def _reactions(
    mind: Mind, snap: AgentSnapshot, world: Surroundings, asked: list[React]
) -> list[Reaction]:
    """Whether to react to each sight: several in one question (one request for a
    model), each answered as if asked alone."""
    if len(asked) < 2:
        return [mind.brain.ask(q) for q in asked]
    return list(mind.brain.ask(ReactEach(context(snap, world.town), tuple(asked))))


def _react_queries(snap: AgentSnapshot, obs: Observation) -> list[str]:
    return [relationship_query(snap.name, obs.subject), obs.text]


def _reaction(mind, snap, world, obs, reaction, talkable) -> Perceived | None:
    if reaction.kind is ReactionKind.TALK and reaction.target in talkable:
        return Perceived(snap.name, talk_to=reaction.target)
    if reaction.kind is not ReactionKind.REACT or not reaction.action.strip():
        return None
    target = reaction.target if reaction.target in world.town.areas else ""
    if not target:  # an object is dealt with where it is; a person, where one stands
        here = snap.location if snap.location in world.town.areas else ""
        target = here if obs.is_agent else obs.subject
    minutes = max(1, min(120, reaction.minutes or 10))
    item = PlanItem(reaction.action.strip(), snap.now, minutes, target)
    action = make_action(mind, snap, world, item, ActionKind.REACT, target)
    fixed = world.town.areas[target].default_state if target in world.town.areas else ""
    action = replace(action, fixes_to=fixed if not obs.is_agent else "")
    found = trouble(obs.status) if not obs.is_agent else None
    if found is not None:  # whoever answered, trouble shows on the map the table's way
        name = world.town.areas[obs.subject].name if obs.subject in world.town.areas else ""
        emoji = action.emoji if action.emoji.startswith(found.emoji) else found.emoji
        action = replace(action, emoji=emoji, said=found.call(name or "thing"))
    plan = snap.plan.replan_from(snap.now, item)
    note = f"{snap.name} reacts to {obs.text}: {reaction.action}"
    return Perceived(snap.name, action=action, plan=plan, note=note)
