"""The innermost LanguageModel: one HTTP request through the `openai` package.

It sends exactly what the request says (the output mode and parameter quirks are chosen
by the ladder above it) and turns every HTTP error into one of our typed failures. It
never retries (`max_retries=0`): retries belong to the Retrying wrapper, where they are
counted and Retry-After is honoured.

Answers are streamed (`stream=True`), because on a CPU a long answer takes minutes and
only a stream tells a slow answer from a dead one. A request has two clocks (`Pace`): a
deadline to its first token (the server reading the prompt), then a budget for the rest
from the endpoint's measured tokens per second and the question's `max_tokens`. A request
past either, or cancelled, is ended by closing its stream, so the server stops writing
it instead of finishing an answer nobody reads. llama-cpp-python's server (0.3.36) asks
after every streamed chunk whether the client is still there and stops if not; a request
it answers whole runs to its end, and the re-ask then queues behind it.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import re
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from email.utils import parsedate_to_datetime
from enum import Enum
from typing import Any

import openai

from game.brains.audit import public_url, redact, url_secrets
from game.brains.llm.endpoint import checked_url, key_problem
from game.brains.llm.jsontext import Invalid, bounded_json, schema_hint, schema_words
from game.brains.llm.model import (
    BadReply,
    Cancelled,
    ChatReply,
    ChatRequest,
    EmbedReply,
    EmbedRequest,
    EndpointDown,
    FormatRefused,
    ModelError,
    NoEmbeddings,
    ParamRefused,
    Quirk,
    Refused,
    Transient,
)
from game.core.config import OutputMode
from game.core.errors import SmallvilleError
from game.core.text import clean, single_line

# The HTTP library the installed openai package is built on (httpx, or httpx2 in newer
# releases): the bounded transport below must speak its types.
_http = importlib.import_module(openai.DefaultHttpxClient.__mro__[1].__module__.split(".")[0])

DEFAULT_URL = "https://api.openai.com/v1"
MAX_WAIT = 60.0  # seconds: the longest Retry-After we honour
# Words in a 400/422 answer that say the endpoint disliked our response_format.
FORMAT_NAMES = ("response_format", "json_schema", "json_object")
FORMAT_WORDS = (*FORMAT_NAMES, "schema", "format", "grammar")
# What an endpoint without /v1/embeddings answers there.
NO_EMBEDDINGS = (400, 404, 405, 422, 501)
MAX_BODY = 8_000_000  # bytes of one answer
MAX_DIM = 16_384  # numbers in one embedding (the largest hosted models use 3,072)
MAX_TOKENS = 10_000_000  # a usage count above this is not believed
POLL = 0.1  # seconds between looks at the clocks and at cancellation while a request is out

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


class Streaming(Enum):
    """How answers are asked for; an endpoint that refuses a step gets the next one."""

    WITH_USAGE = "stream, usage in the last chunk"  # stream_options.include_usage
    PLAIN = "stream"  # tokens counted from the chunks
    OFF = "whole answers"  # one JSON body (the first-token deadline covers all of it)


class OpenAIChat:
    """Chat completions and embeddings from any OpenAI-compatible endpoint.

    Bounded on every side: a chat answer streams under its `Pace` (a server dripping one
    byte a second does not stretch it), an embedding answer must come whole within
    `timeout`, the body is capped at `max_bytes` (declared or streamed, compressed or
    not), and `close()` cancels every request in flight at once, closing their
    connections. The answer is read as bytes and validated here, field by field: whatever
    an endpoint sends, a caller gets a checked reply or a typed ModelError."""

    def __init__(
        self,
        base_url: str = "",
        api_key: Callable[[], str] = lambda: "",
        timeout: float = 60.0,
        key_env: str = "OPENAI_API_KEY",
        max_bytes: int = MAX_BODY,
        tokens_per_second: float = 0.0,
        key_source: Callable[[], str] | None = None,
    ) -> None:
        """`key_source` says where the key was read (`LLMSettings.key_source`), for the
        line that names a malformed key; by default the variable `key_env`."""
        self.endpoint = checked_url(base_url) or DEFAULT_URL
        self.timeout = timeout
        self.pace = Pace(timeout, tokens_per_second)
        self.streaming = Streaming.WITH_USAGE
        self._key, self._key_env = api_key, key_env
        self._key_source = key_source or (lambda: f"${key_env}")
        self._secrets = url_secrets(base_url)
        self._closed = threading.Event()
        self._flights: set[Flight] = set()
        self._flights_lock = threading.Lock()
        self._http = bounded_client(timeout, max_bytes)
        try:
            self._client = openai.OpenAI(
                api_key=lambda: api_key() or "no-key",  # read at each request, never kept
                base_url=base_url or None,
                timeout=timeout,
                max_retries=0,
                http_client=self._http,
            )
        except (_http.InvalidURL, ValueError) as exc:  # what url_problem did not foresee
            self._http.close()
            raise SmallvilleError(
                f"the base URL {single_line(public_url(base_url), 120)!r} is malformed: "
                f"{single_line(str(exc), 200)}"
            ) from None

    def chat(self, request: ChatRequest) -> ChatReply:
        return self.stream(request).reply

    def stream(self, request: ChatRequest) -> Streamed:
        """The reply with its timing (doctor reads the first and last token's times). An
        endpoint that refuses streaming (a 400 or 422 naming it) steps this transport down
        to the next way of asking, for this request and every later one."""
        while True:
            style = self.streaming
            try:
                return self._streamed(request, style)
            except Refused as exc:
                if style is Streaming.OFF or not _names_stream(str(exc)):
                    raise
                self._step_down(style)

    def _step_down(self, refused: Streaming) -> None:
        order = list(Streaming)
        with self._flights_lock:
            if self.streaming is refused:
                self.streaming = order[order.index(refused) + 1]

    def _streamed(self, request: ChatRequest, style: Streaming) -> Streamed:
        flight = Flight(self.pace, request.max_tokens)
        streamed = self._call(lambda: self._read(request, style, flight), request.model, flight)
        text = self._say(streamed.reply.text, one_line=False)
        return replace(streamed, reply=replace(streamed.reply, text=text))

    def _read(self, request: ChatRequest, style: Streaming, flight: Flight) -> Streamed:
        """Runs on the request's own thread: sends, then reads the answer chunk by chunk,
        telling `flight` of the response (so the caller's thread can close it) and of the
        first token (which starts the answer's budget)."""
        kwargs = chat_arguments(request)
        if style is not Streaming.OFF:
            kwargs["stream"] = True
        if style is Streaming.WITH_USAGE:
            kwargs["stream_options"] = {"include_usage": True}
        create = self._client.chat.completions.with_streaming_response.create
        with create(**kwargs, timeout=self._wire_timeout(flight)) as response:
            http = response.http_response
            flight.attach(http)
            try:
                kind = http.headers.get("content-type", "").lower()
                if "text/event-stream" not in kind:  # a server that answers whole
                    doc = load_document(response.read())
                    seconds = flight.seconds()
                    return Streamed(chat_reply(doc, request, seconds), 0.0, seconds)
                return read_events(response.iter_lines(), request, flight)
            finally:
                flight.detach()  # read, or given up: never shut once back in the pool

    def _wire_timeout(self, flight: Flight) -> Any:
        """The HTTP library's own timeouts: reads may wait as long as the whole request
        may last (the caller's clocks are the real deadline), connecting 10 s at most."""
        whole = flight.longest()
        return _http.Timeout(whole, connect=min(self.timeout, 10.0))

    def embed(self, request: EmbedRequest) -> EmbedReply:
        """Vectors, whole within `timeout` (an embedding is one forward pass: no stream)."""
        began = time.perf_counter()
        flight = Flight(replace(self.pace, floor=0.0, margin=0.0), 0, whole=True)

        def ask() -> bytes:
            create = self._client.embeddings.with_streaming_response.create
            arguments = {"model": request.model, "input": list(request.texts)}
            with create(**arguments, encoding_format="float") as response:
                flight.attach(response.http_response)
                try:
                    return response.read()
                finally:
                    flight.detach()

        raw = self._call(ask, request.model, flight, embeddings=True)
        return embed_reply(load_document(raw), request, time.perf_counter() - began)

    def close(self) -> None:
        """Cancel whatever is in flight (its callers get Cancelled at once, its streams
        are closed, so the server stops writing) and refuse whatever comes next: the run
        or the window is ending."""
        self._closed.set()
        with self._flights_lock:
            flights = list(self._flights)
        for flight in flights:
            flight.hang_up()
        with contextlib.suppress(Exception):  # a pool closing under a live request
            self._http.close()

    # -- the clocks, and cancellation ----------------------------------------------------------
    def _within_deadline(self, call: Callable[[], Any], flight: Flight) -> Any:
        """`call` on its own thread while this one watches the flight's clocks; past
        them, or when the transport closes, the flight's connection is closed."""
        if self._closed.is_set():
            raise Cancelled("the run is over: no more requests")
        box: list[tuple[bool, Any]] = []
        done = threading.Event()

        def work() -> None:
            try:
                box.append((True, call()))
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
                box.append((False, exc))
            finally:
                done.set()

        with self._flights_lock:
            self._flights.add(flight)
        try:
            threading.Thread(target=work, name="model-request", daemon=True).start()
            while not done.wait(min(POLL, max(0.0, flight.deadline() - time.monotonic()))):
                if self._closed.is_set():
                    flight.hang_up()
                    raise Cancelled("the run is over: the request was cancelled")
                if time.monotonic() >= flight.deadline():
                    late = flight.lateness()
                    flight.hang_up()
                    raise Transient(late)
        finally:
            with self._flights_lock:
                self._flights.discard(flight)
        ok, value = box[0]
        if ok:
            return value
        raise value

    # -- errors into types -----------------------------------------------------------------
    def _call(
        self,
        call: Callable[[], Any],
        model: str,
        flight: Flight | None = None,
        embeddings: bool = False,
    ) -> Any:
        flight = flight or Flight(self.pace, 0, whole=True)
        self._check_key()
        try:
            return self._within_deadline(call, flight)
        except ModelError:
            raise
        except openai.APITimeoutError:
            raise Transient(flight.lateness()) from None
        except openai.APIConnectionError as exc:
            raise self._connection_error(exc) from None
        except openai.RateLimitError as exc:
            if "insufficient_quota" in str(exc):
                raise EndpointDown("the account has no quota left (429)") from None
            raise Transient("rate limited (429)", retry_after(exc)) from None
        except openai.APIStatusError as exc:
            raise self._status_error(exc, model, embeddings) from None
        except Exception as exc:  # noqa: BLE001 - whatever an answer does, it is a bad reply
            if self._closed.is_set():  # the connection pool closed under the request
                raise Cancelled("the run is over: the request was cancelled") from None
            raise self._unreadable(exc) from None

    def _check_key(self) -> None:
        """A key no HTTP header can carry is named as the problem before anything is
        sent (the HTTP library would fail on it as an unreachable endpoint or an
        unreadable answer). It is read here, at each request, as the openai client will."""
        problem = key_problem(self._key())
        if problem:
            raise EndpointDown(
                f"the API key from {single_line(self._key_source(), 200)} {problem}: it was "
                "not sent; set the key again without it"
            )

    def _connection_error(self, exc: Exception) -> ModelError:
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, (TooLarge, PastDeadline)):
            return self._unreadable(cause)
        if self._closed.is_set():
            return Cancelled("the run is over: the request was cancelled")
        if _hung_up(exc):
            return Transient("the endpoint hung up without answering")
        return EndpointDown(
            self._say(f"cannot reach the model endpoint at {public_url(self.endpoint)} ({exc})")
        )

    def _unreadable(self, exc: BaseException) -> ModelError:
        if isinstance(exc, PastDeadline):
            return Transient(f"no answer within {exc.seconds:g} s")
        if isinstance(exc, TooLarge):
            return BadReply(self._say(str(exc)))
        return BadReply(f"an unreadable answer ({type(exc).__name__})")

    def _status_error(self, exc: openai.APIStatusError, model: str, embeddings: bool) -> ModelError:
        """What an HTTP error status means for us. The body's message is kept in every
        failure (the audit log shows it)."""
        status, message = exc.status_code, self._say(_message(exc))
        if 300 <= status < 400:
            return EndpointDown(self._say(self._redirected(exc)))
        if status in (401, 403):
            refused = f"the endpoint refused the API key ({status})"
            return EndpointDown(f"{refused}; set ${self._key_env}")
        if embeddings and (status in NO_EMBEDDINGS or _names_embeddings(status, message)):
            return NoEmbeddings(f"the endpoint has no /v1/embeddings ({status}: {message})")
        quirk = quirk_for(message) if status in (400, 422) and not embeddings else None
        if quirk is not None:
            return ParamRefused(quirk, f"{status}: {message}")
        if not embeddings and _names_format(status, message):
            return FormatRefused(f"{status}: {message}")
        if status == 404:
            return EndpointDown(
                f"the endpoint answered 404 for model {single_line(model, 80)!r}: check the "
                "model name and the base URL (it usually ends in /v1)"
            )
        if status >= 500:
            return Transient(f"server error ({status}): {message}", retry_after(exc))
        return _rejection(status, message)

    def _redirected(self, exc: openai.APIStatusError) -> str:
        """Redirects are never followed (a prompt holds residents' memories, and goes
        only where the base URL says): the line names where the endpoint pointed."""
        try:
            target = str(exc.response.headers.get("location") or "")
        except Exception:  # noqa: BLE001 - a header can be anything
            target = ""
        where = repr(single_line(public_url(target), 200)) if target else "nowhere it named"
        return (
            f"the endpoint at {public_url(self.endpoint)} redirects ({exc.status_code}) to "
            f"{where}; redirects are not followed: if you trust that address, make it the "
            "base URL"
        )

    def _say(self, text: str, one_line: bool = True) -> str:
        """Endpoint text made safe to keep or show: secrets out, controls out."""
        text = redact(text, [self._key(), *self._secrets])
        return single_line(text) if one_line else clean(text)


# -- the body, bounded -----------------------------------------------------------------------
class TooLarge(Exception):
    """The answer is bigger than the cap (declared, streamed or decompressed)."""


class PastDeadline(Exception):
    """The answer was still arriving when the request's deadline passed."""

    def __init__(self, seconds: float = 0.0) -> None:
        super().__init__(f"no answer within {seconds:g} s")
        self.seconds = seconds


class _BoundedStream(_http.SyncByteStream):
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


class BoundedTransport(_http.BaseTransport):
    """The HTTP transport with a cap on the answer and a deadline on reading it: the
    request's own read timeout (a streamed answer's whole allowance), else `seconds`.
    The caller's clocks (`Flight`) are tighter; this one holds if they were bypassed."""

    def __init__(self, seconds: float, cap: int) -> None:
        self.inner = _http.HTTPTransport()
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
        return _http.Response(
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


# -- one request in flight: its clocks, its connection ------------------------------------------
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


@dataclass(frozen=True)
class Streamed:
    """A reply and when its tokens came: what doctor times serving by."""

    reply: ChatReply
    first_token: float  # seconds from sending to the first token (0: it came whole)
    last_token: float  # seconds from sending to the last token, or to the whole answer

    @property
    def streamed(self) -> bool:
        return self.first_token > 0

    def seconds_per_token(self) -> float:
        """The whole request's time over the tokens it wrote: what a caller waits per token."""
        return self.last_token / max(1, self.reply.completion_tokens)

    def tokens_per_second(self) -> float:
        """The generation speed: tokens after the first over the time they took (prompt
        reading excluded); for an answer that came whole, tokens over the whole time."""
        tokens = self.reply.completion_tokens
        span = self.last_token - self.first_token
        if self.streamed and tokens > 1 and span > 0:
            return (tokens - 1) / span
        return tokens / self.last_token if self.last_token > 0 else 0.0


def read_events(lines: Iterator[str], request: ChatRequest, flight: Flight) -> Streamed:
    """A streamed answer from its server-sent events, each chunk checked as a whole
    answer is: text deltas joined, the finish reason and usage kept. Stops at [DONE], at
    the end of the stream, or when the flight is hung up."""
    parts: list[str] = []
    finish, usage, chunks, last = "", {}, 0, 0.0
    for line in lines:
        if flight.gone:
            raise Cancelled("the request was given up while its answer was arriving")
        if not line.startswith("data:"):
            continue  # a comment, an event name or a keep-alive
        data = line[5:].strip()
        if data == "[DONE]":
            break
        delta, ended, counts = _chunk(data)
        usage = counts or usage
        finish = ended or finish
        if delta:
            parts.append(delta)
            chunks += 1
            last = flight.token()
    if not chunks and not finish:
        raise BadReply("the stream ended before any answer")
    choice = {"message": {"content": "".join(parts)}, "finish_reason": finish}
    doc = {"choices": [choice], "usage": usage}
    seconds = flight.seconds()
    reply = chat_reply(doc, request, seconds, seen=chunks)
    return Streamed(reply, flight.first_token_seconds(), last or seconds)


def _chunk(data: str) -> tuple[str, str, dict[str, Any]]:
    """(text, finish reason, usage) of one chunk; BadReply for one that breaks the protocol."""
    try:
        chunk = bounded_json(data, "a chunk of the answer")
    except Invalid as exc:
        raise BadReply(str(exc)) from None
    if not isinstance(chunk, dict):
        raise BadReply(f"a chunk of the answer is a JSON {type(chunk).__name__}, not an object")
    if chunk.get("error"):  # llama.cpp's server reports a failure mid-stream this way
        error = chunk["error"]
        message = error.get("message") if isinstance(error, dict) else error
        raise Transient(f"the endpoint failed mid-answer: {single_line(str(message), 300)}")
    usage = chunk.get("usage") if isinstance(chunk.get("usage"), dict) else {}
    choices = chunk.get("choices", [])
    if not isinstance(choices, list):
        raise BadReply("a chunk of the answer has no list of choices")
    if not choices:
        return "", "", usage
    choice = choices[0]
    delta = choice.get("delta", {}) if isinstance(choice, dict) else None
    if not isinstance(delta, dict):
        raise BadReply("a chunk of the answer has no delta")
    text = delta.get("content")
    if text is not None and not isinstance(text, str):
        raise BadReply(f"a chunk's content is {type(text).__name__}, not text")
    finish = choice.get("finish_reason")
    return text or "", single_line(str(finish or ""), 40), usage


_STREAM_WORDS = re.compile(r"\bstream(_options)?\b", re.IGNORECASE)


def _names_stream(message: str) -> bool:
    """A rejection naming `stream` or `stream_options`: a server that does not stream,
    or does not take the usage option."""
    return _STREAM_WORDS.search(message) is not None


def bounded_client(seconds: float, cap: int) -> Any:
    """The HTTP client the openai package is given: bounded answers, no redirects (the
    openai package's own client follows them: after a 307 another server got every
    prompt, and the audit log named only the first)."""
    timeout = _http.Timeout(seconds, connect=min(seconds, 10.0))
    return openai.DefaultHttpxClient(
        transport=BoundedTransport(seconds, cap), timeout=timeout, follow_redirects=False
    )


def _rejection(status: int, message: str) -> Refused:
    """A 4xx: a parameter this model refuses, or the request itself."""
    quirk = quirk_for(message) if status in (400, 422) else None
    if quirk is not None:
        return ParamRefused(quirk, f"{status}: {message}")
    return Refused(f"the endpoint rejected the request ({status}): {message}")


def _names_format(status: int, message: str) -> bool:
    """A refusal of our response_format: any error naming it outright, or a 400, 422 or
    500 naming a schema or a format. llama.cpp's server answers json_schema with a 500
    whose body says "Input should be 'text' or 'json_object'" at response_format.type:
    that is a rung to step down, not an endpoint to rest."""
    low = message.lower()
    if any(word in low for word in FORMAT_NAMES):
        return True
    return status in (400, 422, 500) and any(word in low for word in FORMAT_WORDS)


def _names_embeddings(status: int, message: str) -> bool:
    """A chat-only server's answer at /v1/embeddings: llama.cpp's says the model "must be
    created with embedding=True" (a 500). Retrying cannot mend that."""
    low = message.lower()
    return status >= 500 and "embedding" in low and ("must" in low or "not" in low)


def quirk_for(message: str) -> Quirk | None:
    low = message.lower()
    if "max_tokens" in low and "max_completion_tokens" in low:
        return Quirk.MAX_COMPLETION_TOKENS
    if "temperature" in low and ("unsupported" in low or "not support" in low):
        return Quirk.NO_TEMPERATURE
    refusal = ("unsupported", "not support", "unrecognized", "extra", "not permitted")
    if "seed" in low and any(word in low for word in refusal):
        return Quirk.NO_SEED
    if "schema" in low and any(k.lower() in low for k in LIMIT_KEYWORDS):
        return Quirk.PLAIN_SCHEMA  # OpenAI's strict mode refuses some limits (minLength)
    return None


# The limits a schema carries for grammar-bound servers, dropped for a strict mode that
# refuses them (the same limits are checked in `parse` anyway).
LIMIT_KEYWORDS = ("minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum", "pattern")


def plain_schema(schema: Any) -> Any:
    """The schema without its limit keywords."""
    if isinstance(schema, dict):
        return {k: plain_schema(v) for k, v in schema.items() if k not in LIMIT_KEYWORDS}
    if isinstance(schema, list):
        return [plain_schema(v) for v in schema]
    return schema


# Integer ranges up to this wide become enums for a grammar: llama.cpp's schema-to-grammar
# ignores minimum and maximum, but an enum it enforces.
GRAMMAR_ENUM_SPAN = 200


def grammar_schema(schema: Any) -> Any:
    """The schema as a grammar-building server enforces it: bounded integers as enums."""
    if isinstance(schema, list):
        return [grammar_schema(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: grammar_schema(v) for k, v in schema.items()}
    low, high = out.get("minimum"), out.get("maximum")
    bounded = isinstance(low, int) and isinstance(high, int) and "enum" not in out
    if out.get("type") == "integer" and bounded and 0 <= high - low <= GRAMMAR_ENUM_SPAN:
        out["enum"] = list(range(low, high + 1))
    return out


# -- the request on the wire ----------------------------------------------------------------
def chat_arguments(request: ChatRequest) -> dict[str, Any]:
    """The keyword arguments of `chat.completions.create` for this request."""
    messages = request.wire_messages()
    kwargs: dict[str, Any] = {"model": request.model}
    if request.mode is OutputMode.JSON_SCHEMA:
        body = {k: v for k, v in request.schema.items() if k != "title"}
        if Quirk.PLAIN_SCHEMA in request.quirks:
            body = plain_schema(body)
        kwargs["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": request.title, "schema": body, "strict": True},
        }
    elif request.mode is OutputMode.JSON_OBJECT:  # the server enforces it: show a shape
        messages = with_example(messages, request.schema)
        schema = grammar_schema(dict(request.schema))
        kwargs["response_format"] = {"type": "json_object", "schema": schema}
    elif request.schema:  # text: the schema in the prompt (a probe without one asks plainly)
        messages = with_schema(messages, request.schema)
    if Quirk.NO_TEMPERATURE not in request.quirks:
        kwargs["temperature"] = request.temperature
    if request.seed is not None and Quirk.NO_SEED not in request.quirks:
        kwargs["seed"] = request.seed
    long_name = Quirk.MAX_COMPLETION_TOKENS in request.quirks
    kwargs["max_completion_tokens" if long_name else "max_tokens"] = request.max_tokens
    kwargs["messages"] = messages
    return kwargs


def with_schema(messages: list[dict[str, str]], schema: Any) -> list[dict[str, str]]:
    """For endpoints that cannot enforce a schema: state it in the prompt."""
    last = messages[-1]
    note = "\nReply with only a JSON object that follows this JSON schema: "
    note += schema_hint(dict(schema))
    return [*messages[:-1], {**last, "content": last["content"] + note}]


def with_example(messages: list[dict[str, str]], schema: Any) -> list[dict[str, str]]:
    """For json_object endpoints (the schema rides in response_format): the fields named
    in words, never the raw schema a tiny model would echo back, nor an example of the
    shape with placeholder values it would copy."""
    last = messages[-1]
    note = f"\nReply with only {schema_words(dict(schema))}."
    return [*messages[:-1], {**last, "content": last["content"] + note}]


def load_document(raw: bytes) -> dict[str, Any]:
    """The answer's JSON object, parsed with limits on size and depth."""
    try:
        doc = bounded_json(raw.decode("utf-8"), "the answer")
    except UnicodeDecodeError:
        raise BadReply("the answer is not UTF-8 text") from None
    except Invalid as exc:
        raise BadReply(str(exc)) from None
    if not isinstance(doc, dict):
        raise BadReply(f"the answer is a JSON {type(doc).__name__}, not an object")
    return doc


def chat_reply(
    doc: dict[str, Any], request: ChatRequest, seconds: float, seen: int = 0
) -> ChatReply:
    """A checked ChatReply from a chat completion's JSON; BadReply names what is wrong.
    `seen`: the chunks a stream brought, one token each on llama.cpp, vLLM and Ollama,
    for a completion count when the usage is missing."""
    choices = doc.get("choices")
    if not isinstance(choices, list) or not choices:
        raise BadReply("the answer has no choices")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        raise BadReply("the answer's choice has no message")
    text = message.get("content")
    if not isinstance(text, str):
        raise BadReply(f"the answer's content is {type(text).__name__}, not text")
    finish = choice.get("finish_reason")
    usage = doc.get("usage") if isinstance(doc.get("usage"), dict) else {}
    prompt = token_count(usage.get("prompt_tokens"))
    completion = token_count(usage.get("completion_tokens"))
    if prompt is None:
        prompt = sum(estimate_tokens(m.content) for m in request.messages)
    if completion is None:
        completion = seen or estimate_tokens(text)
    return ChatReply(text, prompt, completion, seconds, single_line(str(finish or ""), 40))


def embed_reply(doc: dict[str, Any], request: EmbedRequest, seconds: float) -> EmbedReply:
    """One finite vector per text, all of one length (at most MAX_DIM), in input order."""
    rows = doc.get("data")
    n = len(request.texts)
    if not isinstance(rows, list) or len(rows) != n:
        got = len(rows) if isinstance(rows, list) else 0
        raise BadReply(f"{got} embeddings came back for {n} texts")
    vectors: list[tuple[float, ...] | None] = [None] * n
    for order, row in enumerate(rows):
        index = row.get("index", order) if isinstance(row, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n:
            raise BadReply("an embedding row has no valid index")
        vectors[index] = checked_vector(row.get("embedding"))
    if any(v is None for v in vectors) or len({len(v) for v in vectors if v}) != 1:
        raise BadReply("the embeddings do not cover every text at one dimension")
    usage = doc.get("usage") if isinstance(doc.get("usage"), dict) else {}
    tokens = token_count(usage.get("prompt_tokens"))
    if tokens is None:
        tokens = sum(map(estimate_tokens, request.texts))
    return EmbedReply(tuple(v for v in vectors if v is not None), tokens, seconds)


def checked_vector(raw: Any) -> tuple[float, ...]:
    """One embedding as numbers: finite, 1 to MAX_DIM of them (a per-token answer is
    NoEmbeddings, anything else wrong BadReply). The recording's vectors pass it too."""
    if _per_token(raw):
        raise NoEmbeddings(
            f"the endpoint's /v1/embeddings answered one vector per token ({len(raw)} of "
            "them), not one per text: it serves a chat model, not an embedding model"
        )
    if not isinstance(raw, list) or not 0 < len(raw) <= MAX_DIM:
        size = len(raw) if isinstance(raw, list) else type(raw).__name__
        raise BadReply(f"an embedding of size {size} (1 to {MAX_DIM} numbers expected)")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in raw):
        raise BadReply("an embedding holds something other than numbers")
    vector = tuple(float(x) for x in raw)
    if not all(math.isfinite(x) for x in vector):
        raise BadReply("an embedding holds a value that is not finite")
    return vector


def _per_token(raw: Any) -> bool:
    """llama.cpp serving a chat model with --embedding: a list of equal-length vectors of
    numbers, one per token of the text, where one vector was asked for."""
    if not isinstance(raw, list) or not raw or len(raw) > MAX_DIM:
        return False
    if not isinstance(raw[0], list):
        return False
    rows = [r for r in raw if isinstance(r, list) and r and len(r) == len(raw[0])]
    if len(rows) != len(raw):
        return False
    return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in rows[0])


def token_count(value: Any) -> int | None:
    """A usage count if it is a whole number in range, else None (then estimated)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= MAX_TOKENS else None


def estimate_tokens(text: str) -> int:
    """For an endpoint that sends no usage fields: about four characters a token."""
    return max(1, len(text) // 4)


def _message(exc: openai.APIStatusError) -> str:
    """The error's message (cleaned by the caller); never more than 300 characters."""
    try:
        return _body_message(exc)
    except Exception:  # noqa: BLE001 - an error body can be anything
        return f"an error answer ({exc.status_code})"


def _body_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])[:300]
        if isinstance(inner, str):
            return inner[:300]
    return str(exc)[:300]


