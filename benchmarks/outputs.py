"""The files a benchmark is asked to write (--rows, --report), written as the game writes
every file (game/core/files.py): a temp file beside the target, then a rename, so a full
disk or a kill leaves the old file whole rather than a 0-byte or half one; a link, a
folder or a device at the name is refused. A file that cannot be written is one line on
stderr and exit 1, checked before the run as well as after it, so hours of benchmark are
not spent towards a file that could never be written."""

from __future__ import annotations

import sys

from game.core.errors import FileProblem
from game.core.files import check_writable, write_atomic


def writable(path: str | None) -> None:
    """Exit 1 now, with one line, if `path` could never be written (missing or read-only
    folder, a link or a folder at the name); a full disk shows only when written."""
    if path:
        _or_exit(lambda: check_writable(path))


def written(path: str, text: str) -> None:
    """`text` as the whole of `path`, or one line and exit 1 (the old file stays)."""
    _or_exit(lambda: write_atomic(path, text))


def _or_exit(act) -> None:
    try:
        act()
    except FileProblem as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
