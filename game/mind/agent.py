"""One resident's state, owned by the simulation thread, and the snapshot a worker reads.

The Agent is mutable but only the simulation thread touches it; cognition jobs get an
AgentSnapshot (frozen, sharing only immutable or append-only data) and return a Decision.
"""

from __future__ import annotations

import typing
from collections import deque
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any

from game.core.codec import decode, encode
from game.core.records import ActionKind, Observation, Utterance
from game.mind.memory import MemoryStream, MemoryView
from game.mind.plan import DayPlan
from game.world.scenario import Resident

Tile = tuple[int, int]


@dataclass(frozen=True)
class Action:
    """What an agent does, and where: 'making espresso' @ 'Hobbs Cafe:cafe:coffee machine'."""

    description: str
    address: str  # where it happens (an object's address, or an arena / sector)
    start: datetime
    end: datetime
    kind: ActionKind = ActionKind.PLAN
    emoji: str = ""
    object_state: str = ""  # the state its object takes while the action runs ('' = unchanged)
    fixes_to: str = ""  # for a reaction to an object: the state the object is left in
    importance: int = 0  # how poignant its planner rated doing it (0 = not rated)
    said: str = ""  # called out as it starts (noticing trouble: 'Something's burning!')

    def over(self, now: datetime) -> bool:
        return now >= self.end


@dataclass(frozen=True)
class Conversation:
    """A whole conversation, decided at once and then played out over game time."""

    participants: tuple[str, str]
    lines: tuple[Utterance, ...]
    start: datetime
    seconds_per_line: int = 30

    @property
    def end(self) -> datetime:
        return self.start + timedelta(seconds=self.seconds_per_line * max(1, len(self.lines)))

    def line_at(self, now: datetime) -> Utterance | None:
        """The line being spoken at `now` (for speech bubbles)."""
        if not self.lines or now < self.start:
            return None
        i = int((now - self.start).total_seconds() // self.seconds_per_line)
        return self.lines[i] if i < len(self.lines) else None

    def partner_of(self, name: str) -> str:
        a, b = self.participants
        return b if name == a else a


@dataclass(frozen=True)
class AgentSnapshot:
    """Everything a cognition job may read about one agent at one moment."""

    name: str
    persona: Resident
    now: datetime
    summary: str
    location: str
    status: str
    memory: MemoryView
    known: frozenset[str]
    plan: DayPlan
    action: Action | None
    asleep: bool
    seeded: bool
    summary_day: str
    last_chat: dict[str, datetime]


@dataclass
class Agent:
    """A resident in the running town."""

    persona: Resident
    memory: MemoryStream
    pos: Tile
    known: set[str] = field(default_factory=set)
    plan: DayPlan = field(default_factory=DayPlan)
    action: Action | None = None
    path: list[Tile] = field(default_factory=list)
    facing: str = "down"
    asleep: bool = False
    seeded: bool = False
    summary: str = ""
    summary_day: str = ""
    reflect_pool: int = 0  # importance gathered since the last reflection
    reflections: int = 0
    pending: list[Observation] = field(default_factory=list)
    seen: dict[str, tuple[str, datetime]] = field(default_factory=dict)
    recent: deque[tuple[str, str]] = field(default_factory=lambda: deque(maxlen=5))
    last_chat: dict[str, datetime] = field(default_factory=dict)
    conversation: Conversation | None = None
    conversations: int = 0
    visited: list[str] = field(default_factory=list)
    location: str = ""
    woke_on: str = ""  # ISO date of the last wake-up

    @property
    def name(self) -> str:
        return self.persona.name

    @property
    def status(self) -> str:
        if self.conversation is not None:
            return f"talking with {self.conversation.partner_of(self.name)}"
        if self.asleep:
            return "sleeping"
        return self.action.description if self.action else "thinking about what to do next"

    @property
    def emoji(self) -> str:
        if self.conversation is not None:
            return "💬"
        if self.asleep:
            return "😴"
        return self.action.emoji if self.action else "💭"

    def get_state(self) -> dict[str, Any]:
        """Everything but the persona (from the scenario) and the memory (saved as arrays)."""
        return {name: encode(value) for name, value in self.state_copy().items()}

    def state_copy(self) -> dict[str, Any]:
        """What `get_state` encodes, as it is now and as the game cannot change it: each
        container copied (what they hold is frozen). Why: an autosave takes this on the
        frame thread, and encodes it on its writer's (encoding a hundred residents' day
        plans held the frame 60 to 150 ms)."""
        return {
            f.name: _copy(getattr(self, f.name)) for f in fields(self) if f.name not in _NOT_STATE
        }

    def set_state(self, doc: dict[str, Any]) -> None:
        hints = typing.get_type_hints(Agent)
        for f in fields(self):
            if f.name not in _NOT_STATE and f.name in doc:
                setattr(self, f.name, decode(hints[f.name], doc[f.name]))
        self.recent = deque(self.recent, maxlen=5)

    def snapshot(self, now: datetime) -> AgentSnapshot:
        return AgentSnapshot(
            name=self.name,
            persona=self.persona,
            now=now,
            summary=self.summary,
            location=self.location,
            status=self.status,
            memory=self.memory.view(),
            known=frozenset(self.known),
            plan=self.plan,
            action=self.action,
            asleep=self.asleep,
            seeded=self.seeded,
            summary_day=self.summary_day,
            last_chat=dict(self.last_chat),
        )


_NOT_STATE = ("persona", "memory")


def _copy(value: Any) -> Any:
    """A container's items in one that is not shared (encoded alike: a set or a
    frozenset as a sorted list, a list, deque or tuple as a list); anything else as is."""
    if isinstance(value, set):
        return frozenset(value)
    if isinstance(value, (list, deque)):
        return tuple(value)
    if isinstance(value, dict):
        return dict(value)
    return value
