"""Runs cognition jobs on a thread pool, at most one job per agent.

Jobs are submitted in a fixed order and their results handed back in the same order, so
in lockstep mode (wait for all) a run is deterministic whatever the threads do.
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
        self._jobs: list[tuple[tuple[str, ...], str, Future]] = []
        self._busy: set[str] = set()

    def busy(self, name: str) -> bool:
        return name in self._busy

    @property
    def pending(self) -> int:
        return len(self._jobs)

    def submit(self, agents: tuple[str, ...], label: str, fn: Callable[..., Any], *args) -> None:
        if any(a in self._busy for a in agents):
            raise RuntimeError(f"{agents} already has a job in flight")
        self._busy.update(agents)
        self._jobs.append((agents, label, self._pool.submit(fn, *args)))

    def run_detached(self, fn: Callable[..., Any], *args) -> Future:
        """A read-only job outside the one-per-agent rule (an interview)."""
        return self._pool.submit(fn, *args)

    def collect(self, block: bool) -> list[Finished]:
        """Finished jobs in submission order; with block, wait for every job in flight."""
        if block and self._jobs:
            wait([f for _, _, f in self._jobs])
        done, keep = [], []
        for agents, label, future in self._jobs:
            if future.done():
                error = future.exception()
                result = None if error else future.result()
                done.append(Finished(agents, label, result, error))
                self._busy.difference_update(agents)
            else:
                keep.append((agents, label, future))
        self._jobs = keep
        return done

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
