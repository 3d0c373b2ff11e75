"""How the town scales: 25, 100 and 500 residents (issue 25, item 5).

For each bundled town (`smallville`, `smallville100`, `smallville500`), in a process of
its own so that each peak RSS is its own:

- `day_seconds`: wall seconds of one game day headless (04:00 to 04:00, the scripted
  brain, lockstep), and `cpu_seconds` beside it (on a shared machine the wall clock also
  counts other programs' turns);
- `peak_rss_mb` of that process;
- `memories_per_resident_day`: memories written during the day, per resident;
- for 25 and 100: `frame_median_ms` and `frame_p99_ms` of the window at 1x (dummy video
  driver) while a brain that takes 2 s per answer thinks, measured as benchmarks/frames.py
  does (a busy morning: run headless to 07:30 first), in another process, with
  `frame_cpu_median_ms` and `frame_cpu_p99_ms`: the frame thread's own CPU time, which a
  loaded machine does not inflate as it does the wall clock.

Each game hour of a headless day prints its wall and CPU seconds so far to stderr.

Targets (issue 25): r100 frame_p99_ms <= 33 and day_seconds <= 40; r500 day_seconds <= 240.

Usage: python benchmarks/scale.py [--sizes 25,100,500] [--hours 24] [--frames 600]
Last line is JSON: {"benchmark": "scale", "r25": {...}, "r100": {...}, "r500": {...}}
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from game.core.blas import blas_threads, one_blas_thread  # noqa: E402

one_blas_thread()  # as main.py does, before numpy loads (the children inherit it): with a
# BLAS thread per core, each small product of the dialogue reader waited ms for its threads

SCENARIOS = {25: "smallville", 100: "smallville100", 500: "smallville500"}
WINDOWED = (25, 100)  # the 500 town is for headless studies
TARGETS = {"r100": {"frame_p99_ms": 33, "day_seconds": 40}, "r500": {"day_seconds": 240}}


def headless(scenario: str, hours: float, seed: int) -> dict:
    """One game day headless in this process: wall and CPU time, peak RSS, memories."""
    from game.sim.factory import build_simulation
    from game.sim.report import peak_rss_mb

    sim = build_simulation(scenario, seed=seed)
    before = sum(len(a.memory) for a in sim.agents.values())
    wall, cpu = time.perf_counter(), time.process_time()
    sim.run_until(sim.now + timedelta(hours=hours), Hourly(sim.now, wall, cpu))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    sim.close()
    n = len(sim.agents)
    made = sum(len(a.memory) for a in sim.agents.values()) - before
    days = hours / 24
    return {
        "residents": n,
        "day_seconds": round(wall / days, 1),
        "cpu_seconds": round(cpu / days, 1),
        "peak_rss_mb": peak_rss_mb(),
        "memories_per_resident_day": round(made / n / days, 1),
    }


class Hourly:
    """Each game hour's wall and CPU seconds so far, on stderr: a long run shows where its
    time goes (the night is cheap, the lunch hour is not) even if it is stopped early."""

    def __init__(self, start, wall: float, cpu: float) -> None:
        self.start, self.wall, self.cpu, self.hour = start, wall, cpu, 0

    def __call__(self, sim) -> None:
        hour = int((sim.now - self.start).total_seconds() // 3600)
        if hour > self.hour:
            self.hour = hour
            print(f"  {len(sim.agents)} residents, game {sim.now:%H:%M}: wall "
                  f"{time.perf_counter() - self.wall:.0f} s, cpu "
                  f"{time.process_time() - self.cpu:.0f} s", file=sys.stderr, flush=True)


def window(scenario: str, frames: int, seed: int) -> dict:
    """Frame times at 1x with a 2 s-per-answer brain, built as benchmarks/frames.py builds
    the town (a busy morning: headless to 07:30 first). Beside each frame's wall time, the
    frame thread's CPU time: on a loaded machine the wall clock also counts the turns of
    other programs and of the cognition threads."""
    import statistics
    import tempfile

    import frames as bench
    import pygame

    from game.ui.app import App, Options

    with tempfile.TemporaryDirectory() as data:  # no autosave lands in the player's folder
        os.environ["SMALLVILLE_DATA"] = data
        sim = bench.build(scenario, 2.0, seed, 8, "07:30")
        app = App(Options(speed=1, autosave_minutes=0))
        app.replace_town(sim, "Robin")
        clock = pygame.time.Clock()
        clock.tick()
        walls, cpus = [], []
        for _ in range(frames):
            dt = clock.tick(60) / 1000.0
            t0, c0 = time.perf_counter(), time.thread_time()
            app.frame(dt)
            walls.append((time.perf_counter() - t0) * 1000)
            cpus.append((time.thread_time() - c0) * 1000)
        app.close()
    return {"frame_median_ms": round(statistics.median(walls), 2),
            "frame_p99_ms": round(bench.percentile(walls, 0.99), 2),
            "frame_max_ms": round(max(walls), 2),
            "frame_cpu_median_ms": round(statistics.median(cpus), 2),
            "frame_cpu_p99_ms": round(bench.percentile(cpus, 0.99), 2)}


def child(part: str, size: int, args: argparse.Namespace) -> dict:
    """Run one part in a fresh process (its own peak RSS); its last line is the JSON."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--part", part, "--sizes", str(size),
           "--hours", str(args.hours), "--frames", str(args.frames), "--seed", str(args.seed)]
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "dummy"),
               SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"))
    done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{part} of {size} residents failed (its errors are above)")
    return json.loads(done.stdout.strip().splitlines()[-1])


def verdicts(doc: dict) -> dict[str, bool]:
    """Each target of the issue, met or not."""
    return {f"{key}.{field}": doc[key][field] <= limit
            for key, fields in TARGETS.items() if key in doc
            for field, limit in fields.items() if field in doc[key]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25,100,500")
    parser.add_argument("--hours", type=float, default=24.0, help="game hours headless")
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--part", choices=("headless", "window"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.part:
        scenario = SCENARIOS[sizes[0]]
        result = (headless(scenario, args.hours, args.seed) if args.part == "headless"
                  else window(scenario, args.frames, args.seed))
        print(json.dumps(result))
        return
    doc: dict = {"benchmark": "scale", "game_hours": args.hours, "cpus": os.cpu_count(),
                 "load_average": [round(x, 2) for x in os.getloadavg()],
                 "blas_threads": blas_threads()}
    for size in sizes:
        row = child("headless", size, args)
        if size in WINDOWED:
            row.update(child("window", size, args))
        doc[f"r{size}"] = row
        print(f"{size} residents: {row}", file=sys.stderr)
    doc["targets_met"] = verdicts(doc)
    print(json.dumps(doc))


if __name__ == "__main__":
    main()
