"""How the visitor steps on the tile grid: around a lamp post or the corner of a table
instead of stopping dead against it, never onto a tile a resident stands on, and off a
tile it cannot stand on.

Why: in a play-test the visitor walked into the foot of a street lamp (one blocked tile on
the verge) and stayed pressed against it until the player thought of another key, and
stood on the tile of a resident at the cafe's counter, drawn on top of her. A step that
meets an obstacle slides sideways, one tile at a time, toward the nearest lane that is
open ahead (at most SLIDE tiles away), as top-down games do; holding the key walks around
anything that narrow. A wall stays a wall.
"""

from __future__ import annotations

from collections.abc import Collection

from game.world.town import Town

Tile = tuple[int, int]

SLIDE = 2  # tiles sideways a blocked step may look for a way past
NUDGE = 6  # tiles around a spot that cannot be stood on searched for one that can


def free(town: Town, tile: Tile, occupied: Collection[Tile] = ()) -> bool:
    """Whether the visitor may stand on a tile: walkable, and no resident on it."""
    return town.is_walkable(*tile) and tile not in occupied


def step(town: Town, pos: Tile, delta: Tile, occupied: Collection[Tile] = ()) -> Tile | None:
    """Where one step in direction `delta` takes the visitor (None: nowhere, it is blocked).

    Straight on when that tile is free; else one tile sideways, toward the nearer lane
    (within SLIDE tiles, each tile on the way free) whose tile ahead is free."""
    dx, dy = delta
    ahead = (pos[0] + dx, pos[1] + dy)
    if free(town, ahead, occupied):
        return ahead
    if dx and dy:  # a diagonal step: either of its straight parts
        for part in ((pos[0] + dx, pos[1]), (pos[0], pos[1] + dy)):
            if free(town, part, occupied):
                return part
        return None
    across = (abs(dy), abs(dx))  # perpendicular to the step
    for reach in range(1, SLIDE + 1):
        for sign in (1, -1):
            lane = [
                (pos[0] + sign * across[0] * i, pos[1] + sign * across[1] * i)
                for i in range(1, reach + 1)
            ]
            end = lane[-1]
            if all(free(town, t, occupied) for t in lane) and free(
                town, (end[0] + dx, end[1] + dy), occupied
            ):
                return lane[0]
    return None


def nearest_free(
    town: Town, pos: Tile, occupied: Collection[Tile] = (), room: str | None = None
) -> Tile | None:
    """The free tile nearest `pos` (itself, if free), preferring tiles of `room` (the
    address the visitor is in) at the same distance; None when none is within NUDGE."""
    if free(town, pos, occupied):
        return pos
    for d in range(1, NUDGE + 1):
        ring = [
            (pos[0] + dx, pos[1] + dy)
            for dy in range(-d, d + 1)
            for dx in range(-d, d + 1)
            if max(abs(dx), abs(dy)) == d
        ]
        ring = [t for t in ring if free(town, t, occupied)]
        if ring:
            same = [t for t in ring if room is None or town.address_at(*t) == room]
            pool = same or ring
            return min(pool, key=lambda t: (abs(t[0] - pos[0]) + abs(t[1] - pos[1]), t[1], t[0]))
    return None
