"""Replay: a recorded run played back from its event log, with no model calls.

A Replay looks to the game window like a Simulation (the same attributes the window
reads), but its step() only re-applies logged events: actions, paths walked one tile a
step, conversations, object states, sleep and waking. The player's commands are refused.
"""

from __future__ import annotations

from datetime import timedelta

from game.core.clock import Clock
from game.core.errors import SmallvilleError
from game.core.records import Utterance
from game.mind.agent import Action, ActionKind, Agent, Conversation
from game.sim.events import Event, EventKind, EventLog

READ_ONLY = "this is a replay of a recorded run: the residents cannot be changed"


class _NoJobs:
    pending = 0

    def busy(self, name: str) -> bool:
        return False

    def shutdown(self) -> None:
        return None


class Replay:
    """Plays `sim`'s event log from the scenario's start; `sim` is a loaded save."""

    def __init__(self, sim) -> None:
        self.recorded = sim
        self.scenario, self.town, self.config, self.mind = (
            sim.scenario,
            sim.town,
            sim.config,
            sim.mind,
        )
        self.end = sim.now
        self.events: list[Event] = list(sim.log.events)
        self._next = 0
        self.log = EventLog()
        self.scheduler = _NoJobs()
        self.visitor = None
        self.steps = 0
        self.clock = Clock(sim.scenario.start, sim.config.step_seconds)
        for address, area in ((a, self.town.areas[a]) for a in self.town.states):
            self.town.states[address] = area.default_state
        self.agents: dict[str, Agent] = {}
        for name, final in sim.agents.items():
            fresh = sim._make_agent(final.persona)  # where the run began
            fresh.memory = final.memory  # the inspector shows the memories as saved
            fresh.seeded = True
            self.agents[name] = fresh

    @property
    def now(self):
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
            dx, dy = nxt[0] - agent.pos[0], nxt[1] - agent.pos[1]
            if dx or dy:
                agent.facing = (
                    ("right" if dx > 0 else "left") if dx else ("down" if dy > 0 else "up")
                )
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

    # -- what the window asks of a simulation ------------------------------------------
    def usage(self) -> dict:
        return self.recorded.usage()

    def brain_label(self) -> str:
        return f"replay of a recorded run ({self.mind.brain.name} brain): no model calls"

    def close(self) -> None:
        self.recorded.close()

    def run_until(self, end, progress=None) -> None:
        while self.now < end and not self.finished:
            self.step()

    def _refuse(self, *args, **kwargs):
        raise SmallvilleError(READ_ONLY)

    visitor_say = interview = inner_voice = set_object_state = move_visitor = _refuse

    def chat_lines(self, resident: str) -> list:
        return []

    def chat_pending(self, resident: str) -> bool:
        return False

    def visitor_near(self, resident: str) -> bool:
        return False
