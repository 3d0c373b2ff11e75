"""The HTTP client the openai package is given: answers bounded in size and in time.

A cap on the body (declared, streamed or decompressed), a deadline on reading it, and no
redirects followed; whatever the endpoint sends, no answer outgrows them.
"""

from __future__ import annotations

import importlib
import time
import zlib
from typing import Any

import openai

# The HTTP library the installed openai package is built on (httpx, or httpx2 in newer
# releases): the bounded transport below must speak its types.
http_library = importlib.import_module(
    openai.DefaultHttpxClient.__mro__[1].__module__.split(".")[0]
)


MAX_BODY = 8_000_000  # bytes of one answer


class TooLarge(Exception):
    """The answer is bigger than the cap (declared, streamed or decompressed)."""


class PastDeadline(Exception):
    """The answer was still arriving when the request's deadline passed."""

    def __init__(self, seconds: float = 0.0) -> None:
        super().__init__(f"no answer within {seconds:g} s")
        self.seconds = seconds


class _BoundedStream(http_library.SyncByteStream):
    """The body's bytes, decompressed here under the cap, checked against the deadline."""

    def __init__(self, inner: Any, cap: int, seconds: float, compressed: bool) -> None:
        self.inner, self.cap, self.seconds = inner, cap, seconds
        self.deadline = time.monotonic() + seconds
        self._inflate = zlib.decompressobj(47) if compressed else None  # gzip or zlib header

    def __iter__(self):
        total = 0
        for chunk in self.inner:
            if time.monotonic() > self.deadline:
                raise PastDeadline(self.seconds)
            if self._inflate is not None:
                chunk = self._inflate.decompress(chunk, self.cap - total + 1)
                if self._inflate.unconsumed_tail:
                    raise TooLarge(f"an answer of more than {self.cap} bytes (decompressed)")
            total += len(chunk)
            if total > self.cap:
                raise TooLarge(f"an answer of more than {self.cap} bytes")
            yield chunk

    def close(self) -> None:
        self.inner.close()


class BoundedTransport(http_library.BaseTransport):
    """The HTTP transport with a cap on the answer and a deadline on reading it: the
    request's own read timeout (a streamed answer's whole allowance), else `seconds`.
    The caller's clocks (`Flight`) are tighter; this one holds if they were bypassed."""

    def __init__(self, seconds: float, cap: int) -> None:
        self.inner = http_library.HTTPTransport()
        self.seconds, self.cap = seconds, cap

    def handle_request(self, request: Any) -> Any:
        seconds = _read_timeout(request) or self.seconds
        request.headers["Accept-Encoding"] = "gzip, deflate"  # only what we can bound
        response = self.inner.handle_request(request)
        headers = response.headers
        length = headers.get("content-length", "")
        encoding = headers.get("content-encoding", "").strip().lower()
        problem = ""
        if length and (not length.strip().isdigit() or int(length) > self.cap):
            problem = f"an answer of {length[:20]} bytes (the cap is {self.cap})"
        elif encoding not in ("", "identity", "gzip", "x-gzip", "deflate"):
            problem = f"an answer in an encoding not asked for ({encoding[:20]})"
        if problem:
            response.close()
            raise TooLarge(problem)
        kept = [(k, v) for k, v in headers.multi_items() if k.lower() not in _RECODED]
        compressed = encoding not in ("", "identity")
        stream = _BoundedStream(response.stream, self.cap, seconds, compressed)
        return http_library.Response(
            response.status_code, headers=kept, stream=stream, extensions=response.extensions
        )

    def close(self) -> None:
        self.inner.close()


_RECODED = ("content-encoding", "content-length")


def _read_timeout(request: Any) -> float:
    """The read timeout the request was sent with (0 if none is readable)."""
    timeout = request.extensions.get("timeout") if hasattr(request, "extensions") else None
    value = timeout.get("read") if isinstance(timeout, dict) else None
    return float(value) if isinstance(value, (int, float)) and value > 0 else 0.0


def bounded_client(seconds: float, cap: int) -> Any:
    """The HTTP client the openai package is given: bounded answers, no redirects (the
    openai package's own client follows them: after a 307 another server got every
    prompt, and the audit log named only the first)."""
    timeout = http_library.Timeout(seconds, connect=min(seconds, 10.0))
    return openai.DefaultHttpxClient(
        transport=BoundedTransport(seconds, cap), timeout=timeout, follow_redirects=False
    )
