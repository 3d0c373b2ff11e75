"""Several seeds: run each, evaluate each, and put mean, min and max beside the paper.

One seed says little (seeds 7, 8 and 9 gave 15, 23 and 8 knowers of one intent), so the
headline figures are read from several evaluations at once. The rows are made from the
evaluations' own intents (their ids, and the published figures the scenario gives them),
so any scenario gets its table.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol

from game.sim.evaluation import Condition
from game.sim.results import Attendance, Diffusion, Evaluation
from game.sim.runs import Measure, Setup


@dataclass(frozen=True)
class Headline:
    """One row of the table: how to read it from an evaluation, and the paper's figure."""

    key: str
    method: str
    paper: float | None
    read: Callable[[Evaluation], float | None]


@dataclass(frozen=True)
class Row:
    """One headline over every evaluation that has it."""

    measure: str
    method: str
    paper: float | None
    values: tuple[float, ...]

    @property
    def mean(self) -> float | None:
        return round(sum(self.values) / len(self.values), 4) if self.values else None

    @property
    def low(self) -> float | None:
        return min(self.values) if self.values else None

    @property
    def high(self) -> float | None:
        return max(self.values) if self.values else None

    @property
    def sd(self) -> float | None:
        """The sample standard deviation over the runs (0 for one run): the spread a
        plot's error bars show."""
        if not self.values:
            return None
        return round(statistics.stdev(self.values), 4) if len(self.values) > 1 else 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"measure": self.measure, "method": self.method,
                               "paper": self.paper, "n": len(self.values)}  # fmt: skip
        if self.values:
            out |= {"mean": self.mean, "min": self.low, "max": self.high,
                    "values": list(self.values)}  # fmt: skip
        return out


def _diffusion(intent: str, read: Callable[[Diffusion], float]) -> Callable:
    def value(e: Evaluation) -> float | None:
        d = e.diffusion.get(intent)
        return None if d is None else float(read(d))

    return value


def _attendance(intent: str, field: str) -> Callable:
    def value(e: Evaluation) -> float | None:
        a: Attendance | None = e.attendance.get(intent)
        return None if a is None else float(len(getattr(a, field)))

    return value


def _first(results: Sequence[Evaluation], pick: Callable[[Evaluation], dict]) -> dict:
    """Every id any evaluation has, first seen first, with its first result."""
    out: dict = {}
    for e in results:
        for key, value in pick(e).items():
            out.setdefault(key, value)
    return out


ATTENDANCE_ROWS = (
    ("invited", "invited by the host, or heard and accepted"),
    ("accepted", "own answer in memory: accepted"),
    ("attended", "30+ min at the venue, doing the event (whatever the answer)"),
)


def headlines(results: Sequence[Evaluation]) -> list[Headline]:
    """The rows for these evaluations: per intent, then the town's measures."""
    rows: list[Headline] = []
    for key, d in _first(results, lambda e: dict(e.diffusion)).items():
        rows += [
            Headline(f"diffusion.{key}", "median over the phrasings of judged knowers",
                     d.paper, _diffusion(key, lambda d: d.end)),
            Headline(f"diffusion.{key} spread", "max - min of the phrasings' counts", None,
                     _diffusion(key, lambda d: d.spread[1] - d.spread[0])),
            Headline(f"diffusion.{key} keyword mentions",
                     "old count: mentions a keyword, denies nothing (median)", None,
                     _diffusion(key, lambda d: d.keyword_mentions)),
        ]  # fmt: skip
    for key, a in _first(results, lambda e: dict(e.attendance)).items():
        rows += [
            Headline(f"attendance.{key} {field}", method, getattr(a.paper, field),
                     _attendance(key, field))
            for field, method in ATTENDANCE_ROWS
        ]  # fmt: skip
    return rows + list(TOWN)


TOWN: tuple[Headline, ...] = (
    Headline("density start", "'Do you know <name>?' both ways, at the start", 0.167,
             lambda e: e.networks.interview.start),
    Headline("density end", "'Do you know <name>?' both ways, at the end", 0.74,
             lambda e: e.networks.interview.end),
    Headline("density end (memory proxy)", "seed relationships + conversations in memory",
             None, lambda e: e.networks.memory_proxy.end),
    Headline("hallucination rate", "yes answers not backed by memory / yes answers checked",
             0.013, lambda e: e.hallucinations.rate),
    Headline("conversations", "conversations between residents (event log)", None,
             lambda e: e.conversations.total),
    Headline("truth: contradicted rate", "answers with a claim the save contradicts / answers",
             None, lambda e: None if e.truth is None else e.truth.contradicted_rate),
    Headline("truth: stale rate", "answers speaking of an ended event as to come / answers",
             None, lambda e: None if e.truth is None else e.truth.stale_rate),
    Headline("truth: paraphrase consistency", "phrasing pairs with compatible answers",
             None, lambda e: None if e.truth is None else e.truth.paraphrase_consistency),
) + tuple(
    Headline(f"ablation: {c.value}", "share of battery answers specific and grounded", None,
             lambda e, c=c: None if e.ablations is None else e.ablations.scores.get(c.value))
    for c in Condition
)  # fmt: skip


