"""Retrieval arithmetic, checked against numbers worked out by hand."""

from datetime import timedelta

import numpy as np
import pytest

from game.core.clock import EPOCH
from game.core.mind_settings import ORIGINAL_CODE_RETRIEVAL, RecencyUnit, RetrievalSettings
from game.core.records import MemoryKind, Source
from game.mind import facts
from game.mind.memory import MemoryStream
from game.mind.retrieval import retrieve, retrieve_many, score, top_k

OBS, REF, PLAN, CHAT = (
    MemoryKind.OBSERVATION,
    MemoryKind.REFLECTION,
    MemoryKind.PLAN,
    MemoryKind.CHAT,
)
PAPER = RetrievalSettings()
X = np.array([1.0, 0.0], dtype=np.float32)
Y = np.array([0.0, 1.0], dtype=np.float32)


def at(hours: float):
    return EPOCH + timedelta(hours=hours)


def three() -> MemoryStream:
    """m0 at 0h, importance 2, along x; m1 at 10h, imp 8, along y; m2 at 20h, imp 5, (.6, .8)."""
    stream = MemoryStream(dim=2)
    stream.add(OBS, "Isabella opens Hobbs Cafe", at(0), 2, X)
    stream.add(OBS, "Klaus reads about gentrification", at(10), 8, Y)
    stream.add(OBS, "Maria studies physics", at(20), 5, np.array([0.6, 0.8]))
    return stream


def test_paper_weights_game_hours_decay_and_minmax():
    _, scores = score(three().view(), X, at(20), PAPER)
    # recency raw: 0.995**20 = 0.90461048, 0.995**10 = 0.95111013, 0.995**0 = 1
    #   min-max: 0, (0.995**10 - 0.995**20) / (1 - 0.995**20) = a / (1 + a) with
    #   a = 0.995**10 -> 0.95111013 / 1.95111013 = 0.48747127, and 1
    # importance 2, 8, 5 -> 0, 1, (5 - 2) / 6 = 0.5
    # relevance cos with x: 1, 0, 0.6 -> 1, 0, 0.6
    # score (all weights 1): 0 + 0 + 1 = 1;  0.48747127 + 1 + 0 = 1.48747127;  1 + 0.5 + 0.6 = 2.1
    assert scores == pytest.approx([1.0, 1.48747127, 2.1], abs=1e-6)
    assert retrieve(three().view(), X, at(20), PAPER) == [2, 1, 0]


def test_recency_alone_is_decay_per_game_hour():
    only_recency = RetrievalSettings(importance_weight=0.0, relevance_weight=0.0)
    _, scores = score(three().view(), X, at(20), only_recency)
    # see above: 0, 0.995**10 / (1 + 0.995**10) = 0.48747127, 1
    assert scores == pytest.approx([0.0, 0.48747127, 1.0], abs=1e-7)


def test_recency_uses_last_access_not_creation():
    stream = three()
    stream.touch([0], at(20))
    only_recency = RetrievalSettings(importance_weight=0.0, relevance_weight=0.0)
    _, scores = score(stream.view(), X, at(20), only_recency)
    # accessed 20h, 10h, 20h -> raw 1, 0.995**10, 1 -> min-max 1, 0, 1
    assert scores == pytest.approx([1.0, 0.0, 1.0])


def test_original_code_weights_and_position_decay():
    _, scores = score(three().view(), X, at(20), ORIGINAL_CODE_RETRIEVAL)
    # rank by last access, newest first: m2 rank 1, m1 rank 2, m0 rank 3
    # recency raw 0.99**3 = 0.970299, 0.99**2 = 0.9801, 0.99**1 = 0.99
    #   min-max: 0, (0.9801 - 0.970299) / (0.99 - 0.970299) = 0.99 / 1.99 = 0.49748744, 1
    # importance 0, 1, 0.5; relevance 1, 0, 0.6 (as above)
    # score = 0.5 rec + 2 imp + 3 rel:
    #   m0: 0 + 0 + 3 = 3;  m1: 0.5 * 0.49748744 + 2 + 0 = 2.24874372;  m2: 0.5 + 1 + 1.8 = 3.3
    assert scores == pytest.approx([3.0, 2.24874372, 3.3], abs=1e-6)
    assert retrieve(three().view(), X, at(20), ORIGINAL_CODE_RETRIEVAL) == [2, 0, 1]


