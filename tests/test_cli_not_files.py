"""A map, scenario, script or config file that is there but no file: a folder, a device
(/dev/zero) or a pipe. Each is one line naming what it is. They were called "not found"
(the map, the scenario), silently skipped for the defaults (the config), or waited on
forever (a pipe as --script blocked in open() for a writer), so through real processes
with a timeout: a hang fails the test rather than holding the suite."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
THREE = ROOT / "saves" / "scenarios" / "three.json"


def odd_path(tmp_path: Path, kind: str) -> str:
    """A path that is there and is no regular file: a folder, a pipe or a device."""
    if kind == "device":
        return "/dev/zero"
    path = tmp_path / f"a-{kind}.json"
    path.mkdir() if kind == "folder" else os.mkfifo(path)
    return str(path)


def main_py(tmp_path: Path, *args: str, env: dict[str, str] | None = None):
    own = {"SMALLVILLE_DATA": str(tmp_path / "data"), "SMALLVILLE_CACHE": str(tmp_path / "c")}
    own["SMALLVILLE_CONFIG"] = str(tmp_path / "cfg" / "config.toml")
    return subprocess.run(
        [sys.executable, "main.py", *args],
        cwd=ROOT,
        env={**os.environ, **own, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_line(done, *words: str) -> None:
    assert done.returncode in (1, 2), done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "not found" not in lines[0] and all(w in lines[0] for w in words), lines[0]


KINDS = ["folder", "pipe", "device"]
SAYS = {"folder": "folder", "pipe": "not a regular file", "device": "not a regular file"}


@pytest.mark.parametrize("kind", KINDS)
def test_a_scenario_that_is_no_file(kind, tmp_path):
    odd = odd_path(tmp_path, kind)
    one_line(main_py(tmp_path, "town", "--scenario", odd), odd, "scenario", SAYS[kind])


@pytest.mark.parametrize("kind", KINDS)
def test_a_map_that_is_no_file(kind, tmp_path):
    odd = odd_path(tmp_path, kind)
    doc = json.loads(THREE.read_text(encoding="utf-8"))
    doc["map"] = odd  # an absolute path: the maps folder / it is it
    scenario = tmp_path / "odd-map.json"
    scenario.write_text(json.dumps(doc), encoding="utf-8")
    one_line(main_py(tmp_path, "town", "--scenario", str(scenario)), odd, "map", SAYS[kind])


@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_a_script_that_is_no_file(kind, tmp_path):
    odd = odd_path(tmp_path, kind)
    done = main_py(tmp_path, "run", "--scenario", "three", "--hours", "0.1", "--script", odd)
    one_line(done, odd, "script", SAYS[kind])
    assert done.returncode == 1


@pytest.mark.parametrize("kind", KINDS)
def test_a_config_file_that_is_no_file_is_not_skipped(kind, tmp_path):
    odd = odd_path(tmp_path, kind)
    done = main_py(tmp_path, "config", env={"SMALLVILLE_CONFIG": odd})
    one_line(done, odd, "config file", SAYS[kind])
    assert done.returncode == 1
