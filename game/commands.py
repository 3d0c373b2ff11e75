"""The research subcommands: saves, interview, evaluate (the paper's evaluation); study
and results live in game/study_commands.py.

Kept apart from game/cli.py so each command is a small function over the simulation.
Only the commands that draw (play, replay, evaluate's chart) import pygame, and only
inside their handlers: the others stay headless.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable
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


def quiet_pygame() -> None:
    """Keep pygame's greeting off stdout. Called by a command just before it first imports
    pygame, because importing our modules must not change the environment."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def add_ablate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ablate",
        help="restrict what the interviewed resident may retrieve: reflection, planning "
        "(plan memories), memory (nothing at all) (comma-separated; the paper's ablations)",
    )


def _saves(args: argparse.Namespace) -> int:
    from game.core.text import single_line
    from game.sim.listing import list_saves
    from game.sim.saves import saves_root

    listed = list_saves()
    for s in listed:  # a folder we may not read: said in one line, and the listing goes on
        if s.problem:
            print(single_line(f"skipped {s.name}: {s.problem}", 300), file=sys.stderr)
    rows = [s for s in listed if not s.problem]
    if not rows:
        print(f"no saves yet in {saves_root()}" if not listed else "no readable saves")
        return 0
    print(f"{'name':24} {'scenario':12} {'game time':20} {'brain':10} size")
    for s in rows:
        print(
            f"{s.name:24} {s.scenario:12} {s.game_time[:19]:20} {s.brain:10} "
            f"{s.size_bytes / 1024:,.0f} KB"
        )
        if s.note:  # why it will not load, or what a damaged journal loses
            print(f"  {single_line(s.note, 300)}")
    return 0


def _load(args: argparse.Namespace, name: str = "", ablate: str | None = None, judge: bool = False):
    """The save (`--load`, or `name`), with the endpoint, model, caps and budget of the
    command line and settings: exactly what `run` would use. Model flags where no model
    answers anything (nor judges) are refused in one line."""
    from game.core.config import config_from_args
    from game.sim.factory import refused_if_unused
    from game.sim.saves import load_with

    settings = config_from_args(args)
    sim = load_with(name or args.load, settings, mind=parse_ablation(ablate))
    if sim.load_note:
        from game.cli import say

        say(sim.load_note)
    return sim if judge else refused_if_unused(sim, settings)


def _interview(args: argparse.Namespace) -> int:
    sim = _load(args, ablate=args.ablate)
    try:
        if args.battery:
            count = _battery(sim, args.out)
            print(
                f"{count} answers" + (f" written to {args.out}" if args.out else ""),
                file=sys.stderr,
            )
        else:
            names, questions = _interviewees(sim, args), _questions(args.question)
            for name in names:
                _converse(sim, name, questions, args.json, header=len(names) > 1)
    finally:
        sim.close()
    return 1 if _said_unwritten(sim.mind.brain) else 0


def _said_unwritten(*brains) -> list[str]:
    """What the model brains could not write of what they were asked to keep (--record,
    --audit-log on a full disk), each said as one error line: such a command exits 1."""
    from game.cli import say, unwritten

    lost = [p for brain in brains if brain is not None for p in unwritten(brain)]
    for problem in lost:
        say(f"error: {problem}")
    return lost


def _battery(sim, out: str | None) -> int:
    """The battery's JSON lines, to stdout or into `out` whole: the file is made before
    the first question (a missing or read-only folder fails at once) and renamed into
    place after the last, so a full disk leaves the file that was there before."""
    from game.core.files import atomic_file
    from game.sim.evaluation import run_battery

    if not out:
        return run_battery(sim, lambda row: print(json.dumps(row), flush=True))
    with atomic_file(out) as file:
        return run_battery(sim, lambda row: file.write((json.dumps(row) + "\n").encode()))


ALL = "all"  # --agent all: every resident, each in a conversation of its own


