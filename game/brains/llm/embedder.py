"""Embeddings from the endpoint's /v1/embeddings, or the offline embedder when it has none.

The choice is made once, before the town is built, by one probe request: a save's memory
stream holds vectors of one embedder only, so the embedder can never switch mid-game.
If the endpoint later fails a request, the texts get zero vectors (no relevance, the
other two retrieval scores still work) rather than vectors from another space.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from game.brains.embed import CachedEmbedder, HashEmbedder
from game.brains.llm.client import ChatClient
from game.brains.llm.model import BadReply, Cancelled, ModelError, NoEmbeddings
from game.brains.llm.replies import MAX_DIM

PROBE = "Smallville"


class _Ticket:
    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.rows: np.ndarray | None = None
        self.done = threading.Event()


class OpenAIEmbedder:
    """Texts -> unit vectors through the client.

    Concurrent callers are coalesced: while `inflight` requests are on the wire, texts
    from other threads queue and leave together in the next request (up to `batch`
    texts). Lockstep jobs of one step thus share embedding requests instead of sending
    one each; the recording is per text, so batching never disturbs a replay.
    """

    def __init__(
        self,
        client: ChatClient,
        model: str,
        dim: int,
        batch: int = 128,
        notify: Callable[[str], None] = lambda message: None,
        inflight: int = 2,
    ) -> None:
        self.client = client
        self.name = f"openai:{model}"
        self.dim = dim
        self.batch = max(1, batch)
        self._notify = notify
        self._warned = threading.Event()
        self._queue: list[_Ticket] = []
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(max(1, inflight))
        # Texts wanted soon but by nobody yet: they ride along with the next request.
        self._riders: dict[str, Callable[[str, np.ndarray], None]] = {}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        ticket = _Ticket(list(texts))
        if not ticket.texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            self._queue.append(ticket)
        while not ticket.done.is_set():
            if self._slots.acquire(blocking=False):
                try:
                    self._flush(self._drain())
                finally:
                    self._slots.release()
            else:
                ticket.done.wait(0.005)
        assert ticket.rows is not None
        return ticket.rows

    def peek(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Nothing: every vector of this embedder costs a request (CachedEmbedder keeps
        the ones already fetched)."""
        return {}

    def later(self, texts: Sequence[str]) -> None:
        """Nothing to keep them in: CachedEmbedder rides them (see `ride`)."""

    def ride(self, texts: Sequence[str], deliver: Callable[[str, np.ndarray], None]) -> None:
        """Send these texts with the next request someone makes, and hand each vector to
        `deliver`: texts certain to be needed soon cost no request of their own."""
        with self._lock:
            for text in texts:
                self._riders.setdefault(text, deliver)

    def _drain(self) -> list[_Ticket]:
        """Queued tickets whose texts fit in one request (at least one ticket)."""
        with self._lock:
            taken, size = [], 0
            while self._queue and (not taken or size + len(self._queue[0].texts) <= self.batch):
                ticket = self._queue.pop(0)
                taken.append(ticket)
                size += len(ticket.texts)
            return taken

    def _flush(self, tickets: list[_Ticket]) -> None:
        """Answer every ticket taken, whatever happens: a waiting thread must never hang.
        Riders fill what room the last chunk has left."""
        rows: dict[str, np.ndarray] = {}
        riders: dict[str, Callable[[str, np.ndarray], None]] = {}
        try:
            texts = list(dict.fromkeys(t for ticket in tickets for t in ticket.texts))
            riders = self._take_riders(room=-len(texts) % self.batch)
            texts += [t for t in riders if t not in texts]
            for start in range(0, len(texts), self.batch):
                chunk = texts[start : start + self.batch]
                rows.update(zip(chunk, _unit(self._vectors(chunk)), strict=True))
        finally:
            zero = np.zeros(self.dim, dtype=np.float32)
            for ticket in tickets:
                ticket.rows = np.stack([rows.get(t, zero) for t in ticket.texts])
                ticket.done.set()
            for text, deliver in riders.items():
                vector = rows.get(text)
                if vector is not None and vector.any():  # a failed request teaches nothing
                    deliver(text, vector)

    def _take_riders(self, room: int) -> dict[str, Callable[[str, np.ndarray], None]]:
        with self._lock:  # the newest first: they are the likeliest to be needed soon
            items = list(self._riders.items())
            taken = dict(items[len(items) - room :]) if room > 0 else {}
            for text in taken:
                del self._riders[text]
        return taken

    def _vectors(self, texts: list[str]) -> np.ndarray:
        try:
            rows = np.asarray(self.client.embed(texts), dtype=np.float32)
        except Cancelled:  # the run is ending: nobody will read these vectors
            return np.zeros((len(texts), self.dim), dtype=np.float32)
        except ModelError as exc:
            self._warn(f"embeddings failed ({exc}); those memories get no relevance score")
            return np.zeros((len(texts), self.dim), dtype=np.float32)
        except (ValueError, TypeError, OverflowError) as exc:  # ragged or not numbers
            self._warn(f"the endpoint returned unusable embeddings ({exc}); ignored")
            return np.zeros((len(texts), self.dim), dtype=np.float32)
        if rows.shape != (len(texts), self.dim) or not np.isfinite(rows).all():
            self._warn(f"the endpoint returned embeddings of shape {rows.shape}; ignored")
            return np.zeros((len(texts), self.dim), dtype=np.float32)
        return rows

    def _warn(self, message: str) -> None:
        if not self._warned.is_set():
            self._warned.set()
            self._notify(message)


def _unit(rows: np.ndarray) -> np.ndarray:
    out = np.asarray(rows, dtype=np.float32).copy()
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


def open_embedder(
    client: ChatClient,
    enabled: bool,
    model: str,
    batch: int,
    notify: Callable[[str], None],
) -> CachedEmbedder:
    """The endpoint's embedder if a probe succeeds, else the offline one (said once)."""
    offline = CachedEmbedder(HashEmbedder())
    if not enabled:
        return offline
    try:
        dim = _probe(client)
    except NoEmbeddings as exc:  # its words say which: no /v1/embeddings, or per-token vectors
        notify(f"embeddings for {model!r}: {exc}; memories use the offline embedder {offline.name}")
        return offline
    except ModelError as exc:
        if not client.down:
            notify(f"embeddings unavailable ({exc}): memories use the offline embedder")
        return offline
    return CachedEmbedder(OpenAIEmbedder(client, model, dim, batch, notify))


def _probe(client: ChatClient) -> int:
    """The endpoint's dimension, from one vector that must be usable (finite, not empty):
    a save's whole memory stream will be in this space."""
    vector = np.asarray(client.embed([PROBE])[0], dtype=np.float64)
    if vector.ndim != 1 or not 0 < vector.size <= MAX_DIM or not np.isfinite(vector).all():
        raise BadReply(f"the probe embedding is unusable (shape {vector.shape})")
    if not np.linalg.norm(vector) > 0:
        raise BadReply("the probe embedding is all zeros")
    return int(vector.size)
