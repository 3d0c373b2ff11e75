"""The command line: one subcommand per way into the town.

Errors we raise on purpose (SmallvilleError) print as one line and exit 2, never as a
traceback; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from game.core.errors import SmallvilleError

Handler = Callable[[argparse.Namespace], int]


def _town(args: argparse.Namespace) -> int:
    from game.world.describe import describe_tree, tree_dict
    from game.world.scenario import load_world

    scenario, town = load_world(args.scenario)
    if args.json:
        doc = {
            "map": {"width": town.width, "height": town.height, "tile": town.tile},
            "sectors": tree_dict(town),
            "residents": [
                {"name": r.name, "home": r.home, "workplace": r.workplace}
                for r in scenario.residents
            ],
        }
        print(json.dumps(doc, indent=2))
        return 0
    print(f"{scenario.name}: {town.width} x {town.height} tiles of {town.tile} px")
    print(describe_tree(town))
    print(f"\n{len(scenario.residents)} residents:")
    for r in scenario.residents:
        print(f"  {r.name} ({r.age}), {r.occupation}; lives at {r.home}")
    return 0


def _run(args: argparse.Namespace) -> int:
    import time
    from datetime import timedelta

    from game.sim.factory import build_simulation
    from game.sim.report import build_report

    sim = build_simulation(args.scenario, seed=args.seed, brain=args.brain, workers=args.workers)
    start = sim.now
    end = start + timedelta(hours=args.hours)
    total = max(1, int((end - start).total_seconds() // sim.config.step_seconds))
    began = time.perf_counter()
    last = [began]

    def progress(s) -> None:
        now = time.perf_counter()
        if now - last[0] < 1.0 and s.now < end:
            return
        last[0] = now
        rate = s.steps / max(1e-9, now - began)
        print(
            f"\r{s.now:%Y-%m-%d %H:%M}  {100 * s.steps / total:5.1f}%  {rate:7.0f} steps/s",
            end="",
            file=sys.stderr,
            flush=True,
        )

    try:
        sim.run_until(end, None if args.quiet else progress)
    finally:
        sim.close()
    wall = time.perf_counter() - began
    if not args.quiet:
        print(file=sys.stderr)
    report = build_report(sim, start, wall, sim.mind.brain.name)
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.report:
        from pathlib import Path

        Path(args.report).write_text(text + "\n", encoding="utf-8")
        print(f"report written to {args.report}", file=sys.stderr)
    else:
        print(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="main.py",
        description="Smallville: 25 generative agents in a small town. "
        "With no subcommand, opens the game (play).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    town = sub.add_parser("town", help="print the town's map, areas and residents")
    town.add_argument("--scenario", default="smallville", help="bundled name or path to JSON")
    town.add_argument("--json", action="store_true", help="print JSON instead of a tree")
    town.set_defaults(handler=_town)
    run = sub.add_parser("run", help="run the town headless and write a report")
    run.add_argument("--scenario", default="smallville", help="bundled name or path to JSON")
    run.add_argument("--hours", type=float, default=24.0, help="game hours to run")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--brain", default="scripted", help="scripted (default)")
    run.add_argument("--workers", type=int, default=8, help="cognition threads")
    run.add_argument("--report", help="write the JSON report here (default: stdout)")
    run.add_argument("--quiet", action="store_true", help="no progress line")
    run.set_defaults(handler=_run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv) or ["play"])
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except SmallvilleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130
