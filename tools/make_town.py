#!/usr/bin/env python3
"""Generate the residents of the bigger towns: `saves/scenarios/smallville100.json` and
`saves/scenarios/smallville500.json`, deterministic from a seed.

The first town's 25 residents come along unchanged (the party's host, the candidate for
mayor and everyone who knows them, in the homes tools/make_bigmap.py keeps where they
were); the rest are made from persona templates and fill the new homes the map offers
(read from the map, so every home and bed named exists): a double bed holds a couple, a
family house a couple and a grown-up child, a shared house two housemates, a flat one
person or two. Each is given a job from the town's places (Market Street's shops, the
cafe, the college...) or works from home or is retired, a day's routine within the
places' opening hours, traits, interests, a look, and relationships: household, workmates,
a neighbour, friends and someone of the first town they meet at work or at lunch. The
output is data for people to edit, committed as written; the tool is only how it began.

Usage: python tools/make_town.py [--seed N] [--out DIR] [--town smallville100|smallville500]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from game.world.roles import Role
from game.world.tmx import load_town
from game.world.town import AreaKind, Town

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "saves" / "scenarios" / "smallville.json"
TOWNS = {"smallville100": 100, "smallville500": 500}
SEED = 25

FEMALE = ("Alice", "Beatrice", "Camila", "Daniela", "Elena", "Fatima", "Grace", "Hannah",
          "Ingrid", "Julia", "Keiko", "Leila", "Monica", "Nadia", "Olivia", "Priya", "Rosa",
          "Sofia", "Tessa", "Ursula", "Vera", "Wendy", "Ximena", "Yasmin", "Zara", "Amara",
          "Bianca", "Clara", "Delia", "Esther", "Freya", "Gloria", "Helen", "Iris", "Joan",
          "Kira", "Lucy", "Marta", "Nina", "Opal", "Paula", "Ruth", "Selma", "Thea", "Uma",
          "Violet", "Willa", "Yara", "Zoe", "Anika", "Brenda", "Celine", "Dora", "Edith",
          "Farah", "Gemma", "Hazel", "Imani", "Jade", "Laura", "Mina", "Noor", "Petra",
          "Quinn", "Rhea", "Sara", "Tara", "Lena", "Ada", "Mabel")
MALE = ("Aaron", "Bruno", "Caleb", "Dmitri", "Emil", "Felix", "Gavin", "Hugo", "Ivan",
        "Jonah", "Kofi", "Liam", "Mateo", "Nikhil", "Oscar", "Pablo", "Rafael", "Simon",
        "Theo", "Umar", "Victor", "Walter", "Yusuf", "Zach", "Ahmed", "Boris", "Cedric",
        "Diego", "Elliot", "Frank", "George", "Henry", "Isaac", "Jasper", "Kenji", "Leon",
        "Marcus", "Nathan", "Owen", "Peter", "Reuben", "Stefan", "Tobias", "Vincent",
        "Warren", "Xavier", "Yannick", "Zoltan", "Andre", "Benji", "Colin", "Dario", "Ethan",
        "Farid", "Gustav", "Harold", "Idris", "Joel", "Kwame", "Lars", "Milo", "Noel",
        "Omar", "Percy", "Ronan", "Silas", "Tariq", "Luca", "Ezra", "Hector")
SURNAMES = ("Abbott", "Baker", "Castillo", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad",
            "Ibrahim", "Jensen", "Kowalski", "Larsen", "Mendoza", "Nakamura", "Okafor",
            "Petrov", "Quinlan", "Reyes", "Sato", "Torres", "Underwood", "Vasquez", "Walsh",
            "Xu", "Yilmaz", "Zimmerman", "Andersen", "Bianchi", "Carter", "Delgado", "Ellis",
            "Fontaine", "Gallagher", "Hughes", "Iyer", "Jovanovic", "Kim", "Lindqvist",
            "Moreau", "Novak", "O'Connell", "Popescu", "Rahman", "Silva", "Tanaka", "Varga",
            "Whitfield", "Young", "Adeyemi", "Brennan", "Chowdhury", "Dawson", "Esposito",
            "Fernandes", "Grant", "Horvath", "Ito", "Kaur", "Lambert", "Mensah", "Nilsen",
            "Ortega", "Price", "Rossi-Hart", "Sullivan", "Thompson", "Vogel", "Wong",
            "Alvarez", "Becker", "Cohen", "Dimitriou", "Evans", "Foster", "Gupta", "Holm",
            "Jaramillo", "Keller", "Lowe", "Murphy", "Nguyen", "Olsen", "Park-Lee", "Ramos",
            "Schmidt", "Tran", "Webb", "Zhang", "Bauer", "Cruz", "Donovan", "Farrell")
TRAITS = ("cheerful", "patient", "curious", "warm", "stubborn", "meticulous", "generous",
          "shy", "talkative", "practical", "dreamy", "witty", "calm", "restless", "kind",
          "ambitious", "easy-going", "thoughtful", "blunt", "playful", "loyal", "cautious",
          "energetic", "gentle", "sceptical", "sociable", "hard-working", "sentimental",
          "organised", "adventurous", "modest", "opinionated", "sunny", "quiet")
INTERESTS = ("gardening", "football", "jazz", "baking", "chess", "hiking", "birdwatching",
             "photography", "crime novels", "local history", "cycling", "knitting", "cooking",
             "board games", "poetry", "astronomy", "fishing", "running", "theatre",
             "old films", "woodworking", "yoga", "painting", "folk music", "travel",
             "video games", "swimming", "crosswords", "dancing", "local politics")
GOALS = ("is saving up for a trip to the mountains", "wants to run a half marathon this year",
         "hopes to learn the piano", "is planting a vegetable patch this spring",
         "wants to write a short story for the town paper", "is learning Spanish",
         "hopes to adopt a dog", "is teaching themself to paint watercolours",
         "wants to get to know more people in town", "is fixing up an old bicycle",
         "hopes to start a book club", "is training for a charity swim",
         "wants to cook a new recipe every week", "is putting together a family photo album")
SKIN = ("#f1d0b5", "#e0b48f", "#c68642", "#8d5524", "#ffdbac", "#d9a066", "#a0643c", "#f5c7a4")
HAIR = ("#2b1d14", "#3a2f4f", "#6b4226", "#b5651d", "#d8b15a", "#8a8a8a", "#e8e0d0", "#1c1c1c",
        "#7b3f2a")
CLOTHES = ("#7fb7be", "#d96c6c", "#5b8c5a", "#e0a458", "#6c6fd9", "#b27fbe", "#4a6fa5",
           "#c9b458", "#3b3b58", "#8c5b45", "#2f4858", "#9c6644", "#556b2f", "#e07a5f")
HAIR_STYLES = ("short", "long", "bun", "bald", "curly", "ponytail")


@dataclass(frozen=True)
class Job:
    """A place of work and what the day there is: the spot, the hours, the activity."""

    occupation: str
    spot: str  # sector:arena[:object] where the work is done
    start: str
    end: str
    activity: str
    per100: int = 1  # how many such posts a town of a hundred has


JOBS = (
    Job("barista at Hobbs Cafe", "Hobbs Cafe:cafe:coffee machine", "08:00", "16:00",
        "making coffee for the regulars"),
    Job("bartender at The Rose and Crown Pub", "The Rose and Crown Pub:pub:bar counter",
        "16:00", "23:30", "pulling pints and chatting with the regulars"),
    Job("shop assistant at The Willows Market and Pharmacy",
        "The Willows Market and Pharmacy:store:grocery shelves", "08:00", "16:30",
        "stocking shelves and helping customers"),
    Job("assistant at Harvey Oak Supply Store", "Harvey Oak Supply Store:store:supply shelves",
        "08:00", "17:00", "finding tools and paint for customers"),
    Job("lecturer at Oak Hill College", "Oak Hill College:classroom:lectern", "09:00", "15:00",
        "teaching classes", 2),
    Job("librarian at Oak Hill College", "Oak Hill College:library:library bookshelves",
        "08:00", "16:30", "shelving books and helping students find sources"),
    Job("owner of The Copper Kettle Diner", "The Copper Kettle Diner:diner:diner counter",
        "07:00", "15:00", "running the diner and greeting customers"),
    Job("cook at The Copper Kettle Diner", "The Copper Kettle Diner:kitchen:stove", "07:00",
        "15:00", "cooking breakfasts and lunches"),
    Job("waiter at The Copper Kettle Diner", "The Copper Kettle Diner:diner:diner booths",
        "07:00", "15:00", "serving tables"),
    Job("landlord of The Fox and Hound Tavern", "The Fox and Hound Tavern:tavern:bar counter",
        "16:00", "23:30", "running the tavern"),
    Job("bartender at The Fox and Hound Tavern", "The Fox and Hound Tavern:tavern:pub tables",
        "16:00", "23:30", "serving drinks and clearing tables"),
    Job("owner of Riverside Grocers", "Riverside Grocers:store:cashier counter", "08:00",
        "17:00", "running the shop and ordering stock"),
    Job("deli assistant at Riverside Grocers", "Riverside Grocers:store:deli counter", "09:00",
        "18:00", "slicing cheese and making sandwiches"),
    Job("town clerk at Smallville Town Hall",
        "Smallville Town Hall:records office:clerk's desk", "09:00", "17:00",
        "keeping the town's records"),
    Job("council member at Smallville Town Hall", "Smallville Town Hall:council chamber",
        "10:00", "16:00", "meeting residents and debating the town's budget"),
    Job("planning officer at Smallville Town Hall",
        "Smallville Town Hall:records office:meeting tables", "09:00", "17:00",
        "going through building applications"),
    Job("owner of Page Turner Books", "Page Turner Books:store:book counter", "09:00", "18:00",
        "selling books and recommending new ones"),
    Job("baker at Bluebell Bakery", "Bluebell Bakery:store:bakery counter", "06:30", "13:30",
        "baking bread and serving customers", 2),
    Job("doctor at Oak Hill Clinic", "Oak Hill Clinic:consulting room:doctor's desk", "08:30",
        "17:00", "seeing patients"),
    Job("nurse at Oak Hill Clinic", "Oak Hill Clinic:consulting room:examination couch",
        "08:00", "16:00", "looking after patients"),
    Job("receptionist at Oak Hill Clinic", "Oak Hill Clinic:waiting room:reception desk",
        "08:00", "17:00", "booking appointments and greeting patients"),
    Job("florist at Petal and Stem Florist", "Petal and Stem Florist:store:florist counter",
        "09:00", "17:00", "arranging bouquets"),
    Job("gardener at Johnson Park", "Johnson Park:park:park garden", "08:00", "15:00",
        "tending the flower beds"),
)
RETIRED = ("retired teacher", "retired nurse", "retired engineer", "retired postman",
           "retired shopkeeper", "retired bus driver", "retired accountant", "retired chef")
HOME_JOBS = ("writer", "software developer", "illustrator", "translator", "accountant",
             "architect", "music teacher", "tailor", "photographer", "web designer",
             "potter", "jewellery maker", "freelance editor", "online tutor", "carpenter",
             "electrician", "plumber", "bookkeeper", "podcaster", "seamstress")
STUDENT = Job("student at Oak Hill College", "Oak Hill College:library:library tables",
              "09:00", "16:00", "studying")
LUNCH = ("Hobbs Cafe", "The Copper Kettle Diner", "Bluebell Bakery", "Johnson Park")
ERRANDS = ("Riverside Grocers", "The Willows Market and Pharmacy", "Page Turner Books",
           "Johnson Park", "Harvey Oak Supply Store")
EVENING = ("The Fox and Hound Tavern", "The Rose and Crown Pub")
# who of the first town one meets at a place, and how one would describe them
ORIGINALS_AT = {
    "Hobbs Cafe": ("Isabella Rodriguez", "the owner of Hobbs Cafe"),
    "The Rose and Crown Pub": ("Arthur Burton", "the bartender at The Rose and Crown Pub"),
    "The Willows Market and Pharmacy": ("John Lin", "the pharmacist at the Willows"),
    "Harvey Oak Supply Store": ("Carmen Ortiz", "the owner of Harvey Oak Supply Store"),
    "Oak Hill College": ("Mei Lin", "a professor at Oak Hill College"),
    "Johnson Park": ("Sam Moore", "a retired navy officer often seen in Johnson Park"),
}


@dataclass
class Person:
    """A resident being made; becomes one scenario entry."""

    name: str
    female: bool
    age: int
    home: str
    bed: str
    household: list[str] = field(default_factory=list)
    family: dict[str, str] = field(default_factory=dict)  # name -> relation
    job: Job | None = None
    occupation: str = RETIRED[0]
    rels: dict[str, str] = field(default_factory=dict)

    @property
    def first(self) -> str:
        return self.name.split()[0]


@dataclass(frozen=True)
class Home:
    """A new home of the map: its address and beds (double or not)."""

    name: str
    beds: tuple[tuple[str, bool], ...]
    centre: tuple[float, float]


def new_homes(town: Town, taken: set[str]) -> list[Home]:
    """The map's homes nobody of the first town lives in, with their beds."""
    out = []
    for area in town.areas.values():
        if area.kind is not AreaKind.SECTOR or area.role is not Role.HOME or area.name in taken:
            continue
        beds = tuple(sorted(
            (a.address, a.rect.area >= 4) for a in town.areas.values()
            if a.kind is AreaKind.OBJECT and a.role is Role.BED
            and a.address.startswith(area.address + ":")))
        if beds:
            r = area.rect
            out.append(Home(area.name, beds, (r.x + r.w / 2, r.y + r.h / 2)))
    return sorted(out, key=lambda h: h.name)


