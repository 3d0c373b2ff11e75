"""Runs cognition jobs on a thread pool: per agent, one job in the main lane and one
decision asked ahead.

Jobs are submitted in a fixed order and their results handed back in the same order, so
in lockstep mode a run is deterministic whatever the threads do. Each job is due a fixed
number of steps after it was submitted: lockstep waits only for the jobs due now, so with
a slow model the clock runs on while many decisions are computed at once, and every
decision still lands at the same game time in every run.

Why three lanes: the main lane holds the decision an agent waits for (the next action
when none was asked ahead, waking, a conversation, the player's jobs). The thought lane
holds perceiving (and deciding whether to react) and reflecting, which go on while the
agent does something: a resident deep in thought still turns up to a conversation. The
ahead lane holds the agent's *next* decision, asked while the current action runs and due
when it ends; it only proposes (the simulation uses it if the agent's plan is still the
one it was made from). Effects come back in submission order whatever their lane, and
each applier checks that what it changes still makes sense (a reaction that arrives
during a conversation is only remembered).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Lane(Enum):
    MAIN = "main"  # what the agent does now: decisions, conversations, the player's jobs
    THOUGHT = "thought"  # perceiving (and reacting), reflecting, beside what it does
    AHEAD = "ahead"  # the next decision, asked while the current action runs


@dataclass(frozen=True)
class Finished:
    agents: tuple[str, ...]
    label: str
    result: Any = None
    error: BaseException | None = None
    lane: Lane = Lane.MAIN


@dataclass(frozen=True)
class _Job:
    agents: tuple[str, ...]
    label: str
    future: Future
    due: int
    lane: Lane
    submitted: int = 0  # the step it was submitted in
    began: float = 0.0  # when (perf_counter), for the wait meter


@dataclass(frozen=True)
class Hold:
    """One job that held the clock: what it was, for whom, how long it had been given."""

    label: str
    agents: tuple[str, ...]
    lane: Lane
    delay: int  # steps between submission and due
    seconds: float  # this job's share of the wait (split among the jobs still out)
    age: float  # real seconds it had been running when the clock came to it
    alone: bool = False  # its agents had nobody in sight (out-of-order could go on)


@dataclass(frozen=True)
class Wait:
    """One stop of the lockstep clock: the step, how long, the jobs it waited for, and how
    many requests were in flight meanwhile (time-averaged; -1 with no probe)."""

    step: int
    seconds: float
    holds: tuple[Hold, ...]
    in_flight: float
    jobs_out: int  # jobs of any lane not yet finished when the wait began


@dataclass
class WaitMeter:
    """Where a lockstep run's wall time goes: every wait for a due job that was not done.
    Off unless a benchmark sets `Scheduler.meter`; it only reads clocks, so a run is the
    same with it. `area` is an optional probe: requests in flight integrated over real
    time (a protocol server's), to tell how busy the wire was while the clock stood."""

    area: Callable[[], float] | None = None
    waits: list[Wait] = field(default_factory=list)

    def measure(
        self, step: int, blockers: list[_Job], out: int, alone: Callable[..., bool] | None
    ) -> None:
        """Wait for the blockers, one finish at a time, and record who held the clock."""
        lone = {id(j): alone is not None and alone(j.agents) for j in blockers}
        began = time.perf_counter()
        area0 = self.area() if self.area else 0.0
        shares = {id(j): 0.0 for j in blockers}
        pending, last = list(blockers), began
        while pending:
            wait([j.future for j in pending], return_when=FIRST_COMPLETED)
            now = time.perf_counter()
            for job in pending:  # the interval is held by every job still out in it
                shares[id(job)] += (now - last) / len(pending)
            pending, last = [j for j in pending if not j.future.done()], now
        seconds = last - began
        flight = (self.area() - area0) / seconds if self.area and seconds > 0 else -1.0
        holds = _holds(blockers, shares, began, lone)
        self.waits.append(Wait(step, seconds, holds, flight, out))


def _holds(
    jobs: list[_Job], shares: dict[int, float], began: float, lone: dict[int, bool]
) -> tuple[Hold, ...]:
    """What each job that held the clock from `began` is recorded as: its share of the
    wait (`shares`, by job id) and whether its resident was alone (`lone`)."""
    return tuple(
        Hold(
            j.label,
            j.agents,
            j.lane,
            j.due - j.submitted + 1,
            shares[id(j)],
            began - j.began,
            lone[id(j)],
        )  # fmt: skip
        for j in jobs
    )


class Scheduler:
    def __init__(self, workers: int = 8) -> None:
        self._pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="mind")
        self._jobs: list[_Job] = []
        self._busy: dict[Lane, set[str]] = {lane: set() for lane in Lane}
        self._dropped: list[Future] = []  # still running, their results unwanted
        self.step = 0  # set by the simulation: the step jobs are being submitted in
        self.delay = 1  # default steps between submitting a job and applying its decision
        self.meter: WaitMeter | None = None  # a benchmark's record of the clock's waits
        # whether these agents are alone (game.sim.solitude), for the meter's record
        self.alone: Callable[[tuple[str, ...]], bool] | None = None
        # hand finished jobs back by (step submitted, agents), not by submission: set once
        # residents step apart (game.sim.apart), whose jobs go out in the threads' order
        self.ordered = False
        # run each job at once on the submitting thread (`Simulation` sets it in lockstep
        # with a local brain): a brain that only computes gains nothing from threads, and
        # with the GIL its jobs and the step took turns, a quarter slower than in a row
        self.inline = False

    def busy(self, name: str, lane: Lane = Lane.MAIN) -> bool:
        """A job of that lane (by default, a decision) is in flight for this agent."""
        return name in self._busy[lane]

    def preparing(self, name: str) -> bool:
        """A decision is being asked ahead for this agent."""
        return name in self._busy[Lane.AHEAD]

    def deciding(self) -> set[str]:
        """The agents a decision is still being worked out for (a job of theirs outside the
        thought lane that has not finished): who is really waiting for the brain."""
        return {
            name
            for job in self._jobs
            if job.lane is not Lane.THOUGHT and not job.future.done()
            for name in job.agents
        }

    @property
    def pending(self) -> int:
        return len(self._jobs)

    def submit(
        self,
        agents: tuple[str, ...],
        label: str,
        fn: Callable[..., Any],
        *args: Any,
        delay: int | None = None,
        lane: Lane = Lane.MAIN,
    ) -> None:
        """Start a job due `delay` steps from now (the scheduler's default when None)."""
        busy = self._busy[lane]
        if any(a in busy for a in agents):
            raise RuntimeError(f"{agents} already has a {lane.value} job in flight")
        busy.update(agents)
        due = self.step + max(1, self.delay if delay is None else delay) - 1
        now = time.perf_counter()
        future = _done(fn, *args) if self.inline else self._pool.submit(fn, *args)
        self._jobs.append(_Job(agents, label, future, due, lane, self.step, now))

    def drop(self, name: str, lane: Lane) -> None:
        """Forget this agent's job in that lane (a question asked ahead that the agent
        has outrun): the lane is free at once, nobody waits for the job, and its result
        is thrown away whenever it comes."""
        if name not in self._busy[lane]:
            return
        self._busy[lane].discard(name)
        keep = []
        for job in self._jobs:
            if job.lane is lane and name in job.agents:
                self._dropped.append(job.future)
            else:
                keep.append(job)
        self._jobs = keep
        self._dropped = [f for f in self._dropped if not f.done()]

    def settle(self) -> None:
        """Wait until every job has finished, due or not (none is handed back): a run
        that stops counts the same requests whatever the threads did, instead of
        cutting off the questions asked ahead wherever they happened to be."""
        wait([j.future for j in self._jobs] + self._dropped)
        self._dropped = []

    def run_detached(self, fn: Callable[..., Any], *args) -> Future:
        """A read-only job outside the one-per-agent rule (an interview)."""
        return self._pool.submit(fn, *args)

    def blockers(self, names: frozenset[str], step: int) -> list[Future]:
        """The jobs of these agents due by `step` and not yet done: what a group of
        residents stepping apart from the town (game.sim.apart) must wait for."""
        return [
            j.future
            for j in self._jobs
            if j.due <= step and not j.future.done() and not names.isdisjoint(j.agents)
        ]

    def dues(self, step: int) -> dict[str, int]:
        """Agent -> steps from `step` to its first job in flight that lands on what it
        does (a question asked ahead only proposes, when its action ends)."""
        out: dict[str, int] = {}
        for job in self._jobs:
            if job.lane is Lane.AHEAD:
                continue
            for name in job.agents:
                out[name] = min(out.get(name, job.due - step), job.due - step)
        return out

    def partners(self) -> list[tuple[str, ...]]:
        """The agents of every job in flight for more than one (a conversation's lines):
        they step together."""
        return [j.agents for j in self._jobs if len(j.agents) > 1]

    def collect(
        self, block: bool, step: int | None = None, names: frozenset[str] | None = None
    ) -> list[Finished]:
        """Finished jobs in submission order (by step asked and agents, once `ordered`).
        With block (lockstep), wait for every job due by `step` (all jobs when step is
        None) and hand back exactly those; without it, hand back whatever has finished.
        With `names`, only those agents' jobs."""
        if block:
            due = [
                j
                for j in self._jobs
                if (step is None or j.due <= step) and (names is None or _of(j, names))
            ]
            self._wait(due, step)
            ready = {id(j) for j in due}
        else:
            ready = {
                id(j) for j in self._jobs if j.future.done() and (names is None or _of(j, names))
            }
        done, keep = [], []
        jobs = self._jobs
        if self.ordered:  # a stable sort: one resident's jobs keep their own order
            jobs = sorted(jobs, key=lambda j: (j.submitted, j.agents))
        for job in jobs:
            if id(job) in ready:
                error = job.future.exception()
                result = None if error else job.future.result()
                done.append(Finished(job.agents, job.label, result, error, job.lane))
                self._busy[job.lane].difference_update(job.agents)
            else:
                keep.append(job)
        self._jobs = keep
        return done

    def _wait(self, due: list[_Job], step: int | None) -> None:
        """Wait for the due jobs; with a meter, record the wait and who held it."""
        blockers = [j for j in due if not j.future.done()]
        if self.meter is None or not blockers:
            wait([j.future for j in due])
            return
        out = sum(not j.future.done() for j in self._jobs)
        self.meter.measure(self.step if step is None else step, blockers, out, self.alone)

    def wait_any(self, waiting: list[tuple[frozenset[str], int]]) -> None:
        """Every group of residents stepping apart is held, each by its own due jobs
        (names, the step it is at): wait until one of those jobs is done. With a meter,
        the wait is recorded like a lockstep one, at the earliest group's step."""
        held = [
            j
            for names, step in waiting
            for j in self._jobs
            if j.due <= step and not j.future.done() and _of(j, names)
        ]
        if not held:
            return
        began = time.perf_counter()
        area0 = self.meter.area() if self.meter and self.meter.area else 0.0
        lone = {id(j): self.alone is not None and self.alone(j.agents) for j in held}
        wait([j.future for j in held], return_when=FIRST_COMPLETED)
        if self.meter is None:
            return
        seconds = time.perf_counter() - began
        area = self.meter.area
        flight = (area() - area0) / seconds if area and seconds > 0 else -1.0
        holds = _holds(held, {id(j): seconds / len(held) for j in held}, began, lone)
        out = sum(not j.future.done() for j in self._jobs)
        step = min(step for _, step in waiting)
        self.meter.waits.append(Wait(step, seconds, holds, flight, out))

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _done(fn: Callable[..., Any], *args: Any) -> Future:
    """A job run here and now, its result (or error) in a finished future, as a thread
    of the pool would have left it: the job reads only what it was given (a snapshot), so
    when it runs does not change what it returns."""
    future: Future = Future()
    try:
        future.set_result(fn(*args))
    except Exception as error:  # the applier reports it, as it does a thread's
        future.set_exception(error)
    return future


def _of(job: _Job, names: frozenset[str]) -> bool:
    return not names.isdisjoint(job.agents)
