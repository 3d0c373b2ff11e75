"""Frame times of the game window while a slow brain thinks.

25 residents, the real-time clock at 1x, and a brain that takes 2 s per answer (the
scripted brain wrapped so every question sleeps first, like a slow model server). The
window must keep its frame rate: cognition runs on the thread pool and the frame loop
never waits for it. Runs with the dummy video driver unless SDL_VIDEODRIVER is set.

Usage: python benchmarks/frames.py [--frames 600] [--delay 2.0] [--speed 1] [--start 07:30]
Last line is JSON: {"benchmark": "frames", "median_ms": ..., "p99_ms": ...}
(targets: median <= 16.7 ms, p99 <= 33 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.brains.embed import CachedEmbedder, HashEmbedder  # noqa: E402
from game.brains.protocol import Brain  # noqa: E402
from game.sim.factory import make_brain  # noqa: E402
from game.sim.simulation import ClockMode, SimConfig, Simulation  # noqa: E402
from game.world.scenario import load_world  # noqa: E402

QUESTIONS = frozenset(
    name for name in dir(Brain) if not name.startswith("_") and callable(getattr(Brain, name))
)


class SlowBrain:
    """Any brain, made slow: every question of the Brain protocol sleeps, then delegates.

    Only the protocol's questions are slowed (the usage meter the HUD reads is not), so
    the wrapper is what a slow model server looks like to the game.
    """

    def __init__(self, inner, delay: float) -> None:
        self._inner = inner
        self._delay = delay
        self.name = inner.name

    def __getattr__(self, attr: str):
        value = getattr(self._inner, attr)
        if attr not in QUESTIONS:
            return value

        def slow(*args, **kwargs):
            time.sleep(self._delay)
            return value(*args, **kwargs)

        return slow


def build(scenario: str, delay: float, seed: int, workers: int, start: str = "") -> Simulation:
    """The town on the slow brain and the real-time clock.

    With `start` ('07:30'), the town is first run headless on the fast brain in lockstep to
    that time of the first day, so the benchmark measures a busy morning, not a sleeping
    town; then the slow brain takes over.
    """
    loaded, town = load_world(scenario)
    fast = make_brain("scripted", seed)
    config = SimConfig(seed=seed, mode=ClockMode.LOCKSTEP, workers=workers)
    sim = Simulation(loaded, town, fast, CachedEmbedder(HashEmbedder()), config)
    if start:
        hours, minutes = (int(n) for n in start.split(":"))
        sim.run_until(sim.now.replace(hour=hours, minute=minutes, second=0))
    sim.mind = replace(sim.mind, brain=SlowBrain(fast, delay))
    sim.config = replace(sim.config, mode=ClockMode.REALTIME)
    return sim


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", default="smallville")
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--delay", type=float, default=2.0, help="seconds per brain answer")
    parser.add_argument("--speed", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--start", default="07:30", help="game time to start at ('' = 04:00)")
    args = parser.parse_args()

    import pygame

    from game.ui.app import App, Options

    sim = build(args.scenario, args.delay, args.seed, args.workers, args.start)
    app = App(Options(speed=args.speed, autosave_minutes=0))
    app.replace_town(sim, "Robin")
    clock = pygame.time.Clock()
    clock.tick()
    times: list[float] = []
    busy_counts: list[int] = []
    began = time.perf_counter()
    start_game = sim.now
    for _ in range(args.frames):
        dt = clock.tick(60) / 1000.0
        t0 = time.perf_counter()
        app.frame(dt)
        times.append((time.perf_counter() - t0) * 1000)
        busy_counts.append(sum(sim.thinking(n) for n in sim.agents))
    wall = time.perf_counter() - began
    town = app.town
    game_minutes = (sim.now - start_game).total_seconds() / 60
    app.close()
    median, p99 = statistics.median(times), percentile(times, 0.99)
    print(f"{len(sim.agents)} residents, {args.frames} frames in {wall:.1f} s real time")
    print(f"game time advanced {game_minutes:.1f} min at {args.speed}x ({town.steps_run} steps)")
    print(f"frame work: median {median:.2f} ms, p99 {p99:.2f} ms, max {max(times):.2f} ms")
    mean_busy = statistics.mean(busy_counts)
    print(f"residents waiting on the slow brain: mean {mean_busy:.1f}, max {max(busy_counts)}")
    doc = {
        "benchmark": "frames",
        "median_ms": round(median, 2),
        "p99_ms": round(p99, 2),
        "max_ms": round(max(times), 2),
        "frames": args.frames,
        "residents": len(sim.agents),
        "brain_delay_s": args.delay,
        "speed": args.speed,
        "game_minutes": round(game_minutes, 2),
        "start": str(start_game),
        "mean_residents_thinking": round(mean_busy, 1),
    }
    print(json.dumps(doc))


if __name__ == "__main__":
    main()