class Namer:
    """Full names no one has yet; first names unused by the first town, unique while the
    pools last (a town of 500 shares some first names, as towns do)."""

    def __init__(self, rng: random.Random, used: set[str]) -> None:
        self.rng = rng
        self.used = set(used)
        self.firsts = {n.split()[0] for n in used}

    def first(self, female: bool) -> str:
        pool = [n for n in (FEMALE if female else MALE) if n not in self.firsts]
        name = self.rng.choice(pool or list(FEMALE if female else MALE))
        self.firsts.add(name)
        return name

    def full(self, female: bool, surname: str | None = None) -> str:
        while True:
            name = f"{self.first(female)} {surname or self.rng.choice(SURNAMES)}"
            if name not in self.used:
                self.used.add(name)
                return name


def households(rng: random.Random, homes: list[Home], count: int, namer: Namer) -> list[Person]:
    """Fill the homes with `count` people: first one person per bed (a family house: a
    parent and a child), then couples where a bed can take two, until the count is met."""
    homes = list(homes)
    rng.shuffle(homes)
    plan: dict[str, list[int]] = {}  # home -> people per bed
    total = 0
    for h in homes:
        if total + len(h.beds) > count:
            continue
        plan[h.name] = [1] * len(h.beds)
        total += len(h.beds)
    grow = [(h.name, i) for h in homes if h.name in plan for i, (_, double) in enumerate(h.beds)
            if double] + [(h.name, i) for h in homes if h.name in plan for i, (_, d) in
                          enumerate(h.beds) if not d and len(h.beds) == 1]
    for name, i in grow:
        if total >= count:
            break
        plan[name][i] = 2
        total += 1
    if total < count:
        raise ValueError(f"the map's homes hold {total} people, not {count}")
    by_name = {h.name: h for h in homes}
    people: list[Person] = []
    for name in sorted(plan):
        people += _household(rng, by_name[name], plan[name], namer)
    return people


