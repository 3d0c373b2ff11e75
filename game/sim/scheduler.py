"""Runs cognition jobs on a thread pool, at most one job per agent.

Jobs are submitted in a fixed order and their results handed back in the same order, so
in lockstep mode a run is deterministic whatever the threads do. Each job is due a fixed
number of steps after it was submitted: lockstep waits only for the jobs due now, so with
a slow model the clock runs on while many decisions are computed at once, and every
decision still lands at the same game time in every run.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Finished:
    agents: tuple[str, ...]
    label: str
    result: Any = None
    error: BaseException | None = None


class Scheduler:
    def __init__(self, workers: int = 8) -> None:
        self._pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="mind")
        self._jobs: list[tuple[tuple[str, ...], str, Future, int]] = []
        self._busy: set[str] = set()
        self.step = 0  # set by the simulation: the step jobs are being submitted in
        self.delay = 1  # steps between submitting a job and applying its decision

    def busy(self, name: str) -> bool:
        return name in self._busy

    @property
    def pending(self) -> int:
        return len(self._jobs)

    def submit(self, agents: tuple[str, ...], label: str, fn: Callable[..., Any], *args) -> None:
        if any(a in self._busy for a in agents):
            raise RuntimeError(f"{agents} already has a job in flight")
        self._busy.update(agents)
        due = self.step + self.delay - 1
        self._jobs.append((agents, label, self._pool.submit(fn, *args), due))

    def run_detached(self, fn: Callable[..., Any], *args) -> Future:
        """A read-only job outside the one-per-agent rule (an interview)."""
        return self._pool.submit(fn, *args)

    def collect(self, block: bool, step: int | None = None) -> list[Finished]:
        """Finished jobs in submission order. With block (lockstep), wait for every job due
        by `step` (all jobs when step is None) and hand back exactly those; without it,
        hand back whatever has finished."""
        if block:
            due = [j for j in self._jobs if step is None or j[3] <= step]
            wait([j[2] for j in due])
            ready = {id(j) for j in due}
        else:
            ready = {id(j) for j in self._jobs if j[2].done()}
        done, keep = [], []
        for job in self._jobs:
            agents, label, future, _ = job
            if id(job) in ready:
                error = future.exception()
                result = None if error else future.result()
                done.append(Finished(agents, label, result, error))
                self._busy.difference_update(agents)
            else:
                keep.append(job)
        self._jobs = keep
        return done

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
