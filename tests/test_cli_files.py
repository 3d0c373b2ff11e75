"""The commands' files on a full disk, in a missing or read-only folder, or behind an
unreadable config folder: one line on stderr, exit code 1, no traceback, and the file
that was there before is still whole (issue 24, item 4). In-process through the CLI's
main, but for the unreadable config folder, which needs a process without root's
powers."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from disks import full_disk_fixture, read_only_fixture  # noqa: F401

from game.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAVE = "files-three"
OLD = '{"old": "a good file from before"}\n'


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A one-hour save of the three-resident town (in this process's data folder)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SMALLVILLE_CONFIG", str(tmp_path_factory.mktemp("cfg") / "config.toml"))
        report = tmp_path_factory.mktemp("run") / "r.json"
        args = ["run", "--scenario", "three", "--hours", "1", "--seed", "3", "--quiet"]
        assert main([*args, "--save", SAVE, "--report", str(report)]) == 0
    return SAVE


@pytest.fixture(autouse=True)
def own_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "cfg" / "config.toml"))
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))


def one_error(capsys, *words: str) -> str:
    """The one error line on stderr, which names each of `words`."""
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert all(w in lines[0] for w in words), lines[0]
    return lines[0]


def olds(folder: Path, *names: str) -> list[Path]:
    paths = [folder / n for n in names]
    for path in paths:
        path.write_text(OLD)
    return paths


def still_old(folder: Path, paths: list[Path]) -> None:
    assert [p.read_text() for p in paths] == [OLD] * len(paths)
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_run_report_on_a_full_disk_keeps_the_old_report(full_disk, capsys):
    """It used to empty the old report to 0 bytes first; now the old one stays and the
    new one goes to stdout."""
    paths = olds(full_disk.folder, "report.json")
    full_disk.fill()
    args = ["run", "--scenario", "three", "--hours", "0.1", "--quiet"]
    assert main([*args, "--report", str(paths[0])]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["steps"] > 0
    lines = [line for line in captured.err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "the disk is full" in lines[0], captured.err
    still_old(full_disk.folder, paths)


def test_battery_out_on_a_full_disk_keeps_the_old_file(saved, full_disk, capsys):
    paths = olds(full_disk.folder, "battery.jsonl")
    full_disk.fill()
    code = main(["interview", "--load", saved, "--battery", "--out", str(paths[0])])
    assert code == 1
    one_error(capsys, "battery.jsonl", "the disk is full")
    still_old(full_disk.folder, paths)


def test_evaluate_on_a_full_disk_keeps_the_old_report_and_chart(saved, full_disk, capsys):
    """Both used to be left 0 bytes long."""
    paths = olds(full_disk.folder, "eval.json", "eval.png")
    full_disk.fill()
    assert main(["evaluate", "--load", saved, "--report", str(paths[0])]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 2 and all("the disk is full" in e for e in errors), err
    assert "eval.png" in errors[0] and "eval.json" in errors[1]
    still_old(full_disk.folder, paths)


def test_study_report_on_a_full_disk_keeps_the_old_report(full_disk, tmp_path, capsys):
    """The results store (beside the report by default) is written first: on the full
    disk it is the one error, before any run; kept elsewhere, the report is."""
    paths = olds(full_disk.folder, "study.json")
    full_disk.fill()
    args = ["study", "--scenario", "three", "--seeds", "5", "--hours", "0.25", "--workers", "1"]
    if full_disk.real:  # SQLite writes past the simulated disk's seam
        assert main([*args, "--report", str(paths[0])]) == 1
        one_error(capsys, "study.db", "the disk is full")
    store = ["--store", str(tmp_path / "study.db")]
    assert main([*args, "--report", str(paths[0]), *store]) == 1
    one_error(capsys, "study.json", "the disk is full")
    still_old(full_disk.folder, paths)


def test_outputs_into_a_missing_folder_fail_before_the_work(saved, tmp_path, capsys):
    missing = tmp_path / "no-such-folder"
    commands = [
        ["interview", "--load", saved, "--battery", "--out", str(missing / "b.jsonl")],
        ["evaluate", "--load", saved, "--report", str(missing / "e.json")],
        ["evaluate", "--load", saved, "--report", str(tmp_path / "e.json")]
        + ["--chart", str(missing / "c.png")],
        ["study", "--scenario", "three", "--seeds", "5", "--report", str(missing / "s.json")],
    ]
    for args in commands:
        assert main(args) == 1, args
        line = one_error(capsys, "does not exist")
        assert str(missing) in line
    assert not missing.exists() and not (tmp_path / "e.json").exists()


def test_a_chart_into_a_read_only_folder_is_one_line(saved, read_only, tmp_path, capsys):
    chart = read_only / "chart.png"
    args = ["evaluate", "--load", saved, "--report", str(tmp_path / "e.json")]
    assert main([*args, "--chart", str(chart)]) == 1
    one_error(capsys, str(chart))
    assert not chart.exists() and (read_only / "old.txt").read_text() == "old"


def test_record_into_a_read_only_cache_folder_is_one_line(read_only, capsys):
    args = ["run", "--scenario", "three", "--hours", "0.1", "--quiet", "--brain", "llm"]
    args += ["--base-url", "http://127.0.0.1:9/v1", "--record"]
    for cache in (read_only / "llm.sqlite3", read_only / "sub" / "llm.sqlite3"):
        assert main([*args, "--cache-file", str(cache)]) == 1
        one_error(capsys, str(read_only))
    assert sorted(p.name for p in read_only.iterdir()) == ["old.txt"]


def _without_root_powers() -> list[str]:
    """A command prefix under which file modes hold: none for a user, and for root
    setpriv dropping the capabilities that ignore them."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("root ignores file modes, and setpriv is not here to drop that")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def test_an_unreadable_config_folder_is_one_line_not_a_traceback():
    """It crashed every command that reads the settings."""
    prefix = _without_root_powers()
    base = Path(tempfile.mkdtemp(prefix="smallville-cfg-"))
    folder = base / "cfg"
    folder.mkdir()
    (folder / "config.toml").write_text('brain = "scripted"\n')
    folder.chmod(0)
    env = {**os.environ, "SMALLVILLE_CONFIG": str(folder / "config.toml")}
    env |= {"SMALLVILLE_DATA": str(base / "data"), "SMALLVILLE_CACHE": str(base / "cache")}
    try:
        done = subprocess.run(
            [*prefix, sys.executable, "main.py", "config"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        folder.chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == (
        f"error: cannot read the config folder {folder}: Permission denied"
    ), done.stderr


def test_an_unreadable_input_is_one_line_and_exit_1(tmp_path, capsys):
    """A script (and in the same way a --human file) that cannot be read."""
    script = tmp_path / "no-script.jsonl"
    args = ["run", "--scenario", "three", "--hours", "0.1", "--quiet", "--script", str(script)]
    assert main(args) == 1
    line = one_error(capsys, "cannot read the script", str(script))
    assert line.endswith("No such file or directory")


def test_a_recording_and_audit_log_that_fill_the_disk_end_the_run_with_exit_1(
    full_disk, tmp_path, capsys, monkeypatch
):
    """`run --record` whose disk filled midway said so once, then exited 0; the audit log
    ended with half a line. Now: exit 1, each problem named, the log whole lines only."""
    if not full_disk.real:
        pytest.skip("SQLite writes past the writer's seam: only a real full disk fills it")
    sys.path.insert(0, str(ROOT / "tests" / "brains"))
    from protocol_server import ProtocolServer

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    (full_disk.folder / "ballast").write_bytes(b"\0" * 150_000)  # room for a few answers
    cache, audit = full_disk.folder / "llm.sqlite3", full_disk.folder / "audit.jsonl"
    with ProtocolServer(latency=0) as server:
        code = main(
            ["run", "--scenario", "three", "--hours", "0.2", "--quiet", "--brain", "llm",
             "--base-url", server.url, "--model", "m", "--record", "--cache-file", str(cache),
             "--audit-log", str(audit), "--report", str(tmp_path / "r.json")]
        )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1, err
    assert "Traceback" not in err
    problems = json.loads((tmp_path / "r.json").read_text())["problems"]
    assert any("cannot record into" in p and "full" in p for p in problems), problems
    assert any("audit log cannot be written" in p for p in problems), problems
    assert audit.read_bytes().endswith(b"\n")
    from game.brains.audit import read_audit

    assert read_audit(audit)  # whole lines, each one JSON


def test_interview_and_evaluate_that_lost_a_recording_exit_1(saved, tmp_path, capsys, monkeypatch):
    """The wiring of the run's check into the other commands that may --record (the
    disk filling under a model brain is the test above)."""
    import game.cli

    lost = "cannot record into llm.sqlite3: database or disk is full; recording stops"
    monkeypatch.setattr(game.cli, "unwritten", lambda brain: [lost])
    assert main(["interview", "--load", saved, "--agent", "Klaus Mueller", "hi"]) == 1
    one_error(capsys, lost)
    assert main(["evaluate", "--load", saved, "--report", str(tmp_path / "e.json")]) == 1
    assert lost in capsys.readouterr().err
    assert (tmp_path / "e.json").exists()  # the evaluation itself is written


@pytest.mark.parametrize("name", ["", "../x", "CON", "a\nb"])
def test_run_with_a_save_name_that_is_no_name_fails_before_the_run(name, tmp_path, capsys):
    """A bad --save name was found only when the run, hours of it perhaps, tried to
    save; '' saved nothing and said nothing."""
    report = tmp_path / "r.json"
    args = ["run", "--scenario", "three", "--hours", "1", "--quiet", "--report", str(report)]
    assert main([*args, "--save", name]) == 2
    one_error(capsys, "a save name" if name != "CON" else "device")
    assert not report.exists()  # nothing was run


def test_run_saving_into_a_read_only_folder_fails_before_the_run(
    read_only, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("SMALLVILLE_DATA", str(read_only))
    report = tmp_path / "r.json"
    args = ["run", "--scenario", "three", "--hours", "1", "--quiet", "--report", str(report)]
    assert main([*args, "--save", "later"]) == 1
    one_error(capsys, str(read_only / "saves" / "later"), "nothing was run")
    assert not report.exists()
    assert sorted(p.name for p in read_only.iterdir()) == ["old.txt"]


def _saving_run(name: str, tmp_path):
    """An hour of the three-resident town saved as `name`: its exit code and report path."""
    report = tmp_path / "r.json"
    args = ["run", "--scenario", "three", "--hours", "1", "--quiet", "--report", str(report)]
    return main([*args, "--save", name]), report


def test_run_saving_where_a_file_stands_for_the_saves_folder_fails_before_the_run(
    tmp_path, capsys, monkeypatch
):
    (tmp_path / "data").write_text("not a folder")
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    code, report = _saving_run("later", tmp_path)
    assert code == 1
    one_error(capsys, "nothing was run")
    assert not report.exists()
    assert (tmp_path / "data").read_text() == "not a folder"


def test_a_cache_that_is_unusable_while_loading_a_save_blames_the_cache(
    saved, read_only, tmp_path, capsys
):
    """With --load, a cache that is no database came as '<save>/save.json: <cache>: not
    a usable record/replay cache', and a read-only cache folder as exit 2 under the
    save's name: the whole save named as the problem."""
    bad = tmp_path / "bad.sqlite3"
    bad.write_text("not a database")
    args = ["interview", "--load", saved, "--agent", "Klaus Mueller", "hi", "--talk-brain", "llm"]
    args += ["--model", "m", "--base-url", "http://127.0.0.1:9/v1"]
    assert main([*args, "--replay", "--cache-file", str(bad)]) == 2
    assert one_error(capsys, str(bad), "not a usable").startswith(f"error: {bad}:")
    assert main([*args, "--record", "--cache-file", str(read_only / "c.sqlite3")]) == 1
    assert "save.json" not in one_error(capsys, str(read_only), "read-only")


def test_run_saving_into_a_folder_of_other_files_fails_before_the_run(
    tmp_path, capsys, monkeypatch
):
    """A save name whose folder holds someone else's files (or links to such a folder)
    was refused only when the finished run tried to save."""
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("keep me")
    (tmp_path / "data" / "saves").mkdir(parents=True)
    (tmp_path / "data" / "saves" / "linked").symlink_to(theirs)
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    code, report = _saving_run("linked", tmp_path)
    assert code == 2
    one_error(capsys, "not a Smallville save")
    assert not report.exists()
    assert [p.name for p in theirs.iterdir()] == ["notes.txt"]
