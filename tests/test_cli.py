"""The README's commands, end to end through main.py (scripted brain, temp data folder)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def main(*args, data: Path, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "SMALLVILLE_DATA": str(data), "SDL_VIDEODRIVER": "dummy"}
    result = subprocess.run(
        [sys.executable, "main.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_help_lists_the_subcommands(tmp_path):
    out = main("--help", data=tmp_path).stdout
    for command in ("play", "town", "run", "saves", "interview", "evaluate", "study"):
        assert command in out


def test_town_json_has_every_resident(tmp_path):
    doc = json.loads(main("town", "--scenario", "smallville", "--json", data=tmp_path).stdout)
    assert len(doc["residents"]) == 25 and doc["map"]["tile"] == 32
    names = {s["name"] for s in doc["sectors"]}
    assert {"Hobbs Cafe", "Johnson Park", "Oak Hill College", "Lin family's house"} <= names


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    report = data / "r.json"
    main(
        "run",
        "--scenario",
        "three",
        "--hours",
        "3",
        "--seed",
        "4",
        "--save",
        "s3",
        "--report",
        str(report),
        "--quiet",
        data=data,
    )
    return data, json.loads(report.read_text())


def test_run_report_and_save(saved):
    data, report = saved
    assert report["scenario"] == "three" and report["steps"] == 3 * 360
    assert {
        "scenario",
        "seed",
        "brain",
        "start",
        "end",
        "steps",
        "wall_seconds",
        "agents",
        "conversations",
        "model",
    } <= set(report)
    listing = main("saves", data=data).stdout
    assert "s3" in listing and "three" in listing


def test_interview_answers_without_changing_the_save(saved):
    data, _ = saved
    before = (data / "saves" / "s3" / "save.json").read_bytes()
    out = main(
        "interview",
        "--load",
        "s3",
        "--agent",
        "Isabella Rodriguez",
        "What are you looking forward to?",
        data=data,
    ).stdout
    assert out.strip()
    assert (data / "saves" / "s3" / "save.json").read_bytes() == before


def test_battery_writes_jsonl(saved, tmp_path):
    data, _ = saved
    out = tmp_path / "battery.jsonl"
    main("interview", "--load", "s3", "--battery", "--out", str(out), data=data)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3 * 25 and all(r["answer"] for r in rows)


def test_evaluate_writes_json_and_chart(saved, tmp_path):
    data, _ = saved
    report = tmp_path / "eval.json"
    main("evaluate", "--load", "s3", "--report", str(report), data=data)
    result = json.loads(report.read_text())
    for key in ("diffusion", "network_density", "attendance", "hallucinations"):
        assert key in result
    party = result["diffusion"]["party"]  # 'three' interviews its one public intent
    assert len(party["phrasings"]) >= 5 and party["spread"]["min"] <= party["end"]
    assert set(result["attendance"]["party"]) >= {"invited", "accepted", "attended"}
    assert report.with_suffix(".png").stat().st_size > 10_000


def test_interview_time_ablation_restricts_retrieval(saved):
    """--ablate memory: the same save, but the resident may retrieve nothing, so even its
    own seeded plan is gone (the paper's ablations are interview-time)."""
    data, _ = saved
    question = ("--agent", "Isabella Rodriguez", "Is there a party in town?")
    full = main("interview", "--load", "s3", *question, data=data).stdout
    none = main("interview", "--load", "s3", *question, "--ablate", "memory", data=data).stdout
    assert full.startswith("Yes")
    assert none.strip() and not none.startswith("Yes") and "party" in none


def test_run_time_ablation_is_gone(tmp_path):
    result = main(
        "run",
        "--scenario",
        "three",
        "--hours",
        "1",
        "--ablate",
        "memory",
        data=tmp_path,
        check=False,
    )
    assert result.returncode == 2 and "--ablate" in result.stderr


def test_evaluate_several_saves_reports_the_summary(saved, tmp_path):
    data, _ = saved
    report = tmp_path / "two.json"
    out = main(
        "evaluate", "--load", "s3", "--load", "s3", "--report", str(report), data=data
    ).stdout
    doc = json.loads(report.read_text())
    assert len(doc["evaluations"]) == 2 and "paper" in out
    party = next(r for r in doc["summary"] if r["measure"] == "diffusion.party")
    assert party["min"] == party["max"] == party["mean"]  # the same save twice


def test_unknown_load_is_one_clear_line(tmp_path):
    result = main("interview", "--load", "nope", "--agent", "x", "hi", data=tmp_path, check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: ") and "nope" in result.stderr


def test_replay_opens_the_window_and_exits(saved, tmp_path):
    data, _ = saved
    shot = tmp_path / "replay.png"
    main(
        "replay",
        "--load",
        "s3",
        "--speed",
        "32",
        "--quit-after",
        "2",
        "--screenshot",
        str(shot),
        data=data,
    )
    assert shot.stat().st_size > 10_000


def test_interview_asks_several_questions_as_one_conversation_in_json(saved):
    data, _ = saved
    questions = ("Is there a party in town?", "When is it?")
    out = main(
        "interview", "--load", "s3", "--agent", "Klaus Mueller", *questions, "--json", data=data
    ).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["question"] for r in rows] == list(questions)
    for row in rows:
        assert {"agent", "question", "answer", "fallback", "act"} <= set(row)
        assert row["agent"] == "Klaus Mueller" and row["answer"].strip()
        assert isinstance(row["fallback"], bool) and isinstance(row["act"], dict)


def test_words_without_quotes_are_still_one_question(saved):
    data, _ = saved
    words = ("Is", "there", "a", "party", "in", "town?")
    out = main("interview", "--load", "s3", "--agent", "Klaus Mueller", *words, "--json", data=data)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["question"] for r in rows] == ["Is there a party in town?"]


