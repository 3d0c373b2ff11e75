"""Every question the architecture asks a brain, declared once as typed data.

A question is a frozen dataclass of its arguments, subclassing `Question[Answer]` with the
type of its answer. Both brains read the same fields: the scripted brain through its rule
for the class (game/brains/scripted/rules.py), the model brain through its prompt spec
(game/brains/llm/specs/) and template (game/brains/prompts/). A question checks its
fields against their annotations when it is built, so a wrong argument fails at the call
that builds it, never halfway through a run inside a worker thread.

To add a question: see game/brains/README.md.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any, ClassVar, Generic, TypeVar

from game.brains.dialogue.acts import Act
from game.brains.dialogue.state import DialogueState
from game.core.records import (
    Fact,
    Insight,
    MemoryKind,
    MemoryRecord,
    Observation,
    PlanItem,
    Reaction,
    Utterance,
)
from game.world.roles import Role
from game.world.scenario import Resident, Rubric
from game.world.town import Area

A = TypeVar("A")


# -- what questions are made of -------------------------------------------------------------


@dataclass(frozen=True)
class AgentContext:
    """What a brain knows of the agent it answers for, at one moment.

    `memories` are the retrieved memories relevant to the question, best first; the
    architecture chose them, the brain only reads them.
    """

    persona: Resident
    now: datetime
    summary: str  # the cached agent summary description
    location: str  # address: 'Hobbs Cafe:cafe' or '' on the street
    status: str  # current action, e.g. 'making espresso for a customer'
    memories: tuple[MemoryRecord, ...] = ()
    known_places: tuple[str, ...] = ()  # sectors the agent knows (its own subgraph)
    sectors: tuple[Area, ...] = ()  # the town's sectors as the map states them: role, hours


@dataclass(frozen=True)
class Draft:
    """A memory about to be written, as the importance question sees it.

    `known` is a rating the data already holds (the actor's own planner rated the action
    it is seen doing), 0 if none; `routine` marks what the simulation itself produces
    (someone asleep or waiting, an object in the state a resident's action gave it).
    """

    kind: MemoryKind
    text: str
    fact: Fact
    known: int = 0
    routine: bool = False


@dataclass(frozen=True)
class Place:
    """A place the day planner may name, with its opening hours (minutes) if it has any."""

    name: str
    opens: int | None = None
    closes: int | None = None


@dataclass(frozen=True)
class Spot:
    """Somewhere to do an action inside one sector: an arena, or an object in it."""

    arena: str
    object: str = ""  # '' for the arena as a whole
    address: str = ""
    arena_role: Role | None = None  # the map's roles: the arena's ('kitchen') ...
    role: Role | None = None  # ... and the object's ('stove')

    @property
    def label(self) -> str:
        return f"{self.arena}: {self.object}" if self.object else self.arena


@dataclass(frozen=True)
class Chunk:
    """An hour-long part of a broad plan item; `steps` are its 5-15 minute actions when the
    answer gave them at once (a model does: one request instead of one per hour)."""

    item: PlanItem
    steps: tuple[PlanItem, ...] = ()


@dataclass(frozen=True)
class Details:
    """What an action does to its object, and the bubble shown over the actor."""

    state: str
    emoji: str


@dataclass(frozen=True)
class Talk:
    """A whole conversation and how poignant it was for each side (0 = not rated)."""

    lines: tuple[Utterance, ...]
    importance: tuple[int, int] = (0, 0)


# -- the base class -------------------------------------------------------------------------


class Question(Generic[A]):
    """Base of every question; `A` is its answer's type.

    `agent` names whom the answer is for (usage is counted by it); `memo_key` is what an
    identical question shares with an earlier one so that a cache may answer it (None: not
    cacheable). Keys always include the asking resident, so a cache never races between
    residents and a run is the same at any worker count.
    """

    answer_type: ClassVar[Any] = object

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if typing.get_origin(base) is Question:
                cls.answer_type = typing.get_args(base)[0]

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def agent(self) -> str:
        return ""

    def memo_key(self) -> Hashable | None:
        return None


class QuestionError(TypeError):
    """A question built with an argument of the wrong type."""


def check_fields(q: Any) -> None:
    for name, check, hint in _checks(type(q)):
        value = getattr(q, name)
        if not check(value):
            raise QuestionError(
                f"{type(q).__name__}.{name} must be {_show(hint)}, "
                f"not {type(value).__name__} {value!r:.80}"
            )


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _checks(cls: type) -> tuple[tuple[str, Callable[[Any], bool], Any], ...]:
    """Each field of a question class with the check of its declared type, made once a
    class: every question is checked as it is built (about 90,000 a day in a town of
    100), and reading the type hints each time cost more than the rest of building it."""
    hints = _hints(cls)
    return tuple((f.name, _checker(hints[f.name]), hints[f.name]) for f in dataclasses.fields(cls))


def conforms(value: Any, hint: Any) -> bool:
    """Whether `value` is of the declared type (deeply for tuples and mappings)."""
    try:
        check = _checker(hint)
    except TypeError:  # a hint that cannot be remembered (unhashable): read it now
        return _conforms(value, hint)
    return check(value)


@cache
def _checker(hint: Any) -> Callable[[Any], bool]:
    """`conforms` for one hint, its reading of the hint done once."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return lambda value: True
    if origin in (typing.Union, types.UnionType):
        either = tuple(_checker(a) for a in args)
        return lambda value: any(c(value) for c in either)
    if hint is type(None):
        return lambda value: value is None
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        each = _checker(args[0])
        return lambda value: isinstance(value, tuple) and all(map(each, value))
    if origin is tuple:
        parts, n = tuple(_checker(a) for a in args), len(args)
        return lambda value: (isinstance(value, tuple) and n == len(value)
                              and all(c(v) for c, v in zip(parts, value, strict=True)))  # fmt: skip
    if origin in (Mapping, dict) and len(args) == 2:
        key, item = _checker(args[0]), _checker(args[1])
        return lambda value: isinstance(value, Mapping) and all(
            key(k) and item(v) for k, v in value.items()
        )
    if origin in (Mapping, dict) or hint is Mapping:
        return lambda value: _conforms(value, hint)
    if hint is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return lambda value: isinstance(value, (int, float)) and not isinstance(value, bool)
    kind = origin or hint
    return lambda value: isinstance(value, kind)


def _conforms(value: Any, hint: Any) -> bool:
    """`conforms` read afresh from the hint each time (a hint `_checker` cannot keep)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, a) for a in args)
    if hint is type(None):
        return value is None
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(v, args[0]) for v in value)
        return len(args) == len(value) and all(map(_conforms, value, args))
    if origin in (Mapping, dict) or hint is Mapping:
        return isinstance(value, Mapping) and all(
            _conforms(k, args[0]) and _conforms(v, args[1]) for k, v in value.items()
        )
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, origin or hint)


def _show(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


class ForPersona:
    """A question about one resident's persona: usage is counted by it."""

    persona: Resident  # declared again as a field by each question that uses this

    @property
    def agent(self) -> str:
        return self.persona.name


class InContext:
    """A question asked in one resident's context: usage is counted by it."""

    ctx: AgentContext  # declared again as a field by each question that uses this

    @property
    def agent(self) -> str:
        return self.ctx.persona.name


# -- the questions --------------------------------------------------------------------------


@dataclass(frozen=True)
class RateImportance(ForPersona, Question[tuple[int, ...]]):
    """Poignancy 1..10 of each new memory (1 brushing teeth, 10 a breakup)."""

    persona: Resident
    drafts: tuple[Draft, ...]


@dataclass(frozen=True)
class PlanDay(InContext, Question[tuple[PlanItem, ...]]):
    """The day in broad strokes (5-8 items) from waking to sleeping."""

    ctx: AgentContext
    yesterday: str
    wake: datetime
    sleep: datetime
    places: tuple[Place, ...] = ()  # what the planner may name, with opening hours


@dataclass(frozen=True)
class DecomposeHours(InContext, Question[tuple[Chunk, ...]]):
    """A broad item split into hour-long chunks (each perhaps with its actions)."""

    ctx: AgentContext
    item: PlanItem
    spots: tuple[Spot, ...] = ()  # where in the item's sector the actions may happen

    def memo_key(self) -> Hashable:
        return (self.agent, self.item.description, self.item.minutes, self.item.place)


@dataclass(frozen=True)
class DecomposeSteps(InContext, Question[tuple[PlanItem, ...]]):
    """An hour split into 5-15 minute actions."""

    ctx: AgentContext
    item: PlanItem
    spots: tuple[Spot, ...] = ()

    def memo_key(self) -> Hashable:
        return (self.agent, self.item.description, self.item.minutes, self.item.place)


@dataclass(frozen=True)
class ChooseSector(InContext, Question[str]):
    """One of `options` (sectors the architecture found open and not full) for `action`.

    `current` is the sector the agent is in ('' if none); `hint` is the place the plan
    had in mind, if any.
    """

    ctx: AgentContext
    action: str
    options: tuple[str, ...]
    current: str = ""
    hint: str = ""
    roles: Mapping[str, Role | None] = field(default_factory=dict)  # option -> its map role

    def memo_key(self) -> Hashable:
        return (self.agent, self.action, self.options, self.current, self.hint)


@dataclass(frozen=True)
class ChooseSpot(InContext, Question[Spot]):
    """Where in `sector` to do `action`: one of `spots` (arenas, and objects in them).

    One question for the room and the object together: a model answers both at once.
    `current` is the arena the agent is in, if it is in this sector.
    """

    ctx: AgentContext
    action: str
    sector: str
    spots: tuple[Spot, ...]
    current: str = ""
    hint: str = ""

    def memo_key(self) -> Hashable:
        return (self.agent, self.action, self.sector, self.spots, self.current, self.hint)


@dataclass(frozen=True)
class ActionDetails(ForPersona, Question[Details]):
    """The state `obj` takes while the agent does `action` with it, and the emoji."""

    persona: Resident
    action: str
    obj: str
    old_state: str
    role: Role | None = None  # the object's map role, when it has one: its kind of thing

    def memo_key(self) -> Hashable:
        return (self.agent, self.action, self.obj, self.old_state)


@dataclass(frozen=True)
class Emoji(ForPersona, Question[str]):
    """One to three emoji for the bubble over an agent doing `action` (no object)."""

    persona: Resident
    action: str

    def memo_key(self) -> Hashable:
        return (self.agent, self.action)


@dataclass(frozen=True)
class SpotDetails(InContext, Question[tuple[Spot, Details | None]]):
    """Where in a sector to do an action (`choose`) and, at once, what that choice asks
    next (`then`, one a spot: the object's state and the emoji, `ActionDetails`; the emoji
    alone, `Emoji`; None when the plan says them): one request where a model was asked
    two in a row, the second only once the first came back (issue 25). The answer's
    details are None where the chosen spot's `then` is; an emoji alone has no state."""

    ctx: AgentContext
    choose: ChooseSpot
    then: tuple[ActionDetails | Emoji | None, ...]

    def memo_key(self) -> Hashable:
        return (self.choose.memo_key(), tuple(q and q.memo_key() for q in self.then))


@dataclass(frozen=True)
class React(InContext, Question[Reaction]):
    """Continue the plan, do something else, or talk to the observed agent."""

    ctx: AgentContext
    observation: Observation


@dataclass(frozen=True)
class ReactEach(InContext, Question[tuple[Reaction, ...]]):
    """Whether to react to each of the things one resident noticed at once (`asked`, a
    `React` each with its own memories), in one request: perceiving asked them one a
    request, and one sight in three came with others (issue 25's request economy)."""

    ctx: AgentContext  # the resident's context (each sight's memories are its own)
    asked: tuple[React, ...]


@dataclass(frozen=True)
class Utter(InContext, Question[Utterance]):
    """The speaker's next line to `partner`, given what it recalls and what was said."""

    ctx: AgentContext
    partner: str
    history: tuple[Utterance, ...] = ()
    state: DialogueState | None = None  # the lines as acts: the open question, the topic


@dataclass(frozen=True)
class Converse(Question[Talk]):
    """Both sides of a conversation in one answer (the paper suggests it): the lines in
    order, ctx_a's resident first, the last one ending it. Optional for a brain."""

    ctx_a: AgentContext
    ctx_b: AgentContext
    max_turns: int

    @property
    def agent(self) -> str:
        return self.ctx_a.persona.name


@dataclass(frozen=True)
class ReflectQuestions(ForPersona, Question[tuple[str, ...]]):
    """The 3 most salient high-level questions about the recent memories."""

    persona: Resident
    recent: tuple[MemoryRecord, ...]


@dataclass(frozen=True)
class Insights(ForPersona, Question[tuple[Insight, ...]]):
    """Up to 5 insights answering `question`, each citing the memories it rests on."""

    persona: Resident
    question: str
    memories: tuple[MemoryRecord, ...]


@dataclass(frozen=True)
class InsightsEach(ForPersona, Question[tuple[tuple[Insight, ...], ...]]):
    """The insights of each of a reflection's questions (`Insights`, each with its own
    memories), asked in one request: the questions are independent, and asked one a
    request they were three requests where one does (issue 25's request economy)."""

    persona: Resident
    asked: tuple[Insights, ...]


@dataclass(frozen=True)
class Summarize(ForPersona, Question[str]):
    """A short paragraph on `topic` ('Klaus Mueller's core characteristics')."""

    persona: Resident
    topic: str
    memories: tuple[MemoryRecord, ...]


@dataclass(frozen=True)
class Answer(InContext, Question[str]):
    """An interview answer in the first person, from ctx.memories. `act` is the question
    understood (kind, topic, slots); `state` the conversation it is part of, if any."""

    ctx: AgentContext
    question: str
    act: Act | None = None
    state: DialogueState | None = None


@dataclass(frozen=True)
class JudgeAnswer(Question[bool]):
    """Does an interview answer carry a fact? Judged from the answer text alone, against
    the intent's rubric (the parts a correct answer must name), for the evaluation."""

    resident: str  # whose answer it is (usage is counted by it)
    question: str
    answer: str
    fact: str  # the fact in one sentence, as the scenario states it
    rubric: Rubric
    holder: str = ""  # whom the fact is about: their 'I' names them

    @property
    def me(self) -> str:
        """The speaker's name when the fact is its own ('' otherwise)."""
        return self.resident if self.resident == self.holder else ""

    @property
    def agent(self) -> str:
        return self.resident

    def memo_key(self) -> Hashable:
        return (self.resident, self.question, self.answer)


def answer_labels(n: int) -> tuple[str, ...]:
    """The labels `n` answers are shown with: A, B, C..."""
    return tuple(chr(ord("A") + i) for i in range(n))


@dataclass(frozen=True)
class RankAnswers(ForPersona, Question[tuple[int, ...]]):
    """Order one question's answers by believability as this resident's words, for the
    evaluation's ranking (`evaluate --rank`). `answers` are shown labelled A, B, C... in
    the order given (the caller has shuffled them and hides who gave each). The answer is
    the answers' positions, most believable first; () means no verdict (the model gave no
    usable ordering), which the ranking leaves out rather than inventing one."""

    persona: Resident
    question: str
    answers: tuple[str, ...]

    @property
    def labels(self) -> tuple[str, ...]:
        return answer_labels(len(self.answers))

    def memo_key(self) -> Hashable:
        return (self.persona.name, self.question, self.answers)


ALL: tuple[type[Question[Any]], ...] = (
    RateImportance,
    PlanDay,
    DecomposeHours,
    DecomposeSteps,
    ChooseSector,
    ChooseSpot,
    ActionDetails,
    Emoji,
    SpotDetails,
    React,
    ReactEach,
    Utter,
    Converse,
    ReflectQuestions,
    Insights,
    InsightsEach,
    Summarize,
    Answer,
    JudgeAnswer,
    RankAnswers,
)


def is_answer(question: Question[Any], value: Any) -> bool:
    """Whether `value` is of the question's declared answer type."""
    return conforms(value, question.answer_type)
