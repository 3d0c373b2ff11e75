"""The troubles table and how far trouble reaches: rooms next door, and rooms apart."""

from __future__ import annotations

import pytest
from tinymap import write_map

from game.world.tmx import load_town
from game.world.troubles import TROUBLES, fix_of, trouble

# A house of three rooms in a row (kitchen | hall | bedroom) and a shed apart from it.
ART = """
.............
.###########.
.#...#...#..#
.#...#...#..#
.###########.
.............
.###.........
.#.#.........
.###.........
"""
AREAS = [
    ("sector", "house", 1, 1, 12, 4, {"kind": "home"}),
    ("arena", "kitchen", 2, 2, 3, 2),
    ("object", "stove", 2, 2, 1, 1),
    ("arena", "hall", 6, 2, 3, 2),
    ("arena", "bedroom", 10, 2, 2, 2),
    ("sector", "shed", 1, 6, 3, 3, {"kind": "shop"}),
    ("arena", "inside", 2, 7, 1, 1),
]


@pytest.fixture
def town(tmp_path):
    return load_town(write_map(tmp_path / "t.tmx", ART, AREAS, {"visitor": (0, 0)}))


def test_rooms_apart_counts_rooms_through_the_building(town):
    assert town.rooms_apart("house:kitchen", "house:kitchen") == 0
    assert town.rooms_apart("house:hall", "house:kitchen") == 1
    assert town.rooms_apart("house:bedroom", "house:kitchen") == 2
    assert town.rooms_apart("house", "house:kitchen") == 1  # in the house, in no room
    assert town.rooms_apart("shed:inside", "house:kitchen") is None
    assert town.rooms_apart("", "house:kitchen") is None


def test_smoke_reaches_the_next_room_at_once_and_spreads():
    burning = trouble("burning")
    assert burning.reach == 1 and burning.reach_after(0) == 1
    assert burning.reach_after(burning.spreads) == 2
    broken = trouble("out of order")
    assert broken.reach_after(600) == 0  # seen only in its own room


def test_each_state_finds_its_trouble_and_each_fix_its_own():
    assert trouble("idle") is None and trouble("cooking") is None and trouble("") is None
    assert trouble("on fire").name == "fire" and trouble("smoking").name == "burning"
    for entry in TROUBLES:
        assert fix_of(entry.fix("sink")) is entry
        assert trouble(entry.words[0].replace("\\b", "")) is entry
