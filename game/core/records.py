"""Typed records shared by every layer: what a memory is, what an agent does.

They are frozen so a snapshot handed to a worker thread can never be changed under it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum


class MemoryKind(Enum):
    OBSERVATION = "observation"
    REFLECTION = "reflection"
    PLAN = "plan"
    CHAT = "chat"


class ActionKind(Enum):
    PLAN = "plan"  # an action from the decomposed day plan
    REACT = "react"  # a reaction that replaced the plan for a while
    SLEEP = "sleep"
    CHAT = "chat"  # in a conversation
    WAIT = "wait"  # waiting for a place to free up, or for a decision


class Source(Enum):
    """How the holder came to know a memory: the first thing a rumour check asks."""

    SEEN = "seen"  # perceived with its own eyes
    HEARD = "heard"  # another resident said it (`Fact.heard_from`)
    VISITOR = "visitor"  # the player's visitor said it: a claim, never a fact
    NOTICE = "notice"  # read on a notice board (`Fact.heard_from` names the board): a claim
    SELF = "self"  # its own doing or thinking: actions, plans, reflections
    INNER_VOICE = "inner voice"  # the player speaking as the resident's own thought
    SEED = "seed"  # the scenario's seed paragraph


class FactKind(Enum):
    """The shape of a memory, which says how its text is rendered from its fields."""

    DOING = "doing"  # subject is object ('Maria Lopez is studying at the desk')
    OBJECT_STATE = "object state"  # the object at `address` is in `state`
    CONVERSATION = "conversation"  # `participants` said `lines`
    CLAIM = "claim"  # `heard_from` said `object` (about `subject`)
    PLAN = "plan"  # `subject`'s plan for the day: `plan`
    STATEMENT = "statement"  # a sentence about `subject`: a seed fact, a thought, an insight


class Rsvp(Enum):
    """A resident's answer to an event it heard of."""

    ACCEPTED = "accepted"
    MAYBE = "maybe"
    DECLINED = "declined"


