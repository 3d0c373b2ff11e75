"""Helpers for the window tests: run frames, wait for the thread pool, switch clocks."""

from __future__ import annotations

import time
from dataclasses import replace

from game.sim.simulation import ClockMode

FRAME = 1 / 60


def realtime(sim):
    """Switch a simulation prepared in lockstep (fast, deterministic) to the window's clock."""
    sim.config = replace(sim.config, mode=ClockMode.REALTIME)
    return sim


def frames(app, n: int, dt: float = FRAME) -> None:
    for _ in range(n):
        app.frame(dt)


def run_until(app, done, seconds: float, dt: float = FRAME) -> bool:
    """Frames until done() or `seconds` of frame time; real threads get real time to work."""
    steps = int(seconds / dt)
    for _ in range(steps):
        app.frame(dt)
        if done():
            return True
        time.sleep(0.001)
    return bool(done())
