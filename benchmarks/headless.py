"""Run the 25-resident town for one game day headless (scripted brain, lockstep).

Usage: python benchmarks/headless.py [--hours 24] [--workers 8]   (last line is JSON)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.sim.factory import build_simulation  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hours", type=float, default=24.0)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sim = build_simulation("smallville", seed=args.seed, workers=args.workers)
    began = time.perf_counter()
    sim.run_until(sim.now + timedelta(hours=args.hours))
    wall = time.perf_counter() - began
    sim.close()
    agent_steps = sim.steps * len(sim.agents)
    talks = sum(a.conversations for a in sim.agents.values()) // 2
    print(f"{len(sim.agents)} residents, {args.hours:g} game hours, {sim.steps} steps")
    print(f"wall {wall:.1f} s, {agent_steps / wall:,.0f} agent-steps/s, {talks} conversations")
    print(
        json.dumps(
            {
                "benchmark": "headless",
                "residents": len(sim.agents),
                "game_hours": args.hours,
                "wall_seconds": round(wall, 2),
                "agent_steps_per_second": round(agent_steps / wall),
            }
        )
    )


if __name__ == "__main__":
    main()
