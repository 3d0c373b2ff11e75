"""New save names through the command line (game/cli.py): one line before anything runs,
for `run --save` and `play --save` alike; and `--size` says the range it must be in."""

import pytest

from game.cli import main
from game.sim.saves import saves_root

RUN = ["run", "--scenario", "three", "--hours", "0.1", "--quiet", "--report"]


@pytest.fixture(autouse=True)
def own_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "cfg" / "config.toml"))
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))


def error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


@pytest.mark.parametrize("name", ["-x", "-", "--force"])
def test_a_new_save_name_beginning_with_a_dash_is_refused_before_the_run(name, tmp_path, capsys):
    report = tmp_path / "r.json"
    assert main([*RUN, str(report), f"--save={name}"]) == 2
    line = error_line(capsys)
    assert "does not begin with '-'" in line and repr(name) in line
    assert not report.exists()  # nothing was run
    assert not (saves_root() / name).exists()


def test_save_equals_double_dash_is_one_line_not_a_list(tmp_path, capsys):
    assert main([*RUN, str(tmp_path / "r.json"), "--save=--"]) == 2
    line = error_line(capsys)
    assert "'--' is no save name" in line and "[]" not in line


@pytest.mark.parametrize("name", ["-x", "../x", "a/b", "x "])
def test_play_save_name_is_checked_before_the_window_opens(name, monkeypatch, capsys):
    import game.ui.app as app

    def never(*_args, **_kwargs):
        raise AssertionError("the window opened")

    monkeypatch.setattr(app.App, "run", never)
    assert main(["play", "--scenario", "three", f"--save={name}", "--quit-after", "1"]) == 2
    assert "save name" in error_line(capsys)


def test_a_name_with_a_dash_inside_still_saves_and_loads(tmp_path, capsys):
    assert main([*RUN, str(tmp_path / "r.json"), "--save", "my-town_2"]) == 0
    assert (saves_root() / "my-town_2" / "save.json").is_file()
    capsys.readouterr()
    assert main(["interview", "--load", "my-town_2", "--agent", "Klaus Mueller", "Hi"]) == 0


@pytest.mark.parametrize("size", ["200x200", "320x100", "99999x720", "wide"])
def test_size_out_of_range_names_the_range(size, capsys):
    assert main(["replay", "--load", "nosuch", "--size", size]) == 2
    line = error_line(capsys)
    assert "from 320x240 to 16384x16384" in line and repr(size) in line


HOLDER = """
import sys, time
from game.sim.saves import claim, name_folder
held = claim(name_folder(sys.argv[1]))
print("held" if held else "not held", flush=True)
time.sleep(60)
"""


def test_a_save_another_game_holds_is_refused_before_the_run(tmp_path, monkeypatch, capsys):
    """A game window holds its autosave folder for the whole game (another process here);
    `run --save` of that name said so only after the run and a 10 s wait."""
    import subprocess
    import sys
    from pathlib import Path

    import game.sim.saves as saves

    root = Path(__file__).resolve().parents[1]
    assert main([*RUN, str(tmp_path / "r0.json"), "--save", "held"]) == 0  # a save there
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, "held"], cwd=root, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(saves, "LOCK_WAIT", 0.3)
        capsys.readouterr()
        report = tmp_path / "r.json"
        assert main([*RUN, str(report), "--save", "held"]) == 2
        line = error_line(capsys)
        assert "another game holds this save" in line and "nothing was run" in line
        assert not report.exists()
    finally:
        holder.kill()
        holder.wait()
    assert main([*RUN, str(tmp_path / "r2.json"), "--save", "held"]) == 0  # let go: saves


def test_the_progress_of_run_load_counts_this_runs_steps(tmp_path, capsys):
    """`run --load` of a 2 h save for 2 h ended its progress line at 200.0%."""
    assert main([*RUN[:4], "2", "--quiet", "--report", str(tmp_path / "a"), "--save", "prog"]) == 0
    capsys.readouterr()
    assert main(["run", "--load", "prog", "--hours", "2", "--report", str(tmp_path / "b")]) == 0
    shown = [p for p in capsys.readouterr().err.replace("\r", "\n").splitlines() if "%" in p]
    assert shown and "100.0%" in shown[-1]
    assert all(float(p.split()[2].rstrip("%")) <= 100 for p in shown)
