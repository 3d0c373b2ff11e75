"""The scripted brain reads memories by their fields, never by how their text is worded."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from test_scripted_personas import DAY, Brain, context, heard, seeds, smallville

from game.brains.scripted.news import facts_in, news_for, shareable
from game.core.records import MemoryKind, MemoryRecord
from game.mind import facts

BRAIN = Brain(seed=0)
ODD_WORDS = "guess who's throwing a do at the cafe, ha"  # no name, date, time or place


def party_fact():
    isabella = smallville().resident("Isabella Rodriguez")
    return next(m.fact for m in seeds(isabella) if m.fact.intent == "party")


def test_an_oddly_worded_claim_is_known_by_its_fields() -> None:
    maria = smallville().resident("Maria Lopez")
    odd = heard(1, "Klaus Mueller", ODD_WORDS, shared=party_fact())
    assert "said" in odd.text and odd.fact.event is not None
    (stated,) = facts_in(odd, maria)
    assert stated.source == "Klaus Mueller" and stated.subject == "Isabella Rodriguez"
    wake = datetime(2023, 2, 14) + timedelta(minutes=maria.wake)
    items = BRAIN.plan_day(context(maria, wake, (odd,)), "", wake)
    party = next(i for i in items if i.intent == "party")
    assert party.place == "Hobbs Cafe"
    assert datetime(2023, 2, 14, 17) <= party.start <= datetime(2023, 2, 14, 17, 45)
    assert party.description == "going to Isabella's Valentine's Day party at Hobbs Cafe"


def test_news_passed_on_carries_the_intent_and_event() -> None:
    town = smallville()
    maria, klaus = town.resident("Maria Lopez"), town.resident("Klaus Mueller")
    news = heard(20, "Isabella Rodriguez", "Isabella is having a party on Tuesday", 7)
    ctx = context(maria, DAY + timedelta(hours=10), (news,))
    line = BRAIN.utter(ctx, klaus.name, [])
    line = BRAIN.utter(ctx, klaus.name, [line, BRAIN.utter(context(klaus), maria.name, [line])])
    assert line.shared is not None and line.shared.intent == "party"
    assert line.shared.event == town.intent("party").event
    again = facts.claim(maria.name, line.shares, line.shared)
    assert again.intent == "party" and again.heard_from == maria.name


def test_the_same_story_is_not_told_back_however_worded() -> None:
    maria = smallville().resident("Maria Lopez")
    mine = heard(1, "Isabella Rodriguez", "Isabella is planning a party", shared=party_fact())
    theirs = heard(2, "Klaus Mueller", ODD_WORDS, shared=party_fact())
    assert news_for((mine,), maria, "Klaus Mueller")
    assert not news_for((mine, theirs), maria, "Klaus Mueller")  # he told her that story


def test_a_private_fact_is_never_shared_whatever_its_words() -> None:
    sam = smallville().resident("Sam Moore")
    public = heard(1, "Isabella Rodriguez", "Isabella is hosting a party", shared=party_fact())
    secret = replace(public, fact=replace(public.fact, private=True))
    assert shareable((public,), sam)
    assert not shareable((secret,), sam)
    assert not news_for((secret,), sam, "Klaus Mueller")


def test_a_conversation_states_no_facts_of_its_own() -> None:
    maria = smallville().resident("Maria Lopez")
    said = "Isabella Rodriguez is hosting a party at Hobbs Cafe"
    lines = [facts.Utterance("Klaus Mueller", said)]
    fact = facts.conversation(maria.name, (maria.name, "Klaus Mueller"), lines)
    talk = MemoryRecord(3, MemoryKind.CHAT, facts.render(fact), DAY, 7, fact)
    assert facts_in(talk, maria) == []  # its news is kept as a claim of its own
