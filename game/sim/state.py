"""What a running town is, apart from its residents: the clock, the step count, the
objects' states with who set each and since when, and the event log.

One object so a save reads and writes it whole (`get_state`/`set_state`) instead of
reaching into the simulation's attributes, and so every collaborator changes an object's
state the same way: logged, with its setter, and a player's edit kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from game.core.clock import Clock
from game.sim.events import Event, EventKind, EventLog
from game.world.town import Town


class EditSource(StrEnum):
    """Who changed an object besides a resident (residents are named by their name).

    A str enum, so the event log and the saves keep the plain word they always had."""

    PLAYER = "player"


@dataclass
class SimState:
    """The clock, steps, object states and their setters, and the event log."""

    town: Town
    clock: Clock
    log: EventLog = field(default_factory=EventLog)
    steps: int = 0
    state_by: dict[str, str] = field(default_factory=dict)  # object -> who set its state
    state_since: dict[str, datetime] = field(default_factory=dict)  # object -> since when

    @property
    def now(self) -> datetime:
        return self.clock.now

    def tick(self) -> None:
        """One step of game time."""
        self.clock.tick()
        self.steps += 1

    def set_object(self, address: str, state: str, by: str, keep_player: bool = False) -> bool:
        """Give an object a new state, logged with who set it; whether it changed. With
        `keep_player` a player's edit stays until someone deals with it."""
        if address not in self.town.states:
            return False
        old = self.town.state(address)
        if keep_player and self.state_by.get(address) == EditSource.PLAYER and old != state:
            return False
        if old == state:
            return False
        self.town.set_state(address, state)
        self.state_by[address] = by
        self.state_since[address] = self.now
        self.log.add(
            self.now,
            EventKind.OBJECT_STATE,
            by,
            f"{address} is {state}",
            old=old,
            address=address,
            state=state,
        )
        return True

    def get_state(self) -> dict[str, Any]:
        """Plain JSON, the save document's keys for it."""
        return {
            "clock": self.now.isoformat(),
            "steps": self.steps,
            "objects": dict(self.town.states),
            "object_setters": dict(self.state_by),
            "log": [e.to_dict() for e in self.log.events],
        }

    def set_state(self, doc: dict[str, Any]) -> None:
        """Take up a saved state (objects the town no longer has are skipped)."""
        self.clock.now = datetime.fromisoformat(doc["clock"])
        self.steps = int(doc["steps"])
        for address, state in doc["objects"].items():
            if address in self.town.states:
                self.town.states[address] = str(state)
        self.state_by = {str(k): str(v) for k, v in doc.get("object_setters", {}).items()}
        self.log.events = [Event.from_dict(e) for e in doc.get("log", [])]
