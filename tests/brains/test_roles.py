"""A second, small map whose rooms have other names: the scripted residents find the kitchen,
the bed and the shower by role (docs/MAP.md), never by this town's names."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from tinymap import write_map

from game.brains.questions import AgentContext, PlanDay
from game.brains.scripted import ScriptedBrain
from game.brains.scripted.activities import classify
from game.brains.scripted.lexicon import emoji, fix_of, object_state
from game.brains.scripted.places import Directory, choose
from game.sim.factory import build_simulation
from game.world.roles import Role
from game.world.scenario import load_world
from game.world.town import AreaKind
from game.world.troubles import TROUBLES

ART = "\n".join(["." * 20] * 9)
HOME, CAFE = "Cottage", "Brew House"


def areas(with_roles: bool = True) -> list[tuple]:
    """The cottage (galley, washroom, den, two nooks) and a cafe called something else."""
    table = [
        ("sector", HOME, 0, 0, 12, 8, {"kind": "home", "role": "home"}),
        ("arena", "galley", 0, 0, 4, 3, {"role": "kitchen"}),
        ("object", "hob", 0, 0, 1, 1, {"role": "stove"}),
        ("object", "cold box", 1, 0, 1, 1, {"role": "refrigerator"}),
        ("object", "trough", 2, 0, 1, 1, {"role": "sink"}),
        ("arena", "washroom", 4, 0, 3, 3, {"role": "bathroom"}),
        ("object", "rain head", 4, 0, 1, 1, {"role": "shower"}),
        ("object", "basin", 5, 0, 1, 1, {"role": "sink"}),
        ("object", "loo", 6, 0, 1, 1, {"role": "toilet"}),
        ("arena", "den", 0, 3, 7, 5, {"role": "living room"}),
        ("object", "settee", 0, 3, 2, 1, {"role": "sofa"}),
        ("object", "board", 3, 3, 2, 1, {"role": "table"}),
        ("arena", "Ada's nook", 7, 0, 5, 4, {"role": "bedroom"}),
        ("object", "bunk", 11, 0, 1, 1, {"role": "bed"}),
        ("object", "locker", 10, 0, 1, 1, {"role": "closet"}),
        ("arena", "Ben's nook", 7, 4, 5, 4, {"role": "bedroom"}),
        ("object", "bunk", 11, 4, 1, 1, {"role": "bed"}),
        ("object", "locker", 10, 4, 1, 1, {"role": "closet"}),
        ("sector", CAFE, 13, 0, 7, 6, {"kind": "cafe", "role": "cafe",
                                        "opens": "08:00", "closes": "20:00"}),
        ("arena", "parlour", 13, 0, 7, 6, {"role": "cafe"}),
        ("object", "urn", 13, 0, 1, 1, {"role": "coffee machine"}),
        ("object", "bar top", 14, 0, 2, 1, {"role": "counter"}),
        ("object", "stools", 17, 0, 2, 1, {"role": "seat"}),
    ]  # fmt: skip
    if not with_roles:
        return [(*a[:6], {k: v for k, v in a[6].items() if k != "role"}) for a in table]
    return table


LOOK = {"skin": "#d8a47d", "hair": "#4a2a1a", "hair_style": "short", "shirt": "#2e8b7a",
        "pants": "#3a2c28"}  # fmt: skip


def resident(name: str, nook: str, routine: list[dict]) -> dict:
    return {
        "name": name, "age": 30, "traits": ["friendly"], "occupation": "a weaver",
        "wake": "07:00", "sleep": "22:00", "home": HOME, "bed": f"{HOME}:{nook}:bunk",
        "workplace": None, "routine": routine, "known_places": [CAFE],
        "relationships": {}, "interests": ["weaving"], "look": LOOK,
        "seed": f"{name} is a weaver who lives in the cottage",
    }  # fmt: skip


def block(start: str, end: str, place: str, activity: str) -> dict:
    return {"start": start, "end": end, "place": place, "activity": activity}


def write_world(folder: Path, with_roles: bool = True) -> Path:
    """The tiny map and a scenario of two residents on it; returns the scenario's path."""
    spawns = {"visitor": (19, 8), "Ada Reed": (8, 1), "Ben Cole": (8, 5)}
    map_path = write_map(folder / "tiny.tmx", ART, areas(with_roles), spawns)
    ada = resident("Ada Reed", "Ada's nook", [
        block("09:00", "12:00", f"{HOME}:den", "weaving a rug"),
        block("17:00", "19:00", f"{HOME}:galley", "cooking dinner"),
    ])  # fmt: skip
    ben = resident("Ben Cole", "Ben's nook", [
        block("09:00", "13:00", f"{HOME}:den", "reading a novel"),
        block("18:00", "20:00", f"{HOME}:galley", "cooking dinner"),
    ])  # fmt: skip
    scenario = {"format": 1, "name": "tiny", "map": str(map_path), "start": "2023-02-13T05:00",
                "residents": [ada, ben]}  # fmt: skip
    path = folder / "tiny.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    return path


