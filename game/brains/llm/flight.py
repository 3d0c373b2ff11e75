"""How long one request may take (`Pace`), and one request on the wire (`Flight`).

A request has two clocks: a deadline to its first token (the server reading the prompt),
then a budget for the rest from the endpoint's measured tokens per second and the
question's `max_tokens`. A flight past either, or cancelled, is hung up: its socket is
shut, so the server stops writing an answer nobody reads. Kept apart from the transport
so doctor and the settled settings can speak of a pace without an HTTP client.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

from game.brains.llm.model import Cancelled

# The answer budget: `BUDGET_MARGIN` times the time `max_tokens` take at the measured
# speed, and never less than `BUDGET_FLOOR`. The margin lets a shared CPU run at half the
# speed doctor measured before an answer is given up; the floor covers the server's own
# pauses. With no measure, `ASSUMED_SPEED` stands in: slower than the slowest CPU model
# measured here (Gemma 3 270M, 2.4 tokens a second), so no real answer is cut short.
BUDGET_MARGIN = 2.0
BUDGET_FLOOR = 10.0  # seconds
ASSUMED_SPEED = 2.0  # tokens a second


@dataclass(frozen=True)
class Pace:
    """How long one request may take, in two clocks.

    `first_token` runs from sending to the first token of a streamed answer (the server
    queueing and reading the prompt), or to the whole answer of a server that does not
    stream. Then the answer has `budget(max_tokens)` seconds to finish."""

    first_token: float = 60.0  # seconds
    tokens_per_second: float = 0.0  # measured by doctor; 0 = unknown (ASSUMED_SPEED)
    margin: float = BUDGET_MARGIN
    floor: float = BUDGET_FLOOR

    @property
    def speed(self) -> float:
        return self.tokens_per_second if self.tokens_per_second > 0 else ASSUMED_SPEED

    def budget(self, max_tokens: int) -> float:
        """Seconds from the first token to the last, for an answer of up to max_tokens."""
        return max(self.floor, self.margin * max(1, max_tokens) / self.speed)


class Flight:
    """One request on the wire, shared by the thread that reads its answer and the thread
    that watches its clocks.

    The deadline is the first-token one until a token arrives, then the answer's budget
    from that moment (a `whole` request, an embedding, has only the first). `hang_up`
    shuts the connection's socket, which wakes a read blocked on it, so the server's
    next write fails and it stops generating; the reading thread then closes the
    response itself."""

    def __init__(self, pace: Pace, max_tokens: int, whole: bool = False) -> None:
        self.pace, self.max_tokens = pace, max_tokens
        self.began = time.monotonic()
        self.budget = 0.0 if whole else pace.budget(max_tokens)
        self._first: float | None = None
        self._response: Any = None
        self._lock = threading.Lock()
        self.gone = False  # hung up: the reading thread stops at its next chunk

    def longest(self) -> float:
        """Seconds the request may last at most."""
        return self.pace.first_token + self.budget

    def deadline(self) -> float:
        first = self._first
        if first is None:
            return self.began + self.pace.first_token
        return first + self.budget

    def token(self) -> float:
        """A token arrived; the first one starts the budget. Seconds since sending."""
        now = time.monotonic()
        if self._first is None:
            self._first = now
        return now - self.began

    def first_token_seconds(self) -> float:
        return 0.0 if self._first is None else self._first - self.began

    def seconds(self) -> float:
        return time.monotonic() - self.began

    def lateness(self) -> str:
        """Why the request is over time, for the audit log and the retry line."""
        if self._first is None:
            return f"no answer within {self.pace.first_token:g} s (no first token yet)"
        return (
            f"the answer ran past its budget of {self.budget:.3g} s after its first token "
            f"({self.max_tokens} tokens at {self.pace.speed:g} tokens/s, "
            f"x{self.pace.margin:g}, at least {self.pace.floor:g} s)"
        )

    def attach(self, response: Any) -> None:
        """The response whose connection `hang_up` closes; one already hung up is
        closed at once."""
        with self._lock:
            self._response = response
            gone = self.gone
        if gone:
            _shut(response)
            raise Cancelled("the request was given up before its answer began")

    def detach(self) -> None:
        """The answer is read (or given up) and its connection may go back to the pool."""
        with self._lock:
            self._response = None

    def hang_up(self) -> None:
        with self._lock:  # held while shutting, so a detached connection is never shut
            self.gone = True
            if self._response is not None:
                _shut(self._response)


def _shut(response: Any) -> None:
    """Shut the response's socket for reading and writing (a blocked read returns, and
    the server sees the connection close); without a socket, close the response."""
    stream = response.extensions.get("network_stream") if response is not None else None
    sock = stream.get_extra_info("socket") if stream is not None else None
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        return
    with contextlib.suppress(Exception):
        response.close()
