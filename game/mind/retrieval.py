"""Retrieval: which memories matter now (Park et al. 2023, section 4.1).

score(m) = w_rec * recency(m) + w_imp * importance(m) + w_rel * relevance(m, query), each
component min-max normalised to [0, 1] over the candidate set.

- recency, RecencyUnit.GAME_HOURS (the paper): decay ** (game hours since m was last
  accessed). A last access later than `now` counts as 0 hours.
- recency, RecencyUnit.POSITION (the original code's intent): decay ** rank, where rank 1 is
  the most recently accessed candidate, rank 2 the next, ...; equal access times rank the
  newer memory (higher index) first. (The original code sorted oldest-first and so gave the
  *oldest* memory the highest recency; we implement what it meant.)
- importance: the stored 1..10.
- relevance: cosine similarity; stored embeddings are unit vectors and the query is
  normalised here, so it is one matrix-vector product.

When a component is constant over the candidates (max == min, e.g. a single candidate, or
every memory equally important) every candidate gets 0.5 for it, as the original code's
normalisation does: a constant carries no information, and 0.5 keeps it from tipping the
balance either way while keeping scores comparable in size.

Everything here only reads a `MemoryView`; nothing is mutated, so a worker thread may call
it. The caller touches the returned memories (`MemoryStream.touch`) on the owner's thread.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

import numpy as np

from game.core.clock import hours_since_epoch
from game.core.mind_settings import RecencyUnit, RetrievalSettings
from game.core.records import MemoryKind
from game.mind.memory import MemoryView

# Below this share of the stream, gather the candidates' embedding rows before the product;
# above it, multiplying the whole (contiguous) matrix and picking results is cheaper.
_GATHER_SHARE = 0.25
# Up to this many candidates, top_k sorts them all: the same order as partitioning first
# (score, then the higher index), in one call instead of a dozen.
_SORT_WHOLE = 640


def score(
    view: MemoryView,
    query: np.ndarray,
    now: datetime,
    settings: RetrievalSettings,
    candidates: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(candidate indices ascending, their scores as float64). See the module docstring.

    `candidates` restricts the memories considered (None = all); with settings.skip_idle,
    memories mentioning the word "idle" are dropped from them.
    """
    cand = _candidates(view, settings, candidates)
    queries = _unit_queries(query, view.dim)
    base = _base_scores(view, now, settings, cand)
    relevance = _relevance(view, queries, cand)[:, 0]
    total = base + settings.relevance_weight * _minmax(relevance)
    return _indices(view, cand), total


def retrieve(
    view: MemoryView,
    query: np.ndarray,
    now: datetime,
    settings: RetrievalSettings,
    k: int | None = None,
    kinds: Collection[MemoryKind] | None = None,
) -> list[int]:
    """Indices of the top-k memories (k defaults to settings.k), best first.

    Ties go to the newer memory (higher index). Reads only; the caller touches the result.
    """
    single = np.asarray(query, dtype=np.float32).reshape(1, -1)  # (dim,) or (1, dim) only
    return retrieve_many(view, single, now, settings, k, kinds)[0]


def retrieve_many(
    view: MemoryView,
    queries: np.ndarray,
    now: datetime,
    settings: RetrievalSettings,
    k: int | None = None,
    kinds: Collection[MemoryKind] | None = None,
) -> list[list[int]]:
    """`retrieve` for several queries (m, dim) at once: one matrix product, shared recency.

    Reflection asks three questions of the same stream; this scores them in one pass.
    """
    k = settings.k if k is None else k
    queries = _unit_queries(queries, view.dim)
    cand = _candidates(view, settings, _kind_candidates(view, kinds))
    indices = _indices(view, cand)
    if k <= 0 or len(indices) == 0:
        return [[] for _ in range(len(queries))]
    base = _base_scores(view, now, settings, cand)
    relevance = _relevance(view, queries, cand)
    results = []
    for column in range(relevance.shape[1]):  # one pass per query, not per memory
        total = base + settings.relevance_weight * _minmax(relevance[:, column])
        results.append(top_k(indices, total, k))
    return results


def retrieve_each(
    view: MemoryView,
    queries: np.ndarray,
    now: datetime,
    settings: RetrievalSettings,
    k: int | None = None,
    kinds: Collection[MemoryKind] | None = None,
) -> list[list[int]]:
    """`retrieve` for each query (m, dim), exactly as one call each would give: the
    candidates and the query-independent scores worked out once, each query's relevance
    its own matrix-vector product (a product of all m at once may round otherwise).

    Why: a recall asks two or three queries of one stream, and half the cost of each
    `retrieve` was the same candidates, recency and importance again.
    """
    k = settings.k if k is None else k
    rows = np.asarray(queries, dtype=np.float32)
    rows = rows.reshape(1, -1) if rows.ndim == 1 else rows
    cand, indices, base = _shared(view, now, settings, kinds)
    if k <= 0 or len(indices) == 0:
        return [[] for _ in range(len(rows))]
    results = []
    for row in rows:
        single = _unit_queries(row.reshape(1, -1), view.dim)
        relevance = _relevance_of(view, single, cand)
        results.append(top_k(indices, base + settings.relevance_weight * _minmax(relevance), k))
    return results


