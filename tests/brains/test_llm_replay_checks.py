"""Replay validated like the network (issue 24, item 6): what the record/replay cache
holds goes through the checks a live answer passes. Each poisoned entry below once
crashed the reader, hung it, or poisoned a save; now a replay skips it and says so once,
and a recording asks the endpoint again and stores the new answer over it."""

from __future__ import annotations

import json
import math
import sqlite3
import time

import pytest
from llm_fakes import OK, FakeModel, ask

from game.brains.llm.model import BadReply, ChatReply, EmbedReply, EmbedRequest, ReplayMiss
from game.brains.llm.recording import Recording, ReplayCache, request_key

MODEL = "e"
DIM = 8
GOOD = tuple(float(i + 1) for i in range(DIM))


@pytest.fixture
def path(tmp_path):
    return tmp_path / "rec.sqlite3"


def store(path, kind: str, payload, answer, raw: str | None = None) -> None:
    """One entry written as a hostile editor of the file would: any JSON, or raw text."""
    cache = ReplayCache(path)
    model = "m" if kind == "chat" else MODEL
    cache.put(request_key(kind, model, payload), kind, model, answer)
    cache.close()
    if raw is not None:
        with sqlite3.connect(path) as db:
            db.execute("UPDATE answers SET answer = ?", (raw,))


def store_vectors(path, vectors: dict[str, object]) -> None:
    cache = ReplayCache(path)
    for text, vector in vectors.items():
        cache.put(request_key("embed", MODEL, text), "embed", MODEL, {"vector": vector})
    cache.close()


def replaying(path) -> tuple[Recording, list[str]]:
    told: list[str] = []
    return Recording(FakeModel(), ReplayCache(path, replay=True), told.append), told


def recording(path, inner: FakeModel) -> tuple[Recording, list[str]]:
    told: list[str] = []
    return Recording(inner, ReplayCache(path), told.append), told


STORED = {"content": '{"ratings": [3]}', "completion_tokens": 4, "finish_reason": "stop"}
DAMAGED_CHATS = [
    ({**STORED, "content": None}, "content is NoneType, not text"),
    ({**STORED, "content": 5}, "content is int, not text"),
    ({**STORED, "content": {"ratings": [3]}}, "content is dict, not text"),
]


@pytest.mark.parametrize(("answer", "why"), DAMAGED_CHATS)
def test_a_stored_answer_that_is_not_text_is_skipped_and_said_once(path, answer, why) -> None:
    store(path, "chat", ask().key(), answer)
    model, told = replaying(path)
    for _ in range(2):
        with pytest.raises(BadReply, match=f"damaged answer .*{why}"):
            model.chat(ask())
    assert len(told) == 1 and "holds damaged entries" in told[0] and why in told[0]


@pytest.mark.parametrize("count", ["Infinity", "-Infinity", "NaN", "1e400", "-3", '"12"', "true"])
def test_token_counts_that_are_not_counts_are_estimated_as_live_ones_are(path, count) -> None:
    raw = '{"prompt_tokens": ' + count + ", " + json.dumps(STORED)[1:]  # as JSON allows
    store(path, "chat", ask().key(), STORED, raw=raw)
    reply = replaying(path)[0].chat(ask())
    assert reply.text == STORED["content"] and reply.replayed
    assert 0 < reply.prompt_tokens < 100  # estimated from the prompt's length
    assert isinstance(reply.prompt_tokens, int) and reply.completion_tokens == 4


def test_a_stored_answer_is_cleaned_as_a_live_one_is(path) -> None:
    store(path, "chat", ask().key(), {**STORED, "content": '{"a": "x\x1b[2J\u202ey"}'})
    assert replaying(path)[0].chat(ask()).text == '{"a": "xy"}'


def test_recording_asks_a_damaged_answer_again_and_stores_it_over(path) -> None:
    store(path, "chat", ask().key(), {**STORED, "content": None})
    inner = FakeModel(OK)
    model, told = recording(path, inner)
    assert model.chat(ask()) == OK and len(inner.chats) == 1
    assert len(told) == 1 and "asked again and recorded anew" in told[0]
    model.cache.close()
    again, told = replaying(path)
    assert again.chat(ask()).text == OK.text and told == []


