"""Character sprite sheets: 3 columns (standing, left step, right step) x 4 rows (facing
down, left, right, up) of 32 x 32 frames, one sheet per resident in assets/sprites/.

Frames are cut once and cached per zoom, since scaling 25 characters every frame would cost
more than drawing the whole map. A missing or damaged sheet gives a drawn stand-in rather
than a crash, and so does one the loader must not open: a path that leaves the sprites
folder, or a PNG whose header declares more than MAX_SHEET_SIDE pixels a side (the
decoder would allocate the whole picture before anything could look at it).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pygame

from game.core.images import ImageError, checked_png
from game.core.names import slug as name_slug
from game.core.paths import ASSETS

SPRITES = ASSETS / "sprites"
FRAME = 32
ROWS = ("down", "left", "right", "up")
WALK_CYCLE = (1, 0, 2, 0)  # columns while walking: left step, stand, right step, stand
WALK_FPS = 8.0
MAX_SHEET_SIDE = 4096  # pixels; a sheet is 96 x 128
log = logging.getLogger("smallville.sprites")


def slug(name: str) -> str:
    """'Klaus Mueller' -> 'klaus_mueller', the sheet's file name (only word characters
    and '-', whatever the name holds)."""
    return name_slug(name)


def sheet_path(folder: Path, who: str) -> Path | None:
    """The sheet of `who` (a slug) inside `folder`, or None when the path would lead
    anywhere else (a link out of the folder, a name that is not a slug)."""
    base = folder.resolve()
    path = (folder / f"{slug(who)}.png").resolve()
    return path if path.parent == base else None


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
            sheet = _cut(_load(sheet_path(self.folder, who), who))
            self._sheets[who] = sheet
        return sheet


def walk_column(moving: bool, clock: float) -> int:
    """The sheet column for a walker at real time `clock` (standing when still)."""
    if not moving:
        return 0
    return WALK_CYCLE[int(clock * WALK_FPS) % len(WALK_CYCLE)]


def _load(path: Path | None, who: str) -> pygame.Surface:
    """The sheet, or a stand-in for one that is missing, damaged, outside the folder or
    declared too large (said once in the log, which names the file)."""
    if path is None or not path.is_file():
        return _stand_in(who)
    try:
        checked_png(path, MAX_SHEET_SIDE)
    except ImageError as exc:
        log.warning("sprite sheet refused: %s", exc)
        return _stand_in(who)
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
