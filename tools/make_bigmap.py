#!/usr/bin/env python3
"""Generate the bigger Smallvilles: `maps/smallville100.tmx` and `maps/smallville500.tmx`.

Both keep the first town exactly where it was (every building of tools/make_map.py at its
own tiles, so the bundled residents' homes, beds and routines hold) and grow it: a street
down the east side (Cedar Avenue), a second street of shops and services (Market Street:
a diner, a tavern, a grocer, the town hall, a bookshop, a bakery, a clinic, a florist),
and rows of homes along the old streets' east ends and along new streets to the south.
The homes are ordinary houses and flats named by their address ('7 Elm Street'), with
generic rooms ('main bedroom', 'second bedroom'), so `tools/make_town.py` can fill them
with any households. The 500 town is the same plan, wider, with more streets of homes.

Everything the game reads is a layer, a tile property or an object with a class and
properties, as in docs/MAP.md: the maps open and edit in Tiled like the first. They share
one tileset of their own (`maps/bigtown.tsx`, `assets/tiles/bigtown.png`), so the first
town's files stay byte for byte what make_map.py writes. Deterministic: a re-run
reproduces the committed files.

Usage: python tools/make_bigmap.py [--out DIR] [--town smallville100|smallville500]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import make_map as mm
from make_map import BATH_THINGS, GARDEN_THINGS, KITCHEN, PLANT, Building, Street

TILESET = "bigtown"
BAND = 11  # rows a home may take, between a street and the homes backing onto it
BLOCK = 4 + 2 * BAND  # a street and the two rows of homes up to the next street
FIRST_SOUTH = 92  # Market Street, the first street below the old town
STREET_NAMES = ("Market Street", "Elm Street", "Birch Lane", "Willow Way", "Maple Road",
                "Aspen Close", "Rowan Street", "Hazel Grove", "Linden Road", "Poplar Street")
EAST_STREETS = {14: "College Road", 36: "Main Street", 55: "Park Lane"}


@dataclass(frozen=True)
class Plan:
    """The size of one bigger town: how wide, which vertical streets, how many blocks of
    homes below Market Street."""

    name: str
    width: int
    avenues: tuple[int, ...]  # first column of each north-south street east of the old town
    blocks: int  # streets of homes below Market Street
    dense: bool = False  # mostly flats: the 500 town houses five times the people

    @property
    def streets_y(self) -> tuple[int, ...]:
        """First row of each east-west street from Market Street down."""
        return tuple(FIRST_SOUTH + BLOCK * k for k in range(self.blocks + 1))

    @property
    def height(self) -> int:
        return self.streets_y[-1] + 4 + BAND + 1


PLANS = {
    "smallville100": Plan("smallville100", 160, (100,), 1),
    "smallville500": Plan("smallville500", 224, (100, 162), 8, dense=True),
}


# ---------------------------------------------------------------------------------------
# Shops and services of Market Street (doors at the bottom, onto the street)
# ---------------------------------------------------------------------------------------

SHOP = [
    "#########",
    "#SSSSSSS#",
    "#.......#",
    "#...1...#",
    "#.TT.UU.#",
    "#.TT.UU.#",
    "#.......#",
    "#CCC....#",
    "#v.....v#",
    "####+####",
]
CLINIC = [
    "##############",
    "#b..d.#h.t#ff#",
    "#b..d.#...#..#",
    "#..2..#.3.#4.#",
    "#.....#...#..#",
    "###+###+####+#",
    "#v.......CC..#",
    "#......1.....#",
    "#.SSSS..UUUU.#",
    "#v...........#",
    "######+#######",
]
SHOP_MIX = ("diner", "tavern", "grocer", "hall", "books", "bakery", "clinic", "florist")


def small_shop(name: str, style: str, hours: tuple[str, str], x: int, y: int,
               shelves: tuple[str, str], counter: str) -> Building:
    """A one-room shop: shelves along the back wall, display tables, a counter."""
    things: dict[str, mm.Thing] = {
        "S": (shelves[0], shelves[1], None), "T": ("display table", "dtable", None),
        "U": (None, "dtable", None),
        "C": (counter, "ccounter:store", None), "v": PLANT,
    }
    return Building(name, "shop", hours, style, x, y, SHOP, {"1": ("store", "lino", None)},
                    things)


def market_street(kind: str, x: int) -> Building:
    """One building of the second street of shops, its bottom row on Market Street."""
    if kind == "diner":
        return _at(Building(
            "The Copper Kettle Diner", "cafe", ("07:00", "15:00"), "diner", x, 0, mm.CAFE,
            {"1": ("diner", "tile_checker", None), "2": ("kitchen", "tile_terracotta", None),
             "3": ("bathroom", "tile_white", 1)},
            {**KITCHEN, "k": ("kitchen sink", "ksink", None), "N": (None, "counter:board", None),
             "e": (None, "shelves:kitchen", None), "t": ("toilet", "toilet", None),
             "i": ("bathroom sink", "bsink", None), "m": ("coffee machine", "coffee", None),
             "c": ("diner counter", "ccounter", None), "p": ("jukebox", "jukebox", None),
             "s": ("diner booths", "seating:cafe", None), "v": PLANT,
             "u": (None, "sofa:brown@n", None)}))
    if kind == "tavern":
        return _at(Building(
            "The Fox and Hound Tavern", "pub", ("16:00", "24:00"), "tavern", x, 0, mm.PUB,
            {"1": ("tavern", "wood_walnut", None), "3": ("bathroom", "tile_mint", 1)},
            {"e": (None, "backbar", None), "j": ("jukebox", "jukebox", None),
             "c": ("bar counter", "bar", None), "P": ("pool table", "pool", None),
             "T": ("pub tables", "seating:pub", None), "x": (None, "barrel", None),
             "t": ("toilet", "toilet", None), "i": ("bathroom sink", "bsink", None)}))
    if kind == "grocer":
        return _at(Building(
            "Riverside Grocers", "shop", ("08:00", "19:00"), "grocer", x, 0, mm.MARKET,
            {"1": ("store", "lino", None)},
            {"F": ("refrigerated display", "fridgedisplay", None),
             "M": ("household shelves", "shelves:boxes", None),
             "G": ("grocery shelves", "shelves:produce", None),
             "a": (None, "crate:apples", None), "o": (None, "crate:oranges", None),
             "l": (None, "crate:lemons", None), "e": (None, "crate:greens", None),
             "R": ("deli counter", "ccounter:store", None),
             "C": ("cashier counter", "cashier", None), "v": PLANT}))
    if kind == "hall":
        return _at(Building(
            "Smallville Town Hall", "hall", ("08:00", "20:00"), "hall", x, 0, mm.COLLEGE,
            {"1": ("council chamber", "wood_walnut", None),
             "2": ("records office", "carpet_green", None), "3": ("lobby", "tile_checker", None)},
            {"B": ("town map", "blackboard", None), "L": ("lectern", "lectern", None),
             "D": ("public benches", "lecturedesks", None),
             "S": ("archive shelves", "libshelves", None),
             "T": ("meeting tables", "dtable:library", None),
             "C": ("clerk's desk", "desk:computer", None),
             "N": ("notice board", "notice", None), "V": ("vending machine", "vending", None),
             "k": PLANT}))
    if kind == "clinic":
        return _at(Building(
            "Oak Hill Clinic", "clinic", ("08:00", "18:00"), "clinic", x, 0, CLINIC,
            {"1": ("waiting room", "lino", None), "2": ("consulting room", "tile_white", None),
             "3": ("bathroom", "tile_blue", 1), "4": ("supply room", "concrete", None)},
            {"b": ("examination couch", "bed:clinic", None),
             "d": ("doctor's desk", "desk:plain", None),
             "h": (None, "bsink", None), "t": ("toilet", "toilet", None),
             "f": ("medicine cabinet", "filing", None),
             "C": ("reception desk", "ccounter:store", None),
             "S": ("waiting chairs", "sofa:blue@n", None),
             "U": (None, "sofa:blue@n", None), "v": PLANT}))
    shops = {
        "books": ("Page Turner Books", "books", ("09:00", "18:00"),
                  ("book shelves", "libshelves"), "book counter"),
        "bakery": ("Bluebell Bakery", "bakery", ("06:30", "14:00"),
                   ("bread shelves", "shelves:kitchen"), "bakery counter"),
        "florist": ("Petal and Stem Florist", "florist", ("09:00", "17:00"),
                    ("flower stands", "shelves:produce"), "florist counter"),
    }
    name, style, hours, shelves, counter = shops[kind]
    return _at(small_shop(name, style, hours, x, 0, shelves, counter))


def _at(b: Building) -> Building:
    """The building with its bottom row on the row above Market Street."""
    b.y = FIRST_SOUTH - len(b.plan)
    return b


def shops(plan: Plan) -> list[Building]:
    """Market Street's shops, west to east, packed between the vertical streets."""
    out = []
    slots = iter([(1, 26), (32, 99), *_segments(plan, 104)])
    lo, hi = next(slots)
    for kind in SHOP_MIX:
        width = len(market_street(kind, 0).plan[0])
        while lo + width - 1 > hi:
            lo, hi = next(slots)
            lo += 1
        out.append(market_street(kind, lo))
        lo += width + 1
    return out


