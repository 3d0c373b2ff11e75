"""A second game window, while another process autosaves into `autosave`, autosaves under
its own name and says so: a toast that stays (not the brief "Autosaved") and a line in the
"what happened" log, as soon as the game starts (issue 24)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from game.sim.autosave import another_game
from game.sim.saves import DOCUMENT, read_save, saves_root

ROOT = Path(__file__).resolve().parents[2]
HOLDER = """
import sys
from game.sim.autosave import claim_autosave
print(claim_autosave(sys.argv[1]).folder.name, flush=True)
sys.stdin.read()
"""


def test_a_second_window_autosaves_as_autosave_2_and_says_so(make_app):
    root = saves_root()  # where the window autosaves (this test run's data folder)
    other = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert other.stdout.readline().strip() == "autosave"
        app = make_app(autosave_minutes=60)
        town = app.town
        said = another_game("autosave-2")
        _tick_until(town, lambda: any(t.text == said for t in town.notes.toasts))
        toast = next(t for t in town.notes.toasts if t.text == said)
        assert not toast.brief  # said at once, before any autosave, and it stays up
        assert said in [line.text for line in town.feed.lines]
        assert not (root / "autosave-2" / DOCUMENT).exists()
        town.sim.run_until(town.sim.now + timedelta(minutes=61))
        _tick_until(town, lambda: (root / "autosave-2" / DOCUMENT).exists())
        assert not (root / "autosave" / DOCUMENT).exists()  # the other game's, untouched
        assert read_save("autosave-2", root)[0]["clock"] == town.sim.now.isoformat()
    finally:
        other.kill()
        other.wait(10)


def test_f5_into_this_games_own_autosave_autosaves_at_once(make_app):
    """It waited 10 s on the lock this game holds for its autosaves, then was refused."""
    root = saves_root()
    app = make_app(autosave_minutes=60, save_name="autosave")
    town = app.town
    _tick_until(town, lambda: town.autosaver.name == "autosave")
    town.sim.run_until(town.sim.now + timedelta(minutes=5))
    began = time.monotonic()
    town._save(None)
    assert time.monotonic() - began < 2.0
    assert any("autosaving now" in t.text for t in town.notes.toasts)
    _tick_until(town, lambda: any(t.text.startswith("Autosaved") for t in town.notes.toasts))
    assert read_save("autosave", root)[0]["clock"] == town.sim.now.isoformat()


def test_f5_into_a_save_another_game_autosaves_into_is_refused_at_once(make_app):
    root = saves_root()
    other = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        assert other.stdout.readline().strip() == "autosave"
        town = make_app(save_name="autosave").town
        before = _files(root / "autosave")
        began = time.monotonic()
        town._save(None)
        assert time.monotonic() - began < 2.0
        said = [t.text for t in town.notes.toasts]
        assert any("another game is autosaving as autosave" in t for t in said), said
        assert _files(root / "autosave") == before  # the other game's, untouched
    finally:
        other.kill()
        other.wait(10)


def _files(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}


def _tick_until(town, done, seconds: float = 20.0) -> None:
    """The town's autosave tick, once a frame, until `done()` (or the time is up)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not done():
        town._autosave()
        time.sleep(0.05)
    assert done()
