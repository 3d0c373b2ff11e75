"""The simulation: town + agents + clock, stepped on one thread.

Each step: apply the decisions that came back from the thread pool, advance the clock,
end finished actions, move agents one tile along their paths, let them perceive, and
start a cognition job for every agent that needs one and has none in flight. In lockstep
mode the step first waits for every job (deterministic); in real-time mode it never waits.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

import numpy as np

from game.brains.protocol import Brain, Embedder
from game.core.clock import Clock, minute_of_day
from game.core.mind_settings import MindSettings
from game.core.records import MemoryKind, Observation, Source, Utterance
from game.core.text import single_line as clean_line
from game.mind import facts
from game.mind.agent import Action, ActionKind, Agent, Conversation
from game.mind.cognition import (
    Mind,
    Surroundings,
    converse_job,
    decide_job,
    foresee,
    next_action_job,
    perceive_job,
    prepare_next_job,
    prepare_wake_job,
    reflect_job,
    seed_job,
    standing_queries,
    wake_job,
)
from game.mind.dialogue import understander_for
from game.mind.effects import (
    Conversed,
    Effect,
    InnerVoiced,
    JobKind,
    NextAction,
    Perceived,
    Prepared,
    Reflected,
    Seeded,
    VisitorReplied,
    Woke,
)
from game.mind.perception import Sighting, attend, distance_to
from game.mind.plan import DayPlan
from game.sim.events import EventKind, EventLog, answered_by
from game.sim.pace import Pace, PaceMeter
from game.sim.player import EditSource, Player, PlayerContext, Visitor
from game.sim.scheduler import Finished, Lane, Scheduler
from game.sim.setup import facing, make_agent
from game.sim.spots import Spots
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
from game.world.town import SEP, AreaKind, Town, sector_of, split
from game.world.troubles import Trouble, fix_of, trouble

NOTICE_AFTER = 3  # failed jobs of one resident before a person is told
MAX_PACE_SECONDS = 1.0  # the most real time one step counts for on the pace meter


@dataclass
class JobHealth:
    """Failed cognition jobs: how many, whose, and which were lost for good.

    A failed seeding is retried (after a wait that doubles, up to 30 game minutes) and is
    lost only if the run ends before it succeeds; any other failed job lost its decision
    (the agent simply decides again). The run's report and exit code read `lost`."""

    failed_total: int = 0
    lost_total: int = 0
    by_agent: dict[str, int] = field(default_factory=dict)
    unseeded: set[str] = field(default_factory=set)
    notices: list[str] = field(default_factory=list)
    retry_at: dict[str, datetime] = field(default_factory=dict)

    def failed(self, agent: str, label: str, now: datetime, problem: str) -> None:
        self.failed_total += 1
        n = self.by_agent[agent] = self.by_agent.get(agent, 0) + 1
        if label == JobKind.SEED.value:
            self.unseeded.add(agent)
            self.retry_at[agent] = now + timedelta(minutes=min(30, 2 ** min(n - 1, 5)))
        else:
            self.lost_total += 1
        if n == NOTICE_AFTER:
            self.notices.append(
                f"{agent}'s thinking keeps failing ({n} jobs so far; last: {problem}); "
                "see the event log"
            )

    def seeded(self, agent: str) -> None:
        self.unseeded.discard(agent)
        self.retry_at.pop(agent, None)

    def waiting(self, agent: str, now: datetime) -> bool:
        """Whether a failed seeding is still waiting for its retry."""
        at = self.retry_at.get(agent)
        return at is not None and now < at

    @property
    def lost(self) -> int:
        """Jobs whose work is gone: failed ones, and seedings still not done."""
        return self.lost_total + len(self.unseeded)

    def report(self) -> dict[str, Any]:
        return {
            "failed": self.failed_total,
            "lost": self.lost,
            "unseeded": sorted(self.unseeded),
            "failed_by_agent": dict(sorted(self.by_agent.items())),
        }


# The scheduler lane of each kind of an agent's own job (the rest are decisions).
LANES = {JobKind.PERCEIVE: Lane.THOUGHT, JobKind.REFLECT: Lane.THOUGHT}


class ClockMode(Enum):
    LOCKSTEP = "lockstep"  # wait for every decision each step: deterministic
    REALTIME = "realtime"  # never wait: the window keeps its frame rate


@dataclass(frozen=True)
class Timing:
    """How many steps lockstep lets each kind of job take, and whether decisions are asked
    ahead. Why it matters: lockstep stops the clock for a job that is due and not done, so
    a model's seconds become wall time unless many calls overlap. A longer allowance lets
    them overlap; asking the next decision while the current action runs hides it.

    - `decision_steps`: a decision the agent stands still for (waking, the next action
      when none was asked ahead), and the player's jobs;
    - `talk_steps`: the lines of a conversation, while the two greet each other;
    - `thought_steps`: perceiving and deciding whether to react, which happen while the
      agent goes on with what it does (a sight out of the ordinary, like a stove left
      burning, gets `decision_steps`); reflecting, which nothing waits for, gets twice
      as long;
    - `ask_ahead`: ask the next action while the current one runs (and waking up during
      the night), used if the plan has not changed by then.
    """

    decision_steps: int = 1
    thought_steps: int = 1
    talk_steps: int = 1
    ask_ahead: bool = False


