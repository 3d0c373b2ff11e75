#!/usr/bin/env python3
"""Render a Tiled map to one PNG, to review the town without starting the game or Tiled.

Usage: python tools/render_map.py OUT.png [--map maps/smallville.tmx] [--areas] [--scale F]

--areas outlines the `areas` rectangles (sectors thick, arenas thin, objects dotted) and
labels sectors and arenas; the labels are drawn only into this review picture, never into
the tiles.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytmx  # noqa: E402

from game.ui.chart import write_png  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
COLOURS = {"sector": (255, 255, 255), "arena": (255, 220, 90), "object": (120, 220, 255)}


def area_class(obj: pytmx.TiledObject) -> str:
    """Tiled 1.9+ stores the class in `class`, older files in `type`."""
    return getattr(obj, "class", None) or getattr(obj, "type", None) or ""


def draw_tiles(tmx: pytmx.TiledMap, canvas: pygame.Surface) -> None:
    """Blit every visible tile layer in file order (ground, walls, furniture, above)."""
    for layer in tmx.visible_layers:
        if not isinstance(layer, pytmx.TiledTileLayer):
            continue
        for x, y, image in layer.tiles():
            canvas.blit(image, (x * tmx.tilewidth, y * tmx.tileheight))


def draw_label(canvas: pygame.Surface, font: pygame.font.Font, text: str, pos: tuple) -> None:
    """White text on a dark box so it reads over any tile."""
    img = font.render(text, True, (255, 255, 255))
    box = img.get_rect(topleft=pos).inflate(6, 2)
    pygame.draw.rect(canvas, (20, 20, 30), box)
    canvas.blit(img, (pos[0], pos[1]))


def draw_areas(tmx: pytmx.TiledMap, canvas: pygame.Surface) -> None:
    """Outline the area rectangles and label sectors and arenas."""
    font = pygame.font.Font(None, 18)
    group = next(g for g in tmx.objectgroups if g.name == "areas")
    for obj in group:
        klass = area_class(obj)
        rect = pygame.Rect(int(obj.x), int(obj.y), int(obj.width), int(obj.height))
        width = {"sector": 3, "arena": 2}.get(klass, 1)
        pygame.draw.rect(canvas, COLOURS.get(klass, (255, 0, 255)), rect, width)
        if klass == "sector":
            draw_label(canvas, font, obj.name, (rect.x + 4, rect.y + 4))
        elif klass == "arena":
            draw_label(canvas, font, obj.name, (rect.x + 3, rect.bottom - 16))
    spawns = next((g for g in tmx.objectgroups if g.name == "spawns"), [])
    for obj in spawns:
        pygame.draw.circle(canvas, (255, 60, 160), (int(obj.x), int(obj.y)), 6)


def render(map_path: Path, out: Path, areas: bool, scale: float) -> None:
    """Load the map with pytmx (images via pygame) and save one picture of it."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1))
    tmx = pytmx.load_pygame(str(map_path))
    canvas = pygame.Surface((tmx.width * tmx.tilewidth, tmx.height * tmx.tileheight))
    canvas.fill((0, 0, 0))
    draw_tiles(tmx, canvas)
    if areas:
        draw_areas(tmx, canvas)
    if scale != 1:
        size = (int(canvas.get_width() * scale), int(canvas.get_height() * scale))
        canvas = pygame.transform.smoothscale(canvas, size)
    write_png(canvas, out, make_folder=True)
    pygame.quit()


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="PNG file to write")
    parser.add_argument("--map", type=Path, default=ROOT / "maps" / "smallville.tmx")
    parser.add_argument("--areas", action="store_true", help="outline and label the areas")
    parser.add_argument("--scale", type=float, default=1.0, help="resize the picture")
    args = parser.parse_args(argv)
    render(args.map, args.out, args.areas, args.scale)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
