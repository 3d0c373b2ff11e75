"""`study` and `results`: many runs on a local pool or Ray, kept in a results store.

`study` turns its seeds, conditions and repeats into runs (game/sim/runs.py), skips the
ones the store already holds, executes the rest on an engine (game/sim/engines.py) and
commits each to the store as it finishes (game/sim/store.py). `results` reads a store
back: the table by condition, a CSV or Parquet export, and a plot. Neither loads pygame,
but `results --plot`, which draws with the project's chart code.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
import time
from pathlib import Path

from game.core.errors import SmallvilleError
from game.sim.runs import FULL, RunResult, RunSpec

PARQUET_MISSING = "--parquet needs pyarrow: pip install pyarrow (or export with --csv)"


def _study(args: argparse.Namespace) -> int:
    from game.cli import number
    from game.core.files import check_writable
    from game.sim.runs import plan, setups

    hours = [number("--hours", h, 1 / 360, 24 * 366) for h in args.hours or [48.0]]
    number("--repeats", args.repeats, 1, 1000)
    scenarios = [_absolute(s) for s in args.scenario or ["smallville"]]
    conditions = setups(scenarios, args.brain or ["scripted"], hours, args.ablate or [FULL])
    save_dir = str(Path(args.save_dir).resolve()) if args.save_dir else ""
    if save_dir:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
    specs = plan(conditions, _seeds(args.seeds), args.repeats, threads=max(1, args.threads),
                 save_dir=save_dir)  # fmt: skip
    store_path = Path(args.store or Path(args.report or ".").parent / "study.db")
    for path in [p for p in (args.report, store_path) if p]:
        check_writable(path)  # before the runs, not after them
    if args.engine == "ray":
        from game.sim.engines import import_ray

        import_ray()  # not installed: one line, before any store is made
    from game.sim.store import Store

    with Store.open(store_path) as store:
        todo = _todo(specs, store, args.rerun)
        failed = _execute(todo, store, args) if todo else 0
        _finish(specs, store, args)
    if failed:
        _say(f"{failed} run(s) failed (kept in {store_path} with their errors)")
    return 1 if failed else 0


def _absolute(scenario: str) -> str:
    """A scenario file's path from the root, since a Ray worker runs in a folder of its
    own; a bundled scenario's name stays a name."""
    return str(Path(scenario).resolve()) if scenario.endswith(".json") else scenario


def _todo(specs: list[RunSpec], store, rerun: bool) -> list[RunSpec]:
    """The runs to do: all with --rerun, else those the store does not hold."""
    held = set() if rerun else store.held()
    todo = [s for s in specs if s.key not in held]
    if len(todo) < len(specs):
        _say(f"{len(specs) - len(todo)} run(s) already in {store.path}: skipped "
             "(--rerun to run them again)")  # fmt: skip
    return todo


def _engine(args: argparse.Namespace):
    from game.sim.engines import LocalPool, RayEngine

    if args.engine == "ray":
        return RayEngine(args.ray_address)
    return LocalPool(args.workers or os.cpu_count() or 1)


def _execute(todo: list[RunSpec], store, args: argparse.Namespace) -> int:
    """Run `todo`, each result stored as it comes; returns how many failed. Ctrl+C stops
    what is left; the store keeps every run finished before it."""
    from game.progress import ProgressLine
    from game.sim.engines import drive
    from game.sim.store import provenance

    line = ProgressLine(sys.stderr)
    engine = _engine(args)
    made = provenance(engine.name)

    def stored(result: RunResult) -> None:
        store.put(result, made)
        if not args.quiet:
            line.say(_done_line(result))

    shown = ["", 0.0]  # the text on the line, and when it was drawn

    def progress(tally) -> None:
        text = _progress_line(tally, engine.name, engine.capacity)
        now = time.monotonic()
        if args.quiet or (text == shown[0] or now - shown[1] < 1.0) and tally.running:
            return  # redrawn when it changes, at most once a second (and at the end)
        shown[:] = [text, now]
        line.show(text)

    try:
        with line.taking_logs():
            tally = drive(todo, engine, stored, progress)
    except KeyboardInterrupt:
        line.end()
        _say(f"the runs not finished were cancelled; {store.path} keeps the "
             f"{len(store.held())} run(s) it holds")  # fmt: skip
        raise  # the command line says 'stopped' and exits 130
    finally:
        line.end()
        engine.close()
    return tally.failed


def _progress_line(tally, engine: str, capacity: int) -> str:
    eta = tally.eta(time.monotonic())
    left = "" if eta is None else f", about {_duration(eta)} left"
    return (f"{engine} ({capacity} at a time): {tally.done} done, {tally.running} running, "
            f"{tally.failed} failed, of {tally.total}{left}")  # fmt: skip


def _done_line(result: RunResult) -> str:
    s = result.spec
    name = f"{s.setup.label} seed {s.seed}" + (f" repeat {s.repeat}" if s.repeat else "")
    if not result.ok:
        return f"failed: {name} after {result.attempts} attempt(s): {result.error}"
    return f"done: {name} in {_duration(result.wall_seconds)}"


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


def _finish(specs: list[RunSpec], store, args: argparse.Namespace) -> None:
    """The study's table (its runs, stored now or before), and its report."""
    from game.sim.study import by_condition, condition_table

    runs = store.runs(s.key for s in specs)
    groups = by_condition(runs)
    print(condition_table(groups))
    if args.report:
        _report(args.report, specs, store, runs, groups)


