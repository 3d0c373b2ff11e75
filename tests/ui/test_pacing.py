"""The real-time clock of the window: steps owed per frame, capped, carried, dropped."""

from game.ui.pacing import SPEEDS, Pacer


def test_one_x_is_one_game_minute_per_real_second():
    pacer = Pacer(step_seconds=10, speed=1)
    steps = sum(pacer.due(1 / 60) for _ in range(60))
    assert steps == 6  # 6 steps of 10 s = 60 game seconds


def test_speeds_go_to_at_least_16x_in_doubling_steps():
    assert SPEEDS[0] == 1 and max(SPEEDS) >= 16
    assert all(b == 2 * a for a, b in zip(SPEEDS, SPEEDS[1:], strict=False))


def test_a_frame_runs_at_most_max_steps_and_carries_the_rest():
    pacer = Pacer(speed=32, max_steps=4)
    assert pacer.due(0.1) == 4  # 32x owes 19.2 steps in 0.1 s
    assert pacer.carry > 10
    assert pacer.due(0.0) == 4  # the carry is paid off over later frames


def test_a_large_backlog_is_dropped_not_chased():
    pacer = Pacer(speed=32, max_steps=4, max_backlog_seconds=1.0)
    pacer.due(60.0)  # a minute-long stall
    assert pacer.carry <= pacer.steps_per_second * 1.0
    assert pacer.dropped > 0


def test_pause_runs_nothing_and_keeps_the_speed():
    pacer = Pacer(speed=4)
    pacer.toggle_pause()
    assert pacer.due(10.0) == 0 and pacer.label == "paused"
    pacer.toggle_pause()
    assert pacer.speed == 4 and pacer.due(0.5) > 0


def test_faster_and_slower_stay_on_the_ladder():
    pacer = Pacer(speed=1)
    pacer.slower()
    assert pacer.speed == 1
    for _ in range(10):
        pacer.faster()
    assert pacer.speed == max(SPEEDS)


def test_give_back_returns_unaffordable_steps():
    pacer = Pacer(speed=8, max_steps=8)
    assert pacer.due(0.1) == 4  # 4.8 steps owed
    pacer.give_back(3)  # the frame's budget ran out after one
    assert pacer.due(0.0) == 3
