"""Damaged art never crashes the game: tiles give one clear error, sprites and the emoji
font fall back to drawn stand-ins."""

import random
import shutil

import pygame
import pytest

from game.core.errors import MapError
from game.core.paths import ASSETS, MAPS


@pytest.fixture
def art_copy(tmp_path):
    (tmp_path / "maps").mkdir()
    shutil.copytree(ASSETS / "tiles", tmp_path / "assets" / "tiles")
    for name in ("smallville.tmx", "town.tsx"):
        shutil.copy(MAPS / name, tmp_path / "maps" / name)
    return tmp_path


@pytest.mark.parametrize("damage", ["truncate", "flip", "delete"])
def test_damaged_tiles_give_a_map_error(art_copy, damage):
    from game.ui.mapview import MapRenderer

    pygame.display.init()
    pygame.display.set_mode((64, 64))
    png = art_copy / "assets" / "tiles" / "town.png"
    data = bytearray(png.read_bytes())
    if damage == "delete":
        png.unlink()
    elif damage == "truncate":
        png.write_bytes(bytes(data[: len(data) // 3]))
    else:
        rng = random.Random(1)
        for _ in range(200):
            data[rng.randrange(40, len(data))] = rng.randrange(256)
        png.write_bytes(bytes(data))
    try:
        MapRenderer.load(str(art_copy / "maps" / "smallville.tmx"))
    except MapError as exc:
        assert "smallville.tmx" in str(exc) and "\n" not in str(exc)
    pygame.display.quit()


def test_damaged_sprite_falls_back_to_a_stand_in(tmp_path):
    from game.ui.sprites import _load

    pygame.display.init()
    bad = tmp_path / "klaus_mueller.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    sheet = _load(bad, "Klaus Mueller")
    assert sheet.get_width() >= 96 and sheet.get_height() >= 128
    assert _load(tmp_path / "missing.png", "Klaus Mueller").get_width() >= 96
    pygame.display.quit()


def test_damaged_emoji_font_falls_back(tmp_path):
    from game.ui.emoji import _load

    pygame.font.init()
    bad = tmp_path / "NotoColorEmoji.ttf"
    bad.write_bytes(b"garbage" * 100)
    assert _load(bad) is None
    assert _load(tmp_path / "missing.ttf") is None
