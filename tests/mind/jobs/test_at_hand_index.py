"""What a resident has at hand, read from the stream's index of the memories naming an
intent, an event or an answer (MemoryView.naming_intents) and of claims, is what reading
every fact found (game/mind/jobs/at_hand, game/mind/jobs/where)."""

import random
from datetime import timedelta
from types import SimpleNamespace

import numpy as np

from game.core.clock import EPOCH, hours_since_epoch
from game.core.records import Event, Fact, FactKind, MemoryKind, Rsvp, Source
from game.mind.jobs import at_hand
from game.mind.jobs.where import event_places
from game.mind.memory import MemoryStream

ME, OTHER = "Isabella Rodriguez", "Sam Moore"
NOW = EPOCH + timedelta(days=3)
PAST = Event("Hobbs Cafe", NOW - timedelta(days=1), NOW - timedelta(hours=20), "party", ME)
AHEAD = Event("The Rose and Crown Pub", NOW + timedelta(hours=2), NOW + timedelta(hours=5))
ON = Event("Johnson Park", NOW - timedelta(hours=1), NOW + timedelta(hours=1), "rally", OTHER)


def _fact(rng: random.Random) -> Fact:
    """Mostly things seen done, as a town's streams are; now and then a statement, a
    claim or an answer naming an intent or an event."""
    if rng.random() < 0.7:
        return Fact(FactKind.DOING, Source.SEEN, subject=rng.choice([ME, OTHER]), object="idle")
    return Fact(
        rng.choice(list(FactKind)),
        rng.choice(list(Source)),
        subject=rng.choice([ME, OTHER, ""]),
        intent=rng.choice(["", "", "party", "rally", "petition"]),
        event=rng.choice([None, None, PAST, AHEAD, ON]),
        rsvp=rng.choice([None, None, *Rsvp]),
        private=rng.random() < 0.2,
        origin=rng.choice([None, None, Source.VISITOR, Source.NOTICE]),
    )


def _snapshot(seed: int, n: int = 400):
    rng, stream = random.Random(seed), MemoryStream(2)
    for i in range(n):
        when = NOW - timedelta(hours=60) + timedelta(minutes=9 * i)
        stream.add(MemoryKind.OBSERVATION, f"m{i}", when, 1 + i % 10, np.ones(2), _fact(rng))
    snap = SimpleNamespace(memory=stream.view(), now=NOW, persona=SimpleNamespace(name=ME))
    return stream, snap


# -- what reading every fact found (the code before the index) ------------------------------


def _fresh_claims(snap):
    since = hours_since_epoch(snap.now) - at_hand.FRESH_HOURS
    facts_, hours = snap.memory.facts, snap.memory.created
    found = [
        i for i, f in enumerate(facts_)
        if f.kind is FactKind.CLAIM and hours[i] >= since and not f.private
        and f.first_source in (Source.VISITOR, Source.NOTICE)
    ]  # fmt: skip
    return found[-at_hand.FRESH_CLAIMS :]


def _commitments(snap):
    me, now = snap.persona.name, snap.now
    found = [
        i for i, f in enumerate(snap.memory.facts)
        if f.rsvp is not None and f.event is not None and f.event.end > now
    ]  # fmt: skip
    own = {}
    for i, f in enumerate(snap.memory.facts):
        mine = f.subject == me or (f.event is not None and f.event.host == me)
        stated = f.kind is FactKind.STATEMENT and f.source in (Source.SEED, Source.SELF)
        ahead = f.event is None or f.event.end > now
        if f.intent and mine and stated and ahead and not f.private and f.rsvp is None:
            own.setdefault(f.intent, i)
    return [*found[-4:], *list(own.values())[:2]]


def _cause_facts(snap):
    first, latest = {}, {}
    for i, f in enumerate(snap.memory.facts):
        told = f.kind in (FactKind.STATEMENT, FactKind.CLAIM)
        if f.intent and f.event is None and told and not f.private and f.rsvp is None:
            first.setdefault(f.intent, i)
            latest[f.intent] = i
    return list(dict.fromkeys([*first.values(), *latest.values()]))


def _event_facts(snap):
    facts_ = snap.memory.facts
    events = {f.intent: f.event for f in facts_ if f.event is not None and f.intent}
    found = []
    for intent, event in events.items():
        tagged = [i for i, f in enumerate(facts_) if f.intent == intent]
        named = [i for i in tagged if facts_[i].event is not None]
        answers = [i for i in tagged if facts_[i].rsvp is not None]
        found += named[-1:] + answers[-1:]
        if event.start <= snap.now:
            found += at_hand._at_event(snap, intent, event)
    return list(dict.fromkeys(found))


def _event_places(snap):
    facts_ = snap.memory.facts
    return sorted({f.event.place for f in facts_ if f.event is not None
                   and f.event.end > snap.now and f.event.place})  # fmt: skip


def _indices(records):
    return [r.index for r in records]


def test_what_is_at_hand_is_what_reading_every_fact_found():
    mind = SimpleNamespace(settings=SimpleNamespace(ablation=SimpleNamespace(memory=True)))
    for seed in range(12):
        _, snap = _snapshot(seed)
        assert _indices(at_hand.fresh_claims(snap)) == _fresh_claims(snap)
        assert _indices(at_hand.commitments(snap)) == _commitments(snap)
        assert _indices(at_hand.cause_facts(mind, snap)) == _cause_facts(snap)
        assert _indices(at_hand.event_facts(mind, snap)) == _event_facts(snap)
        assert event_places(snap) == _event_places(snap)
        assert _commitments(snap) and _cause_facts(snap) and _event_places(snap)


def test_a_snapshot_keeps_to_its_own_memories_as_the_stream_grows():
    stream, snap = _snapshot(5)
    before = (_indices(at_hand.commitments(snap)), event_places(snap))
    promise = Fact(FactKind.STATEMENT, Source.SELF, subject=ME, intent="picnic", event=AHEAD,
                   rsvp=Rsvp.ACCEPTED)  # fmt: skip
    stream.add(MemoryKind.OBSERVATION, "later", NOW, 5, np.ones(2), promise)
    assert (_indices(at_hand.commitments(snap)), event_places(snap)) == before
    later = SimpleNamespace(memory=stream.view(), now=NOW, persona=snap.persona)
    assert len(stream) - 1 in _indices(at_hand.commitments(later))
