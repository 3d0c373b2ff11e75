"""The memory stream: appending, snapshots another thread can read, saving."""

import json
import threading
from datetime import timedelta

import numpy as np
import pytest

from game.core.clock import EPOCH
from game.core.records import MemoryKind, MemoryRecord
from game.mind import facts
from game.mind.memory import MemoryStream

OBS, REF, PLAN, CHAT = (
    MemoryKind.OBSERVATION,
    MemoryKind.REFLECTION,
    MemoryKind.PLAN,
    MemoryKind.CHAT,
)
DIM = 4


def at(hours: float):
    return EPOCH + timedelta(hours=hours)


def vec(i: int) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    v[i % DIM] = 1.0
    return v


def filled(n: int, capacity: int = 64) -> MemoryStream:
    stream = MemoryStream(DIM, capacity=capacity)
    kinds = [OBS, REF, PLAN, CHAT]
    for i in range(n):
        stream.add(kinds[i % 4], f"memory {i}", at(i), 1 + i % 10, vec(i))
    return stream


def test_add_returns_index_and_record_round_trips():
    stream = MemoryStream(DIM)
    assert stream.add(OBS, "Isabella is making coffee", at(1.5), 3, vec(0)) == 0
    heard = facts.claim("Sam Moore", "I'm running", None)
    assert stream.add(CHAT, "Sam Moore said: I'm running", at(2), 6, vec(1), heard) == 1
    assert stream.add(REF, "Isabella loves parties", at(3), 7, vec(2), evidence=[0, 1]) == 2
    assert len(stream) == 3
    said = "Sam Moore said: I'm running"
    assert stream.record(1) == MemoryRecord(1, CHAT, said, at(2), 6, heard)
    assert (
        stream.record(1).heard_from == "Sam Moore" and stream.record(1).fact.object == "I'm running"
    )
    assert stream.record(-1).evidence == (0, 1)
    assert [r.index for r in stream.records([2, 0])] == [2, 0]
    with pytest.raises(IndexError):
        stream.record(3)


def test_importance_is_clamped_and_embeddings_normalised():
    stream = MemoryStream(DIM)
    stream.add(OBS, "a", at(0), 0, np.array([3.0, 4.0, 0.0, 0.0]))
    stream.add(OBS, "b", at(0), 42, np.zeros(DIM))
    view = stream.view()
    assert view.importance.tolist() == [1, 10]
    assert view.embeddings[0].tolist() == pytest.approx([0.6, 0.8, 0.0, 0.0])
    assert view.embeddings[1].tolist() == [0.0] * DIM
    with pytest.raises(ValueError):
        stream.add(OBS, "c", at(0), 5, np.ones(DIM + 1))
    with pytest.raises(ValueError):
        stream.add(OBS, "c", at(0), 5, np.array([np.nan, 0, 0, 0]))


def test_evidence_must_point_at_earlier_memories():
    stream = filled(3)
    with pytest.raises(ValueError, match="evidence"):
        stream.add(REF, "insight", at(5), 5, vec(0), evidence=[0, 3])
    with pytest.raises(ValueError, match="evidence"):
        stream.add(REF, "insight", at(5), 5, vec(0), evidence=[-1])
    assert len(stream) == 3  # a rejected memory leaves no trace
    assert stream.add(REF, "insight", at(5), 5, vec(0), evidence=(0, 2)) == 3


def test_recent_and_counts():
    stream = filled(10)  # kinds cycle OBS, REF, PLAN, CHAT
    assert stream.recent(3) == [7, 8, 9]
    assert stream.recent(50) == list(range(10))
    assert stream.recent(0) == []
    assert stream.recent(2, kinds={OBS}) == [4, 8]
    assert stream.recent(5, kinds=[REF, CHAT]) == [1, 3, 5, 7, 9]
    assert stream.recent(3, kinds=[REF, CHAT]) == [5, 7, 9]
    assert stream.counts() == {"observation": 3, "reflection": 3, "plan": 2, "chat": 2}
    assert MemoryStream(DIM).counts() == {"observation": 0, "reflection": 0, "plan": 0, "chat": 0}