def test_interview_all_answers_for_every_resident(saved):
    data, _ = saved
    out = main("interview", "--load", "s3", "--agent", "all", "Who are you?", "--json", data=data)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert sorted(r["agent"] for r in rows) == [
        "Isabella Rodriguez",
        "Klaus Mueller",
        "Maria Lopez",
    ]
    assert all(r["answer"].strip() for r in rows)


def test_a_bad_script_line_stops_the_run_before_it_starts(tmp_path):
    script = tmp_path / "plan.jsonl"
    good = {"at": "2023-02-13 05:00", "do": "announce", "text": "Bake sale at Hobbs Cafe"}
    bad = {"at": "2023-02-13 05:00", "do": "say", "to": "Nobody Here", "text": "hi"}
    script.write_text("\n".join(json.dumps(d) for d in (good, good, bad)) + "\n")
    args = ("run", "--scenario", "three", "--hours", "1", "--quiet", "--script", str(script))
    result = main(*args, "--save", "never", data=tmp_path, check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: ") and f"{script}, line 3:" in result.stderr
    assert "Nobody Here" in result.stderr
    assert not (tmp_path / "saves" / "never").exists() and result.stdout == ""


def test_a_script_runs_and_the_report_says_what_it_did(tmp_path):
    script = tmp_path / "plan.jsonl"
    stove = "Hobbs Cafe:kitchen:stove"
    lines = [
        {"at": "2023-02-13 04:30", "do": "set_state", "object": stove, "state": "burning"},
        {"at": "2023-02-13 09:00", "do": "announce", "text": "Not reached in one hour"},
    ]
    script.write_text("\n".join(json.dumps(d) for d in lines) + "\n")
    report = tmp_path / "r.json"
    args = ("run", "--scenario", "three", "--hours", "1", "--quiet", "--script", str(script))
    main(*args, "--report", str(report), data=tmp_path)
    done = json.loads(report.read_text())["script"]
    assert [(a["line"], a["do"], a["done"]) for a in done["applied"]] == [
        (1, "set_state", "2023-02-13 04:30:00")
    ]
    assert [n["line"] for n in done["not_reached"]] == [2]


def test_every_entry_prints_through_the_cleaned_terminal(capsys, monkeypatch):
    """game.cli.main called directly (not through main.py) cleaned nothing it printed."""
    import game.world.describe as describe
    from game.cli import main as cli_main

    monkeypatch.setattr(describe, "describe_tree", lambda town: "evil\x1b[2J\x07\u202eeliv")
    assert cli_main(["town", "--scenario", "three"]) == 0
    out = capsys.readouterr().out
    assert "evil" in out and not any(c in out for c in "\x1b\x07\u202e")


def test_a_subcommands_usage_names_it_after_main_py(tmp_path):
    usage = main("interview", "--help", data=tmp_path).stdout.splitlines()[0]
    assert usage.startswith("usage: main.py interview [-h] --load LOAD"), usage


def test_a_reader_that_goes_away_is_no_error(tmp_path):
    """`town | head -1` printed 'error: Broken pipe' (the reader gone: a closed pipe)."""
    env = {**os.environ, "SMALLVILLE_DATA": str(tmp_path)}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "main.py", "town", "--scenario", "smallville"],
            cwd=ROOT, env=env, stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert done.stderr == "" and done.returncode == 1
