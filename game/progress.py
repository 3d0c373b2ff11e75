"""The headless run's progress line: redrawn in place, and ended before anything else.

A progress line is drawn with a carriage return and no newline, so whatever is written
next to the same terminal lands on it ("1 steps/ssaved to ..."). `ProgressLine` knows
whether its line is open; `end()` closes it with a newline, and while a run is going on
the notices logged by the brain (a resting endpoint, the offline embedder) go through
it too, each on a line of its own, the progress line drawn again below them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


class ProgressLine:
    """One status line on `stream`, redrawn by `show` and closed by `end`."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._text = ""  # what the open line shows; '' when no line is open

    def show(self, text: str) -> None:
        """Draw the line again; a shorter text blanks what the longer one left."""
        pad = " " * max(0, len(self._text) - len(text))
        self.stream.write(f"\r{text}{pad}")
        self.stream.flush()
        self._text = text

    def end(self) -> None:
        """Close the open line with a newline (nothing if none is open)."""
        if self._text:
            self.stream.write("\n")
            self.stream.flush()
            self._text = ""

    def say(self, line: str) -> None:
        """A line of its own above the progress line, which is drawn again after it."""
        shown = self._text
        self.end()
        self.stream.write(line + "\n")
        if shown:
            self.show(shown)
        else:
            self.stream.flush()

    @contextmanager
    def taking_logs(self, logger: str = "smallville") -> Iterator[ProgressLine]:
        """While inside, records of `logger` (warnings and worse) are said through this
        line instead of landing on it."""
        handler = _Through(self)
        log = logging.getLogger(logger)
        log.addHandler(handler)
        try:
            yield self
        finally:
            log.removeHandler(handler)


class _Through(logging.Handler):
    def __init__(self, line: ProgressLine) -> None:
        super().__init__(logging.WARNING)
        self.line = line

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.line.say(self.format(record))
        except Exception:  # noqa: BLE001 - logging must never break the run
            self.handleError(record)
