"""Helpers for the window tests: run frames, wait for the thread pool, switch clocks."""

from __future__ import annotations

import atexit
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from game.sim.factory import build_simulation
from game.sim.saves import load_game, save_game
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


_MORNINGS = Path(tempfile.mkdtemp(prefix="smallville-mornings-"))
atexit.register(shutil.rmtree, _MORNINGS, ignore_errors=True)


def awake_town(hour: int = 9, seed: int = 3):
    """The town of three, run in lockstep to a morning hour, then on the window's clock.

    The lockstep morning is deterministic and several window tests want the same one, so
    a test process runs each (hour, seed) once, saves it, and every caller gets a town of
    its own loaded from that save (the whole state: clock, memories, plans, objects, log)."""
    name = f"morning-{hour}-{seed}"
    if not (_MORNINGS / name).is_dir():
        sim = build_simulation("three", seed=seed, workers=2)
        try:
            while sim.now.hour < hour or all(a.asleep for a in sim.agents.values()):
                sim.step()
            save_game(sim, name, _MORNINGS)
        finally:
            sim.close()
    return realtime(load_game(name, _MORNINGS, workers=2))


def next_to(sim, name: str) -> tuple[int, int]:
    """A walkable tile beside a resident (within talking range)."""
    x, y = sim.agents[name].pos
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
        if sim.town.is_walkable(x + dx, y + dy):
            return (x + dx, y + dy)
    return (x, y)