def _report(path: str, specs, store, runs, groups) -> None:
    from game.core.files import write_atomic

    evaluations = []
    for run in runs:
        doc = store.evaluation(run.spec.key) if run.ok else None
        head = {"condition": run.setup.label, "seed": run.seed, "repeat": run.spec.repeat}
        fault = {} if run.ok else {"error": run.error}
        evaluations.append(head | {"wall_seconds": run.wall_seconds} | fault | (doc or {}))
    doc = {
        "store": str(store.path),
        "seeds": sorted({s.seed for s in specs}),
        "conditions": [g.setup.label for g in groups],
        "evaluations": evaluations,
        "summary": [{"condition": g.setup.label} | r.to_json() | {"sd": r.sd}
                    for g in groups for r in g.rows],
    }  # fmt: skip
    write_atomic(path, json.dumps(doc, indent=2) + "\n")
    _say(f"study written to {path}")


def _seeds(text: str) -> list[int]:
    try:
        seeds = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise SmallvilleError(f"--seeds takes comma-separated integers, not {text!r}") from None
    if not seeds:
        raise SmallvilleError("--seeds needs at least one seed")
    return seeds


def _say(line: str) -> None:
    from game.cli import say

    say(line)


# -- results ------------------------------------------------------------------------------

SUMMARY_COLUMNS = ("condition", "scenario", "brain", "hours", "ablate", "measure", "n",
                   "mean", "sd", "min", "max", "paper", "method")  # fmt: skip


def _results(args: argparse.Namespace) -> int:
    from game.sim.store import Store
    from game.sim.study import by_condition, condition_table

    if args.parquet:
        _pyarrow()  # missing: one line, before anything is read
    with Store.open(args.store, create=False) as store:
        groups = by_condition(store.runs())
        header, rows = store.raw_rows() if args.raw else (SUMMARY_COLUMNS, _summary(groups))
        rows = list(rows)
    if not groups:
        print(f"no runs in {args.store} yet")
        return 0
    print(condition_table(groups))
    if args.csv:
        _write_csv(args.csv, list(header), rows)
    if args.parquet:
        _write_parquet(args.parquet, list(header), rows)
    if args.plot:
        _plot(args.plot, groups)
    return 0


def _summary(groups) -> list[tuple]:
    out = []
    for g in groups:
        s = g.setup
        for r in g.rows:
            out.append((s.label, s.scenario, s.brain, s.hours, s.ablate, r.measure,
                        len(r.values), r.mean, r.sd, r.low, r.high, r.paper, r.method))  # fmt: skip
    return out


def _write_csv(path: str, header: list[str], rows: list[tuple]) -> None:
    from game.core.files import write_atomic

    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    write_atomic(path, text.getvalue())
    _say(f"{len(rows)} rows written to {path}")


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise SmallvilleError(PARQUET_MISSING) from None
    return pyarrow


def _write_parquet(path: str, header: list[str], rows: list[tuple]) -> None:
    from game.core.files import write_atomic

    pa = _pyarrow()
    table = pa.table({name: [row[i] for row in rows] for i, name in enumerate(header)})
    sink = pa.BufferOutputStream()
    pa.parquet.write_table(table, sink)
    write_atomic(path, sink.getvalue().to_pybytes())
    _say(f"{len(rows)} rows written to {path}")


def _plot(path: str, groups) -> None:
    from game.commands import quiet_pygame

    quiet_pygame()
    from game.ui.study_chart import draw_study_chart

    draw_study_chart(path, groups)
    _say(f"plot written to {path}")


# -- the parsers ----------------------------------------------------------------------------


def register(sub) -> None:
    """Add `study` and `results` to the CLI's subparsers."""
    st = sub.add_parser("study", help="run many seeds and conditions, evaluate each, store them")
    st.add_argument("--scenario", action="append", help="bundled name or path to JSON "
                    "(repeat for several conditions; default smallville)")  # fmt: skip
    st.add_argument("--brain", action="append", choices=("scripted", "llm"),
                    help="repeat for several (default scripted)")  # fmt: skip
    st.add_argument("--hours", type=float, action="append",
                    help="game hours per run (repeat for several; default 48)")  # fmt: skip
    st.add_argument("--ablate", action="append", help="what the interviews may not retrieve: "
                    "reflection, planning, memory (comma-separated), or full; repeat for several")
    st.add_argument("--seeds", default="7,8,9", help="comma-separated seeds")
    st.add_argument("--repeats", type=int, default=1, help="runs per seed and condition")
    st.add_argument("--engine", choices=("local", "ray"), default="local",
                    help="local: a process pool on this machine; ray: Ray tasks")  # fmt: skip
    st.add_argument("--workers", type=int, help="local pool size (default: the machine's cores)")
    st.add_argument("--ray-address", help="HOST:PORT of a Ray cluster (default: RAY_ADDRESS, "
                    "else a fresh local Ray for the study)")  # fmt: skip
    st.add_argument("--threads", type=int, default=1, help="cognition threads inside each run")
    st.add_argument("--store", help="the results store (SQLite; default: study.db beside "
                    "the report)")  # fmt: skip
    st.add_argument("--rerun", action="store_true", help="run again the runs the store holds")
    st.add_argument("--save-dir", help="save each run's town into this folder")
    st.add_argument("--report", help="write every evaluation and the summary here (JSON)")
    st.add_argument("--quiet", action="store_true", help="no progress line")
    st.set_defaults(handler=_study)

    res = sub.add_parser("results", help="a results store's table by condition; export, plot")
    res.add_argument("--store", default="study.db", help="the results store (SQLite)")
    res.add_argument("--csv", metavar="FILE", help="export the table as CSV")
    res.add_argument("--parquet", metavar="FILE", help="export the table as Parquet (pyarrow)")
    res.add_argument("--raw", action="store_true",
                     help="export one row per run and measure instead of the table")  # fmt: skip
    res.add_argument("--plot", metavar="FILE.png", help="each measure by condition: means, "
                     "error bars over seeds, the paper's figure")  # fmt: skip
    res.set_defaults(handler=_results)
