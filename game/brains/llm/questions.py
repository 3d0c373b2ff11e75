"""Every question the brain asks a model, declared as data.

A Question names its prompt template (a file in game/brains/prompts, our own words), how
to fill it (`view`), the JSON schema of the answer (`schema`, built per request so that
options become an enum), how to read and check the answer for meaning (`parse`: the area
must be one of the offered options, importance 1..10, times inside the day, evidence
numbers in range), and what the scripted brain answers instead (`fallback`). The one call
path in client.py does the rest; nothing here knows about HTTP.

Schemas keep to the subset strict structured output accepts everywhere (every property
required, no additional properties, enums, no numeric bounds): the bounds live in
`parse`, whose error message goes back to the model on a retry.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from game.brains.llm.jsontext import Invalid
from game.brains.protocol import AgentContext
from game.brains.scripted import ScriptedBrain
from game.core.records import (
    CONTINUE,
    Insight,
    MemoryRecord,
    Observation,
    PlanItem,
    Reaction,
    ReactionKind,
    Utterance,
)
from game.world.scenario import Resident
from game.world.town import AreaKind

Args = Mapping[str, Any]


@dataclass(frozen=True)
class Question:
    """One kind of question: its template, schema, check and fallback."""

    name: str
    template: str  # file name in game/brains/prompts
    view: Callable[[Args], dict[str, str]]  # the template's variables
    schema: Callable[[Args], dict[str, Any]]
    parse: Callable[[dict[str, Any], Args], Any]  # raises Invalid
    fallback: Callable[[ScriptedBrain, Args], Any]
    simple: bool = False  # may go to the cheaper model
    max_tokens: int = 300


@dataclass(frozen=True)
class Step:
    """A decomposed action with what the model said about it in the same answer."""

    description: str
    minutes: int
    address: str = ""  # full address of the spot, '' if none was chosen
    state: str = ""  # the spot's object state while the action runs
    emoji: str = ""
    importance: int = 0  # 0 = not rated


@dataclass(frozen=True)
class Chunk:
    """An hour-long part of a broad plan item, with its actions."""

    description: str
    minutes: int
    steps: tuple[Step, ...] = ()


# -- schema and view helpers ---------------------------------------------------------------


def obj(**props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def arr(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


STR = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}


def enum(values: Sequence[str]) -> dict[str, Any]:
    return {"type": "string", "enum": list(dict.fromkeys(values))}


def titled(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"title": name, **schema}


def hhmm(when: datetime) -> str:
    return when.strftime("%H:%M")


def numbered(texts: Sequence[str], limit: int = 160) -> str:
    if not texts:
        return "(nothing)"
    return "\n".join(f"{i}. {_clip(t, limit)}" for i, t in enumerate(texts, 1))


def memory_lines(memories: Sequence[MemoryRecord], limit: int = 160) -> str:
    return numbered([m.text for m in memories], limit)


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def persona_line(p: Resident) -> str:
    return f"{p.name} ({p.age}; {', '.join(p.traits)}) is {p.occupation}."


def where(ctx: AgentContext) -> str:
    return ctx.location.replace(":", ", ") if ctx.location else "outdoors"


# -- answer checks -------------------------------------------------------------------------


def want(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise Invalid(f"the field {key!r} is missing")
    value = data[key]
    if isinstance(value, bool) and kind is not bool:
        raise Invalid(f"{key!r} must be {_kind_name(kind)}, not true/false")
    if kind is int and isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, kind):
        raise Invalid(f"{key!r} must be {_kind_name(kind)}, not {type(value).__name__}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", bool: "true or false", list: "a list"}
    return names.get(kind, "an object") if isinstance(kind, type) else "an object"


def text_field(data: Mapping[str, Any], key: str, limit: int, empty: bool = False) -> str:
    value = " ".join(want(data, key, str).split())
    if not value and not empty:
        raise Invalid(f"{key!r} must not be empty")
    if len(value) > limit:
        raise Invalid(f"{key!r} is too long: at most {limit} characters")
    return value


def ranged(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = want(data, key, int)
    if not low <= value <= high:
        raise Invalid(f"{key!r} must be between {low} and {high}, not {value}")
    return value


def items(data: Mapping[str, Any], key: str, low: int, high: int) -> list[Any]:
    value = want(data, key, list)
    if not low <= len(value) <= high:
        raise Invalid(f"{key!r} must hold {low} to {high} entries, not {len(value)}")
    for entry in value:
        if not isinstance(entry, dict):
            raise Invalid(f"every entry of {key!r} must be an object")
    return value


def one_of(value: str, options: Sequence[str], what: str) -> str:
    """The option `value` names (case and spacing forgiven); Invalid otherwise."""
    wanted = " ".join(value.split()).lower()
    for option in options:
        if " ".join(option.split()).lower() == wanted:
            return option
    shown = ", ".join(repr(o) for o in options)
    raise Invalid(f"{value!r} is not one of the {what} offered: {shown}")


def check_emoji(value: str) -> str:
    value = value.strip()
    if not value or len(value) > 12 or any(c.isascii() and c.isalnum() for c in value):
        raise Invalid(f"'emoji' must be one to three emoji, not {value!r}")
    return value


# -- importance ----------------------------------------------------------------------------


def _importance_view(a: Args) -> dict[str, str]:
    p: Resident = a["persona"]
    return {"persona": persona_line(p), "name": p.name, "texts": numbered(a["texts"])}


def _importance_parse(data: dict[str, Any], a: Args) -> list[int]:
    ratings = want(data, "ratings", list)
    if len(ratings) != len(a["texts"]):
        raise Invalid(f"give exactly {len(a['texts'])} ratings, one per memory, not {len(ratings)}")
    return [ranged({"rating": r}, "rating", 1, 10) for r in ratings]


IMPORTANCE = Question(
    "importance",
    "importance.txt",
    _importance_view,
    lambda a: titled("importance", obj(ratings=arr(INT))),
    _importance_parse,
    lambda s, a: s.rate_importance(a["persona"], a["texts"]),
    simple=True,
    max_tokens=80,
)


# -- the day plan --------------------------------------------------------------------------


def plan_places(ctx: AgentContext) -> list[str]:
    p = ctx.persona
    return list(dict.fromkeys([p.home, *([p.workplace] if p.workplace else []), *ctx.known_places]))


def _plan_view(a: Args) -> dict[str, str]:
    ctx: AgentContext = a["ctx"]
    yesterday = a["yesterday"].strip()
    return {
        "summary": ctx.summary,
        "yesterday": f"Yesterday: {_clip(yesterday, 400)}" if yesterday else "",
        "date": ctx.now.strftime("%A %B %d, %Y"),
        "name": ctx.persona.name,
        "wake": hhmm(a["wake"]),
        "sleep": hhmm(a["sleep"]),
        "memories": memory_lines(ctx.memories),
        "places": "; ".join(p + a.get("hours", {}).get(p, "") for p in plan_places(ctx)),
    }


def _plan_schema(a: Args) -> dict[str, Any]:
    entry = obj(start=STR, activity=STR, place=enum([*plan_places(a["ctx"]), ""]))
    return titled("plan_day", obj(items=arr(entry)))


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


def _plan_parse(data: dict[str, Any], a: Args) -> list[PlanItem]:
    wake, sleep = a["wake"], a["sleep"]
    places = plan_places(a["ctx"])
    timed = []
    for entry in items(data, "items", 2, 12):
        start = clock_time(want(entry, "start", str), wake, sleep, "start")
        place = want(entry, "place", str)
        place = one_of(place, places, "places") if place.strip() else ""
        timed.append((start, text_field(entry, "activity", 120), place))
    timed.sort(key=lambda t: t[0])
    ends = [t[0] for t in timed[1:]] + [sleep]
    out = []
    for (start, text, place), end in zip(timed, ends, strict=True):
        minutes = int((end - start).total_seconds() // 60)
        if minutes > 0:
            out.append(PlanItem(text, start, minutes, place))
    return out


PLAN_DAY = Question(
    "plan_day",
    "plan_day.txt",
    _plan_view,
    _plan_schema,
    _plan_parse,
    lambda s, a: s.plan_day(a["ctx"], a["yesterday"], a["wake"]),
    max_tokens=600,
)


# -- decomposition ---------------------------------------------------------------------------


def _spots(a: Args) -> list[str]:
    return list(a["spots"])


def _step_schema(a: Args) -> dict[str, Any]:
    return obj(
        action=STR,
        minutes=INT,
        spot=enum([*_spots(a), ""]),
        state=STR,
        emoji=STR,
        importance=INT,
    )


def _decompose_view(a: Args) -> dict[str, str]:
    ctx: AgentContext = a["ctx"]
    item: PlanItem = a["item"]
    spots = _spots(a)
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
    }


def _parse_step(entry: dict[str, Any], a: Args) -> Step:
    item: PlanItem = a["item"]
    spot = want(entry, "spot", str)
    address = ""
    if spot.strip():
        address = a["spots"][one_of(spot, _spots(a), "spots")]
    state = text_field(entry, "state", 60, empty=True) if address else ""
    return Step(
        text_field(entry, "action", 100),
        ranged(entry, "minutes", 1, item.minutes),
        address,
        state,
        check_emoji(want(entry, "emoji", str)),
        ranged(entry, "importance", 1, 10),
    )


def _steps_parse(data: dict[str, Any], a: Args) -> list[Step]:
    return [_parse_step(e, a) for e in items(data, "steps", 1, 24)]


def _fallback_steps(s: ScriptedBrain, a: Args) -> list[Step]:
    subs = s.decompose(a["ctx"], a["item"], a["grain"])
    return [Step(i.description, i.minutes, "", "", "", 0) for i in subs]


DECOMPOSE_STEPS = Question(
    "decompose_steps",
    "decompose_steps.txt",
    _decompose_view,
    lambda a: titled("decompose_steps", obj(steps=arr(_step_schema(a)))),
    _steps_parse,
    _fallback_steps,
    max_tokens=700,
)


def _hours_parse(data: dict[str, Any], a: Args) -> list[Chunk]:
    out = []
    for entry in items(data, "hours", 1, 24):
        steps = tuple(_parse_step(e, a) for e in items(entry, "steps", 1, 12))
        minutes = ranged(entry, "minutes", 1, a["item"].minutes)
        out.append(Chunk(text_field(entry, "activity", 100), minutes, steps))
    return out


def _fallback_hours(s: ScriptedBrain, a: Args) -> list[Chunk]:
    subs = s.decompose(a["ctx"], a["item"], a["grain"])
    return [Chunk(i.description, i.minutes) for i in subs]


DECOMPOSE_HOURS = Question(
    "decompose_hours",
    "decompose_hours.txt",
    _decompose_view,
    lambda a: titled(
        "decompose_hours",
        obj(hours=arr(obj(activity=STR, minutes=INT, steps=arr(_step_schema(a))))),
    ),
    _hours_parse,
    _fallback_hours,
    max_tokens=1500,
)


# -- where to act ----------------------------------------------------------------------------

LEVEL_WORDS = {AreaKind.SECTOR: "place", AreaKind.ARENA: "room or area", AreaKind.OBJECT: "object"}


def _choose_view(a: Args) -> dict[str, str]:
    ctx: AgentContext = a["ctx"]
    p = ctx.persona
    current, hint = a["current"], a["hint"]
    return {
        "name": p.name,
        "occupation": p.occupation,
        "home": p.home,
        "action": a["action"],
        "current": f" {p.first_name} is now in: {current}." if current else "",
        "hint": f" The plan had in mind: {hint.replace(':', ', ')}." if hint else "",
        "level": LEVEL_WORDS[a["level"]],
        "options": "; ".join(a["options"]),
    }


CHOOSE_AREA = Question(
    "choose_area",
    "choose_area.txt",
    _choose_view,
    lambda a: titled("choose_area", obj(choice=enum(a["options"]))),
    lambda d, a: one_of(want(d, "choice", str), a["options"], "options"),
    lambda s, a: s.choose_area(
        a["ctx"], a["action"], a["level"], a["options"], a["current"], a["hint"], a.get("roles")
    ),
    simple=True,
    max_tokens=60,
)


# -- objects and emoji -----------------------------------------------------------------------


def _state_parse(data: dict[str, Any], a: Args) -> tuple[str, str]:
    state = text_field(data, "state", 60)
    if len(state.split()) > 8:
        raise Invalid("'state' must be a few words, like 'brewing coffee'")
    return state, check_emoji(want(data, "emoji", str))


OBJECT_STATE = Question(
    "object_state",
    "object_state.txt",
    lambda a: {
        "name": a["persona"].name,
        "action": a["action"],
        "obj": a["obj"],
        "old_state": a["old_state"],
    },
    lambda a: titled("object_state", obj(state=STR, emoji=STR)),
    _state_parse,
    lambda s, a: (
        s.object_state(a["persona"], a["action"], a["obj"], a["old_state"]),
        s.emoji(a["action"]),
    ),
    simple=True,
    max_tokens=60,
)

EMOJI = Question(
    "emoji",
    "emoji.txt",
    lambda a: {"action": a["action"]},
    lambda a: titled("emoji", obj(emoji=STR)),
    lambda d, a: check_emoji(want(d, "emoji", str)),
    lambda s, a: s.emoji(a["action"]),
    simple=True,
    max_tokens=30,
)


# -- reacting --------------------------------------------------------------------------------


def _react_options(a: Args) -> list[str]:
    return ["continue", "react", "talk"] if a["observation"].is_agent else ["continue", "react"]


def _react_view(a: Args) -> dict[str, str]:
    ctx: AgentContext = a["ctx"]
    obs: Observation = a["observation"]
    talk = f' "talk": start a conversation with {obs.subject}.' if obs.is_agent else ""
    return {
        "summary": ctx.summary,
        "time": ctx.now.strftime("%A %H:%M"),
        "name": ctx.persona.name,
        "status": ctx.status or "idle",
        "where": where(ctx),
        "observation": obs.text,
        "memories": memory_lines(ctx.memories),
        "talk": talk,
    }


def _react_parse(data: dict[str, Any], a: Args) -> Reaction:
    obs: Observation = a["observation"]
    decision = one_of(want(data, "decision", str), _react_options(a), "decisions")
    if decision == "continue":
        return CONTINUE
    if decision == "talk":
        return Reaction(ReactionKind.TALK, target=obs.subject)
    action = text_field(data, "action", 100)
    minutes = ranged(data, "minutes", 1, 120)
    return Reaction(ReactionKind.REACT, action, minutes, "" if obs.is_agent else obs.subject)


REACT = Question(
    "react",
    "react.txt",
    _react_view,
    lambda a: titled("react", obj(decision=enum(_react_options(a)), action=STR, minutes=INT)),
    _react_parse,
    lambda s, a: s.react(a["ctx"], a["observation"]),
    max_tokens=100,
)


# -- dialogue --------------------------------------------------------------------------------


def history_lines(history: Sequence[Utterance]) -> str:
    """Each line as quoted speech (JSON-escaped), so words a visitor typed can never pass
    for the prompt's own instructions: the system prompt says quotes are speech only."""
    if not history:
        return "(nothing yet)"
    return "\n".join(f"{u.speaker} said: {json.dumps(u.text, ensure_ascii=False)}" for u in history)


