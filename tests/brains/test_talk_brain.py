"""The talk-only model brain (issue 22) against the local protocol server: the visitor's
chat and interviews go to the model, everything else stays scripted, and the server's
request counts show it. Every answer says who gave it; a failing endpoint gives marked
scripted fallbacks; a scripted save's residents answer through the model from their
own memories."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from llm_helpers import ctx, serve, settings
from protocol_server import refused_url

from game.brains.questions import Answer, Converse, Utter
from game.brains.scripted import ScriptedBrain
from game.brains.talk import TalkBrain, TalkKind, TalkRoutes
from game.core.records import AnsweredBy
from game.sim.evaluation import ask_many
from game.sim.events import EventKind
from game.sim.factory import build_simulation, make_embedder
from game.sim.saves import load_game, save_game

KLAUS = "Klaus Mueller"
TALK = {"answer", "utter", "converse"}  # the conversation questions' schema titles


@pytest.fixture
def server():
    yield from serve()


def morning(sim, hour: int = 10) -> None:
    """Run the town (lockstep) to `hour` on its first day: everyone is up."""
    midnight = datetime.combine(sim.now.date(), datetime.min.time())
    sim.run_until(midnight + timedelta(hours=hour, minutes=30))


def talk_town(url: str, tmp_path, **options):
    return build_simulation("three", seed=0, talk="llm", llm=settings(url, tmp_path), **options)


def chat(sim, resident: str, text: str):
    """The visitor beside the resident says a line; the resident's reply (a few steps)."""
    visitor = sim.visitor or sim.player.add_visitor("Robin")
    visitor.pos = sim.agents[resident].pos
    before = len(sim.chats.get(resident, []))
    sim.player.visitor_say(resident, text)
    for _ in range(12):
        sim.step()
        lines = sim.chats.get(resident, [])
        if len(lines) > before + 1 and lines[-1].speaker == resident:
            return lines[-1]
    raise AssertionError(f"{resident} did not answer {text!r}")


def chat_paths(server) -> list[str]:
    return [r["path"] for r in server.requests]


def test_only_the_visitors_chat_and_interviews_reach_the_model(server, tmp_path):
    sim = talk_town(server.url, tmp_path)
    try:
        morning(sim)
        # A whole scripted morning: plans, places, importance, reactions, the residents'
        # own conversations; not one request (not even an embeddings probe).
        assert server.requests == []
        assert sim.brain_name == "scripted"
        assert sim.mind.embedder.name == make_embedder(ScriptedBrain(0)).name  # the town's
        reply = chat(sim, KLAUS, "Hello Klaus! What are you working on today?")
        assert reply.by is AnsweredBy.MODEL
        answers = ask_many(sim, KLAUS, ["What are you doing right now?", "And after that?"])
        assert [a.by for a in answers] == [AnsweredBy.MODEL, AnsweredBy.MODEL]
        assert dict(server.by_question) == {"utter": 1, "answer": 2}
        assert all(p.endswith("/chat/completions") for p in chat_paths(server))
        talk = sim.usage()["talk"]
        assert talk["town_brain"] == "scripted" and talk["talk_brain"] == "llm"
        assert talk["answers"] == {"interview": {"model": 2}, "visitor chat": {"model": 1}}
        assert sim.usage()["by_question"]["answer"]["calls"] == 2
        logged = [e for e in sim.log.of(EventKind.CONVERSATION) if e.data.get("visitor")]
        assert logged[-1].data["answered_by"] == ["", "model"]  # the visitor's line, his
    finally:
        sim.close()


def test_residents_own_conversations_go_to_the_model_when_asked(server, tmp_path):
    sim = talk_town(server.url, tmp_path, own_talk=True)
    try:
        morning(sim, hour=14)
        talks = [e for e in sim.log.of(EventKind.CONVERSATION) if not e.data.get("visitor")]
        assert talks, "the three residents talked by the afternoon"
        assert set(server.by_question) <= TALK and server.by_question["converse"] >= 1
        assert all(set(e.data["answered_by"]) == {"model"} for e in talks)
        assert sim.usage()["talk"]["answers"]["residents' conversations"]["model"] >= 1
    finally:
        sim.close()


