"""Rooms: how many steps a walk takes from a tile into a room (a resident's location: the
deepest sector:arena address of its tile, '' on the streets).

Why: residents see each other only in the same room (game.sim.sight), so two in
neighbouring buildings, a few tiles apart through a wall, cannot affect each other until
one has walked round through the doors into the other's room. Residents stepping apart
(game.sim.apart) count those steps instead of the gap through the wall. A walk goes a
walkable tile up, down, left or right a step (game.world.pathfinding), so the steps into
a room are a breadth-first search from its tiles, made once per room when first asked.
"""

from __future__ import annotations

from collections import deque

from game.world.town import Town

Tile = tuple[int, int]
FAR = 1 << 30  # no walk gets there


class Rooms:
    def __init__(self, town: Town) -> None:
        walkable = town.walkable.astype(bool)
        self.height, self.width = walkable.shape
        self._open = walkable.ravel().tolist()
        w, h = self.width, self.height
        self._room = [town.address_at(i % w, i // w) for i in range(w * h)]
        self._steps: dict[str, list[int]] = {}
        self._out: dict[str, list[int]] = {}

    def at(self, tile: Tile) -> str:
        """The room a tile is in."""
        x, y = tile
        if not (0 <= x < self.width and 0 <= y < self.height):
            return ""
        return self._room[y * self.width + x]

    def steps_into(self, room: str, tile: Tile) -> int:
        """The fewest steps from the tile to a tile of the room (0 in it; FAR when no walk
        gets there: one standing where it cannot walk from stays put)."""
        if self.at(tile) == room:
            return 0
        x, y = tile
        if not (0 <= x < self.width and 0 <= y < self.height):
            return FAR
        steps = self._steps.get(room)
        if steps is None:
            steps = self._steps[room] = self._search(room)
        return steps[y * self.width + x]

    def steps_out(self, tile: Tile) -> int:
        """The fewest steps from the tile to a tile of another room (FAR if none)."""
        room, (x, y) = self.at(tile), tile
        if not (0 <= x < self.width and 0 <= y < self.height):
            return 0
        steps = self._out.get(room)
        if steps is None:
            steps = self._out[room] = self._search(room, inside=False)
        return steps[y * self.width + x]

    def _search(self, room: str, inside: bool = True) -> list[int]:
        """Steps from every tile into the room (or, `inside` False, out of it)."""
        w, cells = self.width, self._open
        n = len(cells)
        steps = [FAR] * n
        todo: deque[int] = deque()
        for i, r in enumerate(self._room):
            if (r == room) is inside and cells[i]:
                steps[i] = 0
                todo.append(i)
        while todo:
            cur = todo.popleft()
            nxt = steps[cur] + 1
            cx = cur % w
            for c in (cur - w, cur + w, cur - 1 if cx else -1, cur + 1 if cx + 1 < w else -1):
                if 0 <= c < n and cells[c] and steps[c] > nxt:
                    steps[c] = nxt
                    todo.append(c)
        return steps
