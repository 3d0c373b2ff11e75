"""Memories are embedded when a retrieval needs them: the same memories come back as if
every vector had been known at once, in one embedding call with the query."""

import dataclasses
from collections.abc import Sequence
from datetime import timedelta

import numpy as np

from game.brains.embed import CachedEmbedder, HashEmbedder
from game.core.records import MemoryKind, Source
from game.mind import facts
from game.mind.cognition import recall, warm
from game.sim.factory import build_simulation

TEXTS = [
    "Maria Lopez is studying physics at the library",
    "Klaus Mueller is writing a research paper",
    "the stove in the kitchen is burning",
    "Isabella Rodriguez is planning a Valentine's Day party",
    "Maria Lopez is streaming a game on Twitch",
    "Klaus Mueller is reading about gentrification",
]


class Counting:
    """The offline embedder, counting calls and never giving anything for free (as a
    remote embedder: every vector is a request)."""

    def __init__(self) -> None:
        self.inner = HashEmbedder()
        self.name, self.dim = self.inner.name, self.inner.dim
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return self.inner.embed(texts)

    def peek(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        return {}

    def later(self, texts: Sequence[str]) -> None:
        pass


def town_and_agent():
    sim = build_simulation("three", seed=1)
    agent = next(iter(sim.agents.values()))
    return sim, agent


def fill(agent, now, vectors: bool, embedder) -> None:
    for n, text in enumerate(TEXTS):
        vector = embedder.embed([text])[0] if vectors else None
        fact = facts.statement("", text, Source.SEEN)
        agent.memory.add(MemoryKind.OBSERVATION, text, now + timedelta(minutes=n), 3, vector, fact)


def test_retrieval_is_the_same_with_vectors_known_later():
    sim, agent = town_and_agent()
    now = sim.now + timedelta(hours=1)
    counting = Counting()
    mind = dataclasses.replace(sim.mind, embedder=counting)
    fill(agent, sim.now, vectors=True, embedder=HashEmbedder())
    eager = recall(mind, agent.snapshot(now), ["what is Maria doing?"], k=3)
    sim2, agent2 = town_and_agent()
    fill(agent2, sim2.now, vectors=False, embedder=HashEmbedder())
    counting.calls.clear()
    lazy = recall(mind, agent2.snapshot(now), ["what is Maria doing?"], k=3)
    assert [r.text for r in lazy[0]] == [r.text for r in eager[0]]
    assert lazy[1] == eager[1]
    (call,) = counting.calls  # the query and the six memories in one request
    assert call[0] == "what is Maria doing?" and sorted(call[1:]) == sorted(TEXTS)
    sim.close()
    sim2.close()


def test_warm_embeds_all_a_job_needs_once():
    sim, agent = town_and_agent()
    counting = Counting()
    fill(agent, sim.now, vectors=False, embedder=HashEmbedder())
    cached = CachedEmbedder(counting)
    mind = dataclasses.replace(sim.mind, embedder=cached)
    snap = agent.snapshot(sim.now + timedelta(hours=1))
    warm(mind, [snap], ["first question", "second question"])
    recall(mind, snap, ["first question"], k=3)
    recall(mind, snap, ["second question"], k=3)
    assert len(counting.calls) == 1  # the retrievals were served from what warm fetched
    sim.close()