def test_residents_own_conversations_stay_scripted_by_default(server, tmp_path):
    sim = talk_town(server.url, tmp_path)
    try:
        morning(sim, hour=14)
        talks = [e for e in sim.log.of(EventKind.CONVERSATION) if not e.data.get("visitor")]
        assert talks and server.requests == []
        assert all(set(e.data["answered_by"]) == {"scripted"} for e in talks)
    finally:
        sim.close()


def test_a_failing_endpoint_gives_marked_scripted_fallbacks(server, tmp_path):
    server.always = "server_error"
    s = settings(server.url, tmp_path, network_retries=0)
    sim = build_simulation("three", seed=0, talk="llm", llm=s)
    try:
        morning(sim)
        reply = chat(sim, KLAUS, "Hello Klaus! What are you working on today?")
        assert reply.by is AnsweredBy.FALLBACK and reply.text
        (answer,) = ask_many(sim, KLAUS, ["What are you doing right now?"])
        assert answer.by is AnsweredBy.FALLBACK
        assert answer.answer and not answer.answer.startswith("[")  # the field says it
        counts = sim.usage()["talk"]["answers"]
        assert counts["interview"] == {"scripted fallback": 1}
        assert counts["visitor chat"] == {"scripted fallback": 1}
    finally:
        sim.close()


def test_an_unreachable_endpoint_is_a_fallback_too(tmp_path):
    sim = build_simulation("three", seed=0, talk="llm", llm=settings(refused_url(), tmp_path))
    try:
        morning(sim)
        (answer,) = ask_many(sim, KLAUS, ["Who do you live with?"])
        assert answer.by is AnsweredBy.FALLBACK and answer.answer
    finally:
        sim.close()


def test_a_scripted_save_is_interviewed_through_the_model(server, tmp_path):
    """Any save: the model answers a scripted town's residents from their memories (the
    memories the scripted brain wrote, with its embedder)."""
    town = build_simulation("three", seed=0)
    morning(town)
    save_game(town, "plain", tmp_path)
    town.close()
    sim = load_game("plain", tmp_path, talk="llm", llm=settings(server.url, tmp_path))
    try:
        assert sim.brain_name == "scripted"
        (answer,) = ask_many(sim, KLAUS, ["What did you do this morning?"])
        assert answer.by is AnsweredBy.MODEL and answer.answer
        assert dict(server.by_question) == {"answer": 1}
        prompt = server.chat_requests()[0]["body"]["messages"][-1]["content"]
        assert KLAUS in prompt  # his own memories and summary went to the model
    finally:
        sim.close()


def test_without_a_model_nothing_is_marked_and_nothing_is_wrapped():
    sim = build_simulation("three", seed=0)
    try:
        assert isinstance(sim.mind.brain, ScriptedBrain)
        morning(sim)
        (answer,) = ask_many(sim, KLAUS, ["What are you doing right now?"])
        assert answer.by is AnsweredBy.SCRIPTED
        talks = sim.log.of(EventKind.CONVERSATION)
        assert all("answered_by" not in e.data for e in talks)
    finally:
        sim.close()


def test_routes_tell_the_three_kinds_of_talk_apart():
    routes = TalkRoutes(frozenset({KLAUS, "Maria Lopez"}), own_talk=False)
    assert routes.kind(Answer(ctx(), "How are you?")) is TalkKind.INTERVIEW
    assert routes.kind(Utter(ctx(), "Robin")) is TalkKind.VISITOR_CHAT
    assert routes.kind(Utter(ctx(), "Maria Lopez")) is TalkKind.RESIDENTS
    assert routes.kind(Converse(ctx(), ctx("Maria Lopez"), 4)) is TalkKind.RESIDENTS
    assert not routes.is_talk(TalkKind.RESIDENTS) and routes.is_talk(TalkKind.VISITOR_CHAT)
    both = TalkBrain(ScriptedBrain(0), ScriptedBrain(1), routes)
    line = both.ask(Utter(ctx(), "Robin"))
    assert line.by is AnsweredBy.SCRIPTED  # a scripted talk brain says so too