def _household(rng: random.Random, home: Home, sizes: list[int], namer: Namer) -> list[Person]:
    """The people of one home: a couple or a single adult per double bed (and a grown-up
    child in a family house's single bed), housemates or a couple in a house of singles."""
    has_double = any(d for _, d in home.beds)
    surname = rng.choice(SURNAMES)
    out: list[Person] = []
    couple: list[Person] = []
    for (bed, double), n in sorted(zip(home.beds, sizes, strict=True), key=lambda b: not b[0][1]):
        if has_double and not double:
            out.append(_child(rng, home.name, bed, surname, [p for p in out if p.bed != bed],
                              namer))
            continue
        for k in range(n):
            female = rng.random() < 0.5 if k == 0 else not out[-1].female
            family = n == 2 or (has_double and len(home.beds) > 1)
            age = rng.randint(26, 78) if double else rng.randint(20, 70)
            out.append(Person(namer.full(female, surname if family else None), female, age,
                              home.name, bed))
            if n == 2:
                couple.append(out[-1])
    if len(couple) == 2:
        a, b = couple
        b.age = max(22, min(90, a.age + rng.randint(-6, 6)))
        a.family[b.name] = f"{_his(a)} {'wife' if b.female else 'husband'}"
        b.family[a.name] = f"{_his(b)} {'wife' if a.female else 'husband'}"
    for p in out:
        p.household = [o.name for o in out if o is not p]
        for o in out:
            if o is not p and o.name not in p.family:
                p.family[o.name] = "a housemate"
    return out


