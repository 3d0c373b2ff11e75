"""What a cognition job decided, one type per kind of job.

A job returns its own effect; the simulation applies it through a table keyed by
`JobKind` (`Simulation._effect_appliers`), so each kind of job carries exactly the fields
it sets and nothing is an optional field that most jobs leave empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import ClassVar

import numpy as np

from game.core.records import Fact, MemoryKind, Utterance
from game.mind.agent import Action, Conversation
from game.mind.plan import DayPlan


class JobKind(Enum):
    SEED = "seed"
    WAKE = "wake"
    PERCEIVE = "perceive"
    NEXT_ACTION = "next_action"
    REFLECT = "reflect"
    CONVERSE = "converse"
    VISITOR = "visitor"
    INNER_VOICE = "inner_voice"
    PREPARE = "prepare"  # a decision asked ahead, used when the agent gets to it


@dataclass(frozen=True)
class NewMemory:
    """A memory to append: its fields, the text rendered from them, its rating and vector."""

    kind: MemoryKind
    text: str
    fact: Fact
    importance: int
    embedding: np.ndarray | None  # None: embedded later, when a retrieval needs it
    evidence: tuple[int, ...] = ()


@dataclass(frozen=True)
class Effect:
    """What every job may do to its agent: remember, and refresh what it retrieved."""

    job: ClassVar[JobKind]
    agent: str
    memories: tuple[NewMemory, ...] = ()
    touched: tuple[int, ...] = ()


@dataclass(frozen=True)
class Seeded(Effect):
    job: ClassVar[JobKind] = JobKind.SEED


@dataclass(frozen=True)
class Woke(Effect):
    job: ClassVar[JobKind] = JobKind.WAKE
    plan: DayPlan = DayPlan()
    summary: str = ""
    summary_day: str = ""


@dataclass(frozen=True)
class NextAction(Effect):
    job: ClassVar[JobKind] = JobKind.NEXT_ACTION
    plan: DayPlan = DayPlan()
    action: Action | None = None


@dataclass(frozen=True)
class Perceived(Effect):
    """What was seen is stored; at most one of: a reaction (a new action and the replanned
    day) or a wish to talk to someone."""

    job: ClassVar[JobKind] = JobKind.PERCEIVE
    action: Action | None = None
    plan: DayPlan | None = None
    talk_to: str = ""
    note: str = ""


@dataclass(frozen=True)
class Reflected(Effect):
    job: ClassVar[JobKind] = JobKind.REFLECT


@dataclass(frozen=True)
class Conversed(Effect):
    """The conversation, and the rest of the day planned again when the resident accepted
    an invitation to an event later that day."""

    job: ClassVar[JobKind] = JobKind.CONVERSE
    conversation: Conversation | None = None
    plan: DayPlan | None = None


@dataclass(frozen=True)
class VisitorReplied(Effect):
    job: ClassVar[JobKind] = JobKind.VISITOR
    reply: Utterance | None = None


@dataclass(frozen=True)
class InnerVoiced(Effect):
    job: ClassVar[JobKind] = JobKind.INNER_VOICE
    plan: DayPlan | None = None


@dataclass(frozen=True)
class Prepared(Effect):
    """Decisions asked ahead: waking up (with the first action of the day) or the next
    action, made from `base` for the time `at`, from what the agent knew when asked. Why
    held, not applied: the agent may change its plan before `at` (a reaction, a
    conversation); the simulation uses them only if the plan is still `base` when the
    agent gets there. `then`: the decision after a short action, asked in the same job,
    since a few minutes are too short to ask for it once the short action begins."""

    job: ClassVar[JobKind] = JobKind.PREPARE
    decisions: tuple[Woke | NextAction, ...] = ()
    base: DayPlan = DayPlan()
    at: datetime | None = None
    then: Prepared | None = None
