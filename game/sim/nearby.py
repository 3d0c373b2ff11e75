"""Who is near whom: a uniform grid of residents keyed by tile cell.

Why: perception asked every pair of residents how far apart they were each step, a cost
that grows with the square of the town. The grid keeps each resident in the bucket of its
cell (cells as wide as the sight radius), so the residents within sight of one are found
in the 3 x 3 cells around it, and whom the visitor's T may talk with among those within
reach (game.sim.player), not after a wall check of every resident in town. Buckets are
updated as residents move: `refresh` compares each resident's tile with the one it was
filed under and moves only those that differ, so a position set from anywhere (a walk, a
save, a test) is picked up at the next look.

Candidates come back in the town's own order of residents (their ordinal), so whatever
iterates them (perception, which decides what each onlooker remembers first) sees them in
the order a scan of every resident would have.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from game.mind.agent import Agent

Tile = tuple[int, int]
Cell = tuple[int, int]
ROOM_SCAN = 12  # a room of at most this many is measured whole, not looked up by cell
RING_SCAN = 40  # more candidates than this in the cells around: look tile ring by ring
Entry = tuple[int, int, str, int, Agent]  # a resident in a RoomGrid: x, y, name, id, itself


class Grid:
    """Residents by tile cell; `near` gives those within a Chebyshev radius, in order."""

    def __init__(self, agents: Iterable[Agent], cell: int) -> None:
        self.cell = max(1, cell)
        self._order: dict[str, int] = {}
        self._agents: dict[str, Agent] = {}
        self._tile: dict[str, Tile] = {}
        self._buckets: dict[Cell, dict[str, Agent]] = {}
        for agent in agents:
            self._order[agent.name] = len(self._order)
            self._agents[agent.name] = agent
            self._file(agent)

    def _cell(self, tile: Tile) -> Cell:
        return (tile[0] // self.cell, tile[1] // self.cell)

    def _file(self, agent: Agent) -> None:
        self._tile[agent.name] = agent.pos
        self._buckets.setdefault(self._cell(agent.pos), {})[agent.name] = agent

    def refresh(self) -> None:
        """Move the residents whose tile changed since they were filed into their cell."""
        for name, agent in self._agents.items():
            old = self._tile[name]
            if agent.pos == old:
                continue
            was, now = self._cell(old), self._cell(agent.pos)
            if was != now:
                bucket = self._buckets[was]
                del bucket[name]
                if not bucket:
                    del self._buckets[was]
                self._buckets.setdefault(now, {})[name] = agent
            self._tile[name] = agent.pos

    def fresh_near(self, tile: Tile, radius: int) -> list[Agent]:
        """`near`, after a `refresh`: for a one-off question between steps (whom the
        visitor's T talks with), when residents may have moved since the last look."""
        self.refresh()
        return self.near(tile, radius)

    def near(self, tile: Tile, radius: int) -> list[Agent]:
        """Everyone within `radius` tiles of `tile` (Chebyshev), in the town's order."""
        x, y = tile
        found = [
            a
            for a in self._around(tile, radius)
            if max(abs(a.pos[0] - x), abs(a.pos[1] - y)) <= radius
        ]
        found.sort(key=lambda a: self._order[a.name])
        return found

    def _around(self, tile: Tile, radius: int) -> Iterator[Agent]:
        (x0, y0), (x1, y1) = (
            self._cell((tile[0] - radius, tile[1] - radius)),
            self._cell((tile[0] + radius, tile[1] + radius)),
        )
        for cx in range(x0, x1 + 1):
            for cy in range(y0, y1 + 1):
                bucket = self._buckets.get((cx, cy))
                if bucket:
                    yield from bucket.values()


class RoomGrid:
    """The residents one step's perception can see, bucketed by room and tile cell.

    Why: every onlooker asked the town-wide grid for its 3 x 3 cells and then dropped the
    residents asleep, idle or in another room, each of them once per onlooker. Built once a
    step from the residents worth seeing, the buckets hold only those, by (room, cell), so
    an onlooker's question touches the ones it may see and no other. Nothing moves while
    perception runs, so the step's buckets stay true for it. Each is kept with its tile
    and name beside it, read once a step, not once an onlooker.
    """

    def __init__(
        self, agents: Iterable[Agent], cell: int, before: RoomGrid | None = None
    ) -> None:
        self.cell = c = max(1, cell)
        # each resident as (x, y, name, id, resident): the id before the resident, so
        # comparing a room's list with the grid before's never compares two residents
        self._buckets: dict[tuple[str, Cell], list[Entry]] = {}
        self._rooms: dict[str, list[Entry]] = {}
        self._tiles: dict[tuple[str, int, int], list[tuple[str, Agent]]] = {}
        for agent in agents:
            x, y = agent.pos
            where, name = agent.location, agent.name
            entry = (x, y, name, id(agent), agent)
            self._buckets.setdefault((where, (x // c, y // c)), []).append(entry)
            self._rooms.setdefault(where, []).append(entry)
            self._tiles.setdefault((where, x, y), []).append((name, agent))
        # room -> the answers `nearest` gave there, by (tile, radius, k, skip): carried on
        # from the grid `before` (the step before) for each room whose residents are the
        # same ones on the same tiles, so nobody there is measured again. (An id stays
        # unique: both grids hold their residents while compared.)
        self._answers: dict[str, dict[tuple, list[tuple[int, str, Agent]]]] = {}
        if before is not None:
            for room, kept in before._answers.items():
                if before._rooms.get(room) == self._rooms.get(room):
                    self._answers[room] = kept

    def nearest(
        self, location: str, tile: Tile, radius: int, k: int, skip: Agent | None = None
    ) -> list[tuple[int, str, Agent]]:
        """Up to `k` of those in `location` within `radius` tiles of `tile` (Chebyshev),
        but `skip`, as (distance, name, resident): nearest first, then by name, the order
        attention takes them in (game.mind.perception.attend), so the k kept are the only
        ones it could take. The list is shared with later askers: read it, do not change
        it. Residents stay where they are while one grid is asked (perception moves
        nobody), and a room's answers are asked again only once someone there moved."""
        answers = self._answers.get(location)
        if answers is None:
            answers = self._answers[location] = {}
        key = (tile, radius, k, None if skip is None else skip.name)
        found = answers.get(key)
        if found is None:
            found = answers[key] = self._nearest(location, tile, radius, k, skip)
        return found

    def _nearest(
        self, location: str, tile: Tile, radius: int, k: int, skip: Agent | None
    ) -> list[tuple[int, str, Agent]]:
        x, y = tile
        candidates = self._candidates(location, tile, radius)
        if len(candidates) > RING_SCAN:
            return self._rings(location, tile, radius, k, skip)
        found: list[tuple[int, str, Agent]] = []
        for ox, oy, name, _, other in candidates:
            d = max(abs(ox - x), abs(oy - y))
            if d <= radius and other is not skip:
                found.append((d, name, other))  # names are unique: no tie reaches other
        if len(found) > k:
            return heapq.nsmallest(k, found)
        found.sort()
        return found

    def _rings(
        self, location: str, tile: Tile, radius: int, k: int, skip: Agent | None
    ) -> list[tuple[int, str, Agent]]:
        """`nearest` in a crowd (a lunch room of fifty): the tiles at distance 0, 1, 2 ...
        in turn, up to the first ring that brings the count to k, instead of measuring
        every resident in the cells around. All of ring d are nearer than any of ring
        d + 1, so the k nearest (then by name) are among the rings looked at."""
        x, y = tile
        get = self._tiles.get
        found: list[tuple[int, str, Agent]] = []
        for d in range(radius + 1):
            for dx, dy in _ring(d):
                for name, other in get((location, x + dx, y + dy), ()):
                    if other is not skip:
                        found.append((d, name, other))
            if len(found) >= k:
                break
        found.sort()
        return found[:k]

    def _candidates(
        self, location: str, tile: Tile, radius: int
    ) -> Sequence[Entry]:
        """Those in `location` in the cells within `radius` of `tile`, or, in a room of
        few, all of that room: its cells cost more to look up than its residents to
        measure (most onlookers are at home, or with a handful of others). Which ones come
        back and in what order does not matter: `nearest` keeps the k nearest by name."""
        room = self._rooms.get(location, ())
        if len(room) <= ROOM_SCAN:
            return room
        x, y = tile
        c = self.cell
        get = self._buckets.get
        out: list[Entry] = []
        for cx in range((x - radius) // c, (x + radius) // c + 1):
            for cy in range((y - radius) // c, (y + radius) // c + 1):
                out += get((location, (cx, cy)), ())
        return out


@lru_cache(maxsize=64)
def _ring(d: int) -> tuple[tuple[int, int], ...]:
    """The offsets at Chebyshev distance exactly d from a tile."""
    if d == 0:
        return ((0, 0),)
    edge = [(dx, dy) for dx in range(-d, d + 1) for dy in (-d, d)]
    return tuple(edge + [(dx, dy) for dx in (-d, d) for dy in range(1 - d, d)])
