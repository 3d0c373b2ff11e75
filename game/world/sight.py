"""Line of sight on the tile grid: whether a wall stands between two tiles.

Why walls and not every blocked tile: furniture blocks walking but not seeing (one talks
across a cafe table), while a building's wall hides whoever is behind it. A map's `walls`
layer says which blocked tiles are walls (docs/MAP.md); a map without one counts every
blocked tile outside its objects as a wall (objects are the furniture).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

Tile = tuple[int, int]


def default_walls(walkable: np.ndarray, furniture: np.ndarray) -> np.ndarray:
    """Walls for a map that does not draw them apart: blocked tiles that are no object."""
    return ~walkable & ~furniture


def line(a: Tile, b: Tile) -> Iterator[Tile]:
    """The tiles a straight line from a to b passes, a and b included (Bresenham)."""
    (x, y), (x1, y1) = a, b
    dx, dy = abs(x1 - x), -abs(y1 - y)
    sx, sy = (1 if x1 > x else -1), (1 if y1 > y else -1)
    err = dx + dy
    while True:
        yield x, y
        if (x, y) == (x1, y1):
            return
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x += sx
        if e2 <= dx:
            err += dx
            y += sy


def clear(walls: np.ndarray, a: Tile, b: Tile) -> bool:
    """No wall on the line between a and b (their own tiles do not count), and no
    diagonal step squeezes between two walls that meet at a corner."""
    h, w = walls.shape

    def wall(x: int, y: int) -> bool:
        return not (0 <= x < w and 0 <= y < h) or bool(walls[y, x])

    tiles = list(line(a, b))
    for (px, py), (x, y) in zip(tiles, tiles[1:], strict=False):
        if (x, y) != b and wall(x, y):
            return False
        if px != x and py != y and wall(px, y) and wall(x, py):
            return False
    return True
