"""A* returns optimal paths and never crosses a wall."""

from collections import deque

import numpy as np
import pytest

from game.world.pathfinding import PathFinder


def grid(art: str) -> np.ndarray:
    return np.array([[ch != "#" for ch in row] for row in art.strip().splitlines()])


def bfs_length(walkable: np.ndarray, start, goal) -> int | None:
    """Reference shortest-path length by breadth-first search."""
    h, w = walkable.shape
    seen = {start: 0}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        if (x, y) == goal:
            return seen[(x, y)]
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and walkable[ny, nx] and (nx, ny) not in seen:
                seen[(nx, ny)] = seen[(x, y)] + 1
                queue.append((nx, ny))
    return None


def assert_valid(walkable: np.ndarray, path, start, goal) -> None:
    assert path[0] == start and path[-1] == goal
    for x, y in path:
        assert walkable[y, x], f"path crosses a wall at {(x, y)}"
    for (ax, ay), (bx, by) in zip(path, path[1:], strict=False):
        assert abs(ax - bx) + abs(ay - by) == 1, "path must move one tile at a time"


MAZE = """
.....#....
.###.#.##.
.#...#..#.
.#.####.#.
.#......#.
.########.
..........
"""


def test_path_around_a_wall_is_optimal():
    walkable = grid(MAZE)
    finder = PathFinder(walkable)
    path = finder.path((0, 0), (6, 0))
    assert_valid(walkable, path, (0, 0), (6, 0))
    assert len(path) - 1 == bfs_length(walkable, (0, 0), (6, 0))


def test_hand_computed_length():
    walkable = grid("""
...
.#.
...
""")
    path = PathFinder(walkable).path((0, 1), (2, 1))
    assert len(path) - 1 == 4  # around the centre block: up, right, right, down


def test_unreachable_and_blocked_endpoints():
    walkable = grid("""
..#..
..#..
..#..
""")
    finder = PathFinder(walkable)
    assert finder.path((0, 0), (4, 0)) is None
    assert finder.path((2, 0), (0, 0)) is None
    assert finder.path((0, 0), (0, 0)) == [(0, 0)]


@pytest.mark.parametrize("seed", range(20))
def test_random_grids_match_bfs(seed):
    rng = np.random.default_rng(seed)
    walkable = rng.random((15, 20)) > 0.3
    finder = PathFinder(walkable)
    cells = list(zip(*np.nonzero(walkable), strict=False))
    for _ in range(10):
        (sy, sx), (gy, gx) = (cells[i] for i in rng.choice(len(cells), 2))
        start, goal = (int(sx), int(sy)), (int(gx), int(gy))
        expected = bfs_length(walkable, start, goal)
        path = finder.path(start, goal)
        if expected is None:
            assert path is None
        else:
            assert_valid(walkable, path, start, goal)
            assert len(path) - 1 == expected


def test_a_route_asked_again_is_the_one_searched_and_the_caller_may_change_it(monkeypatch):
    import random

    import game.world.pathfinding as pathfinding

    rng = random.Random(3)
    walkable = np.random.default_rng(3).random((30, 40)) > 0.25
    kept = PathFinder(walkable)
    monkeypatch.setattr(pathfinding, "KEPT_PATHS", 16)  # old routes are dropped too
    tiles = [(x, y) for y in range(30) for x in range(40) if walkable[y, x]]
    pairs = [(rng.choice(tiles), rng.choice(tiles)) for _ in range(40)]
    for start, goal in pairs * 3 + pairs[::-1]:
        got = kept.path(start, goal)
        assert got == PathFinder(walkable).path(start, goal)  # a finder that kept nothing
        if got:
            got.append((-1, -1))  # a caller's list, not the one kept
    assert len(kept._kept) <= 16
