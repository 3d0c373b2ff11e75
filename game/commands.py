"""The research subcommands: saves, interview, evaluate (the paper's evaluation, built in).

Kept apart from game/cli.py so each command is a small function over the simulation.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from game.core.errors import SmallvilleError
from game.core.mind_settings import Ablation, MindSettings

ABLATIONS = ("reflection", "planning", "memory")


def parse_ablation(text: str | None) -> MindSettings:
    """'reflection,planning' -> the paper's 'no reflection, no planning' condition."""
    off = {p.strip() for p in (text or "").split(",") if p.strip()}
    unknown = off - set(ABLATIONS)
    if unknown:
        raise SmallvilleError(
            f"--ablate takes {', '.join(ABLATIONS)} (comma-separated), not {sorted(unknown)}"
        )
    return MindSettings(ablation=Ablation(**{k: k not in off for k in ABLATIONS}))


def add_ablate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ablate",
        help="switch parts of the architecture off: reflection, planning, memory "
        "(comma-separated; the paper's ablation conditions)",
    )


def _saves(args: argparse.Namespace) -> int:
    from game.sim.saves import list_saves, saves_root

    rows = list_saves()
    if not rows:
        print(f"no saves yet in {saves_root()}")
        return 0
    print(f"{'name':24} {'scenario':12} {'game time':20} {'brain':10} size")
    for s in rows:
        print(
            f"{s.name:24} {s.scenario:12} {s.game_time[:19]:20} {s.brain:10} "
            f"{s.size_bytes / 1024:,.0f} KB"
        )
    return 0


def _load(args: argparse.Namespace):
    """The save, with the endpoint, model, caps and budget of the command line and
    settings: exactly what `run` would use."""
    from game.core.config import config_from_args
    from game.sim.saves import load_game

    settings = config_from_args(args)
    mind = parse_ablation(args.ablate)
    return load_game(args.load, mind=mind, workers=settings.workers, llm=settings.llm)


def _interview(args: argparse.Namespace) -> int:
    from game.sim.evaluation import ask, run_battery

    sim = _load(args)
    try:
        if args.battery:
            out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
            try:
                count = run_battery(sim, lambda row: print(json.dumps(row), file=out, flush=True))
            finally:
                if out is not sys.stdout:
                    out.close()
            print(
                f"{count} answers" + (f" written to {args.out}" if args.out else ""),
                file=sys.stderr,
            )
            return 0
        if not args.agent or not args.question:
            raise SmallvilleError("interview needs --agent NAME and a question (or --battery)")
        if args.agent not in sim.agents:
            raise SmallvilleError(f"no resident named {args.agent!r} in this save")
        from game.core.text import single_line

        question = single_line(" ".join(args.question), 2000)
        print(single_line(ask(sim, args.agent, question), 4000))
        return 0
    finally:
        sim.close()


def _evaluate(args: argparse.Namespace) -> int:
    from game.sim.evaluation import evaluate, network_edges

    sim = _load(args)
    try:
        result = evaluate(sim)
        report = Path(args.report)
        report.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        chart = Path(args.chart) if args.chart else report.with_suffix(".png")
        from game.ui.chart import draw_chart

        before, after = network_edges(sim)
        span = (sim.scenario.start, sim.now)
        draw_chart(chart, result, sorted(sim.agents), before, after, span)
        print(f"evaluation written to {report} and {chart}", file=sys.stderr)
        for intent, d in result["information_diffusion"].items():
            print(
                f"  {intent}: {d['start']} -> {d['end']} of {result['residents']}"
                f" ({d['percent_end']}%), ungrounded {len(d['ungrounded'])}"
            )
        n = result["network_density"]
        print(f"  network density {n['start']} -> {n['end']}")
        return 0
    finally:
        sim.close()


def register(sub) -> None:
    """Add the research subcommands to the CLI's subparsers."""
    from game.core.config import add_llm_arguments

    saves = sub.add_parser("saves", help="list saved games")
    saves.set_defaults(handler=_saves)

    interview = sub.add_parser("interview", help="interview a resident of a saved game")
    interview.add_argument("--load", required=True, help="save name or folder")
    interview.add_argument("--agent", help="the resident to ask")
    interview.add_argument("question", nargs="*", help="the question")
    interview.add_argument(
        "--battery",
        action="store_true",
        help="the paper's 25 questions for every resident, as JSONL",
    )
    interview.add_argument("--out", help="with --battery: write JSONL here")
    add_ablate(interview)
    add_llm_arguments(interview, with_brain=True)
    interview.set_defaults(handler=_interview)

    ev = sub.add_parser("evaluate", help="the paper's end-to-end measures for a save")
    ev.add_argument("--load", required=True, help="save name or folder")
    ev.add_argument("--report", default="eval.json", help="JSON output")
    ev.add_argument("--chart", help="PNG chart (default: the report's name with .png)")
    add_ablate(ev)
    add_llm_arguments(ev, with_brain=True)
    ev.set_defaults(handler=_evaluate)
