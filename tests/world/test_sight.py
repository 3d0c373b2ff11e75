"""Line of sight: a wall hides who stands behind it, furniture does not, and no diagonal
squeezes between two walls that meet at a corner."""

from __future__ import annotations

import numpy as np

from game.world.scenario import load_world
from game.world.sight import clear, line


def test_a_line_runs_from_one_tile_to_the_other():
    assert list(line((0, 0), (3, 0))) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert list(line((2, 2), (0, 0))) == [(2, 2), (1, 1), (0, 0)]
    assert list(line((1, 1), (1, 1))) == [(1, 1)]


def test_walls_hide_and_a_corner_is_no_gap():
    walls = np.zeros((5, 5), dtype=bool)
    walls[:, 2] = True  # a wall down the middle
    assert not clear(walls, (0, 2), (4, 2))
    assert clear(walls, (0, 0), (1, 4))  # on one side
    corner = np.zeros((3, 3), dtype=bool)
    corner[0, 1] = corner[1, 0] = True  # two walls meeting at a corner
    assert not clear(corner, (0, 0), (1, 1))
    assert clear(corner, (1, 1), (2, 2))


def test_the_towns_walls_are_its_wall_layer_and_tables_hide_nobody():
    _, town = load_world("three")
    ys, xs = np.nonzero(town.walls)
    assert len(xs) and all(not town.is_walkable(x, y) for x, y in zip(xs, ys, strict=True))
    through = next(
        (x, y)
        for x, y in zip(xs, ys, strict=True)
        if town.is_walkable(x - 1, y) and town.is_walkable(x + 1, y)
    )
    x, y = through
    assert not town.in_sight((x - 1, y), (x + 1, y))
    table = next(a for a in town.areas.values() if a.address.endswith("cafe customer seating"))
    blocked = [t for t in table.rect.tiles() if not town.is_walkable(*t)]
    assert blocked, "the cafe's tables block walking"
    assert all(not town.walls[ty, tx] for tx, ty in blocked)  # ... but not seeing
    across = [
        (a, b)
        for tx, ty in blocked
        for a, b in (((tx - 1, ty), (tx + 1, ty)), ((tx, ty - 1), (tx, ty + 1)))
        if town.is_walkable(*a) and town.is_walkable(*b)
    ]
    assert across and all(town.in_sight(a, b) for a, b in across)  # talk across a table
