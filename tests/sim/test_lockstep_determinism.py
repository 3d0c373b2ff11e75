"""A model-driven run is the same for a seed whatever the threads and the model's speed:
identical memories and chat question counts at 1, 2 and 8 workers and at 0, 0.2 and 1 s
latency (issue 25). Why it can hold: in lockstep each job is due a fixed number of steps
after it was submitted, so its effect lands at the same game time however long its
requests took; a job that is late stops the clock instead of arriving later.

Against the local protocol server, on `three` from 07:00 (Isabella and Klaus get up at
once and plan; Maria sleeps on), for two game hours.
"""

from __future__ import annotations

import json
import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "brains"))

from llm_helpers import settings  # noqa: E402
from protocol_server import ProtocolServer  # noqa: E402

from game.sim.factory import build_simulation  # noqa: E402
from game.sim.scheduler import WaitMeter  # noqa: E402
from tests.sim.outcomes import memories_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HOURS = 2
# (workers, latency): every worker count at one latency, every latency at one count
RUNS = ((1, 0.2), (2, 0.2), (8, 0.2), (8, 0.0), (8, 1.0))


@pytest.fixture(scope="module")
def morning(tmp_path_factory) -> Path:
    """`three`, starting at 07:00 instead of 04:00: the residents' waking hours."""
    doc = json.loads((ROOT / "saves" / "scenarios" / "three.json").read_text())
    doc["start"] = "2023-02-13T07:00"
    path = tmp_path_factory.mktemp("scenario") / "three-0700.json"
    path.write_text(json.dumps(doc))
    return path


def outcome(scenario: Path, server: ProtocolServer, tmp: Path, workers: int) -> dict:
    """What must not depend on the threads: every memory, and the chat questions asked."""
    llm = settings(server.url, tmp, audit=False)
    sim = build_simulation(str(scenario), seed=5, brain="llm", workers=workers, llm=llm)
    sim.scheduler.meter = WaitMeter(server.flight.area)  # it only reads clocks
    try:
        sim.run_until(sim.now + timedelta(hours=HOURS))
    finally:
        sim.close()
    memories = memories_of(sim)
    by = sim.usage().get("by_question", {})
    asked = {q: t["calls"] for q, t in sorted(by.items()) if q != "embeddings"}
    return {"memories": memories, "asked": asked, "fallbacks": sim.usage().get("fallbacks")}


def test_memories_and_questions_do_not_depend_on_workers_or_latency(morning, tmp_path):
    seen = []
    with ProtocolServer() as server:
        for workers, latency in RUNS:
            server.latency = latency
            seen.append(outcome(morning, server, tmp_path, workers))
    first = seen[0]
    assert sum(first["asked"].values()) > 20, first["asked"]  # the model did the deciding
    assert sum(len(m) for m in first["memories"].values()) > 20
    assert first["fallbacks"] == 0
    for (workers, latency), other in zip(RUNS[1:], seen[1:], strict=True):
        assert other == first, f"{workers} workers at {latency} s"
