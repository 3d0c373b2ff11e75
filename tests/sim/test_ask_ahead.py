"""Asking ahead: the next decision is asked while the current action runs and used when
the resident gets there, only if its plan is still the one the decision was made from."""

from dataclasses import replace
from datetime import timedelta

from game.mind.agent import ActionKind
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


def test_a_resident_standing_still_gets_the_decision_after_a_short_action_with_it():
    """The rest of a plan item is often a minute or two (after a reaction): the job that
    decides it also decides what follows, held first, so the action's start asks no more."""
    from game.mind.cognition import decide_job, next_action_job

    sim = build_simulation("three", config=SimConfig(seed=3, timing=MODEL_TIMING))
    agent = awake_resident(sim)
    sim.scheduler.settle()
    snap = replace(agent.snapshot(sim.now), action=None)
    ends = next_action_job(sim.mind, snap, sim.surroundings()).action.end
    late = replace(snap, now=ends - timedelta(minutes=2))  # two minutes of it are left
    then, decision = decide_job(sim.mind, late, sim.surroundings())
    assert isinstance(then, Prepared) and isinstance(decision, NextAction)
    assert then.at == decision.action.end == ends and then.base is decision.plan
    following = then.decisions[0].action
    assert following is not None and following.start >= ends
    longer = decide_job(sim.mind, snap, sim.surroundings())
    if snap.now < ends - timedelta(minutes=5):
        assert [type(e) for e in longer] == [NextAction]
    sim.close()


def test_a_long_action_asks_its_next_ahead_only_when_it_is_near():
    """A conversation or a reaction that begins during a long action would throw away an
    answer asked at its start: the next action is asked `ahead_steps` before it ends."""
    sim = build_simulation("three", config=SimConfig(seed=3, timing=MODEL_TIMING))
    agent = awake_resident(sim)
    sim.scheduler.settle()
    long = replace(agent.action, description="reading a long novel", kind=ActionKind.PLAN)
    long = replace(long, start=sim.now, end=sim.now + timedelta(hours=1))
    sim.scheduler.drop(agent.name, Lane.AHEAD)
    sim.decisions.prepared.pop(agent.name, None)
    sim.appliers.start_action(agent, long)
    asked = []  # (steps before the end, whether the next action is being asked)
    last = long.end - timedelta(seconds=sim.step_seconds)
    while sim.now < last:
        sim.step()
        steps = int((long.end - sim.now).total_seconds()) // sim.step_seconds
        asked.append((steps, sim.scheduler.preparing(agent.name)))
    assert agent.action is not None and agent.action.description == long.description
    assert [s for s, p in asked if p][0] == MODEL_TIMING.ahead_steps
    assert all(p for s, p in asked if s <= MODEL_TIMING.ahead_steps)
    sim.close()


class Foreseeing:
    """The offline embedder, noting what the simulation says will be needed soon."""

    def __init__(self) -> None:
        from game.brains.embed import CachedEmbedder, HashEmbedder

        self.inner = CachedEmbedder(HashEmbedder())
        self.name, self.dim = self.inner.name, self.inner.dim
        self.foreseen: list[str] = []

    def embed(self, texts):
        return self.inner.embed(texts)

    def peek(self, texts):
        return self.inner.peek(texts)

    def later(self, texts):
        self.foreseen.extend(texts)


def test_what_perceptions_will_need_is_foreseen():
    """Relationship queries from the start, what a resident is seen doing when it starts,
    and an object's new state: perceptions then find them embedded and ask at once."""
    from game.sim.factory import load_world, make_brain
    from game.sim.simulation import Simulation

    scenario, town = load_world("three")
    embedder = Foreseeing()
    sim = Simulation(scenario, town, make_brain("scripted", 3, None), embedder, SimConfig(seed=3))
    names = sorted(sim.agents)
    assert f"What is {names[0]}'s relationship with {names[1]}?" in embedder.foreseen
    sim.run_until(sim.now + timedelta(hours=9))
    agent = awake_resident(sim)
    assert f"{agent.name} is {agent.action.description}" in embedder.foreseen
    states = [t for t in embedder.foreseen if " is " in t and t.startswith("the ")]
    assert states, "no object's new state was foreseen"
    sim.close()
