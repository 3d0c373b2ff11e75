"""A* on the walkable grid (4-connected, unit steps, Manhattan heuristic).

Plain Python over a flattened grid: on a 100 x 70 town a home-to-work path takes about a
millisecond, so no compiled library is needed. Ties on f are broken towards larger g
(closer to the goal), which keeps the open set small on open ground. A route asked again
(the same start and goal: a resident's way from its bed to work, day after day) is the
one found before, kept, not searched again.
"""

from __future__ import annotations

import heapq

import numpy as np

Tile = tuple[int, int]
KEPT_PATHS = 8192  # a day of a town of 100 asks about 3,700 different routes, 4,900 in all


class PathFinder:
    """Holds the grid in the shape A* wants; rebuild it if the walkable grid changes."""

    def __init__(self, walkable: np.ndarray) -> None:
        self.height, self.width = walkable.shape
        self._open = walkable.astype(bool).ravel().tolist()
        self._next = self._neighbours()
        # (start, goal) -> the path found, the oldest dropped first past KEPT_PATHS: the
        # grid never changes under a finder, so the same question has the same answer
        self._kept: dict[tuple[Tile, Tile], tuple[Tile, ...] | None] = {}

    def _neighbours(self) -> list[tuple[int, ...]]:
        """Each cell's open neighbours, up, down, left, right (the order A* tries them),
        worked out once: the search no longer checks the grid's edges and walls again at
        every step of every route (routes were a fifth of a crowded lunch hour's steps)."""
        w, cells = self.width, self._open
        n = len(cells)
        out: list[tuple[int, ...]] = []
        for cur in range(n):
            cx = cur % w
            around = (cur - w, cur + w, cur - 1 if cx else -1, cur + 1 if cx + 1 < w else -1)
            out.append(tuple(c for c in around if 0 <= c < n and cells[c]))
        return out

    def walkable(self, tile: Tile) -> bool:
        x, y = tile
        return 0 <= x < self.width and 0 <= y < self.height and self._open[y * self.width + x]

    def path(self, start: Tile, goal: Tile) -> list[Tile] | None:
        """Tiles from start to goal inclusive, or None when the goal cannot be reached."""
        if not (self.walkable(start) and self.walkable(goal)):
            return None
        if start == goal:
            return [start]
        key = (start, goal)
        if key in self._kept:
            kept = self._kept[key]
            return None if kept is None else list(kept)
        came = self._search(start, goal)
        found = None if came is None else self._unwind(came, start, goal)
        if len(self._kept) >= KEPT_PATHS:
            del self._kept[next(iter(self._kept))]
        self._kept[key] = None if found is None else tuple(found)
        return found

    def _search(self, start: Tile, goal: Tile) -> dict[int, int] | None:
        """A* from start to goal: which cell each cell was reached from. The best cost of
        each cell is a list over the grid, not a dict: the same search, with less work."""
        w, around = self.width, self._next
        s, g = start[1] * w + start[0], goal[1] * w + goal[0]
        gx, gy = goal
        best = [1 << 30] * len(around)
        best[s] = 0
        came: dict[int, int] = {}
        heap = [(abs(start[0] - gx) + abs(start[1] - gy), 0, s)]
        push, pop = heapq.heappush, heapq.heappop
        while heap:
            _, neg_g, cur = pop(heap)
            if cur == g:
                return came
            cost = -neg_g
            if cost > best[cur]:
                continue
            new = cost + 1
            for nxt in around[cur]:
                if new < best[nxt]:
                    best[nxt] = new
                    came[nxt] = cur
                    push(heap, (new + abs(nxt % w - gx) + abs(nxt // w - gy), -new, nxt))
        return None

    def _unwind(self, came: dict[int, int], start: Tile, goal: Tile) -> list[Tile]:
        w = self.width
        s = start[1] * w + start[0]
        cur = goal[1] * w + goal[0]
        out = [goal]
        while cur != s:
            cur = came[cur]
            out.append((cur % w, cur // w))
        out.reverse()
        return out

    def reachable(self, start: Tile) -> set[Tile]:
        """Every tile connected to start (for checks, not for the hot path)."""
        if not self.walkable(start):
            return set()
        w = self.width
        seen = {start[1] * w + start[0]}
        frontier = list(seen)
        while frontier:
            cur = frontier.pop()
            cx = cur % w
            for nxt in (cur - w, cur + w, cur - 1 if cx else -1, cur + 1 if cx + 1 < w else -1):
                if 0 <= nxt < len(self._open) and self._open[nxt] and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return {(c % w, c // w) for c in seen}
