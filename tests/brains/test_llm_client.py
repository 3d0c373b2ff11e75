"""The one call path against a real local HTTP server: structured-output modes and their
downgrades, invalid answers retried then replaced by the scripted answer, and the
endpoint's faults (429 with Retry-After, 500, a timeout, a refused connection, 401)."""

from __future__ import annotations

import json
import time

import pytest
from llm_helpers import SECRET, ctx, resident, serve, settings
from llm_helpers import client as make_client
from protocol_server import refused_url

from game.brains import questions as B
from game.brains.llm import specs as Q
from game.brains.scripted import ScriptedBrain
from game.core.records import MemoryKind, Source
from game.mind import facts

TEXTS = ["Klaus Mueller is reading", "Maria Lopez is planning a Valentine's Day party"]


@pytest.fixture
def server():
    yield from serve()


def drafts(texts) -> tuple[B.Draft, ...]:
    return tuple(
        B.Draft(MemoryKind.OBSERVATION, t, facts.statement("", t, Source.SEEN)) for t in texts
    )


def rate(c, texts=TEXTS):
    return c.ask(Q.IMPORTANCE, B.RateImportance(resident(), drafts(texts)), "Klaus Mueller")


def choose(c, options=("library", "classroom")):
    question = B.ChooseSector(ctx(), "reading", tuple(options))
    return c.ask(Q.CHOOSE_SECTOR, question, "Klaus Mueller")


def formats(server) -> list[str]:
    return [
        (r["body"].get("response_format") or {}).get("type", "text") for r in server.chat_requests()
    ]


def totals(c) -> dict:
    return c.meter.snapshot()


# -- structured output ------------------------------------------------------------------------
def test_schema_mode_is_tried_first_and_kept(server, tmp_path) -> None:
    c, _ = make_client(settings(server.url, tmp_path))
    assert all(1 <= r <= 10 for r in rate(c))
    assert choose(c) in ("library", "classroom")
    assert formats(server) == ["json_schema", "json_schema"]
    sent = server.chat_requests()[0]["body"]["response_format"]["json_schema"]
    assert sent["name"] == "importance" and sent["strict"] is True
    assert sent["schema"]["properties"]["ratings"]["items"]["type"] == "integer"


def test_an_endpoint_without_json_schema_gets_json_object_with_the_schema(server, tmp_path):
    server.accepts = {"json_object", "text"}  # what llama.cpp's server takes
    c, _ = make_client(settings(server.url, tmp_path))
    assert len(rate(c)) == 2 and choose(c) in ("library", "classroom")
    assert formats(server) == ["json_schema", "json_object", "json_object"]  # remembered
    body = server.chat_requests()[-1]["body"]
    assert body["response_format"]["schema"]["title"] == "choose_area"
    assert totals(c)["fallbacks"] == 0


def test_an_endpoint_without_structured_output_gets_text_and_json_is_extracted(server, tmp_path):
    server.accepts = {"text"}
    c, _ = make_client(settings(server.url, tmp_path))
    assert len(rate(c)) == 2
    assert choose(c) in ("library", "classroom")
    assert formats(server) == ["json_schema", "json_object", "text", "text"]
    prompt = server.chat_requests()[-1]["body"]["messages"][-1]["content"]
    assert "follows this JSON schema" in prompt  # the schema told in words
    assert totals(c)["fallbacks"] == 0 and totals(c)["calls"] == 2


def test_newer_models_get_max_completion_tokens_and_no_temperature(server, tmp_path) -> None:
    server.refuses = {"max_tokens", "temperature"}  # as OpenAI's reasoning models answer
    c, _ = make_client(settings(server.url, tmp_path))
    assert len(rate(c)) == 2 and len(rate(c)) == 2
    bodies = [r["body"] for r in server.chat_requests()]
    assert len(bodies) == 4  # two refusals, then every request is right the first time
    assert "max_completion_tokens" in bodies[-1] and "temperature" not in bodies[-1]
    assert totals(c)["fallbacks"] == 0


# -- invalid answers: retry with the error, then the scripted answer -----------------------------
def test_malformed_json_is_retried_with_the_error(server, tmp_path) -> None:
    server.faults.extend(["malformed"])
    c, _ = make_client(settings(server.url, tmp_path))
    assert len(rate(c)) == 2
    second = server.chat_requests()[1]["body"]["messages"]
    assert [m["role"] for m in second] == ["system", "user"]  # no bad answer quoted back
    assert "rejected: the reply held no valid JSON" in second[-1]["content"]
    t = totals(c)
    assert (t["retries"], t["failures"], t["fallbacks"]) == (1, 1, 0)


def scripted_importance() -> list[int]:
    return ScriptedBrain(0).ask(B.RateImportance(resident(), drafts(TEXTS)))


def test_wrong_types_are_retried_twice_then_fall_back(server, tmp_path) -> None:
    server.always = "wrong_types"
    c, _ = make_client(settings(server.url, tmp_path))
    assert rate(c) == scripted_importance()
    assert len(server.chat_requests()) == 3  # the question and two retries, no more
    t = totals(c)
    assert (t["retries"], t["failures"], t["fallbacks"]) == (2, 3, 1)
    assert t["by_question"]["importance"]["fallbacks"] == 1
    assert t["by_agent"]["Klaus Mueller"]["fallbacks"] == 1