def summarize(results: Sequence[Evaluation]) -> list[Row]:
    """Mean, min and max of each headline over the evaluations that have it."""
    rows = []
    for h in headlines(results):
        values = tuple(float(v) for v in (h.read(r) for r in results) if v is not None)
        rows.append(Row(h.key, h.method, h.paper, values))
    return rows


def table(rows: Sequence[Row]) -> str:
    """The rows as a plain-text table: ours (mean, min, max) beside the paper's."""
    out = [f"{'measure':52} {'mean':>8} {'min':>8} {'max':>8} {'paper':>8}  method"]
    for r in rows:
        cells = [_cell(v) for v in (r.mean, r.low, r.high, r.paper)]
        out.append(f"{r.measure:52} " + " ".join(f"{c:>8}" for c in cells) + f"  {r.method}")
    return "\n".join(out)


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


# -- many conditions, from the results store ------------------------------------------------


class Held(Protocol):
    """One run as the table reads it (the store's StoredRun): its condition, its seed,
    whether it succeeded, its measures."""

    @property
    def setup(self) -> Setup: ...

    @property
    def seed(self) -> int: ...

    @property
    def ok(self) -> bool: ...

    @property
    def measures(self) -> tuple[Measure, ...]: ...


@dataclass(frozen=True)
class ConditionRows:
    """A condition's rows over its successful runs, and the seeds that failed."""

    setup: Setup
    seeds: tuple[int, ...]
    failed: tuple[int, ...]
    rows: tuple[Row, ...]


def by_condition(runs: Iterable[Held]) -> list[ConditionRows]:
    """Rows per condition (sorted by label), each measure in the order the runs give it:
    built from the runs alone, so the order in which they finished never shows."""
    groups: dict[Setup, list[Held]] = {}
    for run in runs:
        groups.setdefault(run.setup, []).append(run)
    out = []
    for setup in sorted(groups, key=lambda s: (s.label, s.key)):
        held = sorted(groups[setup], key=lambda r: r.seed)
        good = [r for r in held if r.ok]
        out.append(ConditionRows(setup, tuple(r.seed for r in good),
                                 tuple(r.seed for r in held if not r.ok), _rows(good)))  # fmt: skip
    return out


def _rows(runs: Sequence[Held]) -> tuple[Row, ...]:
    first: dict[str, Measure] = {}
    for run in runs:
        for m in run.measures:
            first.setdefault(m.name, m)
    values = [{m.name: m.value for m in run.measures} for run in runs]
    return tuple(
        Row(name, m.method, m.paper, tuple(v[name] for v in values if name in v))
        for name, m in first.items()
    )


def condition_table(groups: Sequence[ConditionRows]) -> str:
    """Each condition's block: n, mean, sd, min and max beside the paper's figure."""
    head = f"{'measure':52} {'n':>3} {'mean':>8} {'sd':>8} {'min':>8} {'max':>8} {'paper':>8}"
    out = []
    for g in groups:
        seeds = ",".join(map(str, g.seeds)) or "none"
        failed = f"; failed: seed {','.join(map(str, g.failed))}" if g.failed else ""
        out += [f"== {g.setup.label} (seeds {seeds}{failed})", head]
        for r in g.rows:
            cells = [_cell(v) for v in (r.mean, r.sd, r.low, r.high, r.paper)]
            out.append(f"{r.measure:52} {len(r.values):>3} " + " ".join(f"{c:>8}" for c in cells))
        out.append("")
    return "\n".join(out).rstrip()


def run_seed(
    scenario: str,
    seed: int,
    hours: float,
    brain: str = "scripted",
    workers: int = 2,
    **options: Any,
):
    """A fresh town run headless for `hours` game hours (the caller closes it)."""
    from game.sim.factory import build_simulation

    sim = build_simulation(scenario, seed=seed, brain=brain, workers=workers, **options)
    sim.run_until(sim.now + timedelta(hours=hours))
    return sim


def study(
    scenario: str,
    seeds: Sequence[int],
    hours: float,
    brain: str = "scripted",
    workers: int = 2,
    on_seed: Callable[[int, Evaluation], None] | None = None,
    **options: Any,
) -> tuple[list[Evaluation], list[Row]]:
    """Run and evaluate every seed; returns (each evaluation, the summary rows)."""
    from game.sim.evaluation import measure

    results = []
    for seed in seeds:
        sim = run_seed(scenario, seed, hours, brain, workers, **options)
        try:
            result = measure(sim)
        finally:
            sim.close()
        results.append(result)
        if on_seed is not None:
            on_seed(seed, result)
    return results, summarize(results)