def retry_after(exc: openai.APIStatusError) -> float | None:
    """Seconds the server asked us to wait (Retry-After or retry-after-ms), capped."""
    try:
        headers = exc.response.headers if exc.response is not None else {}
        return _wait_asked(headers)
    except Exception:  # noqa: BLE001 - a header can be anything
        return None


def _wait_asked(headers: Any) -> float | None:
    ms = _seconds(headers.get("retry-after-ms"), scale=1000)
    if ms is not None:
        return ms
    value = headers.get("retry-after")
    if not value:
        return None
    plain = _seconds(value)
    if plain is not None:
        return plain
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return min(MAX_WAIT, max(0.0, when.timestamp() - time.time()))


def _seconds(value: str | None, scale: float = 1.0) -> float | None:
    if not value:
        return None
    try:
        seconds = float(value) / scale
    except (ValueError, OverflowError):
        return None
    return min(MAX_WAIT, max(0.0, seconds)) if math.isfinite(seconds) else None


def _hung_up(exc: Exception) -> bool:
    """A connection that opened and then closed with no answer is worth another try;
    a refused or unresolvable one is not (the endpoint is not there)."""
    cause = exc.__cause__ or exc.__context__
    # by name: the openai package's HTTP library differs between its versions
    return type(cause).__name__ in ("RemoteProtocolError", "ReadError", "ConnectionResetError")
