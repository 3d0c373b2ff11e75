"""The transport against hostile answers as a class: a fuzzed envelope or embedding list
is either a checked reply or a BadReply, never another exception; a closed transport
cancels what is in flight within a second; the body cap and deadline hold."""

from __future__ import annotations

import copy
import json
import random
import threading
import time

import pytest
from llm_fakes import ask
from llm_helpers import SECRET, serve

from game.brains.llm.model import BadReply, Cancelled, EmbedRequest, ModelError, Transient
from game.brains.llm.openai_chat import OpenAIChat
from game.brains.llm.replies import chat_reply, embed_reply
from game.core.text import clean

GOOD_CHAT = {
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": '{"a": 1}'},
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 10, "completion_tokens": 3},
}
GOOD_EMBED = {
    "data": [{"index": 0, "embedding": [0.1, 0.2]}, {"index": 1, "embedding": [0.3, 0.4]}]
}
ODD = [None, True, -1, 10**30, 1e308, float("nan"), "x" * 5000, [], {},
       [[[[[]]]]], "\x00\x1b[2J", -(2**63)]  # fmt: skip


def mutations(doc, seed: int, count: int):
    """The document with one value somewhere replaced by something odd, or removed."""
    rng = random.Random(seed)
    for _ in range(count):
        out = copy.deepcopy(doc)
        node, path = out, []
        while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
            key = rng.choice(list(node) if isinstance(node, dict) else range(len(node)))
            path.append((node, key))
            node = node[key]
        if not path:
            continue
        parent, key = path[-1]
        if isinstance(parent, dict) and rng.random() < 0.2:
            del parent[key]
        else:
            parent[key] = rng.choice(ODD)
        yield out


@pytest.mark.parametrize("seed", range(4))
def test_a_fuzzed_chat_envelope_is_a_reply_or_a_bad_reply(seed) -> None:
    request = ask("hello")
    for doc in mutations(GOOD_CHAT, seed, 200):
        try:
            reply = chat_reply(doc, request, 0.1)
        except BadReply:
            continue
        assert isinstance(reply.text, str)
        assert 0 <= reply.prompt_tokens <= 10_000_000 and reply.completion_tokens >= 0


@pytest.mark.parametrize("seed", range(4))
def test_a_fuzzed_embedding_list_is_finite_vectors_or_a_bad_reply(seed) -> None:
    request = EmbedRequest(("a", "b"), "e")
    for doc in mutations(GOOD_EMBED, seed, 200):
        try:
            reply = embed_reply(doc, request, 0.1)
        except BadReply:
            continue
        assert len(reply.vectors) == 2 and len({len(v) for v in reply.vectors}) == 1
        assert all(x == x and abs(x) < float("inf") for v in reply.vectors for x in v)


@pytest.fixture
def server():
    yield from serve()


@pytest.mark.parametrize("fault", ["hang", "drip"])
def test_closing_cancels_a_request_in_flight_within_a_second(server, fault) -> None:
    server.always, server.hang_seconds = fault, 30.0
    model = OpenAIChat(server.url, lambda: SECRET, timeout=60.0)
    caught: list[BaseException] = []

    def call() -> None:
        try:
            model.chat(ask("hello"))
        except ModelError as exc:
            caught.append(exc)

    worker = threading.Thread(target=call)
    worker.start()
    time.sleep(0.3)
    began = time.monotonic()
    model.close()
    worker.join(5.0)
    assert not worker.is_alive() and time.monotonic() - began < 1.0
    assert isinstance(caught[0], Cancelled)
    with pytest.raises(Cancelled):  # and nothing more is sent
        model.chat(ask("hello"))


def test_a_request_the_closing_run_breaks_is_cancelled_not_a_bad_answer(server) -> None:
    """The window closes while a request is being sent: the HTTP pool's own error
    ("the client has been closed") must not read as an unreadable answer, which would
    count towards the endpoint failing and print a notice as the run ends."""
    model = OpenAIChat(server.url, lambda: SECRET, timeout=5.0)

    def closed_under_it() -> None:
        model.close()
        raise RuntimeError("Cannot send a request, as the client has been closed.")

    with pytest.raises(Cancelled):
        model._call(closed_under_it, "m")


def test_a_dripping_answer_ends_at_the_deadline_not_at_a_read_timeout(server) -> None:
    server.always = "drip"
    began = time.monotonic()
    with pytest.raises(Transient, match="no answer within 0.4 s"):
        OpenAIChat(server.url, lambda: SECRET, timeout=0.4).chat(ask("hello"))
    assert time.monotonic() - began < 1.5


@pytest.mark.parametrize("fault", ["huge_length", "gzip_bomb", "nested", "null_message"])
def test_an_unbounded_or_broken_answer_is_a_bad_reply(server, fault) -> None:
    server.always = fault
    with pytest.raises(BadReply):
        OpenAIChat(server.url, lambda: SECRET, timeout=5.0).chat(ask("hello"))


def test_an_error_message_is_one_clean_line_without_the_key(server) -> None:
    server.always = "error_text"
    with pytest.raises(ModelError) as caught:
        OpenAIChat(server.url, lambda: SECRET, timeout=5.0).chat(ask("hello"))
    text = str(caught.value)
    assert SECRET not in text and SECRET[::-1] not in text and "[redacted]" in text
    assert text == clean(text) and "\n" not in text


def test_clean_removes_what_hides_and_keeps_what_reads() -> None:
    assert clean("a\x00b\x1b[31mc\x1b[0m\u202e\u200bd\ud800\te\n😀") == "abcd\te\n😀"
    assert clean("\u202e\u200b\u202e") == ""
    assert json.loads(json.dumps(clean("é ü 漢字"))) == "é ü 漢字"
