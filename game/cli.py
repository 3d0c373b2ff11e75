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
