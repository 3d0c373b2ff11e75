"""What an endpoint turned out to support, remembered per endpoint and model in the user
cache (`endpoints.json`), so the next run starts on the rung that worked instead of
learning it again from a refusal, and `doctor` can leave its verdict for the game.

The file is a convenience, never a requirement: unreadable or unwritable, it is ignored.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.core.config import OutputMode, cache_dir

FILE = "endpoints.json"
_lock = threading.Lock()


@dataclass(frozen=True)
class Settled:
    """One endpoint and model's remembered facts ('' / None where nothing is known)."""

    mode: OutputMode | None = None
    embeddings: str = ""  # 'yes', or why not
    max_parallel: int = 0  # 0 = not measured
    verdict: str = ""  # doctor's one line


def endpoint_key(endpoint: str, model: str) -> str:
    return f"{endpoint} | {model}"


class EndpointMemory:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or cache_dir() / FILE

    def get(self, endpoint: str, model: str) -> Settled:
        entry = self._load().get(endpoint_key(endpoint, model), {})
        if not isinstance(entry, dict):
            return Settled()
        try:
            mode = OutputMode(entry["mode"]) if entry.get("mode") else None
        except ValueError:
            mode = None
        parallel = entry.get("max_parallel", 0)
        return Settled(
            mode=mode if mode is not OutputMode.AUTO else None,
            embeddings=str(entry.get("embeddings", "")),
            max_parallel=parallel if isinstance(parallel, int) and parallel > 0 else 0,
            verdict=str(entry.get("verdict", "")),
        )

    def put(self, endpoint: str, model: str, **facts: Any) -> None:
        """Merge facts into the entry (an OutputMode is kept by its value)."""
        values = {k: (v.value if isinstance(v, OutputMode) else v) for k, v in facts.items()}
        with _lock:
            doc = self._load()
            key = endpoint_key(endpoint, model)
            entry = doc.get(key) if isinstance(doc.get(key), dict) else {}
            if all(entry.get(k) == v for k, v in values.items()):
                return
            doc[key] = {**entry, **values}
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                partial = self.path.with_suffix(".tmp")
                partial.write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")
                os.replace(partial, self.path)
            except OSError:
                pass  # a cache that cannot be written is only a slower next start

    def _load(self) -> dict[str, Any]:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return doc if isinstance(doc, dict) else {}
