"""Character sprite sheets: 3 columns (standing, left step, right step) x 4 rows (facing
down, left, right, up) of 32 x 32 frames, one sheet per resident in assets/sprites/.

Frames are cut once and cached per zoom, since scaling 25 characters every frame would cost
more than drawing the whole map. A missing or damaged sheet gives a drawn stand-in rather
than a crash.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from game.core.paths import ASSETS

SPRITES = ASSETS / "sprites"
FRAME = 32
ROWS = ("down", "left", "right", "up")
WALK_CYCLE = (1, 0, 2, 0)  # columns while walking: left step, stand, right step, stand
WALK_FPS = 8.0


def slug(name: str) -> str:
    """'Klaus Mueller' -> 'klaus_mueller', the sheet's file name."""
    return name.lower().replace(" ", "_")


class SpriteBank:
    """Sheets by slug, frames by (slug, facing, column, size)."""

    def __init__(self, folder: Path = SPRITES) -> None:
        self.folder = folder
        self._sheets: dict[str, list[list[pygame.Surface]]] = {}
        self._scaled: dict[tuple[str, int, int, int], pygame.Surface] = {}

    def frame(self, who: str, facing: str, column: int, size: int) -> pygame.Surface:
        """One frame of a character, `size` pixels square."""
        row = ROWS.index(facing) if facing in ROWS else 0
        key = (who, row, column, size)
        image = self._scaled.get(key)
        if image is None:
            base = self._sheet(who)[row][column % 3]
            image = base if size == FRAME else pygame.transform.scale(base, (size, size))
            self._scaled[key] = image
        return image

    def _sheet(self, who: str) -> list[list[pygame.Surface]]:
        sheet = self._sheets.get(who)
        if sheet is None:
            sheet = _cut(_load(self.folder / f"{who}.png", who))
            self._sheets[who] = sheet
        return sheet


def walk_column(moving: bool, clock: float) -> int:
    """The sheet column for a walker at real time `clock` (standing when still)."""
    if not moving:
        return 0
    return WALK_CYCLE[int(clock * WALK_FPS) % len(WALK_CYCLE)]


def _load(path: Path, who: str) -> pygame.Surface:
    try:
        image = pygame.image.load(str(path))
    except (pygame.error, FileNotFoundError, OSError):
        return _stand_in(who)
    if image.get_width() < 3 * FRAME or image.get_height() < 4 * FRAME:
        return _stand_in(who)
    return image.convert_alpha() if pygame.display.get_surface() is not None else image


def _cut(sheet: pygame.Surface) -> list[list[pygame.Surface]]:
    return [
        [sheet.subsurface((c * FRAME, r * FRAME, FRAME, FRAME)).copy() for c in range(3)]
        for r in range(4)
    ]


def _stand_in(who: str) -> pygame.Surface:
    """A plain figure in a colour of its own, for a character without a sheet."""
    sheet = pygame.Surface((3 * FRAME, 4 * FRAME), pygame.SRCALPHA)
    hue = sum(map(ord, who)) * 47 % 360
    colour = pygame.Color(0)
    colour.hsva = (hue, 60, 85, 100)
    for r in range(4):
        for c in range(3):
            x, y = c * FRAME, r * FRAME
            pygame.draw.ellipse(sheet, colour, (x + 8, y + 12, 16, 18))
            pygame.draw.circle(sheet, (240, 210, 180), (x + 16, y + 10), 7)
            pygame.draw.circle(sheet, (30, 30, 30), (x + 16, y + 10), 7, 1)
    return sheet
