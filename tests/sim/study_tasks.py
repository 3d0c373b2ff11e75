"""Tasks for the study engines' tests: module-level, so a spawned pool worker can import
them by name, and cheap (no town is built)."""

import os

from game.sim.runs import Measure, RunResult, RunSpec


def quick(spec: RunSpec) -> RunResult:
    """Measures made from the seed alone: a run whose figures are known in advance."""
    measures = (Measure("seed", "the seed", None, float(spec.seed)),
                Measure("twice", "twice the seed", 4.0, 2.0 * spec.seed))  # fmt: skip
    return RunResult(spec, measures, wall_seconds=0.01)


def dies_on_two(spec: RunSpec) -> RunResult:
    """The worker process dies outright on seed 2 (as a killed or out-of-memory one does)."""
    if spec.seed == 2:
        os._exit(3)
    return quick(spec)