# ---------------------------------------------------------------------------------------
# Homes, by their address
# ---------------------------------------------------------------------------------------

HOUSE_STYLES = ("lin", "moore", "moreno", "tc", "adam", "yuriko", "apartment")
FLOORS = ("wood_oak", "carpet_blue", "wood_cherry", "carpet_green", "wood_birch", "carpet_beige",
          "carpet_red", "carpet_teal", "carpet_purple", "wood_walnut")


@dataclass(frozen=True)
class HomeType:
    """A kind of home: its blueprint (door at the top), rooms and furniture."""

    key: str
    plan: tuple[str, ...]
    rooms: tuple[tuple[str, str, int | None], ...]  # digit, name, capacity
    things: tuple[tuple[str, mm.Thing], ...]


def _home(key: str, plan: list[str], rooms: dict[str, tuple[str, int | None]],
          things: dict[str, mm.Thing]) -> HomeType:
    return HomeType(key, tuple(plan), tuple((d, n, c) for d, (n, c) in rooms.items()),
                    tuple(things.items()))


def flipped_spec(spec: str) -> str:
    """A prefab turned to face the other way along y: north <-> south."""
    body, _, facing = spec.partition("@")
    turned = {"": "@n", "s": "@n", "n": ""}.get(facing, f"@{facing}")
    return body + turned


