"""Helpers for the window tests: run frames, wait for the thread pool, switch clocks."""

from __future__ import annotations

import time
from dataclasses import replace

from game.sim.factory import build_simulation
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


def post(app, events) -> None:
    """Hand pygame events to the window as if they came from SDL."""
    for event in events if isinstance(events, list) else [events]:
        app.handle(event)


def awake_town(hour: int = 9, seed: int = 3):
    """The town of three, run in lockstep to a morning hour, then on the window's clock."""
    sim = build_simulation("three", seed=seed, workers=2)
    while sim.now.hour < hour or all(a.asleep for a in sim.agents.values()):
        sim.step()
    return realtime(sim)


def next_to(sim, name: str) -> tuple[int, int]:
    """A walkable tile beside a resident (within talking range)."""
    x, y = sim.agents[name].pos
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
        if sim.town.is_walkable(x + dx, y + dy):
            return (x + dx, y + dy)
    return (x, y)
