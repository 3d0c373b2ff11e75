"""Scenarios (docs/SCENARIO.md): the residents and the seeded intents, checked on load.

Every problem becomes a ScenarioError naming the file, the resident and the field, so a
person editing the JSON by hand sees exactly what to fix.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from game.core.clock import parse_hhmm
from game.core.errors import ScenarioError
from game.core.files import not_a_file
from game.core.names import name_problem, slug
from game.core.paths import MAPS, SCENARIOS
from game.core.records import Event, Introduction
from game.core.text import bounded_loads, clean, with_article
from game.world.town import AreaKind, Town, split

MAX_SCENARIO = 16 * 1024 * 1024  # bytes of a scenario file (the bundled one is ~40 KB)
HAIR_STYLES = ("short", "long", "bun", "bald", "curly", "ponytail")
# The years a scenario may start in: the simulation adds days and hours to its dates, and
# datetime stops at 9999-12-31 (a start of 9999-12-31 overflowed a few hours in).
FIRST_YEAR, LAST_YEAR = 1900, 2999


@dataclass(frozen=True)
class RoutineBlock:
    start: int  # minutes after midnight
    end: int
    place: str  # sector, sector:arena or full address
    activity: str


@dataclass(frozen=True)
class Look:
    skin: str
    hair: str
    shirt: str
    pants: str
    hair_style: str


@dataclass(frozen=True)
class Known:
    """What a resident knows of someone it has a relation with (set by the loader, see
    `acquaintance`): the words of its seed memory, and where they work, typed, so that
    'who works at Hobbs Cafe?' is answered by looking it up, not by reading the words."""

    name: str
    said: str
    workplace: str = ""
    occupation: str = ""


@dataclass(frozen=True)
class NextDoor:
    """A home near one's own and the residents who live there."""

    home: str
    residents: tuple[str, ...]


@dataclass(frozen=True)
class Resident:
    name: str
    age: int
    traits: tuple[str, ...]
    occupation: str
    wake: int
    sleep: int
    home: str
    bed: str
    workplace: str | None
    routine: tuple[RoutineBlock, ...]
    known_places: tuple[str, ...]
    relationships: tuple[tuple[str, str], ...]
    interests: tuple[str, ...]
    look: Look
    seed: str
    household: tuple[str, ...] = ()  # the others whose home is this one's (set by the loader)
    # what one knows of each one has a relation with (set by the loader)
    acquainted: tuple[Known, ...] = ()
    # the nearest other homes on the map and who lives there (set by `load_world`)
    neighbours: tuple[NextDoor, ...] = ()

    @property
    def first_name(self) -> str:
        return self.name.split()[0]

    @property
    def slug(self) -> str:
        """Its sprite sheet's file name (game.core.names.slug)."""
        return slug(self.name)

    def seed_memories(self) -> list[str]:
        """The seed paragraph split on semicolons: the paper's initial memories."""
        return [c.strip().rstrip(".") + "." for c in self.seed.split(";") if c.strip()]

    def relation_to(self, other: str) -> str | None:
        return dict(self.relationships).get(other)


_NEGATION = re.compile(
    r"\b(don't know|do not know|haven't heard|have not heard|not sure|no idea|never heard)\b",
    re.IGNORECASE,
)


_FIRST_PERSON = re.compile(r"\b(?:I'm|I am|I|me|my|myself)\b")


@dataclass(frozen=True)
class AnswerPart:
    """One thing a correct answer must name: any one of `any_of` ('host or place')."""

    what: str
    any_of: tuple[str, ...]

    def named_in(self, answer: str) -> bool:
        """Whole-word match, so 'Sam' is not found in 'same'."""
        return any(_word(term).search(answer) for term in self.any_of)


def _word(term: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(term)}(?![\w])", re.IGNORECASE)


# what a keyword's last word may end with and still be the keyword: a plural, a verb's
# forms, a possessive ('Valentine's'); 'ies' and 'ied' stand for a final 'y' ('parties')
_INFLECTED = r"(?:s|es|ed|d|ing|'s|\u2019s)?"


@functools.lru_cache(maxsize=256)
def _keyword(term: str) -> re.Pattern[str]:
    body = re.escape(term)
    if term.endswith("y") and len(term) > 2:
        body = rf"(?:{body}|{re.escape(term[:-1])}(?:ies|ied))"
    elif term.endswith("e"):
        body = rf"(?:{body}|{re.escape(term[:-1])}(?=ing))"  # 'volunteering' is in any case
    return re.compile(rf"(?<![\w]){body}{_INFLECTED}(?![\w])", re.IGNORECASE)


