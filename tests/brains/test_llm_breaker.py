"""The circuit breaker alone: an endpoint down for good is said once and never asked
again; one failing three times in a row rests 30 s, then is asked again."""

from __future__ import annotations

import pytest
from llm_fakes import OK, FakeModel, ask

from game.brains.llm.breaker import Breaker
from game.brains.llm.model import (
    BudgetSpent,
    EmbedRequest,
    EndpointDown,
    Refused,
    Resting,
    Signals,
    Transient,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def breaker(inner: FakeModel, strict: bool = False, secret: str = ""):
    told: list[str] = []
    clock = Clock()
    signals = Signals(told.append, lambda: secret)
    made = Breaker(inner, signals, threshold=3, rest_seconds=30.0, strict=strict, clock=clock)
    return made, told, clock


def fail(model, times: int) -> None:
    for _ in range(times):
        with pytest.raises((Transient, Refused)):
            model.chat(ask())


def test_three_failures_in_a_row_rest_the_endpoint_for_30_s() -> None:
    inner = FakeModel(Transient("server error (500)"), Refused("400"), Transient("hang"))
    model, told, clock = breaker(inner)
    fail(model, 3)
    with pytest.raises(Resting):
        model.chat(ask())
    assert len(inner.chats) == 3  # the resting request never reached the endpoint
    assert len(told) == 1 and "keeps failing (hang)" in told[0] and "30 s" in told[0]
    clock.now += 29.0
    with pytest.raises(Resting):
        model.chat(ask())
    clock.now += 1.5
    assert model.chat(ask()) is OK and len(inner.chats) == 4
    assert not model.down


def test_a_reply_between_failures_resets_the_count() -> None:
    inner = FakeModel(Transient("a"), Transient("b"), OK, Transient("c"), Transient("d"), OK)
    model, told, _ = breaker(inner)
    fail(model, 2)
    model.chat(ask())
    fail(model, 2)
    assert model.chat(ask()) is OK and told == []


def test_failures_that_are_not_the_endpoints_do_not_count() -> None:
    inner = FakeModel(*[BudgetSpent("cap")] * 4)
    model, told, _ = breaker(inner)
    for _ in range(4):
        with pytest.raises(BudgetSpent):
            model.chat(ask())
    assert len(inner.chats) == 4 and told == []


def test_an_endpoint_down_is_said_once_and_never_asked_again() -> None:
    inner = FakeModel(EndpointDown("cannot reach the model endpoint at http://x"))
    model, told, clock = breaker(inner)
    for _ in range(3):
        with pytest.raises(EndpointDown, match="cannot reach"):
            model.chat(ask())
    with pytest.raises(EndpointDown):
        model.embed(EmbedRequest(("a",), "e"))
    clock.now += 3600
    with pytest.raises(EndpointDown):
        model.chat(ask())
    assert len(inner.chats) == 1 and inner.embeds == []
    assert len(told) == 1 and "scripted brain" in told[0]
    assert "cannot reach" in model.down and not model.signals.fatal


def test_strict_stops_the_run_instead_of_carrying_on() -> None:
    down = EndpointDown("the endpoint refused the API key (401)")
    model, told, _ = breaker(FakeModel(down), strict=True)
    with pytest.raises(EndpointDown):
        model.chat(ask())
    assert told == [] and "401" in model.signals.fatal


def test_an_embeddings_request_can_take_the_endpoint_down_too() -> None:
    model, told, _ = breaker(FakeModel(EndpointDown("refused")))
    with pytest.raises(EndpointDown):
        model.embed(EmbedRequest(("a",), "e"))
    assert model.down == "refused" and len(told) == 1


def test_what_it_says_never_holds_the_key() -> None:
    key = "sk-secret-123456"
    model, told, _ = breaker(FakeModel(EndpointDown(f"refused {key}")), secret=key)
    with pytest.raises(EndpointDown):
        model.chat(ask())
    assert key not in told[0] and "[redacted]" in told[0]