def _utter_view(a: Args) -> dict[str, str]:
    ctx: AgentContext = a["ctx"]
    return {
        "summary": ctx.summary,
        "time": ctx.now.strftime("%A %H:%M"),
        "name": ctx.persona.name,
        "where": where(ctx),
        "status": ctx.status or "idle",
        "partner": a["partner"],
        "memories": memory_lines(ctx.memories),
        "history": history_lines(a["history"]),
    }


def _utter_parse(data: dict[str, Any], a: Args) -> Utterance:
    name = a["ctx"].persona.name
    say = text_field(data, "say", 400)
    return Utterance(name, say, want(data, "end", bool), text_field(data, "news", 200, True))


UTTER = Question(
    "utter",
    "utter.txt",
    _utter_view,
    lambda a: titled("utter", obj(say=STR, end=BOOL, news=STR)),
    _utter_parse,
    lambda s, a: s.utter(a["ctx"], a["partner"], a["history"]),
    max_tokens=200,
)


@dataclass(frozen=True)
class Talk:
    """A whole conversation and how poignant it was for each side (0 = not rated)."""

    lines: tuple[Utterance, ...]
    importance: tuple[int, int] = (0, 0)


def _pair(a: Args) -> tuple[str, str]:
    return a["ctx_a"].persona.name, a["ctx_b"].persona.name