def _his(p: Person) -> str:
    return "her" if p.female else "his"


def _child(rng: random.Random, home: str, bed: str, surname: str, parents: list[Person],
           namer: Namer) -> Person:
    """A grown-up son or daughter living at home, with parents old enough to have them."""
    female = rng.random() < 0.5
    child = Person(namer.full(female, surname), female, rng.randint(17, 24), home, bed)
    for a in parents:
        a.age = max(a.age, child.age + rng.randint(21, 34))
        a.family[child.name] = f"{_his(a)} {'daughter' if female else 'son'}"
        child.family[a.name] = f"{_his(child)} {'mother' if a.female else 'father'}"
    return child


def assign_jobs(rng: random.Random, people: list[Person], size: int) -> None:
    """Students for the young, posts at the town's places for most adults (each post
    `per100` times per hundred residents), work from home or retirement for the rest."""
    posts = [j for j in JOBS for _ in range(max(1, round(j.per100 * size / 100)))]
    rng.shuffle(posts)
    for p in sorted(people, key=lambda p: (p.age, p.name)):
        if p.age <= 23:
            p.job, p.occupation = STUDENT, STUDENT.occupation
        elif p.age >= 68 or (p.age >= 62 and rng.random() < 0.5):
            p.job, p.occupation = None, rng.choice(RETIRED)
        elif posts and rng.random() < 0.9:
            p.job = posts.pop()
            p.occupation = p.job.occupation
        else:
            p.job, p.occupation = None, rng.choice(HOME_JOBS)


