"""tools/make_bigmap.py: the committed bigger maps are the generator's plans, keep the
first town where it was, and use only roles of the vocabulary.

Regenerating the maps takes half a minute (python tools/make_bigmap.py reproduces them
byte for byte), so these tests compare the plans with the committed files' `areas` layers.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from xml.etree import ElementTree

import pytest

from game.world.roles import parse_role

ROOT = Path(__file__).resolve().parents[2]
TILE = 32


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    """Load the script as a module; it imports make_map from beside it."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        spec = importlib.util.spec_from_file_location("make_bigmap",
                                                      ROOT / "tools" / "make_bigmap.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return module


def sectors(tmx: Path) -> dict[str, tuple[int, int, int, int]]:
    """The map's sectors: name -> (x, y, w, h) in tiles."""
    out = {}
    for obj in ElementTree.parse(tmx).getroot().iter("object"):
        if obj.get("class") == "sector":
            x, y, w, h = (int(float(obj.get(k, 0))) // TILE for k in ("x", "y", "width", "height"))
            out[obj.get("name")] = (x, y, w, h)
    return out


def plan_sectors(tool: ModuleType, name: str) -> dict[str, tuple[int, int, int, int]]:
    buildings = tool.layout(tool.PLANS[name]).buildings()
    return {b.name: (b.x, b.y, len(b.plan[0]), len(b.plan)) for b in buildings}


@pytest.mark.parametrize("name", ["smallville100", "smallville500"])
def test_the_committed_map_is_the_plan(tool: ModuleType, name: str) -> None:
    planned = plan_sectors(tool, name)
    assert len(planned) == len(tool.layout(tool.PLANS[name]).buildings()), "a name twice"
    assert sectors(ROOT / "maps" / f"{name}.tmx") == planned


def test_the_first_town_stays_where_it_was(tool: ModuleType) -> None:
    first = sectors(ROOT / "maps" / "smallville.tmx")
    bigger = sectors(ROOT / "maps" / "smallville100.tmx")
    assert first.items() <= bigger.items()
    assert len(bigger) > len(first) + 40  # more homes, a second street of shops


def test_every_role_on_the_bigger_maps_is_in_the_vocabulary() -> None:
    root = ElementTree.parse(ROOT / "maps" / "smallville100.tmx").getroot()
    roles = {p.get("value") for p in root.iter("property") if p.get("name") == "role"}
    assert {"cafe", "bar", "market", "home", "counter", "seat", "bed"} <= roles
    for role in roles:
        parse_role(role)


def test_a_mirrored_home_turns_its_furniture(tool: ModuleType) -> None:
    assert tool.flipped_spec("sofa@n") == "sofa"
    assert tool.flipped_spec("sofa") == "sofa@n"
    assert tool.flipped_spec("piano@w") == "piano@w"
    home = tool.home(tool.FLAT, "1 Test Street", "apartment", 0, 0, door_up=False, n=0)
    assert home.plan[-1] == tool.FLAT.plan[0] and "+" in home.plan[-1]