def _converse_view(a: Args) -> dict[str, str]:
    ca: AgentContext = a["ctx_a"]
    cb: AgentContext = a["ctx_b"]
    return {
        "a": ca.persona.name,
        "b": cb.persona.name,
        "time": ca.now.strftime("%A %H:%M"),
        "where": where(ca),
        "summary_a": ca.summary,
        "memories_a": memory_lines(ca.memories, 140),
        "summary_b": cb.summary,
        "memories_b": memory_lines(cb.memories, 140),
        "max_turns": str(a["max_turns"]),
    }


def _converse_parse(data: dict[str, Any], a: Args) -> Talk:
    names = _pair(a)
    lines = []
    for entry in items(data, "lines", 2, 4 * a["max_turns"])[: a["max_turns"]]:
        speaker = one_of(want(entry, "speaker", str), names, "speakers")
        say = text_field(entry, "say", 400)
        lines.append(Utterance(speaker, say, False, text_field(entry, "news", 200, True)))
    if lines[0].speaker != names[0]:
        raise Invalid(f"{names[0]} speaks first")
    scores = (ranged(data, "importance_a", 1, 10), ranged(data, "importance_b", 1, 10))
    return Talk((*lines[:-1], replace(lines[-1], end=True)), scores)


def _converse_fallback(s: ScriptedBrain, a: Args) -> Talk:
    return Talk(tuple(_scripted_turns(s, a)))


