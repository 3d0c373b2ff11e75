"""The memory stream: append-only columnar storage, and immutable views of it.

Why columns: retrieval scores every memory at once, so times, importance and kinds live in
numpy arrays and the embeddings in one (n, dim) float32 matrix; retrieval is then a handful
of vector expressions and one matrix-vector product, and a save is a couple of arrays.

Why append-only: a worker thread must be able to read a stream while the simulation keeps
adding to it, without locks. Rows below `n` never change once written (except the
last-accessed time, which `view()` copies), and growth allocates *new* arrays instead of
resizing in place, so a `MemoryView` holding the old arrays and its `n` stays valid forever.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Iterator, Sequence
from datetime import datetime
from itertools import islice
from typing import Any, overload

import numpy as np

from game.core.clock import from_hours, hours_since_epoch
from game.core.codec import decode, encode
from game.core.records import Fact, FactKind, MemoryKind, MemoryRecord, Source
from game.mind.facts import is_idle, statement
from game.mind.relevance import RelevanceCache

KINDS: tuple[MemoryKind, ...] = tuple(MemoryKind)  # int8 code -> kind (codes never saved)
_CODE = {kind: code for code, kind in enumerate(KINDS)}
_INITIAL_CAPACITY = 64
IMPORTANCE_MIN, IMPORTANCE_MAX = 1, 10


def kind_codes(kinds: Iterable[MemoryKind]) -> np.ndarray:
    """The int8 codes of `kinds`, for vectorised filtering of a `kinds` column."""
    return np.array(sorted(_CODE[MemoryKind(k)] for k in set(kinds)), dtype=np.int8)


class _Prefix(Sequence[Any]):
    """Read-only, tuple-like window on the first `n` items of a list that may keep growing.

    Appending to a list never moves its existing items, so this is safe to read from another
    thread while the owner appends.
    """

    __slots__ = ("_items", "_n")

    def __init__(self, items: list[Any], n: int) -> None:
        self._items = items
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Any, ...]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return tuple(self._items[j] for j in range(*i.indices(self._n)))
        return self._items[_check_index(i, self._n)]

    def __iter__(self) -> Iterator[Any]:
        return islice(self._items, self._n)  # in C: a memory's facts are read whole often


class _Rows:
    """Per-stream indexes of rows by what their facts say, appended in row order as the
    stream grows (so a view reads the part below its `n`, bisecting; rows written later
    are all at or above it): the memories naming an intent, an event or an answer to one,
    and the rows of each fact kind.

    Why: what a resident always has at hand (its promises, the events it heard of, the
    news it was just told) was found by reading every fact of the stream, each time it
    chose where to go or spoke a line, which grew with the stream (about 1% of memories
    name an intent; most are things seen done).
    """

    __slots__ = ("by_kind", "intents")

    def __init__(self, facts: Iterable[Fact] = ()) -> None:
        self.intents: list[int] = []
        self.by_kind: dict[FactKind, list[int]] = {kind: [] for kind in FactKind}
        for i, fact in enumerate(facts):
            self.add(i, fact)

    def add(self, i: int, fact: Fact) -> None:
        if names_intent(fact):
            self.intents.append(i)
        self.by_kind[fact.kind].append(i)


def names_intent(fact: Fact) -> bool:
    """Whether a fact names a scenario intent, a dated event or an answer to one."""
    return bool(fact.intent) or fact.event is not None or fact.rsvp is not None


def _below(rows: list[int], n: int) -> _Prefix:
    """The rows of an ascending index that lie below n, as a read-only sequence."""
    return _Prefix(rows, bisect_left(rows, n))


def _check_index(i: int, n: int) -> int:
    """Python-style index (negatives count from the end) checked against length n."""
    j = int(i)
    if j < 0:
        j += n
    if not 0 <= j < n:
        raise IndexError(f"memory index {i} out of range for {n} memories")
    return j


def _readonly(array: np.ndarray) -> np.ndarray:
    array = array.view()
    array.setflags(write=False)
    return array


def unit(embedding: np.ndarray, dim: int) -> np.ndarray:
    """A finite float32 vector of `dim` values, L2-normalised (a zero vector stays zero)."""
    vector = np.asarray(embedding, dtype=np.float32).reshape(-1)
    if vector.shape != (dim,):
        raise ValueError(f"embedding has {vector.size} values, this stream stores dim {dim}")
    if not np.all(np.isfinite(vector)):
        raise ValueError("embedding has NaN or infinite values")
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


class MemoryView:
    """An immutable snapshot of the first `n` memories of a stream, safe to read anywhere.

    Arrays are read-only numpy views of the stream's columns (no copy) except `accessed`,
    which is copied because `MemoryStream.touch` changes it in place.
    """

    def __init__(
        self,
        *,
        kinds: np.ndarray,
        created: np.ndarray,
        accessed: np.ndarray,
        importance: np.ndarray,
        embeddings: np.ndarray,
        idle: np.ndarray,
        texts: _Prefix,
        facts: _Prefix,
        evidence: _Prefix,
        embedded: np.ndarray | None = None,
        kept: list[MemoryRecord | None] | None = None,
        memo: dict[Any, Any] | None = None,
        rows: _Rows | None = None,
        relevance: RelevanceCache | None = None,
        settled: int = 0,
    ) -> None:
        self.n = len(texts)
        self.kinds = _readonly(kinds)
        self.created = _readonly(created)
        self.accessed = _readonly(accessed)
        self.importance = _readonly(importance)
        self.embeddings = _readonly(embeddings)
        self.idle = _readonly(idle)  # cached "is idle" mask, for skip_idle retrieval
        self.texts: Sequence[str] = texts
        self.facts: Sequence[Fact] = facts
        self.evidence: Sequence[tuple[int, ...]] = evidence
        # False where the vector is not known yet (a zero row until someone embeds it)
        self.embedded = _readonly(np.ones(self.n, dtype=bool) if embedded is None else embedded)
        # the stream's records made so far, by index (None: not yet), shared by its views:
        # nothing a record holds ever changes, so one made by any view serves them all
        self._kept = kept
        # what retrieval worked out from this snapshot's columns and may ask again (the
        # scores that do not depend on the query: game.mind.retrieval); None for a view
        # of live columns, which would go stale
        self.memo = memo
        self._rows = rows  # None: worked out from `facts` when first asked
        # the stream's recent queries' relevance (game.mind.relevance), for the rows below
        # `settled`, whose vectors were known when this was taken and never change
        self.relevance = relevance
        self.settled = settled

    def naming_intents(self) -> Sequence[int]:
        """Indices, ascending, of the memories whose fact names an intent, an event or an
        answer to one (`names_intent`): read from the stream's index, not every fact."""
        return _below(self._index().intents, self.n)

    def of_fact_kind(self, kind: FactKind) -> Sequence[int]:
        """Indices, ascending, of the memories whose fact is of `kind`."""
        return _below(self._index().by_kind[FactKind(kind)], self.n)

    def _index(self) -> _Rows:
        if self._rows is None:
            self._rows = _Rows(self.facts)
        return self._rows

    def missing(self) -> list[int]:
        """Memories whose vector is not known yet: a retrieval embeds them with its query."""
        return np.flatnonzero(~self.embedded).tolist()

    def with_vectors(self, indices: Sequence[int], vectors: np.ndarray) -> MemoryView:
        """This view with those rows' vectors known (a copy of the vector column; the
        stream is untouched: its owner fills it in, see MemoryStream.fill)."""
        if not len(indices):
            return self
        embeddings = self.embeddings.copy()
        embedded = self.embedded.copy()
        for i, vector in zip(indices, vectors, strict=True):
            embeddings[i] = unit(vector, self.dim)
            embedded[i] = True
        return MemoryView(
            kinds=self.kinds,
            created=self.created,
            accessed=self.accessed,
            importance=self.importance,
            embeddings=embeddings,
            idle=self.idle,
            texts=self.texts,
            facts=self.facts,
            evidence=self.evidence,
            embedded=embedded,
            kept=self._kept,
            memo=self.memo,  # the vectors are not in what it holds
            rows=self._rows,
            relevance=self.relevance,
            settled=self.settled,  # rows filled in here are not the stream's yet
        )

    @property
    def dim(self) -> int:
        return int(self.embeddings.shape[1])

    def __len__(self) -> int:
        return self.n

    def text(self, i: int) -> str:
        return self.texts[i]

    def record(self, i: int) -> MemoryRecord:
        """The memory as the brain sees it: made once, then kept (retrieval hands the same
        memories back over and over, and making a record cost more than finding it)."""
        j = _check_index(i, self.n)
        kept = self._kept
        if kept is None:
            return self._make_record(j)
        found = kept[j]
        if found is None:
            found = kept[j] = self._make_record(j)
        return found

    def _make_record(self, j: int) -> MemoryRecord:
        return MemoryRecord(
            index=j,
            kind=KINDS[int(self.kinds[j])],
            text=self.texts[j],
            created=from_hours(float(self.created[j])),
            importance=int(self.importance[j]),
            fact=self.facts[j],
            evidence=self.evidence[j],
        )

    def records(self, indices: Iterable[int]) -> list[MemoryRecord]:
        return [self.record(int(i)) for i in indices]

    def mask(self, kinds: Collection[MemoryKind] | None = None) -> np.ndarray:
        """Boolean mask over the n memories: of one of `kinds` (all when None)."""
        if kinds is None:
            return np.ones(self.n, dtype=bool)
        return np.isin(self.kinds, kind_codes(kinds))


