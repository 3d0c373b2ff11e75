"""The simulation on the scripted brain: determinism, reactions, triggers, norms, threads."""

import time
from datetime import timedelta

import numpy as np
import pytest

from game.brains.scripted import ScriptedBrain
from game.core.records import MemoryKind, Source
from game.mind import facts
from game.mind.effects import JobKind, NewMemory, Perceived
from game.sim.events import EventKind
from game.sim.factory import build_simulation
from game.sim.report import build_report, without_timing
from game.sim.simulation import ClockMode, SimConfig, Simulation
from game.world.scenario import load_world


def run_report(hours: float, seed: int) -> dict:
    sim = build_simulation("three", seed=seed)
    start = sim.now
    sim.run_until(start + timedelta(hours=hours))
    sim.close()
    report = without_timing(build_report(sim, start, 0.0, "scripted"))
    return report


def test_three_residents_six_hours_is_deterministic():
    first = run_report(6, seed=11)
    second = run_report(6, seed=11)
    assert first == second
    assert first["steps"] == 6 * 360
    assert any(a["memories"]["observation"] > 5 for a in first["agents"])


def test_burning_stove_is_turned_off_by_the_resident_who_sees_it():
    sim = build_simulation("three", seed=3)
    stove = "Isabella Rodriguez's apartment:kitchen:stove"
    isabella = sim.agents["Isabella Rodriguez"]
    deadline = sim.now + timedelta(hours=6)
    while sim.now < deadline and not isabella.location.endswith(":kitchen"):
        sim.step()
    assert isabella.location == "Isabella Rodriguez's apartment:kitchen", "she never cooked"
    sim.player.set_object_state(stove, "burning")
    edited = sim.now
    while sim.now < edited + timedelta(minutes=30) and sim.town.state(stove) == "burning":
        sim.step()
    sim.close()
    assert sim.town.state(stove) != "burning"
    reactions = [e for e in sim.log.of(EventKind.REACTION) if e.time >= edited]
    assert reactions and reactions[0].agent == "Isabella Rodriguez"
    assert sim.now - edited <= timedelta(minutes=15)


def test_reflection_triggers_at_exactly_150():
    sim = build_simulation("three", seed=1)
    agent = sim.agents["Klaus Mueller"]
    agent.seeded, agent.asleep, agent.reflect_pool = True, False, 0
    agent.action = None
    vec = np.zeros(sim.mind.embedder.dim, dtype=np.float32)

    def add(importance: int) -> None:
        fact = facts.statement("", "something happened", Source.SEEN)
        memory = NewMemory(MemoryKind.OBSERVATION, fact.object, fact, importance, vec)
        sim.apply_effect(Perceived(agent.name, memories=(memory,)))

    for _ in range(14):
        add(10)
    add(9)
    assert agent.reflect_pool == 149 and JobKind.REFLECT not in sim.decisions.needs(agent)
    add(1)
    assert agent.reflect_pool == 150 and JobKind.REFLECT in sim.decisions.needs(agent)
    sim.close()


class SlowBrain(ScriptedBrain):
    """Every answer takes a second, like a slow model."""

    def __getattribute__(self, name):
        attr = super().__getattribute__(name)
        if callable(attr) and not name.startswith("_"):

            def slow(*args, **kwargs):
                time.sleep(1.0)
                return attr(*args, **kwargs)

            return slow
        return attr


def test_realtime_steps_are_not_held_up_by_a_slow_brain():
    from game.brains.embed import HashEmbedder

    scenario, town = load_world("three")
    config = SimConfig(seed=0, mode=ClockMode.REALTIME)
    sim = Simulation(scenario, town, SlowBrain(0), HashEmbedder(), config)
    began = time.perf_counter()
    for _ in range(60):
        sim.step()
    elapsed = time.perf_counter() - began
    assert sim.steps == 60 and sim.scheduler.pending > 0
    assert elapsed < 1.0, "a step waited for the brain"
    sim.close()


@pytest.mark.parametrize("scenario", ["three"])
def test_interview_leaves_no_trace(scenario):
    sim = build_simulation(scenario, seed=2)
    sim.run_until(sim.now + timedelta(hours=3))
    agent = sim.agents["Isabella Rodriguez"]
    before = (len(agent.memory), agent.memory.view().accessed.copy())
    ticket = sim.player.interview("Isabella Rodriguez", "What are you looking forward to?")
    answer = ticket.future.result()
    assert answer and isinstance(answer, str)
    assert len(agent.memory) == before[0]
    assert np.array_equal(agent.memory.view().accessed, before[1])
    sim.close()


def test_inner_voice_steers_the_plan():
    from datetime import datetime

    sim = build_simulation("three", seed=0)
    sim.run_until(datetime(2023, 2, 13, 13, 0))
    sim.player.inner_voice("Isabella Rodriguez", "I should bake a cake for the party")
    for _ in range(6):
        sim.step()
    isabella = sim.agents["Isabella Rodriguez"]
    assert any("bake a cake" in line for line in isabella.plan.lines())
    thought = [isabella.memory.record(i) for i in range(len(isabella.memory))]
    assert any(r.fact.source is Source.INNER_VOICE and "bake a cake" in r.text for r in thought)
    sim.close()


def test_visitor_words_are_stored_as_a_claim_with_its_source():
    sim = build_simulation("three", seed=0)
    sim.run_until(sim.now + timedelta(hours=4))
    klaus = sim.agents["Klaus Mueller"]
    visitor = sim.player.add_visitor("Robin")
    visitor.pos = klaus.pos
    sim.player.visitor_say("Klaus Mueller", "Isabella cancelled the party.")
    for _ in range(3):
        sim.step()
    records = [klaus.memory.record(i) for i in range(len(klaus.memory))]
    claim = [r for r in records if "cancelled" in r.text]
    assert len(claim) == 1
    assert claim[0].kind is MemoryKind.CHAT and claim[0].heard_from == "Robin"
    assert claim[0].fact.source is Source.VISITOR and claim[0].fact.object == (
        "Isabella cancelled the party."
    )
    assert (
        claim[0].text == 'Robin (a visitor) said to Klaus Mueller: "Isabella cancelled the party."'
    )
    lines = sim.chats.get("Klaus Mueller", [])
    assert lines[-1].speaker == "Klaus Mueller" and lines[-1].text
    sim.close()
