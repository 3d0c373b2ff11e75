"""The map loads headless into a town: grid, tree, lookups, language."""

import pytest
from tinymap import write_map

from game.core.errors import MapError
from game.world.describe import describe_object, describe_tree, tree_dict
from game.world.roles import Role
from game.world.tmx import load_town
from game.world.town import AreaKind

ART = """
............
.#####......
.#...#......
.#...#......
.##.##......
............
"""
AREAS = [
    ("sector", "Lin family's house", 1, 1, 5, 4, {"kind": "home"}),
    ("arena", "kitchen", 2, 2, 3, 2, {"capacity": 1, "role": " Kitchen "}),
    ("object", "stove", 2, 2, 1, 1, {"state": "idle", "role": "stove"}),
    ("object", "refrigerator", 4, 2, 1, 1),
    ("sector", "Hobbs Cafe", 7, 1, 4, 4, {"kind": "cafe", "opens": "08:00", "closes": "20:00"}),
    ("arena", "cafe", 7, 1, 4, 4),
]


@pytest.fixture
def town(tmp_path):
    return load_town(write_map(tmp_path / "t.tmx", ART, AREAS, {"visitor": (0, 0)}))


def test_tree_and_lookups(town):
    assert town.width == 12 and town.height == 6 and town.tile == 32
    assert [s.name for s in town.sectors()] == ["Lin family's house", "Hobbs Cafe"]
    stove = town.find("Lin family's house:kitchen:stove")
    assert stove.kind is AreaKind.OBJECT and stove.parent == "Lin family's house:kitchen"
    assert town.area_at(3, 3).address == "Lin family's house:kitchen"
    assert town.area_at(3, 3, AreaKind.SECTOR).name == "Lin family's house"
    assert town.address_at(0, 0) == ""
    assert town.find("Lin family's house:kitchen").capacity == 1
    assert not town.is_walkable(1, 1) and town.is_walkable(3, 4)
    assert town.spawns == {"visitor": (0, 0)}


def test_objects_have_states_and_access_tiles(town):
    assert town.state("Lin family's house:kitchen:stove") == "idle"
    town.set_state("Lin family's house:kitchen:stove", "burning")
    assert "is burning" in describe_object(town, "Lin family's house:kitchen:stove")
    assert town.access_tile("Lin family's house:kitchen:stove") == (2, 2)
    with pytest.raises(KeyError):
        town.set_state("nowhere:stove", "x")


def test_opening_hours(town):
    cafe = town.find("Hobbs Cafe")
    assert cafe.is_open(9 * 60) and not cafe.is_open(21 * 60) and not cafe.is_open(7 * 60)
    assert town.find("Lin family's house").is_open(3 * 60)


def test_tree_rendered_to_language(town):
    text = describe_tree(town)
    assert "Smallville has Lin family's house and Hobbs Cafe." in text
    assert "In the kitchen of Lin family's house there are a stove and a refrigerator." in text
    known = {"", "Lin family's house", "Lin family's house:kitchen"}
    partial = describe_tree(town, known)
    assert "Hobbs Cafe" not in partial and "stove" not in partial
    doc = tree_dict(town)
    assert doc[0]["arenas"][0]["objects"][0] == {"name": "stove", "state": "idle"}


def test_roles_are_read_and_optional(town):
    assert town.find("Lin family's house:kitchen").role is Role.KITCHEN  # case, spacing
    assert town.find("Lin family's house:kitchen:stove").role is Role.STOVE
    assert town.find("Lin family's house:kitchen:refrigerator").role is None
    assert town.find("Hobbs Cafe").role is None


def test_old_type_attribute_is_read(tmp_path):
    town = load_town(write_map(tmp_path / "t.tmx", ART, AREAS, {}, klass_attr="type"))
    assert town.find("Hobbs Cafe:cafe") is not None


@pytest.mark.parametrize(
    ("areas", "message"),
    [
        ([("arena", "kitchen", 2, 2, 3, 2)], "does not lie inside any sector"),
        ([("sector", "A", 0, 0, 2, 2), ("sector", "A", 3, 0, 2, 2)], "both named"),
        ([("room", "A", 0, 0, 2, 2)], "expected sector, arena or object"),
        ([("sector", "A", 0, 0, 2, 2, {"capacity": "many"})], "bad property"),
        ([("sector", "A", 0, 0, 2, 2, {"opens": "25:00", "closes": "26:00"})], "bad property"),
        ([("sector", "A", 0, 0, 2, 2, {"role": "spaceport"})], "sector 'A'.*unknown role"),
    ],
)
def test_bad_maps_give_clear_errors(tmp_path, areas, message):
    path = write_map(tmp_path / "bad.tmx", ART, areas, {})
    with pytest.raises(MapError, match=message) as info:
        load_town(path)
    assert str(path) in str(info.value)


def test_missing_and_garbage_map_files(tmp_path):
    with pytest.raises(MapError, match="not found"):
        load_town(tmp_path / "nope.tmx")
    junk = tmp_path / "junk.tmx"
    junk.write_bytes(b"\x00\x01not xml at all")
    with pytest.raises(MapError, match="cannot read the map"):
        load_town(junk)
