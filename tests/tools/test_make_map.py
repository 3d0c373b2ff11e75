"""tools/make_map.py: the committed town is reproducible, loads headless and can be walked.

These tests read the committed files the way the game does (pytmx, tile properties,
object classes) and check them against docs/TOWN.md, so a change to the generator or the
inventory that breaks the contract of docs/MAP.md fails here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest
import pytmx

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "smallville.tmx"
GENERATED = ["assets/LICENSE.md", "assets/tiles/town.png", "maps/smallville.tmx", "maps/town.tsx"]
LAYERS = ["ground", "walls", "furniture", "above"]


@dataclass
class Rect:
    """An area rectangle in tiles, with the rectangles it contains."""

    klass: str
    name: str
    x: int
    y: int
    w: int
    h: int
    props: dict
    children: list[Rect] = field(default_factory=list)

    def contains(self, other: Rect) -> bool:
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.x + other.w <= self.x + self.w
            and other.y + other.h <= self.y + self.h
        )

    def has_cell(self, x: int, y: int) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h

    def child(self, name: str) -> Rect | None:
        return next((c for c in self.children if c.name == name), None)


@pytest.fixture(scope="module")
def tmx() -> pytmx.TiledMap:
    return pytmx.TiledMap(str(MAP))


def group(tmx: pytmx.TiledMap, name: str) -> pytmx.TiledObjectGroup:
    return next(g for g in tmx.objectgroups if g.name == name)


def klass_of(obj: pytmx.TiledObject) -> str:
    return getattr(obj, "class", None) or getattr(obj, "type", None) or ""


@pytest.fixture(scope="module")
def sectors(tmx: pytmx.TiledMap) -> list[Rect]:
    """The areas layer as a tree, containment by geometry as docs/MAP.md says."""
    rects = []
    for obj in group(tmx, "areas"):
        for value in (obj.x, obj.y, obj.width, obj.height):
            assert value % tmx.tilewidth == 0, f"{obj.name} is not snapped to tiles"
        rects.append(
            Rect(
                klass_of(obj),
                obj.name,
                int(obj.x) // 32,
                int(obj.y) // 32,
                int(obj.width) // 32,
                int(obj.height) // 32,
                dict(obj.properties),
            )
        )
    tops = [r for r in rects if r.klass == "sector"]
    for arena in (r for r in rects if r.klass == "arena"):
        owners = [s for s in tops if s.contains(arena)]
        assert len(owners) == 1, f"arena {arena.name} lies in {len(owners)} sectors"
        owners[0].children.append(arena)
    arenas = [a for s in tops for a in s.children]
    for obj in (r for r in rects if r.klass == "object"):
        owners = [a for a in arenas if a.contains(obj)]
        assert len(owners) == 1, f"object {obj.name} lies in {len(owners)} arenas"
        owners[0].children.append(obj)
    assert {r.klass for r in rects} == {"sector", "arena", "object"}
    return tops


Place = tuple[str, str, str | None, str | None, dict[str, tuple[int | None, list[str]]]]


def inventory() -> list[Place]:
    """Parse docs/TOWN.md tables: (sector, kind, opens, closes, {arena: (capacity, objects)}),
    the first town's (the bigger towns' section after it names places, not their objects)."""
    text = (ROOT / "docs" / "TOWN.md").read_text(encoding="utf-8")
    text = text.split("\n## The bigger towns")[0]
    hours = r"(?:(?P<opens>\d\d:\d\d)-(?P<closes>\d\d:\d\d)|always)"
    head_re = re.compile(rf"^(?P<name>.+?)(?: \((?P<kind>\w+), {hours}\))?$")
    arena_re = re.compile(r"^(?P<arena>.+?)(?: \((?P<cap>\d+)\))?: (?P<objects>.+)$")
    places = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("sector", "sector (kind, hours)") or "---" in cells[0]:
            continue
        head = head_re.match(cells[0])
        assert head, cells[0]
        arenas = {}
        for part in cells[1].split(" · "):
            m = arena_re.match(part)
            assert m, part
            objects = [re.sub(r" \(\d+\)$", "", o.strip()) for o in m["objects"].split(",")]
            arenas[m["arena"]] = (int(m["cap"]) if m["cap"] else None, objects)
        places.append((head["name"], head["kind"] or "home", head["opens"], head["closes"], arenas))
    assert len(places) >= 19
    return places


def blocked_grid(tmx: pytmx.TiledMap) -> np.ndarray:
    """A cell is blocked when any of its tiles has blocked=true (pytmx remaps gids)."""
    blocked = np.zeros((tmx.height, tmx.width), dtype=bool)
    for layer in tmx.layers:
        if not isinstance(layer, pytmx.TiledTileLayer):
            continue
        for x, y, gid in layer.iter_data():
            props = tmx.get_tile_properties_by_gid(gid) if gid else None
            if props and props.get("blocked") is True:
                blocked[y, x] = True
    return blocked


def reachable(blocked: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    seen = np.zeros_like(blocked)
    assert not blocked[start[1], start[0]], "the visitor spawns on a blocked tile"
    seen[start[1], start[0]] = True
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            inside = 0 <= nx < blocked.shape[1] and 0 <= ny < blocked.shape[0]
            if inside and not seen[ny, nx] and not blocked[ny, nx]:
                seen[ny, nx] = True
                todo.append((nx, ny))
    return seen


def spawns(tmx: pytmx.TiledMap) -> dict[str, tuple[int, int]]:
    out = {}
    for obj in group(tmx, "spawns"):
        assert klass_of(obj) == "spawn"
        out[obj.name] = (int(obj.x) // tmx.tilewidth, int(obj.y) // tmx.tileheight)
    return out


def test_regenerating_reproduces_the_committed_files(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_map.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    made = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert made == GENERATED
    for rel in made:
        assert (tmp_path / rel).read_bytes() == (ROOT / rel).read_bytes(), f"{rel} differs"


def test_map_loads_headless_with_the_layers_of_the_contract(tmx: pytmx.TiledMap) -> None:
    assert tmx.orientation == "orthogonal"
    assert (tmx.tilewidth, tmx.tileheight) == (32, 32)
    assert 90 <= tmx.width <= 110 and 60 <= tmx.height <= 80
    tile_layers = [layer.name for layer in tmx.layers if isinstance(layer, pytmx.TiledTileLayer)]
    assert tile_layers == LAYERS
    assert {g.name for g in tmx.objectgroups} == {"areas", "spawns"}
    for ref in ElementTree.parse(MAP).getroot().iter("tileset"):
        tsx = MAP.parent / ref.get("source", "")
        assert tsx.suffix == ".tsx" and tsx.exists(), "tilesets must be external .tsx files"
        image = ElementTree.parse(tsx).getroot().find("image")
        assert image is not None
        assert image.get("source", "").startswith("../assets/tiles/")
        assert (tsx.parent / image.get("source", "")).exists()
    above = next(layer for layer in tmx.layers if layer.name == "above")
    for _, _, gid in above.iter_data():
        props = tmx.get_tile_properties_by_gid(gid) if gid else None
        assert not (props and props.get("blocked")), "the above layer must never block"


def test_every_place_of_the_inventory_exists(sectors: list[Rect]) -> None:
    by_name = {s.name: s for s in sectors}
    assert len(by_name) == len(sectors), "sector names must be unique"
    for name, kind, opens, closes, arenas in inventory():
        sector = by_name.get(name)
        assert sector is not None, f"missing sector {name}"
        assert sector.props.get("kind") == kind, name
        assert sector.props.get("opens") == opens and sector.props.get("closes") == closes, name
        names = [a.name for a in sector.children]
        assert len(names) == len(set(names)), f"{name}: arena names repeat"
        for arena_name, (capacity, objects) in arenas.items():
            arena = sector.child(arena_name)
            assert arena is not None, f"missing arena {name}:{arena_name}"
            if capacity is not None:
                assert arena.props.get("capacity") == capacity, f"{name}:{arena_name}"
            names = [o.name for o in arena.children]
            assert len(names) == len(set(names)), f"{name}:{arena_name}: object names repeat"
            for obj_name in objects:
                obj = arena.child(obj_name)
                assert obj is not None, f"missing object {name}:{arena_name}:{obj_name}"
                assert obj.props.get("state", "idle") == "idle"


def test_sectors_do_not_overlap(sectors: list[Rect]) -> None:
    for i, a in enumerate(sectors):
        for b in sectors[i + 1 :]:
            apart = a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y
            assert apart, f"{a.name} overlaps {b.name}"


def test_everyone_and_everything_can_be_reached(tmx: pytmx.TiledMap, sectors: list[Rect]) -> None:
    points = spawns(tmx)
    assert "visitor" in points and len(points) == 26
    blocked = blocked_grid(tmx)
    assert blocked.any() and not blocked.all()
    reach = reachable(blocked, points["visitor"])
    for name, (x, y) in points.items():
        assert reach[y, x], f"spawn of {name} at {x},{y} cannot be reached"
    for sector in sectors:
        for x in range(sector.x, sector.x + sector.w):
            for y in range(sector.y, sector.y + sector.h):
                assert blocked[y, x] or reach[y, x], f"{sector.name}: tile {x},{y} is cut off"
        for arena in sector.children:
            for obj in arena.children:
                cells = {
                    (x + dx, y + dy)
                    for x in range(obj.x, obj.x + obj.w)
                    for y in range(obj.y, obj.y + obj.h)
                    for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))
                }
                usable = [(x, y) for x, y in cells if arena.has_cell(x, y) and reach[y, x]]
                assert usable, f"{sector.name}:{arena.name}:{obj.name} cannot be used"


def test_residents_wake_up_beside_their_own_bed(tmx: pytmx.TiledMap, sectors: list[Rect]) -> None:
    scenario = ROOT / "saves" / "scenarios" / "smallville.json"
    if not scenario.exists():
        pytest.skip("no bundled scenario")
    residents = json.loads(scenario.read_text(encoding="utf-8"))["residents"]
    points = spawns(tmx)
    by_name = {s.name: s for s in sectors}
    for resident in residents:
        sector_name, arena_name, _ = resident["bed"].split(":")
        arena = by_name[sector_name].child(arena_name)
        assert arena is not None and arena.child("bed") is not None, resident["bed"]
        x, y = points[resident["name"]]
        assert arena.has_cell(x, y), f"{resident['name']} does not start in {resident['bed']}"
