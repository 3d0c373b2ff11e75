"""Load a Tiled map (docs/MAP.md) into a Town, headless: pytmx.TiledMap needs no display."""

from __future__ import annotations

import base64
import binascii
import sys
import zlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

import numpy as np

from game.core.clock import parse_hhmm
from game.core.errors import MapError
from game.core.files import not_a_file
from game.core.images import ImageError, png_size
from game.core.names import place_problem
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
    if problem := not_a_file(path):
        raise MapError(str(path), f"cannot read the map: {problem}")
    if not path.is_file():
        raise MapError(str(path), "map file not found")
    prescan(path)
    try:
        tmx = pytmx.TiledMap(str(path))
    except Exception as exc:  # pytmx raises many kinds on a damaged file
        raise MapError(str(path), f"cannot read the map ({type(exc).__name__}: {exc})") from exc
    _check_size(tmx, str(path))
    try:
        walkable = _walkable(tmx)
        walls = _walls(tmx)
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
        walls=walls,
    )


MAX_TILES = 1000  # a side; far beyond a town, small enough never to exhaust memory
MAX_MAP_BYTES = 32 * 1024 * 1024  # of a .tmx or .tsx file
MAX_DEPTH = 32  # XML nesting (a map needs about six)
MAX_CELLS = 8_000_000  # tiles over all layers together (64 layers of 1000 x 1000 is not a town)
_INFLATE = {"zlib": zlib.MAX_WBITS, "gzip": 16 + zlib.MAX_WBITS}


def prescan(path: Path) -> None:
    """Check a map before pytmx reads it, with a streaming parser and bounded work.

    pytmx decompresses every layer whole before we could see its size: a small file can
    inflate to gigabytes. So we read the XML once ourselves, refuse it when it is too big
    or too deep, and inflate each layer's data only up to the size its declared width and
    height allow. Tilesets kept in their own files (.tsx) get the same size and depth checks.
    """
    cells = 0
    for layer in _layers(path, str(path)):
        cells += _layer_cells(layer, str(path))
        if cells > MAX_CELLS:
            raise MapError(str(path), f"the layers hold more than {MAX_CELLS} tiles together")


def _layers(path: Path, where: str, scan_tilesets: bool = True):
    """The <layer> elements of an XML file, each once complete, under size and depth limits.
    `where` names the file in errors (a tileset's errors name its map too)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise MapError(where, f"cannot read: {exc.strerror or exc}") from None
    if size > MAX_MAP_BYTES:
        raise MapError(where, f"{size} bytes is more than a map can be ({MAX_MAP_BYTES})")
    depth = 0
    try:
        for event, elem in ElementTree.iterparse(str(path), events=("start", "end")):
            if event == "start":
                depth += 1
                if depth > MAX_DEPTH:
                    raise MapError(where, f"nested more than {MAX_DEPTH} levels deep")
                continue
            depth -= 1
            if elem.tag == "layer":
                yield elem
                elem.clear()
            elif elem.tag == "image" and elem.get("source"):
                _check_image(path.parent / elem.get("source", ""), where)
            elif elem.tag == "tileset" and elem.get("source") and scan_tilesets:
                source = elem.get("source", "")
                label = f"{where}: tileset {source[:60]!r}"
                for _ in _layers(path.parent / source, label, scan_tilesets=False):
                    pass
    except ElementTree.ParseError as exc:
        raise MapError(where, f"cannot read the map (not valid XML: {exc})") from None


MAX_IMAGE_SIDE = 16384  # pixels of a tileset or image layer's picture (the window draws it)
MAX_IMAGE_PIXELS = 64 * 1024 * 1024


def _check_image(path: Path, where: str) -> None:
    """A PNG's declared size, read from its header: a small file may declare a picture
    that needs gigabytes once decoded (the window decodes it). Other formats are left to
    the image loader, as is a missing file (the window draws without it)."""
    try:
        size = png_size(path)
    except ImageError:
        return
    too_big = size.width > MAX_IMAGE_SIDE or size.height > MAX_IMAGE_SIDE
    if too_big or size.pixels > MAX_IMAGE_PIXELS:
        raise MapError(
            where, f"image {path.name[:60]!r} is {size.width} x {size.height} pixels: too large"
        )


def _layer_cells(layer: ElementTree.Element, path: str) -> int:
    """The layer's declared tile count, after checking its data fits it (never inflating
    more than that many tiles' worth of bytes)."""
    name = repr(layer.get("name", "?"))[:40]
    try:
        width, height = int(layer.get("width", "0")), int(layer.get("height", "0"))
    except ValueError:
        raise MapError(path, f"layer {name}: width and height must be whole numbers") from None
    if not (0 < width <= MAX_TILES and 0 < height <= MAX_TILES):
        raise MapError(path, f"layer {name}: size {width} x {height} is outside 1..{MAX_TILES}")
    cells = width * height
    data = layer.find("data")
    if data is None or data.find("chunk") is not None:
        raise MapError(path, f"layer {name}: needs its tiles in one <data> (no infinite maps)")
    text = (data.text or "").strip()
    encoding, compression = data.get("encoding"), data.get("compression")
    if encoding == "csv":
        found = text.count(",") + 1
    elif encoding == "base64":
        found = _decoded_bytes(text, compression, 4 * cells, f"layer {name}", path) // 4
    else:
        raise MapError(path, f"layer {name}: tile data must be csv or base64")
    if found > cells:
        raise MapError(path, f"layer {name}: holds more tiles than its {width} x {height}")
    return cells


