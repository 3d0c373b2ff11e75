"""Where to stand in the town of three for the visitor's chat tests: a row of tiles in the
cafe with nothing between, and a wall with the street on one side and a room behind."""

from __future__ import annotations

CAFE = "Hobbs Cafe:cafe"
ISABELLA, KLAUS, MARIA = "Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"


def place(sim, name: str, tile: tuple[int, int]) -> None:
    """Stand a resident on a tile (stopped, where it is)."""
    agent = sim.agents[name]
    agent.pos, agent.path = tile, []
    agent.location = sim.town.address_at(*tile)


def cafe_row(sim, length: int) -> list[tuple[int, int]]:
    """`length` walkable cafe tiles in a row, left to right, no wall between them."""
    tiles = set(sim.town.walkable_tiles_of(CAFE))
    for x, y in sorted(tiles, key=lambda t: (t[1], t[0])):
        row = [(x + i, y) for i in range(length)]
        if all(t in tiles for t in row) and sim.town.in_sight(row[0], row[-1]):
            return row
    raise AssertionError("no row that long in the cafe")


def wall_between(sim) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """(a street tile, the wall beside it, the room tile behind the wall), with more
    street in line on the far side: someone inside is two tiles away, through a wall."""
    town = sim.town
    for y in range(town.height):
        for x in range(2, town.width - 1):
            if not town.walls[y, x]:
                continue
            street, room = (x - 1, y), (x + 1, y)
            far = (x - 4, y)
            outside = all(town.is_walkable(*t) and not town.address_at(*t) for t in (street, far))
            if outside and town.is_walkable(*room) and town.address_at(*room):
                return street, (x, y), room
    raise AssertionError("no wall with a street and a room on either side")
