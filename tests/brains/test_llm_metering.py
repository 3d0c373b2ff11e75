"""The meter and budget wrappers alone: answered requests counted and priced, failures
counted, replayed ones marked; no request past the cap, and the cap said once."""

from __future__ import annotations

import pytest
from llm_fakes import OK, FakeModel, ask

from game.brains.budget import BudgetGuard
from game.brains.llm.metering import Budgeted, Metered
from game.brains.llm.model import (
    BudgetSpent,
    ChatReply,
    EmbedReply,
    EmbedRequest,
    EndpointDown,
    NoEmbeddings,
    ReplayMiss,
    Transient,
)
from game.brains.usage import Pricing, UsageMeter


def meter() -> UsageMeter:
    return UsageMeter(Pricing(main=(1.0, 2.0), cheap=(0.1, 0.2)))


def test_an_answer_adds_a_call_its_tokens_latency_and_cost_by_question_and_agent() -> None:
    m = meter()
    model = Metered(FakeModel(OK, ChatReply("{}", 100, 0, 0.0, replayed=True)), m)
    model.chat(ask())
    model.chat(ask(cheap=True, agent="Maria"))
    snap = m.snapshot()
    assert (snap["calls"], snap["prompt_tokens"], snap["completion_tokens"]) == (2, 110, 5)
    assert snap["replayed"] == 1 and snap["latency_seconds"] == 0.1
    assert snap["cost_usd"] == pytest.approx((10 * 1 + 5 * 2 + 100 * 0.1) / 1e6)
    assert snap["by_question"]["importance"]["calls"] == 2
    assert snap["by_agent"]["Klaus"]["calls"] == snap["by_agent"]["Maria"]["replayed"] == 1


@pytest.mark.parametrize("failure", [Transient("x"), EndpointDown("x"), ReplayMiss("x")])
def test_a_failed_request_is_a_failure_not_a_call(failure) -> None:
    m = meter()
    with pytest.raises(type(failure)):
        Metered(FakeModel(failure), m).chat(ask())
    snap = m.snapshot()
    assert (snap["calls"], snap["failures"]) == (0, 1)
    assert snap["by_agent"]["Klaus"]["failures"] == 1


def test_embeddings_are_calls_when_sent_and_cache_hits_when_replayed() -> None:
    m = meter()
    replayed = EmbedReply(((1.0,),), replayed=True)
    model = Metered(FakeModel(EmbedReply(((1.0,),), 7, 0.5), replayed), m)
    model.embed(EmbedRequest(("a",), "e"))
    model.embed(EmbedRequest(("a",), "e"))
    line = m.snapshot()["by_question"]["embeddings"]
    assert (line["calls"], line["prompt_tokens"], line["cache_hits"]) == (1, 7, 1)


def test_an_endpoint_without_embeddings_is_no_failure_but_a_failed_batch_is() -> None:
    m = meter()
    model = Metered(FakeModel(NoEmbeddings("404"), Transient("500")), m)
    for failure in (NoEmbeddings, Transient):
        with pytest.raises(failure):
            model.embed(EmbedRequest(("a",), "e"))
    assert m.snapshot()["by_question"]["embeddings"]["failures"] == 1


def test_the_budget_lets_no_request_past_the_cap_and_says_so_once() -> None:
    m = meter()
    told: list[str] = []
    inner = FakeModel()
    model = Budgeted(inner, BudgetGuard(m, max_calls=2), told.append)
    model.chat(ask())
    model.chat(ask())
    for _ in range(3):
        with pytest.raises(BudgetSpent, match="cap reached"):
            model.chat(ask())
    assert len(inner.chats) == 2
    assert len(told) == 1 and "scripted brain" in told[0]


def test_the_budget_stops_at_the_cost_cap() -> None:
    m = meter()
    guard = BudgetGuard(m, budget_usd=0.00001)
    model = Budgeted(Metered(FakeModel(ChatReply("{}", 20, 0)), m), guard)
    model.chat(ask())  # 20 tokens at $1/M: $0.00002, over the cap
    with pytest.raises(BudgetSpent, match="budget reached"):
        model.chat(ask())


def test_embeddings_are_not_capped() -> None:
    model = Budgeted(FakeModel(), BudgetGuard(meter(), max_calls=1))
    model.chat(ask())
    assert len(model.embed(EmbedRequest(("a", "b"), "e")).vectors) == 2
