"""A study as a list of independent runs: what one run is, and the task that does it.

A run is a condition (scenario, brain, hours, interview-time ablation) with a seed and a
repeat. Its key names exactly that, so a store can tell which runs it already holds and
two engines can be compared run by run. `execute` is the whole task: build the town, run
it headless, save it where the study says, evaluate it and return typed measures. It is a
module-level function of plain arguments so that a process pool and Ray can both ship it;
it never imports pygame, and it never raises for a run that went wrong (the error is part
of the result, so it crosses any process boundary as text, pickled or not).
"""

from __future__ import annotations

import hashlib
import itertools
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

ABLATABLE = ("reflection", "planning", "memory")
FULL = "full"  # the condition's ablation when nothing is switched off


def ablation_key(text: str | None) -> str:
    """'planning, reflection' -> 'planning,reflection'; nothing (or 'full') -> 'full'.
    One spelling per condition, so the store's keys never split one condition in two."""
    parts = {p.strip() for p in (text or "").split(",") if p.strip()} - {FULL}
    unknown = parts - set(ABLATABLE)
    if unknown:
        from game.core.errors import SmallvilleError

        raise SmallvilleError(
            f"--ablate takes {', '.join(ABLATABLE)} or {FULL} (comma-separated), "
            f"not {sorted(unknown)}"
        )
    return ",".join(sorted(parts)) or FULL


@dataclass(frozen=True)
class Setup:
    """One condition of a study: what is run and how it is asked. The ablation is the
    interviews' (the paper's way): the town always lives with its whole architecture."""

    scenario: str
    brain: str = "scripted"
    hours: float = 12.0
    ablate: str = FULL

    @property
    def label(self) -> str:
        """'three scripted 12h' (and ' no reflection,planning'): the condition's name."""
        name = Path(self.scenario).stem if self.scenario.endswith(".json") else self.scenario
        tail = "" if self.ablate == FULL else f" no {self.ablate}"
        return f"{name} {self.brain} {self.hours:g}h{tail}"

    @property
    def key(self) -> str:
        return f"{self.scenario}|{self.brain}|{self.hours:g}h|{self.ablate}"


@dataclass(frozen=True)
class RunSpec:
    """One run: a condition, a seed and a repeat (a second run of the same seed, which
    differs only for a brain that is not deterministic, such as a model's)."""

    setup: Setup
    seed: int
    repeat: int = 0
    threads: int = 1  # cognition threads inside the run (lockstep: same measures for any)
    save_dir: str = ""  # where the run's save goes ('' = not saved)

    @property
    def key(self) -> str:
        return f"{self.setup.key}|seed={self.seed}|repeat={self.repeat}"

    @property
    def save_name(self) -> str:
        """A save name of its own for this run (letters, digits, '-', at most 64): the
        condition's label cut short, the seed, the repeat and a digest of the key."""
        safe = "".join(c if c.isascii() and c.isalnum() else "-" for c in self.setup.label)
        digest = hashlib.sha1(self.key.encode()).hexdigest()[:8]
        return f"{safe[:36]}-seed{self.seed}-r{self.repeat}-{digest}"[-64:]


@dataclass(frozen=True)
class Measure:
    """One headline figure of one run, with its method and the paper's figure."""

    name: str
    method: str
    paper: float | None
    value: float


@dataclass(frozen=True)
class RunResult:
    """What a run gave: its measures (in the table's order), or the error that ended it."""

    spec: RunSpec
    measures: tuple[Measure, ...] = ()
    wall_seconds: float = 0.0
    error: str = ""
    attempts: int = 1
    evaluation: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return not self.error

    def values(self) -> dict[str, float]:
        return {m.name: m.value for m in self.measures}


def plan(
    setups: Sequence[Setup], seeds: Sequence[int], repeats: int = 1, **options: Any
) -> list[RunSpec]:
    """Every run of the study, sorted by key: conditions x seeds x repeats."""
    runs = [
        RunSpec(s, seed, r, **options)
        for s, seed, r in itertools.product(setups, seeds, range(repeats))
    ]
    return sorted({r.key: r for r in runs}.values(), key=lambda r: r.key)


def setups(
    scenarios: Sequence[str],
    brains: Sequence[str],
    hours: Sequence[float],
    ablations: Sequence[str],
) -> list[Setup]:
    """The cartesian product of the study's condition axes."""
    return [
        Setup(sc, b, float(h), ablation_key(a))
        for sc, b, h, a in itertools.product(scenarios, brains, hours, ablations)
    ]


def execute(spec: RunSpec) -> RunResult:
    """The whole task of one run; any exception becomes the result's error."""
    began = time.perf_counter()
    try:
        measures, evaluation = _run_and_measure(spec)
    except Exception as exc:  # noqa: BLE001 - a failed run is data: recorded, retried once
        where = traceback.extract_tb(exc.__traceback__)[-1:]
        at = f" (at {Path(where[0].filename).name}:{where[0].lineno})" if where else ""
        error = f"{type(exc).__name__}: {exc}{at}"
        return RunResult(spec, wall_seconds=time.perf_counter() - began, error=error)
    wall = time.perf_counter() - began
    return RunResult(spec, measures, wall, evaluation=evaluation)


def _run_and_measure(spec: RunSpec) -> tuple[tuple[Measure, ...], dict[str, Any]]:
    from game.sim.evaluation import measure

    sim = _simulation(spec)
    try:
        sim.run_until(sim.now + timedelta(hours=spec.setup.hours))
        if spec.save_dir:
            from game.sim.saves import save_game

            save_game(sim, spec.save_name, root=spec.save_dir)
        _restrict(sim, spec.setup.ablate)
        evaluation = measure(sim)
    finally:
        sim.close()
    return headline_measures(evaluation), evaluation.to_json()


def _simulation(spec: RunSpec):
    """A fresh town for the run; a model brain takes its settings from the config file
    and environment of the machine it runs on (no key travels with the task)."""
    from game.sim.factory import build_simulation

    llm = None
    if spec.setup.brain == "llm":
        from game.core.config import load_config

        llm = load_config().llm
    return build_simulation(
        spec.setup.scenario, seed=spec.seed, brain=spec.setup.brain,
        workers=spec.threads, llm=llm,
    )  # fmt: skip


def _restrict(sim, ablate: str) -> None:
    """The interviews' ablation: what the residents may retrieve when asked (the run
    itself is over, so only the evaluation sees it)."""
    if ablate == FULL:
        return
    from game.core.mind_settings import Ablation

    off = set(ablate.split(","))
    ablation = Ablation(**{k: k not in off for k in ABLATABLE})
    sim.mind = replace(sim.mind, settings=replace(sim.mind.settings, ablation=ablation))


def headline_measures(evaluation) -> tuple[Measure, ...]:
    """The study table's figures of one evaluation, in the table's order."""
    from game.sim.study import headlines

    out = []
    for h in headlines([evaluation]):
        value = h.read(evaluation)
        if value is not None:
            out.append(Measure(h.key, h.method, h.paper, float(value)))
    return tuple(out)
