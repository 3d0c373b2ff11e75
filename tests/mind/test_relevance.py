"""Relevance kept per stream (game/mind/relevance): the same floats one product of the
whole matrix gives, however the stream grew between one query's retrievals."""

from datetime import timedelta

import numpy as np

from game.core.clock import EPOCH
from game.core.mind_settings import RetrievalSettings
from game.core.records import MemoryKind
from game.mind import relevance
from game.mind.memory import MemoryStream
from game.mind.relevance import CHUNK, RelevanceCache
from game.mind.retrieval import retrieve_each

DIM = 16


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_kept_relevance_is_one_products_as_the_rows_grow():
    rng = np.random.default_rng(3)
    rows = _unit(rng.standard_normal((6 * CHUNK + 7, DIM)))
    queries = _unit(rng.standard_normal((3, DIM)))
    cache = RelevanceCache()
    sizes = [1, 2, CHUNK, CHUNK + 1, CHUNK + 2, 2 * CHUNK + 1, 3 * CHUNK, 5 * CHUNK + 1]
    sizes += sorted(rng.integers(1, len(rows), size=30).tolist()) + [len(rows)]
    for n in sizes + sizes[::-1]:  # growing, then snapshots older than what is kept
        for q in queries:
            query = q.reshape(1, -1)
            got = cache.relevance(rows[:n], query, settled=n)
            assert got.dtype == np.float32
            assert np.array_equal(got, (rows[:n] @ query.T)[:, 0])
    assert len(cache) == 3


def test_rows_not_settled_are_not_kept():
    """A row whose vector is not known yet (a zero row) is multiplied each time, so the
    vector filled in later counts."""
    rng = np.random.default_rng(4)
    rows = _unit(rng.standard_normal((3 * CHUNK, DIM)))
    query = _unit(rng.standard_normal((1, DIM)))
    cache, later = RelevanceCache(), rows.copy()
    rows[CHUNK + 3] = 0.0
    cache.relevance(rows, query, settled=CHUNK + 3)
    assert np.array_equal(cache.relevance(later, query, CHUNK + 3), (later @ query.T)[:, 0])


def test_only_the_latest_queries_are_kept():
    rng = np.random.default_rng(5)
    rows = _unit(rng.standard_normal((2 * CHUNK, DIM)))
    cache = RelevanceCache(queries=4)
    for q in _unit(rng.standard_normal((9, DIM))):
        cache.relevance(rows, q.reshape(1, -1), settled=len(rows))
    assert len(cache) == 4


def test_nothing_is_kept_where_chunked_products_differ(monkeypatch):
    monkeypatch.setitem(relevance._agree, DIM, False)
    rng = np.random.default_rng(6)
    rows = _unit(rng.standard_normal((2 * CHUNK, DIM)))
    cache, query = RelevanceCache(), _unit(rng.standard_normal((1, DIM)))
    assert np.array_equal(cache.relevance(rows, query, len(rows)), (rows @ query.T)[:, 0])
    assert len(cache) == 0


def test_retrieval_from_a_growing_stream_ranks_as_without_kept_relevance():
    """Each snapshot's retrieval with the stream's kept relevance is the one without it
    (repeated memories, many ties: the floats must be the same, not merely close)."""
    rng = np.random.default_rng(8)
    texts = _unit(rng.standard_normal((12, DIM)))
    queries = np.concatenate((texts[:3], _unit(rng.standard_normal((2, DIM)))))
    stream, settings = MemoryStream(DIM), RetrievalSettings(k=8)
    when = EPOCH
    for step in range(9 * CHUNK):
        when += timedelta(minutes=5)
        stream.add(MemoryKind.OBSERVATION, f"m{step}", when, 1 + step % 7,
                   texts[int(rng.integers(0, len(texts)))])  # fmt: skip
        if step % 13 == 0 or step % CHUNK in (0, 1):
            view = stream.view()
            assert view.relevance is not None
            got = retrieve_each(view, queries, when, settings)
            view.relevance = None
            view.memo = {}
            assert got == retrieve_each(view, queries, when, settings)