@dataclass(frozen=True)
class Rubric:
    """What an interview answer must contain to carry an intent's fact: every part.

    Declared per intent in the scenario, so a new scenario's facts are judged without
    code; the keyword judge and the scripted brain's judging rule both read it.
    """

    parts: tuple[AnswerPart, ...] = ()

    def missing(self, answer: str, me: str = "") -> tuple[str, ...]:
        """The parts the answer does not name (empty: it names them all). `me` is the
        speaker's name when the fact is about the speaker: 'I'm running for mayor' from
        Sam names Sam."""
        text = _FIRST_PERSON.sub(me, answer) if me else answer
        return tuple(p.what for p in self.parts if not p.named_in(text))

    def accepts(self, answer: str, me: str = "") -> bool:
        """Names every part and does not deny knowing ('I haven't heard of Sam ...')."""
        return bool(self.parts) and not self.missing(answer, me) and not denies(answer)

    def describe(self) -> str:
        return "; ".join(f"{p.what} (any of: {', '.join(p.any_of)})" for p in self.parts)


def denies(answer: str) -> bool:
    """The answer says the speaker does not know."""
    return bool(_NEGATION.search(answer))


MIN_PHRASINGS = 5  # a declared `questions` list: fewer give no median worth the name


@dataclass(frozen=True)
class Reference:
    """The published figures an intent is set beside in `study`'s table (the paper's,
    for the town it reproduces): how many knew at the end, were invited, came. Data of
    the scenario, so no code names the paper's events."""

    diffusion: float | None = None
    invited: float | None = None
    accepted: float | None = None
    attended: float | None = None


@dataclass(frozen=True)
class Intent:
    """Something a resident holds at the start. A public intent's diffusion is measured
    by asking every resident each of `questions` (the phrasings), each in a conversation
    of its own followed by `follow_up`: one wording's luck is not the measure."""

    id: str
    holder: str
    text: str
    keywords: tuple[str, ...]
    private: bool = False
    event: Event | None = None
    questions: tuple[str, ...] = ()  # the diffusion interview's phrasings (() = not asked)
    rubric: Rubric = Rubric()  # what a correct answer to a phrasing must name
    follow_up: str = ""  # asked next in the same conversation ('' = one question each)
    paper: Reference = Reference()

    @property
    def question(self) -> str:
        """The first phrasing ('' when the intent is not interviewed): the wording a
        single question (the judge's prompt, the battery) uses."""
        return self.questions[0] if self.questions else ""

    def mentioned_in(self, text: str) -> bool:
        """A keyword as a whole word, in any of its inflected forms ('volunteers' and
        'volunteering' for 'volunteer', 'parties' for 'party'), never inside another word:
        the keyword 'app' is not in 'happy' or 'apple'."""
        return any(_keyword(k).search(text) for k in self.keywords)

    def given_away(self, question: str) -> tuple[str, ...]:
        """The rubric terms a question names: an echo of it would pass for knowing."""
        return tuple(t for p in self.rubric.parts for t in p.any_of if _word(t).search(question))


@dataclass(frozen=True)
class Scenario:
    name: str
    path: str
    map_path: Path
    start: datetime
    intents: tuple[Intent, ...]
    residents: tuple[Resident, ...]

    def resident(self, name: str) -> Resident:
        for r in self.residents:
            if r.name == name:
                return r
        raise KeyError(name)

    def intent(self, intent_id: str) -> Intent:
        for i in self.intents:
            if i.id == intent_id:
                return i
        raise KeyError(intent_id)


def scenario_path(name_or_path: str | Path) -> Path:
    """A bundled scenario's name ('smallville', 'three') or a path to a JSON file."""
    text = str(name_or_path)
    if text.endswith(".json") or "/" in text or "\\" in text:
        return Path(text)
    return SCENARIOS / f"{text}.json"


def bundled_scenarios() -> list[str]:
    return sorted(p.stem for p in SCENARIOS.glob("*.json"))


def scenario_ref(path: str | Path) -> str:
    """How a save names its scenario: a bundled one by name, so that the save still loads
    from a checkout or install in another folder; any other by its path."""
    where = Path(path)
    if where.suffix == ".json" and where.parent.resolve() == SCENARIOS.resolve():
        return where.stem
    return str(path)


