"""What the language-model brain spends: requests and tokens per agent per game hour.

Runs the town (lockstep, so the count is exact and repeatable) against a local
OpenAI-protocol server (tests/brains/protocol_server.py) that answers like a small serving
box: `--latency` seconds a request, `--slots` requests at a time. It needs no model and no
network; the answers are schema-valid and deterministic, so the figures measure the
brain's call economy, not a model's mood.

Then, for real-time play (`--no-realtime` skips it), it warms a town up to the morning at
no latency and plays on in real time, as the window does, with a 1 s model at 1x and 8x
and a 3 s model at 1x, and reports the share of residents' waking time spent standing
still for a decision (the pace meter, game/sim/pace.py).

The lockstep day's `floor_ratio` is its wall time over the floor the serving box sets
(requests x latency / slots: every slot busy all the time), and `mean_parallelism` the
requests in flight at the server, time-averaged over the day; `--waits` adds where the
wall time goes (benchmarks/clock_waits.py): the jobs, residents and game hours the
lockstep clock stood still for, and how busy the wire was meanwhile.

Usage: python benchmarks/llm_economy.py [--hours 24] [--latency 1] [--slots 16] [--waits]
The last line is JSON. For comparison, a user measured the original research code at
about 54 requests and 26,000 tokens per agent per game hour, one agent after another.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from datetime import time as dtime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "brains"))

from protocol_server import ProtocolServer  # noqa: E402

from benchmarks.clock_waits import print_summary, summary  # noqa: E402
from game.core.config import DEFAULT_WORKERS, LLMSettings  # noqa: E402
from game.sim.factory import build_simulation  # noqa: E402
from game.sim.pace import PaceMeter  # noqa: E402
from game.sim.scheduler import WaitMeter  # noqa: E402
from game.sim.simulation import ClockMode  # noqa: E402

ORIGINAL = {"requests": 54, "tokens": 26_000}
EMBEDDINGS = "embeddings"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="smallville")
    parser.add_argument("--hours", type=float, default=24.0)
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per request")
    parser.add_argument("--slots", type=int, default=16, help="parallel requests served")
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-realtime", action="store_true", help="skip the real-time play")
    parser.add_argument("--waits", action="store_true", help="where the lockstep day waits")
    args = parser.parse_args()
    with ProtocolServer(latency=args.latency, slots=args.slots) as server:
        day = run(server, args)
        waiting = {} if args.no_realtime else realtime_waiting(server, args)
    print_report(day, args, waiting)


@dataclass(frozen=True)
class Day:
    """The lockstep day's bill, its wall time and the wire's load meanwhile."""

    usage: dict
    residents: int
    wall: float
    requests: int  # at the server: chat and embeddings, re-asks included
    request_seconds: float  # requests in flight, integrated over the day
    waits: dict  # the clock's waits (clock_waits.summary), {} without --waits
    stood: dict  # residents apart: mean seconds each stood still, by why (game.sim.apart)

    def floor(self, latency: float, slots: int) -> float:
        """The least wall time the serving box allows: every slot busy all day."""
        return self.requests * latency / max(1, slots)

    @property
    def parallelism(self) -> float:
        return self.request_seconds / self.wall if self.wall > 0 else 0.0


@dataclass(frozen=True)
class Play:
    """One real-time session: the model's latency, the game speed, how long it plays."""

    latency: float
    speed: int  # game minutes per real second, as the window's speed buttons
    game_hours: float

    @property
    def label(self) -> str:
        return f"{self.latency:g}s_model_{self.speed}x"


PLAYS = (Play(1.0, 1, 1.0), Play(1.0, 8, 3.0), Play(3.0, 1, 1.0))
PLAY_FROM_HOUR = 8  # residents are up and about


def realtime_waiting(server: ProtocolServer, args: argparse.Namespace) -> dict[str, float]:
    out = {}
    for play in PLAYS:
        share, late = play_realtime(server, args, play)
        out[play.label] = round(share, 4)
        print(
            f"  real time, {play.latency:g} s model at {play.speed}x for {play.game_hours:g} "
            f"game hours: residents waited {share:.1%} of their waking time "
            f"(the clock fell {late:.1f} s behind)",
            flush=True,
        )
    return out


def play_realtime(server: ProtocolServer, args: argparse.Namespace, play: Play):
    """(waiting share, seconds the clock fell behind real time)."""
    server.latency = 0.0
    sim = build_simulation(
        args.scenario, seed=args.seed, brain="llm", workers=args.workers, llm=settings(server.url)
    )
    try:
        morning = datetime.combine(sim.now.date(), dtime(PLAY_FROM_HOUR))
        sim.run_until(morning)  # lockstep, no latency: a town in its morning
        server.latency = play.latency
        sim.config = replace(sim.config, mode=ClockMode.REALTIME)
        sim.pace_meter = PaceMeter()
        rate = play.speed * 60 / sim.step_seconds  # steps per real second
        total = int(play.game_hours * 3600 / sim.step_seconds)
        began, done = time.perf_counter(), 0
        while done < total:
            due = min(total, int((time.perf_counter() - began) * rate))
            while done < due:
                sim.step()
                done += 1
            time.sleep(0.002)
        late = time.perf_counter() - began - total / rate
        return sim.pace().total_share, max(0.0, late)
    finally:
        sim.close()
        server.latency = args.latency