HOUSE_THINGS: dict[str, mm.Thing] = {
    **KITCHEN, **BATH_THINGS, **GARDEN_THINGS, "T": ("television", "tv", None),
    "S": ("sofa", "sofa@n", None), "b": ("bed", "bed", None), "c": ("closet", "closet", None),
    "v": PLANT,
}
FAMILY = _home("family", mm.LIN, {
    "1": ("common room", None), "3": ("bathroom", 1), "4": ("main bedroom", None),
    "5": ("second bedroom", None), "6": ("kitchen", None), "7": ("garden", None)},
    {**HOUSE_THINGS, "p": ("piano", "piano", None), "D": ("dining table", "dtable", None),
     "q": ("desk", "desk:writing@n", None), "d": ("desk", "desk:computer", None),
     "K": ("music keyboard", "keyboard@n", None)})
STUDIO = _home("studio", mm.MOORE, {
    "1": ("common room", None), "3": ("bathroom", 1), "4": ("main bedroom", None),
    "5": ("studio", None), "6": ("kitchen", None), "7": ("garden", None)},
    {**HOUSE_THINGS, "B": ("bookshelf", "bookshelf", None), "e": ("easel", "easel", None),
     "P": ("paint table", "painttable", None)})
COTTAGE = _home("cottage", mm.MORENO, {
    "1": ("common room", None), "3": ("bathroom", 1), "4": ("main bedroom", None),
    "6": ("kitchen", None), "7": ("garden", None)},
    {**HOUSE_THINGS, "D": ("dining table", "dtable", None)})
