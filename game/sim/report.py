"""The run report: what a headless run did, as JSON (schema in the README)."""

from __future__ import annotations

import time
from typing import Any

from game.core.records import MemoryKind
from game.sim.events import EventKind
from game.sim.measures import knowledge, memory_knowers, seed_knowers
from game.sim.simulation import Simulation


def agent_report(sim: Simulation, name: str) -> dict[str, Any]:
    agent = sim.agents[name]
    counts = agent.memory.counts()
    return {
        "name": name,
        "location": agent.location,
        "action": agent.status,
        "emoji": agent.emoji,
        "visited": list(agent.visited),
        "memories": {k.value: int(counts.get(k.value, 0)) for k in MemoryKind},
        "conversations": agent.conversations,
        "reflections": agent.reflections,
    }


class DayTimer:
    """Wall seconds spent on each game day of a run, to show step time stays bounded."""

    def __init__(self, start) -> None:
        self.start = start
        self.began = time.perf_counter()
        self.marks: list[float] = []

    def __call__(self, sim: Simulation) -> None:
        days = int((sim.now - self.start).total_seconds() // 86400)
        while len(self.marks) < days:
            self.marks.append(time.perf_counter())

    def per_day(self) -> list[float]:
        out, last = [], self.began
        for mark in self.marks:
            out.append(round(mark - last, 2))
            last = mark
        return out


def peak_rss_mb() -> float | None:
    """The process's peak resident memory (None where the platform cannot tell)."""
    try:
        import resource
    except ImportError:
        return None
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(kb / 1024, 1)


def build_report(
    sim: Simulation,
    start,
    wall_seconds: float,
    brain_name: str,
    wall_per_day: list[float] | None = None,
) -> dict[str, Any]:
    conversations = [
        {
            "start": e.time.isoformat(),
            "participants": e.data["participants"],
            "turns": len(e.data["lines"]),
        }
        for e in sim.log.of(EventKind.CONVERSATION)
    ]
    return {
        "scenario": sim.scenario.name,
        "seed": sim.config.seed,
        "brain": brain_name,
        "start": start.isoformat(),
        "end": sim.now.isoformat(),
        "steps": sim.steps,
        "wall_seconds": round(wall_seconds, 3),
        "agents": [agent_report(sim, name) for name in sorted(sim.agents)],
        "conversations": conversations,
        "model": sim.usage(),
        "jobs": sim.jobs.report(),
        "knowledge": {k: known.to_json() for k, known in knowledge(sim).items()},
        "wall_seconds_per_day": wall_per_day or [],
        "peak_rss_mb": peak_rss_mb(),
    }


def knowers(sim: Simulation, intent_id: str, at_start: bool = False) -> list[str]:
    """Residents holding a memory tagged with an intent (at the start: whose seed states
    it); the same function as the report's `knowledge`, kept under its old name."""
    if at_start:
        return seed_knowers(sim, sim.scenario.intent(intent_id))
    return memory_knowers(sim, intent_id)


TIMING = ("wall_seconds", "wall_seconds_per_day", "peak_rss_mb")


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    """The report minus what depends on the machine, for comparing two runs."""
    return {k: v for k, v in report.items() if k not in TIMING}
