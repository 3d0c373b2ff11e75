"""The pace meter: the share of residents' waking time spent waiting for a decision."""

from datetime import timedelta

from game.sim.factory import build_simulation
from game.sim.pace import MIN_SAMPLES, PaceMeter


def test_recent_window_forgets_old_steps_but_total_keeps_them():
    meter = PaceMeter(window=3)
    for waiting, awake in [(5, 10), (0, 10), (0, 10), (0, 10)]:
        meter.record(waiting, awake)
    pace = meter.pace()
    assert pace.recent_waiting == 0 and pace.recent_awake == 30
    assert pace.total_waiting == 5 and pace.total_awake == 40
    assert pace.total_share == 5 / 40


def test_bottleneck_needs_enough_samples_and_a_high_share():
    few = PaceMeter(window=10)
    few.record(5, 10)
    assert not few.pace().bottleneck  # one step of a few residents proves nothing
    slow = PaceMeter(window=1000)
    for _ in range(MIN_SAMPLES):
        slow.record(1, 10)
    assert slow.pace().bottleneck
    fast = PaceMeter(window=1000)
    for _ in range(MIN_SAMPLES):
        fast.record(0, 10)
    assert not fast.pace().bottleneck


def test_lockstep_run_counts_the_decision_delay_as_waiting():
    sim = build_simulation("smallville", seed=1)
    try:
        sim.run_until(sim.now + timedelta(hours=9))
        pace = sim.pace()
    finally:
        sim.close()
    assert pace.total_awake > 0  # residents woke up during the morning
    # The scripted brain answers in one step: the waits are that step, a small share.
    assert 0 < pace.total_share < 0.2
