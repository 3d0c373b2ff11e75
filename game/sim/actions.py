"""Actions in the town: walking routes to goal tiles and spots, arriving, finishing (an
object back at rest, or fixed), capacity and opening hours.

Everything here changes where residents are and what objects are; nothing asks the brain.
The appliers start actions (`game.sim.appliers`), decisions read what places hold
(`surroundings`), and the player stops walkers and edits objects through the same calls,
so each of those changes is logged alike and a replay follows it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from datetime import timedelta
from functools import lru_cache
from typing import Protocol

from game.core.clock import minute_of_day
from game.mind import facts
from game.mind.agent import Action, ActionKind, Agent
from game.mind.cognition import Mind, Surroundings, foresee
from game.sim.config import stable_index
from game.sim.events import EventKind
from game.sim.setup import facing
from game.sim.spots import Spots
from game.sim.state import SimState
from game.world.pathfinding import PathFinder
from game.world.town import SEP, AreaKind, Town, split
from game.world.troubles import Trouble, fix_of, trouble

Tile = tuple[int, int]


def objects_by_area(town: Town) -> dict[str, list[str]]:
    """The objects in each area (by the area's address), in the town's order."""
    out: dict[str, list[str]] = {}
    for area in town.areas.values():
        if area.kind is AreaKind.OBJECT:
            out.setdefault(area.parent or "", []).append(area.address)
    return out


def fixing(town: Town, action: Action | None) -> Trouble | None:
    """The trouble an action deals with: it fixes the trouble its object is in (by the
    troubles table), whatever kind of action it is (a reaction, or its rest taken up
    again from the plan)."""
    if action is None or action.address not in town.states:
        return None
    found = trouble(town.state(action.address))
    return found if found is not None and fix_of(action.description) is found else None


class View(Protocol):
    """How residents stepping apart from the town (game.sim.apart) read the others and the
    objects: those within reach of the reader as they are, the rest as they were a fixed
    number of steps ago. Why: the others are somewhere else in their own game time
    meanwhile, and what one decides must not depend on how far they have got."""

    def target(self, reader: Agent | None, other: Agent) -> str: ...

    def tile(self, reader: Agent | None, other: Agent) -> Tile: ...

    def states(self, reader: Agent | None) -> dict[str, str]: ...

    def changed(self, address: str, state: str, by: str) -> None: ...

    def within(self, reader: Agent, other: Agent, tiles: int) -> bool: ...


class Actions:
    """Routes, goal tiles, spots, capacity and opening hours for the town's residents."""

    def __init__(self, state: SimState, agents: Mapping[str, Agent], mind: Mind) -> None:
        self.state, self.agents, self.mind = state, agents, mind
        self.town = state.town
        self.finder = PathFinder(self.town.walkable)
        self.spots = Spots(self.town)  # distinct seats at tables, counters and benches
        self.objects_in = objects_by_area(self.town)
        self.view: View | None = None  # set while residents step apart
        # Opening hours are the map's and an action does not change: a resident whose
        # action was allowed to go on while the same places are closed is not looked at
        # again each step (`enforce_hours`) until its action, or the closed places, change
        self._closed: dict[int, frozenset[str]] = {}  # minute of day -> places closed
        self._closed_then: frozenset[str] | None = None
        self._may_stay: dict[str, Action] = {}  # resident -> action allowed to go on

    def _target(self, agent: Agent, reader: Agent | None = None) -> str:
        """The address an agent's action is at, as the reader reads it."""
        if self.view is not None and agent is not reader:
            return self.view.target(reader, agent)
        return agent.action.address if agent.action is not None else ""

    def _tile(self, agent: Agent, reader: Agent | None = None) -> Tile:
        """Where an agent stands or is headed, as the reader reads it."""
        if self.view is not None and agent is not reader:
            return self.view.tile(reader, agent)
        return agent.path[-1] if agent.path else agent.pos

    def _states(self, reader: Agent | None = None) -> dict[str, str]:
        """The objects' states as the reader reads them."""
        if self.view is not None:
            return self.view.states(reader)
        return dict(self.town.states)

    # -- objects ------------------------------------------------------------------------
    def set_object_state(self, address: str, state: str, by: str, keep_player: bool = False):
        """Change an object (logged), and tell the embedder what onlookers will remember."""
        if self.state.set_object(address, state, by, keep_player):
            if self.view is not None:
                self.view.changed(address, state, by)
            foresee(self.mind, [facts.render(facts.object_state(address, state), self.town)])

    def tending(self, agent: Agent) -> Trouble | None:
        return fixing(self.town, agent.action)

    # -- time passing for one agent -------------------------------------------------------
    def advance(self, agent: Agent) -> None:
        now = self.state.now
        if agent.conversation is not None and now >= agent.conversation.end:
            agent.conversation = None
            agent.action = None
        action = agent.action
        timed = action is not None and action.kind not in (ActionKind.SLEEP, ActionKind.CHAT)
        if timed and action.over(now):
            self.finish(agent, action)
        if agent.path:
            self._walk(agent)

    def _walk(self, agent: Agent) -> None:
        nxt = agent.path.pop(0)
        agent.facing = facing(nxt[0] - agent.pos[0], nxt[1] - agent.pos[1], agent.facing)
        agent.pos = nxt
        self._relocate(agent)
        if not agent.path:
            self.arrive(agent)

    def _relocate(self, agent: Agent) -> None:
        where = self.town.address_at(*agent.pos)
        if where == agent.location:
            return
        agent.location = where
        sector = split(where)[0] if where else ""
        if sector and sector not in agent.visited:
            agent.visited.append(sector)
        if where:
            self._learn(agent, where)

    def _learn(self, agent: Agent, where: str) -> None:
        """Agents learn the areas they see: the sector, the arena and its objects."""
        parts = split(where)
        agent.known.add(parts[0])
        if len(parts) > 1:
            agent.known.add(where)
            agent.known.update(self.objects_in.get(where, ()))

    def arrive(self, agent: Agent) -> None:
        action = agent.action
        if action is None:
            return
        log, now = self.state.log, self.state.now
        log.add(now, EventKind.ARRIVE, agent.name, action.address)
        if action.kind is ActionKind.SLEEP:
            agent.asleep = True
            log.add(now, EventKind.SLEEP, agent.name, f"{agent.name} goes to sleep")
        if action.object_state:
            self.set_object_state(action.address, action.object_state, agent.name, True)

    def finish(self, agent: Agent, action: Action) -> None:
        """An action ends: its object goes back to rest, or is left fixed by a reaction (or
        by the rest of one taken up again from the plan, after an interruption)."""
        address = action.address
        fixes_to = action.fixes_to or (
            self.town.areas[address].default_state if fixing(self.town, action) else ""
        )
        if fixes_to and address in self.town.states and not agent.path:
            self.set_object_state(address, fixes_to, agent.name)
        elif action.object_state and self.state.state_by.get(address) == agent.name:
            default = self.town.areas[address].default_state
            self.set_object_state(address, default, agent.name)
        agent.action = None

    def enforce_hours(self, among: Collection[Agent] | None = None) -> None:
        """Visitors still inside a place when it closes stop what they do there and leave
        (of `among`, when a group steps apart)."""
        minute = minute_of_day(self.state.now)
        closed = self._closed_at(minute)
        if closed != self._closed_then:  # a place opened or closed: look at everyone again
            self._closed_then, self._may_stay = closed, {}
        may_stay = self._may_stay
        for agent in self.agents.values() if among is None else among:
            action = agent.action
            if action is None or may_stay.get(agent.name) is action:
                continue
            if action.kind in (ActionKind.SLEEP, ActionKind.CHAT):
                continue
            sector = self.town.areas.get(split(action.address)[0]) if action.address else None
            if sector is None or sector.is_open(minute):
                may_stay[agent.name] = action
                continue
            if sector.name in (agent.persona.workplace, agent.persona.home):
                may_stay[agent.name] = action
                continue
            self.stop(agent)
            self.finish(agent, action)

    def _closed_at(self, minute: int) -> frozenset[str]:
        """The places (first parts of addresses) closed at this minute of the day."""
        closed = self._closed.get(minute)
        if closed is None:
            areas = self.town.areas
            tops = {split(a)[0] for a in areas if a}
            closed = frozenset(t for t in tops if t in areas and not areas[t].is_open(minute))
            self._closed[minute] = closed
        return closed

    # -- places ---------------------------------------------------------------------------
    def full(self, agent: Agent, address: str) -> bool:
        """Capacity is checked again here: two jobs may have chosen the same bathroom."""
        parts = split(address)
        for depth in range(1, len(parts) + 1):
            key = SEP.join(parts[:depth])
            area = self.town.areas.get(key)
            if area is None or area.capacity is None:
                continue
            others = sum(
                1
                for o in self.agents.values()
                if o is not agent
                and (at := self._target(o, agent))
                and (at == key or at.startswith(key + SEP))
            )
            if others >= area.capacity:
                return True
        return False

    def surroundings(self, reader: Agent | None = None) -> Surroundings:
        """The town as a job reads it (the reader's, while residents step apart): object
        states, how many are headed where, and whom."""
        occupancy: dict[str, int] = {}
        targets: dict[str, str] = {}
        for agent in self.agents.values():
            address = self._target(agent, reader)
            if not address:
                continue
            targets[agent.name] = address
            for key in _enclosing(address):
                occupancy[key] = occupancy.get(key, 0) + 1
        return Surroundings(self.town, self._states(reader), occupancy, targets)

    # -- routes ---------------------------------------------------------------------------
    def stop(self, agent: Agent) -> None:
        """Stop walking; logged, so a replay stops the agent at the same tile."""
        if agent.path:
            agent.path = []
            self.state.log.add(self.state.now, EventKind.MOVE, agent.name, "", path=[])

    def route(self, agent: Agent, action: Action) -> None:
        now, log = self.state.now, self.state.log
        goal = self.goal_tile(agent, action.address)
        if goal is None or goal == agent.pos:
            self.stop(agent)
            self.arrive(agent)
            return
        path = self.finder.path(agent.pos, goal)
        if path is None:
            log.add(now, EventKind.ERROR, agent.name, f"no path to {action.address}")
            self.stop(agent)
            agent.action = replace(action, end=min(action.end, now + timedelta(minutes=1)))
            return
        agent.path = path[1:]
        log.add(now, EventKind.MOVE, agent.name, action.address, path=list(agent.path))

    def goal_tile(self, agent: Agent, address: str) -> Tile | None:
        area = self.town.areas.get(address)
        if area is None or area.kind is AreaKind.WORLD:
            return None
        taken = self._spots_taken(agent)
        if area.kind is AreaKind.OBJECT:
            pick = lambda n: stable_index(agent.name + address, n)  # noqa: E731
            return self.spots.choose(address, taken, pick)
        if self.town.address_at(*agent.pos).startswith(address):
            return agent.pos
        tiles = self.town.walkable_tiles_of(address)
        free = [t for t in tiles if t not in taken] or tiles  # a spot of one's own if any
        return free[stable_index(agent.name + address, len(free))] if free else None

    def _spots_taken(self, agent: Agent) -> set[Tile]:
        """Where the others stand or are walking to: readable crowds need distinct spots.
        Read in place, not through `_tile`, when everyone is read as they are (no view):
        a town of 500 asks this of every other resident at each choice of a spot."""
        others = self.agents.values()
        if self.view is not None:
            return {self._tile(o, agent) for o in others if o is not agent}
        return {o.path[-1] if o.path else o.pos for o in others if o is not agent}


@lru_cache(maxsize=4096)
def _enclosing(address: str) -> tuple[str, ...]:
    """The address and every area holding it, outermost first ('a', 'a:b', 'a:b:c'):
    worked out once an address, not once a resident heading there each time a job reads
    the town."""
    parts = split(address)
    return tuple(SEP.join(parts[:depth]) for depth in range(1, len(parts) + 1))
