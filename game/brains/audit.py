"""The audit log the paper's ethics section asks for: every request and every answer.

One JSON object per line (messages, model, tokens, timing, outcome), appended and flushed
as it happens so a crash loses nothing. The API key is never handed to this module; as a
second guard every line passes through `redact`, which blanks any secret it was told about
(an endpoint may echo the key back inside an error message).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from game.core.text import USERINFO, public_url, url_secrets

__all__ = ["REDACTED", "AuditLog", "clipped", "public_url", "redact", "url_secrets"]

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
    (read-only, full) turns the log off with `problem` set, never the run."""

    def __init__(
        self, path: Path | None, secrets: Iterable[str] = (), max_bytes: int = MAX_BYTES
    ) -> None:
        self.path = path
        self.problem = ""
        self.max_bytes = max(1000, max_bytes)
        self._secrets = tuple(s for s in secrets if s)
        self._lock = threading.Lock()
        self._file = None
        self._size = 0
        if path is not None:
            self._open()

    def _open(self) -> None:
        assert self.path is not None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
            self._size = self.path.stat().st_size
        except OSError as exc:
            self._off(exc)

    def _off(self, exc: OSError) -> None:
        self._file = None
        self.problem = f"the audit log cannot be written ({self.path}: {exc.strerror or exc})"
        log.warning("%s", self.problem)

    def write(self, record: dict[str, Any]) -> None:
        if self._file is None:
            return
        line = json.dumps(
            {"time": datetime.now(UTC).isoformat(timespec="milliseconds"), **clipped(record)},
            ensure_ascii=False,
            default=str,
        )
        line = redact(line, self._secrets)
        with self._lock:
            if self._file is None:
                return
            try:
                if self._size + len(line) > self.max_bytes:
                    self._roll()
                self._file.write(line + "\n")
                self._file.flush()
                self._size += len(line.encode("utf-8")) + 1
            except OSError as exc:
                self._off(exc)

    def _roll(self) -> None:
        """The full file becomes <name>.1 (replacing the one before); a new one starts."""
        assert self._file is not None and self.path is not None
        self._file.close()
        self.path.replace(self.path.with_name(self.path.name + ".1"))
        self._file = self.path.open("a", encoding="utf-8")
        self._size = 0

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None
