"""A save folder this user may not read (issue 24, item 4): `saves` says so in one line
and lists the rest; `interview --load` of it is one line and exit 1; an unreadable saves
folder is one line and exit 1. Never a traceback.

Through main.py in a process of its own. Not as root, the folder really is chmod 000; as
root (whom permissions do not stop) the process is told the same by its os functions:
EACCES for anything inside the folder, as the kernel says for a folder without r and x.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")

DENIED = """
import builtins, io, os, runpy, sys
bad = os.path.normpath(os.path.abspath(sys.argv.pop(1)))

def denied(path, inside_only):
    try:
        p = os.path.normpath(os.path.abspath(os.fsdecode(os.fspath(path))))
    except TypeError:
        return False
    return p.startswith(bad + os.sep) or (p == bad and not inside_only)

def guard(real, inside_only=False):
    def call(path, *args, **kwargs):
        if not isinstance(path, int) and denied(path, inside_only):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path, *args, **kwargs)
    return call

os.stat, os.lstat = guard(os.stat, True), guard(os.lstat, True)  # the entry itself shows
os.listdir, os.scandir, os.open = guard(os.listdir), guard(os.scandir), guard(os.open)
builtins.open = io.open = guard(io.open)
sys.argv = ["main.py", *sys.argv[1:]]
runpy.run_path("main.py", run_name="__main__")
"""


def _save(folder: Path, clock: str) -> None:
    folder.mkdir(parents=True)
    doc = {"format": "smallville-save", "version": 3, "scenario_name": "three",
           "clock": clock, "brain": "scripted", "saved_at": "2023-02-13T09:00:00"}  # fmt: skip
    (folder / "save.json").write_text(json.dumps(doc))


def _main(data: Path, unreadable: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SMALLVILLE_DATA": str(data)}
    if AS_ROOT:
        command = [sys.executable, "-c", DENIED, str(unreadable), *args]
    else:
        command = [sys.executable, "main.py", *args]
        unreadable.chmod(0)
    try:
        return subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
    finally:
        unreadable.chmod(0o755)


def _one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def test_saves_lists_the_readable_and_says_which_it_skipped(tmp_path):
    saves = tmp_path / "saves"
    _save(saves / "good", "2023-02-13T09:30:00")
    _save(saves / "locked", "2023-02-13T10:00:00")
    done = _main(tmp_path, saves / "locked", "saves")
    assert done.returncode == 0, done.stderr
    assert "good" in done.stdout and "locked" not in done.stdout
    line = _one_line(done.stderr)
    assert line.startswith("skipped locked:") and "Permission denied" in line


def test_interview_of_an_unreadable_save_is_one_line_and_exit_1(tmp_path):
    saves = tmp_path / "saves"
    _save(saves / "locked", "2023-02-13T10:00:00")
    done = _main(tmp_path, saves / "locked", "interview", "--load", "locked", "hello?")
    assert done.returncode == 1, done.stderr
    line = _one_line(done.stderr)
    assert line.startswith("error:") and "cannot read" in line and "Permission denied" in line


def test_an_unreadable_saves_folder_is_one_line_and_exit_1(tmp_path):
    saves = tmp_path / "saves"
    _save(saves / "good", "2023-02-13T09:30:00")
    done = _main(tmp_path, saves, "saves")
    assert done.returncode == 1, done.stderr
    assert "cannot read the saves folder" in _one_line(done.stderr)


def test_saving_over_a_save_one_may_not_read_says_so(tmp_path):
    """`run --load s --save s` by a user who may list the folder but not read its
    save.json (another user's, 0600) was 'this folder holds files that are not a
    Smallville save', exit 2: the save was blamed, not the permission."""
    made = subprocess.run(
        [sys.executable, "main.py", "run", "--scenario", "three", "--hours", "0.2",
         "--save", "theirs", "--quiet"],
        cwd=ROOT, env={**os.environ, "SMALLVILLE_DATA": str(tmp_path)},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    document = tmp_path / "saves" / "theirs" / "save.json"
    for args in (("--load", "theirs"), ("--scenario", "three")):
        done = _main(tmp_path, document, "run", *args, "--hours", "0.2", "--save", "theirs")
        assert done.returncode == 1, done.stderr
        line = _one_line(done.stderr)
        assert "cannot read: Permission denied" in line and "not a Smallville save" not in line
