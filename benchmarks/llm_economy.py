"""What the language-model brain spends: requests and tokens per agent per game hour.

Runs the town (lockstep, so the count is exact and repeatable) against a local
OpenAI-protocol server (tests/brains/protocol_server.py) that answers like a small serving
box: `--latency` seconds a request, `--slots` requests at a time. It needs no model and no
network; the answers are schema-valid and deterministic, so the figures measure the
brain's call economy, not a model's mood.

Usage: python benchmarks/llm_economy.py [--hours 24] [--latency 1] [--slots 16]
The last line is JSON. For comparison, a user measured the original research code at
about 54 requests and 26,000 tokens per agent per game hour, one agent after another.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "brains"))

from protocol_server import ProtocolServer  # noqa: E402

from game.core.config import LLMSettings  # noqa: E402
from game.sim.factory import build_simulation  # noqa: E402

ORIGINAL = {"requests": 54, "tokens": 26_000}
EMBEDDINGS = "embeddings"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="smallville")
    parser.add_argument("--hours", type=float, default=24.0)
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per request")
    parser.add_argument("--slots", type=int, default=16, help="parallel requests served")
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with ProtocolServer(latency=args.latency, slots=args.slots) as server:
        usage, residents, wall = run(server.url, args)
    print_report(usage, residents, wall, args)


def run(url: str, args: argparse.Namespace) -> tuple[dict, int, float]:
    """No audit log and no recording: the run writes nothing to disk."""
    settings = LLMSettings(
        base_url=url, model="bench-model", audit=False, remember_endpoint=False
    )
    sim = build_simulation(
        args.scenario, seed=args.seed, brain="llm", workers=args.workers, llm=settings
    )
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
    return sim.usage(), len(sim.agents), time.perf_counter() - began


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


def print_report(usage: dict, residents: int, wall: float, args: argparse.Namespace) -> None:
    fig = figures(usage, residents, args.hours)
    print(f"{residents} residents, {args.hours:g} game hours, wall {wall:.1f} s")
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
                "per_agent_hour": fig,
                "original_per_agent_hour": ORIGINAL,
                "fallbacks": usage.get("fallbacks", 0),
                "failures": usage.get("failures", 0),
            }
        )
    )


if __name__ == "__main__":
    main()
