"""`python main.py play ... --quit-after N --screenshot shot.png` plays and exits 0."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_play_quits_after_and_writes_a_screenshot(tmp_path):
    shot = tmp_path / "shot.png"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    cmd = [sys.executable, "main.py", "play", "--scenario", "three", "--quit-after", "2",
           "--screenshot", str(shot)]  # fmt: skip
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert shot.stat().st_size > 50_000  # a rendered town, not a blank frame


def test_a_bad_window_size_is_one_clear_line(tmp_path):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    cmd = [sys.executable, "main.py", "play", "--size", "big"]
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--size" in result.stderr


def test_help_describes_every_command_play_first():
    from game.cli import build_parser

    lines = build_parser().format_help().splitlines()
    listed = [line.split()[0] for line in lines if line.startswith("    ") and line.split()]
    assert listed[:3] == ["play", "replay", "config"]
    assert {"saves", "interview", "evaluate", "run", "town"} <= set(listed)
    for line in lines:
        if line.startswith("    ") and line.strip():
            assert len(line.split()) > 2, f"no description on the command's line: {line!r}"
