"""Replay: a recorded run played back from its event log, with no model calls.

A Replay is a SimView like a Simulation, so the game window shows it the same way, but
its step() only re-applies logged events: actions, paths walked one tile a step,
conversations, object states, sleep and waking. It has no player: the window shows the
player's commands as unavailable.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from game.core.clock import Clock
from game.core.records import Utterance
from game.mind.agent import Action, ActionKind, Agent, Conversation
from game.sim.events import Event, EventKind, EventLog
from game.sim.pace import Pace
from game.sim.setup import facing, make_agent
from game.sim.simulation import Simulation
from game.sim.view import ObjectState, Usage


class Replay:
    """Plays `sim`'s event log from the scenario's start; `sim` is a loaded save."""

    player = None  # the recorded run takes no commands
    visitor = None
    recorded = True

    def __init__(self, sim: Simulation) -> None:
        self.source = sim
        self.town = sim.town
        self.end = sim.now
        self.events: list[Event] = list(sim.log.events)
        self._next = 0
        self.log = EventLog()
        self.steps = 0
        self.chats: dict[str, list[Utterance]] = {}
        self.step_seconds = sim.config.step_seconds
        self.clock = Clock(sim.scenario.start, self.step_seconds)
        self._set_by: dict[str, str] = {}  # object address -> who set it, as logged
        for address, area in ((a, self.town.areas[a]) for a in self.town.states):
            self.town.states[address] = area.default_state
        self.agents = {name: self._at_start(final) for name, final in sim.agents.items()}

    def _at_start(self, final: Agent) -> Agent:
        """A resident where the run began, with the memories it was saved with (the
        inspector shows those)."""
        fresh = make_agent(self.town, final.persona, self.now, self.source.mind.embedder.dim)
        fresh.memory = final.memory
        fresh.seeded = True
        return fresh

    @property
    def now(self) -> datetime:
        return self.clock.now

    @property
    def finished(self) -> bool:
        return self.now >= self.end

    def step(self) -> None:
        if self.finished:
            return
        self.clock.tick()
        self.steps += 1
        while self._next < len(self.events) and self.events[self._next].time < self.now:
            self._apply(self.events[self._next])
            self._next += 1
        for agent in self.agents.values():
            self._advance(agent)

    def _advance(self, agent: Agent) -> None:
        talk = agent.conversation
        if talk is not None and self.now >= talk.end:
            agent.conversation = None
        if agent.path:
            nxt = agent.path.pop(0)
            agent.facing = facing(nxt[0] - agent.pos[0], nxt[1] - agent.pos[1], agent.facing)
            agent.pos = nxt
            agent.location = self.town.address_at(*nxt)

    def _apply(self, event: Event) -> None:
        agent = self.agents.get(event.agent)
        kind, data = event.kind, event.data
        if kind is EventKind.OBJECT_STATE:
            address, _, state = event.text.rpartition(" is ")
            address = data.get("address", address)
            if address in self.town.states:
                self.town.states[address] = data.get("state", state)
                self._set_by[address] = event.agent
        elif kind is EventKind.CONVERSATION and not data.get("visitor"):
            self._conversation(event)
        elif agent is not None:
            self._agent_event(agent, event)
        if kind in (EventKind.ERROR, EventKind.PLAYER, EventKind.REACTION):
            self.log.events.append(event)

    def _agent_event(self, agent: Agent, event: Event) -> None:
        kind, data = event.kind, event.data
        if kind is EventKind.ACTION:
            end = event.time + timedelta(hours=1)
            agent.action = Action(
                event.text,
                data.get("address", ""),
                event.time,
                end,
                ActionKind.PLAN,
                data.get("emoji", ""),
            )
        elif kind is EventKind.MOVE:
            agent.path = [tuple(t) for t in data.get("path", [])]
        elif kind is EventKind.WAKE:
            agent.asleep = False
        elif kind is EventKind.SLEEP:
            agent.asleep = True

    def _conversation(self, event: Event) -> None:
        names = tuple(event.data.get("participants", ()))
        lines = tuple(Utterance(s, t) for s, t in event.data.get("lines", ()))
        if len(names) != 2:
            return
        talk = Conversation((names[0], names[1]), lines, event.time)
        for name in names:
            if name in self.agents:
                self.agents[name].conversation = talk
                self.agents[name].path = []

    # -- the rest of what the window reads (SimView) ------------------------------------
    def thinking(self, name: str) -> bool:
        return False  # nobody thinks in a replay: every decision is in the log

    def object_state(self, address: str) -> ObjectState:
        return ObjectState(address, self.town.state(address), self._set_by.get(address, ""))

    def brain_label(self) -> str:
        return f"replay of a recorded run ({self.source.brain_name} brain): no model calls"

    def model_usage(self) -> Usage:
        """What the recorded run spent; the replay itself calls no model."""
        return self.source.model_usage()

    def notices(self) -> tuple[str, ...]:
        return ()

    def pace(self) -> Pace:
        return Pace()  # a replay never waits for a model

    def close(self) -> None:
        self.source.close()

    def run_until(self, end: datetime) -> None:
        while self.now < end and not self.finished:
            self.step()
