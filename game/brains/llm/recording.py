"""Record and replay: answers stored in SQLite, keyed by what was asked.

The key is a hash of the model, the messages and the schema (and for embeddings, the
model and the texts): exactly what decides an answer. With `--record` every answer is
written (and a request already recorded is answered from the file); with `--replay`
nothing goes to the network and a request that was never recorded is a clear error.

Two residents may send the same request at the same moment. `single_flight` lets only
one of them ask and hands its answer to the other, so a recording holds one answer per
request and a replay hands every asker the answer it got while recording.

`Recording` is the wrapper: above the ladder and the retries (so a replay needs neither),
below the meter and the audit log (so a replayed run counts and logs what the recorded
one did). A failed request is recorded too, and replays as the same failure; an
unreachable endpoint is not an answer and is never recorded.

What is read back is checked as a live answer is (`stored.py`): the envelope, the usage
counts, the vectors and their dimension cap. A stored entry that fails is damaged:
recording asks again and stores the new answer over it; a replay skips it (its question
is a failed request, answered by the scripted brain, or its text gets no vector) and says
so once. The first vectors of a recording come from the endpoint and fix the run's
dimension, so a stored vector of another is damaged too (a 2-dimensional vector stored
for the probe once made a whole save's embeddings 2-dimensional).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from game.brains.llm.model import (
    BadReply,
    ChatReply,
    ChatRequest,
    EmbedReply,
    EmbedRequest,
    LanguageModel,
    ModelError,
    NoEmbeddings,
    Refused,
    ReplayMiss,
    RequestFailed,
    Transient,
    Wrapper,
)
from game.brains.llm.stored import (
    MAX_VECTOR_ENTRY,
    Damaged,
    chat_problem,
    stored_chat,
    stored_vector,
)
from game.core.errors import FileProblem, SettingsError
from game.core.files import cause
from game.core.text import bounded_loads, single_line

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    model TEXT NOT NULL,
    answer TEXT NOT NULL
)
"""


