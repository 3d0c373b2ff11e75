"""A local OpenAI-protocol server for tests and benchmarks: no model, no network.

It speaks `/v1/chat/completions` and `/v1/embeddings` on 127.0.0.1 (a random port) and
answers every question of the LLM brain with schema-valid JSON made deterministically
from the request: the schema it was sent (its title names the question), and what the
prompt offers (numbered memories, the day's hours, the options). It behaves like a small
serving box: `latency` seconds per request and `slots` requests at a time.

Faults for the tests: `faults` is a queue consumed one per chat request (`always` is a
fault for every request): 'malformed', 'truncated', 'garbage', 'enormous', 'empty_choices',
'dropped' (the connection is closed with no answer), 'wrong_types', 'out_of_range',
'unknown_area',
'rate_limit' (429 + Retry-After), 'server_error' (500), 'hang' (sleep past the client's
timeout), 'unauthorized' (401, echoing the key as some servers do), 'bad_request' (a
plain 400). Hostile answers, each a class the client must turn into a counted fallback:
'nested' (an envelope nested 100,000 deep), 'nested_content', 'null_message',
'object_content', 'bad_usage' (negative, 1e400 and text token counts: the answer itself
is good), 'error_text' (a 400 whose message holds NUL, terminal escapes, bidi marks and
the key, forwards and reversed), 'drip' (a good answer one byte at a time), 'huge_length'
(a 2 GB Content-Length), 'gzip_bomb' (16 MB of zeros, gzipped), 'key_echo' (the key inside
every string of a good answer), 'controls' (control, bidi and zero-width characters in
every string), 'endless' (a streamed answer that never finishes: tokens keep coming,
`token_seconds` apart, until the client hangs up or `endless_seconds` pass).
`embed_faults` / `embed_always` do the same for /v1/embeddings:
'few_rows', 'nan', 'empty', 'huge_dim', 'ragged', 'nested'. `accepts` lists the
response_format types it takes (drop 'json_schema' to act like llama.cpp's server, drop
both to act like a server without structured output), `embeddings=False` makes
/v1/embeddings a 404, `forced[question]` fixes the answer to one question, and
`makers[question]` answers it with a function of (schema, prompt): a fake judge whose
preferences a test knows. A ranking ("rank") is otherwise answered in the labels' order.

`redirect = (status, url)` answers every request with that redirect (301, 302, 307 or
308) and a Location of `url` plus the request's path after /v1, as a moved or hostile
endpoint does; the client must not follow it.

`like_llama()` makes it behave as llama-cpp-python's server does: json_schema gets a 500
whose body names response_format; /v1/embeddings gets a 500 ("must be created with
embedding=True") or, with `embeddings=True`, one vector per token; the fault 'length'
cuts the answer off with finish_reason "length" (unless max_tokens is raised past
`length_below`); `stubborn` names questions answered with the same invalid JSON every
time until the request carries a seed (a grammar-bound sampler with a fixed seed repeats
itself byte for byte).

Streaming: a request with `"stream": true` gets its answer as server-sent events, one
chunk per token (words and punctuation, as `tokens` counts them), `first_token_seconds`
after the request and `token_seconds` apart, within its slot (so `slots=1` serves one
answer at a time, as llama-cpp-python's server does), with a usage chunk when
`stream_options.include_usage` asks for one. Answers a hostile fault shapes (no choices, a
null message, dripped bytes...) go out whole, as a server that does not stream sends
them. Every stream is logged in `streams` (a `StreamLog`: tokens sent, finished, whether
the client hung up while tokens were still coming). A request without any schema (the
doctor's timing probe) is answered with numbers up to its `max_tokens`, cut off there
(finish_reason "length"), as a model asked to count to a thousand is.

Usage:  with ProtocolServer(latency=0.01) as server: ... server.url ...
        python tests/brains/protocol_server.py --latency 1 --slots 16   (serves until ^C)
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import re
import socket
import struct
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

EMOJI = ("📚", "☕", "🍳", "🎨", "💻", "🚶", "🧹", "🎵", "📝", "🛒", "🍽️", "💬", "🌳", "🧪")
STATES = ("in use", "occupied", "being used")  # states any object can be in (object_states.json)
STEP_WORDS = ("getting ready for", "starting on", "working steadily on", "wrapping up")
KEYWORDS = ("party", "valentine", "election", "mayor", "crush", "love", "burning", "fire")
_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(text: str) -> int:
    """A rough token count: words and punctuation marks (close to BPE for English)."""
    return len(_TOKEN.findall(text))


def pick(seq, *key: Any):
    digest = hashlib.sha256(json.dumps(key, default=str).encode()).digest()
    return seq[int.from_bytes(digest[:8], "big") % len(seq)]


def roll(*key: Any) -> float:
    digest = hashlib.sha256(json.dumps(key, default=str).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


@dataclass
class StreamLog:
    """One streamed answer as the server saw it."""

    tokens: int = 0  # content chunks written
    finished: bool = False  # the last chunk and [DONE] went out
    hung_up: bool = False  # the client closed the connection while tokens were coming
    interrupted: bool = False  # stopped by the next request (`interrupts`), unfinished
    ended: threading.Event = field(default_factory=threading.Event)  # no more writes


class Flight:
    """Requests in flight (received, not yet answered), integrated over real time: a
    benchmark's mean parallelism is the area over the wall time it covers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.now = 0  # requests in flight right now
        self.total = 0  # requests received
        self._area = 0.0  # request-seconds up to `_since`
        self._since = time.perf_counter()

    def _advance(self) -> float:
        t = time.perf_counter()
        self._area += self.now * (t - self._since)
        self._since = t
        return self._area

    def change(self, by: int) -> None:
        with self._lock:
            self._advance()
            self.now += by
            self.total += max(0, by)

    def area(self) -> float:
        """Request-seconds so far."""
        with self._lock:
            return self._advance()


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up (a run cancelling its requests on close) is not an error."""

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class ProtocolServer:
    def __init__(
        self,
        latency: float = 0.0,
        slots: int = 16,
        embeddings: bool = True,
        dim: int = 64,
        port: int = 0,
    ) -> None:
        self.latency = latency
        self.slots = threading.BoundedSemaphore(max(1, slots))
        self.embeddings = embeddings
        self.dim = dim
        self.accepts = {"json_schema", "json_object", "text"}
        # 'max_tokens', 'temperature', 'limits' (minLength), 'stream_options'
        self.refuses: set[str] = set()
        self.faults: deque[str] = deque()
        self.always = ""
        self.embed_faults: deque[str] = deque()
        self.embed_always = ""
        self.retry_after = "0.05"
        self.hang_seconds = 2.0
        self.forced: dict[str, dict[str, Any]] = {}  # question name -> the answer to give
        # question name -> (schema, prompt) -> the answer: a fake with known preferences
        self.makers: dict[str, Callable[[dict[str, Any], str], dict[str, Any]]] = {}
        self.llama = False  # see like_llama()
        self.per_token = False  # /v1/embeddings answers one vector per token
        self.stubborn: set[str] = set()  # questions answered wrongly until a seed is sent
        self.length_below = 10_000  # 'length' cuts answers asked with max_tokens below this
        self.first_token_seconds = 0.0  # a streamed answer's first token after this long
        self.token_seconds = 0.0  # and each next one after this long
        self.endless_seconds = 30.0  # how long 'endless' goes on when nobody hangs up
        self.streams: list[StreamLog] = []
        self.streaming = True  # False: answers whole even when asked to stream
        # llama-cpp-python's server (interrupt_requests, on by default): a stream that sees
        # another chat request waiting for the slot sends [DONE] and stops, unfinished
        self.interrupts = False
        self.redirect: tuple[int, str] | None = None  # (status, target base URL)
        self.waiting = 0  # chat requests waiting for a slot
        self.flight = Flight()  # requests in flight, over time
        self.requests: list[dict[str, Any]] = []  # every request: path, body, auth header
        self.by_question: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._http = _QuietServer(("127.0.0.1", port), _handler(self))
        self._http.daemon_threads = True
        # stop() waits for the serving loop to look up: every 0.5 s by default, and the
        # suite starts and stops a few hundred of these servers
        self._thread = threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> ProtocolServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._http.shutdown()
        self._http.server_close()

    def __enter__(self) -> ProtocolServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def like_llama(self, embeddings: bool = False) -> ProtocolServer:
        """llama-cpp-python's server: no json_schema; chat models embed per token."""
        self.llama = True
        self.accepts = {"json_object", "text"}
        self.per_token = embeddings
        self.embeddings = embeddings
        return self

    def next_fault(self) -> str:
        with self._lock:
            return self.faults.popleft() if self.faults else self.always

    def next_embed_fault(self) -> str:
        with self._lock:
            return self.embed_faults.popleft() if self.embed_faults else self.embed_always

    def record(self, entry: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(entry)

    def count(self, question: str) -> None:
        with self._lock:
            self.by_question[question] += 1

    def wait_for_slot(self, change: int) -> None:
        with self._lock:
            self.waiting += change

    def interrupted(self) -> bool:
        """Whether a streaming answer is to stop now: another request waits (interrupts)."""
        with self._lock:
            return self.interrupts and self.waiting > 0

    def new_stream(self) -> StreamLog:
        log = StreamLog()
        with self._lock:
            self.streams.append(log)
        return log

    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.requests if r["path"].endswith("/chat/completions")]


