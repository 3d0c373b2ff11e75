"""A replay puts every resident where the recorded run had them, with no model calls."""

from datetime import timedelta

import pytest

from game.core.errors import SmallvilleError
from game.sim.factory import build_simulation
from game.sim.replay import Replay
from game.sim.saves import load_game, save_game


def test_replay_follows_the_recorded_run(tmp_path):
    sim = build_simulation("smallville", seed=3)
    start = sim.now
    checkpoints: dict = {}

    def watch(s) -> None:
        if s.steps % 180 == 0:
            checkpoints[s.now] = (
                {n: a.pos for n, a in s.agents.items()},
                {n: a.asleep for n, a in s.agents.items()},
            )

    sim.run_until(start + timedelta(hours=10), watch)
    save_game(sim, "recorded", tmp_path)
    sim.close()
    replay = Replay(load_game("recorded", tmp_path))
    seen = 0
    while not replay.finished:
        replay.step()
        if replay.now in checkpoints:
            positions, asleep = checkpoints[replay.now]
            assert {n: a.pos for n, a in replay.agents.items()} == positions
            assert {n: a.asleep for n, a in replay.agents.items()} == asleep
            seen += 1
    assert seen == len(checkpoints) == 20
    assert replay.usage()["calls"] == 0
    with pytest.raises(SmallvilleError, match="replay"):
        replay.set_object_state("Hobbs Cafe:kitchen:stove", "burning")
    replay.close()
