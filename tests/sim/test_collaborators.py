"""The simulation's collaborators: the neighbour grid gives what a scan of every pair
gave, in the same order; the town's state round-trips through get_state/set_state; and
the sim package keeps its files and classes small enough to read."""

import ast
import random
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

from game.sim.factory import build_simulation
from game.sim.nearby import Grid

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
