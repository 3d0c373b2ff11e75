"""Varied wording: news, events and actions told in several phrasings, from their fields."""

from __future__ import annotations

import re
from datetime import datetime

from test_scripted_personas import NORA

from game.brains.scripted import hearsay
from game.brains.scripted.activities import classify
from game.brains.scripted.decompose import meal_word
from game.brains.scripted.talk import coloured, joined
from game.core.records import Event, Rsvp

NAMES = ["Ann Lee", "Bo Diaz", "Cy Park", "Di Moss", "Ed Hart", "Flo Ng", "Gus Roy", "Hal Bo"]
FACT = "Sam Moore is running for mayor of Smallville in the upcoming local election"
PARTY = Event("Hobbs Cafe", datetime(2023, 2, 14, 17), datetime(2023, 2, 14, 19),
              "Valentine's Day party", "Isabella Rodriguez")  # fmt: skip


def test_the_same_fact_is_told_in_different_words_by_different_people() -> None:
    told = {hearsay.hearsay(FACT, "Sam Moore", "", a, b) for a in NAMES for b in NAMES if a != b}
    assert len(told) >= 6
    for line in told:
        assert "Sam" in line and "running for mayor" in line  # the fact survives the wording


def test_a_teller_words_a_fact_the_same_way_to_the_same_person() -> None:
    once = hearsay.hearsay(FACT, "Sam Moore", "Jo Fox", "Ann Lee", "Bo Diaz")
    assert once == hearsay.hearsay(FACT, "Sam Moore", "Jo Fox", "Ann Lee", "Bo Diaz")


def test_an_event_is_told_from_its_fields_and_relative_to_today() -> None:
    day_before = datetime(2023, 2, 13, 12)
    lines = {hearsay.event_news(PARTY, "", a, "Bo Diaz", day_before, None) for a in NAMES}
    assert len(lines) >= 4
    assert all("Isabella" in t or "Hobbs Cafe" in t for t in lines)
    assert all("Monday" not in t for t in lines)  # the party is on Tuesday
    assert any("tomorrow" in t for t in lines)


def test_the_tellers_own_answer_goes_with_the_event() -> None:
    now = datetime(2023, 2, 13, 12)
    going = [hearsay.event_news(PARTY, "", a, "Bo Diaz", now, Rsvp.ACCEPTED) for a in NAMES]
    tails = {t for _, t in hearsay.GOING.items() for t in t}
    assert all(any(t.strip().rstrip(".?").lower() in line.lower() for t in tails) for line in going)


def test_what_one_is_doing_is_said_in_the_first_person_in_varied_words() -> None:
    lines = {hearsay.doing("eating lunch", NORA, "Hobbs Cafe", "afternoon", k) for k in range(20)}
    assert len(lines) >= 3
    assert all("eating lunch" in t.lower() for t in lines)
    idle = hearsay.doing("thinking about what to do next", NORA, "", "evening", 1)
    assert "what to do next" not in idle


def test_a_place_name_does_not_decide_the_activity() -> None:
    assert classify("reading at Hobbs Cafe", False).key == "reading"
    assert classify("chatting with friends at Hobbs Cafe", False).key != "cafe_work"
    assert classify("working at Hobbs Cafe", False).key == "cafe_work"  # nothing else names it


def test_meals_take_the_right_article() -> None:
    assert meal_word("having a snack at the cafe") == "a snack"
    assert meal_word("eating lunch") == "lunch"


def test_a_short_reply_runs_on_and_markers_keep_capitals_of_names() -> None:
    assert joined("Not bad, thanks.", "Have you heard?") == "Not bad, thanks; have you heard?"
    assert joined("Not bad, thanks.", "Sam is running.") == "Not bad, thanks. Sam is running."
    marked = [coloured("Have you heard the news?", "A", "B", n) for n in range(40)]
    assert any(m.endswith(", have you heard the news?") for m in marked)
    names = [coloured("Sam is running for mayor.", "A", "B", n) for n in range(40)]
    assert all(m == "Sam is running for mayor." for m in names)  # never 'So, Sam ...'
    mine = [coloured("I'm off.", "A", "B", n) for n in range(40)]
    assert all(m.endswith("I'm off.") for m in mine)


def test_an_ended_event_known_only_by_intent_is_told_in_the_past_tense() -> None:
    """A remark tagged with the party's intent but no date still finds the party's date in
    another memory, and after the party it is spoken of as over."""
    from dataclasses import replace as with_fields

    from test_scripted_personas import Brain, context, heard, smallville

    from game.core.records import Fact, FactKind, Source

    maria = smallville().resident("Maria Lopez")
    words = "Isabella Rodriguez is having people over at Hobbs Cafe"  # no topic word
    invite = Fact(FactKind.STATEMENT, Source.HEARD, "Isabella Rodriguez",
                  object=words, intent="party", event=PARTY)  # fmt: skip
    dated = heard(0, "Isabella Rodriguez", words, 5, shared=invite)
    remark = heard(1, "Klaus Mueller", "Isabella Rodriguez is throwing a big party", 9,
                   shared=with_fields(invite, object="Isabella Rodriguez is throwing a big party",
                                      event=None))  # fmt: skip
    after = datetime(2023, 2, 15, 9)
    said = Brain(seed=0).answer(context(maria, after, (remark, dated)), "Is there a party?")
    assert "was" in said or "went" in said or "hosted" in said, said
    assert "is throwing" not in said and "is hosting" not in said, said