SHARED = _home("shared", mm.TC_HOUSE[::-1], {  # its door is at the bottom: turned round
    "1": ("common room", None), "3": ("bathroom", 1), "4": ("front bedroom", None),
    "5": ("back bedroom", None), "6": ("kitchen", None)},
    {ch: (name, flipped_spec(spec), ground) for ch, (name, spec, ground) in {
        **HOUSE_THINGS, "d": ("desk", "desk:plain", None), "w": (None, "dtable", None),
        "J": ("kitchen sink", "ksink", None)}.items()})
SMALL = _home("small", mm.YURIKO, {
    "1": ("bedroom", None), "2": ("bathroom", 1), "3": ("home office", None),
    "4": ("kitchen", None)},
    {"b": ("bed", "bed", None), "c": (None, "closet", None), "h": ("shower", "shower", None),
     "t": ("toilet", "toilet@n", None), "q": ("desk", "desk:computer@n", None),
     "f": ("filing cabinet", "filing", None), "r": ("refrigerator", "fridge", None),
     "o": ("stove", "stove", None), "n": (None, "counter:board", None), "v": PLANT,
     "w": (None, "dtable", None)})
FLAT = _home("flat", mm.APARTMENT, {
    "1": ("main room", None), "2": ("kitchen", None), "3": ("bathroom", 1)},
    {"d": ("desk", "desk:computer", None), "b": ("bed", "bed", None),
     "S": ("sofa", "sofa@n", None), "o": ("stove", "stove", None),
     "r": ("refrigerator", "fridge@n", None), "h": ("shower", "shower", None),
     "t": ("toilet", "toilet@n", None)})
MIX = (FAMILY, FLAT, COTTAGE, FLAT, SHARED, SMALL, FLAT, STUDIO, FLAT, FAMILY, SMALL, COTTAGE)
DENSE_MIX = (FLAT, FLAT, FAMILY, FLAT, FLAT, SHARED, FLAT, FLAT, COTTAGE, FLAT, FLAT, STUDIO)
KITCHEN_FLOORS = ("tile_white", "tile_terracotta", "tile_mint")


def home(kind: HomeType, address: str, style: str, x: int, y: int, door_up: bool,
         n: int) -> Building:
    """One home of `kind` at (x, y); with door_up False it is mirrored top to bottom so its
    door and garden gate face a street below it."""
    plan = list(kind.plan) if door_up else list(reversed(kind.plan))
    rooms: dict[str, mm.Room] = {}
    for digit, name, cap in kind.rooms:
        floor = ("grass" if name == "garden" else
                 KITCHEN_FLOORS[n % 3] if name == "kitchen" else
                 "tile_blue" if name == "bathroom" else FLOORS[(n + int(digit)) % len(FLOORS)])
        rooms[digit] = (name, floor, cap)
    things = {ch: (name, spec if door_up else flipped_spec(spec), ground)
              for ch, (name, spec, ground) in kind.things}
    return Building(address, "home", None, style, x, y, plan, rooms, things)


def _segments(plan: Plan, start: int) -> list[tuple[int, int]]:
    """Free column ranges from `start` eastward, between the avenues."""
    cuts = [a for a in plan.avenues if a >= start]
    out, lo = [], start
    for a in cuts:
        if a - 1 > lo:
            out.append((lo, a - 1))
        lo = a + 4
    out.append((lo, plan.width - 1))
    return [(a, b) for a, b in out if b > a]


def _pack(segments: list[tuple[int, int]], start: int, mix: tuple[HomeType, ...]
          ) -> Iterator[tuple[int, HomeType]]:
    """(x, home type) for homes laid left to right along the segments, cycling the mix from
    `start`; a type too wide for what is left gives way to the next that fits."""
    i = start
    for lo, hi in segments:
        x = lo + 1
        while True:
            fits = [k for k in (*mix[i % len(mix):], *mix[:i % len(mix)])
                    if x + len(k.plan[0]) - 1 <= hi]
            if not fits:
                break
            kind = fits[0]
            yield x, kind
            x += len(kind.plan[0]) + 1
            i += 1


