"""The judges read answer text: each against answers worked by hand."""

import pytest

from game.brains.questions import JudgeAnswer
from game.brains.scripted import ScriptedBrain
from game.sim.judge import (
    claimed_host,
    claimed_source,
    claims_acquaintance,
    content_words,
    keyword_verdict,
    named_times,
    score_answer,
    share_good,
)
from game.world.scenario import load_scenario

SMALLVILLE = load_scenario("smallville")
PARTY = SMALLVILLE.intent("party")
ELECTION = SMALLVILLE.intent("election")
NAMES = [r.name for r in SMALLVILLE.residents]


@pytest.mark.parametrize(
    ("answer", "carries", "missing"),
    [
        ("Isabella is hosting a party at the cafe at 5 pm.", True, ()),
        ("There's a party at Hobbs Cafe on February 14.", True, ()),
        # the keyword, but not the facts (the issue's own example)
        (
            "As far as I know, Klaus Mueller is meeting new people at the party.",
            False,
            ("host or place", "day or time"),
        ),
        ("Isabella Rodriguez is throwing a party.", False, ("day or time",)),
        ("Something is on at 5 pm, I think.", False, ("host or place",)),
        ("I haven't heard about Isabella's party at 5 pm.", False, ()),  # a denial
    ],
)
def test_party_rubric(answer, carries, missing):
    verdict = keyword_verdict(PARTY, answer)
    assert verdict.carries is carries and verdict.missing == missing


@pytest.mark.parametrize(
    ("answer", "carries"),
    [
        ("Sam Moore is running for mayor.", True),
        ("I heard Sam is in the mayoral race.", True),
        ("Someone is running for mayor, the same as last time.", False),  # 'same' is not Sam
        ("Sam Moore is a neighbour of mine.", False),  # no office
        ("There's an election coming up.", False),
    ],
)
def test_election_rubric(answer, carries):
    assert keyword_verdict(ELECTION, answer).carries is carries


def test_the_holder_names_itself_with_i():
    own = "Yes! I'm running for mayor of Smallville in the upcoming local election."
    assert keyword_verdict(ELECTION, own, "Sam Moore").carries
    assert not keyword_verdict(ELECTION, own, "Ayesha Khan").carries  # her 'I' is not Sam
    q = JudgeAnswer(
        "Sam Moore", ELECTION.question, own, ELECTION.text, ELECTION.rubric, "Sam Moore"
    )
    assert ScriptedBrain(0).ask(q) is True


def test_the_scripted_judge_rule_is_the_keyword_judge():
    brain = ScriptedBrain(0)
    for answer in ("Sam Moore is running for mayor.", "There's an election coming up."):
        q = JudgeAnswer("Ayesha Khan", ELECTION.question, answer, ELECTION.text, ELECTION.rubric)
        assert brain.ask(q) is keyword_verdict(ELECTION, answer).carries


@pytest.mark.parametrize(
    ("answer", "claims"),
    [
        ("Klaus Mueller is a classmate and friend.", True),
        ("Yes, Sam is my neighbour.", True),
        ("I don't know who that is.", False),
        ("No, I've never met her.", False),
        ("I've heard the name Sam Moore, but I don't really know them.", False),
        ("", False),
    ],
)
def test_acquaintance_claims(answer, claims):
    assert claims_acquaintance(answer) is claims


def test_times_sources_and_hosts():
    assert named_times("from 5 pm to 7:30 p.m., or 17:00") == (1020, 1170, 1020)
    assert named_times("at 12 am") == (0,)
    text = "Isabella told me that Isabella Rodriguez is hosting a party."
    assert claimed_source(text, NAMES, "Klaus Mueller") == "Isabella Rodriguez"
    assert claimed_source("I heard it from Sam at lunch.", NAMES, "Klaus Mueller") == "Sam Moore"
    assert claimed_source("Isabella told me so.", NAMES, "Isabella Rodriguez") == ""
    assert claimed_host(text, NAMES) == "Isabella Rodriguez"
    said = "Maria's Valentine party is on Friday."
    assert claimed_host(said, NAMES, PARTY.keywords) == "Maria Lopez"
    assert claimed_host(said, NAMES) == ""  # what this event is called comes from its intent
    assert claimed_host("There is a party.", NAMES, PARTY.keywords) == ""
    assert claimed_host("Tom's chili cook-off is at six.", NAMES, ("cook-off",)) == "Tom Moreno"
    assert claimed_host("Tom's going to do the dishes.", NAMES, ("cook-off",)) == ""


def test_specific_and_grounded():
    grounding = content_words("Ayesha is writing her thesis on Shakespeare in the library")
    question = "What are your interests?"
    good = score_answer(question, "My thesis on Shakespeare, mostly, in the library.", grounding)
    vague = score_answer(question, "I'm not sure. I don't know anything about that.", grounding)
    made_up = score_answer(question, "Racing yachts across stormy oceans with pirates.", grounding)
    assert good.good
    assert not vague.specific
    assert made_up.specific and not made_up.grounded
    assert share_good([good, vague, made_up]) == pytest.approx(1 / 3, abs=1e-4)
