"""`--talk-brain llm` end to end through main.py against the local protocol server (issue
22): a scripted save interviewed through the model, every answer marked with who gave
it, a headless run whose requests are only talk, and flags that would be ignored refused
in one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "brains"))

from llm_helpers import run_main  # noqa: E402
from protocol_server import ProtocolServer  # noqa: E402

KLAUS = "Klaus Mueller"


@pytest.fixture(scope="module")
def scripted_save(tmp_path_factory) -> Path:
    """A scripted town of three, run to mid-morning and saved (no model anywhere)."""
    tmp = tmp_path_factory.mktemp("talk")
    done = run_main(
        ["run", "--scenario", "three", "--hours", "7", "--seed", "4", "--save", "plain",
         "--report", "r.json", "--quiet"],
        tmp,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return tmp


@pytest.fixture
def server():
    with ProtocolServer() as s:
        yield s


def interview(tmp: Path, url: str, *extra: str):
    args = ["interview", "--load", "plain", "--agent", KLAUS, "--talk-brain", "llm"]
    return run_main([*args, "--base-url", url, "--model", "M", *extra], tmp)


def one_line_error(done) -> str:
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_a_scripted_save_is_interviewed_by_the_model(scripted_save, server):
    done = interview(scripted_save, server.url, "--json", "What are you doing?", "And later?")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["answered_by"] for r in rows] == ["model", "model"]
    assert dict(server.by_question) == {"answer": 2}  # no summary, plan or embedding asked
    text = interview(scripted_save, server.url, "What are you doing?")
    assert text.returncode == 0 and text.stdout.startswith("(model) ")


def test_a_failing_endpoint_is_marked_as_the_scripted_fallback(scripted_save, server):
    server.always = "server_error"
    done = interview(scripted_save, server.url, "--json", "What are you doing?")
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout)
    assert row["answered_by"] == "scripted fallback" and row["answer"]
    several = interview(scripted_save, server.url, "Who are you?", "Where do you live?")
    assert several.stdout.count("A: (scripted fallback) ") == 2


def test_without_a_model_the_output_is_as_it_was(scripted_save):
    done = run_main(["interview", "--load", "plain", "--agent", KLAUS, "--json", "Hi?"],
                    scripted_save)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["answered_by"] == "scripted"
    plain = run_main(["interview", "--load", "plain", "--agent", KLAUS, "Hi?"], scripted_save)
    assert not plain.stdout.startswith("(")


def test_model_flags_with_no_model_are_refused_in_one_line(scripted_save):
    line = one_line_error(
        run_main(["interview", "--load", "plain", "--agent", KLAUS, "--base-url",
                  "http://localhost:9/v1", "--model", "M", "Hi?"], scripted_save)
    )  # fmt: skip
    assert "--base-url --model would be ignored" in line and "--talk-brain llm" in line
    line = one_line_error(
        run_main(["run", "--scenario", "three", "--hours", "1", "--model", "M"], scripted_save)
    )
    assert "--model would be ignored" in line
    line = one_line_error(
        run_main(["play", "--scenario", "three", "--base-url", "http://x/v1"], scripted_save)
    )
    assert "--base-url would be ignored" in line


def test_brain_llm_on_a_scripted_save_points_to_the_talk_brain(scripted_save):
    line = one_line_error(
        run_main(["interview", "--load", "plain", "--agent", KLAUS, "--brain", "llm", "Hi?"],
                 scripted_save)
    )  # fmt: skip
    assert "made by the scripted brain" in line and "--talk-brain llm" in line


def test_a_talk_only_run_sends_only_talk_and_reports_who_answered(tmp_path, server):
    script = tmp_path / "s.jsonl"
    line = {"at": "2023-02-13 09:30", "do": "say", "to": KLAUS, "text": "Hi Klaus, busy?"}
    script.write_text(json.dumps(line) + "\n", encoding="utf-8")
    done = run_main(
        ["run", "--scenario", "three", "--hours", "6", "--talk-brain", "llm", "--base-url",
         server.url, "--model", "M", "--script", str(script), "--report", "r.json", "--quiet"],
        tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["brain"] == "scripted"
    assert set(report["model"]["by_question"]) == {"utter"}  # the visitor's line, only
    assert dict(server.by_question) == {"utter": 1}
    talk = report["model"]["talk"]
    assert talk["talk_brain"] == "llm" and talk["residents_talk"] is False
    assert talk["answers"]["visitor chat"] == {"model": 1}


def test_config_shows_the_talk_brain_and_where_it_came_from(tmp_path):
    done = run_main(["config", "--talk-brain", "llm", "--talk-residents"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert 'talk_brain = "llm"  # flag' in done.stdout
    assert "talk_residents = true  # flag" in done.stdout
    # run_main points SMALLVILLE_CONFIG at this file
    (tmp_path / "no-config.toml").write_text('talk_brain = "model"\n', encoding="utf-8")
    bad = run_main(["config"], tmp_path)
    assert "talk_brain" in one_line_error(bad) and "scripted, llm" in bad.stderr
