"""Smallville: `python main.py` opens the game; `python main.py --help` lists the rest."""

import sys

from game.cli import main

if __name__ == "__main__":
    sys.exit(main())