def refused_url() -> str:
    """A URL on which nothing listens: a port bound and released."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# -- HTTP ----------------------------------------------------------------------------------


def _handler(server: ProtocolServer):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go in two writes: no 40 ms stalls

        def log_message(self, *args) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                return self._send(400, {"error": {"message": "bad JSON"}})
            auth = self.headers.get("Authorization", "")
            server.record({"path": self.path, "body": body, "auth": auth})
            if server.redirect is not None:
                status, target = server.redirect
                where = target + self.path.partition("/v1")[2]
                return self._send(status, {"moved": where}, {"Location": where})
            server.flight.change(+1)
            try:
                return self._serve(body, auth)
            finally:
                server.flight.change(-1)

        def _serve(self, body: dict[str, Any], auth: str) -> None:
            server.wait_for_slot(+1)
            with server.slots:
                server.wait_for_slot(-1)
                time.sleep(server.latency)
                if self.path.endswith("/chat/completions"):
                    status, doc, headers = chat(server, body, auth)
                    if status is None:  # 'dropped': hang up without a word
                        self.close_connection = True
                        return None
                    streams = server.streaming and body.get("stream") is True
                    if streams and status == 200 and streamable(doc):
                        return self._stream(doc, body)
                elif self.path.endswith("/embeddings"):
                    status, doc, headers = embeddings(server, body)
                else:
                    status, doc, headers = 404, {"error": {"message": "not found"}}, {}
            if isinstance(doc, Raw):
                return self._send_raw(status, doc)
            self._send(status, doc, headers)

        def _stream(self, doc: dict[str, Any], body: dict[str, Any]) -> None:
            """The answer as server-sent events, token by token, in chunked encoding. A
            client that hangs up is seen at the next write: the generation stops there."""
            log = server.new_stream()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self.wfile.flush()
                time.sleep(server.first_token_seconds)
                for event in sse_events(server, doc, body, log):
                    self._chunk(f"data: {event}\n\n".encode())
                    if server.interrupted():
                        log.interrupted = True
                        break
                self._chunk(b"data: [DONE]\n\n")
                self._chunk(b"")
                log.finished = not log.interrupted
            except (BrokenPipeError, ConnectionResetError):
                log.hung_up = True
                self.close_connection = True
            finally:
                log.ended.set()

        def _chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def _send_raw(self, status: int, raw: Raw) -> None:
            """Bytes as a hostile server sends them: any headers, dripped if asked."""
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", raw.length or str(len(raw.data)))
                for k, v in raw.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                if not raw.drip:
                    self.wfile.write(raw.data)
                    return
                for i in range(len(raw.data)):
                    self.wfile.write(raw.data[i : i + 1])
                    self.wfile.flush()
                    time.sleep(raw.drip)
            except (BrokenPipeError, ConnectionResetError):
                pass
            finally:
                self.close_connection = True

        def _send(self, status: int, doc: Any, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(doc).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

    return Handler


@dataclass(frozen=True)
class Raw:
    """An answer sent byte for byte (a hostile server's), not as a JSON document."""

    data: bytes
    headers: dict[str, str] = field(default_factory=dict)
    length: str = ""  # the Content-Length claimed ('' = the true one)
    drip: float = 0.0  # seconds between bytes


DEEP = 100_000
_BOMB: list[bytes] = []


def gzip_bomb() -> bytes:
    if not _BOMB:
        _BOMB.append(gzip.compress(b"\0" * 16_000_000, compresslevel=9))
    return _BOMB[0]


LLAMA_FORMAT_ERROR = (
    "1 validation error:\n  {{'type': 'literal_error', 'loc': ('body', 'response_format', "
    "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': '{}'}}"
)


def _error(status: int, message: str, headers: dict[str, str] | None = None):
    return status, {"error": {"message": message, "type": "test"}}, headers or {}


def chat(server: ProtocolServer, body: dict[str, Any], auth: str):
    fault = server.next_fault()
    if fault == "rate_limit":
        return _error(429, "slow down", {"Retry-After": server.retry_after})
    if fault == "server_error":
        return _error(500, "the model crashed")
    if fault == "bad_request":
        return _error(400, "messages: too many items")
    if fault == "unauthorized":
        return _error(401, f"Incorrect API key provided: {auth.removeprefix('Bearer ')}")
    if fault == "hang":
        time.sleep(server.hang_seconds)
    if fault == "dropped":
        return None, None, None
    if fault == "error_text":
        key = auth.removeprefix("Bearer ")
        text = f"bad\x00 request \x1b[2J\x1b]0;owned\x07 \u202e{key}\u200b {key[::-1]}"
        return _error(400, text)
    if fault == "nested":
        return 200, Raw(b'{"choices": ' + b"[" * DEEP + b"]" * DEEP + b"}"), {}
    if fault == "huge_length":
        return 200, Raw(b'{"choices": [', length="2000000000"), {}
    if fault == "gzip_bomb":
        return 200, Raw(gzip_bomb(), {"Content-Encoding": "gzip"}), {}
    if "max_tokens" in server.refuses and "max_tokens" in body:
        return _error(
            400,
            "Unsupported parameter: 'max_tokens' is not supported with this "
            "model. Use 'max_completion_tokens' instead.",
        )
    if "temperature" in server.refuses and "temperature" in body:
        return _error(
            400,
            "Unsupported value: 'temperature' does not support 0.7 with this "
            "model. Only the default (1) value is supported.",
        )
    if "stream_options" in server.refuses and "stream_options" in body:
        return _error(400, "Unrecognized request argument supplied: stream_options")
    rf = body.get("response_format") or {"type": "text"}
    if "limits" in server.refuses and "minLength" in json.dumps(rf):
        return _error(400, "Invalid schema for response_format: 'minLength' is not permitted.")
    if rf.get("type") not in server.accepts and server.llama:
        return _error(500, LLAMA_FORMAT_ERROR.format(rf.get("type")))
    if rf.get("type") not in server.accepts:
        return _error(400, f"response_format type {rf.get('type')} is not supported")
    messages = body.get("messages", [])
    prompt = "\n".join(str(m.get("content", "")) for m in messages)
    name, schema = _schema_of(rf, prompt)
    server.count(name)
    if not name and not schema:
        return _filled(body, prompt)
    maker = server.makers.get(name)
    question = _last_user(messages)
    answer = server.forced.get(name) or (
        maker(schema, question) if maker else answer_for(name, schema, question)
    )
    if fault in ("key_echo", "controls"):
        answer = _strings(answer, fault, auth.removeprefix("Bearer "))
    content = _mutate(answer, fault)
    stuck = name in server.stubborn and "seed" not in body
    if stuck:
        content = '{"answer": "..."}'
    cut = fault == "length" and int(body.get("max_tokens") or 0) < server.length_below
    if cut:
        content = content[: len(content) // 3]
    if rf.get("type") == "text" and fault != "malformed":
        content = f"Here is my answer:\n```json\n{content}\n```\n"
    usage = {
        "prompt_tokens": tokens(prompt) + (tokens(json.dumps(schema)) if schema else 0),
        "completion_tokens": tokens(content),
    }
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    doc = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "length" if cut else "stop",
            }
        ],
        "usage": usage,
    }
    if fault == "empty_choices":
        doc["choices"] = []
    if fault == "endless":
        doc["endless"] = True
    if fault in WHOLE:
        doc["whole"] = True
    return _hostile_envelope(doc, fault, answer)


