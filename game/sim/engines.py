"""Where a study's runs execute: a local process pool (the embedded default) or Ray.

Both engines do one thing: start a run, and hand back the runs that have finished. The
driver (`drive`) keeps at most `capacity` runs in flight, so "running" is exact on both,
retries a failed run once, and gives each result to its caller as it comes (the store
commits it at once). The order in which runs finish never reaches a figure: every result
is keyed by its run, and tables are built sorted by key.

The pool's workers are spawned, not forked: a fork would copy the driver's threads and
whatever it had imported, and a spawned worker imports only the run's own modules (never
pygame). A worker that dies (killed, out of memory) breaks a ProcessPoolExecutor as a
whole; the pool is then made again and each run that was in flight counts one attempt.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent import futures
from dataclasses import dataclass, replace
from multiprocessing import get_context
from typing import Any, Protocol

from game.core.errors import SmallvilleError
from game.sim.runs import RunResult, RunSpec, execute

RAY_MISSING = 'Ray is not installed: pip install -e ".[ray]" (the optional extra), then try again'
Task = Callable[[RunSpec], RunResult]


class Engine(Protocol):
    """Runs runs. `finished` waits up to `timeout` seconds for at least one to end."""

    name: str
    capacity: int

    def start(self, spec: RunSpec) -> None: ...

    def in_flight(self) -> int: ...

    def finished(self, timeout: float) -> list[RunResult]: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


def _worker_start() -> None:
    """A pool worker's first act: one BLAS thread, before numpy loads (as main.py does),
    and Ctrl+C left to the driver, which ends the workers itself (a worker waiting for
    work would print a traceback for it)."""
    import signal

    from game.core.blas import one_blas_thread

    one_blas_thread()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalPool:
    """Runs as processes of this machine (`workers` at a time)."""

    name = "local"

    def __init__(self, workers: int, task: Task = execute) -> None:
        self.capacity = max(1, workers)
        self.task = task
        self.pool = self._pool()
        self.flying: dict[futures.Future, RunSpec] = {}

    def _pool(self) -> futures.ProcessPoolExecutor:
        return futures.ProcessPoolExecutor(
            self.capacity, mp_context=get_context("spawn"), initializer=_worker_start
        )

    def start(self, spec: RunSpec) -> None:
        self.flying[self.pool.submit(self.task, spec)] = spec

    def in_flight(self) -> int:
        return len(self.flying)

    def finished(self, timeout: float) -> list[RunResult]:
        done, _ = futures.wait(self.flying, timeout, return_when=futures.FIRST_COMPLETED)
        out = [self._result(f, self.flying.pop(f)) for f in done]
        if any(not r.ok and r.error.startswith("BrokenProcessPool") for r in out):
            self._renew()
        return out

    def _result(self, future: futures.Future, spec: RunSpec) -> RunResult:
        try:
            return future.result()
        except Exception as exc:  # noqa: BLE001 - a dead worker: the run failed, said why
            return RunResult(spec, error=f"{type(exc).__name__}: {exc or 'worker died'}")

    def _renew(self) -> None:
        """A broken pool fails every run it held: make a new one for the retries."""
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = self._pool()

    def cancel(self) -> None:
        """Stop now: queued runs are dropped and running workers are ended."""
        for future in self.flying:
            future.cancel()
        processes = list(getattr(self.pool, "_processes", {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        self.flying.clear()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class RayEngine:
    """Runs as Ray tasks: on a fresh local Ray, or the cluster at `address` (or
    RAY_ADDRESS). Ray's own retries are off, so a run is retried once, here, whether
    its code failed or its node died."""

    name = "ray"

    def __init__(self, address: str | None = None, task: Task = execute) -> None:
        ray = import_ray()
        env = {"env_vars": {v: "1" for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}}
        self.started = not ray.is_initialized()
        if self.started:
            ray.init(address=address or os.environ.get("RAY_ADDRESS") or "local",
                     include_dashboard=False, log_to_driver=False, logging_level="ERROR",
                     runtime_env=env)  # fmt: skip
        self.ray = ray
        self.capacity = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.remote = ray.remote(num_cpus=1, max_retries=0)(task)
        self.flying: dict[Any, RunSpec] = {}

    def start(self, spec: RunSpec) -> None:
        self.flying[self.remote.remote(spec)] = spec

    def in_flight(self) -> int:
        return len(self.flying)

    def finished(self, timeout: float) -> list[RunResult]:
        if not self.flying:
            return []
        done, _ = self.ray.wait(list(self.flying), num_returns=1, timeout=timeout)
        return [self._result(ref, self.flying.pop(ref)) for ref in done]

    def _result(self, ref, spec: RunSpec) -> RunResult:
        try:
            return self.ray.get(ref)
        except Exception as exc:  # noqa: BLE001 - the node or worker died: said why
            first = (str(exc).strip().splitlines() or [""])[0][:300]
            return RunResult(spec, error=f"{type(exc).__name__}: {first}")

    def cancel(self) -> None:
        """Stop now: each task still in flight is ended (one already over is let be)."""
        for ref in self.flying:
            with contextlib.suppress(Exception):
                self.ray.cancel(ref, force=True)
        self.flying.clear()

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def import_ray():
    """The ray module, or one line saying how to install it."""
    try:
        import ray
    except ImportError:
        raise SmallvilleError(RAY_MISSING) from None
    return ray


@dataclass(frozen=True)
class Tally:
    """The progress of a study: runs done, running, failed, of all, and when it began."""

    total: int
    done: int = 0
    running: int = 0
    failed: int = 0
    began: float = 0.0
    last: float = 0.0  # when the latest run finished

    def eta(self, now: float) -> float | None:
        """Seconds left, at the pace up to the latest finish (seconds per finished run,
        all the engine's slots together), counting down until the next one. None before
        the first finish or after the last."""
        finished = self.done + self.failed
        if not finished or finished >= self.total:
            return None
        pace = (self.last - self.began) / finished
        return max(0.0, pace * self.total - (now - self.began))


def drive(
    specs: Sequence[RunSpec],
    engine: Engine,
    on_result: Callable[[RunResult], None],
    on_progress: Callable[[Tally], None] = lambda t: None,
    retries: int = 1,
) -> Tally:
    """Every run to its end on `engine`: a failure is run again up to `retries` times,
    then given to `on_result` as failed. Ctrl+C cancels what is left and propagates."""
    queue, attempts = deque(specs), {s.key: 0 for s in specs}
    tally = Tally(len(specs), began=time.monotonic())
    try:
        while queue or engine.in_flight():
            while queue and engine.in_flight() < engine.capacity:
                spec = queue.popleft()
                attempts[spec.key] += 1
                engine.start(spec)
            tally = replace(tally, running=engine.in_flight())
            on_progress(tally)
            for result in engine.finished(timeout=0.5):
                tally = _settle(result, attempts, retries, queue, on_result, tally)
        on_progress(replace(tally, running=0))
    except BaseException:
        engine.cancel()
        raise
    return replace(tally, running=0)


def _settle(result, attempts, retries, queue, on_result, tally: Tally) -> Tally:
    """A finished run: queued again (first, so a retry is not left to the end), or kept."""
    spec = result.spec
    if not result.ok and attempts[spec.key] <= retries:
        queue.appendleft(spec)
        return tally
    on_result(replace(result, attempts=attempts[spec.key]))
    tally = replace(tally, last=time.monotonic())
    if result.ok:
        return replace(tally, done=tally.done + 1)
    return replace(tally, failed=tally.failed + 1)
