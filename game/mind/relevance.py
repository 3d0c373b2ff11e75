"""Relevance kept per stream: each recent query's cosines with the memories that can no
longer change, so the next retrieval with it multiplies only the rows added since.

Why: a resident asks the same few queries all day (its relationship with each neighbour,
a neighbour's name, the news), and each retrieval multiplied its whole embedding matrix
again; on a soak's seventh day that product was the largest cost growing with the stream
(about 2,000 rows of 256 floats per resident, read from memory each time).

Exactness: a retrieval must rank as one product of the whole matrix would. A BLAS gives a
row's dot product by blocks of rows counted from the first row of the call, the rows after
the last whole block by another path (and a product of one row is a dot product): so rows
are kept only in whole chunks of CHUNK rows from row 0, and the rest multiplied in one
call of two rows or more starting on a chunk's edge, which puts every row in the block
and path that one product puts it in. Whether this BLAS works that
way is checked once per dimension on random rows (`_chunks_agree`), with a BLAS known to
run one thread (as main.py sets it: on several, rows are split among them by the size of
the product); where it does not, nothing is kept and every retrieval multiplies the whole
matrix, as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from game.core.blas import blas_single_threaded

CHUNK = 64  # rows kept come in whole chunks of this many from row 0
QUERIES = 48  # the most recent queries kept per stream
_agree: dict[int, bool] = {}  # dimension -> whether chunked products equal one product


class RelevanceCache:
    """One stream's recent queries (by their unit vector's bytes) and their relevance over
    rows 0..m, m a whole number of chunks of rows that were final when it was worked out
    (their vectors known: `settled`). Shared by the stream's views, from any thread."""

    def __init__(self, queries: int = QUERIES) -> None:
        self._size = queries
        self._held: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._held)

    def relevance(self, embeddings: np.ndarray, query: np.ndarray, settled: int) -> np.ndarray:
        """`(embeddings @ query.T)[:, 0]` for a (1, dim) unit query, float32, the same values
        that product gives; rows below `settled` never change (for this stream)."""
        n = len(embeddings)
        if not _chunks_agree(int(query.shape[1])):
            return (embeddings @ query.T)[:, 0]
        key = query.tobytes()
        with self._lock:
            held = self._held.get(key)
            if held is not None:
                self._held.move_to_end(key)
        if held is None or len(held) > n:  # a snapshot older than what is kept: afresh
            held = np.zeros(0, dtype=np.float32)
        start = _start(len(held), n)
        fresh = (embeddings[start:n] @ query.T)[:, 0]
        out = np.concatenate((held[:start], fresh)) if start else fresh
        keep = min(settled, n) // CHUNK * CHUNK
        if keep > start:
            kept = out[:keep].copy()
            kept.setflags(write=False)
            with self._lock:
                self._held[key] = kept
                self._held.move_to_end(key)
                while len(self._held) > self._size:
                    self._held.popitem(last=False)
        return out


def _start(held: int, n: int) -> int:
    """Where the product of rows not kept begins: at the first row not kept, or a chunk
    before it where that would leave one row (a product of one row is a dot product, a
    path of its own)."""
    return held - CHUNK if n - held == 1 and held else held


def _chunks_agree(dim: int) -> bool:
    """Whether products started on chunk edges give each row what one product of all the
    rows gives, on random rows of this dimension (worked out once per dimension)."""
    found = _agree.get(dim)
    if found is None:  # a BLAS on several threads splits rows by the product's size
        found = _agree[dim] = blas_single_threaded() and _check(dim)
    return found


def _check(dim: int) -> bool:
    rng = np.random.default_rng(dim)
    rows = rng.standard_normal((9 * CHUNK + 3, dim)).astype(np.float32)
    for n in (1, 3, CHUNK - 1, CHUNK, CHUNK + 5, 4 * CHUNK + 1, len(rows)):
        query = rng.standard_normal((1, dim)).astype(np.float32)
        whole = (rows[:n] @ query.T)[:, 0]
        for held in range(0, n, CHUNK):
            start = _start(held, n)
            if not np.array_equal(whole[start:], (rows[start:n] @ query.T)[:, 0]):
                return False
    return True
