"""How well residents talk, judged against ground truth only.

Runs the scripted 25-resident town (scenario smallville) per seed and, at fixed game times
(by default the afternoon before the scenario's event and the morning after it ended;
`--times` adds others, such as a first morning), asks ten
residents spread over the households every question of benchmarks/data/conversation_questions.json
through `game.sim.evaluation.ask_many` (single questions one by one, follow-up pairs as one
conversation). Each answer is judged by game/sim/talk_judge.py against truth read from the
persona (occupation, workplace, home and household, relationships, interests, wake and
sleep, routine), the resident's day plan, its current action and place, the event log and
what its memories hold by field (tagged with an intent, heard from whom, an rsvp). The
question set and this truth were written without reading the answering code's tables.

Also measured from the residents' own conversations (the event log's conversations, the
visitor's excluded):
(a) the share of questions answered: every line's last sentence ending in '?' and the
    partner's next line, judged by `talk_judge.answers` (a yes/no word for a yes/no
    question, a time for 'when', a place for 'where', a name for 'who', or a shared
    content word; a denial or a bare counter-question answers nothing; a question with no
    next line is unanswered);
(b) distinct sentence shapes: every sentence with names, places, numbers and topic words
    (intent keywords, interests, occupations, the actions in the log) made placeholders
    (`talk_judge.shape`), beside benchmarks/dialogue.py's distinct-sentence share;
(c) news from the visitor that travels: at a fixed time a visitor tells one resident of an
    event that is not in the scenario; 24 game hours later, the residents holding a memory
    that names it, and those who can tell about it when asked.

Usage: python benchmarks/conversation.py [--seeds 7 8] [--residents 10] [--hours 53]
       [--times 2023-02-13T10:00 ...] [--workers 2] [--questions FILE]
       (progress on stderr; last line JSON)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.outputs import writable, written  # noqa: E402
from game.core.records import FactKind, Rsvp, Source  # noqa: E402
from game.sim import measures  # noqa: E402
from game.sim.evaluation import ask_many  # noqa: E402
from game.sim.events import EventKind  # noqa: E402
from game.sim.factory import build_simulation  # noqa: E402
from game.sim.talk_judge import (  # noqa: E402
    Expectation,
    Lexicon,
    Verdict,
    answers,
    judge,
    last_question,
    names_any,
    sentences,
    shape,
    speaks_as_upcoming,
    speaks_in_past,
    words,
)
from game.world import troubles  # noqa: E402
from game.world.town import AreaKind, split  # noqa: E402

QUESTIONS = Path(__file__).resolve().parent / "data" / "conversation_questions.json"
# the afternoon before the party (it is upcoming, today) and the morning after it (ended);
# add 2023-02-13T10:00 for a first morning (each time costs ~10 residents x 400 answers)
TIMES = ("2023-02-14T15:00", "2023-02-15T09:00")
PLANT_AT = "2023-02-13T11:00"
VISITOR = "Vera Visitor"
NEWS = "Have you heard? There is a bake sale at Oak Hill College on Friday at 3 pm."
NEWS_NEED = (("bake sale",), ("Oak Hill College", "college", "Friday", "3 pm", "3pm", "three"))
NEWS_ASK = ("Have you heard about a bake sale?", "Is there a bake sale coming up anywhere?")
FAMILY = re.compile(
    r"\b(wife|husband|son|daughter|mother|father|mom|dad|brother|sister|parent|child|"
    r"grandson|granddaughter|grandmother|grandfather|aunt|uncle|cousin|partner|spouse)\b"
)
CHILDREN = re.compile(r"\b(son|daughter|child)\b")
PARENTS = re.compile(r"\b(mother|father|mom|dad|parent)\b")
SPOUSE = re.compile(r"\b(wife|husband|spouse)\b")
FOOD = re.compile(r"cafe|kitchen|bar|counter|market|pub|restaurant|grocery|dining")
_GENERIC = "house home space apartment room family place dorm"
GENERIC = frozenset(_GENERIC.split())
_NUMBERS = "twelve one two three four five six seven eight nine ten eleven twelve"
NUMBER_WORDS = _NUMBERS.split()
_DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
DAY_NAMES = _DAYS.split()
EVENT_FIELDS = ("event_", "host", "place_event", "rsvp", "attended")


# -- time words ---------------------------------------------------------------------------


def clock_terms(minutes: int) -> tuple[str, ...]:
    """The ways an answer may name a clock time: '8 pm', '8:00 pm', '20:00', 'eight'."""
    h, m = divmod(minutes % 1440, 60)
    h12, half = h % 12 or 12, "am" if h < 12 else "pm"
    out = [f"{h12}:{m:02d} {half}", f"{h12}:{m:02d}{half}", f"{h:02d}:{m:02d}", f"{h}:{m:02d}"]
    if m == 0:
        out += [f"{h12} {half}", f"{h12}{half}", NUMBER_WORDS[h12], f"{NUMBER_WORDS[h12]} o'clock"]
    if (h, m) == (0, 0):
        out.append("midnight")
    if (h, m) == (12, 0):
        out.append("noon")
    return tuple(out)


def minute_of(when: datetime) -> int:
    return when.hour * 60 + when.minute


def day_terms(when: datetime, now: datetime) -> tuple[str, ...]:
    """A date as an answer may name it, absolute and relative to `now`."""
    month, day = when.strftime("%B"), when.day
    out = [f"{month} {day}", f"{month[:3]} {day}", f"{month} {day}th", f"{day}th of {month}"]
    out.append(DAY_NAMES[when.weekday()])
    delta = (when.date() - now.date()).days
    evening = when.hour >= 17
    out += {
        0: ["today", "tonight" if evening else "this morning", "this evening"],
        1: ["tomorrow", "tomorrow evening" if evening else "tomorrow morning"],
        -1: ["yesterday", "last night" if evening else "yesterday morning"],
    }.get(delta, [])
    return tuple(out)


_MEMO: dict[Any, Any] = {}


def memo(sim, key: Any, make) -> Any:
    """What `make` gives, computed once per step of the simulation: ground truth read
    from the whole memory stream or the log is asked for by many questions."""
    stamp = (id(sim), sim.steps, sim.now)
    if _MEMO.get("stamp") != stamp:
        _MEMO.clear()
        _MEMO["stamp"] = stamp
    if key not in _MEMO:
        _MEMO[key] = make()
    return _MEMO[key]


# -- ground truth ---------------------------------------------------------------------------


@dataclass
class Truth:
    """Ground truth for one resident at one moment, field by field (the question set's
    vocabulary). A field is a tuple of terms an answer may name, or a bool for yes/no."""

    sim: Any
    name: str
    vocab: dict[str, list[str]]
    event: Any = None  # a scenario intent with an event
    campaign: Any = None  # a public intent without one
    cache: dict[str, Any] = field(default_factory=dict)

    @property
    def agent(self):
        return self.sim.agents[self.name]

    @property
    def persona(self):
        return self.agent.persona

    @property
    def now(self) -> datetime:
        return self.sim.now

    def get(self, key: str) -> Any:
        if key not in self.cache:
            self.cache[key] = self._compute(key)
        return self.cache[key]

    def _compute(self, key: str) -> Any:
        if key.startswith("vocab:"):
            return tuple(self.vocab[key[6:]])
        if key.startswith("="):
            return (key[1:],)
        base, _, arg = key.partition(":")
        return getattr(self, "f_" + base)(arg) if arg else getattr(self, "f_" + base)()

    def records(self) -> list:
        return memo(self.sim, ("records", self.name), lambda: measures.records(self.agent))

    # people and places -------------------------------------------------------------------
    def resident(self, name: str):
        return self.sim.agents[name].persona

    def residents(self):
        return [a.persona for a in self.sim.agents.values()]

    def first(self, names: Sequence[str]) -> tuple[str, ...]:
        return tuple(sorted({n.split()[0] for n in names}))

    def relations(self) -> list[tuple[str, str]]:
        return [(n, r) for n, r in self.persona.relationships if n in self.sim.agents]

    def family_names(self) -> list[str]:
        return [n for n, r in self.relations() if FAMILY.search(r.lower())]

    def name_parts(self) -> set[str]:
        return {w.lower() for p in self.residents() for w in p.name.split()}

    def place_terms(self, place: str) -> tuple[str, ...]:
        """A sector or address: its parts, and the distinctive words of its sector."""
        parts = split(place)
        if not parts:
            return ()
        own = [w for w in words(parts[0]) if w not in GENERIC and w not in self.name_parts()]
        return tuple(dict.fromkeys([*parts, *(w for w in own if len(w) >= 5)]))

    def objects_under(self, sector: str) -> list[str]:
        town = self.sim.town
        return [
            a.address
            for a in town.areas.values()
            if a.kind is AreaKind.OBJECT and split(a.address)[0] == sector
        ]

    def arenas(self, sector: str) -> tuple[str, ...]:
        town = self.sim.town
        if town.find(sector) is None:
            return ()
        return tuple(a.name for a in town.children(sector, AreaKind.ARENA))

    def own_places(self) -> set[str]:
        p = self.persona
        places = {p.home, p.workplace or "", *p.known_places}
        return places | {split(b.place)[0] for b in p.routine}

    # the self ----------------------------------------------------------------------------
    def f_name(self):
        return (self.name,)

    def f_first_name(self):
        return (self.persona.first_name,)

    def f_age(self):
        return (str(self.persona.age),)

    def f_traits(self):
        return tuple(self.persona.traits)

    def f_seed_words(self):
        mine = self.name_parts()
        return tuple(sorted({w for w in words(self.persona.seed) if len(w) >= 5} - mine))

    def f_occupation(self):
        return tuple(w for w in words(self.persona.occupation) if len(w) >= 4)

    def f_student(self):
        return "student" in self.persona.occupation.lower()

    def f_workplace(self):
        return self.place_terms(self.persona.workplace or "")

    def f_works_at_home(self):
        return self.persona.workplace == self.persona.home

    def f_other_workplaces(self):
        mine = self.own_places()
        return tuple({p.workplace for p in self.residents() if p.workplace} - mine)

    def f_other_homes(self):
        mine = self.own_places()
        return tuple({p.home for p in self.residents()} - mine)

    def f_home(self):
        return self.place_terms(self.persona.home)

    def housemate_names(self) -> list[str]:
        home = self.persona.home
        return [p.name for p in self.residents() if p.home == home and p.name != self.name]

    def f_housemates(self):
        return self.first(self.housemate_names())

    def f_not_housemates(self):
        keep = set(self.f_housemates()) | {self.persona.first_name}
        others = [p.name for p in self.residents() if p.home != self.persona.home]
        return tuple(n for n in self.first(others) if n not in keep)

    def f_household_size(self):
        n = len(self.housemate_names()) + 1
        return (str(n), NUMBER_WORDS[n]) if n < 12 else (str(n),)

    def f_alone(self):
        return not self.housemate_names()

    def f_not_alone(self):
        return bool(self.housemate_names())

    def f_home_arenas(self):
        return self.arenas(self.persona.home)

    def f_home_objects(self):
        return tuple(sorted({split(a)[-1] for a in self.objects_under(self.persona.home)}))

    def f_married(self):
        return any(SPOUSE.search(r.lower()) for _, r in self.relations())

    def f_family(self):
        return self.first(self.family_names())

    def f_family_relation(self):
        fam = set(self.family_names())
        return tuple(sorted({w for n, r in self.relations() if n in fam for w in words(r)}))

    def f_family_occupation(self):
        return tuple(
            sorted({w for n in self.family_names() for w in words(self.resident(n).occupation)})
        )

    def f_has_family(self):
        return bool(self.family_names())

    def f_has_children(self):
        return any(CHILDREN.search(r.lower()) for _, r in self.relations())

    def f_has_parents(self):
        return any(PARENTS.search(r.lower()) for _, r in self.relations())

    def f_family_at_home(self):
        return bool(set(self.family_names()) & set(self.housemate_names()))

    def f_friends(self):
        fam = set(self.family_names())
        return self.first([n for n, _ in self.relations() if n not in fam])

    def f_relation_words_friends(self):
        fam = set(self.family_names())
        return tuple(sorted({w for n, r in self.relations() if n not in fam for w in words(r)}))

    def f_relation_words_housemates(self):
        mates = set(self.housemate_names())
        return tuple(sorted({w for n, r in self.relations() if n in mates for w in words(r)}))

    def colleague_names(self) -> list[str]:
        work = self.persona.workplace
        if not work or work == self.persona.home:
            return []
        return [p.name for p in self.residents() if p.workplace == work and p.name != self.name]

    def f_colleagues(self):
        return self.first(self.colleague_names())

    def f_place_people_work(self):
        return self.f_colleagues()

    def partners(self, day: datetime | None) -> tuple[str, ...]:
        """Whom the resident talked with (from the log), on one day or ever."""
        out = set()
        for e in memo(self.sim, "talks", lambda: self.sim.log.of(EventKind.CONVERSATION)):
            people = e.data.get("participants", [])
            if e.data.get("visitor") or self.name not in people or e.time > self.now:
                continue
            if day is None or e.time.date() == day.date():
                out |= {p for p in people if p != self.name}
        return self.first(sorted(out))

    def f_talk_partners(self):
        return self.partners(None)

    def f_talked_today(self):
        return self.partners(self.now)

    def f_talked_yesterday(self):
        return self.partners(self.now - timedelta(days=1))

    def f_interests(self):
        ints = self.persona.interests
        return tuple(dict.fromkeys([*ints, *(w for i in ints for w in words(i))]))

    def f_wake_time(self):
        return clock_terms(self.persona.wake)

    def f_sleep_time(self):
        return clock_terms(self.persona.sleep)

    def f_sleep_hours(self):
        hours = round(((self.persona.wake - self.persona.sleep) % 1440) / 60)
        word = NUMBER_WORDS[hours % 12] if hours != 12 else "twelve"
        return (f"{hours} hours", f"{word} hours")

    def f_early_riser(self):
        return self.persona.wake <= 7 * 60

    def f_late_sleeper(self):
        return self.persona.sleep >= 23 * 60 or self.persona.sleep < 4 * 60

    def block_terms(self, blocks) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys(
                t for b in blocks for t in (*words(b.activity), *self.place_terms(b.place)[:1])
            )
        )

    def f_routine(self):
        return self.block_terms(self.persona.routine)

    def f_routine_first(self):
        return self.block_terms(self.persona.routine[:1])

    def f_routine_last(self):
        return self.block_terms(self.persona.routine[-1:])

    def f_routine_at(self, hhmm: str):
        m = int(hhmm[:2]) * 60 + int(hhmm[3:])
        return self.block_terms([b for b in self.persona.routine if b.start <= m < b.end])

    def f_routine_when(self, word: str):
        hits = [b for b in self.persona.routine if word in b.activity.lower()]
        return tuple(t for b in hits for t in clock_terms(b.start))

    def f_routine_places_morning(self):
        return tuple(
            dict.fromkeys(
                t for b in self.persona.routine if b.start < 720 for t in self.place_terms(b.place)
            )
        )

    def work_blocks(self):
        work = self.persona.workplace
        return [b for b in self.persona.routine if work and split(b.place)[0] == work]

    def f_work_start(self):
        blocks = self.work_blocks()
        return clock_terms(blocks[0].start) if blocks else ()

    def f_work_end(self):
        blocks = self.work_blocks()
        return clock_terms(blocks[-1].end) if blocks else ()

    # now and the plan ---------------------------------------------------------------------
    def f_now_action(self):
        action = self.agent.action
        return tuple(words(action.description)) if action else ()

    def f_now_place(self):
        """Where the resident is; 'home' or 'work' too when that is where it is."""
        also = (*(("home",) if self.f_at_home() else ()), *(("work",) if self.f_at_work() else ()))
        return (*self.place_terms(self.agent.location), *also)

    def f_now_end(self):
        action = self.agent.action
        return clock_terms(minute_of(action.end)) if action else ()

    def f_at_home(self):
        return split(self.agent.location)[:1] == [self.persona.home]

    def f_at_work(self):
        return split(self.agent.location)[:1] == [self.persona.workplace]

    def items(self) -> list:
        """Today's plan: broad items and their hour chunks."""
        plan = self.agent.plan
        if plan.day != self.now.date().isoformat():
            return []
        return [*plan.broad, *(i for items in plan.hours.values() for i in items)]

    def item_terms(self, items) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys(
                t for i in items for t in (*words(i.description), *self.place_terms(i.place)[:1])
            )
        )

    def covering(self, when: datetime) -> list:
        return [i for i in self.items() if i.start <= when < i.start + timedelta(minutes=i.minutes)]

    def at_today(self, hhmm: str) -> datetime:
        return self.now.replace(hour=int(hhmm[:2]), minute=int(hhmm[3:]), second=0)

    def f_plan_at(self, hhmm: str):
        return self.item_terms(self.covering(self.at_today(hhmm)))

    def f_plan_place(self, hhmm: str):
        """Where the plan has one then: the place's own words, and 'home' for one's home
        ('at home' names it as well as 'at Adam Smith's house' does)."""
        items = self.covering(self.at_today(hhmm))
        own = ("home",) if any(split(i.place)[0] == self.persona.home for i in items) else ()
        return tuple(dict.fromkeys([*(t for i in items for t in self.place_terms(i.place)), *own]))

    def f_plan_when(self, word: str):
        hits = [i for i in self.items() if word in i.description.lower()]
        return tuple(t for i in hits for t in clock_terms(minute_of(i.start)))

    def f_plan_now(self):
        return self.item_terms(self.covering(self.now))

    def f_plan_now_end(self):
        ends = [i.start + timedelta(minutes=i.minutes) for i in self.covering(self.now)]
        return tuple(t for e in ends for t in clock_terms(minute_of(e)))

    def f_plan_rest(self):
        return self.item_terms([i for i in self.agent.plan.broad if i.start > self.now])

    def f_earlier_today(self):
        today = self.now.date()
        done = [
            i
            for i in self.agent.plan.broad
            if i.start.date() == today and i.start + timedelta(minutes=i.minutes) <= self.now
        ]
        return self.item_terms(done)

    def f_woke_today(self):
        wakes = [
            e.time
            for e in self.sim.log.of(EventKind.WAKE)
            if e.agent == self.name and e.time.date() == self.now.date() and e.time <= self.now
        ]
        if not wakes:
            return ()
        woke = minute_of(wakes[-1])
        return tuple(dict.fromkeys((*clock_terms(woke), *clock_terms(woke // 60 * 60))))

    def f_nearby(self):
        here = self.agent.location
        near = [
            n
            for n, a in self.sim.agents.items()
            if n != self.name and a.location == here and not a.asleep
        ]
        return self.first(near)

    def yesterday_plan(self) -> list:
        """Yesterday's plan, from the resident's own plan memories (the latest one wins)."""
        day = (self.now - timedelta(days=1)).date()
        found: list = []
        for r in self.records():
            if r.fact.kind is FactKind.PLAN and r.fact.plan and r.fact.plan[0].start.date() == day:
                found = list(r.fact.plan)
        return found

    def f_yesterday(self):
        return self.item_terms(self.yesterday_plan())

    def f_yesterday_at(self, hhmm: str):
        day = self.now - timedelta(days=1)
        when = day.replace(hour=int(hhmm[:2]), minute=int(hhmm[3:]))
        items = [
            i
            for i in self.yesterday_plan()
            if i.start <= when < i.start + timedelta(minutes=i.minutes)
        ]
        return self.item_terms(items)

    # objects -------------------------------------------------------------------------------
    def trouble_in(self, sector: str) -> bool:
        """Whether a thing in the sector is in trouble, as the world's troubles table says
        (a coffee machine 'brewing coffee' is busy, not in trouble)."""
        town = self.sim.town
        return any(troubles.trouble(town.state(a)) is not None for a in self.objects_under(sector))

    def f_home_trouble(self):
        return self.trouble_in(self.persona.home)

    def f_here_trouble(self):
        return self.trouble_in(split(self.agent.location)[0])

    # other residents -------------------------------------------------------------------------
    def person_name(self, which: int) -> str:
        rel = self.relations()
        return rel[which][0] if rel else ""

    def f_person(self):
        return (self.person_name(0),) if self.person_name(0) else ()

    def f_person2(self):
        rel = self.relations()
        return (rel[-1][0],) if len(rel) > 1 else ()

    def about(self, which: int, what: str):
        name = self.person_name(which)
        if not name:
            return ()
        p, rel = self.resident(name), dict(self.relations())[name]
        table = {
            "relation": lambda: tuple(words(rel)),
            "occupation": lambda: tuple(w for w in words(p.occupation) if len(w) >= 4),
            "workplace": lambda: self.place_terms(p.workplace or ""),
            "home": lambda: (p.home,),
            "home_words": lambda: self.place_terms(p.home),
            "traits": lambda: tuple(p.traits),
            "interests": lambda: tuple(p.interests),
        }
        return table[what]()

    def f_person_relation(self):
        return self.about(0, "relation")

    def f_person_occupation(self):
        return self.about(0, "occupation")

    def f_person_workplace(self):
        return self.about(0, "workplace")

    def f_person_has_workplace(self):
        return bool(self.about(0, "workplace"))

    def f_person_wrong_workplaces(self):
        name = self.person_name(0)
        if not name:
            return ()
        p = self.resident(name)
        keep = self.own_places() | {p.workplace or "", p.home, *p.known_places}
        return tuple({o.workplace for o in self.residents() if o.workplace} - keep)

    def f_person_home(self):
        return self.about(0, "home")

    def f_person_home_words(self):
        return self.about(0, "home_words")

    def f_person_lives_known(self):
        name = self.person_name(0)
        return bool(name) and (name in self.housemate_names() or name in self.family_names())

    def f_person_traits(self):
        return self.about(0, "traits")

    def f_person_interests(self):
        return self.about(0, "interests")

    def f_person_family_known(self):
        return bool(self.person_name(0)) and self.person_name(0) in self.family_names()

    def f_person_married(self):
        name = self.person_name(0)
        rels = self.resident(name).relationships if name else ()
        return any(SPOUSE.search(r.lower()) for _, r in rels)

    def sightings(self, name: str) -> list:
        return [
            r
            for r in self.records()
            if r.fact.kind is FactKind.DOING and r.fact.subject == name and r.created <= self.now
        ]

    def f_person_seen(self):
        return bool(self.person_name(0)) and bool(self.sightings(self.person_name(0)))

    def f_person_last_seen(self):
        seen = self.sightings(self.person_name(0))
        if not seen:
            return ()
        last = max(seen, key=lambda r: r.created)
        relative = day_terms(last.created, self.now)[5:]  # after the 4 dates and the weekday
        return (*words(last.fact.object), *relative)

    def f_person2_relation(self):
        return self.about(-1, "relation")

    def f_person2_occupation(self):
        return self.about(-1, "occupation")

    def f_person2_workplace(self):
        return self.about(-1, "workplace")

    def stranger_name(self) -> str:
        known = {n for n, _ in self.relations()} | {self.name}
        left = [n for n in sorted(self.sim.agents) if n not in known]
        return left[0] if left else ""

    def f_stranger(self):
        return (self.stranger_name(),) if self.stranger_name() else ()

    def f_stranger_known(self):
        s = self.stranger_name()
        return any(
            s in (r.fact.subject, r.fact.heard_from) or s in r.fact.participants
            for r in self.records()
            if r.created <= self.now
        )

    def claims(self) -> list:
        return [
            r
            for r in self.records()
            if r.fact.kind is FactKind.CLAIM and r.fact.heard_from and r.created <= self.now
        ]

    def f_heard_from_person(self):
        name = self.person_name(0)
        said = [r for r in self.claims() if r.fact.heard_from == name]
        mine = self.name_parts()
        return tuple(sorted({w for r in said for w in words(r.fact.object)} - mine))

    # a place in town ---------------------------------------------------------------------
    def place_name(self) -> str:
        p = self.persona
        known = [k for k in p.known_places if k not in (p.home, p.workplace)]
        return known[0] if known else ""

    def f_place(self):
        return (self.place_name(),) if self.place_name() else ()

    def f_place_arenas(self):
        return self.arenas(self.place_name()) if self.place_name() else ()

    def f_place_objects(self):
        place = self.place_name()
        return tuple(sorted({split(a)[-1] for a in self.objects_under(place)})) if place else ()

    def f_place_people(self):
        place = self.place_name()
        return self.first([p.name for p in self.residents() if place and p.workplace == place])

    def regulars(self):
        place = self.place_name()
        return [
            (p, b) for p in self.residents() for b in p.routine if split(b.place)[:1] == [place]
        ]

    def f_place_regulars(self):
        return self.first([p.name for p, _ in self.regulars() if p.name != self.name])

    def f_place_activities(self):
        return tuple(sorted({w for _, b in self.regulars() for w in words(b.activity)}))

    def own_blocks_at_place(self):
        place = self.place_name()
        return [b for b in self.persona.routine if place and split(b.place)[0] == place]

    def f_place_routine(self):
        return bool(self.own_blocks_at_place())

    def f_place_in_routine(self):
        return self.f_place_routine()

    def f_place_routine_time(self):
        return tuple(t for b in self.own_blocks_at_place() for t in clock_terms(b.start))

    def f_place_food(self):
        names = " ".join((self.place_name(), *self.f_place_arenas(), *self.f_place_objects()))
        return bool(FOOD.search(names.lower()))

    # the scenario's public events and news --------------------------------------------------
    def tagged(self, intent) -> list:
        return [r for r in self.records() if r.fact.intent == intent.id and r.created <= self.now]

    def f_knows_event(self):
        return bool(self.event) and bool(self.tagged(self.event))

    def host(self) -> str:
        return self.event.event.host or self.event.holder

    def f_event_host(self):
        return (self.host(), self.host().split()[0]) if self.event else ()

    def f_event_place(self):
        return self.place_terms(self.event.event.place) if self.event else ()

    def f_event_words(self):
        if not self.event:
            return ()
        return tuple(dict.fromkeys([*words(self.event.event.what), *self.event.keywords]))

    def f_event_when(self):
        if not self.event:
            return ()
        ev = self.event.event
        return (*day_terms(ev.start, self.now), *clock_terms(minute_of(ev.start)))

    def f_event_end(self):
        return clock_terms(minute_of(self.event.event.end)) if self.event else ()

    def f_event_upcoming(self):
        return bool(self.event) and self.now < self.event.event.start

    def f_event_ended(self):
        return bool(self.event) and self.now >= self.event.event.end

    def f_rsvp(self):
        """The resident's latest own answer: yes (accepted) or no (declined); a maybe is
        neither, so a yes/no question about going is not asked of it."""
        if not self.event:
            return None
        answer = memo(
            self.sim,
            ("rsvp", self.name, self.event.id),
            lambda: measures.rsvp(self.agent, self.event.id),
        )
        return {Rsvp.ACCEPTED: True, Rsvp.DECLINED: False}.get(answer)

    def f_attended(self):
        if not self.event:
            return None
        e = memo(self.sim, "attendance", lambda: measures.attendance(self.sim)).get(self.event.id)
        return e is not None and self.name in {*e.attended, *e.present_not_counted}

    def heard(self, intents) -> list:
        return [r for i in intents for r in self.tagged(i) if r.fact.source is Source.HEARD]

    def f_heard_event(self):
        return bool(self.event) and bool(self.heard([self.event]))

    def f_event_source(self):
        return self.first(
            [r.fact.heard_from for r in self.heard([self.event]) if r.fact.heard_from]
        )

    def f_event_goers(self):
        e = (
            memo(self.sim, "attendance", lambda: measures.attendance(self.sim)).get(self.event.id)
            if self.event
            else None
        )
        accepted = e.accepted if e is not None else ()
        known = {n for n, _ in self.relations()}
        return self.first([n for n in accepted if n in known and n != self.name])

    def f_events_tomorrow(self):
        tomorrow = (self.now + timedelta(days=1)).date()
        known = [
            i
            for i in self.public()
            if i.event and i.event.start.date() == tomorrow and self.tagged(i)
        ]
        return tuple(t for i in known for t in (*words(i.event.what), *i.keywords))

    def public(self):
        return measures.public_intents(self.sim)

    def f_knows_campaign(self):
        return bool(self.campaign) and bool(self.tagged(self.campaign))

    def f_campaign_holder(self):
        return (self.campaign.holder, self.campaign.holder.split()[0]) if self.campaign else ()

    def f_campaign_words(self):
        return tuple(self.campaign.keywords) if self.campaign else ()

    def f_news_words(self):
        known = [i for i in self.public() if self.tagged(i)]
        out = [t for i in known for t in (*i.keywords, i.holder.split()[0])]
        visitor = [r for r in self.claims() if r.fact.source is Source.VISITOR]
        out += [w for r in visitor for w in words(r.fact.object)]
        return tuple(dict.fromkeys(out))

    def f_knows_news(self):
        return bool(self.f_news_words())

    def f_news_sources(self):
        heard = self.heard(self.public())
        names = [r.fact.heard_from for r in heard if r.fact.heard_from]
        return self.first(names)

    def f_heard_news(self):
        return bool(self.f_news_sources())


# -- the question set, filled in per resident -----------------------------------------------


@dataclass(frozen=True)
class Asked:
    """One question instance for one resident: its phrasings and how it is judged."""

    id: str
    category: str
    ask: tuple[str, ...]
    expect: Expectation
    after_event: bool  # asks about an event that has ended


def load_questions(path: Path = QUESTIONS) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def uses_event(entry: dict) -> bool:
    text = json.dumps(entry)
    return any(f in text for f in EVENT_FIELDS)


def uses_campaign(entry: dict) -> bool:
    return "campaign" in json.dumps(entry)


def contexts(sim, name: str, entry: dict, vocab: dict) -> Iterator[Truth]:
    """One truth per event (or campaign) the entry is about, or one plain truth."""
    public = measures.public_intents(sim)
    if uses_event(entry):
        for intent in (i for i in public if i.event is not None):
            yield Truth(sim, name, vocab, event=intent)
    elif uses_campaign(entry):
        for intent in (i for i in public if i.event is None):
            yield Truth(sim, name, vocab, campaign=intent)
    else:
        yield Truth(sim, name, vocab)


def placeholders(t: Truth) -> dict[str, str]:
    """The values a phrasing's {placeholders} take for this resident ('' = not known)."""
    p = t.persona
    ev = t.event.event if t.event else None
    person, person2 = t.person_name(0), (t.f_person2() or ("",))[0]
    return {
        "person": person,
        "person_first": person.split()[0] if person else "",
        "person2": person2,
        "stranger": t.stranger_name(),
        "place": t.place_name(),
        "interest": p.interests[0] if p.interests else "",
        "now_sector": split(t.agent.location)[0] if t.agent.location else "",
        "event_what": (ev.what or "event") if ev else "",
        "host": t.host() if ev else "",
        "host_first": t.host().split()[0] if ev else "",
        "place_event": ev.place if ev else "",
        "event_day": DAY_NAMES[ev.start.weekday()] if ev else "",
        "campaign_holder": t.campaign.holder if t.campaign else "",
        "campaign_holder_first": t.campaign.holder.split()[0] if t.campaign else "",
    }


def fill(text: str, values: dict[str, str]) -> str | None:
    keys = re.findall(r"{(\w+)}", text)
    if any(not values.get(k) for k in keys):
        return None
    return text.format(**{k: values[k] for k in keys})


def terms(t: Truth, fields: Sequence[str]) -> tuple[str, ...]:
    out: list[str] = []
    for f in fields:
        value = t.get(f)
        if isinstance(value, tuple):
            out.extend(value)
    return tuple(dict.fromkeys(x for x in out if x))


UNKNOWABLE = ("knows_event", "knows_campaign")


def expectation(t: Truth, entry: dict) -> Expectation | None:
    """How this resident's answer is judged; None: the entry does not apply to it (a
    requirement unmet, or a required group with nothing true to name)."""
    unknown = False
    for req in entry["requires"]:
        if not t.get(req):
            if req not in UNKNOWABLE:
                return None
            unknown = True
    need = tuple(terms(t, g) for g in entry["need"])
    yes = None
    if entry["yes"]:
        yes = True if entry["yes"] == "always_yes" else t.get(entry["yes"])
    if any(not g for g in need) or (entry["yes"] and yes is None):
        return None
    past = bool(unknown is False and t.event and t.f_event_ended() and entry["need"])
    past = past or asks_past_plan(t, entry)
    topic = (*entry.get("topic", ()), *(t.f_event_words() if t.event else ()))
    return Expectation(
        need=need, wrong=terms(t, entry["wrong"]), yes=yes, past=past, topic=topic,
        unknown=unknown,
    )  # fmt: skip


def asks_past_plan(t: Truth, entry: dict) -> bool:
    """The entry asks what the plan held at a time today that is over (half an hour ago
    or more), so the answer must speak of it in the past."""
    at = [f.partition(":")[2] for g in entry["need"] for f in g if f.startswith("plan_at:")]
    return bool(at) and all(t.at_today(h) <= t.now - timedelta(minutes=30) for h in at)


def instances(sim, name: str, doc: dict) -> Iterator[Asked]:
    vocab = doc["vocab"]
    for entry in doc["questions"]:
        for t in contexts(sim, name, entry, vocab):
            exp = expectation(t, entry)
            values = placeholders(t)
            asks = [fill(a, values) for a in entry["ask"]]
            if exp is None or None in asks:
                continue
            tag = f"{entry['id']}@{t.event.id}" if t.event else entry["id"]
            yield Asked(tag, entry["category"], tuple(asks), exp, bool(exp.past))


def followups(sim, name: str, doc: dict) -> Iterator[tuple[Asked, Expectation | None]]:
    """Follow-up pairs: the pair (its second question's expectation) and the first's."""
    vocab = doc["vocab"]
    for entry in doc["followups"]:
        for t in contexts(sim, name, entry, vocab):
            second = {**entry, "need": entry["need"], "wrong": [], "topic": []}
            exp = expectation(t, second)
            if exp is None or exp.unknown:
                continue  # only residents who know the fact
            first = None
            if entry["first_need"]:
                first = expectation(t, {**second, "need": entry["first_need"], "yes": None})
            values = placeholders(t)
            asks = [fill(entry["first"], values), fill(entry["then"], values)]
            if None in asks:
                continue
            yield Asked(entry["id"], entry["category"], tuple(asks), exp, exp.past), first


# -- interviewing ----------------------------------------------------------------------------


@dataclass
class Tally:
    """Verdicts gathered over residents, times and seeds."""

    verdicts: Counter = field(default_factory=Counter)
    by_category: dict = field(default_factory=lambda: defaultdict(Counter))
    pairs: int = 0
    both_correct: int = 0
    same_verdict: int = 0
    unknowing: Counter = field(default_factory=Counter)
    followups: Counter = field(default_factory=Counter)
    followup_first: Counter = field(default_factory=Counter)
    ended_mentions: int = 0
    ended_past: int = 0
    quotes: list = field(default_factory=list)
    followup_rows: list = field(default_factory=list)  # for --rows, beside the quotes

    def add_single(self, asked: Asked, answers_: Sequence[str], name: str, when: str) -> None:
        verdicts = [judge(a, asked.expect) for a in answers_]
        for v, q, a in zip(verdicts, asked.ask, answers_, strict=True):
            self.quotes.append({"resident": name, "time": when, "id": asked.id, "question": q,
                                "answer": a, "verdict": v.value})  # fmt: skip
            if asked.expect.unknown:
                self.unknowing[v.value] += 1
                continue
            self.verdicts[v.value] += 1
            self.by_category[asked.category][v.value] += 1
            if asked.after_event:
                self.ended(a, asked.expect)
        if not asked.expect.unknown:
            self.pairs += 1
            self.both_correct += all(v is Verdict.CORRECT_SPECIFIC for v in verdicts)
            self.same_verdict += len(set(verdicts)) == 1

    def ended(self, answer: str, exp: Expectation) -> None:
        """An answer about an ended event that mentions it: in the past tense?"""
        mentioned = [t for g in exp.need for t in g] + list(exp.topic)
        if names_any(answer, mentioned):
            self.ended_mentions += 1
            upcoming = speaks_as_upcoming(answer, mentioned)
            self.ended_past += speaks_in_past(answer) and not upcoming

    def add_followup(
        self, asked: Asked, first: Expectation | None, got: Sequence[str], name: str = "",
        when: str = "",
    ) -> None:
        verdict = judge(got[1], asked.expect).value
        self.followups[verdict] += 1
        self.followup_rows.append({"resident": name, "time": when, "id": asked.id,
                                   "followup": True, "question": list(asked.ask),
                                   "answer": list(got), "verdict": verdict})  # fmt: skip
        if first is not None:
            self.followup_first[judge(got[0], first).value] += 1

    def rates(self) -> dict:
        total = sum(self.verdicts.values())
        out = {v.value: share(self.verdicts[v.value], total) for v in Verdict}
        out["answers"] = total
        out["both_phrasings_correct"] = share(self.both_correct, self.pairs)
        out["both_phrasings_same_verdict"] = share(self.same_verdict, self.pairs)
        out["question_pairs"] = self.pairs
        n = sum(self.followups.values())
        out["followups_right"] = share(self.followups[Verdict.CORRECT_SPECIFIC.value], n)
        out["followups"] = n
        m = sum(self.followup_first.values())
        out["followup_first_right"] = share(self.followup_first["correct_specific"], m)
        out["ended_event_past_tense"] = share(self.ended_past, self.ended_mentions)
        out["ended_event_mentions"] = self.ended_mentions
        u = sum(self.unknowing.values())
        out["honest_when_not_knowing"] = share(self.unknowing["correct_specific"], u)
        out["invented_when_not_knowing"] = share(self.unknowing["wrong"], u)
        out["not_knowing_answers"] = u
        return out

    def categories(self) -> dict:
        return {
            c: {
                "answers": sum(n.values()),
                "correct_specific": share(n["correct_specific"], sum(n.values())),
                "wrong": share(n["wrong"], sum(n.values())),
                "non_answer": share(n["non_answer"], sum(n.values())),
            }
            for c, n in sorted(self.by_category.items())
        }


def share(n: int, total: int) -> float:
    return round(n / total, 4) if total else 0.0


def interview(sim, names: Sequence[str], doc: dict, tally: Tally) -> None:
    when = sim.now.isoformat(timespec="minutes")
    for name in names:
        for asked in instances(sim, name, doc):
            got = [ask_many(sim, name, [q])[0].answer for q in asked.ask]
            tally.add_single(asked, got, name, when)
        for asked, first in followups(sim, name, doc):
            got = [i.answer for i in ask_many(sim, name, list(asked.ask))]
            tally.add_followup(asked, first, got, name, when)


def spread(sim, n: int) -> list[str]:
    """`n` residents taken round-robin over the households (sorted by home, then name)."""
    homes: dict[str, list[str]] = defaultdict(list)
    for name in sorted(sim.agents):
        homes[sim.agents[name].persona.home].append(name)
    queues, out = [homes[h] for h in sorted(homes)], []
    while len(out) < min(n, len(sim.agents)):
        for q in queues:
            if q and len(out) < n:
                out.append(q.pop(0))
    return out


# -- residents' own conversations --------------------------------------------------------------


def lexicon(sim) -> Lexicon:
    names = sorted(sim.agents)
    people = (*names, *{n.split()[0] for n in names}, *{n.split()[-1] for n in names})
    town = sim.town
    places = {a.name for a in town.areas.values() if a.kind is not AreaKind.OBJECT and a.name}
    places |= {a.name for a in town.areas.values() if a.kind is AreaKind.OBJECT}
    topics = {k for i in sim.scenario.intents for k in i.keywords}
    topics |= {i.event.what for i in sim.scenario.intents if i.event and i.event.what}
    for agent in sim.agents.values():
        p = agent.persona
        topics |= {*p.interests, p.occupation, *(b.activity for b in p.routine)}
    topics |= {e.text for e in sim.log.of(EventKind.ACTION) if e.text}
    return Lexicon(tuple(people), tuple(sorted(places)), tuple(sorted(topics)))


def own_talks(sim) -> list:
    return [e for e in sim.log.of(EventKind.CONVERSATION) if not e.data.get("visitor")]


def talk_figures(sim, lex: Lexicon) -> dict:
    """Questions answered (a) and sentence shapes (b) in the residents' own conversations."""
    asked = answered = 0
    shapes: Counter = Counter()
    said: Counter = Counter()
    for e in own_talks(sim):
        lines = e.data.get("lines", [])
        for i, (speaker, text) in enumerate(lines):
            for s in sentences(text):
                shapes[shape(s, lex)] += 1
                said[s.lower()] += 1
            question = last_question(text)
            if not question:
                continue
            asked += 1
            reply = lines[i + 1][1] if i + 1 < len(lines) and lines[i + 1][0] != speaker else ""
            answered += bool(reply) and answers(question, reply, lex)
    total = sum(shapes.values())
    top, top_n = shapes.most_common(1)[0] if shapes else ("", 0)
    return {
        "conversations": len(own_talks(sim)),
        "questions_asked": asked,
        "questions_answered": share(answered, asked),
        "sentences": total,
        "distinct_shapes": len(shapes),
        "shape_ratio": share(len(shapes), total),
        "distinct_sentence_ratio": share(len(said), total),
        "top_shape": top,
        "top_shape_share": share(top_n, total),
    }


# -- news from the visitor ----------------------------------------------------------------------


def plant(sim, names: Sequence[str]) -> str:
    """The visitor tells the first awake, free resident of `names` the news; '' if none."""
    target = next(
        (n for n in names if not sim.agents[n].asleep and sim.agents[n].conversation is None), ""
    )
    if not target:
        return ""
    player = sim.player
    visitor = player.visitor or player.add_visitor(VISITOR)
    visitor.pos = sim.agents[target].pos
    player.visitor_say(target, NEWS)
    for _ in range(120):
        sim.step()
        visitor.pos = sim.agents[target].pos
        if not player.chat_pending(target):
            break
    player.end_chat(target)
    visitor.pos = sim.town.spawns.get("visitor") or next(iter(sim.town.spawns.values()))
    return target


def carries_news(agent) -> bool:
    """A memory whose text, or whose event, names the planted news."""
    for r in measures.records(agent):
        ev = r.fact.event
        if "bake sale" in r.text.lower() or (ev is not None and "bake sale" in ev.what.lower()):
            return True
    return False


def news_figures(sim, target: str) -> dict:
    holders = [n for n in sorted(sim.agents) if carries_news(sim.agents[n])]
    told = invented = 0
    for name in sorted(sim.agents):
        exp = Expectation(need=NEWS_NEED, unknown=name not in holders, topic=("bake",))
        got = [ask_many(sim, name, [q])[0].answer for q in NEWS_ASK]
        verdicts = [judge(a, exp) for a in got]
        if name in holders:
            told += any(v is Verdict.CORRECT_SPECIFIC for v in verdicts)
        else:
            invented += any(v is Verdict.WRONG for v in verdicts)
    return {
        "told": target,
        "news": NEWS,
        "holders_after_24h": len(holders),
        "holders_besides_told": len([h for h in holders if h != target]),
        "can_tell_when_asked": told,
        "invented_by_others": invented,
    }


# -- the run --------------------------------------------------------------------------------


def note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_seed(seed: int, args, doc: dict, tally: Tally) -> dict:
    sim = build_simulation("smallville", seed=seed, workers=args.workers)
    limit = sim.now + timedelta(hours=args.hours)
    plant_at = datetime.fromisoformat(args.plant)
    check_at = plant_at + timedelta(hours=24)
    stops = sorted({*(datetime.fromisoformat(t) for t in args.times), plant_at, check_at})
    names, out, target = spread(sim, args.residents), {"seed": seed}, ""
    began = time.perf_counter()
    for stop in (s for s in stops if sim.now <= s <= limit):
        sim.run_until(stop)
        note(f"seed {seed}: {stop:%a %H:%M} ({time.perf_counter() - began:.0f} s)")
        if stop.isoformat(timespec="minutes") in {t[:16] for t in args.times}:
            interview(sim, names, doc, tally)
        if stop == plant_at:
            target = plant(sim, names)
            note(f"  the visitor told {target or 'nobody'}: {NEWS}")
        if stop == check_at and target:
            out["visitor_news"] = news_figures(sim, target)
    if sim.now < limit:
        sim.run_until(limit)
    out.update(talk_figures(sim, lexicon(sim)))
    talks = own_talks(sim)
    out["quote_conversation"] = talks[len(talks) // 2].data["lines"] if talks else []
    out["wall_seconds"] = round(time.perf_counter() - began, 1)
    sim.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 8])
    parser.add_argument("--residents", type=int, default=10)
    parser.add_argument("--hours", type=float, default=53.0, help="game hours run per seed")
    parser.add_argument("--times", nargs="+", default=list(TIMES), help="interview times")
    parser.add_argument("--plant", default=PLANT_AT, help="when the visitor plants the news")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rows", help="also write every judged answer here (JSON lines)")
    parser.add_argument("--questions", type=Path, default=QUESTIONS,
                        help="question set (default: the main set; data/conversation_heldout.json "
                             "was written without reading the answering code)")  # fmt: skip
    args = parser.parse_args()
    writable(args.rows)  # before hours of running, not after
    doc, tally = load_questions(args.questions), Tally()
    note(f"{len(doc['questions'])} questions, {len(doc['followups'])} follow-up pairs")
    runs = [run_seed(seed, args, doc, tally) for seed in args.seeds]
    summary = report(runs, tally)
    if args.rows:  # whole or not at all, as every file the game writes (game/core/files.py)
        rows = "".join(json.dumps(q) + "\n" for q in [*tally.quotes, *tally.followup_rows])
        written(args.rows, rows)
    print_human(summary)
    print(json.dumps(summary))


def report(runs: list[dict], tally: Tally) -> dict:
    keys = ("questions_answered", "distinct_shapes", "shape_ratio", "distinct_sentence_ratio")
    news = [r["visitor_news"] for r in runs if "visitor_news" in r]
    quotes = tally.quotes
    return {
        "benchmark": "conversation",
        "rates": tally.rates(),
        "by_category": tally.categories(),
        "own_conversations": {k: round(sum(r[k] for r in runs) / len(runs), 4) for k in keys},
        "visitor_news": news,
        "quote_interview": quotes[len(quotes) // 2] if quotes else {},
        "quote_conversation": runs[0]["quote_conversation"] if runs else [],
        "runs": [{k: v for k, v in r.items() if k != "quote_conversation"} for r in runs],
    }


def print_human(s: dict) -> None:
    r = s["rates"]
    note(
        f"answers {r['answers']}: correct {r['correct_specific']}, vague {r['vague']}, "
        f"non-answer {r['non_answer']}, wrong {r['wrong']}; both phrasings correct "
        f"{r['both_phrasings_correct']}; follow-ups right {r['followups_right']}; ended "
        f"events in the past tense {r['ended_event_past_tense']}"
    )
    for c, v in s["by_category"].items():
        note(f"  {c:10} {v}")
    note(f"own conversations: {s['own_conversations']}")
    note(f"visitor news: {s['visitor_news']}")
    q = s["quote_interview"]
    if q:
        note(f"a typical interview ({q['resident']}, {q['time']}): Q: {q['question']} "
             f"A: {q['answer']} [{q['verdict']}]")  # fmt: skip
    note("a typical conversation:")
    for speaker, text in s["quote_conversation"]:
        note(f"  {speaker}: {text}")


if __name__ == "__main__":
    main()
