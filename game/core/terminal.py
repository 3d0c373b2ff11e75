"""What the commands print, cleaned on its way to the terminal.

Names, memories and answers come from scenario files, maps, saves and models: any of
them may hold ESC sequences, BEL or bidirectional overrides that repaint the terminal
or make a line read differently from what it holds (`town` printed them raw). Rather
than trust every print, the command line writes through `CleanText`, which drops them
(`game.core.text.clean`) from everything written to stdout; newlines and tabs pass.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from game.core.text import clean


class CleanText:
    """A text stream that writes `clean(text)` to the stream it wraps."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(clean(text))
        return len(text)  # what the caller gave: print() and friends expect that

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, encoding, fileno, buffer...
        return getattr(self.stream, name)


@contextmanager
def clean_stdout() -> Iterator[None]:
    """sys.stdout cleaned while inside (put back after, whatever replaced it meanwhile)."""
    before = sys.stdout
    sys.stdout = CleanText(before)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout = before