def test_touch_sets_last_access_only():
    stream = filled(3)
    stream.touch([0, 2], at(100))
    view = stream.view()
    assert view.accessed.tolist() == [100.0, 1.0, 100.0]
    assert view.created.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(IndexError):
        stream.touch([3], at(100))


def test_view_is_a_snapshot():
    stream = filled(2, capacity=2)
    view = stream.view()
    embeddings_before = view.embeddings.copy()
    for i in range(2, 40):  # several regrowths past the view's arrays
        stream.add(OBS, f"later {i}", at(i), 9, vec(i))
    stream.touch([0, 1], at(500))
    assert stream.capacity >= 40
    assert len(view) == 2 and view.n == 2
    assert view.texts[:] == ("memory 0", "memory 1") and list(view.texts) == [
        "memory 0",
        "memory 1",
    ]
    assert view.text(1) == "memory 1"
    assert view.accessed.tolist() == [0.0, 1.0]
    assert np.array_equal(view.embeddings, embeddings_before)
    assert view.importance.tolist() == [1, 2]
    assert view.record(1) == MemoryRecord(1, REF, "memory 1", at(1), 2, view.facts[1])
    assert view.facts[1].object == "memory 1"  # a memory written without fields is a statement
    with pytest.raises(IndexError):
        view.record(2)
    with pytest.raises(IndexError):
        view.texts[2]
    with pytest.raises(ValueError):
        view.embeddings[0, 0] = 5.0  # read-only


def test_view_without_regrowth_does_not_see_new_rows():
    stream = filled(2, capacity=64)
    view = stream.view()
    stream.add(OBS, "new", at(9), 9, vec(3))
    assert len(view) == 2 and len(view.kinds) == 2 and len(view.embeddings) == 2


def test_views_read_from_another_thread_while_appending():
    stream = filled(1, capacity=1)
    errors: list[Exception] = []
    views = []

    def reader():
        try:
            for view in views[:]:
                assert [r.text for r in view.records(range(len(view)))] == [
                    f"memory {i}" for i in range(len(view))
                ]
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    for i in range(1, 300):
        views.append(stream.view())
        stream.add(OBS, f"memory {i}", at(i), 5, vec(i))
        if i % 50 == 0:
            thread = threading.Thread(target=reader)
            thread.start()
            thread.join()
    assert not errors


def test_state_round_trip_is_exact():
    stream = filled(70)
    stream.add(
        REF, "Isabella plans a party", at(80), 8, np.array([0.1, 0.2, 0.3, 0.4]), None, [1, 5]
    )
    heard = facts.claim("Tom Moreno", "vote for Sam", None, intent=None)
    stream.add(CHAT, facts.render(heard), at(81), 4, vec(2), heard)
    stream.touch([3, 70], at(90))
    doc, arrays = stream.get_state()
    doc = json.loads(json.dumps(doc))  # must survive JSON
    restored = MemoryStream.from_state(doc, arrays)
    a, b = stream.view(), restored.view()
    assert len(b) == len(a) == 72
    assert restored.records(range(72)) == stream.records(range(72))
    for column in ("kinds", "created", "accessed", "importance", "embeddings", "idle"):
        assert np.array_equal(getattr(a, column), getattr(b, column)), column
    assert restored.counts() == stream.counts()
    assert restored.add(OBS, "after load", at(100), 3, vec(0)) == 72


def test_empty_state_round_trip():
    doc, arrays = MemoryStream(DIM).get_state()
    restored = MemoryStream.from_state(doc, arrays)
    assert len(restored) == 0 and restored.dim == DIM