@pytest.mark.parametrize(
    ("vector", "why"),
    [
        ("abc", "size str"),
        (5, "size int"),
        (None, "size NoneType"),
        ([], "size 0"),
        (["x"] * DIM, "other than numbers"),
        ([True] * DIM, "other than numbers"),
        ([[1.0, 2.0]] * DIM, "one vector per token"),
        ([0.5] * 16_385, "size 16385"),
        ([1.0, 2.0], f"2 dimensions in a run of {DIM}"),
    ],
)
def test_a_damaged_vector_is_skipped_row_by_row_on_replay(path, vector, why) -> None:
    store_vectors(path, {"probe": list(GOOD), "fine": list(GOOD), "bad": vector})
    model, told = replaying(path)
    model.embed(EmbedRequest(("probe",), MODEL))  # the run's dimension
    reply = model.embed(EmbedRequest(("fine", "bad", "fine"), MODEL))
    assert reply.vectors == (GOOD, (0.0,) * DIM, GOOD) and reply.replayed
    assert len(told) == 1 and why in told[0] and "given no vector" in told[0]


@pytest.mark.parametrize("raw", ['{"vector": [1, 2', '"abc"', "5", "null", "[1, 2, 3]"])
def test_an_entry_that_is_no_json_object_is_damaged_too(path, raw) -> None:
    store_vectors(path, {"probe": list(GOOD), "bad": list(GOOD)})
    with sqlite3.connect(path) as db:
        bad = request_key("embed", MODEL, "bad")
        db.execute("UPDATE answers SET answer = ? WHERE key = ?", (raw, bad))
    model, told = replaying(path)
    model.embed(EmbedRequest(("probe",), MODEL))
    assert model.embed(EmbedRequest(("bad",), MODEL)).vectors == ((0.0,) * DIM,)
    assert len(told) == 1


def test_a_damaged_first_vector_fails_the_request_as_a_live_one_would(path) -> None:
    store_vectors(path, {"probe": "abc"})
    model, told = replaying(path)
    with pytest.raises(BadReply, match="damaged embedding"):
        model.embed(EmbedRequest(("probe",), MODEL))
    assert len(told) == 1


def test_a_row_of_a_million_numbers_is_refused_unread(path) -> None:
    store_vectors(path, {"probe": list(GOOD), "huge": [0.123456789] * 1_000_000})
    model, told = replaying(path)
    model.embed(EmbedRequest(("probe",), MODEL))
    began = time.perf_counter()
    reply = model.embed(EmbedRequest(("huge",), MODEL))
    assert time.perf_counter() - began < 5  # 102 s and 2.3 GB when it was read
    assert reply.vectors == ((0.0,) * DIM,) and "bytes (at most" in told[0]


def test_recording_takes_the_dimension_from_the_endpoint_not_the_file(path) -> None:
    """A 2-dimensional vector stored for the probe once made a whole save 2-dimensional:
    recording, the first request goes to the endpoint, and a stored vector of another
    dimension is asked again."""
    store_vectors(path, {"probe": [1.0, 2.0], "seen": [3.0, 4.0], "kept": list(GOOD)})
    live = [EmbedReply((GOOD,), 1), EmbedReply((GOOD,), 1)]
    inner = FakeModel(*live)
    model, told = recording(path, inner)
    assert model.embed(EmbedRequest(("probe",), MODEL)).vectors == (GOOD,)
    both = model.embed(EmbedRequest(("seen", "kept"), MODEL))
    assert both.vectors == (GOOD, GOOD)
    assert [r.texts for r in inner.embeds] == [("probe",), ("seen",)]  # "kept" was good
    assert len(told) == 1 and f"2 dimensions in a run of {DIM}" in told[0]
    model.cache.close()
    again, told = replaying(path)
    assert again.embed(EmbedRequest(("probe", "seen"), MODEL)).vectors == (GOOD, GOOD)
    assert told == []


def test_a_vector_never_recorded_still_stops_a_replay(path) -> None:
    store_vectors(path, {"probe": list(GOOD)})
    with pytest.raises(ReplayMiss, match="no embedding"):
        replaying(path)[0].embed(EmbedRequest(("never seen",), MODEL))


def test_a_replayed_answer_is_what_was_recorded(path) -> None:
    reply = ChatReply('{"ratings": [3]}', 12, 4, 0.8, "stop")
    model, _ = recording(path, FakeModel(reply))
    assert model.chat(ask()) == reply
    model.cache.close()
    again = replaying(path)[0].chat(ask())
    assert again == ChatReply('{"ratings": [3]}', 12, 4, 0.0, "stop", replayed=True)
    assert not math.isnan(again.seconds)
