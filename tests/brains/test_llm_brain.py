"""LLMBrain: the whole Brain protocol over a real local server, its embeddings (and the
offline fallback), the budget guard, the usage meter, and the call economy."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest
from llm_helpers import NOW, ctx, resident, serve, settings, town

from game.brains.llm import LLMBrain
from game.brains.protocol import Brain, Embedder, WholeConversation
from game.core.records import Observation, PlanItem, ReactionKind
from game.mind.cognition import converse_job
from game.sim.factory import build_simulation
from game.world.town import AreaKind


@pytest.fixture
def server():
    yield from serve()


def brain(server, tmp_path, **changes) -> LLMBrain:
    return LLMBrain(settings(server.url, tmp_path, **changes), seed=0, town=town())


def calls(server) -> int:
    return len(server.chat_requests())


def test_it_is_a_brain_with_a_name_a_model_and_an_endpoint(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    assert isinstance(b, Brain) and isinstance(b, WholeConversation)
    assert isinstance(b.embedder, Embedder)
    assert (b.name, b.model, b.base_url) == ("llm", "test-model", server.url)
    usage = b.usage()
    for key in (
        "calls",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
        "retries",
        "failures",
        "fallbacks",
        "cache_hits",
        "by_question",
        "by_agent",
    ):
        assert key in usage, key


def test_every_question_is_answered_through_the_endpoint(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    c = ctx()
    assert len(b.rate_importance(c.persona, ["Klaus Mueller is reading a novel"])) == 1
    plan = b.plan_day(c, "", NOW.replace(hour=7))
    assert plan and all(p.start >= NOW.replace(hour=7) for p in plan)
    item = PlanItem("studying", NOW, 30, "Oak Hill College")
    assert sum(s.minutes for s in b.decompose(c, item, 15)) == 30
    options = ["library", "classroom"]
    assert b.choose_area(c, "reading", AreaKind.ARENA, options, "", "") in options
    assert b.object_state(c.persona, "making tea", "kettle", "idle")
    assert b.emoji("jogging in the park")
    stove = Observation("Hobbs Cafe:kitchen:stove", "the stove is burning", False, "burning")
    assert b.react(c, stove).kind in ReactionKind
    assert b.utter(c, "Maria Lopez", ()).text
    lines = b.converse(c, ctx("Maria Lopez"), 6)
    assert lines[0].speaker == "Klaus Mueller" and lines[-1].end
    assert len(b.reflect_questions(c.persona, [])) == 3
    assert b.summarize(c.persona, "Klaus's core characteristics", [])
    assert b.answer(c, "Who are you?")
    u = b.usage()
    assert u["fallbacks"] == 0 and u["calls"] >= 11
    assert u["prompt_tokens"] > 0 and u["completion_tokens"] > 0
    assert set(u["by_agent"]) >= {"Klaus Mueller"}
    assert u["by_question"]["plan_day"]["calls"] == 1


# -- economy -------------------------------------------------------------------------------
def test_one_decomposition_answers_the_later_small_questions(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    c = ctx()
    broad = PlanItem("studying for the seminar", NOW, 120, "Oak Hill College")
    hours = b.decompose(c, broad, 60)
    assert calls(server) == 1 and sum(h.minutes for h in hours) == 120
    steps = b.decompose(c, hours[0], 15)  # answered by the same request
    assert calls(server) == 1
    step = steps[0]
    assert step.place.startswith("Oak Hill College:")  # a spot from the sector's own tree
    level_names = step.place.split(":")
    for depth, level in enumerate((AreaKind.SECTOR, AreaKind.ARENA, AreaKind.OBJECT)):
        options = [level_names[depth], "somewhere else"]
        assert b.choose_area(c, step.description, level, options, "", step.place) == options[0]
    assert b.object_state(c.persona, step.description, level_names[-1], "idle")
    assert b.emoji(step.description)
    assert b.rate_importance(c.persona, [f"Klaus Mueller is {step.description}"])
    assert calls(server) == 1
    again = PlanItem("studying for the seminar", NOW + timedelta(days=1), 120, "")
    b.decompose(c, again, 60)  # an identical task reuses its decomposition
    assert calls(server) == 1
    assert b.usage()["cache_hits"] >= 5 and b.usage()["skipped"] >= 3


def test_without_a_plan_hint_the_room_and_object_are_one_question(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    c = ctx()
    sectors = ["Hobbs Cafe", "Johnson Park"]
    sector = b.choose_area(c, "having a coffee", AreaKind.SECTOR, sectors, "", "")
    arenas = [a.name for a in town().children(sector, AreaKind.ARENA)]
    arena = b.choose_area(c, "having a coffee", AreaKind.ARENA, arenas, "", "")
    objects = [o.name for o in town().children(f"{sector}:{arena}", AreaKind.OBJECT)]
    if objects:
        assert b.choose_area(c, "having a coffee", AreaKind.OBJECT, objects, "", "") in objects
    assert server.by_question["choose_area"] == 2  # the sector, then 'room: object' at once
    offered = server.chat_requests()[-1]["body"]["response_format"]["json_schema"]["schema"]
    assert all(": " in o for o in offered["properties"]["choice"]["enum"] if objects)


def test_routine_sights_are_not_asked_about_and_quiet_lasts_an_hour(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    c = ctx()
    b.object_state(resident("Maria Lopez"), "making tea", "kettle", "idle")
    n = calls(server)
    state = b.object_state(resident("Maria Lopez"), "making tea", "kettle", "idle")
    seen = f"the kettle in the kitchen of Oak Hill College Dorm is {state}"
    kettle = Observation("Oak Hill College Dorm:kitchen:kettle", seen, False, state)
    assert b.react(c, kettle).kind is ReactionKind.CONTINUE
    assert b.rate_importance(c.persona, [seen])
    maria = Observation("Maria Lopez", "Maria Lopez is sleeping", True, "sleeping")
    assert b.rate_importance(c.persona, [maria.text])
    assert calls(server) == n
    server.forced["react"] = {"decision": "continue", "action": "", "minutes": 0}
    reading = Observation("Maria Lopez", "Maria Lopez is reading", True, "reading")
    assert b.react(c, reading).kind is ReactionKind.CONTINUE
    writing = Observation("Maria Lopez", "Maria Lopez is writing", True, "writing")
    assert b.react(c, writing).kind is ReactionKind.CONTINUE  # no second look within the hour
    later = replace(c, now=c.now + timedelta(minutes=61))
    b.react(later, writing)
    assert calls(server) == n + 2


def test_a_conversation_is_one_request(server, tmp_path) -> None:
    sim = build_simulation("three", seed=1, brain="llm", llm=settings(server.url, tmp_path))
    try:
        a, b = (sim.agents[n].snapshot(sim.now) for n in ("Klaus Mueller", "Maria Lopez"))
        before = dict(server.by_question)
        decisions = converse_job(sim.mind, a, b, sim.surroundings())
    finally:
        sim.close()
    assert server.by_question["converse"] - before.get("converse", 0) == 1
    assert "utter" not in server.by_question
    assert server.by_question["importance"] == before.get("importance", 0)  # rated inside
    talk = decisions[0].conversation
    assert talk is not None and len(talk.lines) >= 2 and talk.lines[0].speaker == "Klaus Mueller"


# -- embeddings -------------------------------------------------------------------------------
def test_embeddings_come_from_the_endpoint_batched_and_cached(server, tmp_path) -> None:
    b = brain(server, tmp_path, embed_batch=50)
    assert b.embedder.name == "openai:text-embedding-3-small" and b.embedder.dim == server.dim
    texts = [f"memory number {i} about the cafe" for i in range(120)]
    probe = len([r for r in server.requests if r["path"].endswith("/embeddings")])
    vectors = b.embedder.embed(texts)
    assert vectors.shape == (120, server.dim)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    sent = [r for r in server.requests if r["path"].endswith("/embeddings")][probe:]
    assert [len(r["body"]["input"]) for r in sent] == [50, 50, 20]
    b.embedder.embed(texts[:10])  # cached by text
    assert len([r for r in server.requests if r["path"].endswith("/embeddings")]) == probe + 3


def test_without_an_embeddings_endpoint_the_offline_embedder_is_used_and_said_once(
    server, tmp_path
) -> None:
    server.embeddings = False
    b = brain(server, tmp_path)
    assert b.embedder.name == "hash-ngram-256"
    assert b.embedder.embed(["the party at the cafe"]).shape == (1, 256)
    said = [n for n in b.notices if "embeddings" in n]
    assert len(said) == 1 and "offline embedder" in said[0]
    sim = build_simulation("three", brain="llm", llm=settings(server.url, tmp_path))
    sim.close()
    assert sim.mind.embedder.name == "hash-ngram-256"


# -- budget ---------------------------------------------------------------------------------------
def test_past_the_call_cap_the_scripted_brain_answers_and_says_so(server, tmp_path) -> None:
    b = brain(server, tmp_path, max_calls=2, embeddings=False)
    p = resident()
    for i in range(4):
        b.rate_importance(p, [f"text {i}"])
    assert calls(server) == 2
    said = [n for n in b.notices if "cap" in n]
    assert len(said) == 1 and "scripted" in said[0]
    assert b.usage()["fallbacks"] == 2 and b.usage()["budget_spent"]


def test_past_the_budget_the_scripted_brain_answers(server, tmp_path) -> None:
    b = brain(server, tmp_path, budget_usd=0.0001, price_input_per_mtok=1000.0, embeddings=False)
    for i in range(3):
        b.rate_importance(resident(), [f"text {i}"])
    assert calls(server) == 1
    assert b.usage()["cost_usd"] > 0.0001 and "budget" in b.usage()["budget_spent"]


@pytest.mark.parametrize("count", [1, 2])
def test_usage_by_agent_adds_up(server, tmp_path, count) -> None:
    b = brain(server, tmp_path, embeddings=False)
    for name in ("Klaus Mueller", "Maria Lopez")[:count]:
        b.rate_importance(resident(name), ["a fresh memory"])
    u = b.usage()
    assert sum(a["calls"] for a in u["by_agent"].values()) == u["calls"]
    assert u["by_question"]["importance"]["calls"] == u["calls"]
