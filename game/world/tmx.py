"""Load a Tiled map (docs/MAP.md) into a Town, headless: pytmx.TiledMap needs no display."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from game.core.clock import parse_hhmm
from game.core.errors import MapError
from game.world.roles import Role, parse_role
from game.world.town import WORLD, Area, AreaKind, Rect, Town, join


def _pytmx_without_pygame() -> ModuleType:
    """pytmx, imported so that it does not drag pygame into a headless process.

    pytmx's package imports pygame, if installed, for its type hints and an image loader
    the world never uses; that would load pygame (and print its greeting) in `run`, `town`
    and `interview`. Unless pygame is loaded already, we hide it and that loader for the
    length of this one import; the window still imports the loader itself, later.
    """
    if "pygame" in sys.modules:
        import pytmx

        return pytmx
    hidden = ("pygame", "pytmx.util_pygame")
    for name in hidden:
        sys.modules[name] = None  # now importing it raises ImportError, which pytmx expects
    try:
        import pytmx
    finally:
        for name in hidden:
            del sys.modules[name]
    return pytmx


if TYPE_CHECKING:
    import pytmx
else:
    pytmx = _pytmx_without_pygame()

_LEVEL = {"sector": AreaKind.SECTOR, "arena": AreaKind.ARENA, "object": AreaKind.OBJECT}


def load_town(path: str | Path) -> Town:
    """Read the map; any problem becomes one MapError naming the file and the fault."""
    path = Path(path)
    if not path.is_file():
        raise MapError(str(path), "map file not found")
    try:
        tmx = pytmx.TiledMap(str(path))
    except Exception as exc:  # pytmx raises many kinds on a damaged file
        raise MapError(str(path), f"cannot read the map ({type(exc).__name__}: {exc})") from exc
    _check_size(tmx, str(path))
    try:
        walkable = _walkable(tmx)
        raw = _area_objects(tmx, str(path))
        areas = _build_tree(raw, str(path), tmx.width, tmx.height)
        spawns = _spawns(tmx, str(path))
    except MapError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        raise MapError(str(path), f"malformed map ({type(exc).__name__}: {exc})") from exc
    return Town(
        width=tmx.width,
        height=tmx.height,
        tile=tmx.tilewidth,
        walkable=walkable,
        areas=areas,
        spawns=spawns,
        source=str(path),
    )


MAX_TILES = 1000  # a side; far beyond a town, small enough never to exhaust memory


def _check_size(tmx: pytmx.TiledMap, path: str) -> None:
    sizes = (tmx.width, tmx.height, tmx.tilewidth, tmx.tileheight)
    if not all(isinstance(v, int) for v in sizes):
        raise MapError(path, "map and tile sizes must be whole numbers")
    if not (0 < tmx.width <= MAX_TILES and 0 < tmx.height <= MAX_TILES):
        raise MapError(path, f"map size {tmx.width} x {tmx.height} is outside 1..{MAX_TILES}")
    if tmx.tilewidth != tmx.tileheight or not 8 <= tmx.tilewidth <= 256:
        raise MapError(path, "tiles must be square, 8 to 256 pixels")


def _walkable(tmx: pytmx.TiledMap) -> np.ndarray:
    """A cell is blocked when any tile on it carries the property blocked=true."""
    blocked_gids = [
        gid for gid, props in tmx.tile_properties.items() if _truthy(props.get("blocked"))
    ]
    blocked = np.zeros((tmx.height, tmx.width), dtype=bool)
    for layer in tmx.visible_layers:
        if isinstance(layer, pytmx.TiledTileLayer):
            data = np.asarray(layer.data, dtype=np.int64)
            blocked |= np.isin(data, blocked_gids)
    return ~blocked


def _truthy(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.lower() == "true")


def _object_group(tmx: pytmx.TiledMap, name: str, path: str) -> pytmx.TiledObjectGroup:
    for layer in tmx.layers:
        if isinstance(layer, pytmx.TiledObjectGroup) and layer.name == name:
            return layer
    raise MapError(path, f"no object layer named {name!r}")


def _klass(obj: pytmx.TiledObject) -> str:
    """Tiled 1.9+ writes class=, older versions type=; pytmx exposes them differently."""
    value = getattr(obj, "class", None) or getattr(obj, "type", None) or ""
    return str(value).strip().lower()


def _area_objects(tmx: pytmx.TiledMap, path: str) -> list[tuple[AreaKind, str, Rect, dict]]:
    out = []
    size = tmx.tilewidth
    for obj in _object_group(tmx, "areas", path):
        klass = _klass(obj)
        if klass not in _LEVEL:
            raise MapError(
                path,
                f"area object {obj.name!r} has class {klass!r}; expected sector, arena or object",
            )
        name = (obj.name or "").strip()
        if not name or ":" in name:
            raise MapError(path, f"{klass} at ({obj.x}, {obj.y}) needs a name without ':'")
        rect = Rect(
            round(obj.x / size),
            round(obj.y / size),
            max(1, round(obj.width / size)),
            max(1, round(obj.height / size)),
        )
        if rect.x < 0 or rect.y < 0 or rect.x + rect.w > tmx.width or rect.y + rect.h > tmx.height:
            raise MapError(path, f"{klass} {name!r} lies outside the map")
        out.append((_LEVEL[klass], name, rect, dict(obj.properties)))
    return out


def _parent_for(rect: Rect, candidates: list[Area]) -> Area | None:
    """The smallest candidate containing the rectangle."""
    holders = [c for c in candidates if c.rect.contains(rect)]
    return min(holders, key=lambda c: c.rect.area) if holders else None


def _build_tree(raw: list, path: str, width: int, height: int) -> dict[str, Area]:
    built: dict[str, Area] = {}
    children: dict[str, list[str]] = {WORLD: []}
    by_kind: dict[AreaKind, list[Area]] = {k: [] for k in _LEVEL.values()}
    parent_kind = {AreaKind.ARENA: AreaKind.SECTOR, AreaKind.OBJECT: AreaKind.ARENA}
    for kind in (AreaKind.SECTOR, AreaKind.ARENA, AreaKind.OBJECT):
        for k, name, rect, props in raw:
            if k is not kind:
                continue
            parent = WORLD
            if kind in parent_kind:
                holder = _parent_for(rect, by_kind[parent_kind[kind]])
                if holder is None:
                    wanted = parent_kind[kind].value
                    raise MapError(path, f"{kind.value} {name!r} does not lie inside any {wanted}")
                parent = holder.address
            address = join(parent, name)
            if address in built:
                raise MapError(path, f"two areas are both named {address!r}")
            area = _make_area(address, name, kind, rect, parent, props, path)
            built[address] = area
            by_kind[kind].append(area)
            children.setdefault(parent, []).append(address)
    world = Area(WORLD, "Smallville", AreaKind.WORLD, Rect(0, 0, width, height), None)
    areas = {WORLD: world, **built}
    return {a: _with_children(area, tuple(children.get(a, ()))) for a, area in areas.items()}


def _with_children(area: Area, kids: tuple[str, ...]) -> Area:
    from dataclasses import replace

    return replace(area, children=kids)


def _make_area(
    address: str, name: str, kind: AreaKind, rect: Rect, parent: str, props: dict, path: str
) -> Area:
    try:
        opens = parse_hhmm(props["opens"]) if "opens" in props else None
        closes = parse_hhmm(props["closes"]) if "closes" in props else None
        capacity = int(props["capacity"]) if "capacity" in props else None
        role = _role(props)
    except (TypeError, ValueError) as exc:
        raise MapError(path, f"{kind.value} {address!r}: bad property ({exc})") from exc
    if capacity is not None and capacity < 1:
        raise MapError(path, f"{kind.value} {address!r}: capacity must be at least 1")
    return Area(
        address=address,
        name=name,
        kind=kind,
        rect=rect,
        parent=parent,
        category=str(props.get("kind", "")),
        opens=opens,
        closes=closes,
        capacity=capacity,
        default_state=str(props.get("state", "idle")) or "idle",
        role=role,
    )


def _role(props: dict) -> Role | None:
    """The area's role (docs/MAP.md); an empty or missing property means none."""
    text = str(props.get("role", "")).strip()
    return parse_role(text) if text else None


def _spawns(tmx: pytmx.TiledMap, path: str) -> dict[str, tuple[int, int]]:
    spawns: dict[str, tuple[int, int]] = {}
    for obj in _object_group(tmx, "spawns", path):
        if obj.name:
            spawns[obj.name.strip()] = (int(obj.x // tmx.tilewidth), int(obj.y // tmx.tileheight))
    return spawns
