"""Embeddings from the endpoint's /v1/embeddings, or the offline embedder when it has none.

The choice is made once, before the town is built, by one probe request: a save's memory
stream holds vectors of one embedder only, so the embedder can never switch mid-game.
If the endpoint later fails a request, the texts get zero vectors (no relevance, the
other two retrieval scores still work) rather than vectors from another space.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from game.brains.embed import CachedEmbedder, HashEmbedder
from game.brains.llm.client import ChatClient
from game.brains.llm.model import BadReply, Cancelled, ModelError, NoEmbeddings
from game.brains.llm.replies import MAX_DIM

PROBE = "Smallville"
# Seconds riders wait for someone's request to take them along before going on their own.
LINGER = 1.0
LANDED = 4096  # vectors riders brought on their own, kept for a job that asked meanwhile


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
    one each; the recording is per text, so batching never disturbs a replay. Texts
    foreseen (`ride`) go with the next request, or on their own `linger` seconds after
    they came if nobody's request took them: waiting for one, they were most often sent
    by the perception that needed them, which then waited a round trip for them.
    """

    def __init__(
        self,
        client: ChatClient,
        model: str,
        dim: int,
        batch: int = 128,
        notify: Callable[[str], None] = lambda message: None,
        inflight: int = 2,
        linger: float = LINGER,
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
        self.linger = linger
        self._timer: threading.Timer | None = None  # riders going on their own, when due
        self._flying: dict[str, threading.Event] = {}  # riders on the wire on their own
        self._landed: OrderedDict[str, np.ndarray] = OrderedDict()  # what those brought

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        landed = self._wait_riding(texts)
        rows = self._asked([t for t in dict.fromkeys(texts) if t not in landed])
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i] = landed[text] if text in landed else rows[text]
        return out

    def _wait_riding(self, texts: list[str]) -> dict[str, np.ndarray]:
        """Texts on the wire in riders' own request: wait for it rather than ask again."""
        with self._lock:
            flights = {self._flying[t] for t in texts if t in self._flying}
        for flight in flights:
            flight.wait()
        with self._lock:
            return {t: self._landed[t] for t in texts if t in self._landed}

    def _asked(self, texts: list[str]) -> dict[str, np.ndarray]:
        ticket = _Ticket(texts)
        if not ticket.texts:
            return {}
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
        return dict(zip(ticket.texts, ticket.rows, strict=True))

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
                if text not in self._flying:  # on the wire already
                    self._riders.setdefault(text, deliver)
        self._arm()

    def _arm(self) -> None:
        """Send the riders on their own in `linger` seconds, unless that is set already."""
        with self._lock:
            if self._timer is not None or not self._riders or self.linger <= 0:
                return
            timer = self._timer = threading.Timer(self.linger, self._ride_alone)
        timer.daemon = True
        timer.start()

    def _ride_alone(self) -> None:
        """The riders nobody's request took, in a request of their own when a slot is
        free (else after another moment): off every job's path."""
        with self._lock:
            self._timer = None
        if not self._slots.acquire(blocking=False):
            self._arm()
            return
        flight = threading.Event()
        riders: dict[str, Callable[[str, np.ndarray], None]] = {}
        rows: dict[str, np.ndarray] = {}
        try:
            with self._lock:
                riders = self._take_riders_locked(room=self.batch)
                self._flying.update(dict.fromkeys(riders, flight))
            if riders:
                rows = dict(zip(riders, _unit(self._vectors(list(riders))), strict=True))
        finally:
            self._slots.release()
            self._land(riders, rows, flight)
        for text, deliver in riders.items():
            vector = rows.get(text)
            if vector is not None and vector.any():
                deliver(text, vector)
        self._arm()  # more came meanwhile

    def _land(self, riders, rows: dict[str, np.ndarray], flight: threading.Event) -> None:
        """Keep what riders brought for a job that asked meanwhile, and let it go on."""
        try:
            with self._lock:
                for text in riders:
                    vector = rows.get(text)
                    if vector is not None and vector.any():  # a failed request: ask again
                        self._landed[text] = vector
                    if self._flying.get(text) is flight:
                        del self._flying[text]
                while len(self._landed) > LANDED:
                    self._landed.popitem(last=False)
        finally:
            flight.set()

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
        with self._lock:
            return self._take_riders_locked(room)

    def _take_riders_locked(self, room: int) -> dict[str, Callable[[str, np.ndarray], None]]:
        items = list(self._riders.items())  # the newest first: likeliest to be needed soon
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
