"""tools/make_town.py and the bigger towns it wrote: smallville100 and smallville500 load,
are valid against their maps, and are what the tool makes from its seed.

The 100 town is checked through the game's own loader with its map; the 500 town's map is
read for its areas only (ElementTree, by the containment docs/MAP.md states), since pytmx
takes seconds over its 70,000 tiles.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from xml.etree import ElementTree

import numpy as np
import pytest

from game.world.scenario import load_scenario, load_world
from game.world.town import AreaKind

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "saves" / "scenarios"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    """Load the script as a module (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("make_town", ROOT / "tools" / "make_town.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def committed(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))


def addresses(tmx: Path) -> dict[str, str]:
    """Every area of a map's `areas` layer by address -> class. Containment by geometry:
    areas of one level do not overlap, so a child's parent is whichever holds its top-left
    tile (painted into a grid per level, as the game does)."""
    root = ElementTree.parse(tmx).getroot()
    tile = int(root.get("tilewidth", 32))
    shape = (int(root.get("height", 0)), int(root.get("width", 0)))
    rects: dict[str, list[tuple[str, int, int, int, int]]] = {"sector": [], "arena": [],
                                                               "object": []}
    for obj in root.iter("object"):
        klass = obj.get("class") or obj.get("type") or ""
        if klass in rects:
            x, y, w, h = (int(float(obj.get(k, 0))) // tile for k in ("x", "y", "width", "height"))
            rects[klass].append((obj.get("name", ""), x, y, w, h))
    out: dict[str, str] = {}
    holders: list[str] = []
    grid = np.full(shape, -1)
    for klass in ("sector", "arena", "object"):
        painted, names = np.full(shape, -1), []
        for name, x, y, w, h in rects[klass]:
            address = name if klass == "sector" else f"{holders[grid[y, x]]}:{name}"
            out[address] = klass
            painted[y:y + h, x:x + w] = len(names)
            names.append(address)
        grid, holders = painted, names
    return out


def check_town(doc: dict, areas: dict[str, str]) -> None:
    """What a town of residents must hold together, whatever its size."""
    names = [r["name"] for r in doc["residents"]]
    assert len(set(names)) == len(names), "residents' names are not distinct"
    for r in doc["residents"]:
        assert areas.get(r["home"]) == "sector", r["name"]
        assert areas.get(r["bed"]) == "object" and r["bed"].startswith(r["home"] + ":")
        assert r["workplace"] is None or areas.get(r["workplace"]) == "sector", r["name"]
        for block in r["routine"]:
            assert block["place"] in areas, (r["name"], block["place"])
        assert set(r["relationships"]) <= set(names) - {r["name"]}, r["name"]
    assert {"party", "election"} <= {i["id"] for i in doc["intents"]}
    assert all(i["holder"] in names for i in doc["intents"])


@pytest.mark.parametrize("name,size", [("smallville100", 100), ("smallville500", 500)])
def test_the_bigger_towns_hold_their_residents_on_their_maps(name: str, size: int) -> None:
    doc = committed(name)
    assert len(doc["residents"]) == size and doc["map"] == f"{name}.tmx"
    check_town(doc, addresses(ROOT / "maps" / doc["map"]))
    if size <= 100:  # the game's own checks of every field (seconds for the 500 town)
        assert len(load_scenario(name).residents) == size


def test_the_check_catches_a_resident_in_a_home_the_map_lacks() -> None:
    doc = committed("smallville100")
    areas = addresses(ROOT / "maps" / doc["map"])
    doc["residents"][-1]["home"] = "99 Nowhere Street"
    with pytest.raises(AssertionError):
        check_town(doc, areas)


def test_smallville100_loads_with_its_map_as_the_game_plays_it() -> None:
    scenario, town = load_world("smallville100")
    assert town.width > 100 and town.height > 72  # bigger than the first town
    homes = {r.home for r in scenario.residents}
    assert len(homes) >= 40
    assert all(town.find(h).kind is AreaKind.SECTOR for h in homes)
    market_street = {"The Copper Kettle Diner", "The Fox and Hound Tavern", "Riverside Grocers",
                     "Smallville Town Hall", "Page Turner Books", "Bluebell Bakery",
                     "Oak Hill Clinic", "Petal and Stem Florist"}
    assert market_street <= {a.name for a in town.areas.values() if a.kind is AreaKind.SECTOR}
    assert all(town.find(s).role is not None for s in ("The Copper Kettle Diner",
                                                        "The Fox and Hound Tavern",
                                                        "Riverside Grocers"))
    workplaces = Counter(r.workplace for r in scenario.residents if r.workplace)
    assert len(workplaces) >= 20 and max(workplaces.values()) < 25


def test_the_first_towns_residents_come_along_unchanged_but_for_new_acquaintances() -> None:
    base = {r["name"]: r for r in committed("smallville")["residents"]}
    bigger = {r["name"]: r for r in committed("smallville100")["residents"]}
    for name, r in base.items():
        grown = bigger[name]
        assert {k: v for k, v in grown.items() if k != "relationships"} == \
            {k: v for k, v in r.items() if k != "relationships"}
        assert r["relationships"].items() <= grown["relationships"].items()


def test_the_tool_makes_the_committed_town_from_its_seed(tool: ModuleType) -> None:
    made = tool.make(100)
    assert made == committed("smallville100")
    other = tool.make(100, seed=tool.SEED + 1)
    assert [r["name"] for r in other["residents"]] != [r["name"] for r in made["residents"]]
    assert [r["name"] for r in other["residents"][:25]] == [r["name"] for r in
                                                            made["residents"][:25]]
