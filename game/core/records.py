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


@dataclass(frozen=True)
class MemoryRecord:
    """One memory as the brain sees it. `index` is its position in the agent's stream."""

    index: int
    kind: MemoryKind
    text: str
    created: datetime
    importance: int
    source: str = ""  # who said it, for chat memories; "" for the agent's own
    evidence: tuple[int, ...] = ()


@dataclass(frozen=True)
class PlanItem:
    """'for 180 minutes from 9am at Oak Hill College: library, read and take notes'."""

    description: str
    start: datetime
    minutes: int
    place: str = ""  # a sector, sector:arena or full address the plan has in mind; may be ""

    @property
    def end(self) -> datetime:
        return self.start + timedelta(minutes=self.minutes)

    def covers(self, when: datetime) -> bool:
        return self.start <= when < self.end


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
    """Something perceived: an agent doing something, or an object in some state."""

    subject: str  # a name, or an object's address
    text: str  # 'Maria Lopez is studying at the desk'
    is_agent: bool
    status: str  # the agent's action, or the object's state


@dataclass(frozen=True)
class Utterance:
    speaker: str
    text: str
    end: bool = False  # the speaker ends the conversation with this line
    shares: str = ""  # a piece of news passed on in this line, stated as a plain fact


@dataclass(frozen=True)
class Insight:
    text: str
    evidence: tuple[int, ...]  # positions in the list of memories the brain was given