def _shared(
    view: MemoryView,
    now: datetime,
    settings: RetrievalSettings,
    kinds: Collection[MemoryKind] | None,
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """The candidates, their indices and their query-independent scores, kept on the view
    (a snapshot: they cannot change) for its next retrieval at the same time: a job
    recalls several times from one snapshot (each turn of a conversation, each thing
    seen), and each worked them out again."""
    key = (now, settings, None if kinds is None else tuple(kinds))
    memo = view.memo
    held = memo.get(key) if memo is not None else None
    if held is None:
        cand = _candidates(view, settings, _kind_candidates(view, kinds))
        indices = _indices(view, cand)
        base = _base_scores(view, now, settings, cand) if len(indices) else np.zeros(0)
        base.setflags(write=False)
        held = (cand, indices, base)
        if memo is not None:
            memo[key] = held
    return held


def top_k(indices: np.ndarray, scores: np.ndarray, k: int) -> list[int]:
    """The k best `indices` by score, best first; equal scores put the higher index first.

    argpartition finds the k-th best score in O(n); everything tying with it is kept so the
    tie rule is exact, then only that short list is sorted.
    """
    m = len(scores)
    if k <= 0 or m == 0:
        return []
    if m <= _SORT_WHOLE:  # one sort of all beats the partition's dozen small steps
        return indices[np.lexsort((-indices, -scores))[:k]].tolist()
    if k < m:
        part = np.argpartition(scores, m - k)[m - k :]
        keep = np.flatnonzero(scores >= scores[part].min())
    else:
        keep = np.arange(m)
    order = np.lexsort((-indices[keep], -scores[keep]))[:k]
    return indices[keep[order]].tolist()


# -- components ----------------------------------------------------------------------------


def _base_scores(
    view: MemoryView, now: datetime, settings: RetrievalSettings, cand: np.ndarray | None
) -> np.ndarray:
    """The query-independent part: weighted, normalised recency plus importance."""
    recency = _minmax(_recency(view, now, settings, cand))
    importance = _minmax(_pick(view.importance, cand).astype(np.float64))
    return settings.recency_weight * recency + settings.importance_weight * importance


def _recency(
    view: MemoryView, now: datetime, settings: RetrievalSettings, cand: np.ndarray | None
) -> np.ndarray:
    accessed = _pick(view.accessed, cand)
    if settings.recency_unit is RecencyUnit.GAME_HOURS:
        hours = np.maximum(hours_since_epoch(now) - accessed, 0.0)
        return np.power(settings.decay, hours)
    # POSITION: rank by last access, newest first; equal times -> higher index first.
    order = np.lexsort((_indices(view, cand), accessed))[::-1]
    ranks = np.empty(len(accessed), dtype=np.float64)
    ranks[order] = np.arange(1, len(accessed) + 1, dtype=np.float64)
    return np.power(settings.decay, ranks)


def _relevance(view: MemoryView, queries: np.ndarray, cand: np.ndarray | None) -> np.ndarray:
    """Cosine of each candidate with each query: (len(cand), m) float32."""
    emb = view.embeddings
    if cand is None:
        return emb @ queries.T
    if len(cand) < _GATHER_SHARE * len(emb):
        return emb[cand] @ queries.T
    return (emb @ queries.T)[cand]


def _relevance_of(view: MemoryView, query: np.ndarray, cand: np.ndarray | None) -> np.ndarray:
    """`_relevance` of one (1, dim) unit query, the same values: all rows' from the
    stream's kept relevance where the view has it (game.mind.relevance: only the rows
    added since that query was last asked are multiplied), as gathering few does not."""
    emb, kept = view.embeddings, view.relevance
    if kept is None or (cand is not None and len(cand) < _GATHER_SHARE * len(emb)):
        return _relevance(view, query, cand)[:, 0]
    whole = kept.relevance(emb, query, view.settled)
    return whole if cand is None else whole[cand]


def _minmax(values: np.ndarray) -> np.ndarray:
    """Scale to [0, 1] over the candidates; a constant component -> 0.5 everywhere."""
    values = values.astype(np.float64, copy=False)
    if len(values) == 0:
        return values
    low, high = values.min(), values.max()
    if high == low:
        return np.full(len(values), 0.5)
    return (values - low) / (high - low)


# -- candidates ----------------------------------------------------------------------------


def _kind_candidates(view: MemoryView, kinds: Collection[MemoryKind] | None) -> np.ndarray | None:
    if kinds is None or set(kinds) >= set(MemoryKind):
        return None
    return np.flatnonzero(view.mask(kinds))


def _candidates(
    view: MemoryView, settings: RetrievalSettings, candidates: np.ndarray | None
) -> np.ndarray | None:
    """Sorted unique candidate indices, or None meaning "all n" (saves a gather)."""
    if candidates is not None:
        cand = np.unique(np.asarray(candidates, dtype=np.int64))
        if len(cand) and (cand[0] < 0 or cand[-1] >= view.n):
            raise IndexError(f"candidate indices must lie in 0..{view.n - 1}")
    else:
        cand = None
    if settings.skip_idle and view.idle.any():
        if cand is None:
            return np.flatnonzero(~view.idle)
        return cand[~view.idle[cand]]
    return cand


def _indices(view: MemoryView, cand: np.ndarray | None) -> np.ndarray:
    return np.arange(view.n) if cand is None else cand


def _pick(column: np.ndarray, cand: np.ndarray | None) -> np.ndarray:
    return column if cand is None else column[cand]


def _unit_queries(queries: np.ndarray, dim: int) -> np.ndarray:
    """(m, dim) float32 unit rows; a 1-D query becomes one row. Zero rows stay zero."""
    q = np.asarray(queries, dtype=np.float32)
    q = q.reshape(1, -1) if q.ndim == 1 else q
    if q.ndim != 2 or q.shape[1] != dim:
        raise ValueError(f"query shape {np.shape(queries)} does not match embedding dim {dim}")
    norms = np.sqrt(np.add.reduce(q * q, axis=1, keepdims=True))  # np.linalg.norm's sum
    if not np.isfinite(norms).all() and not np.all(np.isfinite(q)):  # a finite norm: all are
        raise ValueError("query has NaN or infinite values")
    return np.divide(q, norms, out=np.zeros_like(q), where=norms > 0)
