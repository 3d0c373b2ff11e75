"""Headless stays headless: the terminal commands never load pygame, and importing any
module of the game leaves the environment as it found it.

Both checks run in a fresh interpreter, because pygame (and the test set-up's own SDL
variables) may already be loaded or set in the process that runs the tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.world.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]

# Runs main.py as `python main.py ARGS` would, then reports what it loaded. pytmx swallows
# an ImportError of pygame, so blocking the import would hide a load: we look instead.
DRIVER = """
import json, runpy, sys
report, *args = sys.argv[1:]
sys.argv = ["main.py", *args]
code = 0
try:
    runpy.run_path("main.py", run_name="__main__")
except SystemExit as stop:
    code = stop.code
with open(report, "w", encoding="utf-8") as out:
    json.dump({"code": code, "pygame": "pygame" in sys.modules}, out)
"""


def clean_env(**extra: str) -> dict[str, str]:
    """The caller's environment without pygame's and SDL's settings, so a module that sets
    them (rather than only reading them) shows up as a difference."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "PYGAME_"))}
    return {**keep, **extra}


def command(data: Path, *args: str) -> dict:
    """Run one command of main.py in a fresh interpreter; its exit code and pygame's fate."""
    report = data / "driver.json"
    result = subprocess.run(
        [sys.executable, "-c", DRIVER, str(report), *args],
        cwd=ROOT,
        env=clean_env(SMALLVILLE_DATA=str(data)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    outcome = json.loads(report.read_text(encoding="utf-8"))
    assert outcome["code"] in (0, None), result.stderr
    return outcome


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """A data folder holding a one-hour save of the three-resident town."""
    folder = tmp_path_factory.mktemp("data")
    outcome = command(
        folder, "run", "--scenario", "three", "--hours", "1", "--quiet", "--save", "h1",
        "--report", str(folder / "report.json"),
    )  # fmt: skip
    assert not outcome["pygame"], "`run` loaded pygame"
    return folder


def test_run_saves_without_pygame(data: Path) -> None:
    assert json.loads((data / "report.json").read_text(encoding="utf-8"))


def test_town_prints_without_pygame(tmp_path: Path) -> None:
    assert not command(tmp_path, "town", "--scenario", "three")["pygame"]


def test_interview_answers_without_pygame(data: Path) -> None:
    name = load_scenario("three").residents[0].name
    asked = command(data, "interview", "--load", "h1", "--agent", name, "Who are you?")
    assert not asked["pygame"]


def game_modules() -> list[str]:
    """Every module under game/, the window's included."""
    names = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_importing_any_module_leaves_the_environment_alone() -> None:
    code = (
        "import importlib, json, os, sys\n"
        "before = dict(os.environ)\n"
        "for name in sys.argv[1:]:\n"
        "    importlib.import_module(name)\n"
        "after = dict(os.environ)\n"
        "print(json.dumps({k: [before.get(k), after.get(k)] for k in before.keys() | after.keys()"
        " if before.get(k) != after.get(k)}))\n"
    )
    modules = game_modules()
    assert "game.ui.app" in modules and "game.cli" in modules
    result = subprocess.run(
        [sys.executable, "-c", code, *modules],
        cwd=ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    changed = json.loads(result.stdout.strip().splitlines()[-1])
    assert changed == {}, f"importing game modules changed the environment: {changed}"
