"""The scheduler: one job per agent, results in submission order, decisions due on time."""

import threading
from dataclasses import replace
from datetime import timedelta

import pytest

from game.sim.factory import build_simulation
from game.sim.report import build_report, without_timing
from game.sim.scheduler import Scheduler, WaitMeter
from game.sim.simulation import MODEL_TIMING, ClockMode, SimConfig


def test_one_job_per_agent_and_submission_order():
    scheduler = Scheduler(workers=4)
    gate = threading.Event()
    scheduler.submit(("a",), "slow", lambda: gate.wait(5) and "a")
    scheduler.submit(("b",), "fast", lambda: "b")
    with pytest.raises(RuntimeError):
        scheduler.submit(("a",), "again", lambda: None)
    gate.set()
    assert [f.result for f in scheduler.collect(block=True)] == ["a", "b"]
    assert not scheduler.busy("a")
    scheduler.shutdown()


def test_a_job_is_handed_back_only_when_due():
    scheduler = Scheduler(workers=2)
    scheduler.delay, scheduler.step = 6, 10
    scheduler.submit(("a",), "job", lambda: 1)  # due at step 15
    assert scheduler.collect(block=True, step=14) == []  # finished, but not due yet
    assert scheduler.busy("a")
    assert [f.result for f in scheduler.collect(block=True, step=15)] == [1]
    scheduler.shutdown()


def test_errors_come_back_as_values():
    scheduler = Scheduler(workers=1)
    scheduler.submit(("a",), "boom", lambda: 1 / 0)
    (finished,) = scheduler.collect(block=True)
    assert isinstance(finished.error, ZeroDivisionError) and not scheduler.busy("a")
    scheduler.shutdown()


def test_delayed_decisions_are_still_deterministic():
    def run() -> dict:
        sim = build_simulation("three", config=SimConfig(seed=4, timing=MODEL_TIMING))
        start = sim.now
        sim.run_until(start + timedelta(hours=5))
        sim.close()
        return without_timing(build_report(sim, start, 0.0, "scripted"))

    assert run() == run()


def test_a_wait_meter_names_the_job_the_clock_stood_for():
    """llm_economy --waits: which job kinds and residents make the lockstep clock wait."""
    scheduler = Scheduler(workers=2)
    scheduler.meter = WaitMeter()
    gate = threading.Event()
    scheduler.submit(("a",), "slow", lambda: gate.wait(5) and "a", delay=1)
    scheduler.submit(("b",), "fast", lambda: "b", delay=1)
    scheduler.submit(("c",), "later", lambda: gate.wait(5) and "c", delay=3)
    threading.Timer(0.2, gate.set).start()
    assert [f.result for f in scheduler.collect(block=True, step=0)] == ["a", "b"]
    (wait,) = scheduler.meter.waits
    assert [(h.label, h.agents) for h in wait.holds] == [("slow", ("a",))]
    assert wait.seconds >= 0.15 and wait.holds[0].seconds == pytest.approx(wait.seconds)
    assert wait.jobs_out == 2 and wait.in_flight == -1.0  # "later" was out too; no probe
    scheduler.shutdown()


def test_inline_jobs_run_at_submission_and_come_back_the_same_way():
    """With `inline` a job runs on the submitting thread at once; it is still handed back
    only when due, in order, an error as a value."""
    scheduler = Scheduler(workers=2)
    scheduler.inline = True
    ran: list[str] = []
    scheduler.delay, scheduler.step = 3, 0
    scheduler.submit(("a",), "job", lambda: ran.append(threading.current_thread().name) or 1)
    scheduler.submit(("b",), "bad", lambda: 1 / 0)
    assert ran == [threading.current_thread().name]  # ran here, before anyone collected
    assert scheduler.collect(block=True, step=1) == []  # not due yet
    done = scheduler.collect(block=True, step=2)
    assert [f.result for f in done] == [1, None]
    assert isinstance(done[1].error, ZeroDivisionError)
    scheduler.shutdown()


def test_a_scripted_town_runs_its_jobs_inline_in_lockstep_only():
    sim = build_simulation("three", seed=1)
    assert sim.scheduler.inline
    sim.config = replace(sim.config, mode=ClockMode.REALTIME)
    assert not sim.scheduler.inline  # the window's frames never wait for a decision
    sim.close()