def hm(minutes: int) -> str:
    """'HH:MM' of minutes after midnight (a day later wraps: 24:30 is 00:30)."""
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def mins(text: str) -> int:
    h, m = text.split(":")
    return int(h) * 60 + int(m)


def home_spot(town: Town, p: Person, role: Role, fallback: str = "") -> str:
    """An object of `role` in one's home, in one's own bedroom first; else the fallback."""
    own = p.bed.rsplit(":", 1)[0]
    found = sorted((not a.address.startswith(own + ":"), a.address) for a in town.areas.values()
                   if a.kind is AreaKind.OBJECT and a.role is role
                   and a.address.startswith(p.home + ":"))
    return found[0][1] if found else fallback or p.home


def kitchen(town: Town, p: Person) -> str:
    """One's home kitchen (every new home has one)."""
    return next((a.address for a in town.areas.values() if a.kind is AreaKind.ARENA
                 and a.role is Role.KITCHEN and a.address.startswith(p.home + ":")), p.home)


def living(town: Town, p: Person) -> str:
    """Where one sits of an evening at home: the sofa, else one's own room."""
    return home_spot(town, p, Role.SOFA, p.bed.rsplit(":", 1)[0])


def routine(rng: random.Random, town: Town, p: Person) -> tuple[str, str, list[dict]]:
    """Waking time, bedtime and the day between, block by block."""
    job = p.job
    evening_job = job is not None and mins(job.start) >= 15 * 60
    wake = mins(job.start) - rng.choice((60, 90)) if job and not evening_job else \
        rng.choice((6 * 60 + 30, 7 * 60, 7 * 60 + 30, 8 * 60))
    sleep = rng.choice((22 * 60, 22 * 60 + 30, 23 * 60)) if not evening_job else 24 * 60 + 30
    blocks: list[tuple[int, int, str, str]] = []
    if job is None:
        desk = home_spot(town, p, Role.DESK, living(town, p))
        day = (desk, f"working as {_a(p.occupation)}") if p.occupation not in RETIRED else (
            home_spot(town, p, Role.GARDEN, living(town, p)), "pottering about at home")
        blocks = [(wake, wake + 60, kitchen(town, p), "having breakfast"),
                  (wake + 60, 12 * 60, *day),
                  (12 * 60, 13 * 60 + 30, rng.choice(LUNCH), "having lunch"),
                  (13 * 60 + 30, 16 * 60, *day),
                  (16 * 60, 18 * 60, rng.choice(ERRANDS), "running errands and taking a walk")]
    elif evening_job:
        s, e = mins(job.start), mins(job.end)
        blocks = [(wake, wake + 90, kitchen(town, p), "having a slow breakfast"),
                  (wake + 90, 12 * 60 + 30, living(town, p), "reading and resting"),
                  (12 * 60 + 30, 14 * 60, rng.choice(LUNCH), "having lunch"),
                  (14 * 60, s, rng.choice(ERRANDS), "running errands"),
                  (s, e, job.spot, job.activity)]
        blocks.append((e, sleep, living(town, p), "winding down at home"))
        return hm(wake), hm(sleep), _blocks(blocks)
    else:
        s, e = mins(job.start), mins(job.end)
        food = job.spot.split(":")[0] in LUNCH or "Tavern" in job.spot
        mid = max(s + 120, min(12 * 60 + 30, e - 60))
        lunch = job.spot.split(":")[0] if food else rng.choice(LUNCH)
        blocks = [(wake, s, kitchen(town, p), "having breakfast"),
                  (s, mid, job.spot, job.activity),
                  (mid, mid + 60, lunch, "having lunch"),
                  (mid + 60, e, job.spot, job.activity)]
        after = rng.choice(ERRANDS) if e < 17 * 60 + 30 else kitchen(town, p)
        blocks.append((e, max(e + 60, 18 * 60), after, "running errands on the way home"))
    start = blocks[-1][1]
    blocks.append((start, max(start + 60, 19 * 60 + 30), kitchen(town, p), "making dinner"))
    evening = rng.choice(EVENING) if rng.random() < 0.3 else living(town, p)
    blocks.append((blocks[-1][1], sleep, evening, "relaxing in the evening"))
    return hm(wake), hm(sleep), _blocks(blocks)


