"""`python main.py run --brain llm` end to end against a real local server: the report's
usage, record then replay, a refused endpoint (carry on, or stop under --strict), and the
API key in none of the files a run writes."""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from llm_helpers import SECRET, run_main, serve
from protocol_server import ProtocolServer, refused_url

from game.brains.llm.recording import request_key
from game.core.config import LLMSettings
from game.sim.saves import read_save

CHAT_FIELDS = ("calls", "prompt_tokens", "completion_tokens", "retries", "failures", "fallbacks")


@pytest.fixture
def server():
    yield from serve()


def run_llm(tmp: Path, url: str, *extra: str, hours: str = "2", report: str = "r.json"):
    args = ["run", "--brain", "llm", "--base-url", url, "--model", "M", "--scenario", "three"]
    return run_main([*args, "--hours", hours, "--report", report, "--quiet", *extra], tmp)


def report(tmp: Path, name: str = "r.json") -> dict:
    return json.loads((tmp / name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Recorded:
    folder: Path  # where it ran: its report, save, audit log and recording
    done: subprocess.CompletedProcess
    auths: tuple[str, ...]  # the Authorization header of every request it sent
    cache: Path


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Recorded:
    """One two-hour run, recorded, audited and saved, read by three tests: its report's
    usage, a replay that misses its recording, and the key in none of its files. (Each
    made the same run of its own before, a subprocess and a town each.)"""
    folder = tmp_path_factory.mktemp("recorded")
    cache, audit = folder / "c.sqlite3", folder / "audit.jsonl"
    with ProtocolServer(latency=0.0) as server:
        server.forced["importance"] = {"ratings": [42]}  # out of range: always falls back
        done = run_llm(
            folder, server.url, "--record", "--cache-file", str(cache),
            "--audit-log", str(audit), "--save", "keytest",
        )  # fmt: skip
        auths = tuple(r["auth"] for r in server.requests)
    assert done.returncode == 0, done.stderr
    return Recorded(folder, done, auths, cache)


def test_a_headless_llm_run_reports_calls_tokens_and_fallbacks(recorded) -> None:
    r = report(recorded.folder)
    assert r["brain"] == "llm"
    model = r["model"]
    assert model["calls"] > 0 and model["prompt_tokens"] > 0 and model["completion_tokens"] > 0
    rated = model["by_question"]["importance"]
    assert rated["fallbacks"] >= 3 and rated["retries"] == 2 * rated["fallbacks"]
    assert model["fallbacks"] == rated["fallbacks"]
    assert model["model"] == "M" and model["embedder"].startswith("openai:")
    assert "importance" in model["by_question"] and "Klaus Mueller" in model["by_agent"]


def chat_usage(model: dict) -> dict:
    return {
        q: {k: t[k] for k in CHAT_FIELDS}
        for q, t in model["by_question"].items()
        if q != "embeddings"
    }


def comparable(r: dict) -> dict:
    """A report without what legitimately differs between recording and replaying."""
    return {k: v for k, v in r.items() if k not in ("wall_seconds", "peak_rss_mb", "model")}


def test_record_then_replay_gives_the_same_run(server, tmp_path) -> None:
    server.faults.extend(["malformed", "wrong_types"])  # retries are recorded too
    cache = str(tmp_path / "run.sqlite3")
    first = run_llm(tmp_path, server.url, "--record", "--cache-file", cache, hours="4")
    assert first.returncode == 0, first.stderr
    recorded = report(tmp_path)
    dead = refused_url()  # the replay must not need the network at all
    again = run_llm(tmp_path, dead, "--replay", "--cache-file", cache, hours="4", report="b.json")
    assert again.returncode == 0, again.stderr
    replayed = report(tmp_path, "b.json")
    assert comparable(replayed) == comparable(recorded)
    assert chat_usage(replayed["model"]) == chat_usage(recorded["model"])
    assert replayed["model"]["replayed"] == replayed["model"]["calls"] > 0
    assert recorded["model"]["replayed"] == 0 and not replayed["model"]["endpoint_down"]


def test_replay_fails_clearly_on_a_miss(recorded, server, tmp_path) -> None:
    cache = str(recorded.cache)
    other = run_llm(
        tmp_path,
        refused_url(),
        "--replay",
        "--cache-file",
        cache,
        "--seed",
        "9",
        "--scenario",
        "smallville",
    )
    assert other.returncode == 2
    assert "--replay" in other.stderr and "Traceback" not in other.stderr
    missing = run_llm(tmp_path, server.url, "--replay", "--cache-file", str(tmp_path / "no.db"))
    assert missing.returncode == 2 and "no recording" in missing.stderr


def poison(cache: Path, into: Path) -> int:
    """A copy of the recording with every answer's prompt_tokens Infinity and two of
    every three vectors (not the probe's) stored as "abc", 5 or null; how many vectors."""
    shutil.copy(cache, into)
    probe = request_key("embed", LLMSettings().embed_model, "Smallville")
    vectors = 0
    with sqlite3.connect(into) as db:
        rows = db.execute("SELECT key, kind, answer FROM answers").fetchall()
        for i, (key, kind, answer) in enumerate(rows):
            doc = json.loads(answer)
            if kind == "chat" and "content" in doc:
                doc["prompt_tokens"] = math.inf  # json writes it as Infinity
            elif kind == "embed" and "vector" in doc and key != probe:
                vectors += 1
                doc["vector"] = [doc["vector"], "abc", 5, None][i % 4]
            db.execute("UPDATE answers SET answer = ? WHERE key = ?", (json.dumps(doc), key))
    return vectors


def test_a_poisoned_recording_is_recorded_over_and_the_save_keeps_its_embedder(
    recorded, server, tmp_path
) -> None:
    """Issue 24: such a recording crashed the run (OverflowError in every importance job,
    a TypeError on each vector). Recording over it, each damaged vector is asked again
    (said once), the counts are estimated, and the save holds the endpoint's vectors."""
    poisoned = tmp_path / "poisoned.sqlite3"
    damaged = poison(recorded.cache, poisoned)
    assert damaged > 3
    server.forced["importance"] = {"ratings": [42]}  # as the recorded run
    done = run_llm(
        tmp_path, server.url, "--record", "--cache-file", str(poisoned), "--save", "poisoned"
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    notices = report(tmp_path)["model"]["notices"]
    said = [n for n in notices if "holds damaged entries" in n]
    assert len(said) == 1 and "asked again and recorded anew" in said[0], notices
    embeds = [r for r in server.requests if r["path"].endswith("/embeddings")]
    assert 0 < sum(len(r["body"]["input"]) for r in embeds) <= damaged + 1  # + the probe
    _, arrays = read_save("poisoned", tmp_path / "data" / "saves")
    widths = {a.shape[1] for k, a in arrays.items() if k.endswith("_embeddings")}
    assert widths == {64}


def test_a_refused_endpoint_carries_on_scripted_or_stops_under_strict(tmp_path) -> None:
    url = refused_url()
    done = run_llm(tmp_path, url)
    assert done.returncode == 0, done.stderr
    model = report(tmp_path)["model"]
    assert model["endpoint_down"] and model["fallbacks"] > 0 and model["calls"] == 0
    assert done.stderr.count("cannot reach") == 1
    strict = run_llm(tmp_path, url, "--strict", report="s.json")
    assert strict.returncode == 2
    assert "cannot reach the model endpoint" in strict.stderr and "Traceback" not in strict.stderr
    assert not (tmp_path / "s.json").exists()


def every_file(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def test_the_key_is_in_no_file_a_run_writes(recorded, server, tmp_path) -> None:
    done = recorded.done  # recorded, audited and saved
    assert any(auth == f"Bearer {SECRET}" for auth in recorded.auths)  # it was used
    server.always = "unauthorized"  # now the server echoes the key in its error
    echoed = run_llm(tmp_path, server.url, report="e.json")
    assert echoed.returncode == 0
    assert "401" in echoed.stderr and report(tmp_path, "e.json")["model"]["notices"]
    written = every_file(recorded.folder) + every_file(tmp_path)
    assert any(p.name == "audit.jsonl" for p in written)
    assert any(p.suffix == ".npz" for p in written)  # the save
    assert any("audit" in p.parts for p in written)  # the default audit log beside the saves
    for path in written:
        assert SECRET.encode() not in path.read_bytes(), path
    for stream in (done.stdout, done.stderr, echoed.stdout, echoed.stderr):
        assert SECRET not in stream


def test_config_prints_the_effective_settings_with_the_key_masked(tmp_path) -> None:
    shown = run_main(["config", "--base-url", "http://localhost:11434/v1"], tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert SECRET not in shown.stdout and SECRET[-4:] in shown.stdout
    assert 'base_url = "http://localhost:11434/v1"  # flag' in shown.stdout


def memory_texts(tmp: Path, name: str) -> dict[str, list[str]]:
    doc = json.loads((tmp / "data" / "saves" / name / "save.json").read_text(encoding="utf-8"))
    return {a["name"]: a["memory"]["texts"] for a in doc["agents"]}


def test_the_same_seed_gives_the_same_run_at_any_worker_count_and_latency(tmp_path) -> None:
    """No answer depends on which thread asked first: 1 worker at no latency and 4 workers
    with a slow server give the same report and the same memories, word for word."""
    runs = []
    for workers, latency in ((1, 0.0), (4, 0.05)):
        with ProtocolServer(latency=latency) as server:
            name = f"w{workers}"
            extra = ("--workers", str(workers), "--save", name, "--seed", "3")
            done = run_llm(tmp_path, server.url, *extra, hours="4", report=f"{name}.json")
        assert done.returncode == 0, done.stderr
        runs.append((comparable(report(tmp_path, f"{name}.json")), memory_texts(tmp_path, name)))
    assert runs[0] == runs[1]
    assert sum(len(texts) for texts in runs[0][1].values()) > 30
