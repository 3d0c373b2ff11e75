"""Specs for acting in the town: where to go, an object's state and the emoji, reacting."""

from __future__ import annotations

from typing import Any

from game.brains.llm import examples as ex
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
from game.brains.llm.specs.schema import EMOJI_TEXT, arr, enum, integer, obj, text, titled
from game.brains.llm.specs.spec import Spec
from game.brains.llm.specs.views import memory_lines, where
from game.brains.questions import (
    ActionDetails,
    AgentContext,
    ChooseSector,
    ChooseSpot,
    Details,
    Emoji,
    React,
    ReactEach,
    Spot,
    SpotDetails,
)
from game.core.records import CONTINUE, Observation, Reaction, ReactionKind
from game.world.states import vocabulary


def _choice_view(ctx: AgentContext, action: str, current: str, hint: str) -> dict[str, str]:
    p = ctx.persona
    return {
        "name": p.name,
        "occupation": p.occupation,
        "home": p.home,
        "action": action,
        "current": f" {p.first_name} is now in: {current}." if current else "",
        "hint": f" The plan had in mind: {hint.replace(':', ', ')}." if hint else "",
    }


CHOOSE_SECTOR = Spec(
    ChooseSector,
    "choose_area",
    "choose_area.txt",
    lambda q: {
        **_choice_view(q.ctx, q.action, q.current, q.hint),
        "level": "place",
        "options": "; ".join(q.options),
    },
    lambda q: titled("choose_area", obj(choice=enum(q.options))),
    lambda d, q: one_of(want(d, "choice", str), q.options, "options"),
    simple=True,
    max_tokens=60,
)


def _spot_parse(data: dict[str, Any], q: ChooseSpot) -> Spot:
    label = one_of(want(data, "choice", str), [s.label for s in q.spots], "spots")
    return next(s for s in q.spots if s.label == label)


CHOOSE_SPOT = Spec(
    ChooseSpot,
    "choose_spot",
    "choose_area.txt",
    lambda q: {
        **_choice_view(q.ctx, q.action, q.current, q.hint),
        "level": f"spot in {q.sector} (room: object)",
        "options": "; ".join(s.label for s in q.spots),
    },
    lambda q: titled("choose_spot", obj(choice=enum([s.label for s in q.spots]))),
    _spot_parse,
    simple=True,
    max_tokens=60,
)


def _details_parse(data: dict[str, Any], q: ActionDetails) -> Details:
    state = object_state(text_field(data, "state", 60), q.obj, q.role, q.action)
    return Details(state, check_emoji(want(data, "emoji", str)))


def _details_view(q: ActionDetails) -> dict[str, str]:
    table = vocabulary()
    return {
        "name": q.persona.name,
        "action": q.action,
        "obj": q.obj,
        "old_state": q.old_state,
        "states": ", ".join(table.states(table.kind_of(q.obj, q.role))),
        "example": ex.state_example(q.action, q.obj),
    }


ACTION_DETAILS = Spec(
    ActionDetails,
    "object_state",
    "object_state.txt",
    _details_view,
    lambda q: titled("object_state", obj(state=text(2, 60), emoji=EMOJI_TEXT)),
    _details_parse,
    simple=True,
    max_tokens=60,
)


def _spot_details_view(q: SpotDetails) -> dict[str, str]:
    c, table = q.choose, vocabulary()
    objects = [(s, t) for s, t in zip(c.spots, q.then, strict=True) if isinstance(t, ActionDetails)]
    kinds = dict.fromkeys(table.kind_of(t.obj, t.role) for _, t in objects)
    own = [f"a {k} can be: {', '.join(table.kinds[k])}" for k in kinds if table.kinds.get(k)]
    first = objects[0][1] if objects else None
    return {
        **_choice_view(c.ctx, c.action, c.current, c.hint),
        "sector": c.sector,
        "options": "; ".join(s.label for s in c.spots),
        "states": "; ".join([*own, f"anything can be: {', '.join(table.common)}"]),
        "example": ex.state_example(c.action, first.obj) if first else ex.emoji_example(c.action),
    }


def _spot_details_parse(data: dict[str, Any], q: SpotDetails) -> tuple[Spot, Details | None]:
    spot = _spot_parse(data, q.choose)
    then = q.then[q.choose.spots.index(spot)]
    if isinstance(then, ActionDetails):
        return spot, _details_parse(data, then)
    if then is not None:  # the emoji alone: a room, no object
        return spot, Details("", check_emoji(want(data, "emoji", str)))
    return spot, None


