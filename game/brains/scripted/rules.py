"""One rule per question: how the scripted brain answers each question class.

A rule reads the question's typed fields and the brain's seed and returns the typed
answer; the modules beside this one hold the tables the rules consult.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.brains.questions import (
    ActionDetails,
    Answer,
    ChooseSector,
    ChooseSpot,
    Chunk,
    DecomposeHours,
    DecomposeSteps,
    Details,
    Emoji,
    Insights,
    InsightsEach,
    JudgeAnswer,
    PlanDay,
    Question,
    RateImportance,
    React,
    ReactEach,
    ReflectQuestions,
    Spot,
    SpotDetails,
    Summarize,
    Utter,
)
from game.world.town import AreaKind

from . import answer, decompose, interview, lexicon, places, plans, reflect, spots, talk

Rule = Callable[[Any, int], Any]
RULES: dict[type[Question[Any]], Rule] = {}


def rule(kind: type[Question[Any]]) -> Callable[[Rule], Rule]:
    """Register the scripted answer to one question class."""

    def register(fn: Rule) -> Rule:
        RULES[kind] = fn
        return fn

    return register


@rule(RateImportance)
def _importance(q: RateImportance, seed: int) -> tuple[int, ...]:
    return tuple(lexicon.importance(q.persona, d.text, d.fact) for d in q.drafts)


@rule(PlanDay)
def _plan_day(q: PlanDay, seed: int) -> tuple:
    return tuple(plans.plan_day(q.ctx, q.yesterday, q.wake, seed))


def offered(q: DecomposeHours | DecomposeSteps):
    """What the item's place has, from the spots the question lists (None: not said)."""
    return spots.offers_of(q.spots)


@rule(DecomposeHours)
def _hours(q: DecomposeHours, seed: int) -> tuple[Chunk, ...]:
    where = places.Directory.of(q.ctx)
    found = decompose.decompose(q.ctx.persona, q.item, 60, seed, where, offered(q))
    return tuple(Chunk(i) for i in found)


@rule(DecomposeSteps)
def _steps(q: DecomposeSteps, seed: int) -> tuple:
    where = places.Directory.of(q.ctx)
    return tuple(decompose.decompose(q.ctx.persona, q.item, 15, seed, where, offered(q)))


@rule(ChooseSector)
def _sector(q: ChooseSector, seed: int) -> str:
    p, where = q.ctx.persona, places.Directory.of(q.ctx)
    level = AreaKind.SECTOR
    return places.choose(p, q.action, level, q.options, q.current, q.hint, q.roles, where)


@rule(ChooseSpot)
def _spot(q: ChooseSpot, seed: int) -> Spot:
    """The room by the arena rules, then the object in it by the object rules, each
    matched by the map's roles as much as by names."""
    p, where = q.ctx.persona, places.Directory.of(q.ctx)
    arenas = list(dict.fromkeys(s.arena for s in q.spots))
    roles = {s.arena: s.arena_role for s in q.spots}
    arena = arenas[0] if len(arenas) == 1 else None
    arena = arena or places.choose(
        p, q.action, AreaKind.ARENA, arenas, q.current, q.hint, roles, where
    )
    inside = [s for s in q.spots if s.arena == arena]
    objects = [s.object for s in inside if s.object]
    if len(inside) == 1 or not objects:
        return inside[0]
    roles = {s.object: s.role for s in inside if s.object}
    name = objects[0] if len(objects) == 1 else None
    name = name or places.choose(p, q.action, AreaKind.OBJECT, objects, "", q.hint, roles, where)
    return next(s for s in inside if s.object == name)


@rule(ActionDetails)
def _details(q: ActionDetails, seed: int) -> Details:
    return Details(lexicon.object_state(q.action, q.obj, q.old_state), lexicon.emoji(q.action))


@rule(Emoji)
def _emoji(q: Emoji, seed: int) -> str:
    return lexicon.emoji(q.action)


@rule(SpotDetails)
def _spot_details(q: SpotDetails, seed: int) -> tuple:
    """The spot, then what its choice asks next, as if asked one after the other."""
    spot = _spot(q.choose, seed)
    then = q.then[q.choose.spots.index(spot)]
    if isinstance(then, ActionDetails):
        return spot, _details(then, seed)
    if isinstance(then, Emoji):
        return spot, Details("", _emoji(then, seed))
    return spot, None


@rule(React)
def _react(q: React, seed: int):
    return talk.react(q.ctx, q.observation, seed)


@rule(ReactEach)
def _react_each(q: ReactEach, seed: int) -> tuple:
    """Each sight's reaction, as if asked on its own."""
    return tuple(_react(asked, seed) for asked in q.asked)


@rule(Utter)
def _utter(q: Utter, seed: int):
    return talk.utter(q.ctx, q.partner, q.history, seed, q.state)


@rule(ReflectQuestions)
def _questions(q: ReflectQuestions, seed: int) -> tuple[str, ...]:
    return tuple(reflect.reflect_questions(q.persona, q.recent))


@rule(Insights)
def _insights(q: Insights, seed: int) -> tuple:
    return tuple(reflect.insights(q.persona, q.question, q.memories))


@rule(InsightsEach)
def _insights_each(q: InsightsEach, seed: int) -> tuple:
    """Each question's insights, as if asked on its own."""
    return tuple(_insights(asked, seed) for asked in q.asked)


@rule(Summarize)
def _summarize(q: Summarize, seed: int) -> str:
    return reflect.summarize(q.persona, q.topic, q.memories)


@rule(Answer)
def _answer(q: Answer, seed: int) -> str:
    """Planned from the understood act; a question nobody understood for us (no act) goes
    the old way, by its words."""
    if q.act is not None:
        return answer.answer(q.ctx, q.act, q.state, seed).text
    return interview.answer(q.ctx, q.question, seed)


@rule(JudgeAnswer)
def _judge(q: JudgeAnswer, seed: int) -> bool:
    """The keyword judge: every part of the rubric named, and no denial."""
    return q.rubric.accepts(q.answer, q.me)
