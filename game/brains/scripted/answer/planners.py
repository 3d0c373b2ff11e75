"""The planners by exemplar label and by aspect: the table `reply.answer` looks a question
up in. Small talk (greetings, thanks) is planned here; older interview handlers, which need
only the question's words, are wrapped as planners.
"""

from __future__ import annotations

from collections.abc import Callable

from game.brains.dialogue.acts import Act, Aspect, Wh
from game.brains.dialogue.understand import TROUBLE_LABELS
from game.brains.questions import AgentContext

from .. import interview as iv
from .. import selfknow
from ..util import pick
from .causes import plan_happenings, plan_help
from .day import plan_doing, plan_past, plan_plans, plan_routine
from .events import plan_event, plan_statement, plan_why
from .objects import plan_object
from .others import plan_find_known, plan_other
from .people import _talked_most, plan_nearby, plan_person
from .persona import (
    plan_family,
    plan_home,
    plan_identity,
    plan_interests,
    plan_neighbours,
    plan_work,
    plan_work_here,
)
from .phrasing import Planner
from .recall import plan_news
from .town import plan_hours, plan_place, plan_rooms


def _legacy(fn: Callable[[AgentContext, str, int], str]) -> Planner:
    """A planner that needs only the persona and the memories, not the question's slots."""

    def planner(ctx: AgentContext, act: Act, seed: int) -> str:
        return fn(ctx, act.text, seed)

    return planner


def plan_social(ctx: AgentContext, act: Act, seed: int) -> str:
    me = ctx.persona
    if act.label == "greeting":
        return pick(("Hello!", "Hi there!", "Oh, hello!"), seed, me.name, act.text)
    if act.label == "farewell":
        return pick(("Goodbye, take care!", "See you around!", "Bye for now!"), seed, me.name)
    if act.label == "thanks":
        return pick(("You're welcome!", "Any time.", "Happy to help."), seed, me.name)
    if act.label == "request":
        return "Sure, I'll see what I can do."
    return pick(("Mm, yes.", "Right.", "I know what you mean."), seed, me.name, act.text)


PLANNERS_OF_TROUBLE = TROUBLE_LABELS
PLANNERS: dict[str, Planner] = {
    "identity": plan_identity,
    "work": plan_work,
    "home": plan_home,
    "home.alone": plan_home,
    "neighbours": plan_neighbours,
    "routine.early": plan_routine,
    "routine.late": plan_routine,
    "place.regular": plan_place,
    "place.rooms": plan_rooms,
    "place.hours": plan_hours,
    "work.here": plan_work_here,
    "person.find": plan_find_known,
    "person.work": plan_other,  # someone else's life, asked of them (dialogue.whose)
    "person.doing": plan_other,
    "person.past": plan_other,
    "person.plans": plan_other,
    "person.going": plan_other,
    "person.interests": plan_other,
    "person.routine": plan_other,
    "person.talk": lambda ctx, act, seed: (
        (_talked_most(ctx) if not (act.person or act.window) and act.wh is Wh.WHO else "")
        or plan_person(ctx, act, seed)
    ),
    "family": plan_family,
    "friends": _legacy(iv._friends),
    "spend_time": _legacy(iv._spend_time),
    "interests": plan_interests,
    "routine": plan_routine,
    "occupied": _legacy(selfknow.occupied),
    "feelings": _legacy(iv._mood),
    "doing": plan_doing,
    "nearby": plan_nearby,
    "today": plan_plans,
    "plans.at": plan_plans,
    "ahead": plan_plans,
    "past": plan_past,
    "meal": plan_past,
    "town": _legacy(iv._likes),
    "inspire": _legacy(selfknow.inspires),
    "have": _legacy(iv._have),
    "time": _legacy(iv._small_talk),
    "secret": _legacy(iv._small_talk),
    "help": plan_help,
    "event.know": plan_happenings,
    "news": plan_news,
    "fridge": plan_object,
    "follow.why": plan_why,
    "statement.event": plan_statement,
    "statement.news": plan_statement,
    "statement.self": plan_statement,
    "invitation": plan_event,
    "greeting": plan_social,
    "farewell": plan_social,
    "thanks": plan_social,
    "ack": plan_social,
    "request": plan_social,
}
ASPECTS: dict[Aspect, Planner] = {
    Aspect.EVENT: plan_event,
    Aspect.NEWS: plan_event,
    Aspect.PERSON: plan_person,
    Aspect.PLACE: plan_place,
    Aspect.OBJECT: plan_object,
    Aspect.HOME: plan_home,
    Aspect.FAMILY: plan_family,
    Aspect.PLANS: plan_plans,
    Aspect.PAST: plan_past,
    Aspect.DOING: plan_doing,
    Aspect.WORK: plan_work,
    Aspect.IDENTITY: plan_identity,
    Aspect.INTERESTS: plan_interests,
    Aspect.ROUTINE: plan_routine,
    Aspect.FEELINGS: _legacy(iv._mood),
    Aspect.FRIENDS: _legacy(iv._friends),
    Aspect.TOWN: _legacy(iv._likes),
}
