"""The town: a walkable grid plus the area tree world -> sector -> arena -> object.

The structure (grid, tree, rectangles) is immutable once loaded; object states are the one
mutable part and live in a plain dict so a snapshot is one dict copy.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from game.core.clock import in_window
from game.world.roles import Role
from game.world.sight import clear, default_walls

WORLD = ""  # the address of the root of the tree
SEP = ":"


class AreaKind(Enum):
    WORLD = "world"
    SECTOR = "sector"
    ARENA = "arena"
    OBJECT = "object"


@dataclass(frozen=True)
class Rect:
    """A rectangle of whole tiles: x, y of the top-left tile, width and height in tiles."""

    x: int
    y: int
    w: int
    h: int

    def contains(self, other: Rect) -> bool:
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.x + other.w <= self.x + self.w
            and other.y + other.h <= self.y + self.h
        )

    def has_tile(self, tx: int, ty: int) -> bool:
        return self.x <= tx < self.x + self.w and self.y <= ty < self.y + self.h

    def tiles(self) -> Iterator[tuple[int, int]]:
        for ty in range(self.y, self.y + self.h):
            for tx in range(self.x, self.x + self.w):
                yield tx, ty

    @property
    def area(self) -> int:
        return self.w * self.h


@dataclass(frozen=True)
class Area:
    """One node of the environment tree. `address` is 'sector:arena:object'."""

    address: str
    name: str
    kind: AreaKind
    rect: Rect
    parent: str | None
    children: tuple[str, ...] = ()
    category: str = ""  # a sector's kind: home, cafe, pub, shop, college, dorm, park
    opens: int | None = None  # minutes after midnight; None = always open
    closes: int | None = None
    capacity: int | None = None
    default_state: str = "idle"
    role: Role | None = None  # what the area is for (docs/MAP.md), whatever its name

    def is_open(self, minute: int) -> bool:
        """Opening hours as the map states them; areas without hours are always open."""
        if self.opens is None or self.closes is None:
            return True
        return in_window(minute, self.opens, self.closes)


def join(*parts: str) -> str:
    return SEP.join(p for p in parts if p)


def split(address: str) -> list[str]:
    return address.split(SEP) if address else []


def sector_of(address: str) -> str:
    return split(address)[0] if address else WORLD


@dataclass
class Town:
    """The loaded map. Lookups by tile and by address; object states by address."""

    width: int
    height: int
    tile: int
    walkable: np.ndarray  # bool (height, width)
    areas: dict[str, Area]
    spawns: dict[str, tuple[int, int]]
    source: str = ""
    states: dict[str, str] = field(default_factory=dict)
    walls: np.ndarray | None = None  # bool (height, width): what hides what is behind it
    _grids: dict[AreaKind, np.ndarray] = field(default_factory=dict, repr=False)
    _ids: list[str] = field(default_factory=list, repr=False)
    _access: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    _apart: dict[tuple[str, str], int] = field(default_factory=dict, repr=False)
    _kids: dict[tuple[str, AreaKind | None], tuple[Area, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if not self.states:
            self.states = {
                a.address: a.default_state for a in self.areas.values() if a.kind is AreaKind.OBJECT
            }
        self._index()
        if self.walls is None:
            self.walls = default_walls(self.walkable, self._grids[AreaKind.OBJECT] >= 0)

    # -- building the lookups -------------------------------------------------
    def _index(self) -> None:
        """Paint each level of the tree into an id grid so area_at is O(1)."""
        self._ids = list(self.areas)
        lookup = {address: i for i, address in enumerate(self._ids)}
        for kind in (AreaKind.SECTOR, AreaKind.ARENA, AreaKind.OBJECT):
            grid = np.full((self.height, self.width), -1, dtype=np.int32)
            for area in self.areas.values():
                if area.kind is kind:
                    r = area.rect
                    grid[r.y : r.y + r.h, r.x : r.x + r.w] = lookup[area.address]
            self._grids[kind] = grid
        self._access = {
            a.address: self._find_access(a)
            for a in self.areas.values()
            if a.kind is AreaKind.OBJECT
        }
        self._apart = {}
        for sector in self.areas.values():
            if sector.kind is AreaKind.SECTOR:
                self._apart.update(_rooms_apart(self, sector))

    def _find_access(self, obj: Area) -> tuple[int, int] | None:
        """The walkable tile from which one uses an object: inside it, else beside it."""
        arena = self.areas.get(obj.parent or WORLD)
        inside = [t for t in obj.rect.tiles() if self.is_walkable(*t)]
        if inside:
            return inside[len(inside) // 2]
        for tx, ty in obj.rect.tiles():
            for nx, ny in ((tx, ty + 1), (tx, ty - 1), (tx - 1, ty), (tx + 1, ty)):
                if not self.is_walkable(nx, ny) or obj.rect.has_tile(nx, ny):
                    continue
                if arena is None or arena.rect.has_tile(nx, ny):
                    return nx, ny
        return None

    # -- lookups ----------------------------------------------------------------
    def in_bounds(self, tx: int, ty: int) -> bool:
        return 0 <= tx < self.width and 0 <= ty < self.height

    def is_walkable(self, tx: int, ty: int) -> bool:
        return self.in_bounds(tx, ty) and bool(self.walkable[ty, tx])

    def in_sight(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """No wall between two tiles (furniture does not hide anyone)."""
        return clear(self.walls, a, b)

    def area_at(self, tx: int, ty: int, kind: AreaKind = AreaKind.ARENA) -> Area | None:
        """The sector, arena or object covering a tile, if any."""
        if not self.in_bounds(tx, ty):
            return None
        index = int(self._grids[kind][ty, tx])
        return self.areas[self._ids[index]] if index >= 0 else None

    def address_at(self, tx: int, ty: int) -> str:
        """The deepest sector:arena address of a tile ('' on the streets)."""
        for kind in (AreaKind.ARENA, AreaKind.SECTOR):
            area = self.area_at(tx, ty, kind)
            if area is not None:
                return area.address
        return WORLD

    def tiles_of(self, address: str) -> list[tuple[int, int]]:
        return list(self.areas[address].rect.tiles())

    def walkable_tiles_of(self, address: str) -> list[tuple[int, int]]:
        return [t for t in self.tiles_of(address) if self.is_walkable(*t)]

    def access_tile(self, address: str) -> tuple[int, int] | None:
        """Where to stand to use an object, or a central walkable tile of an area."""
        if address in self._access:
            return self._access[address]
        tiles = self.walkable_tiles_of(address)
        if not tiles:
            return None
        cx, cy = (
            self.areas[address].rect.x + self.areas[address].rect.w / 2,
            (self.areas[address].rect.y + self.areas[address].rect.h / 2),
        )
        return min(tiles, key=lambda t: (abs(t[0] - cx) + abs(t[1] - cy), t))

    def children(self, address: str, kind: AreaKind | None = None) -> list[Area]:
        """The areas under one (of one kind), in the map's order: looked up once an
        address (the tree never changes), for every choice of where to go asks them."""
        kids = self._kids.get((address, kind))
        if kids is None:
            node = self.areas[address]
            found = (self.areas[c] for c in node.children)
            kids = self._kids[(address, kind)] = tuple(
                k for k in found if kind is None or k.kind is kind
            )
        return list(kids)

    def sectors(self) -> list[Area]:
        return self.children(WORLD)

    def find(self, address: str) -> Area | None:
        return self.areas.get(address)

    def resolve(self, text: str) -> Area | None:
        """An address, tolerant of spacing and case, as a player or a model may type it."""
        wanted = SEP.join(p.strip().lower() for p in text.split(SEP))
        for address, area in self.areas.items():
            if address.lower() == wanted:
                return area
        return None

    def rooms_apart(self, here: str, there: str) -> int | None:
        """How many rooms apart two places of one building are: 0 in the same room, 1 next
        door (rooms whose walls touch), 2 through the room between... None in different
        buildings or on the street. Standing in a building but in none of its rooms (a hall)
        is next door to every room. Why: smoke and the sound of water reach the next room."""
        if not here or not there or sector_of(here) != sector_of(there):
            return None
        if here == there:
            return 0
        if SEP not in here or SEP not in there:
            return 1
        return self._apart.get((here, there))

    def state(self, address: str) -> str:
        return self.states[address]

    def set_state(self, address: str, state: str) -> None:
        if address not in self.states:
            raise KeyError(f"no object at {address!r}")
        self.states[address] = state


def _touch(a: Rect, b: Rect) -> bool:
    """Two rectangles that touch or have one tile (a wall) between them."""
    gap_x = max(b.x - (a.x + a.w), a.x - (b.x + b.w), 0)
    gap_y = max(b.y - (a.y + a.h), a.y - (b.y + b.h), 0)
    return max(gap_x, gap_y) <= 1


def _rooms_apart(town: Town, sector: Area) -> dict[tuple[str, str], int]:
    """Rooms apart for every pair of one sector's rooms, by breadth-first search over the
    rooms next door to each other."""
    rooms = [town.areas[c] for c in sector.children if town.areas[c].kind is AreaKind.ARENA]
    door = {r.address: [o.address for o in rooms if o is not r and _touch(r.rect, o.rect)]
            for r in rooms}  # fmt: skip
    out: dict[tuple[str, str], int] = {}
    for start in door:
        hops, front = {start: 0}, [start]
        while front:
            step = []
            for room in front:
                for near in door[room]:
                    if near not in hops:
                        hops[near] = hops[room] + 1
                        step.append(near)
            front = step
        out.update({(start, room): n for room, n in hops.items()})
    return out
