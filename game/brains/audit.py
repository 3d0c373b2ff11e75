"""The audit log the paper's ethics section asks for: every request and every answer.

One JSON object per line (messages, model, tokens, timing, outcome), appended and flushed
as it happens so a crash loses nothing. The API key is never handed to this module; as a
second guard every line passes through `redact`, which blanks any secret it was told about
(an endpoint may echo the key back inside an error message).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REDACTED = "[redacted]"


def redact(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, REDACTED)
    return text


class AuditLog:
    """Thread-safe JSONL writer; `path=None` makes it a no-op."""

    def __init__(self, path: Path | None, secrets: Iterable[str] = ()) -> None:
        self.path = path
        self._secrets = tuple(s for s in secrets if s)
        self._lock = threading.Lock()
        self._file = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("a", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        if self._file is None:
            return
        line = json.dumps(
            {"time": datetime.now(UTC).isoformat(timespec="milliseconds"), **record},
            ensure_ascii=False,
            default=str,
        )
        line = redact(line, self._secrets)
        with self._lock:
            if self._file is not None:
                self._file.write(line + "\n")
                self._file.flush()

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None
