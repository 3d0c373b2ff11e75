"""Residents as they start a run, and which way a step turns a walker.

Public, and apart from Simulation, because a replay rebuilds the residents where the
recorded run began without owning a simulation's scheduler or brain.
"""

from __future__ import annotations

from datetime import datetime

from game.core.clock import next_time
from game.mind.agent import Action, ActionKind, Agent
from game.mind.memory import MemoryStream
from game.world.scenario import Resident
from game.world.town import SEP, Town


def make_agent(town: Town, resident: Resident, now: datetime, embedding_dim: int) -> Agent:
    """A resident in bed at `now`, knowing its home, workplace and usual places: asleep
    until its waking time, or waking now when the run starts in its waking hours."""
    pos = _start_tile(town, resident)
    agent = Agent(resident, MemoryStream(embedding_dim), pos, known=_known(town, resident))
    wake = waking_at(resident, now)
    agent.action = Action("sleeping", resident.bed, now, wake, ActionKind.SLEEP, "😴")
    agent.asleep = True
    agent.location = town.address_at(*pos)
    return agent


def waking_at(resident: Resident, now: datetime) -> datetime:
    """When a resident put to bed at `now` gets up: at its usual time, or at once when its
    bedtime comes before that (the run starts in its waking hours). A scenario that starts
    at 07:00 has Isabella, up at 06:00, plan the rest of her day, not sleep until the next
    morning; one that starts at 04:00 changes nothing."""
    wake = next_time(now, resident.wake)
    return now if next_time(now, resident.sleep) < wake else wake


def _start_tile(town: Town, resident: Resident) -> tuple[int, int]:
    pos = town.access_tile(resident.bed) or town.spawns.get(resident.name)
    return pos if pos is not None else town.walkable_tiles_of(resident.home)[0]


def _known(town: Town, resident: Resident) -> set[str]:
    """The street, and every area inside the sectors the resident already knows."""
    known = {""}
    for sector in (resident.home, resident.workplace, *resident.known_places):
        if sector:
            known.add(sector)
            known.update(a for a in town.areas if a.startswith(sector + SEP))
    return known


def facing(dx: int, dy: int, current: str = "down") -> str:
    """The sprite row a step of (dx, dy) shows: sideways wins over up and down."""
    if dx:
        return "right" if dx > 0 else "left"
    if dy:
        return "down" if dy > 0 else "up"
    return current