def test_news_heard_from_the_person_it_is_about_does_not_name_them_twice() -> None:
    """'Isabella says Isabella is having a party' and 'Sam told me Sam is running' read as
    two people; the teller says 'the host' or 'they' instead, in every phrasing."""
    from datetime import datetime

    from game.brains.scripted import hearsay
    from game.core.records import Event

    party = Event(
        "Hobbs Cafe", datetime(2023, 2, 14, 17), datetime(2023, 2, 14, 19), "party", "Isa Ro"
    )
    lines = set()
    for speaker in ("A B", "C D", "E F", "G H"):
        for listener in ("I J", "K L", "M N", "O P", "Q R"):
            now = datetime(2023, 2, 13, 16)
            lines.add(hearsay.event_news(party, "Isa Ro", speaker, listener, now, None))
            fact = "Sam Mo is running for mayor"
            lines.add(hearsay.hearsay(fact, "Sam Mo", "Sam Mo", speaker, listener))
    for line in lines:
        assert line.count("Isa") <= 1 and line.count("Sam") <= 1, line
    assert any("told me" in line or "saying" in line for line in lines)


def test_her_as_the_object_becomes_me_and_as_the_possessive_my() -> None:
    from game.brains.scripted.wording import first_person, mine
    from game.world.scenario import load_world

    isabella = next(r for r in load_world("three")[0].residents if r.name == "Isabella Rodriguez")
    assert mine("jokes always make her laugh", isabella) == "jokes always make me laugh"
    assert mine("helps her neighbours and tells her that", isabella) == (
        "helps my neighbours and tells me that"
    )
    said = first_person("Isabella Rodriguez is proud of her cafe", isabella)
    assert said == "I'm proud of my cafe"


def test_a_relationship_told_from_the_personas_side_is_said_as_ones_own() -> None:
    from test_scripted_personas import smallville

    from game.brains.scripted.wording import relation_in_first_person

    for persona in smallville().residents:
        for _, relation in persona.relationships:
            if relation.startswith(("her ", "his ")):
                said = relation_in_first_person(relation, persona)
                assert said.startswith("my "), (persona.name, relation, said)


def test_a_verb_told_of_the_persona_is_conjugated_for_i() -> None:
    from test_scripted_personas import smallville

    from game.brains.scripted.wording import relation_in_first_person

    maria = next(p for p in smallville().residents if p.name == "Maria Lopez")
    said = relation_in_first_person("the owner of the cafe where she studies", maria)
    assert said == "the owner of the cafe where I study"


def test_a_seed_clause_in_the_first_person_says_i_for_every_he_or_she_of_the_persona() -> None:
    """'Arthur wants to invite as many people as he can' is 'I want to invite as many
    people as I can', not '... as he can' (an independent check found the latter)."""
    from test_scripted_personas import smallville

    from game.brains.scripted.wording import first_person

    town = {p.name: p for p in smallville().residents}
    arthur, isabella = town["Arthur Burton"], town["Isabella Rodriguez"]
    said = first_person("Arthur wants to invite as many people as he can", arthur)
    assert said == "I want to invite as many people as I can"
    said = first_person(
        "Arthur Burton hopes he goes home early and that it makes him smile", arthur
    )
    assert said == "I hope I go home early and that it makes me smile"
    said = first_person("Isabella thinks she has earned it, and she's proud of herself", isabella)
    assert said == "I think I have earned it, and I'm proud of myself"
    said = first_person("Isabella hopes her friends will bring their own cups", isabella)
    assert said == "I hope my friends will bring their own cups"  # 'their' is the friends'
    said = first_person("Arthur likes Isabella because she listens", arthur)
    assert said == "I like Isabella because she listens"  # another's pronoun stays


def test_ones_own_occupation_is_said_with_my_not_his() -> None:
    """Ryan's occupation is 'software engineer building his own app': asked what he does,
    he said 'By trade I'm a software engineer building his own app'."""
    from test_scripted_personas import context, smallville

    from game.brains.scripted import interview

    asked = ("What do you do for a living?", "Tell me about yourself.", "Where do you work?")
    for name in ("Ryan Park", "Rajiv Patel"):
        me = smallville().resident(name)
        for seed in range(3):
            for question in asked:
                said = interview.answer(context(me), question, seed)
                assert not re.search(r"\b(?:his|her)\b", said), (name, question, said)


def test_ones_own_interests_in_small_talk_are_said_with_my() -> None:
    """Arthur's interest "his regulars' stories" came out as 'I've been thinking a lot
    about his regulars' stories lately.'"""
    from test_scripted_personas import context, smallville

    from game.brains.scripted.talk_small import _interest_lines

    arthur = smallville().resident("Arthur Burton")
    said = [
        line
        for seed in range(12)
        for line in _interest_lines(context(arthur), "Tom Moreno", (seed, "x"))
        if "regulars" in line
    ]
    assert said and not [s for s in said if re.search(r"\bhis\b", s)], said
