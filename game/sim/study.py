"""Several seeds: run each, evaluate each, and put mean, min and max beside the paper.

One seed says little (seeds 7, 8 and 9 gave 15, 23 and 8 election knowers), so the
headline figures are read from several evaluations at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from game.sim.evaluation import Condition


@dataclass(frozen=True)
class Headline:
    """One row of the table: how to read it from an evaluation, and the paper's figure."""

    key: str
    method: str
    paper: float | None
    read: Callable[[Mapping[str, Any]], float | None]


def _diffusion(intent: str) -> Callable[[Mapping[str, Any]], float | None]:
    return lambda r: _get(r, "information_diffusion", intent, "end")


def _attendance(field: str) -> Callable[[Mapping[str, Any]], float | None]:
    def read(r: Mapping[str, Any]) -> float | None:
        party = r.get("party_attendance", {}).get("party")
        return None if party is None else len(party[field])

    return read


def _get(r: Mapping[str, Any], *path: str) -> float | None:
    node: Any = r
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return float(node) if isinstance(node, (int, float)) else None


HEADLINES: tuple[Headline, ...] = (
    Headline(
        "party diffusion",
        "judged interview answers (host/place + day/time)",
        13,
        _diffusion("party"),
    ),
    Headline(
        "candidacy diffusion",
        "judged interview answers (Sam + the office)",
        8,
        _diffusion("election"),
    ),
    Headline(
        "party keyword mentions",
        "old count: answer mentions a keyword, denies nothing",
        None,
        lambda r: _get(r, "information_diffusion", "party", "keyword_mentions"),
    ),
    Headline(
        "density start",
        "'Do you know <name>?' both ways, at the start",
        0.167,
        lambda r: _get(r, "network_density", "interview", "start"),
    ),
    Headline(
        "density end",
        "'Do you know <name>?' both ways, at the end",
        0.74,
        lambda r: _get(r, "network_density", "interview", "end"),
    ),
    Headline(
        "density end (memory proxy)",
        "seed relationships + conversations in memory",
        None,
        lambda r: _get(r, "network_density", "memory_proxy", "end"),
    ),
    Headline(
        "hallucination rate",
        "yes answers not backed by memory / yes answers checked",
        0.013,
        lambda r: _get(r, "hallucinations", "rate"),
    ),
    Headline("invited", "invited by the host, or heard and accepted", 12, _attendance("invited")),
    Headline("accepted", "own answer in memory: accepted", None, _attendance("accepted")),
    Headline(
        "attended", "invited, 30+ min at the venue, doing the event", 5, _attendance("attended")
    ),
    Headline(
        "conversations",
        "conversations between residents (event log)",
        None,
        lambda r: _get(r, "conversations", "total"),
    ),
) + tuple(
    Headline(
        f"ablation: {c.value}",
        "share of battery answers specific and grounded",
        None,
        lambda r, c=c: _get(r, "interview_ablations", "scores", c.value),
    )
    for c in Condition
)


def summarize(results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Mean, min and max of each headline over the evaluations that have it."""
    rows = []
    for h in HEADLINES:
        values = [v for v in (h.read(r) for r in results) if v is not None]
        row: dict[str, Any] = {
            "measure": h.key,
            "method": h.method,
            "paper": h.paper,
            "n": len(values),
        }
        if values:
            row |= {
                "mean": round(sum(values) / len(values), 4),
                "min": min(values),
                "max": max(values),
                "values": values,
            }
        rows.append(row)
    return rows


def table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as a plain-text table: ours (mean, min, max) beside the paper's."""
    out = [f"{'measure':52} {'mean':>8} {'min':>8} {'max':>8} {'paper':>8}  method"]
    for r in rows:
        cells = [_cell(r.get(k)) for k in ("mean", "min", "max", "paper")]
        out.append(f"{r['measure']:52} " + " ".join(f"{c:>8}" for c in cells) + f"  {r['method']}")
    return "\n".join(out)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:g}" if isinstance(value, float) else str(value)


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
    on_seed: Callable[[int, dict[str, Any]], None] | None = None,
    **options: Any,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Run and evaluate every seed; returns (each evaluation, the summary rows)."""
    from game.sim.evaluation import evaluate

    results = []
    for seed in seeds:
        sim = run_seed(scenario, seed, hours, brain, workers, **options)
        try:
            result = evaluate(sim) | {"seed": seed}
        finally:
            sim.close()
        results.append(result)
        if on_seed is not None:
            on_seed(seed, result)
    return results, summarize(results)