def _interviewees(sim, args: argparse.Namespace) -> list[str]:
    if not args.agent or not args.question:
        raise SmallvilleError("interview needs --agent NAME (or all) and a question (or --battery)")
    if args.agent == ALL:
        return sorted(sim.agents)
    if args.agent not in sim.agents:
        raise SmallvilleError(f"no resident named {no_resident(args.agent, sim.agents)}")
    return [args.agent]


def no_resident(name: str, names: Iterable[str]) -> str:
    """The name shown (at most 60 characters) and the resident meant, when one is close:
    a name that differs only in spaces or case was refused as 'Klaus Mueller' (the line's
    spaces are collapsed), and 'Klaus' gave no hint of who is there."""
    import difflib

    names = sorted(names)
    shown = repr(name if len(name) <= 60 else name[:57] + "...")

    def key(text: str) -> str:
        return " ".join(text.split()).casefold()

    same = [n for n in names if key(n) == key(name)]
    if same:
        return f"{shown} in this save: it differs from {same[0]!r} only in spaces or case"
    first = [n for n in names if key(n).split()[:1] == key(name).split()]
    close = first or difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if len(close) == 1:
        return f"{shown} in this save; did you mean {close[0]!r}?"
    some = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
    return f"{shown} in this save (its residents: {some})"


def _questions(words: list[str]) -> list[str]:
    """Each argument is one question ("q1" "q2": two, asked in that order). Words typed
    without quotes (no argument holds a space) are still one question, as they always
    were: `interview ... What are you doing?` asks one thing, not four."""
    from game.core.text import single_line

    if len(words) > 1 and not any(" " in w.strip() for w in words):
        words = [" ".join(words)]
    questions = [single_line(q, 2000) for q in words]
    empty = [i for i, q in enumerate(questions, start=1) if not q.strip()]
    if empty:
        raise SmallvilleError(f"question {empty[0]} is empty")
    return questions


def _converse(sim, name: str, questions: list[str], as_json: bool, header: bool) -> None:
    """One resident asked every question as one conversation: a JSON line per answer,
    or the answer alone (one question) or question and answer lines (several)."""
    from game.brains.talk import uses_model
    from game.core.codec import encode
    from game.core.text import single_line
    from game.sim.evaluation import ask_many

    answers = ask_many(sim, name, questions)
    if header and not as_json:
        print(f"== {name}")
    marked = uses_model(sim.mind.brain)  # with no model anywhere, every answer is scripted
    for done in answers:
        answer = single_line(done.answer, 4000)
        tag = f"{done.by.tag} " if marked else ""
        if as_json:
            row = {"agent": name, "question": done.question, "answer": answer}
            row |= {"answered_by": done.by.value}
            row |= {"fallback": bool(done.fallback), "act": encode(done.act)}
            print(json.dumps(row, ensure_ascii=False, default=str), flush=True)
        elif len(questions) == 1 and not header:
            print(f"{tag}{answer}")  # one question: the answer alone (and who gave it)
        else:
            print(f"Q: {done.question}\nA: {tag}{answer}", flush=True)


def _judge_brain(args: argparse.Namespace):
    """The model that judges beside the keyword judge (--judge llm), or None."""
    if args.judge != "llm":
        return None
    from game.core.config import config_from_args
    from game.sim.factory import make_brain

    return make_brain("llm", 0, config_from_args(args).llm)


