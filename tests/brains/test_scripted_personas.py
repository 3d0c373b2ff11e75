"""Hand-made personas and contexts shared by the scripted-brain tests.

They are built with the Resident dataclass directly (no scenario file), and cover the odd
cases: no routine at all, a night owl whose day ends after midnight, a gruff early bird.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import cache

import pytest

from game.brains import questions as q
from game.brains.questions import AgentContext
from game.brains.scripted import ScriptedBrain, places
from game.core.records import (
    Fact,
    FactKind,
    MemoryKind,
    MemoryRecord,
    Observation,
    PlanItem,
    Source,
    Utterance,
)
from game.mind import facts
from game.world.roles import Role
from game.world.scenario import (
    Intent,
    Look,
    Resident,
    RoutineBlock,
    Scenario,
    load_world,
)
from game.world.town import AreaKind, Town

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
    fact: Fact | None = None,
    when: datetime = DAY + timedelta(hours=9),
) -> MemoryRecord:
    """A memory of the given fact (a bare statement of the text if none is given)."""
    fact = fact or Fact(FactKind.STATEMENT, Source.SELF, object=text)
    return MemoryRecord(index, kind, text, when, importance, fact)


def of(index: int, fact: Fact, kind: MemoryKind, importance: int, when: datetime) -> MemoryRecord:
    """A memory whose text is rendered from its fact, as the architecture writes it."""
    return MemoryRecord(index, kind, facts.render(fact), when, importance, fact)


def intents() -> tuple[Intent, ...]:
    return smallville().intents


def heard(
    index: int, speaker: str, said: str, importance: int = 7, when: datetime = DAY, shared=None
) -> MemoryRecord:
    """News heard from a resident: with the speaker's fields if given, else tied to the
    scenario intent its words name (as a model's line is)."""
    intent = None if shared else facts.intent_named(said, intents())
    fact = facts.claim(speaker, said, shared, intent)
    return of(index, fact, MemoryKind.CHAT, importance, when)


def seen(index: int, name: str, doing: str, when: datetime = DAY + timedelta(hours=9)):
    return of(index, facts.doing(name, doing, Source.SEEN), MemoryKind.OBSERVATION, 3, when)


def did(index: int, name: str, doing: str, when: datetime = DAY + timedelta(hours=9)):
    return of(index, facts.doing(name, doing, Source.SELF), MemoryKind.OBSERVATION, 3, when)


def talked(
    index: int,
    holder: str,
    pair: tuple[str, str],
    lines: Sequence[tuple[str, str] | Utterance],
    importance: int = 4,
    when: datetime = DAY + timedelta(hours=9),
) -> MemoryRecord:
    said = [u if isinstance(u, Utterance) else Utterance(*u) for u in lines]
    return of(index, facts.conversation(holder, pair, said), MemoryKind.CHAT, importance, when)


def planned(index: int, name: str, items: Sequence[PlanItem], when: datetime) -> MemoryRecord:
    return of(index, facts.plan(name, items), MemoryKind.PLAN, 7, when)


def seeds(persona: Resident, importance: int = 0) -> tuple[MemoryRecord, ...]:
    """The persona's seed clauses as memories (importance from the brain if 0), tied to the
    smallville intents they name as the architecture ties them."""
    from game.brains.scripted.lexicon import importance as rate

    known = intents() if persona in smallville().residents else ()
    out = []
    for i, text in enumerate(persona.seed_memories()):
        fact = facts.seed(persona, text, known)
        rating = importance or rate(persona, text, fact)
        out.append(of(i, fact, MemoryKind.OBSERVATION, rating, DAY))
    return tuple(out)


def see(name: str, doing: str = "reading", visitor: bool = False) -> Observation:
    fact = facts.doing(name, doing, Source.VISITOR if visitor else Source.SEEN)
    return Observation(name, facts.render(fact), True, doing, fact)


def see_object(address: str, state: str) -> Observation:
    fact = facts.object_state(address, state)
    return Observation(address, facts.render(fact), False, state, fact)


class Brain:
    """The scripted brain asked through its typed questions, with short calls for tests."""

    def __init__(self, seed: int = 0) -> None:
        self.inner = ScriptedBrain(seed)
        self.seed = seed

    def ask(self, question):
        return self.inner.ask(question)

    def rate_importance(self, persona: Resident, texts: Sequence[str]) -> tuple[int, ...]:
        drafts = tuple(q.Draft(MemoryKind.OBSERVATION, t, memory(0, t).fact) for t in texts)
        return self.ask(q.RateImportance(persona, drafts))

    def plan_day(self, ctx: AgentContext, yesterday: str, wake: datetime) -> list[PlanItem]:
        from game.brains.scripted.plans import sleep_time

        sleep = sleep_time(ctx.persona, wake)
        return list(self.ask(q.PlanDay(ctx, yesterday, wake, sleep)))

    def decompose(self, ctx: AgentContext, item: PlanItem, grain: int) -> list[PlanItem]:
        if grain >= 60:
            return [c.item for c in self.ask(q.DecomposeHours(ctx, item))]
        return list(self.ask(q.DecomposeSteps(ctx, item)))

    def choose_area(
        self, ctx, action, level: AreaKind, options, current="", hint="", roles=None
    ) -> str:
        where = places.Directory.of(ctx)
        return places.choose(ctx.persona, action, level, list(options), current, hint, roles, where)

    def object_state(self, persona: Resident, action: str, obj: str, old: str) -> str:
        return self.ask(q.ActionDetails(persona, action, obj, old)).state

    def emoji(self, action: str) -> str:
        return self.ask(q.Emoji(LEO, action))

    def react(self, ctx: AgentContext, observation: Observation):
        return self.ask(q.React(ctx, observation))

    def utter(self, ctx: AgentContext, partner: str, history) -> Utterance:
        return self.ask(q.Utter(ctx, partner, tuple(history)))

    def reflect_questions(self, persona: Resident, memories) -> list[str]:
        return list(self.ask(q.ReflectQuestions(persona, tuple(memories))))

    def insights(self, persona: Resident, question: str, memories) -> list:
        return list(self.ask(q.Insights(persona, question, tuple(memories))))

    def summarize(self, persona: Resident, topic: str, memories) -> str:
        return self.ask(q.Summarize(persona, topic, tuple(memories)))

    def answer(self, ctx: AgentContext, question: str) -> str:
        return self.ask(q.Answer(ctx, question))


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
        return _load("smallville")
    except Exception as exc:  # the file may still be being written
        pytest.skip(f"smallville scenario not available: {exc}")


@cache
def _load(name: str) -> Scenario:
    return load_world(name)[0]  # as a game loads it: with the neighbours the map gives
