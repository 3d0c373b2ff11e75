"""What the commands print, cleaned on its way to the terminal.

Names, memories and answers come from scenario files, maps, saves and models: any of
them may hold ESC sequences, BEL or bidirectional overrides that repaint the terminal
or make a line read differently from what it holds (`town` printed them raw). Rather
than trust every print, every command (game/cli.py `main`) writes through `CleanText`,
which drops them (`game.core.text.clean`) from everything written to stdout and stderr;
newlines and tabs pass, and on stderr so does the carriage return that starts a redrawn
progress line.

A stream the process was started without (`main.py saves >&-`: Python then sets
sys.stdout to None) is not written to as None (an AttributeError traceback): output
meant for a closed stdout raises the OSError a closed file gives (one error line, exit
1), and what was meant for a closed stderr goes nowhere, there being nowhere to say it.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from game.core.text import clean


class CleanText:
    """A text stream that writes `clean(text)` to the stream it wraps; with `redraws`, a
    write may start with a carriage return (game.progress redraws its line so)."""

    def __init__(self, stream: TextIO, redraws: bool = False) -> None:
        self.stream = stream
        self.redraws = redraws

    def write(self, text: str) -> int:
        lead = "\r" if self.redraws and text.startswith("\r") else ""
        self.stream.write(lead + clean(text))
        return len(text)  # what the caller gave: print() and friends expect that

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, encoding, fileno, buffer...
        return getattr(self.stream, name)


class ClosedStream:
    """The stand-in for a standard stream the process has not got: a write is the error
    a closed file descriptor gives, or with `silent` (stderr: nowhere left to say it)
    nothing."""

    def __init__(self, name: str, silent: bool = False) -> None:
        self.name = name
        self.silent = silent

    def write(self, text: str) -> int:
        if self.silent:
            return len(text)
        raise OSError(errno.EBADF, f"nothing was printed: the {self.name} is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


@contextmanager
def clean_terminal() -> Iterator[None]:
    """sys.stdout and sys.stderr cleaned while inside (put back after)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = CleanText(out or ClosedStream("standard output"))  # type: ignore[assignment,arg-type]
    sys.stderr = CleanText(err or ClosedStream("standard error", silent=True), redraws=True)  # type: ignore[assignment,arg-type]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
