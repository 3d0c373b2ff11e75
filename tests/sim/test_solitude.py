"""Who is alone (game.sim.solitude): nobody awake in sight, no conversation; what the
wait meter marks the jobs the lockstep clock stood for with."""

from __future__ import annotations

from game.sim.factory import build_simulation
from game.sim.simulation import MODEL_TIMING, SimConfig


def awake_town():
    sim = build_simulation("three", config=SimConfig(seed=1, timing=MODEL_TIMING))
    for agent in sim.agents.values():
        agent.asleep, agent.seeded, agent.action = False, True, None
    return sim


def test_a_resident_is_alone_with_nobody_awake_in_sight():
    sim = awake_town()
    klaus, maria = sim.agents["Klaus Mueller"], sim.agents["Maria Lopez"]
    isabella = sim.agents["Isabella Rodriguez"]
    radius = sim.config.mind.vision_radius
    far = (klaus.pos[0] + 3 * radius, klaus.pos[1])
    maria.pos = isabella.pos = far
    alone = sim.scheduler.alone
    assert alone(("Klaus Mueller",))
    maria.pos = (klaus.pos[0] + radius, klaus.pos[1])  # in sight
    assert not alone(("Klaus Mueller",)) and not alone(("Maria Lopez",))
    maria.asleep = True  # a sleeper sees nothing and does nothing
    assert alone(("Klaus Mueller",))
    sim.close()


def test_a_sleeper_is_not_alone_its_thoughts_wait_for_nothing():
    sim = awake_town()
    klaus = sim.agents["Klaus Mueller"]
    for other in ("Maria Lopez", "Isabella Rodriguez"):
        sim.agents[other].pos = (klaus.pos[0] + 100, klaus.pos[1] + 100)
    klaus.asleep = True
    assert not sim.scheduler.alone(("Klaus Mueller",))
    sim.close()