def test_out_of_range_importance_falls_back(server, tmp_path) -> None:
    server.always = "out_of_range"
    c, _ = make_client(settings(server.url, tmp_path))
    assert rate(c) == scripted_importance()
    last = server.chat_requests()[-1]["body"]["messages"][-1]["content"]
    assert "between 1 and 10" in last


def test_unknown_area_falls_back_to_an_offered_one(server, tmp_path) -> None:
    server.always = "unknown_area"
    c, _ = make_client(settings(server.url, tmp_path))
    assert choose(c) in ("library", "classroom")
    assert len(server.chat_requests()) == 3
    assert "not one of the options" in server.chat_requests()[-1]["body"]["messages"][-1]["content"]
    assert totals(c)["by_question"]["choose_area"]["fallbacks"] == 1


def test_malformed_json_in_text_mode_falls_back_too(server, tmp_path) -> None:
    server.accepts = {"text"}
    server.always = "malformed"
    c, _ = make_client(settings(server.url, tmp_path))
    assert rate(c) == scripted_importance()
    assert totals(c)["fallbacks"] == 1


# -- endpoint faults ---------------------------------------------------------------------------
def test_429_waits_as_long_as_retry_after_says(server, tmp_path) -> None:
    server.faults.extend(["rate_limit", "rate_limit"])
    server.retry_after = "0.25"
    waits: list[float] = []
    c, _ = make_client(settings(server.url, tmp_path), waits)
    assert len(rate(c)) == 2
    assert waits == [0.25, 0.25]
    t = totals(c)
    assert t["retries"] == 2 and t["fallbacks"] == 0 and t["calls"] == 1


def test_server_errors_back_off_then_give_up_into_the_fallback(server, tmp_path) -> None:
    server.always = "server_error"
    waits: list[float] = []
    c, _ = make_client(settings(server.url, tmp_path, network_retries=3), waits)
    assert rate(c) == scripted_importance()
    assert len(waits) == 3 and waits[0] < waits[-1]  # exponential, with jitter
    assert len(server.chat_requests()) == 4
    assert totals(c)["failures"] == 1 and totals(c)["fallbacks"] == 1
    assert not c.down  # a bad moment, not a dead endpoint


def test_a_hanging_request_times_out_and_is_retried(server, tmp_path) -> None:
    server.faults.append("hang")
    server.hang_seconds = 1.5
    c, _ = make_client(settings(server.url, tmp_path, timeout=0.3))
    began = time.perf_counter()
    assert len(rate(c)) == 2
    assert time.perf_counter() - began < 1.4
    assert totals(c)["retries"] == 1 and totals(c)["fallbacks"] == 0


def test_a_refused_connection_is_said_once_and_the_scripted_brain_carries_on(tmp_path) -> None:
    c, notices = make_client(settings(refused_url(), tmp_path))
    assert rate(c) == scripted_importance()
    assert choose(c) in ("library", "classroom")
    assert len(notices) == 1 and "cannot reach" in notices[0] and "scripted" in notices[0]
    assert c.down and not c.fatal
    assert totals(c)["fallbacks"] == 2


def test_strict_makes_a_refused_connection_fatal(tmp_path) -> None:
    c, notices = make_client(settings(refused_url(), tmp_path, strict=True))
    rate(c)
    assert c.fatal and "cannot reach" in c.fatal and not notices  # the run's stop says it


def test_401_is_one_clear_message_without_the_key(server, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    server.always = "unauthorized"  # the server echoes the key back, as some do
    c, notices = make_client(settings(server.url, tmp_path))
    assert rate(c) == scripted_importance()
    rate(c)
    assert len(server.chat_requests()) == 1  # never asked again
    assert server.chat_requests()[0]["auth"] == f"Bearer {SECRET}"
    assert len(notices) == 1 and "401" in notices[0] and "OPENAI_API_KEY" in notices[0]
    assert SECRET not in notices[0]
    assert SECRET not in (tmp_path / "audit.jsonl").read_text()


def test_the_audit_log_holds_every_request_and_answer(server, tmp_path) -> None:
    server.faults.append("malformed")
    c, _ = make_client(settings(server.url, tmp_path))
    rate(c)
    lines = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [("answer" in x, "error" in x) for x in lines] == [
        (True, False),  # the malformed answer, as it came
        (False, True),  # the verdict on it
        (True, False),  # the re-ask's answer
    ]
    assert lines[1]["error"].startswith("invalid: ") and lines[1]["question"] == "importance"
    resent = lines[2]["request"]["messages"][-1]["content"]
    assert "rejected: " in resent  # the re-ask says what the problem was
    last = lines[-1]
    assert last["question"] == "importance" and last["agent"] == "Klaus Mueller"
    assert last["model"] == "test-model" and last["request"]["messages"][0]["role"] == "system"
    assert last["prompt_tokens"] > 0 and last["completion_tokens"] > 0 and "seconds" in last
    assert json.loads(last["answer"])["ratings"]


def test_the_cheap_model_answers_the_simple_questions(server, tmp_path) -> None:
    c, _ = make_client(settings(server.url, tmp_path, cheap_model="tiny"))
    rate(c)
    c.ask(Q.REFLECT_QUESTIONS, B.ReflectQuestions(resident(), ()), "Klaus Mueller")
    assert [r["body"]["model"] for r in server.chat_requests()] == ["tiny", "test-model"]