def _evaluate(args: argparse.Namespace) -> int:
    from game.core.files import check_writable, write_atomic
    from game.sim.evaluation import measure
    from game.sim.ranking import as_json, rank, read_human
    from game.sim.ranking import table as rank_table
    from game.sim.study import summarize, table

    if args.human and not args.rank:
        raise SmallvilleError("--human FILE is the baseline of --rank: add --rank")
    if args.rank and args.judge != "llm":
        raise SmallvilleError(RANK_NEEDS_A_MODEL)
    report = Path(args.report)
    charts = [_chart_path(args, report, name) for name in args.load]
    for path in (report, *charts):
        check_writable(path)  # a missing or read-only folder fails before the measures
    _readable(args.load[1:])
    judge = _judge_brain(args)
    results, measured, problems = [], [], []
    try:
        for name in args.load:
            sim = _load(args, name, judge=judge is not None)
            try:
                human = read_human(Path(args.human), sim) if args.human else None  # first
                measured.append(measure(sim, judge))
                result = measured[-1].to_json() | {"save": name}
                ranked = rank(sim, judge, human) if args.rank else None
                if ranked is not None:
                    result["believability"] = as_json(ranked)
                results.append(result)
                problems += _chart(sim, measured[-1], _chart_path(args, report, name))
                _print_summary(name, measured[-1])
                if ranked is not None:
                    print(rank_table(ranked))
            finally:
                sim.close()
            problems += _said_unwritten(sim.mind.brain)
    finally:
        if judge is not None:
            judge.close()
    problems += _said_unwritten(judge)
    doc = results[0] if len(results) == 1 else {"evaluations": results}
    if len(results) > 1:
        rows = summarize(measured)
        doc["summary"] = [r.to_json() for r in rows]
        print(table(rows))
    write_atomic(report, json.dumps(doc, indent=2) + "\n")
    print(f"evaluation written to {report}", file=sys.stderr)
    return 1 if problems else 0  # a chart not written (said when it failed)


def _readable(names: list[str]) -> None:
    """The saves after the first, read before any is measured: a damaged or missing one
    last in `--load a --load b` was found after a's measures (a judge's spend) and chart,
    and the report of a was never written."""
    from game.sim.saves import read_save

    for name in names:
        read_save(name)


RANK_NEEDS_A_MODEL = (
    "--rank needs a model judge (--judge llm, with --base-url and --model): the scripted "
    "brain has no judgement of believability, so it ranks nothing"
)


def _chart_path(args: argparse.Namespace, report: Path, save: str) -> Path:
    if len(args.load) == 1:
        return Path(args.chart) if args.chart else report.with_suffix(".png")
    stem = Path(args.chart).with_suffix("") if args.chart else report.with_suffix("")
    return Path(f"{stem}-{Path(save).name}.png")


def _chart(sim, result, path: Path) -> list[str]:
    """The evaluation's chart (`result` is `measure`'s typed Evaluation); a chart that
    cannot be written is one line, and the report is still written (then exit 1)."""
    quiet_pygame()
    from game.core.errors import FileProblem
    from game.ui.chart import draw_chart

    try:
        draw_chart(path, result, sorted(sim.agents), (sim.scenario.start, sim.now))
    except FileProblem as exc:
        print(f"error: {exc}", file=sys.stderr)
        return [str(exc)]
    print(f"chart written to {path}", file=sys.stderr)
    return []


def _print_summary(name: str, result) -> None:
    """A few lines per save: each measure of the typed Evaluation, intents by id."""
    from game.sim.results import number

    print(f"{name}:")
    n = len(result.residents)
    for intent, d in result.diffusion.items():
        low, high = d.spread
        model = d.model_end
        beside = (
            f"; model judge {number(model)} (agrees on {d.model_agrees})"
            if model is not None
            else ""
        )
        print(
            f"  diffusion.{intent}: {d.start} -> {number(d.end)} of {n} judged (median of"
            f" {len(d.phrasings)} phrasings: {', '.join(map(str, d.counts))}; spread"
            f" {low}-{high}; {number(d.keyword_mentions)} mention a keyword){beside}"
        )
        for question in d.flagged:
            print(f"    flagged, far from the median: {question!r}")
    net = result.networks
    print(
        f"  density (interviews) {net.interview.start} -> {net.interview.end};"
        f" memory proxy {net.memory_proxy.start} -> {net.memory_proxy.end}"
    )
    h = result.hallucinations
    print(f"  hallucinated {h.hallucinated} of {h.checked} ({h.rate})")
    if result.truth is not None:
        print("\n".join(result.truth.lines()))
    for intent, a in result.attendance.items():
        print(
            f"  attendance.{intent}: invited {len(a.invited)}, accepted {len(a.accepted)},"
            f" maybe {len(a.maybe)}, declined {len(a.declined)}, attended {len(a.attended)}"
        )
    if result.ablations is not None:
        for condition, score in result.ablations.scores.items():
            print(f"  ablation {condition}: {score}")


