"""Sight: who sees whom and what, each step.

A resident awake sees the others within its sight radius in the same room doing
something, the objects of its room not at rest, trouble anywhere in its building once it
reaches its room, the visitor, and notices on boards in sight. Neighbours come from a grid
(`game.sim.nearby`), not from every pair, in the town's order of residents, so what each
onlooker attends to, and remembers, is what the pairwise scan gave.

How one resident or object looks is worked out once a step and shared by every onlooker,
and so is the rest of what does not depend on the onlooker: which residents are worth
seeing, by room (`RoomGrid`), and which objects are not at rest, by room and in trouble by
building, from one pass over the objects' states (`_index_objects`). Nothing perception
does changes a position or a state, so what the step's first onlooker finds holds for the
last.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from game.core.mind_settings import MindSettings
from game.core.records import Observation, Source
from game.mind import facts
from game.mind.agent import ActionKind, Agent
from game.mind.perception import Sighting, attend, distance_to
from game.sim.actions import Actions
from game.sim.nearby import Grid, RoomGrid
from game.sim.player import Player
from game.sim.state import SimState
from game.world.town import sector_of
from game.world.troubles import Trouble, trouble


class Sight:
    """Perception for the whole town, once a step."""

    def __init__(
        self,
        state: SimState,
        agents: Mapping[str, Agent],
        actions: Actions,
        player: Player,
        settings: MindSettings,
        grid: Grid,
    ) -> None:
        self.state, self.agents, self.actions = state, agents, actions
        self.player, self.settings, self.grid = player, settings, grid
        self.town = state.town
        self._troubled: dict[str, dict[str, Trouble]] = {}  # sector -> objects in trouble
        # room -> its objects not at rest, untroubled, each with its rectangle's corners
        self._astir: dict[str, list[tuple[str, int, int, int, int]]] = {}
        # id of a room's list in _astir -> that list and the nearest of it, by onlooker's
        # tile (`_near_objects`)
        self._answers: dict[int, tuple[list, dict[tuple, list[tuple[int, str]]]]] = {}
        self._seen = RoomGrid((), 1)  # this step's residents worth seeing
        self._default: dict[str, str] = {}  # object -> its state at rest (the map's, fixed)
        # the states the index was made from, and whether any was trouble: the index is
        # made again only when a state changed (a dict compare in C), or for trouble
        self._states_then: dict[str, str] | None = None
        self._trouble_then = False
        self._rank = {a: i for objs in actions.objects_in.values() for i, a in enumerate(objs)}
        self._looks: dict[str, Observation] = {}  # name or address -> this step's look
        # name -> (action, conversation, asleep) and the look they made, kept across steps
        self._kept: dict[str, tuple[Any, Any, bool, Observation]] = {}
        # address -> (state, routine) and the look they made, kept across steps
        self._kept_objects: dict[str, tuple[str, bool, Observation]] = {}
        # name or address -> its look and the sightings of it made, by distance
        self._held: dict[str, tuple[Observation, dict[int, Sighting]]] = {}

    def perceive_all(self, among: Collection[Agent] | None = None) -> None:
        """Every awake resident looks around; what it attends to waits in `pending`. With
        `among` (a group stepping apart, game.sim.apart), only they look, and only at each
        other: the rest of the town is out of their sight until the next sync point."""
        agents = list(self.agents.values() if among is None else among)
        if not any(not a.asleep and a.seeded for a in agents):
            return
        radius, bandwidth = self.settings.vision_radius, self.settings.attention_bandwidth
        self._index_objects(agents)
        self._looks = {}  # how a resident or an object looks this step: alike to every onlooker
        self.grid.refresh()
        worth = (o for o in agents if not o.asleep and o.seeded and o.action)
        self._seen = RoomGrid(worth, radius, self._seen)  # rooms as they were: as answered
        for agent in agents:
            if agent.asleep or not agent.seeded or agent.conversation is not None:
                continue
            sightings = self._sight_residents(agent, radius, bandwidth)
            sightings += self._sight_objects(agent, radius, bandwidth)
            seen_visitor = self.player.sighting(agent, radius)
            if seen_visitor is not None:
                sightings.append(seen_visitor)
            new = attend(agent, self.state.now, sightings, self.settings)
            new += self.player.notices_seen(agent, radius)  # each notice read once
            if self.settings.ablation.memory:  # without memory nothing is kept
                agent.pending.extend(new)

    def _sight_residents(self, agent: Agent, radius: int, k: int) -> list[Sighting]:
        """The others awake within sight in the agent's room, doing something, each as it
        looks this step at its distance: only the `k` nearest (then by name). Attention
        takes at most k things a look in that order (`attend`), so one farther down could
        never be taken, and in a crowded lunch room most pairs are: they are not looked at.
        """
        looks = self._looks
        out: list[Sighting] = []
        for d, name, other in self._seen.nearest(agent.location, agent.pos, radius, k, agent):
            obs = looks.get(name)
            if obs is None:
                obs = looks[name] = self._look_of(other)
            out.append(self._sighting(obs, d))
        return out

    def _sighting(self, obs: Observation, d: int) -> Sighting:
        """A look at a distance, kept while the look is the same: an onlooker sitting by
        the same people and things all hour sees the same few, and making each sighting
        afresh (a frozen dataclass) was a tenth of a look's cost."""
        held = self._held.get(obs.subject)
        if held is None or held[0] is not obs:
            held = self._held[obs.subject] = (obs, {})
        found = held[1].get(d)
        if found is None:
            found = held[1][d] = Sighting(obs, d)
        return found

    def _look_of(self, other: Agent) -> Observation:
        """How a resident looks: as last time while it goes on with the same action (or
        conversation, or sleep), the only things its look is made of."""
        kept = self._kept.get(other.name)
        if (
            kept is not None
            and kept[0] is other.action
            and kept[1] is other.conversation
            and kept[2] == other.asleep
        ):
            return kept[3]
        obs = agent_observation(other)
        self._kept[other.name] = (other.action, other.conversation, other.asleep, obs)
        return obs

    def _sight_objects(self, agent: Agent, radius: int, k: int) -> list[Sighting]:
        """Objects at rest are furniture, not events; an agent notices one whose state is
        not its default (in use, brewing coffee, burning) within sight in its room: the `k`
        nearest (then by address), as with residents. Trouble is noticed anywhere in the
        room, and from as many rooms away as it reaches (smoke and the sound of water reach
        the next room, then spread: game.world.troubles), before anything nearer."""
        out: list[Sighting] = []
        if self._troubled and agent.location:  # nearly always no trouble anywhere
            troubled = self._troubled.get(sector_of(agent.location), {})
            out = [s for a, t in troubled.items() if (s := self._sense(agent, a, t)) is not None]
        astir = self._astir.get(agent.location)
        if astir:
            near = self._near_objects(astir, agent.pos, radius, k)
            out += [self._object_sighting(address, d) for d, address in near]
        return out

    def _near_objects(
        self, astir: list[tuple[str, int, int, int, int]], pos: tuple[int, int], radius: int,
        k: int,
    ) -> list[tuple[int, str]]:
        """The `k` nearest of a room's objects astir within `radius` of `pos`, as
        (distance, address), kept with that room's list: it is the same list object step
        after step while the same objects there are astir (`_index_objects`), and most
        onlookers sit on one tile for an hour."""
        kept = self._answers.get(id(astir))
        if kept is None or kept[0] is not astir:
            kept = self._answers[id(astir)] = (astir, {})
        near = kept[1].get((pos, radius, k))
        if near is not None:
            return near
        px, py = pos
        near = []
        for address, x0, y0, x1, y1 in astir:
            d = max(x0 - px, px - x1, y0 - py, py - y1, 0)  # distance_to, unrolled
            if d <= radius:
                near.append((d, address))
        if len(near) > k:
            near = heapq.nsmallest(k, near)
        kept[1][(pos, radius, k)] = near
        return near

    def _sense(self, agent: Agent, address: str, what: Trouble) -> Sighting | None:
        """A trouble in the agent's building, if it reaches the agent's room by now."""
        apart = self.town.rooms_apart(agent.location, self.town.areas[address].parent or "")
        since = self.state.state_since.get(address)
        now = self.state.now
        minutes = (now - since).total_seconds() / 60 if since is not None else 0.0
        if apart is None or apart > what.reach_after(minutes):
            return None
        d = distance_to(self.town.areas[address].rect, agent.pos)
        return replace(self._object_sighting(address, d), since=since, salient=True)

    def _object_sighting(self, address: str, d: int) -> Sighting:
        obs = self._looks.get(address)
        if obs is None:
            obs = self._looks[address] = self._object_look(address)
        return self._sighting(obs, d)

    def _object_look(self, address: str) -> Observation:
        """How an object looks: as last time while its state, and whether a resident set
        it, stay the same, the only things its look is made of (an object astir all
        morning was rendered again each step)."""
        state = self.town.state(address)
        routine = self.state.state_by.get(address, "") in self.agents  # a resident's doing
        kept = self._kept_objects.get(address)
        if kept is not None and kept[0] == state and kept[1] == routine:
            return kept[2]
        fact = facts.object_state(address, state)
        text = facts.render(fact, self.town)
        obs = Observation(address, text, False, state, fact, routine=routine)
        self._kept_objects[address] = (state, routine, obs)
        return obs

    def _index_objects(self, agents: list[Agent]) -> None:
        """Which objects are not at rest now, in one pass over the states (once a step,
        for every agent): those in trouble and left alone, by building, and the others, by
        room in the town's order (an onlooker's room's objects, as `_sight_objects` went
        through them). Trouble someone is already dealing with is seen like anything else.
        """
        default, states = self._default, self.town.states
        if not self._trouble_then and states == self._states_then:
            return  # no state changed, and no trouble (whose tending may have): all holds
        self._states_then = dict(states)
        if len(default) != len(states):  # the map's, taken once
            default.update((a, self.town.areas[a].default_state) for a in states)
        astir = [(a, s) for a, s in states.items() if s != default[a]]
        found = [(a, t) for a, s in astir if (t := trouble(s)) is not None]
        self._trouble_then = bool(found)
        tended: set[str] = set()
        if found:  # asked only when there is trouble: nearly always there is none
            tending = self.actions.tending
            tended = {a.action.address for a in agents if tending(a)}
        self._troubled = {}
        for address, what in found:
            if address not in tended:
                self._troubled.setdefault(sector_of(address), {})[address] = what
        by_room: dict[str, list[str]] = {}
        areas = self.town.areas
        for address, _ in astir:
            room = areas[address].parent or ""
            if address in self._rank and not (room and self._is_troubled(address)):
                by_room.setdefault(room, []).append(address)  # no room: trouble too
        before, self._astir = self._astir, {}
        for room, objects in by_room.items():
            objects.sort(key=self._rank.__getitem__)
            rects = [(a, areas[a].rect) for a in objects]
            listed = [(a, r.x, r.y, r.x + r.w - 1, r.y + r.h - 1) for a, r in rects]
            same = before.get(room)  # the list as it was, if alike: its answers hold
            self._astir[room] = same if same == listed else listed
        self._answers = {id(a): self._answers[id(a)] for a in self._astir.values()
                         if id(a) in self._answers}

    def _is_troubled(self, address: str) -> bool:
        return address in self._troubled.get(sector_of(address), ())


def agent_observation(other: Agent) -> Observation:
    """How a resident looks to whoever sees it: what it is doing, as a fact."""
    fact = facts.doing(other.name, other.status, Source.SEEN, address=other.location)
    action = other.action
    kind = action.kind if action is not None else None
    if other.conversation is not None:
        kind = ActionKind.CHAT
    rated = action.importance if action is not None else 0
    return Observation(other.name, facts.render(fact), True, other.status, fact, kind, False, rated)
