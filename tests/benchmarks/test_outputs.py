"""benchmarks/outputs.py: a benchmark's --rows and --report are written like every file
of the game (whole or not at all), and one that could never be written stops the
benchmark at once, in one line, before its hours of running."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from disks import full_disk_fixture  # noqa: E402, F401

from benchmarks.outputs import written  # noqa: E402


@pytest.mark.parametrize(
    ("script", "flag"), [("believability.py", "--report"), ("conversation.py", "--rows")]
)
def test_a_file_that_could_never_be_written_stops_the_benchmark_first(tmp_path, script, flag):
    """A real process: --report into a missing folder was found after the whole study."""
    target = tmp_path / "missing" / "out.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), flag, str(target)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: cannot write {target}: the folder {target.parent} does not exist"
    ]
    assert not target.parent.exists()


def test_a_full_disk_keeps_the_old_rows_whole(full_disk):
    old = full_disk.folder / "rows.jsonl"
    old.write_text('{"old": 1}\n')
    full_disk.fill()
    with pytest.raises(SystemExit) as stop:
        written(str(old), '{"new": 1}\n' * 50_000)
    assert stop.value.code == 1
    assert old.read_text() == '{"old": 1}\n'
    assert [p.name for p in full_disk.folder.iterdir() if p.name.endswith(".tmp")] == []