@pytest.mark.parametrize(
    "breakage, message",
    [
        (lambda d, a: d.pop("texts"), "missing"),
        (lambda d, a: d["facts"].pop(), "facts"),
        (lambda d, a: d["facts"].__setitem__(0, {"kind": "dream"}), "damaged fact"),
        (lambda d, a: a.update(created=a["created"][:-1]), "created"),
        (lambda d, a: a.update(embeddings=a["embeddings"][:, :2]), "embeddings"),
        (lambda d, a: d.update(dim=8), "embeddings"),
        (lambda d, a: d["kinds"].__setitem__(0, "dream"), "unknown memory kinds"),
        (lambda d, a: a["importance"].__setitem__(0, 11), "importance"),
        (lambda d, a: d["evidence"].__setitem__(1, [1]), "evidence"),
    ],
)
def test_from_state_rejects_damage(breakage, message):
    doc, arrays = filled(5).get_state()
    breakage(doc, arrays)
    with pytest.raises(ValueError, match=message):
        MemoryStream.from_state(doc, arrays)


def test_a_memory_added_without_a_vector_waits_for_one():
    stream = filled(3)
    i = stream.add(OBS, "seen later", at(5), 3, None)
    assert stream.missing() == [i]
    view = stream.view()
    assert view.missing() == [i] and not view.embedded[i]
    assert not view.embeddings[i].any()  # a zero row until filled
    stream.fill({i: vec(1) * 3})
    assert stream.missing() == [] and stream.view().missing() == []
    assert np.allclose(stream.view().embeddings[i], vec(1))  # normalised as add does
    assert view.missing() == [i]  # the earlier snapshot is unchanged


def test_with_vectors_is_a_copy_the_stream_never_sees():
    stream = filled(2)
    i = stream.add(OBS, "pending", at(3), 3, None)
    view = stream.view()
    known = view.with_vectors([i], np.array([vec(2) * 5]))
    assert known.missing() == [] and np.allclose(known.embeddings[i], vec(2))
    assert stream.missing() == [i] and not stream.view().embeddings[i].any()
    assert view.with_vectors([], np.zeros((0, DIM))) is view


def test_the_stream_indexes_memories_naming_an_intent_and_of_each_fact_kind():
    """A view's naming_intents and of_fact_kind are what reading its facts finds, in
    order, and only its own rows: the stream keeps growing after it, and a saved stream
    read back indexes the same."""
    from game.core.records import Event, Fact, FactKind, Rsvp, Source
    from game.mind.memory import names_intent

    party = Event("Hobbs Cafe", at(10), at(12), "party")
    made = [
        Fact(FactKind.DOING, Source.SEEN, subject="Sam"),
        Fact(FactKind.STATEMENT, Source.SEED, subject="Sam", intent="party"),
        Fact(FactKind.CLAIM, Source.VISITOR, object="a bake sale", event=party),
        Fact(FactKind.STATEMENT, Source.SELF, subject="Sam", rsvp=Rsvp.MAYBE),
        Fact(FactKind.OBJECT_STATE, Source.SEEN, address="a:b:c", state="on"),
    ]
    stream = MemoryStream(DIM)
    for i in range(40):
        stream.add(OBS, f"memory {i}", at(i), 5, vec(i), made[i * 7 % len(made)])
    view = stream.view()
    stream.add(OBS, "later", at(41), 5, vec(0), made[1])
    for seen in (view, view.with_vectors([0], np.ones((1, DIM))), stream.view()):
        assert list(seen.naming_intents()) == [
            i for i, f in enumerate(seen.facts) if names_intent(f)
        ]
        for kind in FactKind:
            assert list(seen.of_fact_kind(kind)) == [
                i for i, f in enumerate(seen.facts) if f.kind is kind
            ]
    assert len(view.naming_intents()) == 24 and len(stream.view().naming_intents()) == 25
    doc, arrays = stream.get_state()
    back = MemoryStream.from_state(json.loads(json.dumps(doc)), arrays).view()
    assert list(back.naming_intents()) == list(stream.view().naming_intents())
    assert list(back.of_fact_kind(FactKind.CLAIM)) == list(
        stream.view().of_fact_kind(FactKind.CLAIM)
    )