def _decoded_bytes(text: str, compression: str | None, limit: int, what: str, path: str) -> int:
    try:
        raw = base64.b64decode(text, validate=False)
    except (binascii.Error, ValueError):
        raise MapError(path, f"{what}: damaged base64 data") from None
    if not compression:
        return len(raw)
    if compression not in _INFLATE:
        raise MapError(path, f"{what}: compression {compression[:20]!r} (use zlib or gzip)")
    return _inflated_size(raw, _INFLATE[compression], limit, what, path)


def _inflated_size(raw: bytes, wbits: int, limit: int, what: str, path: str) -> int:
    """Bytes the data inflates to, reading at most `limit` + 1 of them: past that, refused.
    gzip data may hold several members (gzip.decompress reads them all): so do we."""
    total = 0
    while raw:
        inflater = zlib.decompressobj(wbits)
        try:
            total += len(inflater.decompress(raw, limit - total + 1))
        except zlib.error as exc:
            raise MapError(path, f"{what}: damaged compressed data ({exc})") from None
        if total > limit or inflater.unconsumed_tail:
            raise MapError(path, f"{what}: inflates to more than its size allows ({limit} bytes)")
        if not inflater.eof:
            raise MapError(path, f"{what}: compressed data ends early")
        raw = inflater.unused_data if wbits != zlib.MAX_WBITS else b""
        raw = raw if raw.strip(b"\0") else b""
    return total


def _check_size(tmx: pytmx.TiledMap, path: str) -> None:
    sizes = (tmx.width, tmx.height, tmx.tilewidth, tmx.tileheight)
    if not all(isinstance(v, int) for v in sizes):
        raise MapError(path, "map and tile sizes must be whole numbers")
    if not (0 < tmx.width <= MAX_TILES and 0 < tmx.height <= MAX_TILES):
        raise MapError(path, f"map size {tmx.width} x {tmx.height} is outside 1..{MAX_TILES}")
    if tmx.tilewidth != tmx.tileheight or not 8 <= tmx.tilewidth <= 256:
        raise MapError(path, "tiles must be square, 8 to 256 pixels")


def _blocked_gids(tmx: pytmx.TiledMap) -> list[int]:
    return [gid for gid, props in tmx.tile_properties.items() if _truthy(props.get("blocked"))]


def _walkable(tmx: pytmx.TiledMap) -> np.ndarray:
    """A cell is blocked when any tile on it carries the property blocked=true."""
    blocked_gids = _blocked_gids(tmx)
    blocked = np.zeros((tmx.height, tmx.width), dtype=bool)
    for layer in tmx.visible_layers:
        if isinstance(layer, pytmx.TiledTileLayer):
            data = np.asarray(layer.data, dtype=np.int64)
            blocked |= np.isin(data, blocked_gids)
    return ~blocked


def _walls(tmx: pytmx.TiledMap) -> np.ndarray | None:
    """The blocked tiles of the `walls` layer, which hide what is behind them (None when
    the map has no such layer: the town then counts blocked tiles outside objects)."""
    layers = [x for x in tmx.visible_layers if isinstance(x, pytmx.TiledTileLayer)]
    layer = next((x for x in layers if x.name == "walls"), None)
    if layer is None:
        return None
    return np.isin(np.asarray(layer.data, dtype=np.int64), _blocked_gids(tmx))


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
        if problem := place_problem(name):  # names reach the terminal, prompts and saves
            raise MapError(path, f"{klass} at ({obj.x}, {obj.y}): its name {problem}")
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