@dataclass(frozen=True)
class Band:
    """A row of homes along one street: where, which way their doors face, the street."""

    y: int  # the homes' top row (door up) or bottom row (door down)
    door_up: bool
    street: str
    segments: tuple[tuple[int, int], ...]


def bands(plan: Plan) -> list[Band]:
    """Every row of homes: the old streets' east ends, then both sides of each street south."""
    east = tuple(_segments(plan, 104))
    out = [Band(13, False, EAST_STREETS[14], east), Band(18, True, EAST_STREETS[14], east),
           Band(40, True, EAST_STREETS[36], east), Band(59, True, EAST_STREETS[55], east)]
    south = ((0, 99), *_segments(plan, 104))
    for k, y in enumerate(plan.streets_y):
        out.append(Band(y + 4, True, STREET_NAMES[k], south))
        if k + 1 < len(plan.streets_y):
            out.append(Band(plan.streets_y[k + 1] - 1, False, STREET_NAMES[k + 1], south))
    return out


def homes(plan: Plan) -> list[Building]:
    """Every new home, numbered along its street (odd on the north side, even on the south),
    its wall style and floors varied by a counter."""
    out: list[Building] = []
    numbers: dict[str, int] = {}
    for b, band in enumerate(bands(plan)):
        for x, kind in _pack(list(band.segments), b * 5, DENSE_MIX if plan.dense else MIX):
            side = 0 if band.door_up else 1  # door up: the south side of its street
            numbers[band.street + str(side)] = numbers.get(band.street + str(side), 0) + 1
            number = 2 * numbers[band.street + str(side)] - side
            h = len(kind.plan)
            y = band.y if band.door_up else band.y - h + 1
            n = len(out)
            style = HOUSE_STYLES[n % len(HOUSE_STYLES)]
            out.append(home(kind, f"{number} {band.street}", style, x, y, band.door_up, n))
    return out


# ---------------------------------------------------------------------------------------
# The layout
# ---------------------------------------------------------------------------------------


def streets(plan: Plan) -> tuple[Street, ...]:
    """The old town's streets run on to the east edge; avenues north-south; the new streets."""
    w, h = plan.width, plan.height
    out = [Street(True, 14, 0, w - 1), Street(True, 36, 0, w - 1), Street(True, 55, 0, w - 1),
           Street(False, 36, 0, 57), Street(False, 68, 0, 57),
           Street(False, 27, 55, FIRST_SOUTH + 3)]
    out += [Street(False, a, 0, h - 1) for a in plan.avenues]
    out += [Street(True, y, 0, w - 1) for y in plan.streets_y]
    return tuple(out)


def layout(plan: Plan) -> mm.Layout:
    """The bigger town as make_map's machinery draws it."""
    def buildings() -> list[Building]:
        return [*mm.town_buildings(), *shops(plan), *homes(plan)]

    return mm.Layout(plan.name, plan.width, plan.height, streets(plan), mm.VISITOR, buildings,
                     mm.RESIDENTS, TILESET, decor_seed=4321)


def main(argv: list[str] | None = None) -> int:
    """Generate the bigger maps and their shared tileset into --out."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=mm.ROOT, help="root folder to write into")
    args = parser.parse_args(argv)
    ts = mm.Tileset()
    files: dict[Path, bytes] = {}
    for plan in PLANS.values():
        started = time.perf_counter()
        town, sectors = mm.build_town(layout(plan), ts)
        files.update(mm.map_files(town, sectors, args.out))
        beds = sum(1 for s in sectors for a in s.children for o in a.children if o.name == "bed")
        print(f"{plan.name}: {town.w}x{town.h} tiles, {len(sectors)} sectors, {beds} beds "
              f"in {time.perf_counter() - started:.1f}s")
    files.update(mm.tileset_files(ts, TILESET, args.out))
    for path in mm.write_files(files):
        print(f"  wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
