"""`python -m game` (game/__main__.py) runs the commands as `python main.py` does: it was
"No module named game.__main__"."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def game(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_python_m_game_runs_a_command(tmp_path):
    done = game("town", "--scenario", "three", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    names = [r["name"] for r in json.loads(done.stdout)["residents"]]
    assert sorted(names) == ["Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"]


def test_python_m_game_says_errors_in_one_line(tmp_path):
    done = game("interview", "--load", "nosuch", "--agent", "all", "hi", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("error:") and "Traceback" not in done.stderr