def _blocks(blocks: list[tuple[int, int, str, str]]) -> list[dict]:
    return [{"start": hm(s), "end": hm(e), "place": place, "activity": what}
            for s, e, place, what in blocks if e > s]


def relate(rng: random.Random, people: list[Person], homes: list[Home]) -> None:
    """Household, workmates, the nearest neighbours and two friends each."""
    for p in people:
        p.rels.update(p.family)
    by_work: dict[str, list[Person]] = {}
    for p in people:
        if p.job is not None:
            by_work.setdefault(p.job.spot.split(":")[0], []).append(p)
    for place, staff in by_work.items():
        for p in staff:
            for o in rng.sample(staff, min(4, len(staff))):
                if o is not p and o.name not in p.rels:
                    mate = "a fellow student" if p.job is STUDENT else "a colleague"
                    p.rels[o.name] = f"{mate} at {place}"
    centre = {h.name: h.centre for h in homes}
    by_home: dict[str, list[Person]] = {}
    for p in people:
        by_home.setdefault(p.home, []).append(p)
    for p in people:
        x, y = centre[p.home]
        near = min((h for h in by_home if h != p.home),
                   key=lambda h: ((centre[h][0] - x) ** 2 + (centre[h][1] - y) ** 2, h))
        o = by_home[near][0]
        p.rels.setdefault(o.name, f"a neighbour at {near}")
    for p in people:
        for o in rng.sample(people, 3):
            if o is not p and o.name not in p.rels and len(p.rels) < 9:
                how = rng.choice(("a friend", "an old school friend", "a friend from the park",
                                  "a friend from the pub quiz"))
                p.rels[o.name] = how
                o.rels.setdefault(p.name, how)


def persona(rng: random.Random, town: Town, p: Person) -> dict:
    """The scenario entry: identity, day, relationships, look and the seed paragraph."""
    wake, sleep, blocks = routine(rng, town, p)
    places = sorted({b["place"].split(":")[0] for b in blocks} - {p.home})
    workplace = p.job.spot.split(":")[0] if p.job else (p.home if p.occupation not in RETIRED
                                                         else None)
    for place in places:
        met = ORIGINALS_AT.get(place)
        if met and met[0] not in p.rels and rng.random() < 0.6:
            p.rels[met[0]] = met[1]
    traits = rng.sample(TRAITS, 3)
    interests = rng.sample(INTERESTS, 2)
    seed = _seed(rng, p, traits, interests, blocks, workplace)
    return {
        "name": p.name, "age": p.age, "traits": traits, "occupation": p.occupation,
        "wake": wake, "sleep": sleep, "home": p.home, "bed": p.bed, "workplace": workplace,
        "routine": blocks,
        "known_places": [q for q in places if q != workplace],
        "relationships": p.rels, "interests": interests,
        "look": {"skin": rng.choice(SKIN), "hair": rng.choice(HAIR),
                 "hair_style": rng.choice(HAIR_STYLES[1:] if p.female else HAIR_STYLES),
                 "shirt": rng.choice(CLOTHES), "pants": rng.choice(CLOTHES)},
        "seed": seed,
    }


