"""LLMBrain: the whole Brain protocol over a real local server, its embeddings (and the
offline fallback), the budget guard, the usage meter, and the call economy."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest
from llm_helpers import NOW, ctx, resident, serve, settings

from game.brains import questions as B
from game.brains.llm import LLMBrain
from game.brains.llm.brain import REACT_QUIET
from game.brains.protocol import Brain, Embedder
from game.brains.questions import Draft, Spot
from game.core.records import ActionKind, MemoryKind, Observation, PlanItem, ReactionKind, Source
from game.mind import facts
from game.mind.cognition import converse_job
from game.sim.factory import build_simulation


@pytest.fixture
def server():
    yield from serve()


def brain(server, tmp_path, **changes) -> LLMBrain:
    return LLMBrain(settings(server.url, tmp_path, **changes), seed=0)


def calls(server) -> int:
    return len(server.chat_requests())


def draft(text: str, **fields) -> Draft:
    return Draft(MemoryKind.OBSERVATION, text, facts.statement("", text, Source.SEEN), **fields)


def rate(b: LLMBrain, persona, texts: list[str]) -> tuple[int, ...]:
    return b.ask(B.RateImportance(persona, tuple(draft(t) for t in texts)))


def seen(name: str, doing: str, kind: ActionKind | None = ActionKind.PLAN) -> Observation:
    fact = facts.doing(name, doing, Source.SEEN)
    return Observation(name, facts.render(fact), True, doing, fact, kind)


SPOTS = (
    Spot("library", "desk", "Oak Hill College:library:desk"),
    Spot("classroom", "blackboard", "Oak Hill College:classroom:blackboard"),
)


def test_it_is_a_brain_with_a_name_a_model_and_an_endpoint(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    assert isinstance(b, Brain) and b.knows(B.Converse) and all(b.knows(k) for k in B.ALL)
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


def test_every_question_is_answered_through_the_endpoint_with_its_answer_type(
    server, tmp_path
) -> None:
    b = brain(server, tmp_path)
    c = ctx()
    p = c.persona
    item = PlanItem("studying", NOW, 30, "Oak Hill College")
    stove_fact = facts.object_state("Hobbs Cafe:kitchen:stove", "burning")
    stove = Observation("Hobbs Cafe:kitchen:stove", "the stove is burning", False, "burning",
                        stove_fact)  # fmt: skip
    asked = [
        B.RateImportance(p, (draft("Klaus Mueller is reading a novel"),)),
        B.PlanDay(
            c,
            "",
            NOW.replace(hour=7),
            NOW.replace(hour=23),
            (B.Place(p.home), B.Place("Hobbs Cafe", 480, 1200)),
        ),  # fmt: skip
        B.DecomposeSteps(c, item, SPOTS),
        B.ChooseSector(c, "reading", ("Oak Hill College", "Hobbs Cafe")),
        B.ChooseSpot(c, "reading", "Oak Hill College", SPOTS),
        B.ActionDetails(p, "making tea", "kettle", "idle"),
        B.Emoji(p, "jogging in the park"),
        B.React(c, stove),
        B.Utter(c, "Maria Lopez", ()),
        B.Converse(c, ctx("Maria Lopez"), 6),
        B.ReflectQuestions(p, ()),
        B.Summarize(p, "Klaus's core characteristics", ()),
        B.Answer(c, "Who are you?"),
    ]
    for q in asked:
        assert B.is_answer(q, b.ask(q)), type(q).__name__
    u = b.usage()
    assert u["fallbacks"] == 0 and u["calls"] >= len(asked)
    assert u["prompt_tokens"] > 0 and u["completion_tokens"] > 0
    assert set(u["by_agent"]) >= {"Klaus Mueller"}
    assert u["by_question"]["plan_day"]["calls"] == 1


def test_a_wrong_argument_fails_when_the_question_is_built() -> None:
    with pytest.raises(B.QuestionError, match="options"):
        B.ChooseSector(ctx(), "reading", ["a", "b"])  # a list, not a tuple
    with pytest.raises(B.QuestionError, match="item"):
        B.DecomposeSteps(ctx(), "studying", ())


# -- economy -------------------------------------------------------------------------------
def test_one_decomposition_carries_what_the_later_questions_would_ask(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    c = ctx()
    broad = PlanItem("studying for the seminar", NOW, 120, "Oak Hill College")
    chunks = b.ask(B.DecomposeHours(c, broad, SPOTS))
    assert calls(server) == 1 and sum(h.item.minutes for h in chunks) == 120
    step = chunks[0].steps[0]
    assert step.place in {s.address for s in SPOTS}  # a spot from the sector's own tree
    assert step.state and step.emoji and 1 <= step.importance <= 10
    sector = B.ChooseSector(c, step.description, ("Oak Hill College", "Hobbs Cafe"), "", step.place)
    assert b.ask(sector) == "Oak Hill College"
    spot = B.ChooseSpot(c, step.description, "Oak Hill College", SPOTS, "", step.place)
    assert b.ask(spot).address == step.place
    rated = Draft(MemoryKind.OBSERVATION, "x", facts.doing("Klaus Mueller", step.description,
                  Source.SELF), known=step.importance)  # fmt: skip
    assert b.ask(B.RateImportance(c.persona, (rated,))) == (step.importance,)
    assert calls(server) == 1
    again = PlanItem("studying for the seminar", NOW + timedelta(days=1), 120, "Oak Hill College")
    b.ask(B.DecomposeHours(c, again, SPOTS))  # an identical task reuses its decomposition
    assert calls(server) == 1
    assert b.usage()["cache_hits"] >= 1 and b.usage()["skipped"] >= 3


def test_memos_are_kept_per_resident(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    b.ask(B.Emoji(resident("Klaus Mueller"), "reading"))
    b.ask(B.Emoji(resident("Klaus Mueller"), "reading"))
    assert calls(server) == 1
    b.ask(B.Emoji(resident("Maria Lopez"), "reading"))  # another resident asks for itself
    assert calls(server) == 2


def test_routine_sights_are_not_asked_about_and_quiet_lasts(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    c = ctx()
    fact = facts.object_state("Oak Hill College Dorm:kitchen:kettle", "in use")
    kettle = Observation(fact.address, "the kettle is in use", False, "in use", fact, routine=True)
    assert b.ask(B.React(c, kettle)).kind is ReactionKind.CONTINUE
    asleep = seen("Maria Lopez", "sleeping", ActionKind.SLEEP)
    sights = (Draft(MemoryKind.OBSERVATION, asleep.text, asleep.fact, routine=True),)
    assert b.ask(B.RateImportance(c.persona, sights))
    assert calls(server) == 0
    server.forced["react"] = {"decision": "continue", "action": "", "minutes": 0}
    assert b.ask(B.React(c, seen("Maria Lopez", "reading"))).kind is ReactionKind.CONTINUE
    writing = seen("Maria Lopez", "writing")
    assert b.ask(B.React(c, writing)).kind is ReactionKind.CONTINUE  # no second look yet
    later = replace(c, now=c.now + REACT_QUIET + timedelta(minutes=1))
    b.ask(B.React(later, writing))
    assert calls(server) == 2


def test_sights_noticed_at_once_are_one_request_and_calm_ones_none(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    c = ctx()
    maria, eddy, carmen = (seen(n, "reading") for n in ("Maria Lopez", "Eddy Lin", "Carmen Ortiz"))
    server.forced["react"] = {"decision": "continue", "action": "", "minutes": 0}
    b.ask(B.React(c, maria))  # Maria just considered: calm about her for a while
    asked = (B.React(c, maria), B.React(c, eddy), B.React(c, carmen))
    talk = {"decision": "talk", "action": "", "minutes": 0}
    carry_on = {"decision": "continue", "action": "", "minutes": 0}
    server.forced["react_each"] = {"answers": [carry_on, talk]}
    got = b.ask(B.ReactEach(c, asked))
    assert [r.kind for r in got] == [
        ReactionKind.CONTINUE,
        ReactionKind.CONTINUE,
        ReactionKind.TALK,
    ]
    assert got[2].target == "Carmen Ortiz"
    assert server.by_question["react_each"] == 1 and server.by_question["react"] == 1
    assert "Eddy Lin" in server.chat_requests()[-1]["body"]["messages"][-1]["content"]
    again = b.ask(B.ReactEach(c, asked))  # Maria and Eddy calm: Carmen asked alone
    assert len(again) == 3 and server.by_question["react"] == 2
    assert server.by_question["react_each"] == 1
    assert "Maria Lopez" not in server.chat_requests()[-1]["body"]["messages"][-1]["content"]


def test_a_spot_and_its_objects_state_are_one_request(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    c, p = ctx(), resident()
    then = (B.ActionDetails(p, "reading", "desk", "idle"), None)
    choose = B.ChooseSpot(c, "reading", "Oak Hill College", SPOTS)
    server.forced["spot_details"] = {"choice": "library: desk", "state": "in use", "emoji": "📚"}
    spot, details = b.ask(B.SpotDetails(c, choose, then))
    assert spot == SPOTS[0] and details == B.Details("in use", "📚") and calls(server) == 1
    hinted = replace(choose, hint=SPOTS[1].address)  # the plan names it: nothing to choose
    assert b.ask(B.SpotDetails(c, hinted, then)) == (SPOTS[1], None)
    assert calls(server) == 1 and b.usage()["by_question"]["choose_spot"]["skipped"] == 1
    hinted = replace(choose, hint=SPOTS[0].address)  # only what follows is asked
    spot, details = b.ask(B.SpotDetails(c, hinted, then))
    assert spot == SPOTS[0] and details is not None and server.by_question["object_state"] == 1


def test_a_conversation_is_one_request_that_also_rates_it(server, tmp_path) -> None:
    sim = build_simulation("three", seed=1, brain="llm", llm=settings(server.url, tmp_path))
    try:
        a, b = (sim.agents[n].snapshot(sim.now) for n in ("Klaus Mueller", "Maria Lopez"))
        before = dict(server.by_question)
        effects = converse_job(sim.mind, a, b, sim.surroundings())
    finally:
        sim.close()
    assert server.by_question["converse"] - before.get("converse", 0) == 1
    assert "utter" not in server.by_question
    talk = effects[0].conversation
    assert talk is not None and len(talk.lines) >= 2 and talk.lines[0].speaker == "Klaus Mueller"
    transcript = effects[0].memories[0]
    assert transcript.fact.participants == ("Klaus Mueller", "Maria Lopez")
    assert [(line.speaker, line.text) for line in transcript.fact.lines] == [
        (u.speaker, u.text) for u in talk.lines
    ]


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
        rate(b, p, [f"text {i}"])
    assert calls(server) == 2
    said = [n for n in b.notices if "cap" in n]
    assert len(said) == 1 and "scripted" in said[0]
    assert b.usage()["fallbacks"] == 2 and b.usage()["budget_spent"]


def test_past_the_budget_the_scripted_brain_answers(server, tmp_path) -> None:
    b = brain(server, tmp_path, budget_usd=0.0001, price_input_per_mtok=1000.0, embeddings=False)
    for i in range(3):
        rate(b, resident(), [f"text {i}"])
    assert calls(server) == 1
    assert b.usage()["cost_usd"] > 0.0001 and "budget" in b.usage()["budget_spent"]


@pytest.mark.parametrize("count", [1, 2])
def test_usage_by_agent_adds_up(server, tmp_path, count) -> None:
    b = brain(server, tmp_path, embeddings=False)
    for name in ("Klaus Mueller", "Maria Lopez")[:count]:
        rate(b, resident(name), ["a fresh memory"])
    u = b.usage()
    assert sum(a["calls"] for a in u["by_agent"].values()) == u["calls"]
    assert u["by_question"]["importance"]["calls"] == u["calls"]


def test_a_question_two_jobs_ask_at_once_is_sent_once(server, tmp_path) -> None:
    """A resident's overlapping jobs (a decision, a thought, one asked ahead) may ask the
    same remembered question together: one request, as if asked one after the other."""
    from concurrent.futures import ThreadPoolExecutor

    server.latency = 0.2
    b = brain(server, tmp_path)
    question = B.Emoji(resident("Klaus Mueller"), "reading")
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: b.ask(question), range(4)))
    assert calls(server) == 1 and len(set(answers)) == 1
    assert b.usage()["cache_hits"] == 3


def embedding_texts(server) -> list[list[str]]:
    return [r["body"]["input"] for r in server.requests if r["path"].endswith("/embeddings")]


def test_texts_foreseen_ride_with_the_next_request_newest_first(server, tmp_path) -> None:
    """Riders fill the room a request has left, the newest first: they are the likeliest
    to be needed soon (what someone was just seen doing)."""
    b = brain(server, tmp_path, embed_batch=2)
    b.embedder.inner.linger = 0  # they wait for a request, however long
    b.embedder.embed(["warming up"])  # the endpoint's probe, out of the way
    b.embedder.later(["an old text", "a text from before"])
    b.embedder.later(["what was just seen"])
    before = len(embedding_texts(server))
    b.embedder.embed(["a query"])  # room for one rider
    assert embedding_texts(server)[before:] == [["a query", "what was just seen"]]
    assert list(b.embedder.peek(["what was just seen", "an old text"])) == ["what was just seen"]


def test_texts_foreseen_that_no_request_takes_go_on_their_own(server, tmp_path) -> None:
    """Riders nobody's request takes go in one request of their own after a moment, so
    the job that needs them finds them kept instead of asking and waiting for them."""
    b = brain(server, tmp_path)
    b.embedder.inner.linger = 0.05
    b.embedder.embed(["warming up"])
    before = len(embedding_texts(server))
    b.embedder.later(["what was just seen", "what will be seen"])
    for _ in range(200):
        if len(b.embedder.peek(["what was just seen", "what will be seen"])) == 2:
            break
        time.sleep(0.02)
    assert embedding_texts(server)[before:] == [["what was just seen", "what will be seen"]]
    b.embedder.embed(["what will be seen"])  # kept: no request
    assert len(embedding_texts(server)) == before + 1


def test_a_text_on_the_wire_with_riders_is_waited_for_not_asked_again(server, tmp_path) -> None:
    b = brain(server, tmp_path)
    b.embedder.embed(["warming up"])
    server.latency = 1.0
    b.embedder.inner.linger = 0.01
    before = len(embedding_texts(server))
    b.embedder.later(["what was just seen"])
    time.sleep(0.4)  # its own request is on the wire
    got = b.embedder.embed(["what was just seen", "a query"])
    assert embedding_texts(server)[before:] == [["what was just seen"], ["a query"]]
    alone = brain(server, tmp_path).embedder.embed(["what was just seen"])
    assert np.allclose(got[0], alone[0])


def test_an_audit_log_that_cannot_be_opened_is_said_once(server, tmp_path, caplog):
    """`run --audit-log` into a folder it may not write printed 'the audit log cannot be
    written (...)' twice (the audit log's warning, then the brain's again) before the
    closing error line; it is still among the notices the report keeps."""
    import logging

    folder = tmp_path / "taken"
    folder.mkdir()
    with caplog.at_level(logging.WARNING):
        llm = brain(server, tmp_path, audit_file=str(folder))  # a folder, not a file
    said = [r.getMessage() for r in caplog.records if "audit log cannot" in r.getMessage()]
    assert len(said) == 1 and llm.usage()["notices"] == [llm.audit.problem] == said
    assert llm.unwritten == said
    llm.close()
