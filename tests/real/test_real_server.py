"""Opt-in tests against a real OpenAI-compatible server that nobody here wrote (made for
llama.cpp's server from llama-cpp-python, serving SmolLM2-135M-Instruct; see
tools/real_server.sh). Skipped unless SMALLVILLE_REAL_BASE_URL is set, so CI needs no
compiler and no model.

    SMALLVILLE_REAL_BASE_URL    the endpoint, e.g. http://127.0.0.1:8731/v1
    SMALLVILLE_REAL_MODEL       the model name to send (default smollm2)
    SMALLVILLE_REAL_EMBEDDINGS  1 if the server was started with --embedding true
    SMALLVILLE_REAL_HOURS       game hours of the run (default 4.5: from 04:00 past wake-up)
    SMALLVILLE_REAL_FIGURES     write the measured figures here as JSON (the audit log
                                is copied beside it)

What a tiny model can show: the ladder settles, grammar-bound answers that finished have
the asked shape (>= 90% per question; answers cut off by max_tokens are counted apart),
embeddings are handled, record/replay round-trips, nothing crashes. The semantic pass
rate is measured and printed, not asserted: a 135M model says a lot of nonsense in the
right shape.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from real_figures import figures, read, table

BASE_URL = os.environ.get("SMALLVILLE_REAL_BASE_URL", "")
MODEL = os.environ.get("SMALLVILLE_REAL_MODEL", "smollm2")
EMBEDDINGS = os.environ.get("SMALLVILLE_REAL_EMBEDDINGS", "") == "1"
HOURS = os.environ.get("SMALLVILLE_REAL_HOURS", "4.5")
ROOT = Path(__file__).resolve().parents[2]
SHAPE_FLOOR = 0.9

pytestmark = pytest.mark.skipif(not BASE_URL, reason="set SMALLVILLE_REAL_BASE_URL to run")


def main(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "SMALLVILLE_DATA": str(tmp / "data"),
        "SMALLVILLE_CONFIG": str(tmp / "no-config.toml"),
        "SMALLVILLE_CACHE": str(tmp / "cache"),
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )


def run_args(tmp: Path, *extra: str) -> list[str]:
    return [
        "run",
        "--scenario",
        "three",
        "--hours",
        HOURS,
        "--seed",
        "3",
        "--brain",
        "llm",
        "--workers",
        "2",
        "--base-url",
        BASE_URL,
        "--model",
        MODEL,
        "--max-parallel",
        "1",
        "--timeout",
        "180",
        "--cache-file",
        str(tmp / "recording.sqlite3"),
        "--quiet",
        *extra,
    ]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """One recorded run of three residents against the server, and its audit log."""
    tmp = tmp_path_factory.mktemp("real")
    extra = ["--record", "--audit-log", str(tmp / "audit.jsonl"), "--report", str(tmp / "r.json")]
    done = main(run_args(tmp, *extra), tmp)
    return tmp, done


def report(tmp: Path, name: str = "r.json") -> dict:
    return json.loads((tmp / name).read_text(encoding="utf-8"))


def test_the_run_finishes_and_the_ladder_settles(recorded) -> None:
    tmp, done = recorded
    assert done.returncode == 0, done.stderr[-2000:]
    model = report(tmp)["model"]
    assert model["calls"] > 0 and not model["endpoint_down"]
    assert model["output_mode"] in ("json_schema", "json_object")
    remembered = json.loads((tmp / "cache" / "endpoints.json").read_text(encoding="utf-8"))
    assert [e["mode"] for e in remembered.values()] == [model["output_mode"]]


def test_grammar_bound_answers_have_the_asked_shape(recorded) -> None:
    tmp, _ = recorded
    found = figures(read(tmp / "audit.jsonl"))
    found["settled_mode"] = report(tmp)["model"]["output_mode"]
    found["calls"] = report(tmp)["model"]["calls"]
    found["fallbacks"] = report(tmp)["model"]["fallbacks"]
    print("\n" + table(found))
    print(json.dumps({k: found[k] for k in ("settled_mode", "calls", "fallbacks")}))
    target = os.environ.get("SMALLVILLE_REAL_FIGURES")
    if target:
        Path(target).write_text(json.dumps(found, indent=1), encoding="utf-8")
        shutil.copy(tmp / "audit.jsonl", Path(target).with_suffix(".audit.jsonl"))
    assert found["total"]["answers"] > 0
    low = {
        name: row["shape_pass"]
        for name, row in found["by_question"].items()
        if row["shape_pass"] is not None and row["shape_pass"] < SHAPE_FLOOR
    }
    assert not low, f"shape pass rate under {SHAPE_FLOOR:.0%}: {low}"


def test_embeddings_are_used_or_refused_with_a_reason(recorded) -> None:
    tmp, _ = recorded
    model = report(tmp)["model"]
    if model["embedder"].startswith("openai:"):
        return  # an embedding model: its vectors are in use
    notices = " ".join(model["notices"])
    assert "offline embedder" in notices
    if EMBEDDINGS:  # a chat model with --embedding answers one vector per token
        assert "one vector per token" in notices


def test_record_and_replay_round_trip(recorded) -> None:
    tmp, done = recorded
    assert done.returncode == 0
    again = main(run_args(tmp, "--replay", "--report", str(tmp / "replayed.json")), tmp)
    assert again.returncode == 0, again.stderr[-2000:]
    first, second = report(tmp), report(tmp, "replayed.json")
    assert second["agents"] == first["agents"]
    assert second["conversations"] == first["conversations"]
    assert second["model"]["calls"] == first["model"]["calls"]
    assert second["model"]["replayed"] == second["model"]["calls"]