# Answers of tens of thousands of tokens: sent whole even when a stream is asked for, as
# a stream of them token by token would take a test run minutes (the client reads a
# stream and a whole answer through the same checks).
WHOLE = ("nested_content", "enormous")


def _filled(body: dict[str, Any], prompt: str):
    """A request with no schema at all: numbers up to max_tokens, cut off there."""
    limit = int(body.get("max_tokens") or body.get("max_completion_tokens") or 16)
    content = _filler(limit)
    usage = {"prompt_tokens": tokens(prompt), "completion_tokens": tokens(content)}
    choice = {
        "index": 0,
        "message": {"role": "assistant", "content": content},
        "finish_reason": "length",
    }
    doc = {"id": "chatcmpl-fill", "object": "chat.completion", "model": body.get("model", "")}
    return 200, {**doc, "choices": [choice], "usage": usage}, {}


def streamable(doc: Any) -> bool:
    """A well-formed answer: one a streaming server sends token by token."""
    if not isinstance(doc, dict) or not doc.get("choices") or doc.get("whole"):
        return False
    message = doc["choices"][0].get("message")
    return isinstance(message, dict) and isinstance(message.get("content"), str)


_PIECE = re.compile(r"\s*(?:\w+|[^\w\s])|\s+$")


def pieces(text: str) -> list[str]:
    """The text in tokens as `tokens` counts them, each with the space before it."""
    return _PIECE.findall(text) or [text]


