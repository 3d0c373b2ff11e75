"""`python -m game`: the same as `python main.py`; `python -m game --help` lists the commands."""

import sys

from game.core.blas import one_blas_thread

one_blas_thread()  # before numpy loads, as main.py does: its BLAS threads would fight the pool

from game.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
