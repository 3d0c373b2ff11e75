"""The offline hash embedder and the cache by text."""

import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from game.brains.embed import CachedEmbedder, HashEmbedder, tokenize
from game.brains.protocol import Embedder

ROOT = Path(__file__).resolve().parents[2]
PARTY = "Isabella is planning a Valentine's Day party"
CAFE = "the party at Hobbs Cafe on Valentine's Day"
KLAUS = "Klaus is reading about gentrification"


def test_protocol_and_shape():
    emb = HashEmbedder()
    assert isinstance(emb, Embedder)
    assert emb.dim == 256 and emb.name == "hash-ngram-256"
    out = emb.embed([PARTY, CAFE, KLAUS])
    assert out.dtype == np.float32 and out.shape == (3, 256)
    assert emb.embed([]).shape == (0, 256)
    assert HashEmbedder(dim=64).embed([PARTY]).shape == (1, 64)


def test_rows_are_unit_and_empty_text_is_a_zero_row():
    out = HashEmbedder().embed([PARTY, "", "the is a", "!!!"])
    assert np.linalg.norm(out[0]) == pytest.approx(1.0, abs=1e-6)
    assert not np.any(out[1:])  # nothing but stop words and punctuation
    assert np.all(np.isfinite(out))


def test_deterministic_across_instances_and_calls():
    a = HashEmbedder().embed([PARTY, KLAUS])
    b = HashEmbedder().embed([KLAUS, PARTY])
    assert np.array_equal(a, b[::-1])


def test_stable_across_processes():
    """Python's hash() is salted per process; saved embeddings must not depend on it."""
    code = (
        "import sys; from game.brains.embed import HashEmbedder; "
        f"sys.stdout.write(HashEmbedder().embed([{PARTY!r}]).tobytes().hex())"
    )
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        outputs.add(result.stdout)
    assert outputs == {HashEmbedder().embed([PARTY]).tobytes().hex()}


def test_related_sentences_are_closer_than_unrelated():
    party, cafe, klaus = HashEmbedder().embed([PARTY, CAFE, KLAUS])
    related, unrelated = float(party @ cafe), float(party @ klaus)
    assert related > 0.35
    assert related > unrelated + 0.25


def test_tokenize_drops_stop_words_and_possessives():
    assert tokenize("Isabella's party is at THE cafe, isn't it?") == [
        "isabella",
        "party",
        "cafe",
        "isnt",
    ]


class Counting:
    """A fake Embedder that records every batch it is asked for."""

    name = "counting"
    dim = 3

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        out = np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32).reshape(-1, 3)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def test_cache_hits_do_not_call_the_inner_embedder():
    inner = Counting()
    cached = CachedEmbedder(inner)
    assert isinstance(cached, Embedder) and cached.name == "counting" and cached.dim == 3
    first = cached.embed(["a", "bb", "a"])
    assert inner.calls == [["a", "bb"]]  # misses only, deduplicated, one batch
    second = cached.embed(["bb", "ccc", "a"])
    assert inner.calls == [["a", "bb"], ["ccc"]]
    assert np.array_equal(second[0], first[1]) and np.array_equal(second[2], first[0])
    cached.embed(["ccc", "a"])
    assert len(inner.calls) == 2
    assert np.array_equal(cached.embed(["a", "bb"]), inner.embed(["a", "bb"]))


def test_cache_evicts_least_recently_used():
    inner = Counting()
    cached = CachedEmbedder(inner, max_items=2)
    cached.embed(["a", "b"])
    cached.embed(["a"])  # a is now the most recently used
    cached.embed(["c"])  # evicts b
    assert len(cached) == 2
    cached.embed(["a", "c"])
    assert inner.calls == [["a", "b"], ["c"]]
    cached.embed(["b"])
    assert inner.calls[-1] == ["b"]


def test_returned_rows_are_independent_of_the_cache():
    cached = CachedEmbedder(HashEmbedder(dim=16))
    out = cached.embed([PARTY])
    out[:] = 0.0
    assert np.any(cached.embed([PARTY]))


def test_cache_is_thread_safe():
    cached = CachedEmbedder(HashEmbedder(dim=32), max_items=50)
    texts = [f"resident {i} walks to the park" for i in range(200)]
    expected = HashEmbedder(dim=32).embed(texts)
    errors: list[str] = []

    def worker(offset: int) -> None:
        for start in range(0, 200, 7):
            chunk = texts[(start + offset) % 200 :][:7]
            got = cached.embed(chunk)
            first = texts.index(chunk[0])
            if not np.array_equal(got, expected[first : first + len(chunk)]):
                errors.append(f"mismatch at {first}")

    threads = [threading.Thread(target=worker, args=(i * 13,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(cached) <= 50