def sse_events(server: ProtocolServer, doc: dict[str, Any], body: dict[str, Any], log):
    """The JSON of each chunk: the role, each token, the finish, then the usage if asked.
    'endless' keeps writing tokens until the client hangs up (a write then fails)."""
    choice = doc["choices"][0]
    base = {"id": doc["id"], "object": "chat.completion.chunk", "model": doc["model"]}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        choices = [{"index": 0, "delta": delta, "finish_reason": finish}]
        return json.dumps({**base, "choices": choices})

    yield chunk({"role": "assistant", "content": ""})
    words = pieces(choice["message"]["content"])
    endless = doc.get("endless", False)
    began = time.monotonic()
    i = 0
    while i < len(words) or (endless and time.monotonic() - began < server.endless_seconds):
        if i:
            time.sleep(server.token_seconds)
        yield chunk({"content": words[i % len(words)]})
        log.tokens += 1
        i += 1
    yield chunk({}, choice.get("finish_reason") or "stop")
    if (body.get("stream_options") or {}).get("include_usage"):
        yield json.dumps({**base, "choices": [], "usage": doc["usage"]})


def _filler(limit: int) -> str:
    """Numbers from 1, as many tokens as `limit`: a model told to count fills max_tokens."""
    return " ".join(str(n) for n in range(1, max(1, limit) + 1))