class MemoryStream:
    """One agent's memories. Owned by the simulation thread; workers read `view()`s."""

    def __init__(self, dim: int, capacity: int = _INITIAL_CAPACITY) -> None:
        if dim < 1:
            raise ValueError(f"embedding dim must be >= 1, got {dim}")
        self.dim = dim
        self._n = 0
        self._alloc(max(1, capacity))
        self._texts: list[str] = []
        self._facts: list[Fact] = []
        self._evidence: list[tuple[int, ...]] = []
        self._records: list[MemoryRecord | None] = []  # made when first read (MemoryView)
        self._missing: list[int] = []  # added without a vector, not filled in yet
        self._rows = _Rows()  # which rows name an intent, of each fact kind
        self._relevance = RelevanceCache()  # recent queries' relevance, for views

    # -- storage -----------------------------------------------------------------------------

    def _alloc(self, capacity: int) -> None:
        """(Re)allocate columns as NEW arrays, copying the first n rows.

        Never resize in place: views handed out earlier keep the old arrays.
        """
        n = self._n
        old = getattr(self, "_kinds", None)
        kinds = np.zeros(capacity, dtype=np.int8)
        created = np.zeros(capacity, dtype=np.float64)
        accessed = np.zeros(capacity, dtype=np.float64)
        importance = np.zeros(capacity, dtype=np.int16)
        embeddings = np.zeros((capacity, self.dim), dtype=np.float32)
        idle = np.zeros(capacity, dtype=bool)
        embedded = np.zeros(capacity, dtype=bool)
        if old is not None and n:
            kinds[:n] = self._kinds[:n]
            created[:n] = self._created[:n]
            accessed[:n] = self._accessed[:n]
            importance[:n] = self._importance[:n]
            embeddings[:n] = self._embeddings[:n]
            idle[:n] = self._idle[:n]
            embedded[:n] = self._embedded[:n]
        self._kinds, self._created, self._accessed = kinds, created, accessed
        self._importance, self._embeddings, self._idle = importance, embeddings, idle
        self._embedded = embedded

    @property
    def capacity(self) -> int:
        return len(self._kinds)

    def __len__(self) -> int:
        return self._n

    # -- writing (owner thread only) ---------------------------------------------------------

    def add(
        self,
        kind: MemoryKind,
        text: str,
        created: datetime,
        importance: int,
        embedding: np.ndarray | None,
        fact: Fact | None = None,
        evidence: Sequence[int] = (),
    ) -> int:
        """Append a memory (its text rendered from `fact`) and return its index.

        Without a `fact` the text is kept as a plain statement: only tests and tools
        write memories that way; the architecture always passes the fields.

        Importance is clamped to 1..10 (a model may answer 0 or 11). The embedding is
        L2-normalised so relevance is a plain dot product. Without one (None) the vector
        is filled in later (`fill`): embedding waits until a retrieval needs it, so a
        memory costs no request of its own. Evidence must point at memories that already
        exist: a reflection rests on what came before it.
        """
        kind = MemoryKind(kind)
        known = embedding is not None
        vector = self._check_embedding(embedding) if known else np.zeros(self.dim, np.float32)
        ev = self._check_evidence(evidence, self._n)
        if self._n == self.capacity:
            self._alloc(self.capacity * 2)
        i = self._n
        hours = hours_since_epoch(created)
        self._kinds[i] = _CODE[kind]
        self._created[i] = hours
        self._accessed[i] = hours
        self._importance[i] = min(IMPORTANCE_MAX, max(IMPORTANCE_MIN, int(importance)))
        self._embeddings[i] = vector
        self._embedded[i] = known
        if not known:
            self._missing.append(i)
        fact = fact or statement("", str(text), Source.SEEN)
        self._idle[i] = is_idle(fact)
        self._texts.append(str(text))
        self._facts.append(fact)
        self._evidence.append(ev)
        self._records.append(None)
        self._rows.add(i, fact)
        self._n = i + 1  # last: a row becomes visible only once fully written
        return i

    def _check_embedding(self, embedding: np.ndarray) -> np.ndarray:
        return unit(embedding, self.dim)

    def missing(self) -> list[int]:
        """Memories whose vector is not known yet, oldest first."""
        return list(self._missing)

    def fill(self, vectors: dict[int, np.ndarray]) -> None:
        """Put in vectors of memories added without one (owner thread only)."""
        for i, vector in vectors.items():
            j = _check_index(i, self._n)
            if not self._embedded[j]:
                self._embeddings[j] = self._check_embedding(vector)
                self._embedded[j] = True
        self._missing = [i for i in self._missing if not self._embedded[i]]

    @staticmethod
    def _check_evidence(evidence: Iterable[int], limit: int) -> tuple[int, ...]:
        ev = tuple(int(e) for e in evidence)
        bad = [e for e in ev if not 0 <= e < limit]
        if bad:
            raise ValueError(f"evidence {bad} must index earlier memories (0..{limit - 1})")
        return ev

    def touch(self, indices: Iterable[int], when: datetime) -> None:
        """Mark memories as accessed at `when` (the paper: retrieved memories get fresher)."""
        idx = np.fromiter((_check_index(i, self._n) for i in indices), dtype=np.int64)
        self._accessed[idx] = hours_since_epoch(when)

    # -- reading -----------------------------------------------------------------------------

    def view(self) -> MemoryView:
        """A snapshot of the first n memories for another thread: O(n) for `accessed` only."""
        return self._view(copy_accessed=True)

    def _view(self, copy_accessed: bool) -> MemoryView:
        n = self._n
        accessed = self._accessed[:n]
        return MemoryView(
            kinds=self._kinds[:n],
            created=self._created[:n],
            accessed=accessed.copy() if copy_accessed else accessed,
            importance=self._importance[:n],
            embeddings=self._embeddings[:n],
            idle=self._idle[:n],
            texts=_Prefix(self._texts, n),
            facts=_Prefix(self._facts, n),
            evidence=_Prefix(self._evidence, n),
            embedded=self._embedded[:n].copy() if self._missing else None,
            kept=self._records,
            memo={} if copy_accessed else None,
            rows=self._rows,
            relevance=self._relevance if copy_accessed else None,
            settled=self._missing[0] if self._missing else n,
        )

    def record(self, i: int) -> MemoryRecord:
        return self._view(copy_accessed=False).record(i)

    def records(self, indices: Iterable[int]) -> list[MemoryRecord]:
        return self._view(copy_accessed=False).records(indices)

    def text(self, i: int) -> str:
        return self._texts[_check_index(i, self._n)]

    def recent(self, n: int, kinds: Collection[MemoryKind] | None = None) -> list[int]:
        """Indices of the last `n` memories (of `kinds`, if given), oldest first."""
        if n <= 0:
            return []
        if kinds is None:
            return list(range(max(0, self._n - n), self._n))
        mask = np.isin(self._kinds[: self._n], kind_codes(kinds))
        return np.flatnonzero(mask)[-n:].tolist()

    def counts(self) -> dict[str, int]:
        """How many memories of each kind, by kind value ('observation': 12, ...)."""
        tally = np.bincount(self._kinds[: self._n], minlength=len(KINDS))
        return {kind.value: int(tally[code]) for code, kind in enumerate(KINDS)}

    # -- saving ------------------------------------------------------------------------------

    def get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """(JSON-able document, arrays for an .npz). Kinds are saved by name, not code."""
        n = self._n
        doc = {
            "dim": self.dim,
            "kinds": [KINDS[int(c)].value for c in self._kinds[:n]],
            "texts": list(self._texts),
            "facts": [encode(f, compact=True) for f in self._facts],
            "evidence": [list(ev) for ev in self._evidence],
        }
        arrays = {
            "created": self._created[:n].copy(),
            "accessed": self._accessed[:n].copy(),
            "importance": self._importance[:n].copy(),
            "embeddings": self._embeddings[:n].copy(),
        }
        return doc, arrays

    @classmethod
    def from_state(cls, doc: dict[str, Any], arrays: dict[str, np.ndarray]) -> MemoryStream:
        """Rebuild a stream from `get_state()` output; ValueError says what is wrong."""
        dim, n = _validate_state(doc, arrays)
        stream = cls(dim, capacity=max(_INITIAL_CAPACITY, n))
        stream._kinds[:n] = [_CODE[MemoryKind(k)] for k in doc["kinds"]]
        stream._created[:n] = arrays["created"]
        stream._accessed[:n] = arrays["accessed"]
        stream._importance[:n] = arrays["importance"]
        stream._embeddings[:n] = arrays["embeddings"]
        stream._embedded[:n] = True  # a save is written with every vector known
        facts = [_fact(i, f) for i, f in enumerate(doc["facts"])]
        stream._idle[:n] = [is_idle(f) for f in facts]
        stream._texts = [str(t) for t in doc["texts"]]
        stream._facts = facts
        stream._evidence = [tuple(int(e) for e in ev) for ev in doc["evidence"]]
        stream._records = [None] * n
        stream._rows = _Rows(facts)
        stream._n = n
        return stream


