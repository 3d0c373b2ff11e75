"""The exemplars' vectors under one embedder, computed once, not at every start.

The sentence model (`game/brains/sentence.py`) takes tens of seconds for the 1,700-odd
exemplar lines, so their vectors ship with the game (`assets/embedder/exemplars-NAME.npz`,
written by `tools/distill_embedder.py --exemplars`) under a key of the embedder's name and
the exact lines. When the exemplar data changes, the key no longer matches: the vectors are
computed once and kept in the user cache folder, so the game never reads stale ones.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from game.brains.protocol import Embedder
from game.core.errors import FileProblem
from game.core.files import write_atomic
from game.core.paths import ASSETS


def key_of(embedder: Embedder, texts: Sequence[str]) -> str:
    """What the vectors depend on: the embedder and every line, in order."""
    digest = hashlib.sha256("\n".join([embedder.name, *texts]).encode("utf-8"))
    return digest.hexdigest()[:24]


def shipped_path(embedder: Embedder) -> Path:
    return ASSETS / "embedder" / f"exemplars-{embedder.name}.npz"


def exemplar_vectors(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """float32 (len(texts), dim): the shipped vectors when their key matches, else the
    cached ones, else computed now (and cached; a cache that cannot be written only costs
    the time again next start)."""
    key = key_of(embedder, texts)
    shipped = _read(shipped_path(embedder), key)
    if shipped is not None:
        return shipped
    cached_at = _cache_path(embedder, key)
    cached = _read(cached_at, key) if cached_at is not None else None
    if cached is not None:
        return cached
    vectors = embedder.embed(list(texts)).astype(np.float32)
    if cached_at is not None:
        write(cached_at, key, vectors)
    return vectors


def write(path: Path, key: str, vectors: np.ndarray) -> None:
    """Atomically (a whole file or none), float16: the similarities need no more."""
    buffer = io.BytesIO()
    np.savez(buffer, key=np.frombuffer(key.encode(), dtype=np.uint8),
             vectors=vectors.astype(np.float16))  # fmt: skip
    with contextlib.suppress(FileProblem):  # unwritable: only the time again next start
        write_atomic(path, buffer.getvalue(), make_folder=True)


def _read(path: Path, key: str) -> np.ndarray | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            if bytes(data["key"]).decode() != key:
                return None
            vectors = data["vectors"].astype(np.float32)
    except (OSError, ValueError, KeyError):
        return None
    return vectors if np.isfinite(vectors).all() else None


def _cache_path(embedder: Embedder, key: str) -> Path | None:
    try:
        from game.core.config import cache_dir

        return cache_dir() / "exemplars" / f"{embedder.name}-{key}.npz"
    except Exception:  # noqa: BLE001 - no cache folder: compute every start
        return None
