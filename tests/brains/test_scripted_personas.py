"""Hand-made personas and contexts shared by the scripted-brain tests.

They are built with the Resident dataclass directly (no scenario file), and cover the odd
cases: no routine at all, a night owl whose day ends after midnight, a gruff early bird.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache

import pytest

from game.brains.protocol import AgentContext
from game.core.records import MemoryKind, MemoryRecord
from game.world.roles import Role
from game.world.scenario import Look, Resident, RoutineBlock, Scenario, load_scenario, load_world
from game.world.town import Town

LOOK = Look("#d8a47d", "#4a2a1a", "#2e8b7a", "#3a2c28", "short")
DAY = datetime(2023, 2, 13)


def hm(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def block(start: str, end: str, place: str, activity: str) -> RoutineBlock:
    return RoutineBlock(hm(start), hm(end), place, activity)


def person(
    name: str,
    *,
    traits: tuple[str, ...] = ("friendly",),
    occupation: str = "baker",
    wake: str = "07:00",
    sleep: str = "23:00",
    home: str = "",
    bed_arena: str = "",
    workplace: str | None = None,
    routine: tuple[RoutineBlock, ...] = (),
    known: tuple[str, ...] = ("Hobbs Cafe", "Johnson Park", "The Willows Market and Pharmacy"),
    relationships: dict[str, str] | None = None,
    interests: tuple[str, ...] = ("baking",),
    seed: str = "",
) -> Resident:
    home = home or f"{name}'s house"
    bed_arena = bed_arena or "bedroom"
    return Resident(
        name=name,
        age=30,
        traits=traits,
        occupation=occupation,
        wake=hm(wake),
        sleep=hm(sleep),
        home=home,
        bed=f"{home}:{bed_arena}:bed",
        workplace=workplace,
        routine=routine,
        known_places=known,
        relationships=tuple((relationships or {}).items()),
        interests=interests,
        look=LOOK,
        seed=seed or f"{name} is a {occupation}; {name.split()[0]} likes her neighbours",
    )


NORA = person(
    "Nora Vance",
    traits=("friendly", "hospitable"),
    occupation="baker at Hobbs Cafe",
    wake="05:30",
    sleep="22:00",
    workplace="Hobbs Cafe",
    routine=(
        block("05:30", "06:30", "Nora Vance's house:kitchen", "having breakfast"),
        block("07:00", "15:00", "Hobbs Cafe:cafe:cafe counter", "baking and serving customers"),
        block("15:00", "17:00", "Johnson Park", "taking a walk"),
        block("17:00", "22:00", "Nora Vance's house:common room", "reading and relaxing"),
    ),
    relationships={"Bert Hall": "a grumpy grocer she sells bread to"},
    seed=(
        "Nora Vance bakes bread at Hobbs Cafe; Nora Vance loves her regulars; "
        "Nora is hosting a book club gathering at Hobbs Cafe on February 15 from 6 pm to 8 pm; "
        "Nora has a secret crush on Bert Hall"
    ),
)
LEO = person(
    "Leo Park",
    traits=("curious",),
    occupation="student",
    wake="08:00",
    sleep="01:00",
    routine=(),
    interests=("chess",),
    seed="Leo Park is a student; Leo Park likes to play chess in his room",
)
IRIS = person(
    "Iris Moon",
    traits=("imaginative", "independent"),
    occupation="novelist",
    wake="11:00",
    sleep="03:00",
    routine=(
        block("11:00", "12:00", "Iris Moon's house:kitchen", "having a late breakfast"),
        block("12:00", "18:00", "Iris Moon's house:bedroom:desk", "writing her novel"),
        block("18:00", "20:00", "Hobbs Cafe", "reading at the cafe"),
        block("20:00", "03:00", "Iris Moon's house:bedroom:desk", "writing late into the night"),
    ),
    seed="Iris Moon is a novelist; Iris Moon writes late into the night",
)
BERT = person(
    "Bert Hall",
    traits=("gruff", "energetic"),
    occupation="grocer",
    wake="04:30",
    sleep="20:30",
    workplace="The Willows Market and Pharmacy",
    routine=(
        block("05:00", "08:00", "The Willows Market and Pharmacy", "stocking the shelves"),
        block(
            "08:00",
            "17:00",
            "The Willows Market and Pharmacy:store:cashier counter",
            "running the grocery",
        ),
        block("17:00", "20:30", "Bert Hall's house:common room:sofa", "watching television"),
    ),
    relationships={"Nora Vance": "a baker he does not like"},
    interests=("local politics",),
    seed="Bert Hall runs the grocery; Bert Hall does not like Nora Vance",
)
HAND_MADE = (NORA, LEO, IRIS, BERT)


def memory(
    index: int,
    text: str,
    kind: MemoryKind = MemoryKind.OBSERVATION,
    importance: int = 3,
    source: str = "",
    when: datetime = DAY + timedelta(hours=9),
) -> MemoryRecord:
    return MemoryRecord(index, kind, text, when, importance, source)


def seeds(persona: Resident, importance: int = 0) -> tuple[MemoryRecord, ...]:
    """The persona's seed clauses as memories (importance from the brain if 0)."""
    from game.brains.scripted.lexicon import importance as rate

    return tuple(
        memory(i, text, importance=importance or rate(persona, text), when=DAY)
        for i, text in enumerate(persona.seed_memories())
    )


def context(
    persona: Resident,
    now: datetime = DAY + timedelta(hours=10),
    memories: tuple[MemoryRecord, ...] = (),
    status: str = "",
    location: str = "",
) -> AgentContext:
    return AgentContext(
        persona=persona,
        now=now,
        summary="",
        location=location or persona.home,
        status=status,
        memories=memories,
        known_places=persona.known_places,
        sectors=tuple(town().sectors()),
    )


@cache
def town() -> Town:
    """The big map, whose sectors (roles, hours) the scripted brain reads from a context."""
    return load_world("smallville")[1]


def roles_of(options) -> dict[str, Role | None]:
    """Each option's role on the big map, by name (as the architecture passes them)."""
    areas = town().areas.values()
    return {o: next((a.role for a in areas if a.name == o), None) for o in options}


def smallville() -> Scenario:
    try:
        return load_scenario("smallville")
    except Exception as exc:  # the file may still be being written
        pytest.skip(f"smallville scenario not available: {exc}")


def test_hand_made_personas_are_well_formed() -> None:
    for p in HAND_MADE:
        assert p.bed.startswith(p.home + ":")
        assert p.seed_memories()
