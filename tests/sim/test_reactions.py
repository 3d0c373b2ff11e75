"""Reactions resume the day: a stove set burning at any hour never leaves a resident holding
an action past its end, nor asleep while its plan has something to do (issue 11, point 6).

A handful of hours in the three-resident town (before waking, at waking, midday, evening,
at bedtime); benchmarks/dialogue.py runs whole days of the big town.
"""

from datetime import timedelta

import pytest

from game.core.records import ActionKind
from game.sim.factory import build_simulation
from game.sim.saves import load_game, save_game
from game.world.town import split

STEP_SLACK = timedelta(minutes=1)


def stoves(sim) -> list[str]:
    homes = {a.persona.home for a in sim.agents.values()}
    return sorted(
        address
        for address, area in sim.town.areas.items()
        if address and split(address)[0] in homes and area.name == "stove"
    )


def breaches(sim) -> list[str]:
    out = []
    for name, agent in sim.agents.items():
        action = agent.action
        if action is None or agent.conversation is not None:
            continue
        if action.kind is ActionKind.SLEEP:
            b, _, _ = agent.plan.locate(sim.now)
            if b is not None and agent.plan.day == sim.now.date().isoformat():
                out.append(f"{sim.now} {name} asleep during '{agent.plan.broad[b].description}'")
            if action.end - sim.now > timedelta(hours=24):
                out.append(f"{sim.now} {name} sleeps until {action.end}")
        elif action.kind is not ActionKind.CHAT and sim.now > action.end + STEP_SLACK:
            out.append(f"{sim.now} {name} still '{action.description}' (ended {action.end})")
    return out


HOURS = [5, 7, 13, 19, 22]


@pytest.fixture(scope="module")
def second_day(tmp_path_factory):
    """One run of the town into its second day, saved just after each hour below: each
    hour's test loads its own copy and sets its stoves burning there, rather than living
    the same day again from the start (a save round-trips exactly: tests/sim/test_saves)."""
    root = tmp_path_factory.mktemp("second-day")
    sim = build_simulation("three", seed=5)
    start = sim.now.replace(hour=0, minute=0) + timedelta(days=1)
    for hour in HOURS:
        sim.run_until(start + timedelta(hours=hour, minutes=4))
        save_game(sim, f"at-{hour}", root)
    sim.close()
    return root, start


@pytest.mark.parametrize("hour", HOURS)
def test_a_burning_stove_at_any_hour_leaves_every_day_on_plan(hour, second_day):
    root, start = second_day
    sim = load_game(f"at-{hour}", root)
    assert sim.now == start + timedelta(hours=hour, minutes=4)
    for stove in stoves(sim):
        sim.player.set_object_state(stove, "burning")
    found: list[str] = []
    sim.run_until(sim.now + timedelta(hours=3), lambda s: found.extend(breaches(s)))
    sim.close()
    assert stoves(sim)
    assert not found, found[:5]


def test_a_reaction_lasts_as_long_as_decided_however_long_the_thought_took():
    """A thought may come back minutes after the sight (a model's allowance): the reaction
    then starts late but is not cut short by the time spent deciding on it."""
    from dataclasses import replace

    from game.mind.agent import Action
    from game.mind.effects import Perceived

    sim = build_simulation("three", seed=3)
    sim.run_until(sim.now + timedelta(hours=9))
    agent = next(a for a in sim.agents.values() if not a.asleep and a.conversation is None)
    decided = sim.now - timedelta(minutes=10)  # when the sight was seen and thought over
    react = Action(
        "going to help", agent.location, decided, decided + timedelta(minutes=15),
        ActionKind.REACT, "🏃",
    )  # fmt: skip
    sim.apply_effect(Perceived(agent.name, action=react, plan=replace(agent.plan)))
    assert agent.action.kind is ActionKind.REACT
    assert agent.action.start == sim.now
    assert agent.action.end - agent.action.start == timedelta(minutes=15)
    sim.close()
