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

from game.sim.study import study, table  # noqa: E402

KEYS = {
    "party diffusion": "party_diffusion",
    "candidacy diffusion": "candidacy_diffusion",
    "party keyword mentions": "party_keyword_mentions",
    "density start": "density_start",
    "density end": "density_end",
    "density end (memory proxy)": "density_end_memory_proxy",
    "hallucination rate": "hallucination_rate",
    "invited": "invited",
    "accepted": "accepted",
    "attended": "attended",
    "conversations": "conversations",
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="7,8,9")
    parser.add_argument("--hours", type=float, default=48.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scenario", default="smallville")
    parser.add_argument("--report", help="also write every evaluation here (JSON)")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    began = time.perf_counter()

    def done(seed: int, result: dict) -> None:
        spread = result["information_diffusion"]
        print(
            f"seed {seed}: party {spread['party']['end']}, candidacy "
            f"{spread['election']['end']}, {time.perf_counter() - began:.0f} s",
            flush=True,
        )

    results, rows = study(args.scenario, seeds, args.hours, workers=args.workers, on_seed=done)
    wall = time.perf_counter() - began
    if args.report:
        doc = {"evaluations": results, "summary": rows}
        Path(args.report).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(table(rows))
    out: dict = {"benchmark": "believability", "seeds": seeds, "game_hours": args.hours}
    for row in rows:
        key = KEYS.get(row["measure"]) or row["measure"].replace(": ", "_").replace(" ", "_")
        out[key] = {k: row.get(k) for k in ("mean", "min", "max", "paper")}
    out["wall_seconds"] = round(wall, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