@dataclass(frozen=True)
class Event:
    """A dated happening at a place: a party, a rally. `what` and `host` may be ''."""

    place: str
    start: datetime
    end: datetime
    what: str = ""
    host: str = ""

    @property
    def minutes(self) -> int:
        return int((self.end - self.start).total_seconds() // 60)


@dataclass(frozen=True)
class PlanItem:
    """'for 180 minutes from 9am at Oak Hill College: library, read and take notes'.

    A planner may say more about an item when it makes it: the state its object takes,
    the bubble's emoji and how poignant doing it is. Empty or 0 means "ask when needed".
    """

    description: str
    start: datetime
    minutes: int
    place: str = ""  # a sector, sector:arena or full address the plan has in mind; may be ""
    state: str = ""
    emoji: str = ""
    importance: int = 0
    intent: str = ""  # the scenario intent the item serves ('party'), if any

    @property
    def end(self) -> datetime:
        return self.start + timedelta(minutes=self.minutes)

    def covers(self, when: datetime) -> bool:
        return self.start <= when < self.end


@dataclass(frozen=True)
class Introduction:
    """What a speaker told of itself on meeting someone ('I'm Carmen, a shopkeeper who runs
    Harvey Oak Supply Store'): its work, as fields, so the listener knows where Carmen
    works from the conversation without reading the words back."""

    occupation: str
    workplace: str = ""  # '' when one works at home or nowhere


@dataclass(frozen=True)
class Line:
    """One line of a remembered conversation, with the speaker's answer to an event when
    the line gave one (so who said yes is read by field, never from the words)."""

    speaker: str
    text: str
    rsvp: Rsvp | None = None  # the speaker's answer, new or said again, to `event`
    event: Event | None = None
    introduces: Introduction | None = None  # the speaker told who they are in this line


@dataclass(frozen=True)
class Fact:
    """What a memory is about, as fields (the original code's subject-predicate-object
    triple and more), so no layer has to read its text back. The text is rendered from
    these fields once, when the memory is written (game/mind/facts.py).
    """

    kind: FactKind
    source: Source
    subject: str = ""  # who or what it is about: a resident's name or an object's address
    predicate: str = ""  # 'is', 'plans', 'said'
    object: str = ""  # the rest: 'studying at the desk', the claim, the insight
    heard_from: str = ""  # for HEARD and VISITOR: who said it
    participants: tuple[str, ...] = ()  # for a conversation: both sides, first speaker first
    lines: tuple[Line, ...] = ()  # for a conversation: what was said
    plan: tuple[PlanItem, ...] = ()  # for a plan: the broad items
    plan_item: str = ""  # the plan item an action belongs to
    address: str = ""  # the object (or place) observed
    state: str = ""  # the state the object was in
    intent: str = ""  # the scenario intent it refers to ('party'), by id
    event: Event | None = None  # the dated event it names, if any
    private: bool = False  # not to be passed on (a crush, a secret)
    invited: bool = False  # for a CLAIM about an event: the speaker invited the holder to it
    rsvp: Rsvp | None = None  # for the holder's own answer to an event (with `intent`/`event`)
    reason: str = ""  # for an answer to an event: the reason the holder gave, as said
    origin: Source | None = None  # for a claim passed on: where it first came from (VISITOR)
    # for a claim passed on: the residents it came through before `heard_from`, the first
    # teller first, so the words keep their chain of sources however often they are retold
    via: tuple[str, ...] = ()

    @property
    def first_source(self) -> Source:
        """Where the story began: a visitor's or a notice's words keep that mark through
        every resident who passes them on (`origin`), so the third teller still knows
        it is a claim from outside, not something a neighbour saw."""
        return self.origin or self.source

    @property
    def about_person(self) -> bool:
        return self.kind is not FactKind.OBJECT_STATE and bool(self.subject)


@dataclass(frozen=True)
class MemoryRecord:
    """One memory as the brain sees it. `index` is its position in the agent's stream."""

    index: int
    kind: MemoryKind
    text: str
    created: datetime
    importance: int
    fact: Fact
    evidence: tuple[int, ...] = ()

    @property
    def heard_from(self) -> str:
        """Who told it (another resident or the visitor); '' for the holder's own."""
        return self.fact.heard_from

    @property
    def partner(self) -> str:
        """For a conversation memory: the other side; else who said it, if anyone."""
        return self.fact.heard_from


class ReactionKind(Enum):
    CONTINUE = "continue"
    REACT = "react"
    TALK = "talk"


@dataclass(frozen=True)
class Reaction:
    kind: ReactionKind
    action: str = ""  # for REACT: what the agent does instead
    minutes: int = 0
    target: str = ""  # for REACT: an object address to act on; for TALK: whom


CONTINUE = Reaction(ReactionKind.CONTINUE)


@dataclass(frozen=True)
class Observation:
    """Something perceived: an agent doing something, or an object in some state.

    `activity` is the observed agent's kind of action (asleep, talking, waiting are the
    simulation's own, routine to see); `routine` says an object's state is one a resident's
    ordinary action gave it, not a player's edit; `importance` is the actor's own rating
    of what it does, when its planner gave one (0 = unknown).
    """

    subject: str  # a name, or an object's address
    text: str  # 'Maria Lopez is studying at the desk', rendered from `fact`
    is_agent: bool
    status: str  # the agent's action, or the object's state
    fact: Fact
    activity: ActionKind | None = None
    routine: bool = False
    importance: int = 0


class AnsweredBy(Enum):
    """Who gave a line of talk or an interview answer, for whoever reads it: a model's
    words and the rules' words are told apart wherever a player or researcher sees them."""

    MODEL = "model"
    FALLBACK = "scripted fallback"  # the model was asked and failed; the rules answered
    SCRIPTED = "scripted"  # the scripted brain, by the settings

    @property
    def tag(self) -> str:
        """The short mark shown beside an answer: '(model)', '(scripted fallback)'."""
        return f"({self.value})"


@dataclass(frozen=True)
class Utterance:
    speaker: str
    text: str
    end: bool = False  # the speaker ends the conversation with this line
    shares: str = ""  # a piece of news passed on in this line, stated as a plain fact
    shared: Fact | None = None  # the same news as fields, when the speaker knows them
    rsvp: Rsvp | None = None  # the speaker's answer to the event the partner just told of
    reason: str = ""  # ... and why, in the speaker's words ('I work until 8 that day')
    going: Rsvp | None = None  # the speaker's answer to `going_to` as this line says it:
    going_to: Event | None = None  # the new `rsvp`, or one given before and said again
    by: AnsweredBy | None = None  # who said it, when a model could have (None: no model)
    introduces: Introduction | None = None  # the speaker told who they are in this line


@dataclass(frozen=True)
class Insight:
    text: str
    evidence: tuple[int, ...]  # positions in the list of memories the brain was given
    importance: int = 0  # 1-10 when rated with the insight (0: rated apart, later)
