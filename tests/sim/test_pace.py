"""The pace meter: the share of residents' waking time spent waiting for a decision, in real
seconds; the model is the bottleneck only when a model decides and residents really wait
for it (issue 21: the scripted brain used to be blamed, during and after the night). A slow
model really keeping residents waiting is tested in the window: tests/ui/test_hud.py; the
lockstep run's waits are read off the day that tests/sim/test_day_run.py runs anyway."""

from __future__ import annotations

import time
from dataclasses import replace

from game.sim.factory import build_simulation
from game.sim.pace import BOTTLENECK_SHARE, MIN_RESIDENT_SECONDS, PaceMeter
from game.sim.simulation import ClockMode

ONE_X = 1 / 6  # real seconds of a 10-second step at 1x
FAST_FORWARD = 0.0002  # real seconds of a step in the night's fast-forward


def test_the_recent_window_is_real_time_and_the_total_keeps_everything():
    meter = PaceMeter(window=3.0)
    meter.record(5, 10, seconds=1.0)
    for _ in range(3):
        meter.record(0, 10, seconds=1.0)
    pace = meter.pace()
    assert pace.recent_waiting == 0 and pace.recent_awake == 30
    assert pace.total_waiting == 5 and pace.total_awake == 40
    assert pace.total_share == 5 / 40


def test_fast_forward_steps_weigh_almost_nothing():
    """A night of waking residents waiting at fast-forward, then an easy morning at 1x:
    the window holds the morning, not the night."""
    meter = PaceMeter()
    for _ in range(3000):  # half a game night in a few frames, everyone waiting
        meter.record(4, 4, seconds=FAST_FORWARD)
    for _ in range(200):  # half a minute at 1x, nobody waiting
        meter.record(0, 20, seconds=ONE_X)
    pace = replace(meter.pace(), model=True)
    assert pace.recent_share < 0.01 and not pace.bottleneck


def test_only_a_model_that_keeps_residents_waiting_is_the_bottleneck():
    slow = PaceMeter()
    for _ in range(200):
        slow.record(2, 10, seconds=ONE_X)
    assert slow.pace(model=True).bottleneck
    assert not slow.pace(model=False).bottleneck  # the scripted brain: never the model's fault
    fast = PaceMeter()
    for _ in range(200):
        fast.record(0, 10, seconds=ONE_X)
    assert not fast.pace(model=True).bottleneck
    few = PaceMeter()
    few.record(5, 10, seconds=ONE_X)  # one step of a few residents proves nothing
    assert few.pace(model=True).recent_awake < MIN_RESIDENT_SECONDS
    assert not few.pace(model=True).bottleneck


class Wall:
    """A real-time clock the test moves by hand (the window's frames, without the wait)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_scripted_brain_in_real_time_waits_for_nothing():
    """The window's clock through the night's fast-forward and into the morning at 1x:
    with the scripted brain nobody waits for a decision still being worked out."""
    sim = build_simulation("smallville", seed=0, mode=ClockMode.REALTIME, workers=2)
    wall = sim.wall_clock = Wall()
    try:
        awake = lambda: sum(not a.asleep for a in sim.agents.values())  # noqa: E731
        while awake() < len(sim.agents) // 5:  # the night, as fast as steps go
            wall.now += FAST_FORWARD
            sim.step()
        for _ in range(240):  # 40 s at 1x, each step a frame or so of real time for the pool
            time.sleep(0.02)
            wall.now += ONE_X
            sim.step()
        pace = sim.pace()
    finally:
        sim.close()
    assert pace.recent_awake >= MIN_RESIDENT_SECONDS
    assert pace.recent_share < BOTTLENECK_SHARE, pace
    assert not pace.bottleneck
