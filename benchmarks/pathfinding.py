"""Time A* on the Smallville map: 200 random home-to-workplace paths.

Usage: python benchmarks/pathfinding.py   (last line is JSON)
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.world.pathfinding import PathFinder  # noqa: E402
from game.world.scenario import load_world  # noqa: E402


def main() -> None:
    scenario, town = load_world("smallville")
    finder = PathFinder(town.walkable)
    rng = random.Random(7)
    pairs = []
    for _ in range(200):
        res = rng.choice(scenario.residents)
        start = town.access_tile(res.bed)
        goal = town.access_tile(res.workplace or rng.choice(res.known_places))
        pairs.append((start, goal))
    times, lengths = [], []
    for start, goal in pairs:
        t0 = time.perf_counter()
        path = finder.path(start, goal)
        times.append((time.perf_counter() - t0) * 1000)
        assert path is not None, f"no path {start} -> {goal}"
        lengths.append(len(path))
    times.sort()
    median = statistics.median(times)
    p99 = times[int(len(times) * 0.99) - 1]
    mean_len = statistics.mean(lengths)
    print(f"{len(pairs)} paths on {town.width}x{town.height}, mean length {mean_len:.0f} tiles")
    print(f"median {median:.2f} ms, p99 {p99:.2f} ms, max {times[-1]:.2f} ms")
    print(
        json.dumps(
            {"benchmark": "pathfinding", "median_ms": round(median, 3), "p99_ms": round(p99, 3)}
        )
    )


if __name__ == "__main__":
    main()