INSTANT = Timing()  # the scripted brain answers within the step
# A model: a game minute for a decision, three to start a conversation, ten for a
# thought (10-second steps).
MODEL_TIMING = Timing(decision_steps=6, thought_steps=60, talk_steps=18, ask_ahead=True)
# Asking ahead needs at least this many steps before the action ends to be worth it.
MIN_AHEAD_STEPS = 6
# Waking up is asked this close to it (two game hours), not at bedtime: the night's
# last hours are when the player might still whisper to a sleeper, and a run that ends
# at midnight does not pay for the next morning.
WAKE_AHEAD_STEPS = 720


@dataclass(frozen=True)
class SimConfig:
    seed: int = 0
    step_seconds: int = 10
    mode: ClockMode = ClockMode.LOCKSTEP
    workers: int = 8
    mind: MindSettings = field(default_factory=MindSettings)
    timing: Timing = field(default_factory=lambda: INSTANT)


# What counts towards the reflection trigger: events perceived (the paper), not the
# agent's own reflections and plans, which would otherwise trigger ever more reflection.
PERCEIVED = (MemoryKind.OBSERVATION, MemoryKind.CHAT)


def stable_index(key: str, n: int) -> int:
    """A deterministic choice among n (Python's hash() is salted per process)."""
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % max(1, n)


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
        self.config = config or SimConfig()
        words = understander_for(town, scenario.residents, scenario.intents)
        self.mind = Mind(brain, embedder, self.config.mind, scenario.intents, words)
        self._appliers = self._effect_appliers()
        self._job_makers = self._job_table()
        self.clock = Clock(scenario.start, self.config.step_seconds)
        self.finder = PathFinder(town.walkable)
        self.spots = Spots(town)  # distinct seats at tables, counters and benches
        self.scheduler = Scheduler(self.config.workers)
        self.scheduler.delay = max(1, self.config.timing.decision_steps)
        self._prepared: dict[str, Prepared] = {}  # decisions asked ahead, by agent
        self._ahead: dict[str, tuple[datetime, DayPlan]] = {}  # in flight: for when, from
        self.log = EventLog()
        self.steps = 0
        self.state_by: dict[str, str] = {}  # object address -> who set its current state
        self.state_since: dict[str, datetime] = {}  # object address -> when it took it
        self._troubled: dict[str, dict[str, Trouble]] = {}  # sector -> objects in trouble
        self._looks: dict[str, Observation] = {}  # name or address -> this step's look
        dim = self.mind.embedder.dim
        self.agents: dict[str, Agent] = {
            r.name: make_agent(town, r, self.now, dim) for r in scenario.residents
        }
        names = sorted(self.agents)
        foresee(self.mind, standing_queries(names))
        self.player = Player(self._player_context())
        self.jobs = JobHealth()
        self.pace_meter = PaceMeter()
        self.wall_clock: Callable[[], float] = time.monotonic  # real time, for the pace
        self._wall_last: float | None = None
        # Called each step once the clock has moved, before anyone walks or looks: a
        # script's interventions (game/sim/script.py) land at their game minute.
        self.on_tick: list[Callable[[Simulation], None]] = []
        self._objects_in: dict[str, list[str]] = {}
        for area in town.areas.values():
            if area.kind is AreaKind.OBJECT:
                self._objects_in.setdefault(area.parent or "", []).append(area.address)

    # -- set-up --------------------------------------------------------------------
    def _player_context(self) -> PlayerContext:
        return PlayerContext(
            self.town,
            self.agents,
            self.scheduler,
            self.mind,
            self.log,
            self.clock,
            self.stop,
            self._set_state,
        )

    @property
    def now(self) -> datetime:
        return self.clock.now

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
        return ObjectState(address, self.town.state(address), self.state_by.get(address, ""))

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
            self._apply(finished)
        self.clock.tick()
        self.steps += 1
        self.scheduler.step = self.steps
        for hook in self.on_tick:
            hook(self)
        for name in sorted(self.agents):
            self._advance(self.agents[name])
        self._enforce_hours()
        self.player.expire_chats()
        self._perceive_all()
        self.player.submit_jobs()
        self._schedule()

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
            stands = self._needs_decision(agent)
            waiting += stands and (out is None or agent.name in out)
            awake += stands or not agent.asleep
        if self.steps:
            self.pace_meter.record(waiting, awake, seconds)

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
            self.step()
            if progress is not None:
                progress(self)
        if self.config.mode is ClockMode.LOCKSTEP:
            for finished in self.scheduler.collect(block=True, step=self.steps):
                self._apply(finished)
            self.scheduler.settle()  # the same bill whatever the threads did

    def usage(self) -> dict:
        """Model usage so far, the run report's section (zeros for a brain with no model)."""
        return brain_usage(self.mind.brain)

    def close(self) -> None:
        """Stop the thread pool, then let the brain flush its audit log and cache."""
        self.scheduler.shutdown()
        close_brain(self.mind.brain)

    # -- time passing for one agent ---------------------------------------------------
    def _advance(self, agent: Agent) -> None:
        now = self.now
        if agent.conversation is not None and now >= agent.conversation.end:
            agent.conversation = None
            agent.action = None
        action = agent.action
        timed = action is not None and action.kind not in (ActionKind.SLEEP, ActionKind.CHAT)
        if timed and action.over(now):
            self._finish(agent, action)
        if agent.path:
            self._walk(agent)

    def _walk(self, agent: Agent) -> None:
        nxt = agent.path.pop(0)
        agent.facing = facing(nxt[0] - agent.pos[0], nxt[1] - agent.pos[1], agent.facing)
        agent.pos = nxt
        self._relocate(agent)
        if not agent.path:
            self._arrive(agent)

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
            agent.known.update(self._objects_in.get(where, ()))

    def _arrive(self, agent: Agent) -> None:
        action = agent.action
        if action is None:
            return
        self.log.add(self.now, EventKind.ARRIVE, agent.name, action.address)
        if action.kind is ActionKind.SLEEP:
            agent.asleep = True
            self.log.add(self.now, EventKind.SLEEP, agent.name, f"{agent.name} goes to sleep")
        if action.object_state:
            self._set_state(action.address, action.object_state, agent.name, keep_player=True)

    def _finish(self, agent: Agent, action: Action) -> None:
        """An action ends: its object goes back to rest, or is left fixed by a reaction (or
        by the rest of one taken up again from the plan, after an interruption)."""
        address = action.address
        fixes_to = action.fixes_to or (
            self.town.areas[address].default_state if self._fixing(action) else ""
        )
        if fixes_to and address in self.town.states and not agent.path:
            self._set_state(address, fixes_to, agent.name)
        elif action.object_state and self.state_by.get(address) == agent.name:
            default = self.town.areas[address].default_state
            self._set_state(address, default, agent.name)
        agent.action = None

    def _set_state(self, address: str, state: str, by: str, keep_player: bool = False) -> None:
        if address not in self.town.states:
            return
        old = self.town.state(address)
        if keep_player and self.state_by.get(address) == EditSource.PLAYER and old != state:
            return  # a player's edit stays until someone deals with it
        if old == state:
            return
        self.town.set_state(address, state)
        self.state_by[address] = by
        self.state_since[address] = self.now
        foresee(self.mind, [facts.render(facts.object_state(address, state), self.town)])
        self.log.add(
            self.now,
            EventKind.OBJECT_STATE,
            by,
            f"{address} is {state}",
            old=old,
            address=address,
            state=state,
        )

    def _enforce_hours(self) -> None:
        """Visitors still inside a place when it closes stop what they do there and leave."""
        minute = minute_of_day(self.now)
        for agent in self.agents.values():
            action = agent.action
            if action is None or action.kind in (ActionKind.SLEEP, ActionKind.CHAT):
                continue
            sector = self.town.areas.get(split(action.address)[0]) if action.address else None
            if sector is None or sector.is_open(minute):
                continue
            if sector.name in (agent.persona.workplace, agent.persona.home):
                continue
            self.stop(agent)
            self._finish(agent, action)

    # -- perception ---------------------------------------------------------------------
    def _perceive_all(self) -> None:
        awake = [a for a in self.agents.values() if not a.asleep and a.seeded]
        if not awake:
            return
        radius = self.config.mind.vision_radius
        self._index_troubles()
        self._looks = {}  # how a resident or an object looks this step: alike to every onlooker
        pos = np.array([a.pos for a in awake])
        apart = np.max(np.abs(pos[:, None, :] - pos[None, :, :]), axis=2)  # tiles, every pair
        for i, agent in enumerate(awake):
            if agent.conversation is not None:
                continue
            near = apart[i] <= radius
            sightings = [
                self._sight_agent(agent, other)
                for j, other in enumerate(awake)
                if near[j] and j != i and other.location == agent.location and other.action
            ]
            sightings += self._sight_objects(agent, radius)
            seen_visitor = self.player.sighting(agent, radius)
            if seen_visitor is not None:
                sightings.append(seen_visitor)
            new = attend(agent, self.now, sightings, self.config.mind)
            new += self.player.notices_seen(agent, radius)  # each notice read once
            if self.config.mind.ablation.memory:  # without memory nothing is kept
                agent.pending.extend(new)

    def _sight_agent(self, me: Agent, other: Agent) -> Sighting:
        d = max(abs(me.pos[0] - other.pos[0]), abs(me.pos[1] - other.pos[1]))
        obs = self._looks.get(other.name)
        if obs is None:
            obs = self._looks[other.name] = self._agent_observation(other)
        return Sighting(obs, d)

    def _agent_observation(self, other: Agent) -> Observation:
        fact = facts.doing(other.name, other.status, Source.SEEN)
        action = other.action
        kind = action.kind if action is not None else None
        if other.conversation is not None:
            kind = ActionKind.CHAT
        rated = action.importance if action is not None else 0
        return Observation(
            other.name, facts.render(fact), True, other.status, fact, kind, False, rated
        )

    def _sight_objects(self, agent: Agent, radius: int) -> list[Sighting]:
        """Objects at rest are furniture, not events; an agent notices one whose state is
        not its default (in use, brewing coffee, burning) within sight in its room. Trouble
        is noticed anywhere in the room, and from as many rooms away as it reaches (smoke
        and the sound of water reach the next room, then spread: game.world.troubles)."""
        troubled = self._troubled.get(sector_of(agent.location), {}) if agent.location else {}
        out = [self._sense(agent, a, t) for a, t in troubled.items()]
        out = [s for s in out if s is not None]
        for address in self._objects_in.get(agent.location, ()):
            area = self.town.areas[address]
            if address in troubled or self.town.state(address) == area.default_state:
                continue  # most objects are at rest: asked before the distance
            d = distance_to(area.rect, agent.pos)
            if d <= radius:
                out.append(self._object_sighting(address, d))
        return out

    def _sense(self, agent: Agent, address: str, what: Trouble) -> Sighting | None:
        """A trouble in the agent's building, if it reaches the agent's room by now."""
        apart = self.town.rooms_apart(agent.location, self.town.areas[address].parent or "")
        since = self.state_since.get(address)
        minutes = (self.now - since).total_seconds() / 60 if since is not None else 0.0
        if apart is None or apart > what.reach_after(minutes):
            return None
        d = distance_to(self.town.areas[address].rect, agent.pos)
        return replace(self._object_sighting(address, d), since=since, salient=True)

    def _object_sighting(self, address: str, d: int) -> Sighting:
        obs = self._looks.get(address)
        if obs is None:
            state = self.town.state(address)
            fact = facts.object_state(address, state)
            text = facts.render(fact, self.town)
            routine = self.state_by.get(address, "") in self.agents  # a resident's doing
            obs = Observation(address, text, False, state, fact, routine=routine)
            self._looks[address] = obs
        return Sighting(obs, d)

    def _tending(self, agent: Agent) -> Trouble | None:
        return self._fixing(agent.action)

    def _fixing(self, action: Action | None) -> Trouble | None:
        """The trouble an action deals with: it fixes the trouble its object is in (by the
        troubles table), whatever kind of action it is (a reaction, or its rest taken up
        again from the plan)."""
        if action is None or action.address not in self.town.states:
            return None
        found = trouble(self.town.state(action.address))
        return found if found is not None and fix_of(action.description) is found else None

    def _index_troubles(self) -> None:
        """Which objects are in trouble and left alone now, by building (once a step, for
        every agent): trouble someone is already dealing with is seen like anything else."""
        self._troubled = {}
        tended = {a.action.address for a in self.agents.values() if self._tending(a)}
        for address, state in self.town.states.items():
            if state == self.town.areas[address].default_state or address in tended:
                continue  # asked first: nearly every object is at rest, every step
            found = trouble(state)
            if found is not None:
                self._troubled.setdefault(sector_of(address), {})[address] = found

    # -- scheduling ------------------------------------------------------------------------
    def surroundings(self) -> Surroundings:
        occupancy: dict[str, int] = {}
        targets: dict[str, str] = {}
        for agent in self.agents.values():
            if agent.action is None or not agent.action.address:
                continue
            targets[agent.name] = agent.action.address
            parts = split(agent.action.address)
            for depth in range(1, len(parts) + 1):
                key = SEP.join(parts[:depth])
                occupancy[key] = occupancy.get(key, 0) + 1
        return Surroundings(self.town, dict(self.town.states), occupancy, targets)

    def _talkable(self, agent: Agent) -> frozenset[str]:
        """Whom the agent may start talking to: nobody while dealing with trouble."""
        cooldown = timedelta(minutes=self.config.mind.conversation_cooldown_minutes)
        out: list[str] = []
        if self._tending(agent) is not None:
            return frozenset(out)
        for obs in agent.pending:
            v = self.visitor
            if v is not None and obs.subject == v.name and not v.talking_to:
                if obs.subject not in agent.last_chat and self.player.visitor_near(agent.name):
                    out.append(v.name)  # near enough for the visitor to answer
                continue
            other = self.agents.get(obs.subject)
            if other is None or other.asleep or other.conversation is not None:
                continue
            if self.player.chatting(other.name):
                continue  # talking with the visitor
            if self.scheduler.busy(other.name) or other.action is None:
                continue
            if self._tending(other) is not None:
                continue  # putting out a fire is no time for a chat
            last = agent.last_chat.get(other.name)
            if last is None or self.now - last >= cooldown:
                out.append(other.name)
        return frozenset(out)

    def _needs(self, agent: Agent) -> list[JobKind]:
        """The jobs an agent needs now: a decision, a thought, or one of each."""
        if not agent.seeded:
            return [JobKind.SEED]
        action = agent.action
        if agent.conversation is not None or (action and action.kind is ActionKind.CHAT):
            return []
        if action is not None and action.kind is ActionKind.SLEEP and action.over(self.now):
            return [JobKind.WAKE]
        if agent.asleep:
            return []
        needs = [JobKind.NEXT_ACTION] if action is None else []
        threshold = self.config.mind.reflection_threshold
        if agent.pending and self.config.mind.ablation.memory:
            needs.append(JobKind.PERCEIVE)
        elif agent.reflect_pool >= threshold and self.config.mind.ablation.reflection:
            needs.append(JobKind.REFLECT)
        return needs

    def _schedule(self) -> None:
        world = None
        for name in sorted(self.agents):
            agent = self.agents[name]
            if self._use_prepared(agent) or self._awaiting_ahead(agent):
                continue
            if self.jobs.waiting(name, self.now):
                continue
            if agent.seeded and agent.asleep and not self.scheduler.preparing(name):
                self._ask_ahead(agent)  # waking up, once it is near
            for need in self._needs(agent):
                if self.scheduler.busy(name, LANES.get(need, Lane.MAIN)):
                    continue
                world = world or self.surroundings()
                self._submit(agent, need, world)

    def _submit(self, agent: Agent, need: JobKind, world: Surroundings) -> None:
        """Start the job an agent needs, with the arguments that kind of job reads."""
        delay = self._delay(agent, need)  # before the job's arguments take the sightings
        job, args = self._job_makers[need](agent, world)
        lane = LANES.get(need, Lane.MAIN)
        self.scheduler.submit(
            (agent.name,), need.value, job, self.mind, *args, delay=delay, lane=lane
        )

    def _delay(self, agent: Agent, need: JobKind) -> int:
        """A thought may take longer than a decision, unless something unusual was seen
        (a stove left burning): that reaction should not wait."""
        timing = self.config.timing
        if need is JobKind.REFLECT:
            return 2 * timing.thought_steps
        if need is JobKind.PERCEIVE:
            unusual = any(not o.is_agent and not o.routine for o in agent.pending)
            return timing.decision_steps if unusual else timing.thought_steps
        return timing.decision_steps

    # -- decisions asked ahead ------------------------------------------------------------
    def _ask_ahead(self, agent: Agent) -> None:
        """Ask the decision that follows the action just started, due when it ends: the
        next action, or waking up (and the day's first action) for a night's sleep."""
        action = agent.action
        if not self.config.timing.ask_ahead or action is None:
            return
        held = self._prepared.get(agent.name)
        if held is not None and held.at == action.end and held.base is agent.plan:
            return  # already asked
        ahead = self._ahead.get(agent.name)
        if ahead is not None and ahead[0] == action.end and ahead[1] is agent.plan:
            return  # being asked
        self.scheduler.drop(agent.name, Lane.AHEAD)  # asked for an action since replaced
        self._ahead.pop(agent.name, None)
        steps = -(-int((action.end - self.now).total_seconds()) // self.step_seconds)
        sleep = action.kind is ActionKind.SLEEP
        if steps < MIN_AHEAD_STEPS or (sleep and steps > WAKE_AHEAD_STEPS):
            return
        job = prepare_wake_job if sleep else prepare_next_job
        snap = replace(agent.snapshot(action.end), action=None if not sleep else action)
        self._prepared.pop(agent.name, None)
        self._ahead[agent.name] = (action.end, agent.plan)
        self.scheduler.submit(
            (agent.name,),
            JobKind.PREPARE.value,
            job,
            self.mind,
            snap,
            self.surroundings(),
            delay=steps,
            lane=Lane.AHEAD,
        )

    def _use_prepared(self, agent: Agent) -> bool:
        """Start the decision asked ahead if the agent has got to it with the plan it was
        made from; a stale one is dropped (the agent is asked again the usual way)."""
        prepared = self._prepared.get(agent.name)
        if prepared is None or not self._needs_decision(agent):
            return False
        del self._prepared[agent.name]
        if prepared.base is not agent.plan or prepared.at is None or self.now < prepared.at:
            return False
        first = prepared.decisions[0]
        if isinstance(first, NextAction) and first.action is not None:
            if self.now >= first.action.end or agent.asleep:
                return False
        elif not isinstance(first, Woke) or not agent.asleep:
            return False
        if prepared.then is not None:  # held first, so the action's start asks no more
            self._prepared[agent.name] = prepared.then
        for decision in prepared.decisions:
            self.apply_effect(decision)
        return True

    def _needs_decision(self, agent: Agent) -> bool:
        """Awake with nothing to do, or at the end of a night's sleep: standing still
        until a decision comes back."""
        if not agent.seeded or agent.conversation is not None:
            return False
        action = agent.action
        if action is None:
            return not agent.asleep
        return action.kind is ActionKind.SLEEP and action.over(self.now)

    def _awaiting_ahead(self, agent: Agent) -> bool:
        """In real time the question asked ahead may still be out when the agent gets
        there: wait for it rather than ask the same question twice."""
        ahead = self._ahead.get(agent.name)
        if ahead is None or not self.scheduler.preparing(agent.name):
            return False
        at, base = ahead
        return base is agent.plan and at <= self.now and self._needs_decision(agent)

    def _job_table(self) -> dict[JobKind, Callable[[Agent, Surroundings], tuple[Any, tuple]]]:
        """What each kind of an agent's own job runs, and with what (taken on this thread)."""
        return {
            JobKind.SEED: lambda a, w: (seed_job, (a.snapshot(self.now),)),
            JobKind.WAKE: lambda a, w: (wake_job, (a.snapshot(self.now), self.town)),
            JobKind.PERCEIVE: self._perceive_args,
            JobKind.REFLECT: self._reflect_args,
            JobKind.NEXT_ACTION: lambda a, w: (self._decide, (a.snapshot(self.now), w)),
        }

    @property
    def _decide(self) -> Callable[..., Any]:
        """With a model, the next action comes with the one after it when it is short."""
        return decide_job if self.config.timing.ask_ahead else next_action_job

    def _perceive_args(self, agent: Agent, world: Surroundings) -> tuple[Any, tuple]:
        snap, talkable = agent.snapshot(self.now), self._talkable(agent)
        observations, agent.pending = tuple(agent.pending), []
        return perceive_job, (snap, world, observations, talkable)

    def _reflect_args(self, agent: Agent, world: Surroundings) -> tuple[Any, tuple]:
        agent.reflect_pool = 0
        return reflect_job, (agent.snapshot(self.now),)

    # -- applying effects --------------------------------------------------------------
    def _apply(self, finished: Finished) -> None:
        if finished.lane is Lane.AHEAD:
            self._ahead.pop(finished.agents[0], None)
        if finished.error is not None:
            self._job_failed(finished)
            return
        results = finished.result
        for effect in results if isinstance(results, list) else [results]:
            self.apply_effect(effect)

    def apply_effect(self, effect: Effect) -> None:
        """Store what a job remembered, then do what its kind of job does."""
        agent = self.agents.get(effect.agent)
        if agent is None or self._overtaken(agent, effect):
            return
        self._store(agent, effect)
        self._appliers[effect.job](agent, effect)

    def _overtaken(self, agent: Agent, effect: Effect) -> bool:
        """A next action that arrives after the agent already found something to do (a
        reaction from its thoughts, which run beside its decisions) is dropped whole,
        memory included: the agent never did it."""
        return isinstance(effect, NextAction) and agent.action is not None

    def _job_failed(self, finished: Finished) -> None:
        """A failed job costs the agent some waiting, never the run nor its memories: the
        agent is left in a safe state, a failed seeding is tried again (never marked done),
        and repeated failures become a notice a person sees and the report counts."""
        err = finished.error
        problem = clean_line(f"{type(err).__name__}: {err}", 200)
        if finished.lane is Lane.AHEAD:  # nothing lost: the agent is asked when it gets there
            for name in finished.agents:
                self.log.add(self.now, EventKind.ERROR, name, f"asking ahead failed: {problem}")
            return
        for name in finished.agents:
            agent = self.agents.get(name)
            if agent is None:
                continue
            self.log.add(self.now, EventKind.ERROR, name, f"{finished.label} failed: {problem}")
            self.jobs.failed(name, finished.label, self.now, problem)
            if agent.conversation is None and not agent.asleep and agent.seeded:
                end = self.now + timedelta(minutes=1)
                desc = "pausing to collect their thoughts"
                agent.action = Action(desc, agent.location, self.now, end, ActionKind.WAIT, "💭")

    def _effect_appliers(self) -> dict[JobKind, Callable[[Agent, Any], None]]:
        """What each kind of job's effect does to its agent, beyond storing memories."""
        return {
            JobKind.SEED: self._seeded,
            JobKind.WAKE: self._wake,
            JobKind.NEXT_ACTION: self._next_action,
            JobKind.PERCEIVE: self._perceived,
            JobKind.REFLECT: self._reflected,
            JobKind.CONVERSE: self._conversed,
            JobKind.VISITOR: self._visitor_replied,
            JobKind.INNER_VOICE: self._inner_voiced,
            JobKind.PREPARE: self._hold_prepared,
        }

    def _seeded(self, agent: Agent, e: Seeded) -> None:
        agent.seeded = True
        self.jobs.seeded(agent.name)
        if agent.action is not None and agent.action.kind is ActionKind.SLEEP:
            self._ask_ahead(agent)  # the first morning, asked during the night

    def _next_action(self, agent: Agent, e: NextAction) -> None:
        agent.plan = e.plan
        if e.action is not None:
            self._start_action(agent, e.action)

    def _hold_prepared(self, agent: Agent, e: Prepared) -> None:
        self._prepared[agent.name] = e

    def _perceived(self, agent: Agent, e: Perceived) -> None:
        talking = agent.conversation is not None
        if talking or (agent.action is not None and agent.action.kind is ActionKind.CHAT):
            return  # a conversation began meanwhile: what was seen is only remembered
        if agent.asleep:
            return
        if e.plan is not None:
            agent.plan = e.plan
        if e.action is not None:
            self._start_action(agent, e.action, e.note)
        elif e.talk_to:
            self._request_talk(agent, e.talk_to)

    def _reflected(self, agent: Agent, e: Reflected) -> None:
        agent.reflections += 1
        insights = [m.text for m in e.memories]
        self.log.add(self.now, EventKind.REFLECTION, agent.name, "reflects", insights=insights)

    def _conversed(self, agent: Agent, e: Conversed) -> None:
        if e.plan is not None:
            agent.plan = e.plan
        if e.conversation is not None:
            self._start_conversation(agent, e.conversation)

    def _visitor_replied(self, agent: Agent, e: VisitorReplied) -> None:
        if e.reply is not None:
            self.player.apply_reply(agent.name, e.reply)

    def _inner_voiced(self, agent: Agent, e: InnerVoiced) -> None:
        if e.plan is not None:
            agent.plan = e.plan
        if agent.action is not None and agent.action.kind is ActionKind.PLAN:
            self._finish(agent, agent.action)

    def _store(self, agent: Agent, e: Effect) -> None:
        stream = agent.memory
        if not self.config.mind.ablation.memory:
            return
        if e.touched:
            stream.touch(e.touched, self.now)
        for m in e.memories:
            evidence = tuple(i for i in m.evidence if i < len(stream))
            stream.add(m.kind, m.text, self.now, m.importance, m.embedding, m.fact, evidence)
            if m.kind in PERCEIVED:
                agent.reflect_pool += m.importance
        self._fill_known_vectors(agent)

    def _fill_known_vectors(self, agent: Agent) -> None:
        """Vectors some retrieval has fetched since (the embedder keeps them) go into the
        stream, so later retrievals need not send those texts again; the rest ride along
        with the next embedding request anyone sends."""
        stream = agent.memory
        missing = stream.missing()
        if not missing:
            return
        embedder = self.mind.embedder
        known = embedder.peek([stream.text(i) for i in missing])
        stream.fill({i: known[stream.text(i)] for i in missing if stream.text(i) in known})
        embedder.later([stream.text(i) for i in stream.missing()])  # ride the next request

    def settle_memories(self) -> None:
        """Embed every memory still without a vector, in one request: a save holds every
        vector, so a loaded game never meets a half-embedded stream."""
        pending = [(a, i) for a in self.agents.values() for i in a.memory.missing()]
        if not pending:
            return
        texts = list(dict.fromkeys(a.memory.text(i) for a, i in pending))
        vectors = dict(zip(texts, self.mind.embedder.embed(texts), strict=True))
        for agent in self.agents.values():
            stream = agent.memory
            stream.fill({i: vectors[stream.text(i)] for i in stream.missing()})

    def _wake(self, agent: Agent, e: Woke) -> None:
        agent.summary, agent.summary_day = e.summary, e.summary_day
        agent.asleep = False
        agent.woke_on = self.now.date().isoformat()
        agent.plan = e.plan
        if agent.action is not None and agent.action.kind is ActionKind.SLEEP:
            self._finish(agent, agent.action)
        agent.action = None
        self.log.add(self.now, EventKind.WAKE, agent.name, f"{agent.name} wakes up")
        self.log.add(self.now, EventKind.PLAN, agent.name, "plans the day", plan=agent.plan.lines())

    def _start_action(self, agent: Agent, action: Action, note: str = "") -> None:
        if agent.action is not None and agent.action is not action:
            self._finish(agent, agent.action)
        if action.kind is ActionKind.REACT:  # as long as decided, however late the thought
            action = replace(action, end=self.now + (action.end - action.start))
        action = replace(action, start=self.now, end=max(action.end, self.now))
        if self._full(agent, action.address):
            end = self.now + timedelta(minutes=2)
            where = self.town.areas[action.address].name if action.address else "place"
            desc = f"waiting for the {where} to be free"
            action = Action(desc, agent.location, self.now, end, ActionKind.WAIT, "⏳")
        agent.action = action
        if action.kind is ActionKind.REACT:
            self.log.add(self.now, EventKind.REACTION, agent.name, note or action.description)
        self.log.add(
            self.now,
            EventKind.ACTION,
            agent.name,
            action.description,
            address=action.address,
            emoji=action.emoji,
        )
        seen = facts.doing(agent.name, action.description, Source.SEEN)
        foresee(self.mind, [facts.render(seen)])  # what those who see it will remember
        self._route(agent, action)
        self._ask_ahead(agent)

    def _full(self, agent: Agent, address: str) -> bool:
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
                and o.action is not None
                and (o.action.address == key or o.action.address.startswith(key + SEP))
            )
            if others >= area.capacity:
                return True
        return False

    def stop(self, agent: Agent) -> None:
        """Stop walking; logged, so a replay stops the agent at the same tile."""
        if agent.path:
            agent.path = []
            self.log.add(self.now, EventKind.MOVE, agent.name, "", path=[])

    def _route(self, agent: Agent, action: Action) -> None:
        goal = self._goal_tile(agent, action.address)
        if goal is None or goal == agent.pos:
            self.stop(agent)
            self._arrive(agent)
            return
        path = self.finder.path(agent.pos, goal)
        if path is None:
            self.log.add(self.now, EventKind.ERROR, agent.name, f"no path to {action.address}")
            self.stop(agent)
            agent.action = replace(action, end=min(action.end, self.now + timedelta(minutes=1)))
            return
        agent.path = path[1:]
        self.log.add(self.now, EventKind.MOVE, agent.name, action.address, path=list(agent.path))

    def _goal_tile(self, agent: Agent, address: str) -> tuple[int, int] | None:
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

    def _spots_taken(self, agent: Agent) -> set[tuple[int, int]]:
        """Where the others stand or are walking to: readable crowds need distinct spots."""
        return {o.path[-1] if o.path else o.pos for o in self.agents.values() if o is not agent}

    # -- conversations ------------------------------------------------------------------------
    def _request_talk(self, agent: Agent, partner_name: str) -> None:
        if self.visitor is not None and partner_name == self.visitor.name:
            if self.player.visitor_near(agent.name):  # not gone out of reach meanwhile
                agent.last_chat[partner_name] = self.now
                self.player.greet(agent.name)
            return
        other = self.agents.get(partner_name)
        if other is None or other.asleep or other.conversation is not None:
            return
        if self.player.chatting(agent.name) or self.player.chatting(partner_name):
            return  # one of them is talking with the visitor
        if self.scheduler.busy(partner_name) or self.scheduler.busy(agent.name):
            return
        far = max(abs(agent.pos[0] - other.pos[0]), abs(agent.pos[1] - other.pos[1]))
        if far > 2 * self.config.mind.vision_radius:
            return  # they went their ways while the wish to talk formed
        snaps = (agent.snapshot(self.now), other.snapshot(self.now))  # before they stop
        for person in (agent, other):
            self.stop(person)
            end = self.now + timedelta(hours=1)
            partner = other.name if person is agent else agent.name
            person.action = Action(
                f"starting a conversation with {partner}",
                person.location,
                self.now,
                end,
                ActionKind.CHAT,
                "💬",
            )
        self.scheduler.submit(
            (agent.name, other.name),
            JobKind.CONVERSE.value,
            converse_job,
            self.mind,
            snaps[0],
            snaps[1],
            self.surroundings(),
            delay=self.config.timing.talk_steps,
        )

    def _start_conversation(self, agent: Agent, talk: Conversation) -> None:
        talk = replace(talk, start=self.now)
        partner = talk.partner_of(agent.name)
        agent.conversation = talk
        agent.action = Action(
            f"talking with {partner}", agent.location, self.now, talk.end, ActionKind.CHAT, "💬"
        )
        agent.last_chat[partner] = self.now
        agent.conversations += 1
        self._ask_ahead(agent)  # what to do when the conversation ends
        if agent.name == talk.participants[0]:
            self.log.add(
                self.now,
                EventKind.CONVERSATION,
                agent.name,
                f"{agent.name} talks with {partner}",
                participants=list(talk.participants),
                lines=[[u.speaker, u.text] for u in talk.lines],
                **answered_by(talk.lines),
            )
