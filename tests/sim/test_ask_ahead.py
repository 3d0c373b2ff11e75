"""Asking ahead: the next decision is asked while the current action runs and used when
the resident gets there, only if its plan is still the one the decision was made from."""

from dataclasses import replace
from datetime import timedelta

from game.mind.effects import NextAction, Prepared
from game.mind.plan import DayPlan
from game.sim.factory import build_simulation
from game.sim.report import build_report, without_timing
from game.sim.scheduler import Lane
from game.sim.simulation import MODEL_TIMING, SimConfig, Timing

NOT_AHEAD = replace(MODEL_TIMING, ask_ahead=False)


def run(timing: Timing, workers: int = 8, hours: float = 10):
    sim = build_simulation("three", config=SimConfig(seed=3, timing=timing, workers=workers))
    start = sim.now
    sim.run_until(start + timedelta(hours=hours))
    sim.close()
    return sim, start


def test_residents_stand_still_far_less_when_decisions_are_asked_ahead():
    ahead, _ = run(MODEL_TIMING)
    asked_late, _ = run(NOT_AHEAD)
    assert ahead.pace().total_share < asked_late.pace().total_share / 3


def test_asking_ahead_is_deterministic_whatever_the_threads():
    reports = []
    for workers in (1, 8):
        sim, start = run(MODEL_TIMING, workers=workers, hours=8)
        reports.append(without_timing(build_report(sim, start, 0.0, "scripted")))
    assert reports[0] == reports[1]


def held_decision(sim, agent, base: DayPlan) -> Prepared:
    """A decision as if asked ahead: start a chosen action now."""
    action = replace(agent.action, description="rearranging the bookshelf", start=sim.now)
    action = replace(action, end=sim.now + timedelta(minutes=30))
    decision = NextAction(agent.name, plan=agent.plan, action=action)
    return Prepared(agent.name, decisions=(decision,), base=base, at=sim.now)


def awake_resident(sim):
    sim.run_until(sim.now + timedelta(hours=9))
    for agent in sim.agents.values():
        if not agent.asleep and agent.action is not None and agent.conversation is None:
            return agent
    raise AssertionError("nobody is up at 9")


def test_a_decision_made_from_the_current_plan_is_used():
    sim = build_simulation("three", config=SimConfig(seed=3))
    agent = awake_resident(sim)
    sim.apply_effect(held_decision(sim, agent, base=agent.plan))
    agent.action = None  # the current action ends
    sim.step()
    assert agent.action is not None and agent.action.description == "rearranging the bookshelf"
    sim.close()


def test_a_decision_made_from_an_older_plan_is_dropped():
    sim = build_simulation("three", config=SimConfig(seed=3))
    agent = awake_resident(sim)
    sim.apply_effect(held_decision(sim, agent, base=DayPlan("an older plan")))
    agent.action = None
    for _ in range(3):
        sim.step()
    assert agent.action is None or agent.action.description != "rearranging the bookshelf"
    sim.close()


def test_the_decision_after_a_short_action_is_held_and_used_without_asking_again():
    sim = build_simulation("three", config=SimConfig(seed=3, timing=MODEL_TIMING))
    agent = awake_resident(sim)
    sim.scheduler.settle()
    short = replace(agent.action, description="glancing at the news", start=sim.now)
    short = replace(short, end=sim.now + timedelta(minutes=2))
    first = NextAction(agent.name, plan=replace(agent.plan), action=short)
    after = replace(short, description="rearranging the bookshelf", start=short.end)
    after = replace(after, end=short.end + timedelta(minutes=30))
    second = NextAction(agent.name, plan=first.plan, action=after)
    then = Prepared(agent.name, decisions=(second,), base=first.plan, at=short.end)
    held = Prepared(agent.name, decisions=(first,), base=agent.plan, at=sim.now, then=then)
    sim.scheduler.drop(agent.name, Lane.AHEAD)
    sim.apply_effect(held)
    agent.action = None
    sim.step()
    assert agent.action is not None and agent.action.description == "glancing at the news"
    assert not sim.scheduler.preparing(agent.name)  # the following decision is in hand
    while sim.now < short.end + timedelta(seconds=10):
        sim.step()
    assert agent.action is not None and agent.action.description == "rearranging the bookshelf"
    sim.close()
