"""Smallville: `python main.py` opens the game; `python main.py --help` lists the rest."""

import sys

from game.core.blas import one_blas_thread

one_blas_thread()  # before numpy loads: its BLAS threads would fight the cognition pool

from game.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())  # through the cleaned terminal (game/cli.py): no raw escapes
