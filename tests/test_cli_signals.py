"""SIGTERM and Ctrl-C stop a command through real processes: one line saying what was kept,
exit 143 (SIGTERM) or 130 (SIGINT), no traceback, and never a half save."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")


def _default_sigint() -> None:
    """A child started in the background inherits an ignored SIGINT (a shell's `&`, some
    test runners); Python then installs no Ctrl-C handler, so put the default back."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


def started(data: Path, *args: str) -> subprocess.Popen:
    """main.py ARGS, once its run is under way (its first progress line is on stderr)."""
    env = {**os.environ, "SMALLVILLE_DATA": str(data)}
    proc = subprocess.Popen(
        [sys.executable, "main.py", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )
    first = b""
    deadline = time.monotonic() + 120
    while b"steps/s" not in first and time.monotonic() < deadline:
        chunk = os.read(proc.stderr.fileno(), 4096)  # the progress line, redrawn each second
        if not chunk:
            break
        first += chunk
    assert b"steps/s" in first, first
    return proc


def stopped(proc: subprocess.Popen, signum: int) -> tuple[int, str]:
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err


def test_sigterm_stops_run_with_one_line_and_saves_nothing(tmp_path):
    proc = started(tmp_path, "run", "--scenario", "three", "--hours", "2000", "--save", "st")
    code, err = stopped(proc, signal.SIGTERM)
    assert code == 143, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("stopped by SIGTERM; 'st' was not saved (stopped at 2023-"), err
    assert not (tmp_path / "saves" / "st" / "save.json").exists()


def test_sigterm_leaves_the_save_before_whole(tmp_path):
    made = subprocess.run(
        [sys.executable, "main.py", "run", "--scenario", "three", "--hours", "1", "--save", "s"],
        cwd=ROOT,
        env={**os.environ, "SMALLVILLE_DATA": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    before = (tmp_path / "saves" / "s" / "save.json").read_bytes()
    proc = started(tmp_path, "run", "--load", "s", "--hours", "2000", "--save", "s")
    code, err = stopped(proc, signal.SIGTERM)
    assert code == 143 and "'s' was not saved" in err and "Traceback" not in err, err
    assert (tmp_path / "saves" / "s" / "save.json").read_bytes() == before


def test_ctrl_c_says_the_same(tmp_path):
    proc = started(tmp_path, "run", "--scenario", "three", "--hours", "2000", "--save", "st")
    code, err = stopped(proc, signal.SIGINT)
    assert code == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("stopped; 'st' was not saved"), err
