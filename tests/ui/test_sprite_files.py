"""Sprite sheets are opened only inside their folder, by slug, and only once their PNG
header declares a sane size: a resident named like a path, a link out of the folder or
a small file declaring a huge picture each get the drawn stand-in, never the decoder."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pygame
import pytest

from game.ui import sprites
from game.ui.sprites import FRAME, SPRITES, SpriteBank, sheet_path, slug

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from test_images import png  # noqa: E402


@pytest.fixture
def opened(monkeypatch):
    """Every path pygame is asked to decode, in order."""
    paths: list[Path] = []
    real = pygame.image.load

    def load(path, *args):
        paths.append(Path(path).resolve())
        return real(path, *args)

    monkeypatch.setattr(pygame.image, "load", load)
    return paths


@pytest.fixture
def folders(tmp_path):
    """assets/sprites with one honest sheet, and an evil.png outside assets."""
    inside = tmp_path / "assets" / "sprites"
    inside.mkdir(parents=True)
    (inside / "klaus_mueller.png").write_bytes(png(3 * FRAME, 4 * FRAME))
    outside = tmp_path / "x"
    outside.mkdir()
    (outside / "evil.png").write_bytes(png(3 * FRAME, 4 * FRAME))
    return inside, outside


def test_the_bundled_sheets_load_from_inside_assets(opened):
    bank = SpriteBank()
    image = bank.frame(slug("Klaus Mueller"), "down", 0, FRAME)
    assert image.get_size() == (FRAME, FRAME)
    assert opened == [(SPRITES / "klaus_mueller.png").resolve()]


def test_a_name_like_a_path_never_leaves_the_folder(folders, opened):
    inside, outside = folders
    name = "../../x/evil"
    assert (inside / f"{name}.png").resolve() == (outside / "evil.png").resolve()  # the attack
    bank = SpriteBank(inside)
    bank.frame(slug(name), "down", 0, FRAME)
    bank.frame(name, "left", 1, FRAME)  # even given the raw name instead of its slug
    assert sheet_path(inside, name) == inside.resolve() / "xevil.png"
    assert all(p.parent == inside.resolve() for p in opened)
    assert (outside / "evil.png").resolve() not in opened


def test_a_link_out_of_the_folder_is_not_followed(folders, opened):
    inside, outside = folders
    (inside / "eve.png").symlink_to(outside / "evil.png")
    assert sheet_path(inside, "eve") is None
    image = SpriteBank(inside).frame("eve", "down", 0, FRAME)
    assert image.get_size() == (FRAME, FRAME) and opened == []


def test_a_sheet_declaring_a_huge_picture_is_never_decoded(folders, opened, caplog):
    inside, _ = folders
    (inside / "giant.png").write_bytes(png(20000, 20000, rows=1))
    with caplog.at_level(logging.WARNING, logger="smallville.sprites"):
        image = SpriteBank(inside).frame("giant", "down", 0, FRAME)
    assert image.get_size() == (FRAME, FRAME)  # the stand-in
    assert opened == []
    assert "giant.png' is 20000 x 20000 pixels: too large" in caplog.text


def test_the_cap_sits_far_above_a_sheet(folders, opened):
    inside, _ = folders
    (inside / "big.png").write_bytes(png(sprites.MAX_SHEET_SIDE, 4 * FRAME, rows=4 * FRAME))
    SpriteBank(inside).frame("big", "down", 0, FRAME)
    assert opened == [(inside / "big.png").resolve()]
