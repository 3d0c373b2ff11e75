"""The Tiled map on screen: layers pre-rendered once, a camera, zoom.

Why pre-render: blitting thousands of 32 px tiles a frame is slow in pygame, while one blit
of the visible part of a big Surface is cheap. Every tile layer below the characters goes
into one opaque Surface, the `above` layer into a transparent one. A zoom level's scaled
copy is cached the first time it is used, unless it would be too big to hold in memory;
then the visible part alone is scaled each frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame
import pytmx
from pytmx.util_pygame import load_pygame

from game.core.errors import MapError

ZOOMS: tuple[float, ...] = (0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
DEFAULT_ZOOM = 1.5
ABOVE = "above"
CACHE_PIXELS = 24_000_000  # largest scaled layer kept (about 96 MB at 32 bits a pixel)


def render_layers(tmx: pytmx.TiledMap) -> tuple[pygame.Surface, pygame.Surface | None]:
    """Every visible tile layer into `below` (opaque) and the `above` layer (transparent)."""
    size = (tmx.width * tmx.tilewidth, tmx.height * tmx.tileheight)
    below = pygame.Surface(size)
    below.fill((40, 44, 40))
    above = None
    for layer in tmx.visible_layers:
        if not isinstance(layer, pytmx.TiledTileLayer):
            continue
        if layer.name == ABOVE:
            above = pygame.Surface(size, pygame.SRCALPHA)
            _paint(tmx, layer, above)
        else:
            _paint(tmx, layer, below)
    return below, above


def _paint(tmx: pytmx.TiledMap, layer: pytmx.TiledTileLayer, target: pygame.Surface) -> None:
    tw, th = tmx.tilewidth, tmx.tileheight
    for x, y, image in layer.tiles():
        # Tiles taller than the grid (trees) sit on the bottom of their cell, as in Tiled.
        target.blit(image, (x * tw, y * th + th - image.get_height()))


@dataclass
class Camera:
    """Where the view looks (the centre, in world pixels) and how close.

    It follows the visitor until the player drags the map, and stays inside the map.
    """

    view: tuple[int, int]
    world: tuple[int, int]
    center: tuple[float, float] = (0.0, 0.0)
    zoom: float = DEFAULT_ZOOM
    following: bool = True

    def zoom_by(self, steps: int, at: tuple[float, float] | None = None) -> None:
        """Move along the zoom ladder. With `at` (a screen point, the cursor) the world
        point under it stays put; without, the centre does."""
        anchor = self.to_world(*at) if at is not None else None
        i = _nearest(self.zoom) + steps
        self.zoom = ZOOMS[max(0, min(len(ZOOMS) - 1, i))]
        if anchor is not None and at is not None:
            self.following = False  # the player chose where to look
            self.center = (
                anchor[0] - (at[0] - self.view[0] / 2) / self.zoom,
                anchor[1] - (at[1] - self.view[1] / 2) / self.zoom,
            )
        self.clamp()

    def pan(self, dx: float, dy: float) -> None:
        """Drag by a screen distance: the map moves with the pointer."""
        self.following = False
        self.center = (self.center[0] - dx / self.zoom, self.center[1] - dy / self.zoom)
        self.clamp()

    def look_at(self, wx: float, wy: float) -> None:
        self.center = (wx, wy)
        self.clamp()

    def resize(self, view: tuple[int, int]) -> None:
        self.view = view
        self.clamp()

    def clamp(self) -> None:
        """Keep the view on the map; centre the map when it is smaller than the view."""
        cx = _clamp_axis(self.center[0], self.view[0] / self.zoom, self.world[0])
        cy = _clamp_axis(self.center[1], self.view[1] / self.zoom, self.world[1])
        self.center = (cx, cy)

    @property
    def origin(self) -> tuple[float, float]:
        """The world pixel at the top-left of the screen."""
        return (
            self.center[0] - self.view[0] / 2 / self.zoom,
            self.center[1] - self.view[1] / 2 / self.zoom,
        )

    def to_screen(self, wx: float, wy: float) -> tuple[int, int]:
        ox, oy = self.origin
        return round((wx - ox) * self.zoom), round((wy - oy) * self.zoom)

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        ox, oy = self.origin
        return ox + sx / self.zoom, oy + sy / self.zoom


def _nearest(zoom: float) -> int:
    return min(range(len(ZOOMS)), key=lambda i: abs(ZOOMS[i] - zoom))


def _clamp_axis(center: float, span: float, size: float) -> float:
    if span >= size:
        return size / 2
    return max(span / 2, min(size - span / 2, center))


@dataclass
class MapRenderer:
    """Draws the pre-rendered layers through a camera, caching a scaled copy per zoom."""

    below: pygame.Surface
    above: pygame.Surface | None
    tile: int
    _scaled: dict[tuple[str, float], pygame.Surface] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str) -> MapRenderer:
        try:
            tmx = load_pygame(path)
            below, above = render_layers(tmx)
        except Exception as exc:  # pytmx and pygame raise many kinds on damaged art
            raise MapError(path, f"cannot draw the map ({type(exc).__name__}: {exc})") from exc
        if pygame.display.get_surface() is not None:
            below = below.convert()
            above = above.convert_alpha() if above is not None else None
        return cls(below, above, tmx.tilewidth)

    @property
    def size(self) -> tuple[int, int]:
        return self.below.get_size()

    def prepare(self, zoom: float) -> None:
        """Scale the layers for a zoom level now (at load time) rather than in a frame."""
        self._scaled_layer("below", self.below, zoom)
        if self.above is not None:
            self._scaled_layer("above", self.above, zoom)

    def draw_below(self, surface: pygame.Surface, camera: Camera) -> None:
        surface.fill((20, 24, 20))
        self._draw("below", self.below, surface, camera)

    def draw_above(self, surface: pygame.Surface, camera: Camera) -> None:
        if self.above is not None:
            self._draw("above", self.above, surface, camera)

    def _draw(self, key: str, layer: pygame.Surface, surface: pygame.Surface, cam: Camera) -> None:
        scaled = self._scaled_layer(key, layer, cam.zoom)
        if scaled is not None:
            surface.blit(scaled, cam.to_screen(0, 0))
            return
        self._draw_visible_part(layer, surface, cam)

    def _scaled_layer(self, key: str, layer: pygame.Surface, zoom: float) -> pygame.Surface | None:
        """The whole layer at this zoom, cached; None when too big to keep."""
        if zoom == 1.0:
            return layer
        cached = self._scaled.get((key, zoom))
        if cached is not None:
            return cached
        w, h = round(layer.get_width() * zoom), round(layer.get_height() * zoom)
        if w * h > CACHE_PIXELS:
            return None
        scale = pygame.transform.smoothscale if zoom < 1 else pygame.transform.scale
        cached = scale(layer, (w, h))
        self._scaled[(key, zoom)] = cached
        return cached

    def _draw_visible_part(self, layer: pygame.Surface, surface: pygame.Surface, cam: Camera):
        """Scale only what is on screen (for zoom levels too big to cache whole)."""
        ox, oy = cam.origin
        x0, y0 = max(0, int(ox)), max(0, int(oy))
        x1 = min(layer.get_width(), int(ox + cam.view[0] / cam.zoom) + 2)
        y1 = min(layer.get_height(), int(oy + cam.view[1] / cam.zoom) + 2)
        if x1 <= x0 or y1 <= y0:
            return
        part = layer.subsurface((x0, y0, x1 - x0, y1 - y0))
        size = (round((x1 - x0) * cam.zoom), round((y1 - y0) * cam.zoom))
        surface.blit(pygame.transform.scale(part, size), cam.to_screen(x0, y0))