def _fact(i: int, data: Any) -> Fact:
    try:
        return decode(Fact, data)
    except (TypeError, ValueError, KeyError) as exc:
        raise ValueError(f"memory {i} has a damaged fact: {exc}") from None


def _validate_state(doc: dict[str, Any], arrays: dict[str, np.ndarray]) -> tuple[int, int]:
    """Check a saved stream is whole and consistent; returns (dim, n)."""
    missing = [k for k in ("dim", "kinds", "texts", "facts", "evidence") if k not in doc]
    missing += [k for k in ("created", "accessed", "importance", "embeddings") if k not in arrays]
    if missing:
        raise ValueError(f"memory stream state is missing {missing}")
    dim, n = int(doc["dim"]), len(doc["texts"])
    for key in ("kinds", "facts", "evidence"):
        if len(doc[key]) != n:
            raise ValueError(f"memory stream state has {len(doc[key])} {key} for {n} texts")
    for key in ("created", "accessed", "importance"):
        shape = np.shape(arrays[key])
        if shape != (n,):
            raise ValueError(f"memory stream array {key!r} has shape {shape}, expected ({n},)")
    shape = np.shape(arrays["embeddings"])
    if shape != (n, dim):
        raise ValueError(f"memory stream embeddings have shape {shape}, expected ({n}, {dim})")
    unknown = sorted({k for k in doc["kinds"]} - {k.value for k in KINDS})
    if unknown:
        raise ValueError(f"memory stream state has unknown memory kinds {unknown}")
    importance = np.asarray(arrays["importance"])
    if n and (importance.min() < IMPORTANCE_MIN or importance.max() > IMPORTANCE_MAX):
        raise ValueError("memory stream importance values must lie in 1..10")
    for i, ev in enumerate(doc["evidence"]):
        if any(not 0 <= int(e) < i for e in ev):
            raise ValueError(f"memory {i} cites evidence {list(ev)} outside 0..{i - 1}")
    return dim, n
