"""The paper's end-to-end measures, measured the paper's way, over several seeds.

Runs the 25-resident town for 2 game days on seeds 7, 8 and 9 with the scripted brain,
evaluates each (judged diffusion, interview networks, hallucinations, attendance,
interview-time ablations) and prints the table of ours (mean, min, max) beside the paper.
Slow by design: three two-day runs plus about 2,000 interviews each.

Usage: python benchmarks/believability.py [--seeds 7,8,9] [--hours 48] [--workers 2]
                                          [--report all.json]
       (last line is JSON)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.outputs import writable, written  # noqa: E402
from game.sim.study import study, table  # noqa: E402


def key(measure: str) -> str:
    """'diffusion.launch spread' -> 'diffusion_launch_spread' (the JSON line's keys)."""
    for old in (".", ": ", " (", ")", " "):
        measure = measure.replace(old, "_")
    return measure.strip("_")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="7,8,9")
    parser.add_argument("--hours", type=float, default=48.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scenario", default="smallville")
    parser.add_argument("--report", help="also write every evaluation here (JSON)")
    args = parser.parse_args()
    writable(args.report)  # before the seeds' runs, not after
    seeds = [int(s) for s in args.seeds.split(",")]
    began = time.perf_counter()

    def done(seed: int, result) -> None:
        spread = ", ".join(f"{k} {d.end:g}" for k, d in result.diffusion.items())
        print(f"seed {seed}: {spread}, {time.perf_counter() - began:.0f} s", flush=True)

    results, rows = study(args.scenario, seeds, args.hours, workers=args.workers, on_seed=done)
    wall = time.perf_counter() - began
    if args.report:
        evaluations = [r.to_json() | {"seed": s} for s, r in zip(seeds, results, strict=True)]
        doc = {"evaluations": evaluations, "summary": [r.to_json() for r in rows]}
        written(args.report, json.dumps(doc, indent=1) + "\n")
    print(table(rows))
    out: dict = {"benchmark": "believability", "seeds": seeds, "game_hours": args.hours}
    for row in rows:
        out[key(row.measure)] = {"mean": row.mean, "min": row.low, "max": row.high,
                                 "paper": row.paper}  # fmt: skip
    out["wall_seconds"] = round(wall, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
