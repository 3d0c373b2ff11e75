"""A replay puts every resident where the recorded run had them, with no model calls."""

from datetime import timedelta

from game.sim.factory import build_simulation
from game.sim.player import EditSource
from game.sim.replay import Replay
from game.sim.saves import load_game, save_game
from game.sim.view import SIM_VIEW_MEMBERS, ObjectState, Usage

STOVE = "Isabella Rodriguez's apartment:kitchen:stove"


def test_replay_follows_the_recorded_run(tmp_path):
    """Six game hours, 04:00 to 10:00: by then all 25 have woken, walked, used things and
    talked, every kind of event a replay re-applies but falling asleep (which no morning
    has); the hours after, the whole town up, cost the most. 20 checkpoints."""
    sim = build_simulation("smallville", seed=3)
    start = sim.now
    checkpoints: dict = {}

    def watch(s) -> None:
        if s.steps % 108 == 0:
            checkpoints[s.now] = (
                {n: a.pos for n, a in s.agents.items()},
                {n: a.asleep for n, a in s.agents.items()},
            )

    sim.run_until(start + timedelta(hours=6), watch)
    assert all(not a.asleep for a in sim.agents.values())
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
    assert replay.model_usage().calls == 0
    assert replay.player is None and replay.recorded  # the window shows no commands
    replay.close()


def _tiny_run(tmp_path):
    sim = build_simulation("three", seed=1, workers=2)
    sim.player.add_visitor("Robin")
    sim.run_until(sim.now + timedelta(minutes=30))
    sim.player.set_object_state(STOVE, "burning")
    sim.step()
    save_game(sim, "tiny", tmp_path)
    return sim, Replay(load_game("tiny", tmp_path))


def _read_every_member(view) -> dict:
    """Every SimView member, read or called the way the window does."""
    name = next(iter(view.agents))
    calls = {
        "thinking": lambda: view.thinking(name),
        "object_state": lambda: view.object_state(STOVE),
        "step": view.step,
    }
    out = {}
    for member in SIM_VIEW_MEMBERS:
        value = getattr(view, member)
        out[member] = calls[member]() if member in calls else value
        if callable(out[member]) and member not in calls:
            out[member] = out[member]()
    return out


def test_simulation_and_replay_both_answer_every_sim_view_member(tmp_path):
    assert {"thinking", "player", "recorded", "chats", "model_usage"} <= set(SIM_VIEW_MEMBERS)
    sim, replay = _tiny_run(tmp_path)
    live, played = _read_every_member(sim), _read_every_member(replay)
    assert live["player"] is sim.player and played["player"] is None
    assert live["recorded"] is False and played["recorded"] is True
    assert live["object_state"] == ObjectState(STOVE, "burning", EditSource.PLAYER)
    assert live["object_state"].by_player and not played["object_state"].set_by
    assert live["visitor"].name == "Robin" and played["visitor"] is None
    assert "scripted" in live["brain_label"] and "replay" in played["brain_label"]
    assert live["model_usage"] == played["model_usage"] == Usage()
    assert live["notices"] == played["notices"] == ()
    for member in ("close",):
        assert live[member] is None and played[member] is None


def test_a_replay_shows_who_set_an_object(tmp_path):
    sim, replay = _tiny_run(tmp_path)
    sim.close()
    while not replay.finished:
        replay.step()
    assert replay.object_state(STOVE) == ObjectState(STOVE, "burning", "player")
    assert replay.object_state(STOVE).by_player
    replay.close()