SPOT_DETAILS = Spec(
    SpotDetails,
    "spot_details",
    "spot_details.txt",
    _spot_details_view,
    lambda q: titled(
        "spot_details",
        obj(
            choice=enum([s.label for s in q.choose.spots]),
            state=text(2, 60),
            emoji=EMOJI_TEXT,
        ),
    ),
    _spot_details_parse,
    simple=True,
    max_tokens=90,
)

EMOJI = Spec(
    Emoji,
    "emoji",
    "emoji.txt",
    lambda q: {"action": q.action, "example": ex.emoji_example(q.action)},
    lambda q: titled("emoji", obj(emoji=EMOJI_TEXT)),
    lambda d, q: check_emoji(want(d, "emoji", str)),
    simple=True,
    max_tokens=30,
)


def _react_options(q: React) -> list[str]:
    return ["continue", "react", "talk"] if q.observation.is_agent else ["continue", "react"]


# The most relevant memories a reaction is decided on (retrieval gives them best first):
# the question is asked often, and the last few rarely change the answer.
REACT_MEMORIES = 6


def _talk(obs: Observation) -> str:
    # no quote marks in a filled-in part unless someone is quoted (see client.prompt)
    return f" or talk: start a conversation with {obs.subject}." if obs.is_agent else ""


def _situation(ctx: AgentContext) -> dict[str, str]:
    return {
        "summary": ctx.summary,
        "time": ctx.now.strftime("%A %H:%M"),
        "name": ctx.persona.name,
        "status": ctx.status or "idle",
        "where": where(ctx),
    }


def _react_view(q: React) -> dict[str, str]:
    obs = q.observation
    return {
        **_situation(q.ctx),
        "observation": obs.text,
        "memories": memory_lines(q.ctx.memories[:REACT_MEMORIES]),
        "talk": _talk(obs),
    }


def _react_parse(data: dict[str, Any], q: React) -> Reaction:
    obs = q.observation
    decision = one_of(want(data, "decision", str), _react_options(q), "decisions")
    if decision == "continue":
        return CONTINUE
    if decision == "talk":
        return Reaction(ReactionKind.TALK, target=obs.subject)
    action = activity(data, "action", 100)
    if action.lower() in ("continue", "react", "talk") or len(action.split()) < 2:
        raise Invalid(f"'action' must say what to do, like 'going to help', not {action!r}")
    minutes = ranged(data, "minutes", 1, 120)
    return Reaction(ReactionKind.REACT, action, minutes, "" if obs.is_agent else obs.subject)


REACT = Spec(
    React,
    "react",
    "react.txt",
    _react_view,
    lambda q: titled(
        "react",
        obj(decision=enum(_react_options(q)), action=text(3, 100), minutes=integer(1, 120)),
    ),
    _react_parse,
    max_tokens=100,
)


def _each_options(q: ReactEach) -> list[str]:
    return list(dict.fromkeys(o for a in q.asked for o in _react_options(a)))


def _decide(obs: Observation) -> str:
    if obs.is_agent:
        return f"Decide: continue; react: do something else about it;{_talk(obs)}"
    return "Decide: continue, or react: do something else about it."


def _react_each_view(q: ReactEach) -> dict[str, str]:
    name = q.ctx.persona.name
    blocks = [
        f"Sight {i}: {a.observation.text}\nWhat {name} remembers about it:\n"
        f"{memory_lines(a.ctx.memories[:REACT_MEMORIES])}\n" + _decide(a.observation)
        for i, a in enumerate(q.asked, 1)
    ]
    return {**_situation(q.ctx), "count": str(len(q.asked)), "sights": "\n\n".join(blocks)}


def _react_each_parse(data: dict[str, Any], q: ReactEach) -> tuple[Reaction, ...]:
    n = len(q.asked)
    out = []
    for i, (entry, asked) in enumerate(zip(items(data, "answers", n, n), q.asked, strict=True), 1):
        try:
            out.append(_react_parse(entry, asked))
        except Invalid as problem:
            raise Invalid(f"answer {i}: {problem}") from problem
    return tuple(out)


REACT_EACH = Spec(
    ReactEach,
    "react_each",
    "react_each.txt",
    _react_each_view,
    lambda q: titled(
        "react_each",
        obj(
            answers=arr(
                obj(
                    decision=enum(_each_options(q)),
                    action=text(3, 100),
                    minutes=integer(1, 120),
                ),
                len(q.asked),
                len(q.asked),
            )
        ),
    ),
    _react_each_parse,
    max_tokens=300,
)
