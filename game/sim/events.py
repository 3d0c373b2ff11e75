"""The event log: every action, move, conversation and object change, with its game time.

Append-only and plain data, so it can be saved, replayed and evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any

from game.core.records import Utterance


class EventKind(Enum):
    ACTION = "action"
    MOVE = "move"
    ARRIVE = "arrive"
    CONVERSATION = "conversation"
    OBJECT_STATE = "object_state"
    REACTION = "reaction"
    REFLECTION = "reflection"
    PLAN = "plan"
    WAKE = "wake"
    SLEEP = "sleep"
    PLAYER = "player"
    ERROR = "error"


@dataclass(frozen=True)
class Event:
    time: datetime
    kind: EventKind
    agent: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "time": self.time.isoformat(),
            "kind": self.kind.value,
            "agent": self.agent,
            "text": self.text,
            "data": self.data,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Event:
        """An event as `to_dict` wrote it (a save's log)."""
        return cls(
            datetime.fromisoformat(raw["time"]),
            EventKind(raw["kind"]),
            str(raw["agent"]),
            str(raw["text"]),
            dict(raw.get("data", {})),
        )


class EventLog:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, time: datetime, kind: EventKind, agent: str, text: str, **data: Any) -> Event:
        event = Event(time, kind, agent, text, data)
        self.events.append(event)
        return event

    def of(self, kind: EventKind) -> list[Event]:
        return [e for e in self.events if e.kind is kind]

    def __len__(self) -> int:
        return len(self.events)


def answered_by(lines: Sequence[Utterance]) -> dict[str, list[str]]:
    """A conversation event's `answered_by`: who gave each line ('' for a line no brain
    gave, the visitor's own), beside `lines`. Only when a model could have answered any
    line, so a town with no model logs what it always did."""
    if all(u.by is None for u in lines):
        return {}
    return {"answered_by": [u.by.value if u.by else "" for u in lines]}
