"""Retrieval as a job uses it: queries embedded with the stream's missing memories.

Why its own module: every job recalls, and the embedding requests it costs are decided
here once (`warm` for a job's queries in one request, `foresee` for texts certain to come).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from game.core.mind_settings import Ablation, RetrievalSettings
from game.core.records import MemoryKind, MemoryRecord
from game.mind.agent import AgentSnapshot
from game.mind.jobs.common import Mind
from game.mind.retrieval import retrieve_each


def _embed(mind: Mind, texts: Sequence[str]) -> np.ndarray:
    return mind.embedder.embed(list(texts)) if texts else np.zeros((0, mind.embedder.dim))


def relationship_query(name: str, other: str) -> str:
    """The query a resident recalls someone by, before reacting to them or talking."""
    return f"What is {name}'s relationship with {other}?"


def standing_queries(names: Sequence[str]) -> list[str]:
    """The retrieval queries a town of these residents will certainly use (about one
    another, before reacting or talking; the news a conversation brings up)."""
    pairs = [relationship_query(a, b) for a in names for b in names if a != b]
    return [*pairs, *names, NEWS]


def foresee(mind: Mind, texts: Sequence[str]) -> None:
    """Texts certain to be retrieved with or remembered soon (the residents' relationship
    queries, what others will be seen doing, an object's new state) ride along with the
    next embedding request anyone sends, so the perception that needs them finds them
    kept and asks the model at once instead of first waiting for an embedding."""
    if mind.settings.ablation.memory and texts:
        mind.embedder.later(list(dict.fromkeys(texts)))


def warm(mind: Mind, snaps: Sequence[AgentSnapshot], queries: Sequence[str]) -> None:
    """Embed, in one request, every query a job is about to retrieve with and the
    memories of its agents not embedded yet: the embedder keeps them, so the job's
    retrievals then cost no request and the job waits on the network once, not once
    per retrieval."""
    if not mind.settings.ablation.memory:
        return
    texts = [*queries, *(s.memory.text(i) for s in snaps for i in s.memory.missing())]
    if texts:
        _embed(mind, list(dict.fromkeys(texts)))


def recall(
    mind: Mind,
    snap: AgentSnapshot,
    queries: Sequence[str],
    k: int = 10,
    settings: RetrievalSettings | None = None,
) -> tuple[list[MemoryRecord], tuple[int, ...]]:
    """Retrieve for several queries, merged best-first without repeats."""
    if not mind.settings.ablation.memory or len(snap.memory) == 0 or not queries:
        return [], ()
    view = snap.memory
    missing = view.missing()  # memories not embedded yet go in the same request
    vectors = _embed(mind, [*queries, *(view.text(i) for i in missing)])
    view = view.with_vectors(missing, vectors[len(queries) :])
    kinds = allowed_kinds(mind.settings.ablation)
    chosen_settings = settings or mind.settings.retrieval
    found = retrieve_each(view, vectors[: len(queries)], snap.now, chosen_settings, k, kinds)
    chosen = list(dict.fromkeys(i for best in found for i in best))  # best-first, no repeats
    return snap.memory.records(chosen), tuple(chosen)


def allowed_kinds(ablation: Ablation) -> tuple[MemoryKind, ...] | None:
    """The paper's ablations: without reflection (or planning) those memories are not
    retrieved, so a save made with the full architecture can be interviewed without them."""
    kinds = [
        k
        for k in MemoryKind
        if (ablation.reflection or k is not MemoryKind.REFLECTION)
        and (ablation.planning or k is not MemoryKind.PLAN)
    ]
    return None if len(kinds) == len(MemoryKind) else tuple(kinds)


NEWS = "news, plans and upcoming events"
