"""The day being planned as a timeline of slots, and the primitives that edit it.

Every edit paints a slot over the timeline (cutting what it covers) or joins two
neighbours, so the day stays contiguous from waking to sleeping by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta

from game.world.roles import Role
from game.world.scenario import Resident
from game.world.town import sector_of

from .activities import Activity, classify
from .places import Directory

MIN_ITEM_MINUTES = 15
JOINED_TEXT_LIMIT = 70  # two joined items read as 'having lunch and reading poetry'
MEAL_KINDS = frozenset({"breakfast", "eating", "eating_out", "cooking", "party"})


@dataclass
class Slot:
    """One stretch of the day being assembled (mutable, local to one plan_day call)."""

    start: datetime
    end: datetime
    text: str
    place: str
    kind: str
    fixed: bool = False
    filler: bool = False  # free time the planner chose, the first thing to give up

    @property
    def minutes(self) -> int:
        return int((self.end - self.start).total_seconds() // 60)


@dataclass(frozen=True)
class Day:
    """What every step of the assembly needs to know."""

    persona: Resident
    wake: datetime
    sleep: datetime
    seed: int
    known: frozenset[str]
    yesterday: str
    directory: Directory  # the town's places: their roles and opening hours

    def place(self, role: Role) -> str:
        """The known place for a purpose ('the cafe' is whichever place is one), or ''."""
        return self.directory.find(role, self.known)

    def is_open(self, sector: str, start: int, end: int) -> bool:
        return self.directory.is_open(sector, start, end)

    def key(self, *parts: object) -> tuple[object, ...]:
        return (self.seed, self.persona.name, self.wake.date().isoformat(), *parts)

    def at(self, minute: int, offset_days: int = 0) -> datetime:
        """The moment `minute` after midnight of the waking day (or a later day)."""
        base = datetime.combine(self.wake.date(), time()) + timedelta(days=offset_days)
        return base + timedelta(minutes=minute)

    def activity(self, text: str, place: str) -> Activity:
        return classify(text, sector_of(place) == self.persona.home if place else None)

    def slot(
        self,
        start: datetime,
        end: datetime,
        text: str,
        place: str,
        kind: str = "",
        fixed: bool = False,
        filler: bool = False,
    ) -> Slot:
        """A slot whose kind is its activity's key unless given."""
        kind = kind or self.activity(text, place).key
        return Slot(start, end, text, place, kind, fixed, filler)


def paint(slots: list[Slot], new: Slot) -> list[Slot]:
    """Lay `new` over the timeline, trimming or splitting whatever it covers."""
    out: list[Slot] = []
    for s in slots:
        if s.end <= new.start or s.start >= new.end:
            out.append(s)
            continue
        if s.start < new.start:
            out.append(replace(s, end=new.start))
        if s.end > new.end:
            out.append(replace(s, start=new.end))
    out.append(new)
    return sorted((s for s in out if s.end > s.start), key=lambda s: s.start)


def covering(slots: list[Slot], when: datetime) -> Slot | None:
    return next((s for s in slots if s.start <= when < s.end), None)


def merge_same(slots: list[Slot]) -> list[Slot]:
    out: list[Slot] = []
    for s in slots:
        if out and out[-1].text == s.text and out[-1].place == s.place:
            out[-1] = replace(out[-1], end=s.end)
        else:
            out.append(s)
    return out


def absorb_tiny(slots: list[Slot]) -> list[Slot]:
    """Slivers left by cutting join the item before them (or after, for the first)."""
    out: list[Slot] = []
    for s in slots:
        if s.minutes < MIN_ITEM_MINUTES and not s.fixed and out:
            out[-1] = replace(out[-1], end=s.end)
        else:
            out.append(s)
    if len(out) > 1 and out[0].minutes < MIN_ITEM_MINUTES and not out[0].fixed:
        out[1] = replace(out[1], start=out[0].start)
        out = out[1:]
    return out


def merge_shortest(slots: list[Slot]) -> list[Slot]:
    """Too many items: join two neighbours, best in the same place and one of them free
    time; the more important one (a meal, then the routine) keeps its words."""
    ok = [not s.fixed and s.kind != "morning" for s in slots]
    pairs = [i for i in range(len(slots) - 1) if ok[i] and ok[i + 1]]
    if not pairs:
        i = min(range(1, len(slots)), key=lambda k: slots[k].minutes)
        return [*slots[: i - 1], replace(slots[i - 1], end=slots[i].end), *slots[i + 1 :]]

    def cost(i: int) -> tuple[int, int, int]:
        a, b = slots[i], slots[i + 1]
        moved = sector_of(a.place) != sector_of(b.place)
        return (int(moved), max(_rank(a), _rank(b)), a.minutes + b.minutes)

    i = min(pairs, key=cost)
    return [*slots[:i], _join(slots[i], slots[i + 1]), *slots[i + 2 :]]


def merge_natural(slots: list[Slot]) -> list[Slot] | None:
    """Above the target size: join two neighbouring non-meal items in the same place."""
    ok = [not s.fixed and s.kind not in MEAL_KINDS and s.kind != "morning" for s in slots]
    same = [
        i
        for i in range(len(slots) - 1)
        if ok[i] and ok[i + 1] and sector_of(slots[i].place) == sector_of(slots[i + 1].place)
    ]
    if not same:
        return None
    i = min(same, key=lambda k: slots[k].minutes + slots[k + 1].minutes)
    return [*slots[:i], _join(slots[i], slots[i + 1]), *slots[i + 2 :]]


def _rank(s: Slot) -> int:
    """How much an item matters when two are joined: free time < routine < a meal."""
    return 0 if s.filler else 2 if s.kind in MEAL_KINDS else 1


def _join(a: Slot, b: Slot) -> Slot:
    keep = max((a, b), key=lambda s: (_rank(s), s.minutes))
    text = keep.text
    same_place = sector_of(a.place) == sector_of(b.place)
    plain = " and " not in a.text + b.text and " at " not in a.text + b.text
    if same_place and plain and len(a.text) + len(b.text) < JOINED_TEXT_LIMIT:
        text = f"{a.text} and {b.text}"
    return Slot(a.start, b.end, text, keep.place, keep.kind, filler=a.filler and b.filler)