def test_position_ties_rank_the_newer_memory_first():
    stream = MemoryStream(dim=2)
    for _ in range(3):
        stream.add(OBS, "same moment", at(5), 5, X)
    only_recency = RetrievalSettings(
        importance_weight=0.0, relevance_weight=0.0, decay=0.5, recency_unit=RecencyUnit.POSITION
    )
    _, scores = score(stream.view(), X, at(5), only_recency)
    # ranks: m2 -> 1, m1 -> 2, m0 -> 3; raw 0.125, 0.25, 0.5; min-max (x - .125) / .375
    assert scores == pytest.approx([0.0, 0.125 / 0.375, 1.0])


def test_constant_component_scores_one_half():
    stream = MemoryStream(dim=2)
    stream.add(OBS, "a", at(0), 4, X)
    stream.add(OBS, "b", at(0), 4, X)
    _, scores = score(stream.view(), Y, at(3), PAPER)
    # recency, importance and relevance (0 for both) are each constant -> 0.5 each
    # score = 0.5 + 0.5 + 0.5 = 1.5
    assert scores == pytest.approx([1.5, 1.5])


def test_single_candidate_scores_one_half_per_component():
    stream = MemoryStream(dim=2)
    stream.add(OBS, "only", at(0), 9, X)
    _, scores = score(stream.view(), X, at(1), ORIGINAL_CODE_RETRIEVAL)
    # one candidate: every component constant -> 0.5; 0.5 * (0.5 + 2 + 3) = 2.75
    assert scores == pytest.approx([2.75])


def test_zero_query_makes_relevance_constant():
    _, scores = score(three().view(), np.zeros(2), at(20), PAPER)
    # as in the paper-weights test but relevance 0.5 for all: 0 + 0 + .5, .48747127 + 1 + .5,
    # 1 + .5 + .5
    assert scores == pytest.approx([0.5, 1.98747127, 2.0], abs=1e-6)


def test_ties_go_to_the_newer_memory():
    stream = MemoryStream(dim=2)
    for _ in range(10):
        stream.add(OBS, "same", at(0), 5, X)
    view = stream.view()
    assert retrieve(view, X, at(1), PAPER, k=3) == [9, 8, 7]
    assert retrieve(view, X, at(1), PAPER, k=20) == list(range(9, -1, -1))