def saved_scenario(ref: str) -> str:
    """The scenario a save names, as `scenario_ref` wrote it. A save made before that
    named a bundled scenario by the path of the folder it was made in; when that path is
    gone and it was a bundled scenario's ('.../saves/scenarios/smallville.json'), the
    bundled one is meant."""
    where = scenario_path(ref)
    if where.is_file() or where.parent.name != SCENARIOS.name:
        return ref
    return where.stem if where.stem in bundled_scenarios() else ref


class _Reader:
    """Typed access to one JSON object, raising ScenarioError with its context."""

    def __init__(self, path: str, data: Any, resident: str | None = None) -> None:
        self.path, self.data, self.resident = path, data, resident
        if not isinstance(data, dict):
            self.fail(f"expected an object, got {type(data).__name__}")

    def fail(self, problem: str, field: str | None = None) -> None:
        raise ScenarioError(self.path, problem, self.resident, field)

    def get(self, field: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if field not in self.data:
            if default is ...:
                self.fail("missing", field)
            return default
        value = self.data[field]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            self.fail(f"expected {names}, got {type(value).__name__}", field)
        return value

    def text(self, field: str, default: Any = ...) -> str:
        value = self.get(field, str, default)
        if value is not None and isinstance(value, str):
            if not value.strip():
                self.fail("must not be empty", field)
            self.plain(value, field)
        return value

    def texts(self, field: str, default: Any = ...) -> tuple[str, ...]:
        value = self.get(field, list, default)
        if any(not isinstance(v, str) for v in value):
            self.fail("expected a list of strings", field)
        for v in value:
            self.plain(v, field)
        return tuple(value)

    def plain(self, value: str, field: str) -> None:
        """Text with nothing that repaints a terminal or reads differently from what it
        holds: no escapes, control (but newline and tab), bidi or zero-width characters."""
        if clean(value) != value:
            self.fail("holds control, bidi or zero-width characters", field)

    def name(self, field: str = "name") -> str:
        """A person's name (game.core.names): it becomes a file name and a prompt's word."""
        value = self.get(field, str)
        if problem := name_problem(value):
            self.fail(f"the name {problem}", field)
        return value

    def hhmm(self, field: str, value: Any = ...) -> int:
        raw = self.get(field, str) if value is ... else value
        try:
            return parse_hhmm(raw)
        except ValueError as exc:
            self.fail(str(exc), field)
            raise  # unreachable; for type checkers

    def when(self, field: str) -> datetime:
        """A local date and time in FIRST_YEAR..LAST_YEAR: the simulation's arithmetic on
        it stays inside what datetime can hold."""
        raw = self.get(field, str)
        try:
            moment = datetime.fromisoformat(raw)
        except ValueError:
            self.fail(f"expected a date and time like 2023-02-13T04:00, got {raw[:40]!r}", field)
            raise
        if moment.tzinfo is not None:
            self.fail(f"{raw[:40]!r}: give the town's local time, with no time zone", field)
        if not FIRST_YEAR <= moment.year <= LAST_YEAR:
            self.fail(f"year {moment.year} is outside {FIRST_YEAR}..{LAST_YEAR}", field)
        return moment


def load_scenario(name_or_path: str | Path, town: Town | None = None) -> Scenario:
    """Read and check a scenario; with a town, also check every place it names exists."""
    path = scenario_path(name_or_path)
    label = str(path)
    if problem := not_a_file(path):
        raise ScenarioError(label, f"cannot be read as a scenario: {problem}")
    if not path.is_file():
        names = ", ".join(bundled_scenarios())
        raise ScenarioError(label, f"no such scenario file (bundled scenarios: {names})")
    try:
        if path.stat().st_size > MAX_SCENARIO:
            raise ValueError(f"larger than a scenario can be ({MAX_SCENARIO} bytes)")
        data = bounded_loads(path.read_text(encoding="utf-8"), 32)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ScenarioError(label, f"not valid JSON ({exc})") from exc
    top = _Reader(label, data)
    if top.get("format", int) != 1:
        top.fail("unsupported format version (this game reads format 1)", "format")
    residents = _residents(label, top.get("residents", list))
    names = {r.name for r in residents}
    intents = tuple(_intent(label, raw, names) for raw in top.get("intents", list, []))
    residents = _holders_told(residents, intents)
    scenario = Scenario(
        name=top.text("name"),
        path=label,
        map_path=MAPS / top.text("map"),
        start=top.when("start"),
        intents=intents,
        residents=residents,
    )
    _check_relationships(label, scenario)
    if town is not None:
        check_against_town(scenario, town)
    return scenario


def _holders_told(residents: tuple[Resident, ...], intents: tuple[Intent, ...]
                  ) -> tuple[Resident, ...]:
    """An intent's holder knows it at the start: when no clause of the holder's seed
    speaks of it (by its keywords, or its own words), its text becomes one more clause,
    so a scenario that declares an intent and forgets the seed sentence still has a host
    who knows of the event (a new intent's host once knew nothing of it, and nobody did)."""
    out = []
    for r in residents:
        mine = [i for i in intents if i.holder == r.name]
        clauses = r.seed_memories()
        missing = [i.text.strip().rstrip(".") for i in mine
                   if not any(i.mentioned_in(c) or i.text.lower() in c.lower() for c in clauses)]
        out.append(replace(r, seed="; ".join([r.seed.strip().rstrip(";"), *missing]).strip("; "))
                   if missing else r)  # fmt: skip
    return tuple(out)


def _residents(label: str, raw: list) -> tuple[Resident, ...]:
    if not raw:
        raise ScenarioError(label, "no residents", field="residents")
    out: list[Resident] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        name = item.get("name") if isinstance(item, dict) else None
        who = name if isinstance(name, str) and name.strip() else f"#{i + 1}"
        resident = _resident(_Reader(label, item, who))
        key = slug(resident.name)  # 'Klaus Müller' twice (NFC, NFD), or 'klaus mueller'
        if key in seen:  # look alike in the window, and share a sprite file's name
            raise ScenarioError(label, "duplicate name (or one that looks the same)",
                                resident.name, "name")  # fmt: skip
        seen.add(key)
        out.append(resident)
    return tuple(with_households(out))


def with_households(residents: list[Resident]) -> list[Resident]:
    """Each resident with the others who share its home: what 'who do you live with' is
    answered from, rather than read from how a relationship is worded; and with what it
    knows of each resident it has a relation with (see `acquaintance`)."""
    by_name = {o.name: o for o in residents}
    return [
        replace(
            r,
            household=tuple(o.name for o in residents if o.home == r.home and o is not r),
            acquainted=tuple(known_of(by_name[n]) for n, _ in r.relationships
                             if n in by_name and n != r.name),  # fmt: skip
        )
        for r in residents
    ]


def known_of(other: Resident) -> Known:
    """What is known of `other` by those who know them."""
    work = other.workplace if other.workplace != other.home else ""
    return Known(other.name, acquaintance(other), work, other.occupation)


def introduced_as(name: str, intro: Introduction) -> Known:
    """What one knows of someone who told one who they are (a line's `introduces`): their
    work and workplace, not their home or interests, which they did not tell."""
    said = f"{name} is {with_article(_work(intro.occupation, intro.workplace))}"
    return Known(name, f"{said}, as I learned when we met.", intro.workplace, intro.occupation)


def _work(occupation: str, workplace: str) -> str:
    """'bartender at The Rose and Crown Pub'; the occupation alone when it names the place."""
    named = not workplace or workplace in occupation
    return occupation if named else f"{occupation} at {workplace}"


def acquaintance(other: Resident) -> str:
    """What a small town knows of someone one knows: their work, their home and what they
    are into. It becomes a seed memory, so that 'what does Klaus do?' and 'where does he
    live?' are answered from memory, as the paper's seeds tell each agent of its
    neighbours."""
    work = _work(other.occupation, other.workplace if other.workplace != other.home else "")
    into = " and ".join(", ".join(other.interests).rsplit(", ", 1)) if other.interests else ""
    tail = f" and is into {into}" if into else ""
    home = other.home
    if home[:1].islower() or " family's " in home:  # 'the Lin family's house'
        home = f"the {home}"
    return f"{other.name} is {with_article(work)}, lives at {home}{tail}."


def _resident(r: _Reader) -> Resident:
    age = r.get("age", int)
    if not 0 < age < 130:
        r.fail(f"age {age} is not a person's age", "age")
    look = _Reader(r.path, r.get("look", dict), r.resident)
    style = look.text("hair_style")
    if style not in HAIR_STYLES:
        look.fail(f"unknown hair_style {style!r} (one of {', '.join(HAIR_STYLES)})", "look")
    rels = r.get("relationships", dict, {})
    if any(not isinstance(v, str) for v in rels.values()):
        r.fail("expected an object of name -> description", "relationships")
    for other, relation in rels.items():
        r.plain(other + relation, "relationships")
    return Resident(
        name=r.name(),
        age=age,
        traits=r.texts("traits"),
        occupation=r.text("occupation"),
        wake=r.hhmm("wake"),
        sleep=r.hhmm("sleep"),
        home=r.text("home"),
        bed=r.text("bed"),
        workplace=r.get("workplace", (str, type(None)), None),
        routine=tuple(_block(r, b) for b in r.get("routine", list)),
        known_places=r.texts("known_places", []),
        relationships=tuple(rels.items()),
        interests=r.texts("interests", []),
        look=Look(*(look.text(k) for k in ("skin", "hair", "shirt", "pants")), style),
        seed=r.text("seed"),
    )


def _block(r: _Reader, raw: Any) -> RoutineBlock:
    if not isinstance(raw, dict):
        r.fail("each routine block must be an object", "routine")
    b = _Reader(r.path, raw, r.resident)
    try:
        return RoutineBlock(
            parse_hhmm(b.get("start", str)),
            parse_hhmm(b.get("end", str)),
            b.text("place"),
            b.text("activity"),
        )
    except ValueError as exc:
        r.fail(str(exc), "routine")
        raise


def _intent(label: str, raw: Any, names: set[str]) -> Intent:
    r = _Reader(label, raw)
    intent_id = r.text("id")
    holder = r.text("holder")
    if holder not in names:
        raise ScenarioError(
            label, f"intent {intent_id!r}: holder {holder!r} is not a resident", field="intents"
        )
    event = None
    if "event" in raw:
        e = _Reader(label, r.get("event", dict))
        what = e.get("what", str, "")
        event = Event(e.text("place"), e.when("start"), e.when("end"), what, holder)
        e.plain(what, "what")
        if event.end <= event.start:
            e.fail(f"intent {intent_id!r}: the event ends before it starts", "end")
    keywords = tuple(k.lower() for k in r.texts("keywords"))
    if not keywords:
        r.fail(f"intent {intent_id!r} needs at least one keyword", "keywords")
    rubric = Rubric(tuple(_part(r, intent_id, p) for p in r.get("answer_must_name", list, [])))
    questions, follow_up = _phrasings(r, intent_id)
    if questions and not rubric.parts:
        r.fail(f"intent {intent_id!r} has a question but no answer_must_name", "answer_must_name")
    private = bool(r.get("private", bool, False))
    intent = Intent(intent_id, holder, r.text("text"), keywords, private, event,
                    questions, rubric, follow_up, _reference(r, intent_id))  # fmt: skip
    if "questions" in raw:  # the single `question` of older files is taken as it was
        for q in (*questions, follow_up):
            if terms := intent.given_away(q):
                r.fail(f"intent {intent_id!r}: {q!r} gives the answer away "
                       f"(names {', '.join(terms)})", "questions")  # fmt: skip
    return intent


def _phrasings(r: _Reader, intent_id: str) -> tuple[tuple[str, ...], str]:
    """`questions` (at least MIN_PHRASINGS, none twice) or, as older scenarios have it,
    one `question`; and the optional `follow_up` asked after each."""
    if "questions" in r.data and "question" in r.data:
        r.fail(f"intent {intent_id!r}: give either questions or question, not both", "questions")
    if "questions" in r.data:
        questions = tuple(q.strip() for q in r.texts("questions"))
        if len(questions) < MIN_PHRASINGS:
            r.fail(f"intent {intent_id!r}: at least {MIN_PHRASINGS} phrasings, "
                   f"got {len(questions)}", "questions")  # fmt: skip
        if any(not q for q in questions):
            r.fail(f"intent {intent_id!r}: a phrasing is empty", "questions")
        if len({q.lower() for q in questions}) < len(questions):
            r.fail(f"intent {intent_id!r}: a phrasing is given twice", "questions")
    else:
        question = r.text("question", None)
        questions = (question.strip(),) if question else ()
    follow_up = (r.text("follow_up", None) or "").strip()
    if follow_up and not questions:
        r.fail(f"intent {intent_id!r}: a follow_up needs questions to follow", "follow_up")
    return questions, follow_up


def _reference(r: _Reader, intent_id: str) -> Reference:
    """{"diffusion": 13, "invited": 12, "attended": 5}: the published figures, if any."""
    raw = r.get("paper", dict, {})
    fields = Reference.__dataclass_fields__
    for key, value in raw.items():
        if key not in fields:
            r.fail(f"intent {intent_id!r}: unknown figure {key!r} "
                   f"(one of {', '.join(fields)})", "paper")  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            r.fail(f"intent {intent_id!r}: {key!r} must be a number", "paper")
    return Reference(**{k: float(v) for k, v in raw.items()})


def _part(r: _Reader, intent_id: str, raw: Any) -> AnswerPart:
    """{"what": "host or place", "any_of": ["isabella", "hobbs cafe"]}"""
    if not isinstance(raw, dict):
        r.fail(
            f"intent {intent_id!r}: each answer_must_name entry is an object", "answer_must_name"
        )
    p = _Reader(r.path, raw)
    terms = tuple(t.strip() for t in p.texts("any_of") if t.strip())
    if not terms:
        p.fail(f"intent {intent_id!r}: any_of needs at least one term", "answer_must_name")
    return AnswerPart(p.text("what"), terms)


def _check_relationships(label: str, scenario: Scenario) -> None:
    names = {r.name for r in scenario.residents}
    for res in scenario.residents:
        for other, _ in res.relationships:
            if other not in names:
                raise ScenarioError(
                    label, f"names {other!r}, who is not a resident", res.name, "relationships"
                )


def check_against_town(scenario: Scenario, town: Town) -> None:
    """Every place a resident or intent names must exist on the map, with a walkable tile
    to stand on: a map whose tiles were all blocked loaded and ran without a word, each
    resident asleep in its bed, then 'making espresso' at home, never reaching the cafe."""
    label = scenario.path

    def need(address: str, resident: str | None, field: str, kind: AreaKind | None = None) -> None:
        area = town.find(address)
        if area is None:
            raise ScenarioError(label, f"unknown place {address!r}", resident, field)
        if kind is not None and area.kind is not kind:
            raise ScenarioError(
                label, f"{address!r} is a {area.kind.value}, not a {kind.value}", resident, field
            )
        if town.access_tile(area.address) is None:
            problem = f"{address!r} has no walkable tile on the map (every tile there is blocked)"
            raise ScenarioError(label, problem, resident, field)

    for res in scenario.residents:
        need(res.home, res.name, "home", AreaKind.SECTOR)
        need(res.bed, res.name, "bed", AreaKind.OBJECT)
        if split(res.bed)[0] != res.home:
            raise ScenarioError(label, f"bed {res.bed!r} is not in their home", res.name, "bed")
        if res.workplace is not None:
            need(res.workplace, res.name, "workplace", AreaKind.SECTOR)
        for block in res.routine:
            need(block.place, res.name, "routine")
        for place in res.known_places:
            need(place, res.name, "known_places", AreaKind.SECTOR)
    for intent in scenario.intents:
        if intent.event is not None:
            need(intent.event.place, None, f"intents.{intent.id}.event.place")


def load_world(name_or_path: str | Path) -> tuple[Scenario, Town]:
    """The scenario and its map, checked against each other."""
    from game.world.tmx import load_town

    scenario = load_scenario(name_or_path)
    town = load_town(scenario.map_path)
    check_against_town(scenario, town)
    return with_neighbours(scenario, town), town


NEIGHBOUR_HOMES = 2  # at most this many of the nearest other homes count as next door,
NEXT_DOOR = 1.5  # each no farther than this many times the nearest one


def with_neighbours(scenario: Scenario, town: Town) -> Scenario:
    """Each resident with the residents of the nearest other homes, by the map: what
    'who are your neighbours?' is answered from. Geometry, not words: no scenario says
    who lives next door, and a resident's relationships need not include them."""
    centre: dict[str, tuple[float, float]] = {}
    for res in scenario.residents:
        area = town.find(res.home)
        if area is not None:
            rect = area.rect
            centre[res.home] = (rect.x + rect.w / 2, rect.y + rect.h / 2)

    def near(home: str) -> tuple[NextDoor, ...]:
        if home not in centre:
            return ()
        x, y = centre[home]
        others = sorted((h for h in centre if h != home),
                        key=lambda h: ((centre[h][0] - x) ** 2 + (centre[h][1] - y) ** 2, h))
        dist = [((centre[h][0] - x) ** 2 + (centre[h][1] - y) ** 2) ** 0.5 for h in others]
        homes = [h for h, d in zip(others[:NEIGHBOUR_HOMES], dist, strict=False)
                 if d <= NEXT_DOOR * dist[0]]  # fmt: skip
        return tuple(NextDoor(h, tuple(r.name for r in scenario.residents if r.home == h))
                     for h in homes)  # fmt: skip

    residents = tuple(replace(r, neighbours=near(r.home)) for r in scenario.residents)
    return replace(scenario, residents=residents)
