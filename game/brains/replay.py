"""The record/replay cache: answers stored in SQLite, keyed by what was asked.

The key is a hash of the model, the messages and the schema (and for embeddings, the
model and the texts): exactly what decides an answer. With `--record` every answer is
written (and a request already recorded is answered from the file); with `--replay`
nothing goes to the network and a request that was never recorded is a clear error.

Two residents may send the same request at the same moment. `single_flight` lets only
one of them ask and hands its answer to the other, so a recording holds one answer per
request and a replay hands every asker the answer it got while recording.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.core.errors import SmallvilleError

SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    model TEXT NOT NULL,
    answer TEXT NOT NULL
)
"""


class ReplayMiss(SmallvilleError):
    """--replay met a request the recording does not hold."""


def request_key(kind: str, model: str, payload: Any) -> str:
    text = json.dumps([kind, model, payload], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ReplayCache:
    """One SQLite file shared by the threads of one process (a lock serialises access)."""

    def __init__(self, path: Path, replay: bool = False) -> None:
        self.path = path
        self.replay = replay
        if replay and not path.is_file():
            raise SmallvilleError(f"--replay: no recording at {path}; record one with --record")
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise SmallvilleError(
                f"{path}: not a usable record/replay cache ({exc}); move it aside to start anew"
            ) from None
        self._lock = threading.Lock()
        self._closed = False
        self._flights: dict[str, threading.Event] = {}

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            if self._closed:
                return None  # a job still running after the run ended
            try:
                row = self._db.execute(
                    "SELECT answer FROM answers WHERE key = ?", (key,)
                ).fetchone()
                return None if row is None else json.loads(row[0])
            except (sqlite3.DatabaseError, ValueError):
                return None  # a damaged row is a miss, never a crash

    def put(self, key: str, kind: str, model: str, answer: dict[str, Any]) -> None:
        """Store an answer. An unreachable endpoint is not an answer and is never stored."""
        if self.replay or "down" in answer:
            return
        text = json.dumps(answer, ensure_ascii=False)
        with self._lock:
            if self._closed:
                return
            self._db.execute(
                "INSERT OR REPLACE INTO answers (key, kind, model, answer) VALUES (?, ?, ?, ?)",
                (key, kind, model, text),
            )

    def fetch(
        self, key: str, kind: str, model: str, ask: Callable[[], dict[str, Any] | None]
    ) -> tuple[dict[str, Any] | None, bool]:
        """(answer, from_recording). `ask` goes to the network; a None answer is not stored.

        In replay mode a miss raises ReplayMiss and `ask` is never called. A recorded
        failure ({'error': ...}) is replayed as such, but recording asks again.
        """
        while True:
            found = self.get(key)
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
            if answer is not None:
                self.put(key, kind, model, answer)
            return answer, False
        finally:
            self._land(key)

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
