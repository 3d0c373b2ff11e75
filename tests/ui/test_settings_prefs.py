"""play.json as a person or a stray program may leave it: each value out of the range
its flag takes is its default, and `play` starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.ui.settings import Prefs, load_prefs

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "text",
    [
        '{"speed": Infinity}',  # an OverflowError traceback at `play`
        '{"speed": 1e300, "autosave_minutes": -5}',
        '{"size": [100000, 100000]}',  # a 16384 x 16384 window, 1.5 GB
        '{"size": [0, -1], "name": 5}',
        '{"speed": "2", "autosave_minutes": NaN, "size": "big"}',
        "[1, 2]",
    ],
)
def test_a_value_out_of_range_is_its_default(tmp_path, monkeypatch, text):
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "config.toml"))
    (tmp_path / "play.json").write_text(text)
    assert load_prefs() == Prefs()


def test_the_values_in_range_are_kept_beside_one_out_of_it(tmp_path, monkeypatch):
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "config.toml"))
    doc = {"speed": 32, "autosave_minutes": 30, "name": "Quinn", "size": [800, 99999]}
    (tmp_path / "play.json").write_text(json.dumps(doc))
    assert load_prefs() == Prefs(32, 30, "Quinn", Prefs().size)


def test_play_starts_with_a_poisoned_play_json(tmp_path):
    (tmp_path / "play.json").write_text('{"speed": Infinity, "size": [100000, 100000]}')
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "SMALLVILLE_CONFIG": str(tmp_path / "config.toml"),
           "SMALLVILLE_DATA": str(tmp_path / "data")}  # fmt: skip
    cmd = [sys.executable, "main.py", "play", "--scenario", "three", "--quit-after", "1"]
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "forcibly resized" not in result.stderr
