"""Retrying alone: transient failures asked again (at most `retries` more times) after the
wait the server asked for, or a growing backoff; every other failure passes straight up."""

from __future__ import annotations

import pytest
from llm_fakes import OK, FakeModel, ask

from game.brains.llm.model import EmbedRequest, EndpointDown, Refused, Transient
from game.brains.llm.retry import Retrying, backoff


def retrying(inner: FakeModel, retries: int = 2):
    sleeps: list[float] = []
    heard: list[tuple[str, str]] = []
    wrapped = Retrying(
        inner,
        retries,
        sleep=sleeps.append,
        on_retry=lambda purpose, agent, failure: heard.append((purpose, agent)),
        wait=lambda attempt: 10.0 * attempt,
    )
    return wrapped, sleeps, heard


def test_a_transient_failure_is_asked_again_and_the_reply_passes_up() -> None:
    inner = FakeModel(Transient("server error (500)"), OK)
    model, sleeps, heard = retrying(inner)
    assert model.chat(ask()) is OK
    assert len(inner.chats) == 2 and sleeps == [10.0] and heard == [("importance", "Klaus")]


def test_retry_after_is_the_wait_when_the_server_gives_one() -> None:
    inner = FakeModel(Transient("rate limited (429)", 0.25), Transient("429", 0.0), OK)
    model, sleeps, _ = retrying(inner)
    assert model.chat(ask()) is OK
    assert sleeps == [0.25, 0.0]


def test_it_gives_up_after_the_retries_and_says_so() -> None:
    inner = FakeModel(*[Transient("server error (500)")] * 5)
    model, sleeps, heard = retrying(inner, retries=2)
    with pytest.raises(Transient, match=r"server error \(500\); gave up after 3 tries"):
        model.chat(ask())
    assert len(inner.chats) == 3 and sleeps == [10.0, 20.0] and len(heard) == 2


@pytest.mark.parametrize("failure", [Refused("400: bad"), EndpointDown("cannot reach")])
def test_what_retrying_cannot_mend_is_not_retried(failure) -> None:
    inner = FakeModel(failure, OK)
    model, sleeps, heard = retrying(inner)
    with pytest.raises(type(failure)):
        model.chat(ask())
    assert len(inner.chats) == 1 and sleeps == [] and heard == []


def test_embeddings_are_retried_under_their_own_name() -> None:
    inner = FakeModel(Transient("no answer within 5 s"))
    model, _, heard = retrying(inner)
    reply = model.embed(EmbedRequest(("a", "bb"), "e"))
    assert len(reply.vectors) == 2 and heard == [("embeddings", "")]


def test_no_retries_means_one_try() -> None:
    inner = FakeModel(Transient("x"), OK)
    model, _, _ = retrying(inner, retries=0)
    with pytest.raises(Transient, match="after 1 tries"):
        model.chat(ask())


def test_backoff_grows_with_jitter_and_is_capped() -> None:
    first = [backoff(1) for _ in range(200)]
    third = [backoff(3) for _ in range(200)]
    assert all(0.25 <= w <= 0.75 for w in first) and all(1.0 <= w <= 3.0 for w in third)
    assert len(set(first)) > 1  # jitter: parallel workers do not march
    assert all(w <= 45.0 for w in (backoff(20) for _ in range(50)))


def test_a_wait_longer_than_we_wait_is_not_waited_for_but_said() -> None:
    """A 429 asking for 99999999999 s once held every question two silent minutes (two
    capped 60 s waits) before the fallback answered: now it fails at once, naming it."""
    inner = FakeModel(Transient("rate limited (429)", 99999999999.0), OK)
    model, sleeps, _ = retrying(inner)
    with pytest.raises(Transient, match=r"asks for a wait of 99999999999 s.*not retried"):
        model.chat(ask())
    assert sleeps == [] and len(inner.chats) == 1


def test_a_long_wait_that_is_honoured_is_said_as_it_starts() -> None:
    said: list[str] = []
    inner = FakeModel(Transient("rate limited (429)", 30.0), Transient("429", 1.0), OK)
    model = Retrying(inner, 2, sleep=lambda s: None, on_wait=said.append)
    assert model.chat(ask()) is OK
    assert said == ["waiting 30 s before asking the model again (rate limited (429))"]
