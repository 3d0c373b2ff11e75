"""The ledgers the wrappers report to: usage meter, budget guard, record/replay cache,
audit log redaction."""

from __future__ import annotations

import threading
import time

import pytest

from game.brains.audit import REDACTED, AuditLog, redact
from game.brains.budget import BudgetGuard
from game.brains.llm.model import EndpointDown, ReplayMiss
from game.brains.llm.recording import ReplayCache, request_key
from game.brains.usage import Pricing, UsageMeter
from game.core.errors import SmallvilleError


def test_the_meter_totals_breaks_down_and_prices() -> None:
    meter = UsageMeter(Pricing(main=(1.0, 2.0), cheap=(0.1, 0.2)))
    meter.call("plan_day", "Klaus", 1000, 500, 0.5)
    meter.call("importance", "Maria", 1000, 0, 0.25, cheap=True)
    meter.count("fallbacks", "importance", "Maria")
    snap = meter.snapshot()
    assert (snap["calls"], snap["prompt_tokens"], snap["completion_tokens"]) == (2, 2000, 500)
    assert snap["cost_usd"] == pytest.approx((1000 * 1 + 500 * 2 + 1000 * 0.1) / 1e6)
    assert snap["by_question"]["importance"]["fallbacks"] == 1
    assert snap["by_agent"]["Klaus"]["calls"] == 1 and snap["latency_seconds"] == 0.75
    again = UsageMeter()
    again.restore(snap)
    assert again.snapshot() == snap
    with pytest.raises(ValueError):
        meter.count("coffees", "x")


def test_the_guard_stops_at_the_cap_and_says_so_once() -> None:
    meter = UsageMeter()
    guard = BudgetGuard(meter, max_calls=3)
    answers = [guard.allow() for _ in range(5)]
    assert [ok for ok, _ in answers] == [True, True, True, False, False]
    assert [bool(msg) for _, msg in answers] == [False, False, False, True, False]
    assert "cap" in guard.exhausted


def test_parallel_workers_cannot_overshoot_the_call_cap() -> None:
    guard = BudgetGuard(UsageMeter(), max_calls=10)
    allowed = []

    def work() -> None:
        for _ in range(10):
            allowed.append(guard.allow()[0])

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(allowed) == 10


def test_record_then_replay_and_a_clear_miss(tmp_path) -> None:
    path = tmp_path / "c.sqlite3"
    with pytest.raises(SmallvilleError, match="no recording"):
        ReplayCache(path, replay=True)
    cache = ReplayCache(path)
    key = request_key("chat", "m", {"messages": [1]})
    answer, replayed = cache.fetch(key, "chat", "m", lambda: {"content": "x"})
    assert (answer, replayed) == ({"content": "x"}, False)

    def unreachable() -> dict:
        raise EndpointDown("refused")

    with pytest.raises(EndpointDown):  # not an answer: nothing is stored
        cache.fetch(request_key("chat", "m", 2), "chat", "m", unreachable)
    cache.close()
    replay = ReplayCache(path, replay=True)
    assert replay.fetch(key, "chat", "m", lambda: pytest.fail("network")) == (answer, True)
    with pytest.raises(ReplayMiss, match="no answer"):
        replay.fetch(request_key("chat", "m", 2), "chat", "m", lambda: pytest.fail("network"))


def test_a_recorded_failure_replays_but_is_asked_again_when_recording(tmp_path) -> None:
    cache = ReplayCache(tmp_path / "c.sqlite3")
    key = request_key("chat", "m", 1)
    cache.fetch(key, "chat", "m", lambda: {"error": "timed out"})
    assert cache.fetch(key, "chat", "m", lambda: {"content": "ok"}) == ({"content": "ok"}, False)
    cache.close()


def test_identical_requests_in_flight_are_asked_once(tmp_path) -> None:
    cache = ReplayCache(tmp_path / "c.sqlite3")
    asked = []

    def ask() -> dict:
        asked.append(1)
        time.sleep(0.1)
        return {"content": "one answer"}

    key = request_key("chat", "m", "same")
    out = []
    threads = [
        threading.Thread(target=lambda: out.append(cache.fetch(key, "chat", "m", ask)[0]))
        for _ in range(5)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(asked) == 1 and out == [{"content": "one answer"}] * 5
    cache.close()


def test_the_audit_log_blanks_secrets(tmp_path) -> None:
    assert redact("key sk-123456 here", ["sk-123456"]) == f"key {REDACTED} here"
    log = AuditLog(tmp_path / "a.jsonl", secrets=["sk-123456"])
    log.write({"error": "Incorrect API key provided: sk-123456"})
    log.close()
    log.write({"after": "close is a no-op"})
    text = (tmp_path / "a.jsonl").read_text()
    assert "sk-123456" not in text and REDACTED in text and "after" not in text
