"""main.py gives numpy's BLAS one thread before numpy loads (issue 24: a thread per core
fought the 16 cognition threads, and a 7-day soak's seventh day took 11 times its first),
and leaves a count the user set alone. Checked in a fresh process, by asking the BLAS
numpy loaded how many threads it runs."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.core.blas import BLAS_VARIABLES

ROOT = Path(__file__).resolve().parents[1]
# main.py's start (not its main()), then numpy, then the count the loaded BLAS reports.
PROBE = (
    "import runpy; runpy.run_path('main.py', run_name='probe'); import numpy; "
    "from game.core.blas import blas_threads; print(blas_threads())"
)


def threads_after_main(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in BLAS_VARIABLES}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_main_starts_numpy_with_one_blas_thread() -> None:
    assert threads_after_main().split()[0] == "1"


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: one thread either way")
def test_a_count_the_user_set_is_kept() -> None:
    assert threads_after_main(OPENBLAS_NUM_THREADS="2", OMP_NUM_THREADS="2").split()[0] == "2"