def test_top_k_matches_a_full_sort_with_the_tie_rule():
    rng = np.random.default_rng(7)
    indices = np.arange(0, 4000, 2)
    scores = rng.integers(0, 50, size=len(indices)).astype(np.float64)  # many ties
    expected = sorted(indices.tolist(), key=lambda i: (-scores[i // 2], -i))
    for k in (1, 30, 500, len(indices), len(indices) + 5):
        assert top_k(indices, scores, k) == expected[:k]
    assert top_k(indices, scores, 0) == []


def test_top_k_is_the_same_on_either_side_of_sorting_all():
    """Up to _SORT_WHOLE candidates top_k sorts them all, above it it partitions first:
    the same k, in the same order, ties to the higher index."""
    from game.mind import retrieval

    rng = np.random.default_rng(11)
    for m in (1, 7, retrieval._SORT_WHOLE, retrieval._SORT_WHOLE + 1, 3000):
        indices = np.sort(rng.choice(10 * m, size=m, replace=False))
        for scores in (rng.random(m), rng.integers(0, 6, size=m).astype(np.float64)):
            order = sorted(range(m), key=lambda j: (-scores[j], -indices[j]))
            expected = indices[order].tolist()
            for k in (1, 5, 30, m, m + 3):
                assert top_k(indices, scores, k) == expected[:k]


def test_k_defaults_to_settings():
    stream = MemoryStream(dim=2)
    for i in range(40):
        stream.add(OBS, f"m{i}", at(i), 1 + i % 10, X)
    assert len(retrieve(stream.view(), X, at(40), PAPER)) == 30
    assert len(retrieve(stream.view(), X, at(40), RetrievalSettings(k=5))) == 5


def test_kinds_filter_and_normalisation_over_candidates():
    stream = MemoryStream(dim=2)
    stream.add(OBS, "obs", at(0), 10, X)
    stream.add(REF, "ref low", at(0), 2, Y)
    stream.add(PLAN, "plan", at(0), 1, X)
    stream.add(REF, "ref high", at(0), 6, Y)
    stream.add(CHAT, "chat", at(0), 3, X)
    view = stream.view()
    assert retrieve(view, Y, at(1), PAPER, kinds={REF}) == [3, 1]
    assert retrieve(view, Y, at(1), PAPER, kinds={REF, CHAT}) == [3, 1, 4]
    idx, scores = score(view, Y, at(1), PAPER, candidates=np.array([1, 3]))
    # over {1, 3} only: recency constant 0.5; importance 2, 6 -> 0, 1; relevance 1, 1 -> 0.5
    assert idx.tolist() == [1, 3]
    assert scores == pytest.approx([1.0, 2.0])


def test_skip_idle_drops_memories_of_idle_agents_and_objects():
    """Idle by the memory's fields (an agent doing nothing, an object at rest), not by a
    word in its text: a bridle is not idle, and a memory that only mentions idling is not."""
    stream = MemoryStream(dim=2)
    isabella = facts.doing("Isabella Rodriguez", "idle", Source.SEEN)
    stove = facts.object_state("Hobbs Cafe:kitchen:stove", "idle")
    said = facts.statement("Klaus Mueller", "Klaus says he is idle today", Source.SEEN)
    stream.add(OBS, facts.render(isabella), at(0), 10, X, isabella)
    stream.add(OBS, facts.render(stove), at(0), 10, X, stove)
    stream.add(OBS, "the bridle hangs on the wall", at(0), 1, Y)
    stream.add(OBS, said.object, at(0), 1, Y, said)
    view = stream.view()
    skip = RetrievalSettings(skip_idle=True)
    assert retrieve(view, X, at(1), skip) == [3, 2]
    assert retrieve(view, X, at(1), PAPER) == [1, 0, 3, 2]
    idx, _ = score(view, X, at(1), skip, candidates=np.array([0, 2]))
    assert idx.tolist() == [2]
    assert [facts.is_idle(stream.record(i).fact) for i in range(4)] == [True, True, False, False]


def test_retrieve_reads_only():
    stream = three()
    view = stream.view()
    before = stream.view().accessed.copy()
    retrieve(view, X, at(30), ORIGINAL_CODE_RETRIEVAL)
    retrieve_many(view, np.stack([X, Y]), at(30), PAPER)
    score(view, X, at(30), PAPER)
    assert np.array_equal(view.accessed, before)
    assert np.array_equal(stream.view().accessed, before)
    assert not view.accessed.flags.writeable


def test_retrieve_many_agrees_with_retrieve():
    rng = np.random.default_rng(3)
    stream = MemoryStream(dim=8)
    for i in range(300):
        stream.add(OBS, f"m{i}", at(i / 7), int(rng.integers(1, 11)), rng.standard_normal(8))
    view = stream.view()
    queries = rng.standard_normal((4, 8)).astype(np.float32)
    many = retrieve_many(view, queries, at(50), PAPER, k=12, kinds={OBS})
    assert many == [retrieve(view, q, at(50), PAPER, k=12) for q in queries]


def test_bad_queries_and_empty_streams():
    view = three().view()
    with pytest.raises(ValueError):
        retrieve(view, np.ones(3), at(0), PAPER)
    with pytest.raises(ValueError):
        retrieve(view, np.array([np.nan, 1.0]), at(0), PAPER)
    with pytest.raises(IndexError):
        score(view, X, at(0), PAPER, candidates=np.array([5]))
    empty = MemoryStream(dim=2).view()
    assert retrieve(empty, X, at(0), PAPER) == []
    idx, scores = score(empty, X, at(0), PAPER)
    assert len(idx) == len(scores) == 0
    assert retrieve(view, X, at(0), PAPER, k=0) == []
