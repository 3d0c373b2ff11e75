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

Its parts, each in its own module: the two clocks and a request in flight (`flight`), the
bounded HTTP client (`bounded`), the request's arguments (`wire`), the answer read and
checked (`replies`), and what an HTTP failure means (`http_errors`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from typing import Any

import openai

from game.brains.audit import public_url, redact, url_secrets
from game.brains.llm.bounded import MAX_BODY, PastDeadline, TooLarge, bounded_client, http_library
from game.brains.llm.endpoint import checked_url, key_problem
from game.brains.llm.flight import Flight, Pace
from game.brains.llm.http_errors import (
    NO_EMBEDDINGS,
    error_message,
    hung_up,
    names_embeddings,
    names_format,
    names_stream,
    quirk_for,
    rejection,
    retry_after,
)
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
    Refused,
    Transient,
)
from game.brains.llm.replies import Streamed, chat_reply, embed_reply, load_document, read_events
from game.brains.llm.wire import chat_arguments
from game.core.errors import SmallvilleError
from game.core.text import clean, single_line

DEFAULT_URL = "https://api.openai.com/v1"


POLL = 0.1  # seconds between looks at the clocks and at cancellation while a request is out


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
        except (http_library.InvalidURL, ValueError) as exc:  # what url_problem did not foresee
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
                if style is Streaming.OFF or not names_stream(str(exc)):
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
        return http_library.Timeout(whole, connect=min(self.timeout, 10.0))

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
        if hung_up(exc):
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
        status, message = exc.status_code, self._say(error_message(exc))
        if 300 <= status < 400:
            return EndpointDown(self._say(self._redirected(exc)))
        if status in (401, 403):
            refused = f"the endpoint refused the API key ({status})"
            return EndpointDown(f"{refused}; set ${self._key_env}")
        if embeddings and (status in NO_EMBEDDINGS or names_embeddings(status, message)):
            return NoEmbeddings(f"the endpoint has no /v1/embeddings ({status}: {message})")
        quirk = quirk_for(message) if status in (400, 422) and not embeddings else None
        if quirk is not None:
            return ParamRefused(quirk, f"{status}: {message}")
        if not embeddings and names_format(status, message):
            return FormatRefused(f"{status}: {message}")
        if status == 404:
            return EndpointDown(
                f"the endpoint answered 404 for model {single_line(model, 80)!r}: check the "
                "model name and the base URL (it usually ends in /v1)"
            )
        if status >= 500:
            return Transient(f"server error ({status}): {message}", retry_after(exc))
        return rejection(status, message)

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