def run_day(scenario: Path) -> set[tuple[str, str, str]]:
    """Every (resident, action, address) of a scripted day on the map."""
    sim = build_simulation(str(scenario), seed=3, workers=1)
    seen: set[tuple[str, str, str]] = set()

    def watch(s) -> None:
        for name, agent in s.agents.items():
            if agent.action is not None:
                seen.add((name, agent.action.description, agent.action.address))

    try:
        sim.run_until(sim.now + timedelta(hours=20), watch)
    finally:
        sim.close()
    return seen


def at(seen, name: str, words: tuple[str, ...]) -> set[str]:
    """Where a resident was while doing something with one of these words."""
    return {where for who, what, where in seen if who == name and any(w in what for w in words)}


@pytest.fixture(scope="module")
def day(tmp_path_factory) -> set[tuple[str, str, str]]:
    return run_day(write_world(tmp_path_factory.mktemp("roles")))


@pytest.mark.parametrize(("name", "nook"), [("Ada Reed", "Ada's nook"), ("Ben Cole", "Ben's nook")])
def test_residents_cook_sleep_and_wash_by_role(day, name: str, nook: str) -> None:
    assert f"{HOME}:galley:hob" in at(day, name, ("cooking", "making breakfast", "stirring"))
    assert at(day, name, ("sleeping",)) == {f"{HOME}:{nook}:bunk"}
    assert f"{HOME}:washroom:rain head" in at(day, name, ("shower",))
    assert f"{HOME}:washroom:basin" in at(day, name, ("brushing teeth",))
    assert f"{HOME}:galley:trough" in at(day, name, ("washing the dishes",))


def test_without_roles_the_same_names_mean_nothing(tmp_path) -> None:
    """The check above can fail: strip the roles and nobody finds the hob or the shower."""
    seen = run_day(write_world(tmp_path, with_roles=False))
    for name in ("Ada Reed", "Ben Cole"):
        assert f"{HOME}:washroom:rain head" not in at(seen, name, ("shower",))
        assert f"{HOME}:galley:hob" not in at(seen, name, ("cooking", "making breakfast"))


def test_choices_follow_roles_not_names(tmp_path) -> None:
    scenario, town = load_world(write_world(tmp_path))
    persona = scenario.resident("Ada Reed")
    galley = [a.name for a in town.children(f"{HOME}:galley")]
    roles = {a.name: a.role for a in town.children(f"{HOME}:galley")}
    directory = Directory({a.name: a for a in town.sectors()})
    pick = choose(persona, "cooking dinner", AreaKind.OBJECT, galley, "", "", roles, directory)
    assert pick == "hob"
    arenas = {a.name: a.role for a in town.children(HOME)}
    hint = f"{HOME}:@bathroom:@shower"
    got = choose(persona, "zzz", AreaKind.ARENA, list(arenas), "", hint, arenas, directory)
    assert got == "washroom"
    assert directory.find(Role.CAFE, {CAFE}) == CAFE and directory.public() == (CAFE,)
    assert not directory.is_open(CAFE, 7 * 60, 9 * 60) and directory.is_open(CAFE, 9 * 60, 600)


def test_a_cafe_by_another_name_is_where_lunch_is(tmp_path) -> None:
    """Sector roles: the planner's 'lunch at the cafe' finds the Brew House."""
    scenario, town = load_world(write_world(tmp_path))
    persona = scenario.resident("Ada Reed")
    brain = ScriptedBrain(seed=0)
    places = set()
    for day in range(13, 20):
        wake = scenario.start.replace(day=day, hour=7)
        ctx = AgentContext(persona, wake, "", HOME, "", known_places=(CAFE,),
                           sectors=tuple(town.sectors()))  # fmt: skip
        sleep = wake.replace(hour=23)
        places |= {i.description for i in brain.ask(PlanDay(ctx, "", wake, sleep))}
    assert any(CAFE in text for text in places), places


@pytest.mark.parametrize("rule", TROUBLES, ids=lambda t: t.name)
def test_each_trouble_is_one_record_every_table_reads(rule) -> None:
    action = rule.fix("hob")
    assert fix_of(action) is rule
    assert object_state(action, f"{HOME}:galley:hob", "x") == rule.fixed
    assert emoji(action).startswith(rule.emoji)
    assert classify(action).key == "fixing"
