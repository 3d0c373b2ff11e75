"""Frame times of the game window while a slow brain thinks.

25 residents, the real-time clock at 1x, and a brain that takes 2 s per answer (the
scripted brain wrapped so every question sleeps first, like a slow model server). The
window must keep its frame rate: cognition runs on the thread pool and the frame loop
never waits for it. Runs with the dummy video driver unless SDL_VIDEODRIVER is set.

Two runs: 1x, then 32x with autosave every game hour (the autosave snapshots on the frame
thread and writes on its own; the figures say how long the snapshot took and how many
bytes each autosave wrote).

Usage: python benchmarks/frames.py [--frames 600] [--delay 2.0] [--start 07:30]
       [--fast-speed 32] [--autosave 60]
Last line is JSON: {"benchmark": "frames", "median_ms", "p99_ms" (1x), "runs": [...]}
(targets for both runs: median <= 16.7 ms, p99 <= 33 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
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


def measure(args: argparse.Namespace, speed: int, autosave_minutes: int) -> dict:
    """One run of the window: frame times, and the autosaves it made."""
    import pygame

    from game.ui.app import App, Options

    sim = build(args.scenario, args.delay, args.seed, args.workers, args.start)
    app = App(Options(speed=speed, autosave_minutes=autosave_minutes))
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
    saver = town.autosaver
    saver.wait()
    game_minutes = (sim.now - start_game).total_seconds() / 60
    written = list(saver.written)
    snapshot_ms = list(saver.snapshot_ms)
    app.close()
    median, p99 = statistics.median(times), percentile(times, 0.99)
    increments = [w.bytes for w in written if not w.base]
    label = f"{speed}x" + (
        f", autosave every {autosave_minutes} game min" if autosave_minutes else ""
    )
    print(f"[{label}] {len(sim.agents)} residents, {args.frames} frames in {wall:.1f} s")
    print(f"  game time advanced {game_minutes:.1f} min ({town.steps_run} steps)")
    print(f"  frame work: median {median:.2f} ms, p99 {p99:.2f} ms, max {max(times):.2f} ms")
    mean_busy = statistics.mean(busy_counts)
    print(f"  residents waiting on the slow brain: mean {mean_busy:.1f}, max {max(busy_counts)}")
    if autosave_minutes:
        base = [w.bytes for w in written if w.base]
        print(
            f"  autosaves {len(written)}: base {sum(base) / 1e6:.2f} MB, increments "
            f"{[round(b / 1e6, 3) for b in increments]} MB; snapshot on the frame thread "
            f"max {max(snapshot_ms, default=0):.1f} ms"
        )
    return {
        "speed": speed,
        "autosave_minutes": autosave_minutes,
        "median_ms": round(median, 2),
        "p99_ms": round(p99, 2),
        "max_ms": round(max(times), 2),
        "game_minutes": round(game_minutes, 2),
        "start": str(start_game),
        "mean_residents_thinking": round(mean_busy, 1),
        "autosaves": len(written),
        "autosave_snapshot_max_ms": round(max(snapshot_ms, default=0.0), 2),
        "autosave_increment_max_mb": round(max(increments, default=0) / 1e6, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", default="smallville")
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--delay", type=float, default=2.0, help="seconds per brain answer")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--start", default="07:30", help="game time to start at ('' = 04:00)")
    parser.add_argument("--fast-speed", type=int, default=32, help="speed of the second run")
    parser.add_argument("--autosave", type=int, default=60, help="game minutes, second run")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as data:  # autosaves go here, not the player's folder
        os.environ["SMALLVILLE_DATA"] = data
        runs = [measure(args, 1, 0), measure(args, args.fast_speed, args.autosave)]
    doc = {
        "benchmark": "frames",
        "frames": args.frames,
        "residents": 25 if args.scenario == "smallville" else None,
        "brain_delay_s": args.delay,
        "median_ms": runs[0]["median_ms"],
        "p99_ms": runs[0]["p99_ms"],
        "runs": runs,
    }
    print(json.dumps(doc))


if __name__ == "__main__":
    main()
