"""The audit log the paper's ethics section asks for: every request and every answer.

One JSON object per line (messages, model, tokens, timing, outcome), appended and flushed
as it happens so a crash loses nothing. The API key is never handed to this module; as a
second guard every line passes through `redact`, which blanks any secret it was told about
(an endpoint may echo the key back inside an error message).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from game.core.text import USERINFO, public_url, url_secrets

__all__ = [
    "REDACTED",
    "AuditLog",
    "clipped",
    "public_url",
    "read_audit",
    "redact",
    "url_secrets",
]

log = logging.getLogger("smallville.llm")

REDACTED = "[redacted]"
MAX_FIELD = 4000  # characters of one logged string (an answer, a message)
MAX_BYTES = 20_000_000  # an audit file rolls to <name>.1 past this size


def redact(text: str, secrets: Iterable[str]) -> str:
    """Secrets blanked, forwards and reversed (an endpoint may echo a key either way),
    and every URL's user:password part."""
    text = USERINFO.sub(lambda m: m.group(1) + REDACTED + "@", text)
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, REDACTED).replace(secret[::-1], REDACTED)
    return text


def clipped(value: Any, limit: int = MAX_FIELD) -> Any:
    """Every string in a record cut to `limit` characters (the log says how long it was)."""
    if isinstance(value, str):
        if len(value) <= limit:
            return value
        return value[:limit] + f"... [{len(value) - limit} more characters]"
    if isinstance(value, dict):
        return {k: clipped(v, limit) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clipped(v, limit) for v in value[:200]]
    return value


class AuditLog:
    """Thread-safe JSONL writer; `path=None` makes it a no-op.

    Bounded: each string is clipped to MAX_FIELD characters and the file rolls to
    `<name>.1` (one generation kept) past `max_bytes`. A folder that cannot be written
    (read-only, full) turns the log off with `problem` set, never the run. A line goes
    out in one unbuffered append; one that a full disk cuts short is cut off again, so the
    file is whole lines only (a buffered file left half a line, and could finish it
    later when it was collected)."""

    def __init__(
        self, path: Path | None, secrets: Iterable[str] = (), max_bytes: int = MAX_BYTES
    ) -> None:
        self.path = path
        self.problem = ""
        self.max_bytes = max(1000, max_bytes)
        self._secrets = tuple(s for s in secrets if s)
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._size = 0
        if path is not None:
            self._open()

    def _open(self) -> None:
        assert self.path is not None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = _open_append(self.path)
            self._size = os.fstat(self._fd).st_size
        except OSError as exc:
            self._off(exc)

    def _off(self, exc: OSError) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.problem = f"the audit log cannot be written ({self.path}: {exc.strerror or exc})"
        log.warning("%s", self.problem)

    def write(self, record: dict[str, Any]) -> None:
        if self._fd is None:
            return
        line = json.dumps(
            {"time": datetime.now(UTC).isoformat(timespec="milliseconds"), **clipped(record)},
            ensure_ascii=False,
            default=str,
        )
        data = (redact(line, self._secrets) + "\n").encode("utf-8")
        with self._lock:
            if self._fd is None:
                return
            try:
                if self._size + len(data) > self.max_bytes:
                    self._roll()
                self._append(data)
            except OSError as exc:
                self._off(exc)

    def _append(self, data: bytes) -> None:
        """All of `data` at the end, or the file cut back to where it ended before."""
        assert self._fd is not None
        before = os.fstat(self._fd).st_size  # another writer's lines too, if it has one
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, before)
            raise
        self._size = before + len(data)

    def _roll(self) -> None:
        """The full file becomes <name>.1 (replacing the one before); a new one starts."""
        assert self._fd is not None and self.path is not None
        os.close(self._fd)
        self._fd = None
        self.path.replace(self.path.with_name(self.path.name + ".1"))
        self._fd = _open_append(self.path)
        self._size = 0

    def close(self) -> None:
        with self._lock:
            fd, self._fd = self._fd, None
            if fd is not None:
                os.close(fd)


def _open_append(path: Path) -> int:
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    return os.open(path, flags, 0o644)


def read_audit(path: Path | str) -> list[dict[str, Any]]:
    """The log's records, for the tools that read it: whole lines only. A last line with
    no newline (a writer killed midway, or a log from before lines were cut back) and any
    line that is not a JSON object are passed over, never a crash."""
    data = Path(path).read_bytes()
    records = []
    for raw in data.split(b"\n")[:-1]:
        try:
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue
        if isinstance(record, dict):
            records.append(record)
    return records
