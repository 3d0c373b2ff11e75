"""Offline embedders: hashed word and character n-grams, and a cache by text.

`HashEmbedder` needs no model download, so the town has working retrieval with no network at
all. It is a "feature hashing" bag of n-grams: word unigrams carry topic, word bigrams carry
phrases ("valentine day"), and character trigrams let related word forms ("party",
"parties", "partying") share buckets. A stable hash (crc32) keeps vectors identical across
processes and Python versions, so a save's embeddings stay meaningful when reloaded; Python's
built-in `hash()` is salted per process and must never be used here.
"""

from __future__ import annotations

import re
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from game.brains.protocol import Embedder

WORD_WEIGHT = 1.0
BIGRAM_WEIGHT = 0.7
TRIGRAM_WEIGHT = 0.5

# Words so common that they would make every sentence look alike. Kept tiny on purpose:
# a longer list starts throwing away meaning ("not", "with", "before" matter to a plan).
_STOP_WORDS = (
    "a an the is are was were be been am i to of and or in on at for it its this that "
    "he she they them his her their my me we our you your by as s"
)
STOP_WORDS = frozenset(_STOP_WORDS.split())

_APOSTROPHE_S = re.compile(r"['\u2019]s\b")
_APOSTROPHE = re.compile(r"['\u2019]")
_WORD = re.compile(r"[a-z0-9]+")
_WORD_CACHE_LIMIT = 200_000  # distinct words remembered by one HashEmbedder


def tokenize(text: str) -> list[str]:
    """Lower-cased content words: possessive 's dropped, stop words removed."""
    text = _APOSTROPHE.sub("", _APOSTROPHE_S.sub("", text.lower()))
    return [w for w in _WORD.findall(text) if w not in STOP_WORDS]


class HashEmbedder:
    """Text -> unit float32 vector by hashing n-grams into `dim` signed buckets.

    Deterministic and thread-safe (the per-word feature cache is only ever filled with
    values that any thread would compute identically, and dict updates are atomic).
    """

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise ValueError(f"HashEmbedder needs dim >= 8, got {dim}")
        self.dim = dim
        self.name = f"hash-ngram-{dim}"
        # word -> (buckets, signed weights) of its unigram and character trigrams: words
        # repeat endlessly in a town's memories, so each is hashed once.
        self._word_features: dict[str, tuple[list[int], list[float]]] = {}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 (len(texts), dim), rows L2-normalised; a text with no words -> zero row."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            buckets, weights = self._features(text)
            if buckets:
                out[row] = np.bincount(buckets, weights=weights, minlength=self.dim)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def later(self, texts: Sequence[str]) -> None:
        """Nothing to fetch: `peek` gives every vector at once."""

    def peek(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Everything: hashing costs no request."""
        texts = list(dict.fromkeys(texts))
        return dict(zip(texts, self.embed(texts), strict=True)) if texts else {}

    def _features(self, text: str) -> tuple[list[int], list[float]]:
        words = tokenize(text)
        buckets: list[int] = []
        weights: list[float] = []
        for word in words:
            wb, ww = self._word(word)
            buckets += wb
            weights += ww
        for first, second in zip(words, words[1:], strict=False):
            bucket, sign = self._hash("b:" + first + " " + second)
            buckets.append(bucket)
            weights.append(sign * BIGRAM_WEIGHT)
        return buckets, weights

    def _word(self, word: str) -> tuple[list[int], list[float]]:
        cached = self._word_features.get(word)
        if cached is not None:
            return cached
        bucket, sign = self._hash("w:" + word)
        buckets, weights = [bucket], [sign * WORD_WEIGHT]
        padded = f" {word} "
        for start in range(len(padded) - 2):
            bucket, sign = self._hash("t:" + padded[start : start + 3])
            buckets.append(bucket)
            weights.append(sign * TRIGRAM_WEIGHT)
        if len(self._word_features) >= _WORD_CACHE_LIMIT:
            self._word_features.clear()  # crude but bounded; refills with what is in use
        self._word_features[word] = (buckets, weights)
        return buckets, weights

    def _hash(self, feature: str) -> tuple[int, float]:
        """Stable bucket and sign: the low bit picks the sign, the rest the bucket."""
        h = zlib.crc32(feature.encode("utf-8"))
        return (h >> 1) % self.dim, (1.0 if h & 1 else -1.0)


@runtime_checkable
class TakesRiders(Protocol):
    """An embedder that can send texts along with its next request (a remote one)."""

    def ride(self, texts: Sequence[str], deliver: Callable[[str, np.ndarray], None]) -> None: ...


class CachedEmbedder:
    """Wraps any Embedder with a thread-safe LRU cache by exact text.

    Only the misses of a call are sent to the inner embedder, in one batch: for a remote
    embedder that is one request instead of many. The lock is not held while the inner
    embedder works, so a slow request does not stall other threads' cache hits.
    """

    def __init__(self, inner: Embedder, max_items: int = 50_000) -> None:
        if max_items < 1:
            raise ValueError(f"max_items must be >= 1, got {max_items}")
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.max_items = max_items
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._cache)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 (len(texts), dim); identical to the inner embedder's rows."""
        texts = list(texts)
        found = self._lookup(texts)
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            fresh = np.asarray(self.inner.embed(missing), dtype=np.float32)
            if fresh.shape != (len(missing), self.dim):
                raise ValueError(
                    f"embedder {self.inner.name!r} returned shape {fresh.shape}, "
                    f"expected {(len(missing), self.dim)}"
                )
            fresh.setflags(write=False)
            found.update(zip(missing, fresh, strict=True))
            self._store(missing, fresh)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = found[text]
        return out

    def peek(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The cached vectors, plus whatever the inner embedder has at no cost (kept)."""
        found = self._lookup(list(texts), count=False)
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            free = self.inner.peek(missing)
            if free:
                self._store(list(free), np.stack(list(free.values())).astype(np.float32))
                found.update(free)
        return found

    def later(self, texts: Sequence[str]) -> None:
        """Fetch these texts with the next request the inner embedder makes, if it can
        take riders (a remote one), or soon on their own: off the path of the job that
        will need them."""
        if not isinstance(self.inner, TakesRiders):
            return
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            self.inner.ride(missing, self._keep)

    def _keep(self, text: str, vector: np.ndarray) -> None:
        frozen = np.asarray(vector, dtype=np.float32).copy()
        frozen.setflags(write=False)
        self._store([text], frozen[None, :])

    def _lookup(self, texts: list[str], count: bool = True) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for text in texts:
                vector = self._cache.get(text)
                if vector is not None:
                    self._cache.move_to_end(text)
                    found[text] = vector
                    self.hits += count
                else:
                    self.misses += count
        return found

    def _store(self, texts: list[str], vectors: np.ndarray) -> None:
        with self._lock:
            for text, vector in zip(texts, vectors, strict=True):
                self._cache[text] = vector
                self._cache.move_to_end(text)
            while len(self._cache) > self.max_items:
                self._cache.popitem(last=False)
