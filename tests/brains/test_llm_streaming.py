"""Streamed answers and the two clocks of a request (issue 22, part 4), against the real
local protocol server: the first-token deadline, the answer's budget from tokens per
second times max_tokens, and a request ended by closing its stream, which the server
sees (it stops writing). Nothing of the openai package is replaced."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
from llm_fakes import ask
from llm_helpers import SECRET, serve

from game.brains.llm.flight import ASSUMED_SPEED, BUDGET_FLOOR, BUDGET_MARGIN, Pace
from game.brains.llm.model import Cancelled, Transient
from game.brains.llm.openai_chat import OpenAIChat, Streaming

SCHEMA = {
    "title": "importance",
    "type": "object",
    "properties": {"ratings": {"type": "array", "items": {"type": "integer"}}},
    "required": ["ratings"],
    "additionalProperties": False,
}


@pytest.fixture
def server():
    yield from serve()


def transport(url: str, first_token: float = 5.0, speed: float = 0.0, floor: float = 0.0):
    """A transport whose budget floor a test may lower (the default is 10 s)."""
    chat = OpenAIChat(url, lambda: SECRET, first_token, tokens_per_second=speed)
    if floor:
        chat.pace = replace(chat.pace, floor=floor)
    return chat


def question(max_tokens: int = 30):
    return ask("1. Klaus is reading", schema=SCHEMA, max_tokens=max_tokens)


def test_an_answer_streams_token_by_token_with_its_usage_and_timing(server) -> None:
    server.token_seconds = 0.01
    done = transport(server.url).stream(question())
    body = server.chat_requests()[-1]["body"]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    log = server.streams[-1]
    assert log.ended.wait(2.0)  # the server's thread may still be between its last writes
    assert log.finished and not log.hung_up
    assert done.reply.text.startswith('{"ratings": [') and done.reply.finish_reason == "stop"
    assert done.reply.completion_tokens == log.tokens  # the usage chunk's count
    assert 0 < done.first_token < done.last_token <= done.reply.seconds
    assert done.tokens_per_second() > 0


def test_the_budget_is_the_measured_speed_times_max_tokens_with_a_margin_and_a_floor() -> None:
    assert Pace(60, 4.0).budget(1500) == BUDGET_MARGIN * 1500 / 4.0  # 750 s
    assert Pace(60, 100.0).budget(30) == BUDGET_FLOOR  # never less than the floor
    assert Pace(60, 0.0).budget(300) == BUDGET_MARGIN * 300 / ASSUMED_SPEED  # not measured


def test_a_slow_answer_within_its_budget_outlasts_the_first_token_deadline(server) -> None:
    """The whole answer takes longer than `timeout`; only the first token must come by
    then (on a CPU, plan_day takes a minute and more)."""
    server.token_seconds = 0.06
    began = time.monotonic()
    reply = transport(server.url, first_token=0.4, speed=20.0, floor=0.5).chat(question(40))
    assert time.monotonic() - began > 0.4
    assert server.streams[-1].ended.wait(2.0)
    assert reply.text.startswith('{"ratings"') and server.streams[-1].finished


def test_a_server_that_keeps_generating_past_the_budget_sees_the_stream_closed(server) -> None:
    """The acceptance point: the client gives up at its budget and closes the stream;
    the server's next write fails, so it stops generating instead of finishing."""
    server.always = "endless"
    server.token_seconds = 0.02
    chat = transport(server.url, first_token=2.0, speed=50.0, floor=0.3)
    began = time.monotonic()
    with pytest.raises(Transient, match="ran past its budget of 0.4 s"):
        chat.chat(question(10))  # 2 x 10 tokens / 50 tokens/s = 0.4 s
    gave_up = time.monotonic() - began
    log = server.streams[-1]
    assert log.ended.wait(2.0), "the server is still writing"
    assert log.hung_up and not log.finished
    assert time.monotonic() - began < gave_up + 1.0
    written = log.tokens
    time.sleep(0.2)
    assert log.tokens == written  # nothing more was generated


def test_no_first_token_in_time_is_transient_and_the_late_stream_is_closed(server) -> None:
    server.first_token_seconds = 0.8
    with pytest.raises(Transient, match=r"no answer within 0.3 s \(no first token yet\)"):
        transport(server.url, first_token=0.3).chat(question())
    log = server.streams[-1]
    assert log.ended.wait(3.0) and log.hung_up and log.tokens <= 1


def test_closing_the_transport_closes_a_stream_in_flight(server) -> None:
    server.always = "endless"
    server.token_seconds = 0.02
    chat = transport(server.url, first_token=5.0, speed=1.0)  # a budget of a minute
    threading.Timer(0.3, chat.close).start()
    began = time.monotonic()
    with pytest.raises(Cancelled):
        chat.chat(question())
    assert time.monotonic() - began < 1.5
    log = server.streams[-1]
    assert log.ended.wait(2.0) and log.hung_up


def test_a_server_that_refuses_stream_options_is_streamed_without_them(server) -> None:
    server.refuses = {"stream_options"}
    chat = transport(server.url)
    reply = chat.chat(question())
    assert chat.streaming is Streaming.PLAIN
    assert reply.completion_tokens == server.streams[-1].tokens  # counted from the chunks
    bodies = [r["body"] for r in server.chat_requests()]
    assert "stream_options" in bodies[0] and "stream_options" not in bodies[1]
    chat.chat(question())
    assert len(server.chat_requests()) == 3  # learnt once, for every later request


def test_a_server_that_answers_whole_is_read_whole(server) -> None:
    server.streaming = False
    done = transport(server.url).stream(question())
    assert done.reply.text.startswith('{"ratings"') and not server.streams
    assert done.first_token == 0 and not done.streamed


def test_a_broken_chunk_is_a_bad_reply_not_a_crash(server) -> None:
    """A chunk whose delta is not an object: the same typed failure as a bad envelope."""
    from game.brains.llm.flight import Flight
    from game.brains.llm.model import BadReply
    from game.brains.llm.replies import read_events

    lines = iter(['data: {"choices": [{"delta": "oops"}]}', "data: [DONE]"])
    with pytest.raises(BadReply, match="no delta"):
        read_events(lines, question(), Flight(Pace(), 30))
    failing = iter(['data: {"error": {"message": "out of memory"}}'])
    with pytest.raises(Transient, match="failed mid-answer: out of memory"):
        read_events(failing, question(), Flight(Pace(), 30))
