"""The simulation's collaborators: the neighbour grid gives what a scan of every pair
gave, in the same order; the town's state round-trips through get_state/set_state; and
the sim package keeps its files and classes small enough to read."""

import ast
import random
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

from game.mind.agent import ActionKind
from game.sim.factory import build_simulation
from game.sim.nearby import Grid, RoomGrid

SIM = Path(__file__).resolve().parents[2] / "game" / "sim"
MAX_FILE_LINES, MAX_CLASS_LINES = 700, 400


def walkers(n: int, size: int, rng: random.Random) -> list[SimpleNamespace]:
    return [
        SimpleNamespace(name=f"r{i}", pos=(rng.randrange(size), rng.randrange(size)))
        for i in range(n)
    ]


def scanned(agents, tile, radius):
    x, y = tile
    return [a for a in agents if max(abs(a.pos[0] - x), abs(a.pos[1] - y)) <= radius]


def test_the_grid_finds_what_a_scan_finds_in_the_same_order_as_residents_move():
    rng = random.Random(4)
    agents = walkers(60, 40, rng)
    grid = Grid(agents, cell=4)
    for _ in range(30):
        for a in rng.sample(agents, 20):  # some walk a tile, some jump (a save, a test)
            dx, dy = rng.choice([(0, 1), (1, 0), (-1, 0), (0, -1), (9, -7)])
            a.pos = (max(0, a.pos[0] + dx), max(0, a.pos[1] + dy))
        grid.refresh()
        for a in agents:
            assert grid.near(a.pos, 4) == scanned(agents, a.pos, 4)
        assert grid.near((0, 0), 9) == scanned(agents, (0, 0), 9)  # wider than a cell


def test_the_room_grid_keeps_the_k_nearest_a_scan_keeps_in_crowds_and_alone():
    """Sparse rooms are measured whole or by cell, crowded ones ring by ring: each gives
    the k nearest of the onlooker's room (then by name) that measuring everyone gives."""
    rng = random.Random(9)
    for n, size in ((8, 20), (30, 12), (90, 10), (200, 14), (120, 40)):
        agents = walkers(n, size, rng)
        for a in agents:
            a.location = rng.choice(("cafe", "cafe", "cafe", "park"))
            if rng.random() < 0.2:  # some share a tile
                a.pos = agents[0].pos
        grid = RoomGrid(agents, cell=4)
        for a in agents + [SimpleNamespace(name="visitor", pos=(3, 3), location="cafe")]:
            for radius, k in ((4, 3), (2, 1), (4, 12), (0, 3)):
                x, y = a.pos
                measured = sorted(
                    (max(abs(o.pos[0] - x), abs(o.pos[1] - y)), o.name, o)
                    for o in agents
                    if o is not a and o.location == a.location
                )
                want = [t for t in measured if t[0] <= radius][:k]
                assert grid.nearest(a.location, a.pos, radius, k, a) == want


def test_a_room_grid_built_on_the_one_before_answers_as_a_fresh_one_as_residents_move():
    """A room's answers are carried on from the step before only while the same residents
    stand on the same tiles there: after a walk, a jump, one leaving or one coming in,
    each onlooker gets what a grid of its own gives."""
    rng = random.Random(11)
    agents = walkers(40, 16, rng)
    for a in agents:
        a.location = rng.choice(("cafe", "park", "home"))
    here = list(agents)
    grid = RoomGrid(here, cell=4)
    for _ in range(40):
        for a in rng.sample(agents, 3):
            move = rng.random()
            if move < 0.5:
                a.pos = (max(0, a.pos[0] + rng.choice((-1, 1))), a.pos[1])
            elif move < 0.7:
                a.location = rng.choice(("cafe", "park", "home"))
            elif a in here:
                here.remove(a)  # asleep: no longer worth seeing
            else:
                here.append(a)
        grid = RoomGrid(here, cell=4, before=grid)
        fresh = RoomGrid(here, cell=4)
        for a in agents:
            for radius, k in ((4, 3), (2, 8)):
                want = fresh.nearest(a.location, a.pos, radius, k, a)
                assert grid.nearest(a.location, a.pos, radius, k, a) == want


def test_a_visitor_let_stay_while_a_place_is_open_still_leaves_when_it_closes():
    """Closing time sends visitors away though each was allowed to stay step after step
    (an action let go on is not looked at again until it, or the places closed, change)."""
    from dataclasses import replace

    sim = build_simulation("three", seed=1)
    klaus, maria = sim.agents["Klaus Mueller"], sim.agents["Maria Lopez"]
    day = sim.now.replace(hour=0, minute=0)
    klaus.asleep = maria.asleep = False
    for agent in (klaus, maria):
        agent.action = replace(
            agent.action, description="shopping", address="The Willows Market and Pharmacy",
            kind=ActionKind.PLAN,
            end=day + timedelta(hours=23),
        )
    shopping = klaus.action
    for minute in (16 * 60, 16 * 60 + 30, 16 * 60 + 59):  # open until 17:00
        sim.state.clock.now = day + timedelta(minutes=minute)
        sim.actions.enforce_hours()
        assert klaus.action is shopping
    sim.actions.enforce_hours([maria])  # a group stepping apart
    sim.state.clock.now = day + timedelta(hours=17)
    sim.actions.enforce_hours()
    assert klaus.action is None and maria.action is None


def test_the_towns_state_round_trips_through_get_state_and_set_state():
    sim = build_simulation("three", seed=2)
    sim.run_until(sim.now + timedelta(hours=2))
    sim.player.add_visitor("Robin")
    saved = sim.get_state()
    sim.close()
    other = build_simulation("three", seed=2)
    other.set_state(saved)
    other.close()
    assert other.get_state() == saved
    assert other.steps == sim.steps and other.scheduler.step == sim.steps
    assert other.log.events == sim.log.events and other.visitor == sim.visitor


def test_no_sim_file_over_700_lines_and_no_class_over_400():
    for path in sorted(SIM.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= MAX_FILE_LINES, path.name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                lines = node.end_lineno - node.lineno + 1
                assert lines <= MAX_CLASS_LINES, f"{path.name}: {node.name}"