def _seed(rng: random.Random, p: Person, traits: list[str], interests: list[str],
          blocks: list[dict], workplace: str | None) -> str:
    """Semicolon-separated clauses, each a first memory, in the first town's manner."""
    first = p.first
    they = "she" if p.female else "he"
    job = p.occupation
    work = {None: f"{p.name} is a {job} and enjoys having time for {interests[0]}"}.get(
        workplace, f"{p.name} is {_a(job)}"
        + ("" if workplace is None or workplace in job or workplace == p.home
           else f" at {workplace}") + (" and works from home" if workplace == p.home else ""))
    clauses = [work, f"{p.name} is {traits[0]}, {traits[1]} and {traits[2]}"]
    if p.household:
        names = ", ".join(p.household[:-1]) + (" and " if len(p.household) > 1 else "") \
            + p.household[-1]
        clauses.append(f"{first} lives at {p.home} with {names}")
    else:
        clauses.append(f"{first} lives alone at {p.home}")
    for name, how in p.family.items():
        if how != "a housemate":
            clauses.append(f"{name} is {first}'s {how.split(' ', 1)[1]}")
    clauses.append(f"{first} loves {interests[0]} and {interests[1]}")
    lunch = next((b["place"] for b in blocks if b["activity"] == "having lunch"), None)
    if lunch and lunch != workplace:
        clauses.append(f"{first} usually has lunch at {lunch}")
    friend = next((n for n, how in p.rels.items() if how.startswith(("a friend", "an old"))), None)
    if friend:
        clauses.append(f"{first} likes catching up with {friend} when {they} can")
    goal = rng.choice(GOALS).replace("themself", "herself" if p.female else "himself")
    clauses.append(f"{first} {goal}")
    return "; ".join(clauses)


def _a(phrase: str) -> str:
    """The phrase with its indefinite article: 'an architect', 'a tailor'."""
    return f"{'an' if phrase[0] in 'aeiou' else 'a'} {phrase}"


def introduce(base: list[dict], made: list[dict]) -> None:
    """The first town's residents come to know the newcomers who work beside them."""
    by_name = {r["name"]: r for r in base}
    for r in made:
        for name, how in r["relationships"].items():
            if name in by_name and how.startswith(("the owner", "the bartender", "the pharm",
                                                   "a professor")):
                other = by_name[name]
                if len(other["relationships"]) < 12 and r["workplace"] == other["workplace"]:
                    other["relationships"][r["name"]] = f"a {r['occupation'].split(' at ')[0]}" \
                        f" who works with {'her' if 'she' in other['seed'] else 'them'}"


def make(size: int, seed: int = SEED) -> dict:
    """The whole scenario of a town of `size` residents, as a JSON-ready document."""
    base = json.loads(BASE.read_text(encoding="utf-8"))
    name = f"smallville{size}"
    town = load_town(ROOT / "maps" / f"{name}.tmx")
    rng = random.Random(seed * 1000 + size)
    residents = [dict(r, relationships=dict(r["relationships"])) for r in base["residents"]]
    taken = {r["home"] for r in residents}
    homes = new_homes(town, taken)
    namer = Namer(rng, {r["name"] for r in residents})
    people = households(rng, homes, size - len(residents), namer)
    assign_jobs(rng, people, size)
    relate(rng, people, homes)
    made = [persona(rng, town, p) for p in people]
    introduce(residents, made)
    intents = [{k: v for k, v in i.items() if k != "paper"} for i in base["intents"]]
    return {"format": 1, "name": name, "map": f"{name}.tmx", "start": base["start"],
            "intents": intents, "residents": residents + made}


def main(argv: list[str] | None = None) -> int:
    """Write the bigger towns' scenarios under --out (default: the repository root)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="root folder to write into")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--town", choices=sorted(TOWNS), action="append")
    args = parser.parse_args(argv)
    for name in args.town or sorted(TOWNS):
        doc = make(TOWNS[name], args.seed)
        path = args.out / "saves" / "scenarios" / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path}: {len(doc['residents'])} residents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
