"""Interviews held as conversations, through the real path (understanding, retrieval, the
scripted brain's planned answers), on the small town."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.sim.evaluation import ask_many
from game.sim.factory import build_simulation
from game.world.scenario import load_scenario


@pytest.fixture(scope="module")
def town():
    sim = build_simulation("three", seed=3, workers=1)
    yield sim
    sim.close()


def at(sim, when: str):
    sim.run_until(datetime.fromisoformat(when))
    return sim


def test_a_follow_up_is_answered_from_the_topic_before_it(town):
    sim = at(town, "2023-02-14T09:00")
    asked = ["Got anything exciting on this week?", "What time does it kick off?"]
    first, follow = ask_many(sim, "Isabella Rodriguez", asked)
    assert "party" in first.answer.lower()
    assert follow.act.get("follow_up") and follow.act.get("intent") == "party"
    assert "5 pm" in follow.answer and not follow.fallback


def test_the_same_question_in_other_words_gets_a_compatible_answer(town):
    sim = at(town, "2023-02-14T09:30")
    a = ask_many(sim, "Isabella Rodriguez", ["How do you earn your living?"])[0].answer
    b = ask_many(sim, "Isabella Rodriguez", ["What's your job, exactly?"])[0].answer
    assert "Hobbs Cafe" in a and "Hobbs Cafe" in b


def test_an_ended_event_is_spoken_of_in_the_past(town):
    sim = at(town, "2023-02-15T10:00")
    said = ask_many(sim, "Isabella Rodriguez", ["Was there any party in town lately?"])[0]
    assert "party" in said.answer and ("hosted" in said.answer or "was" in said.answer)
    assert "I'm hosting" not in said.answer


def test_not_knowing_is_said_once_and_then_the_resident_asks_back(town):
    sim = at(town, "2023-02-15T10:30")
    first, second = ask_many(sim, "Klaus Mueller", ["What's the price of a zeppelin ticket?",
                                                    "How much does a submarine cost?"])  # fmt: skip
    assert first.fallback and second.fallback
    assert first.answer.startswith("I don't know") and "?" in second.answer
    assert second.answer != first.answer


def test_who_one_lives_with_comes_from_the_map_homes():
    scenario = load_scenario("smallville")
    homes = {r.name: r.home for r in scenario.residents}
    for r in scenario.residents:
        assert all(homes[o] == r.home for o in r.household) and r.name not in r.household
    assert any(r.household for r in scenario.residents)


def test_a_statement_is_taken_in_and_a_resident_never_repeats_a_line(town):
    sim = at(town, "2023-02-15T11:00")
    answers = ask_many(sim, "Maria Lopez", ["Where do you work?", "Where do you work?"])
    assert answers[0].answer != answers[1].answer
