"""Decisions: which jobs each resident needs, when they are due, and the answers asked
ahead of time.

Nothing here applies a job's effect. A decision asked ahead and found still good when the
resident gets to it comes back from `schedule` as effects for the simulation to apply
(`game.sim.appliers`), one resident at a time, before the next resident is looked at: the
order a run depends on for its determinism.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from game.mind.agent import ActionKind, Agent
from game.mind.cognition import (
    Mind,
    Surroundings,
    decide_job,
    next_action_job,
    perceive_job,
    prepare_next_job,
    prepare_wake_job,
    reflect_job,
    seed_job,
    wake_job,
)
from game.mind.effects import Effect, JobKind, NextAction, Prepared, Woke
from game.mind.plan import DayPlan
from game.sim.actions import Actions
from game.sim.config import MIN_AHEAD_STEPS, WAKE_AHEAD_STEPS, SimConfig
from game.sim.health import JobHealth
from game.sim.player import Player
from game.sim.scheduler import Finished, Lane, Scheduler
from game.sim.state import SimState

# The scheduler lane of each kind of an agent's own job (the rest are decisions).
LANES = {JobKind.PERCEIVE: Lane.THOUGHT, JobKind.REFLECT: Lane.THOUGHT}

JobMaker = Callable[[Agent, Surroundings], tuple[Any, tuple]]


class Decisions:
    """Scheduling of every resident's cognition jobs, ask-ahead and prepared answers."""

    def __init__(
        self,
        state: SimState,
        agents: Mapping[str, Agent],
        actions: Actions,
        player: Player,
        scheduler: Scheduler,
        mind: Mind,
        config: SimConfig,
        jobs: JobHealth,
    ) -> None:
        self.state, self.agents, self.actions, self.player = state, agents, actions, player
        self.scheduler, self.mind, self.config, self.jobs = scheduler, mind, config, jobs
        self.prepared: dict[str, Prepared] = {}  # decisions asked ahead, by agent
        self._ahead: dict[str, tuple[datetime, DayPlan]] = {}  # in flight: for when, from
        # whom each resident's latest perception may ask to talk (game.sim.apart reads it)
        self.wishes: dict[str, frozenset[str]] = {}
        self._makers = self._job_table()

    @property
    def now(self) -> datetime:
        return self.state.now

    # -- what each resident needs ---------------------------------------------------------
    def needs(self, agent: Agent) -> list[JobKind]:
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
        mind = self.config.mind
        if agent.pending and mind.ablation.memory:
            needs.append(JobKind.PERCEIVE)
        elif agent.reflect_pool >= mind.reflection_threshold and mind.ablation.reflection:
            needs.append(JobKind.REFLECT)
        return needs

    def needs_decision(self, agent: Agent) -> bool:
        """Awake with nothing to do, or at the end of a night's sleep: standing still
        until a decision comes back."""
        if not agent.seeded or agent.conversation is not None:
            return False
        action = agent.action
        if action is None:
            return not agent.asleep
        return action.kind is ActionKind.SLEEP and action.over(self.now)

    # -- the step's jobs ------------------------------------------------------------------
    def schedule(self, among: Collection[str] | None = None) -> Iterator[tuple[Effect, ...]]:
        """Start the jobs residents need (of `among`, a group stepping apart), in name
        order; a prepared answer they have got to is yielded instead, to be applied before
        the next resident is looked at."""
        world = None
        prepared, ahead, retry_at = self.prepared, self._ahead, self.jobs.retry_at
        for name in sorted(self.agents if among is None else among):
            agent = self.agents[name]
            # each helper's own first look, here: most residents have nothing prepared,
            # nothing asked ahead and no seeding to retry, every step
            if name in prepared:
                ready = self._take_prepared(agent)
                if ready is not None:
                    yield ready
                    continue
            if name in ahead and self._awaiting_ahead(agent):
                continue
            if name in retry_at and self.jobs.waiting(name, self.now):
                continue
            near = agent.asleep or self._ahead_now(agent)
            if agent.seeded and near and not self.scheduler.preparing(name):
                self.ask_ahead(agent)  # waking up, or the next action, once it is near
            for need in self.needs(agent):
                if self.scheduler.busy(name, LANES.get(need, Lane.MAIN)):
                    continue
                if self.actions.view is not None:  # each reads the others its own way
                    world = self.actions.surroundings(agent)
                world = world or self.actions.surroundings()
                self._submit(agent, need, world)

    def _submit(self, agent: Agent, need: JobKind, world: Surroundings) -> None:
        """Start the job an agent needs, with the arguments that kind of job reads."""
        delay = self._delay(agent, need)  # before the job's arguments take the sightings
        job, args = self._makers[need](agent, world)
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

    def _job_table(self) -> dict[JobKind, JobMaker]:
        """What each kind of an agent's own job runs, and with what (taken on this thread)."""
        return {
            JobKind.SEED: lambda a, w: (seed_job, (a.snapshot(self.now),)),
            JobKind.WAKE: lambda a, w: (wake_job, (a.snapshot(self.now), self.state.town)),
            JobKind.PERCEIVE: self._perceive_args,
            JobKind.REFLECT: self._reflect_args,
            JobKind.NEXT_ACTION: lambda a, w: (self._decide, (a.snapshot(self.now), w)),
        }

    @property
    def _decide(self) -> Callable[..., Any]:
        """With a model, the next action comes with the one after it when it is short."""
        return decide_job if self.config.timing.ask_ahead else next_action_job

    def _perceive_args(self, agent: Agent, world: Surroundings) -> tuple[Any, tuple]:
        snap, talkable = agent.snapshot(self.now), self.talkable(agent)
        observations, agent.pending = tuple(agent.pending), []
        self.wishes[agent.name] = talkable  # whom its reaction may stop for a talk
        return perceive_job, (snap, world, observations, talkable)

    def _reflect_args(self, agent: Agent, world: Surroundings) -> tuple[Any, tuple]:
        agent.reflect_pool = 0
        return reflect_job, (agent.snapshot(self.now),)

    def talkable(self, agent: Agent) -> frozenset[str]:
        """Whom the agent may start talking to, among those it just saw: nobody while
        dealing with trouble."""
        cooldown = timedelta(minutes=self.config.mind.conversation_cooldown_minutes)
        out: list[str] = []
        if self.actions.tending(agent) is not None:
            return frozenset(out)
        view, reach = self.actions.view, 2 * self.config.mind.vision_radius
        for obs in agent.pending:
            v = self.player.visitor
            if v is not None and obs.subject == v.name and not v.talking_to:
                if obs.subject not in agent.last_chat and self.player.visitor_near(agent.name):
                    out.append(v.name)  # near enough for the visitor to answer
                continue
            other = self.agents.get(obs.subject)
            if other is None or (view is not None and not view.within(agent, other, reach)):
                continue  # stepping apart: one gone out of reach is at another step
            if other.asleep or other.conversation is not None:
                continue
            if self.player.chatting(other.name):
                continue  # talking with the visitor
            if self.scheduler.busy(other.name) or other.action is None:
                continue
            if self.actions.tending(other) is not None:
                continue  # putting out a fire is no time for a chat
            last = agent.last_chat.get(other.name)
            if last is None or self.now - last >= cooldown:
                out.append(other.name)
        return frozenset(out)

    # -- decisions asked ahead ------------------------------------------------------------
    def ask_ahead(self, agent: Agent) -> None:
        """Ask the decision that follows the action just started, due when it ends: the
        next action, or waking up (and the day's first action) for a night's sleep."""
        action = agent.action
        if not self.config.timing.ask_ahead or action is None:
            return
        held = self.prepared.get(agent.name)
        if held is not None and held.at == action.end and held.base is agent.plan:
            return  # already asked
        ahead = self._ahead.get(agent.name)
        if ahead is not None and ahead[0] == action.end and ahead[1] is agent.plan:
            return  # being asked
        self.scheduler.drop(agent.name, Lane.AHEAD)  # asked for an action since replaced
        self._ahead.pop(agent.name, None)
        steps = self._steps_to(action.end)
        sleep = action.kind is ActionKind.SLEEP
        if steps < MIN_AHEAD_STEPS or (sleep and steps > WAKE_AHEAD_STEPS):
            return
        if not sleep and 0 < self.config.timing.ahead_steps < steps:
            return  # asked later, when it is near (`_ahead_now`)
        job = prepare_wake_job if sleep else prepare_next_job
        snap = replace(agent.snapshot(action.end), action=None if not sleep else action)
        self.prepared.pop(agent.name, None)
        self._ahead[agent.name] = (action.end, agent.plan)
        self.scheduler.submit(
            (agent.name,),
            JobKind.PREPARE.value,
            job,
            self.mind,
            snap,
            self.actions.surroundings(agent),
            delay=steps,
            lane=Lane.AHEAD,
        )

    def _steps_to(self, when: datetime) -> int:
        return -(-int((when - self.now).total_seconds()) // self.config.step_seconds)

    def _ahead_now(self, agent: Agent) -> bool:
        """The step the next action of an awake resident is asked ahead at, when its
        action was longer than the timing's `ahead_steps` at its start: that many steps
        before it ends (the step only, so an answer that failed is not asked again)."""
        ahead, action = self.config.timing.ahead_steps, agent.action
        if ahead <= 0 or action is None or not self.config.timing.ask_ahead:
            return False
        if action.kind is ActionKind.CHAT and agent.conversation is None:
            return False  # greeting: the conversation asks its own when it starts
        return self._steps_to(action.end) == ahead

    def landed(self, finished: Finished) -> None:
        """A job came back: one asked ahead is no longer in flight."""
        if finished.lane is Lane.AHEAD:
            self._ahead.pop(finished.agents[0], None)

    def hold(self, prepared: Prepared) -> None:
        """Keep an answer asked ahead until the resident gets to it."""
        self.prepared[prepared.agent] = prepared

    def _take_prepared(self, agent: Agent) -> tuple[Effect, ...] | None:
        """The decisions asked ahead, if the agent has got to them with the plan they
        were made from; a stale one is dropped (the agent is asked again the usual way)."""
        prepared = self.prepared.get(agent.name)
        if prepared is None or not self.needs_decision(agent):
            return None
        del self.prepared[agent.name]
        if prepared.base is not agent.plan or prepared.at is None or self.now < prepared.at:
            return None
        first = prepared.decisions[0]
        if isinstance(first, NextAction) and first.action is not None:
            if self.now >= first.action.end or agent.asleep:
                return None
        elif not isinstance(first, Woke) or not agent.asleep:
            return None
        if prepared.then is not None:  # held first, so the action's start asks no more
            self.prepared[agent.name] = prepared.then
        return tuple(prepared.decisions)

    def _awaiting_ahead(self, agent: Agent) -> bool:
        """In real time the question asked ahead may still be out when the agent gets
        there: wait for it rather than ask the same question twice."""
        ahead = self._ahead.get(agent.name)
        if ahead is None or not self.scheduler.preparing(agent.name):
            return False
        at, base = ahead
        return base is agent.plan and at <= self.now and self.needs_decision(agent)