def _hostile_envelope(doc: dict[str, Any], fault: str, answer: Any):
    message = doc["choices"][0]["message"]
    if fault == "null_message":
        doc["choices"][0]["message"] = None
    elif fault == "object_content":
        message["content"] = answer
    elif fault == "nested_content":
        message["content"] = "[" * 5000 + "]" * 5000  # past any parser's recursion limit
    elif fault == "bad_usage":
        doc["usage"] = {"prompt_tokens": -1_000_000, "completion_tokens": "many"}
        text = json.dumps(doc).replace('"many"', "1e400")
        return 200, Raw(text.encode()), {}
    elif fault == "drip":
        return 200, Raw(json.dumps(doc).encode(), drip=0.05), {}
    return 200, doc, {}


def _strings(value: Any, fault: str, key: str) -> Any:
    """Every string of an answer with the key in it, or with characters that hide."""
    if isinstance(value, dict):
        return {k: _strings(v, fault, key) for k, v in value.items()}
    if isinstance(value, list):
        return [_strings(v, fault, key) for v in value]
    if isinstance(value, str):
        if fault == "key_echo":
            return f"{value} (my key is {key})"
        return "\u202e\u200b\u202e" if len(value) <= 2 else f"\x00{value}\x1b[31m\u202e\u200b"
    return value


def _last_user(messages: list[dict[str, Any]]) -> str:
    """The question itself: the first user message (retries append corrections)."""
    for m in messages:
        if m.get("role") == "user":
            return str(m.get("content", ""))
    return ""


def _schema_of(rf: dict[str, Any], prompt: str) -> tuple[str, dict[str, Any]]:
    if rf.get("type") == "json_schema":
        spec = rf.get("json_schema", {})
        return spec.get("name", ""), spec.get("schema", {})
    if rf.get("type") == "json_object" and isinstance(rf.get("schema"), dict):
        schema = rf["schema"]
        return schema.get("title", ""), schema
    marker = "follows this JSON schema: "
    at = prompt.rfind(marker)
    if at == -1:
        return "", {}
    schema, _ = json.JSONDecoder().raw_decode(prompt[at + len(marker) :])
    return schema.get("title", ""), schema


