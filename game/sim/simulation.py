"""The simulation: town + agents + clock, stepped on one thread.

Each step: apply the decisions that came back from the thread pool, advance the clock,
end finished actions, move agents one tile along their paths, let them perceive, and
start a cognition job for every agent that needs one and has none in flight. In lockstep
mode the step first waits for every job (deterministic); in real-time mode it never waits.

`Simulation` orchestrates that step and is what the screen reads (a SimView); the work
is done by collaborators, each importing only those before it:

- `state.SimState`: the clock, steps, object states and their setters, the event log;
- `actions.Actions`: routes, goal tiles, spots, capacity, opening hours;
- `player.Player`: the player's commands (given the state and the actions);
- `sight.Sight`: who sees whom and what;
- `decisions.Decisions`: which jobs are due, ask-ahead, prepared answers (returned as
  effects, not applied);
- `appliers.Appliers`: the effect table, memory writes, conversations.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from game.brains.protocol import Brain, Embedder, answers_locally
from game.core.clock import Clock
from game.core.records import Utterance
from game.mind.agent import Agent
from game.mind.cognition import Mind, Surroundings, foresee, standing_queries
from game.mind.dialogue import understander_for
from game.mind.effects import Effect
from game.sim.actions import Actions
from game.sim.apart import Apart, Group
from game.sim.appliers import PERCEIVED, Appliers
from game.sim.config import (
    INSTANT,
    MIN_AHEAD_STEPS,
    MODEL_TIMING,
    WAKE_AHEAD_STEPS,
    ClockMode,
    SimConfig,
    Timing,
    stable_index,
)
from game.sim.decisions import LANES, Decisions
from game.sim.events import EventLog
from game.sim.health import NOTICE_AFTER, JobHealth
from game.sim.nearby import Grid
from game.sim.pace import Pace, PaceMeter
from game.sim.player import Player, PlayerContext, Visitor
from game.sim.player import idle as player_idle
from game.sim.scheduler import Scheduler
from game.sim.setup import make_agent
from game.sim.sight import Sight
from game.sim.solitude import Solitude
from game.sim.spots import Spots
from game.sim.state import SimState
from game.sim.view import (
    ObjectState,
    Usage,
    brain_fatal,
    brain_label,
    brain_notices,
    brain_usage,
    close_brain,
)
from game.world.pathfinding import PathFinder
from game.world.scenario import Scenario
from game.world.town import Town

__all__ = [  # what callers have always imported from here
    "INSTANT",
    "LANES",
    "MIN_AHEAD_STEPS",
    "MODEL_TIMING",
    "NOTICE_AFTER",
    "PERCEIVED",
    "WAKE_AHEAD_STEPS",
    "ClockMode",
    "JobHealth",
    "SimConfig",
    "Simulation",
    "Timing",
    "stable_index",
]

MAX_PACE_SECONDS = 1.0  # the most real time one step counts for on the pace meter


class Simulation:
    """Owns the world. The UI reads it (it is a SimView) and sends commands through
    `player`; it never calls the UI."""

    def __init__(
        self,
        scenario: Scenario,
        town: Town,
        brain: Brain,
        embedder: Embedder,
        config: SimConfig | None = None,
    ) -> None:
        self.scenario, self.town = scenario, town
        self._config = config or SimConfig()
        self.load_note = ""  # what loading its save lost, said to the player (saves.load_game)
        words = understander_for(town, scenario.residents, scenario.intents)
        self._mind = Mind(brain, embedder, self.config.mind, scenario.intents, words)
        self.state = SimState(town, Clock(scenario.start, self.config.step_seconds))
        self.scheduler = Scheduler(self.config.workers)
        self.scheduler.delay = max(1, self.config.timing.decision_steps)
        self._inline()
        dim = self.mind.embedder.dim
        self.agents: dict[str, Agent] = {
            r.name: make_agent(town, r, self.now, dim) for r in scenario.residents
        }
        foresee(self.mind, standing_queries(sorted(self.agents)))
        self.actions = Actions(self.state, self.agents, self.mind)
        self.nearby = Grid(self.agents.values(), self.config.mind.vision_radius)
        self.player = Player(
            PlayerContext(
                self.state, self.actions, self.agents, self.scheduler, self.mind, self.nearby
            )
        )
        self.jobs = JobHealth()
        self.sight = Sight(
            self.state, self.agents, self.actions, self.player, self.config.mind, self.nearby
        )
        radius = self.config.mind.vision_radius
        self.scheduler.alone = Solitude(self.agents, self.nearby, self.player, radius)
        town_parts = (self.state, self.agents, self.actions)
        run_parts = (self.player, self.scheduler, self.mind, self.config, self.jobs)
        self.decisions = Decisions(*town_parts, *run_parts)
        self.appliers = Appliers(*town_parts, self.decisions, *run_parts)
        parts = (self.sight, self.decisions, self.appliers, self.scheduler)
        self.apart = Apart(*town_parts, *parts, radius, self.config.timing)
        self.apart.on_step = self._meter_group
        self.pace_meter = PaceMeter()
        self.wall_clock: Callable[[], float] = time.monotonic  # real time, for the pace
        self._wall_last: float | None = None
        # Called each step once the clock has moved, before anyone walks or looks: a
        # script's interventions (game/sim/script.py) land at their game minute.
        self.on_tick: list[Callable[[Simulation], None]] = []

    # -- the collaborators' parts callers read ------------------------------------------
    @property
    def mind(self) -> Mind:
        return self._mind

    @mind.setter
    def mind(self, mind: Mind) -> None:
        """A run (or a test) may give the town another mind: every collaborator takes it."""
        self._mind = mind
        for part in (self.actions, self.decisions, self.appliers):
            part.mind = mind
        self.player.ctx = replace(self.player.ctx, mind=mind)
        self._inline()

    @property
    def config(self) -> SimConfig:
        return self._config

    @config.setter
    def config(self, config: SimConfig) -> None:
        """The window switches a run to real time: every collaborator reads the new one."""
        self._config = config
        self.decisions.config = self.appliers.config = config
        self.apart.timing = config.timing
        self.sight.settings = config.mind
        self._inline()

    def _inline(self) -> None:
        """In lockstep with a brain that only computes, jobs run as they are submitted,
        on this thread (the clock would wait for them anyway); in real time they stay on
        the pool, so the window's frames never wait for a decision."""
        lockstep = self.config.mode is ClockMode.LOCKSTEP
        self.scheduler.inline = lockstep and answers_locally(self.mind.brain)

    @property
    def now(self) -> datetime:
        return self.state.now

    @property
    def clock(self) -> Clock:
        return self.state.clock

    @property
    def steps(self) -> int:
        return self.state.steps

    @property
    def log(self) -> EventLog:
        return self.state.log

    @property
    def state_by(self) -> dict[str, str]:
        """Object address -> who set its current state."""
        return self.state.state_by

    @property
    def spots(self) -> Spots:
        return self.actions.spots

    @property
    def finder(self) -> PathFinder:
        return self.actions.finder

    def surroundings(self) -> Surroundings:
        return self.actions.surroundings()

    def stop(self, agent: Agent) -> None:
        """Stop walking; logged, so a replay stops the agent at the same tile."""
        self.actions.stop(agent)

    def apply_effect(self, effect: Effect) -> None:
        """Store what a job remembered, then do what its kind of job does."""
        self.appliers.apply_effect(effect)

    def settle_memories(self) -> None:
        """Embed every memory still without a vector (a save holds every vector)."""
        self.appliers.settle_memories()

    def get_state(self) -> dict[str, Any]:
        """The town's state and the player's, plain JSON (the residents are saved apart,
        their memory arrays beside the document: game.sim.saves)."""
        return {**self.state.get_state(), **self.player.get_state()}

    def set_state(self, doc: dict[str, Any]) -> None:
        """Take up a saved state; the scheduler counts steps on from the saved one."""
        self.state.set_state(doc)
        self.scheduler.step = self.state.steps
        self.player.set_state(doc)

    # -- what the screen reads (SimView) ------------------------------------------------
    @property
    def step_seconds(self) -> int:
        return self.config.step_seconds

    @property
    def visitor(self) -> Visitor | None:
        return self.player.visitor

    @visitor.setter
    def visitor(self, visitor: Visitor | None) -> None:  # a save restores it
        self.player.visitor = visitor

    @property
    def chats(self) -> dict[str, list[Utterance]]:
        return self.player.chats

    @chats.setter
    def chats(self, chats: dict[str, list[Utterance]]) -> None:  # a save restores them
        self.player.chats = chats

    @property
    def recorded(self) -> bool:
        return False

    def thinking(self, name: str) -> bool:
        """Whether a decision for this resident is on its way (a job in flight)."""
        return self.scheduler.busy(name)

    def object_state(self, address: str) -> ObjectState:
        setter = self.state.state_by.get(address, "")
        return ObjectState(address, self.town.state(address), setter)

    def brain_label(self) -> str:
        return brain_label(self.mind.brain)

    @property
    def brain_name(self) -> str:
        return self.mind.brain.name

    def model_usage(self) -> Usage:
        return Usage.of(self.usage())

    def notices(self) -> tuple[str, ...]:
        return brain_notices(self.mind.brain) + tuple(self.jobs.notices)

    def fatal(self) -> str:
        """Why the run must stop ('' to go on): the brain's strict mode or a replay miss."""
        return brain_fatal(self.mind.brain)

    # -- the step ------------------------------------------------------------------
    def step(self) -> None:
        lockstep = self.config.mode is ClockMode.LOCKSTEP
        self._meter_pace(lockstep)  # the time since the last step: who waited for the brain
        for finished in self.scheduler.collect(block=lockstep, step=self.steps):
            self.appliers.apply(finished)
        self.state.tick()
        self.scheduler.step = self.steps
        for hook in self.on_tick:
            hook(self)
        for name in sorted(self.agents):
            self.actions.advance(self.agents[name])
        self.actions.enforce_hours()
        self.player.expire_chats()
        self.sight.perceive_all()
        self.player.submit_jobs()
        for decided in self.decisions.schedule():
            for effect in decided:  # a prepared answer the resident got to
                self.appliers.apply_effect(effect)

    def _meter_pace(self, lockstep: bool) -> None:
        """Residents awake (or due to wake) since the last step, and those of them standing
        still for a decision, weighted by the real time that passed. In real time a
        resident waits for the brain only while its decision is still being worked out: a
        job done before this step came is the step's own delay, not the brain's. In
        lockstep the clock itself waits, so every resident standing still counts."""
        seconds = self._pace_seconds(lockstep)
        out = None if lockstep else self.scheduler.deciding()
        waiting = awake = 0
        for agent in self.agents.values():
            stands = self.decisions.needs_decision(agent)
            waiting += stands and (out is None or agent.name in out)
            awake += stands or not agent.asleep
        if self.steps:
            self.pace_meter.record(waiting, awake, seconds)

    def _meter_group(self, group: Group) -> None:
        """A group stepping apart took a step: its residents' share of the pace meter,
        as the lockstep step counts every resident (all of them standing still for a
        decision count as waiting: the group's clock waited for them)."""
        waiting = awake = 0
        for name in group:
            agent = self.agents[name]
            stands = self.decisions.needs_decision(agent)
            waiting += stands
            awake += stands or not agent.asleep
        self.pace_meter.record(waiting, awake, self.step_seconds / 60)

    def _pace_seconds(self, lockstep: bool) -> float:
        """The real time one step stood for: since the last step in real time (at most a
        second: a pause or a stalled frame is nobody's waiting), what it takes at 1x in
        lockstep."""
        if lockstep:
            self._wall_last = None
            return self.step_seconds / 60
        now = self.wall_clock()
        last, self._wall_last = self._wall_last, now
        return 0.0 if last is None else min(MAX_PACE_SECONDS, max(0.0, now - last))

    def pace(self) -> Pace:
        return self.pace_meter.pace(model=self.brain_name != "scripted")

    def run_until(self, end: datetime, progress: Callable[[Simulation], None] | None = None):
        while self.now < end:
            steps = self._apart_steps(end)
            if steps < 2:
                self.step()
                if progress is not None:
                    progress(self)
                continue
            self.apart.run(steps, self.step_seconds, (lambda: progress(self)) if progress else None)
        if self.config.mode is ClockMode.LOCKSTEP:
            for finished in self.scheduler.collect(block=True, step=self.steps):
                self.appliers.apply(finished)
            self.scheduler.settle()  # the same bill whatever the threads did

    def _apart_steps(self, end: datetime) -> int:
        """How many steps residents step apart for (game.sim.apart): up to `end`; 1
        (lockstep) in real time, with a script's hooks, while the player is about, or
        with the timing's apart_steps under 2."""
        if self.config.timing.apart_steps < 2 or self.config.mode is not ClockMode.LOCKSTEP:
            return 1
        if self.on_tick or not player_idle(self.player):
            return 1
        return max(1, -(-int((end - self.now).total_seconds()) // self.step_seconds))

    def usage(self) -> dict:
        """Model usage so far, the run report's section (zeros for a brain with no model)."""
        return brain_usage(self.mind.brain)

    def close(self) -> None:
        """Stop the thread pool, then let the brain flush its audit log and cache."""
        self.scheduler.shutdown()
        close_brain(self.mind.brain)