def request_key(kind: str, model: str, payload: Any) -> str:
    text = json.dumps([kind, model, payload], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


MAX_ENTRY = 16_000_000  # bytes of one stored answer (twice the largest body we accept)


def _writable(path: Path) -> None:
    """--record needs to write the file and its folder (SQLite adds its journal beside
    it): one line if it cannot (FileProblem), not a traceback or SQLite's 'unable to open
    database file'."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileProblem(path.parent, cause(exc), "make the folder of the cache") from None
    for where in (path.parent, path):
        if where.exists() and not os.access(where, os.W_OK):
            raise FileProblem(where, _unwritable(where), "record into") from None


def _unwritable(where: Path) -> str:
    """Why one may not write there: another user's file or folder is not 'read-only'."""
    try:
        owner = where.stat().st_uid
    except OSError:
        return "it is read-only"
    if hasattr(os, "getuid") and owner != os.getuid():
        return "it belongs to another user"
    return "it is read-only"


SQLITE_CORRUPT, SQLITE_FULL, SQLITE_NOTADB, SQLITE_IOERR = 11, 13, 26, 10  # result codes


def _code(exc: sqlite3.DatabaseError) -> int:
    """SQLite's primary result code of an error (-1 when it gives none)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else -1


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether the file itself is at fault (no database, or a corrupt one): only then is
    moving it aside the cure. A full disk was told 'not a usable record/replay cache
    (database or disk is full)' or '(disk I/O error); move it aside to start anew' of a
    good cache, and moving it aside would lose every recorded answer."""
    return _code(exc) in (SQLITE_CORRUPT, SQLITE_NOTADB) or _code(exc) == -1


def _disk_full(exc: sqlite3.DatabaseError, path: Path | None = None) -> bool:
    """SQLITE_FULL, or an I/O error (its shared-memory and log files beside the cache
    could not grow) where the disk has next to nothing free."""
    if _code(exc) == SQLITE_FULL:
        return True
    if _code(exc) != SQLITE_IOERR or path is None:
        return False
    try:
        return shutil.disk_usage(path.parent).free < 1024 * 1024
    except OSError:
        return False


def _machine(exc: sqlite3.DatabaseError, path: Path) -> str:
    """A machine's fault with a cache, in a person's words."""
    return "the disk is full (no space left on device)" if _disk_full(exc, path) else str(exc)


class ReplayCache:
    """One SQLite file shared by the threads of one process (a lock serialises access)."""

    def __init__(self, path: Path, replay: bool = False) -> None:
        self.path = path
        self.replay = replay
        if replay and not path.is_file():
            raise SettingsError(f"--replay: no recording at {path}; record one with --record")
        if not replay:
            _writable(path)
        new = not path.exists()
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(SCHEMA)
        except sqlite3.DatabaseError as exc:
            if _damaged(exc):
                raise SettingsError(
                    f"{path}: not a usable record/replay cache ({exc}); move it aside to start anew"
                ) from None
            if new and path.is_file() and path.stat().st_size == 0:
                path.unlink()  # ours, made just now, empty: nothing half written stays
            # the cache is fine (or not there yet): the machine is not
            raise FileProblem(path, _machine(exc, path), "open the cache") from None
        self._lock = threading.Lock()
        self._closed = False
        self.unwritable = ""  # why answers are no longer recorded ('' while they are)
        self._flights: dict[str, threading.Event] = {}

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored answer, or None: a damaged row is a miss, never a crash."""
        try:
            return self.read(key)
        except Damaged:
            return None

    def read(self, key: str, limit: int = MAX_ENTRY) -> dict[str, Any] | None:
        """The stored answer (None if there is none), or Damaged for one that no reader
        can use: longer than `limit` bytes (left unread), not JSON, not an object."""
        with self._lock:
            if self._closed:
                return None  # a job still running after the run ended
            try:
                row = self._db.execute(
                    "SELECT length(CAST(answer AS BLOB)), CASE WHEN "
                    "length(CAST(answer AS BLOB)) <= ? THEN answer END FROM answers WHERE key = ?",
                    (limit, key),
                ).fetchone()
            except sqlite3.DatabaseError as exc:
                raise Damaged(f"an unreadable row ({single_line(str(exc), 80)})") from None
        if row is None:
            return None
        size, text = row
        if text is None:
            raise Damaged(f"an entry of {size} bytes (at most {limit} are read)")
        try:
            found = bounded_loads(str(text), 32)
        except ValueError as exc:
            raise Damaged(f"an entry that is not JSON ({single_line(str(exc), 80)})") from None
        if not isinstance(found, dict):
            raise Damaged(f"an entry that is a JSON {type(found).__name__}, not an object")
        return found

    def put(self, key: str, kind: str, model: str, answer: dict[str, Any]) -> None:
        """Store an answer (never while replaying)."""
        if self.replay:
            return
        text = json.dumps(answer, ensure_ascii=False)
        with self._lock:
            if self._closed or self.unwritable:
                return
            try:
                self._db.execute(
                    "INSERT OR REPLACE INTO answers (key, kind, model, answer) VALUES (?, ?, ?, ?)",
                    (key, kind, model, text),
                )
            except sqlite3.DatabaseError as exc:  # a full disk: the answer is still used
                why = _machine(exc, self.path)
                self.unwritable = f"cannot record into {self.path}: {why}; recording stops"
                log.warning("%s", self.unwritable)

    def fetch(
        self,
        key: str,
        kind: str,
        model: str,
        ask: Callable[[], dict[str, Any]],
        problem: Callable[[dict[str, Any]], str] = lambda answer: "",
        damaged: Callable[[str], None] = lambda why: None,
    ) -> tuple[dict[str, Any], bool]:
        """(answer, from_recording). `ask` goes to the network; what it raises is not stored.

        In replay mode a miss raises ReplayMiss and `ask` is never called. A recorded
        failure ({'error': ...}) is replayed as such, but recording asks again. A stored
        answer that `problem` finds fault with (the checks of a live one) is damaged:
        replaying raises Damaged; recording tells `damaged` why and asks again.
        """
        while True:
            found = self._checked(key, problem, damaged)
            if found is not None and (self.replay or "error" not in found):
                return found, True
            if self.replay:
                raise ReplayMiss(
                    f"--replay: the recording at {self.path} has no answer for this {kind} "
                    "request; it was recorded with other settings, seed or code"
                )
            leader, event = self._join(key)
            if leader:
                break
            event.wait()
        try:
            answer = ask()
            self.put(key, kind, model, answer)
            return answer, False
        finally:
            self._land(key)

    def _checked(
        self, key: str, problem: Callable[[dict[str, Any]], str], damaged: Callable[[str], None]
    ) -> dict[str, Any] | None:
        """The stored answer if it passes; a damaged one raises (replaying) or, told to
        `damaged`, reads as none (recording: asked again, and stored over)."""
        try:
            found = self.read(key)
            why = problem(found) if found is not None and "error" not in found else ""
            if why:
                raise Damaged(why)
        except Damaged as exc:
            if self.replay:
                raise
            damaged(str(exc))
            return None
        return found

    def _join(self, key: str) -> tuple[bool, threading.Event]:
        with self._lock:
            event = self._flights.get(key)
            if event is not None:
                return False, event
            event = self._flights[key] = threading.Event()
            return True, event

    def _land(self, key: str) -> None:
        with self._lock:
            event = self._flights.pop(key, None)
        if event is not None:
            event.set()

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()


# Failures a recording can hold, by name: a replay raises the same type.
RECORDED_FAILURES: dict[str, type[ModelError]] = {
    cls.__name__: cls for cls in (RequestFailed, Transient, Refused, BadReply, NoEmbeddings)
}


class Recording(Wrapper):
    """Answers from the recording, else from the inner model (and recorded).

    `tell` hears, once, that the recording holds damaged entries and what is done with
    them (the stack's notices)."""

    def __init__(
        self,
        inner: LanguageModel,
        cache: ReplayCache,
        tell: Callable[[str], None] = lambda message: None,
    ) -> None:
        super().__init__(inner)
        self.cache = cache
        self._tell = tell
        self._told = False
        self._told_lock = threading.Lock()
        self._dims: dict[str, int] = {}  # embedding model -> the run's dimension

    def chat(self, request: ChatRequest) -> ChatReply:
        key = request_key("chat", request.model, request.key())
        try:
            answer, replayed = self.cache.fetch(
                key,
                "chat",
                request.model,
                lambda: _asked(self.inner, request),
                lambda stored: chat_problem(stored, request),
                self._damaged,
            )
        except Damaged as exc:  # replaying: the question gets its scripted answer
            self._damaged(str(exc))
            raise BadReply(
                f"the recording holds a damaged answer for this request ({exc}); skipped"
            ) from None
        return _chat_reply(answer, replayed, request)

    def embed(self, request: EmbedRequest) -> EmbedReply:
        """One vector per text is recorded (not per request), so a replay finds every text
        however the concurrent requests of a run happened to be batched. Recording, the
        run's first vectors come from the endpoint: they fix its dimension."""
        if not self.cache.replay and request.model not in self._dims:
            unique = tuple(dict.fromkeys(request.texts))
            reply = self._embed_and_record(replace(request, texts=unique))
            found = dict(zip(unique, reply.vectors, strict=True))
            vectors = tuple(found[t] for t in request.texts)
            return EmbedReply(vectors, reply.prompt_tokens, reply.seconds)
        found = self._recorded(request)
        missing = tuple(t for t in dict.fromkeys(request.texts) if t not in found)
        if not missing:
            return EmbedReply(tuple(found[t] for t in request.texts), replayed=True)
        reply = self._embed_and_record(replace(request, texts=missing))
        found.update(zip(missing, reply.vectors, strict=True))
        vectors = tuple(found[t] for t in request.texts)
        return EmbedReply(vectors, reply.prompt_tokens, reply.seconds)

    def _recorded(self, request: EmbedRequest) -> dict[str, tuple[float, ...]]:
        out: dict[str, tuple[float, ...]] = {}
        damaged: dict[str, str] = {}
        for text in dict.fromkeys(request.texts):
            try:
                answer = self.cache.read(
                    request_key("embed", request.model, text), MAX_VECTOR_ENTRY
                )
            except Damaged as exc:
                damaged[text] = str(exc)
                continue
            if answer is not None and "missing" in answer:
                final = answer.get("failure", "NoEmbeddings") == "NoEmbeddings"
                if final or self.cache.replay:
                    kind = RECORDED_FAILURES.get(str(answer.get("failure")), NoEmbeddings)
                    raise kind(single_line(str(answer["missing"])))
                continue  # a passing failure, recorded for replays: ask again
            if answer is not None:
                try:
                    out[text] = stored_vector(answer, self._dims.get(request.model))
                except Damaged as exc:
                    damaged[text] = str(exc)
                    continue
                self._dims.setdefault(request.model, len(out[text]))
            elif self.cache.replay:
                raise ReplayMiss(
                    f"--replay: the recording at {self.cache.path} has no embedding for a "
                    "text of this run; it was recorded with other settings, seed or code"
                )
        if damaged:
            self._damaged(next(iter(damaged.values())))
            if self.cache.replay:
                out.update(self._nothing_for(damaged, request.model))
        return out

    def _nothing_for(self, damaged: Sequence[str], model: str) -> dict[str, tuple[float, ...]]:
        """Replaying, the damaged texts get zero vectors (no relevance score, as when the
        endpoint fails them live); before any vector fixed the dimension, the request
        fails as a live one with a bad vector would."""
        dim = self._dims.get(model)
        if dim is None:
            raise BadReply(
                "the recording holds a damaged embedding for this request's first text "
                "and no vector to go by; skipped"
            )
        return {text: (0.0,) * dim for text in damaged}

    def _embed_and_record(self, request: EmbedRequest) -> EmbedReply:
        try:
            reply = self.inner.embed(request)
        except (NoEmbeddings, RequestFailed) as exc:
            if len(request.texts) == 1:  # the probe: a replay then fails it the same way
                failure = {"missing": str(exc), "failure": type(exc).__name__}
                self._put(request.model, request.texts[0], failure)
            raise
        if reply.vectors:
            self._dims.setdefault(request.model, len(reply.vectors[0]))
        for text, vector in zip(request.texts, reply.vectors, strict=True):
            self._put(request.model, text, {"vector": list(vector)})
        return reply

    def _damaged(self, why: str) -> None:
        """Said once a run: the recording holds entries that fail the live checks."""
        with self._told_lock:
            if self._told:
                return
            self._told = True
        done = (
            "each is skipped (its question answered by the scripted brain, its text given "
            "no vector)"
            if self.cache.replay
            else "each is asked again and recorded anew"
        )
        self._tell(
            f"the recording at {self.cache.path} holds damaged entries (the first: "
            f"{single_line(why, 160)}); {done}"
        )

    def _put(self, model: str, text: str, answer: dict[str, Any]) -> None:
        self.cache.put(request_key("embed", model, text), "embed", model, answer)


def _asked(inner: LanguageModel, request: ChatRequest) -> dict[str, Any]:
    """The inner model's reply, or the failure of a request, as a recording entry."""
    try:
        reply = inner.chat(request)
    except RequestFailed as exc:
        return {"error": str(exc), "failure": type(exc).__name__}
    return {
        "content": reply.text,
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "seconds": reply.seconds,
        "finish_reason": reply.finish_reason,
    }


def _chat_reply(answer: dict[str, Any], replayed: bool, request: ChatRequest) -> ChatReply:
    """A recorded failure raised as itself; an answer through the live checks."""
    if "error" in answer:
        kind = RECORDED_FAILURES.get(str(answer.get("failure", "")), RequestFailed)
        raise kind(single_line(str(answer["error"])))
    try:
        return stored_chat(answer, request, replayed)
    except Damaged as exc:
        raise BadReply(f"the recording holds a damaged answer for this request ({exc})") from None
