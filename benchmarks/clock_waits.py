"""Where a lockstep run's wall time goes: the clock's waits for due jobs, summed.

`game.sim.scheduler.WaitMeter` records each wait (how long, which jobs held it, how many
requests were in flight meanwhile); this turns the record into the breakdown
`llm_economy.py --waits` prints and puts in its JSON: by kind of job, by resident, by
the game hour the clock stood in, and by how busy the wire was while it stood.
Why by in-flight requests: a wait with the slots full is the model's floor, one with
two requests out is the schedule's fault, and only that one can be scheduled away.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from game.sim.scheduler import Wait

# In-flight bands a wait is counted in (requests on the wire, time-averaged over it).
BANDS = ((0, 2), (2, 4), (4, 8), (8, 12), (12, 10_000))


@dataclass(frozen=True)
class Share:
    """Seconds the clock stood for one kind of job (or resident), and how often."""

    seconds: float
    holds: int
    mean_age: float  # real seconds the job had run when the clock came to it
    mean_delay: float  # steps it was given


def by_key(waits: Iterable[Wait], key) -> dict[str, Share]:
    """The waits' seconds split by `key(hold)` (a hold's share of each wait)."""
    seconds: dict[str, float] = defaultdict(float)
    ages: dict[str, list[float]] = defaultdict(list)
    delays: dict[str, list[int]] = defaultdict(list)
    for w in waits:
        for h in w.holds:
            k = key(h)
            seconds[k] += h.seconds
            ages[k].append(h.age)
            delays[k].append(h.delay)
    return {
        k: Share(
            round(seconds[k], 1),
            len(ages[k]),
            round(sum(ages[k]) / len(ages[k]), 2),
            round(sum(delays[k]) / len(delays[k]), 1),
        )
        for k in sorted(seconds, key=lambda k: -seconds[k])
    }


def by_band(waits: Iterable[Wait]) -> dict[str, float]:
    """Wait seconds by the requests in flight while the clock stood."""
    out = {f"{lo}-{hi if hi < 10_000 else ''}": 0.0 for lo, hi in BANDS}
    for w in waits:
        for (lo, hi), label in zip(BANDS, out, strict=True):
            if lo <= w.in_flight < hi:
                out[label] += w.seconds
    return {k: round(v, 1) for k, v in out.items()}


def by_hour(waits: Iterable[Wait], start: datetime, step_seconds: int) -> dict[str, float]:
    """Wait seconds by the game hour the clock stood in."""
    out: dict[str, float] = defaultdict(float)
    for w in waits:
        at = start + timedelta(seconds=w.step * step_seconds)
        out[f"{at:%H}"] += w.seconds
    return {k: round(out[k], 1) for k in sorted(out)}


def summary(waits: list[Wait], start: datetime, step_seconds: int) -> dict:
    """The breakdown as JSON-ready data."""
    total = sum(w.seconds for w in waits)
    flight = sum(w.in_flight * w.seconds for w in waits) / total if total else 0.0
    jobs = sum(w.jobs_out * w.seconds for w in waits) / total if total else 0.0

    def shares(key) -> dict[str, dict]:
        return {k: s.__dict__ for k, s in by_key(waits, key).items()}

    return {
        "waits": len(waits),
        "wait_seconds": round(total, 1),
        "in_flight_while_waiting": round(flight, 2),
        "jobs_out_while_waiting": round(jobs, 2),  # the pool's threads cap it
        "by_in_flight": by_band(waits),
        "by_job": shares(lambda h: h.label),
        "by_lane": shares(lambda h: h.lane.value),
        "by_solitude": shares(lambda h: "alone" if h.alone else "with others"),
        "by_resident": dict(list(shares(lambda h: ",".join(h.agents)).items())[:10]),
        "by_game_hour": by_hour(waits, start, step_seconds),
    }


def print_summary(s: dict) -> None:
    print(
        f"clock waits: {s['waits']}, {s['wait_seconds']:.1f} s, "
        f"{s['in_flight_while_waiting']:.2f} requests in flight and "
        f"{s['jobs_out_while_waiting']:.2f} jobs out meanwhile"
    )
    bands = ", ".join(f"{k}: {v} s" for k, v in s["by_in_flight"].items())
    print(f"  by requests in flight: {bands}")
    for title in ("by_job", "by_lane", "by_solitude", "by_resident"):
        print(f"  {title.replace('_', ' ')} (seconds, holds, mean age s, mean delay steps):")
        for k, v in s[title].items():
            print(
                f"    {k:28s} {v['seconds']:8.1f} {v['holds']:6d} {v['mean_age']:7.2f} "
                f"{v['mean_delay']:7.1f}"
            )
    print("  by game hour: " + ", ".join(f"{k}: {v}" for k, v in s["by_game_hour"].items()))