def _scripted_turns(s: ScriptedBrain, a: Args) -> list[Utterance]:
    """The scripted brain's turn-by-turn conversation, each side from its own context."""
    speaker, listener = a["ctx_a"], a["ctx_b"]
    history: list[Utterance] = []
    for _ in range(a["max_turns"]):
        line = s.utter(speaker, listener.persona.name, tuple(history))
        history.append(replace(line, speaker=speaker.persona.name))
        if line.end or not line.text.strip():
            break
        speaker, listener = listener, speaker
    return history


CONVERSE = Question(
    "converse",
    "converse.txt",
    _converse_view,
    lambda a: titled(
        "converse",
        obj(
            lines=arr(obj(speaker=enum(_pair(a)), say=STR, news=STR)),
            importance_a=INT,
            importance_b=INT,
        ),
    ),
    _converse_parse,
    _converse_fallback,
    max_tokens=900,
)


# -- reflection and summaries ---------------------------------------------------------------


def _questions_parse(data: dict[str, Any], a: Args) -> list[str]:
    out = []
    for i, q in enumerate(want(data, "questions", list)):
        out.append(text_field({f"questions[{i}]": q}, f"questions[{i}]", 200))
    if not 1 <= len(out) <= 5:
        raise Invalid(f"give 3 questions, not {len(out)}")
    return out[:3]


