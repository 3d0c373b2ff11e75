"""`build_model`: the parts in their order, over a fake transport. What the order buys: a
down or resting endpoint costs no budget and writes no audit line; a retry is counted;
a replayed run meters the calls of the recorded one."""

from __future__ import annotations

import json

import pytest
from llm_fakes import OK, FakeModel, Offline, ask

from game.brains.audit import AuditLog
from game.brains.budget import BudgetGuard
from game.brains.llm.model import EndpointDown, FormatRefused, Resting, Signals, Transient
from game.brains.llm.recording import ReplayCache
from game.brains.llm.stack import Ledgers, build_model
from game.brains.usage import UsageMeter
from game.core.config import LLMSettings, OutputMode


class CountingGuard(BudgetGuard):
    def __init__(self, meter: UsageMeter) -> None:
        super().__init__(meter)
        self.asked = 0

    def allow(self) -> tuple[bool, str]:
        self.asked += 1
        return super().allow()


def stack(tmp_path, transport, cache=None, **changes):
    settings = LLMSettings(**{"network_retries": 1, **changes})
    meter = UsageMeter()
    ledgers = Ledgers(meter, CountingGuard(meter), AuditLog(tmp_path / "a.jsonl"), cache)
    told: list[str] = []
    made = build_model(settings, ledgers, Signals(told.append), lambda s: None, transport)
    return made, ledgers, told


def audit_lines(tmp_path) -> list[dict]:
    path = tmp_path / "a.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def test_a_down_endpoint_is_logged_and_counted_once_then_costs_nothing(tmp_path) -> None:
    transport = FakeModel(EndpointDown("cannot reach"))
    made, ledgers, told = stack(tmp_path, transport)
    for _ in range(3):
        with pytest.raises(EndpointDown):
            made.model.chat(ask())
    assert len(transport.chats) == 1 and len(audit_lines(tmp_path)) == 1
    assert ledgers.meter.snapshot()["failures"] == 1 and len(told) == 1
    assert ledgers.guard.asked == 1  # no budget spent on requests never sent
    assert made.breaker.down == "cannot reach"


def test_a_failing_endpoint_rests_after_three_requests_that_gave_up(tmp_path) -> None:
    transport = FakeModel(*[Transient("server error (500)")] * 6)
    made, ledgers, told = stack(tmp_path, transport)
    for _ in range(3):
        with pytest.raises(Transient, match="gave up after 2 tries"):
            made.model.chat(ask())
    with pytest.raises(Resting):
        made.model.chat(ask())
    snap = ledgers.meter.snapshot()
    assert len(transport.chats) == 6 and (snap["retries"], snap["failures"]) == (3, 3)
    lines = audit_lines(tmp_path)
    assert sum("retry" in x for x in lines) == 3  # each network retry, with its failure
    assert sum("error" in x for x in lines) == 3 and "keeps failing" in told[0]


def test_a_replayed_run_meters_what_the_recorded_one_did(tmp_path) -> None:
    path = tmp_path / "rec.sqlite3"
    recording, first, _ = stack(tmp_path, FakeModel(Transient("x"), OK), ReplayCache(path))
    recording.model.chat(ask())
    first.cache.close()
    replay, again, _ = stack(tmp_path, Offline(), ReplayCache(path, replay=True))
    assert replay.model.chat(ask()).replayed
    one, two = first.meter.snapshot(), again.meter.snapshot()
    assert (one["calls"], one["prompt_tokens"]) == (two["calls"], two["prompt_tokens"]) == (1, 10)
    assert (one["replayed"], two["replayed"]) == (0, 1)
    assert one["retries"] == 1 and two["retries"] == 0  # network retries are not replayed


def test_a_format_refusal_is_stepped_down_below_the_recording(tmp_path) -> None:
    transport = FakeModel(FormatRefused("400: json_schema"))
    made, ledgers, _ = stack(tmp_path, transport)
    assert made.model.chat(ask()) == OK
    assert made.ladder.mode is OutputMode.JSON_OBJECT
    refusal, answer = audit_lines(tmp_path)  # the refusal's body is kept, then the answer
    assert ledgers.meter.snapshot()["failures"] == 0
    assert refusal["refused"] == "400: json_schema" and "answer" in answer