def _mutate(answer: dict[str, Any], fault: str) -> str:
    if fault == "malformed":
        return json.dumps(answer)[:-3]
    if fault == "truncated":
        text = json.dumps(answer)
        return text[: len(text) // 2]
    if fault == "garbage":
        return "I am sorry, as a language model I cannot ~~ %%% \u2603 <html>"
    if fault == "enormous":
        return json.dumps(_enlarge(answer), ensure_ascii=False)
    if fault in ("wrong_types", "out_of_range", "unknown_area"):
        answer = _walk(answer, fault)
    return json.dumps(answer, ensure_ascii=False)


def _enlarge(value: Any) -> Any:
    """Every string a hundred thousand characters long: a model that will not stop."""
    if isinstance(value, dict):
        return {k: _enlarge(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_enlarge(v) for v in value]
    if isinstance(value, str):
        return (value + " ") * (100_000 // (len(value) + 1) + 1)
    return value


def _walk(value: Any, fault: str) -> Any:
    if isinstance(value, dict):
        return {k: _walk(v, fault) for k, v in value.items()}
    if isinstance(value, list):
        return "none" if fault == "wrong_types" else [_walk(v, fault) for v in value]
    if isinstance(value, bool):
        return "yes" if fault == "wrong_types" else value
    if isinstance(value, int):
        return {"wrong_types": "seven", "out_of_range": 99}.get(fault, value)
    if isinstance(value, str):
        return {"wrong_types": 7, "unknown_area": "the Moon"}.get(fault, value)
    return value


# -- answers ---------------------------------------------------------------------------------


def answer_for(name: str, schema: dict[str, Any], prompt: str) -> dict[str, Any]:
    maker = MAKERS.get(name)
    return maker(schema, prompt) if maker else generic(schema, prompt)


def generic(schema: dict[str, Any], prompt: str, path: str = "") -> Any:
    kind = schema.get("type")
    if "enum" in schema:
        return pick(schema["enum"], prompt, path)
    if kind == "object":
        props = schema.get("properties", {})
        return {k: generic(v, prompt, f"{path}.{k}") for k, v in props.items()}
    if kind == "array":
        return [generic(schema.get("items", {}), prompt, f"{path}[{i}]") for i in range(2)]
    if kind == "integer":
        return 1 + int(roll(prompt, path) * 5)
    if kind == "boolean":
        return roll(prompt, path) < 0.3
    if path.endswith("emoji"):
        return pick(EMOJI, prompt, path)
    return f"something about {pick(('the town', 'the day', 'work', 'friends'), prompt, path)}"


def _about(prompt: str) -> str:
    """Whom a summary is about: the name after 'Memories of'."""
    m = re.search(r"Memories of ([^:\n]+):", prompt)
    return m[1].strip() if m else "This resident"


def _numbered(prompt: str) -> list[str]:
    return re.findall(r"^\d+\. (.*)$", prompt, flags=re.M)


def _importance(schema, prompt):
    out = []
    for text in _numbered(prompt):
        low = text.lower()
        hot = any(k in low for k in KEYWORDS)
        out.append(6 + int(roll(text) * 3) if hot else 1 + int(roll(text) * 4))
    return {"ratings": out}


def _hhmm(minute: int) -> str:
    minute %= 24 * 60
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _plan(schema, prompt):
    m = re.search(r"wakes at (\d\d):(\d\d) and goes to bed at (\d\d):(\d\d)", prompt)
    wake, sleep = (int(m[1]) * 60 + int(m[2]), int(m[3]) * 60 + int(m[4])) if m else (420, 1380)
    if sleep <= wake:
        sleep += 24 * 60
    places = schema["properties"]["items"]["items"]["properties"]["place"]["enum"]
    home = places[0]
    work = places[1] if len(places) > 2 else home
    out_place = pick(places[:-1], prompt, "out")
    blocks = [
        ("waking up and getting ready", home),
        ("having breakfast", home),
        ("working on the main task of the day", work),
        ("having lunch", out_place),
        ("continuing the day's work", work),
        ("spending time out", out_place),
        ("having dinner and relaxing", home),
    ]
    step = (sleep - wake) / len(blocks)
    items = [
        {"start": _hhmm(int(wake + i * step)), "activity": text, "place": place}
        for i, (text, place) in enumerate(blocks)
    ]
    return {"items": items}


def _step_bits(schema_step, prompt, key) -> dict[str, Any]:
    spots = [s for s in schema_step["properties"]["spot"]["enum"] if s]
    spot = pick(spots, key) if spots else ""
    return {
        "spot": spot,
        "state": pick(STATES, key) if spot else "",
        "emoji": pick(EMOJI, key),
        "importance": 1 + int(roll(key, "imp") * 3),
    }


def _plan_text(prompt: str) -> tuple[str, int]:
    m = re.search(r"plans: (.+?)(?: at .+?)?\.\n", prompt)
    minutes = re.search(r"add up to (\d+)", prompt)
    return (m[1] if m else "the task"), (int(minutes[1]) if minutes else 60)


def _steps_for(schema_step, prompt, description: str, minutes: int) -> list[dict[str, Any]]:
    n = max(1, min(4, round(minutes / 12)))
    base, extra = divmod(minutes, n)
    out = []
    for i in range(n):
        words = STEP_WORDS[min(i, len(STEP_WORDS) - 1)] if n > 1 else "busy with"
        step = {"action": f"{words} {description}", "minutes": base + (1 if i < extra else 0)}
        out.append({**step, **_step_bits(schema_step, prompt, description)})
    return out


def _steps(schema, prompt):
    description, minutes = _plan_text(prompt)
    step = schema["properties"]["steps"]["items"]
    return {"steps": _steps_for(step, prompt, description, minutes)}


def _hours(schema, prompt):
    description, minutes = _plan_text(prompt)
    step = schema["properties"]["hours"]["items"]["properties"]["steps"]["items"]
    n = max(1, round(minutes / 60))
    base, extra = divmod(minutes, n)
    hours = []
    for i in range(n):
        m = base + (1 if i < extra else 0)
        text = f"{description} (part {i + 1})" if n > 1 else description
        hours.append({"activity": text, "minutes": m, "steps": _steps_for(step, prompt, text, m)})
    return {"hours": hours}


def _react(schema, prompt):
    options = schema["properties"]["decision"]["enum"]
    r = roll(prompt)
    decision = "continue"
    if "talk" in options and r < 0.12:
        decision = "talk"
    elif r > 0.97:
        decision = "react"
    if decision == "react":
        return {"decision": decision, "action": "checking on what is going on", "minutes": 10}
    return {"decision": decision, "action": "", "minutes": 0}


def _react_each(schema, prompt):
    """Each sight decided as `_react` decides one (talk only where a sight offers it)."""
    sights = re.split(r"^Sight \d+: ", prompt, flags=re.M)[1:]
    answers = []
    for i, sight in enumerate(sights):
        r = roll(prompt, i)
        if "or talk:" in sight and r < 0.12:
            answers.append({"decision": "talk", "action": "", "minutes": 0})
        elif r > 0.97:
            act = "checking on what is going on"
            answers.append({"decision": "react", "action": act, "minutes": 10})
        else:
            answers.append({"decision": "continue", "action": "", "minutes": 0})
    return {"answers": answers}


def _converse(schema, prompt):
    a, b = schema["properties"]["lines"]["items"]["properties"]["speaker"]["enum"]
    lines = [
        (a, f"Hi {b.split()[0]}, how is your day going?"),
        (b, "Busy, but good. What have you been up to?"),
        (a, "Working mostly. Have you heard any news around town?"),
        (b, "Not much. See you around!"),
    ]
    return {
        "lines": [{"speaker": s, "say": t, "news": ""} for s, t in lines],
        "importance_a": 2,
        "importance_b": 2,
    }


def _utter(schema, prompt):
    said = prompt.split("The conversation so far:", 1)[-1]
    turns = len(re.findall(r"^[A-Z][\w ]+: ", said, flags=re.M))
    return {"say": "That sounds good to me.", "end": turns >= 3, "news": ""}


def _insights(schema, prompt):
    n = len(_numbered(prompt))
    cite = [1] if n < 2 else [1, 2]
    return {"insights": [{"insight": "They value their daily routine", "because": cite}]}


def _insights_each(schema, prompt):
    n = schema["properties"]["answers"]["minItems"]
    rated = [{**i, "importance": 6} for i in _insights(schema, "")["insights"]]
    return {"answers": [{"insights": rated} for _ in range(n)]}


def _questions(schema, prompt):
    return {
        "questions": [
            "What matters most to them these days?",
            "Whom do they spend time with?",
            "What are they looking forward to?",
        ]
    }


MAKERS = {
    "importance": _importance,
    "plan_day": _plan,
    "decompose_steps": _steps,
    "decompose_hours": _hours,
    "react": _react,
    "react_each": _react_each,
    "converse": _converse,
    "utter": _utter,
    "insights": _insights,
    "insights_each": _insights_each,
    "reflect_questions": _questions,
    "object_state": lambda s, p: {"state": pick(STATES, p), "emoji": pick(EMOJI, p)},
    "spot_details": lambda s, p: {
        "choice": pick(s["properties"]["choice"]["enum"], p),
        "state": pick(STATES, p),
        "emoji": pick(EMOJI, p),
    },
    "emoji": lambda s, p: {"emoji": pick(EMOJI, p)},
    "summarize": lambda s, p: {"summary": f"{_about(p)} keeps to a routine and cares for friends."},
    "answer": lambda s, p: {"answer": "I have been busy with my work lately."},
    "rank": lambda s, p: {"order": list(s["properties"]["order"]["items"]["enum"])},
}


# -- embeddings ------------------------------------------------------------------------------


def embeddings(server: ProtocolServer, body: dict[str, Any]):
    if not server.embeddings and server.llama:
        return _error(500, "Llama model must be created with embedding=True to call this method")
    if not server.embeddings:
        return _error(404, "this server has no embeddings")
    if server.per_token:
        return 200, _per_token(body, server.dim), {}
    fault = server.next_embed_fault()
    texts = body.get("input", [])
    texts = [texts] if isinstance(texts, str) else texts
    data = []
    for i, text in enumerate(texts):
        vector = _vector(str(text), server.dim)
        if body.get("encoding_format") == "base64":
            vector = base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
        data.append({"object": "embedding", "index": i, "embedding": vector})
    used = sum(tokens(str(t)) for t in texts)
    usage = {"prompt_tokens": used, "total_tokens": used}
    doc = {"object": "list", "data": data, "model": body.get("model"), "usage": usage}
    return _hostile_embeddings(doc, fault, server.dim)


def _per_token(body: dict[str, Any], dim: int) -> dict[str, Any]:
    """What llama.cpp returns for a chat model: a list of vectors, one per token."""
    texts = body.get("input", [])
    texts = [texts] if isinstance(texts, str) else texts
    data = [
        {"object": "embedding", "index": i, "embedding": [_vector(w, dim) for w in str(t).split()]}
        for i, t in enumerate(texts)
    ]
    return {"object": "list", "data": data, "model": body.get("model"), "usage": {}}


def _hostile_embeddings(doc: dict[str, Any], fault: str, dim: int):
    rows = doc["data"]
    if fault == "few_rows":
        doc["data"] = rows[:-1]
    elif fault == "nan":
        rows[0]["embedding"][0] = float("nan")  # json.dumps writes NaN, as some servers do
    elif fault == "empty":
        for row in rows:
            row["embedding"] = []
    elif fault == "huge_dim":
        for row in rows:
            row["embedding"] = [0.5] * 20_000
    elif fault == "ragged":
        rows[-1]["embedding"] = rows[-1]["embedding"][: dim // 2]
    elif fault == "nested":
        return 200, Raw(b'{"data": ' + b"[" * DEEP + b"]" * DEEP + b"}"), {}
    return 200, doc, {}


def _vector(text: str, dim: int) -> list[float]:
    """Bag of hashed words: related texts get related vectors, as with a real model."""
    out = [0.0] * dim
    for word in re.findall(r"[a-z]+", text.lower()):
        h = int.from_bytes(hashlib.md5(word.encode()).digest()[:4], "big")
        out[h % dim] += 1.0 if h & 1 << 31 else -1.0
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--slots", type=int, default=16)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--no-embeddings", action="store_true")
    parser.add_argument("--first-token", type=float, default=0.0, help="seconds, streamed")
    parser.add_argument("--token-seconds", type=float, default=0.0, help="between tokens")
    args = parser.parse_args()
    server = ProtocolServer(args.latency, args.slots, not args.no_embeddings, port=args.port)
    server.first_token_seconds, server.token_seconds = args.first_token, args.token_seconds
    print(f"serving the OpenAI protocol at {server.url} (^C to stop)", flush=True)
    server.start()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
