"""What the screen reads of a running town: one protocol, two implementations.

Why a protocol: the window shows a live Simulation and a Replay of a saved run alike, and
it must not care which. Everything the UI (and the CLI's run) reads is listed here, so
neither probes for attributes, reaches into the scheduler or the brain, or catches
AttributeError. A Replay answers `player` with None: the player's commands are not
available on a recorded run, and the window says so instead of failing.

The brain helpers at the bottom are the one place that asks a brain for what only some
brains have (a usage meter, notices, a model and endpoint); every caller gets typed
answers, zeros and empties for a brain that has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Protocol
from urllib.parse import urlparse

from game.core.records import Utterance
from game.mind.agent import Action, Conversation
from game.mind.memory import MemoryStream
from game.mind.plan import DayPlan
from game.sim.events import EventKind, EventLog
from game.sim.pace import Pace
from game.sim.player import EditSource, Player, Visitor
from game.world.scenario import Resident
from game.world.town import Town

SCRIPTED_LABEL = "scripted residents: no language model configured"
READ_ONLY = "this is a replay of a recorded run: the residents cannot be changed"


class ResidentView(Protocol):
    """What the screen reads of one resident (game.mind.agent.Agent has all of it)."""

    @property
    def name(self) -> str: ...
    @property
    def persona(self) -> Resident: ...
    @property
    def pos(self) -> tuple[int, int]: ...
    @property
    def facing(self) -> str: ...
    @property
    def path(self) -> Sequence[tuple[int, int]]: ...
    @property
    def status(self) -> str: ...
    @property
    def emoji(self) -> str: ...
    @property
    def action(self) -> Action | None: ...
    @property
    def plan(self) -> DayPlan: ...
    @property
    def memory(self) -> MemoryStream: ...
    @property
    def summary(self) -> str: ...
    @property
    def location(self) -> str: ...
    @property
    def conversation(self) -> Conversation | None: ...
    @property
    def asleep(self) -> bool: ...


@dataclass(frozen=True)
class Usage:
    """The model's bill so far, as the HUD shows it."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    output_mode: str = ""  # the structured-output rung in use ('' on the scripted brain)

    @classmethod
    def of(cls, totals: Mapping[str, Any]) -> Usage:
        return cls(
            int(totals.get("calls", 0)),
            int(totals.get("prompt_tokens", 0)),
            int(totals.get("completion_tokens", 0)),
            float(totals.get("cost_usd", 0.0) or 0.0),
            str(totals.get("output_mode", "")),
        )


@dataclass(frozen=True)
class ObjectState:
    """An object's state and who set it ('' if nobody has changed it this run)."""

    address: str
    state: str
    set_by: str = ""

    @property
    def by_player(self) -> bool:
        return self.set_by == EditSource.PLAYER


@dataclass(frozen=True)
class StateChange:
    """One change of an object's state, read from the event log: who, what, when."""

    index: int  # the event's place in the log (a feed reads on from here)
    time: datetime
    address: str
    state: str
    old: str
    by: str

    @property
    def by_player(self) -> bool:
        return self.by == EditSource.PLAYER


class HappeningKind(Enum):
    """What the "what happened" feed lists: the changes a player wants to notice."""

    OBJECT = "object"
    REACTION = "reaction"
    CONVERSATION = "conversation"
    WAKE = "wake"
    SLEEP = "sleep"
    VISITOR = "visitor"


@dataclass(frozen=True)
class Happening:
    """One line of the "what happened" feed."""

    index: int
    time: datetime
    kind: HappeningKind
    who: str
    text: str
    address: str = ""
    state: str = ""  # an object's new state
    old: str = ""  # and the state before


_FEED_KINDS = {
    EventKind.OBJECT_STATE: HappeningKind.OBJECT,
    EventKind.REACTION: HappeningKind.REACTION,
    EventKind.CONVERSATION: HappeningKind.CONVERSATION,
    EventKind.WAKE: HappeningKind.WAKE,
    EventKind.SLEEP: HappeningKind.SLEEP,
}