def settings(url: str) -> LLMSettings:
    """No audit log and no recording: the run writes nothing to disk."""
    return LLMSettings(base_url=url, model="bench-model", audit=False, remember_endpoint=False)


def run(server: ProtocolServer, args: argparse.Namespace) -> Day:
    """The lockstep day: exact counts, the same in every run."""
    sim = build_simulation(
        args.scenario, seed=args.seed, brain="llm", workers=args.workers, llm=settings(server.url)
    )
    start = sim.now
    meter = sim.scheduler.meter = WaitMeter(server.flight.area) if args.waits else None
    area, requests = server.flight.area(), server.flight.total
    began = time.perf_counter()
    shown = [began]

    def progress(s) -> None:  # a line every 30 s so a long run shows it is alive
        now = time.perf_counter()
        if now - shown[0] >= 30:
            shown[0] = now
            calls = s.usage()["calls"]
            print(f"  {s.now:%H:%M} game time, {calls} requests, {now - began:.0f} s", flush=True)

    try:
        sim.run_until(sim.now + timedelta(hours=args.hours), progress)
    finally:
        sim.close()
    wall = time.perf_counter() - began
    waits = summary(meter.waits, start, sim.step_seconds) if meter else {}
    n = max(1, len(sim.agents))
    stood = {why: round(s / n, 1) for why, s in sorted(sim.apart.stood.items())}
    return Day(
        sim.usage(),
        len(sim.agents),
        wall,
        server.flight.total - requests,
        server.flight.area() - area,
        waits,
        stood,
    )


def per_agent_hour(value: float, residents: int, hours: float) -> float:
    return round(value / max(1, residents) / max(1e-9, hours), 3)


def figures(usage: dict, residents: int, hours: float) -> dict:
    by = usage.get("by_question", {})

    def rate(value: float) -> float:
        return per_agent_hour(value, residents, hours)

    chat = {q: t for q, t in by.items() if q != EMBEDDINGS}
    embed = by.get(EMBEDDINGS, {})
    requests = sum(t["calls"] for t in chat.values())
    tokens = sum(t["prompt_tokens"] + t["completion_tokens"] for t in chat.values())
    return {
        "requests": rate(requests),
        "tokens": rate(tokens),
        "embedding_requests": rate(embed.get("calls", 0)),
        "embedding_tokens": rate(embed.get("prompt_tokens", 0)),
        "all_requests": rate(requests + embed.get("calls", 0)),
        "by_question": {
            q: {
                "requests": rate(t["calls"]),
                "tokens": rate(t["prompt_tokens"] + t["completion_tokens"]),
                "answered_without_request": rate(t["cache_hits"] + t["skipped"]),
            }
            for q, t in by.items()
        },
    }


def print_report(day: Day, args: argparse.Namespace, waiting: dict) -> None:
    usage, residents, wall = day.usage, day.residents, day.wall
    fig = figures(usage, residents, args.hours)
    floor = day.floor(args.latency, args.slots)
    ratio = wall / floor if floor > 0 else 0.0
    print(f"{residents} residents, {args.hours:g} game hours, wall {wall:.1f} s")
    print(
        f"{day.requests} requests at the server; floor {floor:.1f} s "
        f"(requests x latency / slots), floor_ratio {ratio:.2f}, "
        f"mean parallelism {day.parallelism:.2f} requests in flight"
    )
    print(f"latency {args.latency:g} s, {args.slots} slots, {args.workers} workers")
    print(f"{'question':18s} {'req/agent-h':>12s} {'tokens/agent-h':>15s} {'no request':>11s}")
    for q, f in fig["by_question"].items():
        print(
            f"{q:18s} {f['requests']:12.3f} {f['tokens']:15.0f} "
            f"{f['answered_without_request']:11.2f}"
        )
    print(
        f"chat: {fig['requests']:.2f} requests and {fig['tokens']:,.0f} tokens per agent per "
        f"game hour (original: {ORIGINAL['requests']} and {ORIGINAL['tokens']:,}); "
        f"embeddings: {fig['embedding_requests']:.2f} requests"
    )
    if day.waits:
        print_summary(day.waits)
    if day.stood:
        why = ", ".join(f"{k} {v} s" for k, v in day.stood.items())
        print(f"residents apart stood still (mean per resident): {why}")
    print(
        json.dumps(
            {
                "benchmark": "llm_economy",
                "residents": residents,
                "game_hours": args.hours,
                "latency_seconds": args.latency,
                "slots": args.slots,
                "workers": args.workers,
                "wall_seconds": round(wall, 1),
                "server_requests": day.requests,
                "floor_seconds": round(floor, 1),
                "floor_ratio": round(ratio, 3),
                "mean_parallelism": round(day.parallelism, 2),
                "per_agent_hour": fig,
                "original_per_agent_hour": ORIGINAL,
                "fallbacks": usage.get("fallbacks", 0),
                "failures": usage.get("failures", 0),
                "waiting_share": waiting,
                "stood_apart": day.stood,
                **({"clock_waits": day.waits} if day.waits else {}),
            }
        )
    )


if __name__ == "__main__":
    main()
