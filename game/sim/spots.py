"""Where a resident stands to use an object: a spot of their own where the map offers one.

Why: three residents on one tile make an unreadable pile of labels (issue 14). The map has
no chair objects, but its furniture already says where one sits: a walkable tile inside an
object, next to a blocked part of it, is a chair at a table, a stool at a bar counter, the
chair of a desk; a walkable object with nothing blocked (a bench) is seats throughout. When
every seat is taken, a resident stands beside the object, inside the same room, and never
in a doorway.
"""

from __future__ import annotations

from collections.abc import Callable

from game.world.town import Town

Tile = tuple[int, int]
SIDEWAYS = ((1, 0), (-1, 0))
UP_DOWN = ((0, 1), (0, -1))


class Spots:
    """The seats of each object, found once from the map, and the choice among them."""

    def __init__(self, town: Town) -> None:
        self.town = town
        self._seats: dict[str, tuple[tuple[int, Tile], ...]] = {}

    def seats(self, address: str) -> tuple[tuple[int, Tile], ...]:
        """(rank, tile) of the walkable tiles inside the object, best first: rank 0 beside
        a blocked part of it on the left or right (a chair at a table), 1 above or below
        (a stool at a counter, a desk's chair), 2 the rest (a bench)."""
        if address not in self._seats:
            rect = self.town.areas[address].rect
            inside = [t for t in rect.tiles() if self.town.is_walkable(*t)]
            ranked = [(self._rank(rect, t), t) for t in inside]
            self._seats[address] = tuple(sorted(ranked, key=lambda s: (s[0], s[1][1], s[1][0])))
        return self._seats[address]

    def _rank(self, rect, tile: Tile) -> int:
        for rank, steps in enumerate((SIDEWAYS, UP_DOWN)):
            for dx, dy in steps:
                near = (tile[0] + dx, tile[1] + dy)
                if rect.has_tile(*near) and not self.town.is_walkable(*near):
                    return rank
        return 2

    def choose(self, address: str, taken: set[Tile], pick: Callable[[int], int]) -> Tile | None:
        """A free seat of the best kind left (`pick(n)` chooses among n, stable per
        resident, so customers spread over the tables), else the access tile if free,
        else the nearest free tile beside the object in its room."""
        free = [(rank, t) for rank, t in self.seats(address) if t not in taken]
        if free:
            best = [t for rank, t in free if rank == free[0][0]]
            return best[pick(len(best))]
        access = self.town.access_tile(address)
        if access is None or access not in taken:
            return access
        return min(
            self.around(address, taken),
            key=lambda t: (abs(t[0] - access[0]) + abs(t[1] - access[1]), t),
            default=access,
        )

    def around(self, address: str, taken: set[Tile]) -> list[Tile]:
        """Free walkable tiles on the ring around the object, in its own room, no doorway."""
        area = self.town.areas[address]
        room = self.town.areas.get(area.parent or "")
        r = area.rect
        return [
            (x, y)
            for y in range(r.y - 1, r.y + r.h + 1)
            for x in range(r.x - 1, r.x + r.w + 1)
            if self.town.is_walkable(x, y)
            and (x, y) not in taken
            and (room is None or room.rect.has_tile(x, y))
            and not self.doorway((x, y))
        ]

    def doorway(self, tile: Tile) -> bool:
        """A walkable tile between two blocked ones, left and right or above and below:
        a door in a wall (or a gap between two pieces of furniture: no place to stand)."""
        x, y = tile
        walk = self.town.is_walkable
        return (not walk(x - 1, y) and not walk(x + 1, y)) or (
            not walk(x, y - 1) and not walk(x, y + 1)
        )
