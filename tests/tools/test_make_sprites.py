"""The committed sprite sheets are exactly what tools/make_sprites.py draws today."""

from __future__ import annotations

import importlib.util
import json
import struct
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "saves" / "scenarios" / "smallville.json"
SPRITES = ROOT / "assets" / "sprites"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    """Load the script as a module (tools/ is not a package)."""
    path = ROOT / "tools" / "make_sprites.py"
    spec = importlib.util.spec_from_file_location("make_sprites", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def png_size(path: Path) -> tuple[int, int, int]:
    """Width, height and colour type from the IHDR chunk."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height, _depth, color_type = struct.unpack(">IIBB", data[16:26])
    return width, height, color_type


def residents() -> list[str]:
    return [res["name"] for res in json.loads(SCENARIO.read_text(encoding="utf-8"))["residents"]]


def test_regenerating_reproduces_the_committed_pngs(tool: ModuleType, tmp_path: Path) -> None:
    written = tool.make_all(tmp_path, SCENARIO)
    assert len(written) == 26
    for path in written:
        assert path.read_bytes() == (SPRITES / path.name).read_bytes(), path.name


def test_the_sheets_are_the_residents_of_the_first_and_the_100_town(
    tool: ModuleType, tmp_path: Path
) -> None:
    """Every committed sheet is a resident's of smallville or smallville100 (or the
    visitor's), each has one, and a sample of the 100 town's newcomers redraw byte for
    byte (drawing all hundred would take the suite seconds)."""
    looks = {n: look for sc in tool.SCENARIOS for n, look in tool.load_looks(ROOT / sc).items()}
    assert len(looks) == 100
    stems = {tool.slug(n) for n in looks} | {"visitor"}
    assert stems == {path.stem for path in SPRITES.glob("*.png")}
    newcomers = list(tool.load_looks(ROOT / tool.SCENARIOS[1]))[25:]
    for name in newcomers[::15]:
        again = tmp_path / "again.png"
        tool.write_png(again, tool.sheet(looks[name]))
        assert again.read_bytes() == (SPRITES / f"{tool.slug(name)}.png").read_bytes(), name


def test_every_resident_has_a_96_by_128_rgba_sheet(tool: ModuleType) -> None:
    names = residents()
    assert len(names) == 25
    for name in [*names, "visitor"]:
        path = SPRITES / f"{tool.slug(name)}.png"
        assert path.is_file(), path.name
        assert png_size(path) == (96, 128, 6), path.name


def test_our_png_writer_decodes_to_the_drawn_pixels(tool: ModuleType) -> None:
    pygame = tool.pygame
    surf = tool.sheet(tool.VISITOR_LOOK)
    loaded = pygame.image.load(str(SPRITES / "visitor.png"))
    assert pygame.image.tobytes(loaded, "RGBA") == pygame.image.tobytes(surf, "RGBA")


def test_walk_frames_differ_and_background_is_transparent(tool: ModuleType) -> None:
    look = json.loads(SCENARIO.read_text(encoding="utf-8"))["residents"][0]["look"]
    for view in ("down", "left", "up"):
        frames = [tool.pygame.image.tobytes(tool.frame(look, view, s), "RGBA") for s in range(3)]
        assert len(set(frames)) == 3, view
    corner = tool.frame(look, "down", 0).get_at((0, 0))
    assert corner.a == 0


def test_a_name_like_a_path_draws_its_sheet_inside_the_folder(
    tool: ModuleType, tmp_path: Path
) -> None:
    """The tool names sheets as the window looks them up (game.core.names.slug)."""
    from game.ui.sprites import slug

    doc = json.loads(SCENARIO.read_text(encoding="utf-8"))
    doc["residents"] = doc["residents"][:1]
    doc["residents"][0]["name"] = "../../../escape/evil"
    scenario = tmp_path / "evil.json"
    scenario.write_text(json.dumps(doc), encoding="utf-8")
    written = tool.make_all(tmp_path / "out", scenario)
    folder = (tmp_path / "out" / "assets" / "sprites").resolve()
    assert {p.resolve().parent for p in written} == {folder}
    assert folder / f"{slug('../../../escape/evil')}.png" in {p.resolve() for p in written}
    assert not (tmp_path / "escape").exists()