def state_changes(log: EventLog, start: int = 0, address: str = "") -> list[StateChange]:
    """Object state changes logged from event `start` on (of one object, if named).

    Why from the log: a Simulation and a Replay both have it, and it keeps the full history
    (who changed what and when), which the object editor scrolls through."""
    out = []
    events = log.events
    for i in range(max(0, start), len(events)):
        event = events[i]
        if event.kind is not EventKind.OBJECT_STATE:
            continue
        where = str(event.data.get("address", ""))
        if address and where != address:
            continue
        state, old = str(event.data.get("state", "")), str(event.data.get("old", ""))
        out.append(StateChange(i, event.time, where, state, old, event.agent))
    return out


def happenings(log: EventLog, start: int = 0) -> list[Happening]:
    """The feed's entries logged from event `start` on."""
    out = []
    events = log.events
    for i in range(max(0, start), len(events)):
        event = events[i]
        kind = _FEED_KINDS.get(event.kind)
        if kind is None:
            continue
        if kind is HappeningKind.CONVERSATION and event.data.get("visitor"):
            kind = HappeningKind.VISITOR
        data = event.data
        address, state = str(data.get("address", "")), str(data.get("state", ""))
        old = str(data.get("old", ""))
        out.append(Happening(i, event.time, kind, event.agent, event.text, address, state, old))
    return out


class SimView(Protocol):
    """The town as the screen sees it; implemented by Simulation and Replay."""

    @property
    def now(self) -> datetime: ...
    @property
    def step_seconds(self) -> int: ...
    @property
    def town(self) -> Town: ...
    @property
    def agents(self) -> Mapping[str, ResidentView]: ...
    @property
    def log(self) -> EventLog: ...
    @property
    def visitor(self) -> Visitor | None: ...
    @property
    def chats(self) -> Mapping[str, Sequence[Utterance]]: ...
    @property
    def player(self) -> Player | None: ...
    @property
    def recorded(self) -> bool: ...

    def step(self) -> None: ...
    def close(self) -> None: ...
    def thinking(self, name: str) -> bool: ...
    def object_state(self, address: str) -> ObjectState: ...
    def brain_label(self) -> str: ...
    def model_usage(self) -> Usage: ...
    def notices(self) -> Sequence[str]: ...
    def pace(self) -> Pace: ...


# The members of SimView, for tests that check an implementation without isinstance.
SIM_VIEW_MEMBERS = tuple(name for name in vars(SimView) if not name.startswith("_"))


# -- the brain, asked in one place -----------------------------------------------------
def describe_brain(name: str, model: str = "", base_url: str = "") -> str:
    """The brain in plain words: the start screen, the HUD and the CLI all say this."""
    if name == "scripted":
        return SCRIPTED_LABEL
    host = urlparse(base_url or "").hostname or "default endpoint"
    return f"language model {model or name} at {host}"


def describe_talk(
    town: str, talk: str, model: str = "", base_url: str = "", residents: bool = False
) -> str:
    """Who runs the town and who answers its talk, when they differ (--talk-brain)."""
    if not talk or talk == town:
        return describe_brain(town, model, base_url)
    said = "interviews and your chat" + (" and residents' talk" if residents else "")
    if talk == "scripted":
        return f"{describe_brain(town, model, base_url)}; {said}: scripted"
    return f"scripted residents; {said}: {describe_brain(talk, model, base_url)}"


def brain_label(brain: object) -> str:
    name = str(getattr(brain, "name", "brain"))
    talk = str(getattr(brain, "talk_name", "") or name)
    model, url = getattr(brain, "model", ""), getattr(brain, "base_url", "")
    return describe_talk(name, talk, model, url, bool(getattr(brain, "own_talk", False)))


def brain_usage(brain: object) -> dict[str, Any]:
    """The brain's usage report with the HUD's counters always present."""
    meter = getattr(brain, "usage", None)
    totals = meter() if callable(meter) else {}
    return {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, **totals}


def brain_notices(brain: object) -> tuple[str, ...]:
    """What the brain wants a person told (the endpoint is down, the budget is spent)."""
    return tuple(getattr(brain, "notices", None) or ())


def brain_fatal(brain: object) -> str:
    """Why a run must stop now ('' to go on): strict mode, a replay miss."""
    return str(getattr(brain, "fatal", "") or "")


def close_brain(brain: object) -> None:
    close = getattr(brain, "close", None)
    if callable(close):
        close()