REFLECT_QUESTIONS = Question(
    "reflect_questions",
    "reflect_questions.txt",
    lambda a: {
        "persona": persona_line(a["persona"]),
        "name": a["persona"].name,
        "memories": memory_lines(a["recent"], 120),
    },
    lambda a: titled("reflect_questions", obj(questions=arr(STR))),
    _questions_parse,
    lambda s, a: s.reflect_questions(a["persona"], a["recent"]),
    max_tokens=200,
)


def _insights_parse(data: dict[str, Any], a: Args) -> list[Insight]:
    n = len(a["memories"])
    out = []
    for entry in items(data, "insights", 1, 5):
        cited = want(entry, "because", list)
        numbers = [ranged({"because": c}, "because", 1, max(1, n)) for c in cited]
        if not numbers:
            raise Invalid("every insight must cite at least one statement number")
        out.append(Insight(text_field(entry, "insight", 240), tuple(c - 1 for c in numbers)))
    return out


INSIGHTS = Question(
    "insights",
    "insights.txt",
    lambda a: {
        "persona": persona_line(a["persona"]),
        "name": a["persona"].name,
        "question": a["question"],
        "memories": memory_lines(a["memories"]),
    },
    lambda a: titled("insights", obj(insights=arr(obj(insight=STR, because=arr(INT))))),
    _insights_parse,
    lambda s, a: s.insights(a["persona"], a["question"], a["memories"]),
    max_tokens=500,
)

SUMMARIZE = Question(
    "summarize",
    "summarize.txt",
    lambda a: {
        "name": a["persona"].name,
        "topic": a["topic"],
        "memories": memory_lines(a["memories"], 140),
    },
    lambda a: titled("summarize", obj(summary=STR)),
    lambda d, a: text_field(d, "summary", 600),
    lambda s, a: s.summarize(a["persona"], a["topic"], a["memories"]),
    max_tokens=200,
)

ANSWER = Question(
    "answer",
    "answer.txt",
    lambda a: {
        "summary": a["ctx"].summary,
        "time": a["ctx"].now.strftime("%A %B %d, %H:%M"),
        "name": a["ctx"].persona.name,
        "status": a["ctx"].status or "idle",
        "memories": memory_lines(a["ctx"].memories, 200),
        "question": a["question"],
    },
    lambda a: titled("answer", obj(answer=STR)),
    lambda d, a: text_field(d, "answer", 1200),
    lambda s, a: s.answer(a["ctx"], a["question"]),
    max_tokens=400,
)

ALL: tuple[Question, ...] = (
    IMPORTANCE,
    PLAN_DAY,
    DECOMPOSE_HOURS,
    DECOMPOSE_STEPS,
    CHOOSE_AREA,
    OBJECT_STATE,
    EMOJI,
    REACT,
    UTTER,
    CONVERSE,
    REFLECT_QUESTIONS,
    INSIGHTS,
    SUMMARIZE,
    ANSWER,
)
