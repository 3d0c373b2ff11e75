"""What a person always has at hand, whatever retrieval ranks: promises, purposes, plans,
the events one knows of, and news one has just been told.

Shared by planning, conversation and interviews, so each grounds its answer the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from game.core.clock import hours_since_epoch
from game.core.records import Event, Fact, FactKind, MemoryKind, MemoryRecord, Source
from game.mind.agent import AgentSnapshot
from game.mind.jobs.common import Mind

FRESH_HOURS = 36  # how long something an outsider said stays on one's mind to pass on
FRESH_CLAIMS = 2


def fresh_claims(snap: AgentSnapshot) -> list[MemoryRecord]:
    """The newest claims from outside the town's own talk (the visitor's words, a notice,
    and those passed on from them), heard lately: news one has just been told is on one's
    mind when one next talks, as it is for a person, whatever the news retrieval ranks."""
    since = hours_since_epoch(snap.now) - FRESH_HOURS
    facts_, hours = snap.memory.facts, snap.memory.created
    found = [
        i for i, f in _rows(facts_, snap.memory.of_fact_kind(FactKind.CLAIM))
        if hours[i] >= since and not f.private
        and f.first_source in (Source.VISITOR, Source.NOTICE)
    ]  # fmt: skip
    return snap.memory.records(found[-FRESH_CLAIMS:])


def grounded(
    mind: Mind, snap: AgentSnapshot, records: list[MemoryRecord], person: str = ""
) -> list[MemoryRecord]:
    """Retrieved memories plus what a person always has at hand when asked about its days:
    the latest plans and the events it knows of (interviews and the visitor's chat), and,
    asked of someone, the latest moments one had to do with them."""
    seen = {r.index for r in records}
    at_hand = [*latest_plans(mind, snap), *event_facts(mind, snap), *cause_facts(mind, snap),
               *person_facts(mind, snap, person)]  # fmt: skip
    extra = [r for r in at_hand if r.index not in seen]
    return [*records, *dict((r.index, r) for r in extra).values()]


def person_facts(mind: Mind, snap: AgentSnapshot, person: str) -> list[MemoryRecord]:
    """The latest memories of someone: seen, talked with, told something by. Retrieval
    alone missed them: Adam, who had seen Abigail about, answered 'Abigail Chen ring a
    bell?' with 'I don't know who that is' (the question's words are her name only)."""
    if not person or not mind.settings.ablation.memory:
        return []
    found = [i for i, f in enumerate(snap.memory.facts) if not f.private
             and (f.subject == person or person in f.participants or f.heard_from == person)]
    return snap.memory.records(found[-PERSON_FACTS:])


PERSON_FACTS = 3  # the latest memories of someone asked of, at hand


def cause_facts(mind: Mind, snap: AgentSnapshot) -> list[MemoryRecord]:
    """Per public intent with no event (a campaign, a call for volunteers, a petition)
    the memory names: the first statement or claim of it (a holder's own declaration) and
    the latest, so one who was told of it remembers it when asked, as one does an event.
    Retrieval alone missed it: John, told by Jane that she is looking for volunteers to
    repaint the benches, answered 'Is anyone looking for volunteers?' with 'I don't know
    anything about a volunteers'."""
    if not mind.settings.ablation.memory:
        return []
    first: dict[str, int] = {}
    latest: dict[str, int] = {}
    for i, f in _intents(snap):  # each names an intent, or none of them would count
        told = f.kind in (FactKind.STATEMENT, FactKind.CLAIM)
        if f.intent and f.event is None and told and not f.private and f.rsvp is None:
            first.setdefault(f.intent, i)
            latest[f.intent] = i
    return snap.memory.records(dict.fromkeys([*first.values(), *latest.values()]))


def event_facts(mind: Mind, snap: AgentSnapshot) -> list[MemoryRecord]:
    """Per event the memory names: the latest memory naming it, the resident's own answer,
    and (once it has begun) what the resident did and saw there, so an event asked about
    after it ended is answered in the past tense even when retrieval misses it."""
    if not mind.settings.ablation.memory:
        return []
    facts_, intents = snap.memory.facts, list(_intents(snap))
    events = {f.intent: f.event for _, f in intents if f.event is not None and f.intent}
    found: list[int] = []
    for intent, event in events.items():
        tagged = [i for i, f in intents if f.intent == intent]
        named = [i for i in tagged if facts_[i].event is not None]
        answers = [i for i in tagged if facts_[i].rsvp is not None]
        found += named[-1:] + answers[-1:]
        if event.start <= snap.now:
            found += _at_event(snap, intent, event)
    return snap.memory.records(dict.fromkeys(found))


def _at_event(snap: AgentSnapshot, intent: str, event: Event) -> list[int]:
    """One's first and last own action for the event (how long one stayed), and who was
    there meanwhile (while one was there, if one went): the talks one had, and up to four
    people seen more than once (one glimpse may be of someone passing, or next door)."""
    facts_, hours = snap.memory.facts, snap.memory.created
    begin, end = hours_since_epoch(event.start), hours_since_epoch(event.end)
    during = [int(i) for i in np.flatnonzero((hours >= begin) & (hours < end))]
    own = [i for i in during if facts_[i].kind is FactKind.DOING and facts_[i].intent == intent]
    if own:
        during = [i for i in during if hours[own[0]] <= hours[i] <= hours[own[-1]]]
    talks = [i for i in during if facts_[i].kind is FactKind.CONVERSATION]
    glimpses = [i for i in during if facts_[i].kind is FactKind.DOING
                and facts_[i].source is Source.SEEN]  # fmt: skip
    seen: dict[str, list[int]] = {}
    for i in glimpses:  # seen at the event's place (by field), else more than a glimpse
        f = facts_[i]
        if f.address.split(":")[0] == event.place:
            seen.setdefault(f.subject, []).insert(0, i)
        elif not f.address:
            seen.setdefault(f.subject, []).append(i)
    placed = [ids[0] for ids in seen.values() if facts_[ids[0]].address]
    again = placed + [i for ids in seen.values() if len(ids) > 1 and not facts_[ids[0]].address
                      for i in ids[:2]]  # fmt: skip
    return list(dict.fromkeys(own[:1] + own[-1:] + talks[:2] + again[:8]))


def commitments(snap: AgentSnapshot) -> list[MemoryRecord]:
    """The resident's own answers to events still to come, and its own intentions (a
    campaign, a party it hosts): a promise or a purpose is always at hand when it plans,
    as it would be for a person, however long ago it was first remembered."""
    me, now, intents = snap.persona.name, snap.now, list(_intents(snap))
    found = [
        i for i, f in intents
        if f.rsvp is not None and f.event is not None and f.event.end > now
    ]  # fmt: skip
    own = {}
    for i, f in intents:  # what counts names an intent, an event or an answer
        mine = f.subject == me or (f.event is not None and f.event.host == me)
        stated = f.kind is FactKind.STATEMENT and f.source in (Source.SEED, Source.SELF)
        ahead = f.event is None or f.event.end > now
        if f.intent and mine and stated and ahead and not f.private and f.rsvp is None:
            own.setdefault(f.intent, i)
    return snap.memory.records([*found[-4:], *list(own.values())[:2]])


def _intents(snap: AgentSnapshot) -> Iterator[tuple[int, Fact]]:
    """(index, fact) of the memories naming an intent, an event or an answer to one, in
    order: the stream's index of them, not a read of every fact it holds (MemoryView)."""
    return _rows(snap.memory.facts, snap.memory.naming_intents())


def _rows(facts_: Sequence[Fact], indices: Sequence[int]) -> Iterator[tuple[int, Fact]]:
    return ((i, facts_[i]) for i in indices)


def latest_plans(mind: Mind, snap: AgentSnapshot, n: int = 3) -> list[MemoryRecord]:
    """The newest plan memories (today's and yesterday's): what one did and means to do is
    always at hand when asked about one's day, as it is for a person."""
    if not mind.settings.ablation.memory or not mind.settings.ablation.planning:
        return []
    found = np.flatnonzero(snap.memory.mask([MemoryKind.PLAN]))[-n:]
    return snap.memory.records(int(i) for i in found)