def _doctor(args: argparse.Namespace) -> int:
    """Ask the endpoint what it supports; print the verdict and the settings to use."""
    from game.brains.llm.doctor import check, remember
    from game.brains.llm.endpoint import checked_url
    from game.core.config import config_from_args
    from game.core.text import public_url

    llm = config_from_args(args).llm
    url = public_url(checked_url(llm.base_url))  # malformed: one line before any request
    print(f"asking {url or 'the default endpoint'} about model {llm.model!r}:")
    verdict = check(llm, say=print)
    print(f"verdict: {verdict.line()}")
    if verdict.usable:
        print("settings for the config file's [llm] table:")
        for name, value in verdict.settings().items():
            shown = str(value).lower() if isinstance(value, bool) else json.dumps(value)
            print(f"  {name} = {shown}")
        remember(verdict)
        print("kept in the user cache: the next run starts from them")
    return 0 if verdict.usable else 1


def register(sub) -> None:
    """Add the research subcommands to the CLI's subparsers."""
    from game.core.config import add_llm_arguments, add_talk_arguments

    doctor = sub.add_parser(
        "doctor", help="ask the model endpoint which output modes and embeddings work, how fast"
    )
    add_llm_arguments(doctor)
    doctor.set_defaults(handler=_doctor)

    saves = sub.add_parser("saves", help="list saved games")
    saves.set_defaults(handler=_saves)

    interview = sub.add_parser("interview", help="interview a resident of a saved game")
    interview.add_argument("--load", required=True, help="save name or folder")
    interview.add_argument("--agent", help="the resident to ask, or all (each on its own)")
    interview.add_argument(
        "question",
        nargs="*",
        help='the questions, each quoted ("q1" "q2"), asked in order as one conversation '
        "(words without quotes make one question)",
    )
    interview.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per answer: agent, question, answer, answered_by (model, "
        "scripted fallback or scripted), fallback (the resident did not know), act",
    )
    interview.add_argument(
        "--battery",
        action="store_true",
        help="the paper's 25 questions for every resident, as JSONL",
    )
    interview.add_argument("--out", help="with --battery: write JSONL here")
    add_ablate(interview)
    add_llm_arguments(interview, with_brain=True)
    add_talk_arguments(interview)
    interview.set_defaults(handler=_interview)

    ev = sub.add_parser("evaluate", help="the paper's end-to-end measures for saves")
    ev.add_argument(
        "--load", required=True, action="append", help="save name or folder (repeat for several)"
    )
    ev.add_argument("--report", default="eval.json", help="JSON output")
    ev.add_argument("--chart", help="PNG chart (default: the report's name with .png)")
    ev.add_argument(
        "--judge",
        choices=("keyword", "llm"),
        default="keyword",
        help="llm: a model also judges each answer with the same rubric (shown side by side)",
    )
    ev.add_argument(
        "--rank",
        action="store_true",
        help="also rank believability the paper's way: the battery under each condition, "
        "ordered by the model judge (needs --judge llm), TrueSkill-style ratings",
    )
    ev.add_argument(
        "--human",
        metavar="FILE",
        help="with --rank: answers written by people (JSON lines: agent, question, answer)",
    )
    add_llm_arguments(ev, with_brain=True)
    add_talk_arguments(ev)
    ev.set_defaults(handler=_evaluate)

    from game.study_commands import register as register_studies

    register_studies(sub)  # study, results
