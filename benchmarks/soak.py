"""Soak: the 25-resident town for 7 game days on the scripted brain.

Prints wall seconds per game day, `flatness` (the slowest day's wall time over the first
day's: a run whose later days cost more as the memory streams grow shows it here), the
same for the process's CPU seconds (`cpu_flatness`: on a shared machine the wall clock
also counts other programs' turns on the cores, the CPU clock only this one's work), the
BLAS thread count it ran with (one, as `main.py` sets it, unless the environment says
otherwise), the process's peak memory, memory-stream sizes and retrieval time on the
largest stream at the end (last line JSON).
Usage: python benchmarks/soak.py [--days 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.core.blas import blas_threads, one_blas_thread  # noqa: E402

one_blas_thread()  # as main.py does, before numpy loads

from game.mind.retrieval import retrieve  # noqa: E402
from game.sim.factory import build_simulation  # noqa: E402
from game.sim.report import DayTimer, peak_rss_mb  # noqa: E402


def retrieval_ms(sim) -> tuple[int, float]:
    """Median ms of one retrieval over the largest memory stream."""
    agent = max(sim.agents.values(), key=lambda a: len(a.memory))
    view = agent.memory.view()
    query = sim.mind.embedder.embed(["what is happening at the cafe today?"])[0]
    times = []
    for _ in range(50):
        t0 = time.perf_counter()
        retrieve(view, query, sim.now, sim.config.mind.retrieval)
        times.append((time.perf_counter() - t0) * 1000)
    return len(view), statistics.median(times)


class CpuDays:
    """CPU seconds of this process (all its threads) on each game day, marked where
    DayTimer marks the wall clock."""

    def __init__(self, start) -> None:
        self.start = start
        self.marks = [time.process_time()]

    def __call__(self, sim) -> None:
        days = int((sim.now - self.start).total_seconds() // 86400)
        while len(self.marks) <= days:
            self.marks.append(time.process_time())

    def per_day(self) -> list[float]:
        return [round(b - a, 2) for a, b in zip(self.marks, self.marks[1:], strict=False)]


def flatness(per_day: list[float]) -> float | None:
    """The slowest day's wall time over the first day's (None before a whole day)."""
    if not per_day or per_day[0] <= 0:
        return None
    return round(max(per_day) / per_day[0], 2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=int, default=7, help="game days to run (default 7)")
    args = parser.parse_args()
    sim = build_simulation("smallville", seed=7)
    start = sim.now
    timer, cpu = DayTimer(start), CpuDays(start)

    def mark(sim) -> None:
        timer(sim)
        cpu(sim)

    began = time.perf_counter()
    sim.run_until(start + timedelta(days=args.days), mark)
    wall = time.perf_counter() - began
    sim.close()
    per_day = timer.per_day()
    memories = sum(len(a.memory) for a in sim.agents.values())
    largest, ms = retrieval_ms(sim)
    threads = blas_threads()
    flat = flatness(per_day)
    cpu_per_day = cpu.per_day()
    print(f"{args.days} game days, 25 residents: {wall:.0f} s wall")
    print("wall seconds per day: " + ", ".join(f"{d:.1f}" for d in per_day))
    print("CPU seconds per day: " + ", ".join(f"{d:.1f}" for d in cpu_per_day))
    print(f"flatness (slowest day / first day): {flat} wall, {flatness(cpu_per_day)} CPU")
    print(f"BLAS threads: {threads}")
    print(f"peak memory {peak_rss_mb()} MB, {memories} memories in all")
    print(f"retrieval on the largest stream ({largest} memories): {ms:.2f} ms median")
    print(
        json.dumps(
            {
                "benchmark": "soak",
                "game_days": args.days,
                "wall_seconds": round(wall, 1),
                "wall_seconds_per_day": per_day,
                "flatness": flat,
                "cpu_seconds_per_day": cpu_per_day,
                "cpu_flatness": flatness(cpu_per_day),
                "blas_threads": threads,
                "peak_rss_mb": peak_rss_mb(),
                "memories": memories,
                "largest_stream": largest,
                "retrieval_ms_largest": round(ms, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
