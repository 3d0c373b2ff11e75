"""The activity table in its one order, and how a description is classified by it.

Read top to bottom: the first activity whose keys match the description wins, so
specific activities (a party, breakfast) come before broad ones (work at the cafe). The
entries live in their topic's module; their order is this module's to say.
"""

from __future__ import annotations

import re
from functools import lru_cache

from game.world.troubles import fix_of

from ..spots import Offers, Spot, affords, offered
from ..util import has_any
from .home import (
    BEDTIME,
    BREAKFAST,
    CLEANING,
    COOKING,
    EATING,
    GARDENING,
    LAUNDRY,
    MORNING,
    RELAXING,
    SLEEPING,
    TELEVISION,
)
from .kind import FIXING, GENERIC, Activity, Step
from .pursuits import (
    DIGITAL_ART,
    MUSIC,
    PAINTING,
    PERFORMING,
    PHOTO_EDITING,
    PHOTOGRAPHY,
    READING,
    STREAMING,
    STUDYING,
    WRITING,
)
from .social import (
    COFFEE,
    EATING_OUT,
    EVENT_VISIT,
    EXERCISE,
    HOSTING,
    PARTY,
    PARTY_PREP,
    PUB,
    SHOPPING,
    SOCIALISING,
    WALKING,
)
from .work import (
    ADMIN,
    BAR_WORK,
    CAFE_WORK,
    CAMPAIGN,
    CLASS,
    LAW,
    LECTURE_PREP,
    PHARMACY,
    PROGRAMMING,
    SHOP_WORK,
    TEACHING,
)

ACTIVITIES: tuple[Activity, ...] = (
    FIXING,
    PARTY_PREP,
    EVENT_VISIT,
    PARTY,
    HOSTING,
    SLEEPING,
    BEDTIME,
    MORNING,
    BREAKFAST,
    COOKING,
    EATING_OUT,
    EATING,
    CAMPAIGN,
    PHARMACY,
    SHOPPING,
    ADMIN,
    PERFORMING,
    BAR_WORK,
    PUB,
    SHOP_WORK,
    PROGRAMMING,
    CAFE_WORK,
    LECTURE_PREP,
    TEACHING,
    CLASS,
    LAW,
    MUSIC,
    STREAMING,
    PHOTO_EDITING,
    PHOTOGRAPHY,
    DIGITAL_ART,
    PAINTING,
    EXERCISE,
    WALKING,
    TELEVISION,
    WRITING,
    STUDYING,
    READING,
    GARDENING,
    LAUNDRY,
    CLEANING,
    COFFEE,
    SOCIALISING,
    RELAXING,
)
BY_KEY: dict[str, Activity] = {a.key: a for a in ACTIVITIES}


def fits(activity: Activity, offers: Offers | None) -> bool:
    """Whether a place offers something the activity needs (unknown offers: it does)."""
    return not activity.needs or any(offered(n, offers) for n in activity.needs)


def fitting(activity: Activity, offers: Offers | None) -> Activity:
    """The activity, or what it becomes where the place lacks what it needs: television
    without a television is relaxing, relaxing without a seat is reading."""
    seen = {activity.key}
    while not fits(activity, offers) and activity.otherwise not in ("", *seen):
        activity = BY_KEY[activity.otherwise]
        seen.add(activity.key)
    return activity if fits(activity, offers) else GENERIC


def usable(steps: tuple[Step, ...], offers: Offers | None) -> tuple[Step, ...]:
    """The steps the place can host (spots.affords)."""
    return tuple(s for s in steps if affords(s[2], offers))


def steps_named(text: str) -> list[tuple[Activity, Spot | None]]:
    """Every activity whose table has a step of these words, with the step's spot: what
    an action needs, for checking where it was placed (tools/plan_audit.py)."""
    return list(STEPS_BY_TEXT.get(text, ()))


def _steps_by_text() -> dict[str, tuple[tuple[Activity, Spot | None], ...]]:
    out: dict[str, list[tuple[Activity, Spot | None]]] = {}
    for activity in ACTIVITIES:
        for text, _, spot in activity.steps():
            if "{" not in text:
                out.setdefault(text, []).append((activity, spot))
    return {k: tuple(v) for k, v in out.items()}


def classify(description: str, at_home: bool | None = None) -> Activity:
    """The first activity in the table whose keys match (and whose home rule fits); an
    event in the planner's words or an hour of one is a gathering whatever its name.

    A place's name says where, not what: 'reading at Hobbs Cafe' is reading, not cafe
    work, so the words without proper place names are tried first; the full words only
    when those name no activity ('working at Hobbs Cafe'). What one reads about is a
    topic too: 'reading about cooking' is reading, not cooking at a stove."""
    gathering = _gathering(description)
    if gathering is not None:
        return gathering
    bare = READ_TOPIC.sub(r"\1", PLACE_NAME.sub("", description))
    found = _first_match(bare, at_home) if bare != description else GENERIC
    return found if found is not GENERIC else _first_match(description, at_home)


def event_of(description: str) -> str:
    """The event a description is about, by name ('quiz night' in "going to Arthur's quiz
    night at The Rose and Crown Pub" or 'enjoying the quiz night'), else 'event': what a
    step's {event} says, so the words are the scenario's and never a kind the code
    assumed."""
    for pattern, _ in (*HOUR_PATTERNS, *PLANNER_PATTERNS):
        m = pattern.fullmatch(description)
        if m is not None:
            return m.group("event")
    m = FOR_THE.search(description)
    return m.group(1) if m else "event"


def _gathering(description: str) -> Activity | None:
    """An hour of a gathering, told by its activity's own hour words ('enjoying the quiz
    night'), or an event as the planner words it (plans.event_text): a host hosts, a
    guest visits, and either is at a party when the name says party."""
    for pattern, activity in HOUR_PATTERNS:
        if pattern.fullmatch(description):
            return activity
    for pattern, hosts in PLANNER_PATTERNS:
        m = pattern.fullmatch(description)
        if m is not None:
            if has_any(m.group("event"), PARTY.keys):
                return PARTY
            return HOSTING if hosts else EVENT_VISIT
    return None


def _hour_patterns() -> tuple[tuple[re.Pattern[str], Activity], ...]:
    out = []
    for activity in (PARTY_PREP, EVENT_VISIT, PARTY, HOSTING):
        for hour in activity.hours:
            head, _, tail = hour.partition("{event}")
            if _:
                out.append(
                    (re.compile(re.escape(head) + r"(?P<event>.+?)" + re.escape(tail)), activity)
                )
    return tuple(out)


HOUR_PATTERNS = _hour_patterns()
# The planner's words for an event (plans.event_text), host first: 'hosting the quiz night
# at The Rose and Crown Pub', "going to Arthur's quiz night at ...", 'going to the fair at ...'
_AT_PLACE = r" (?:at|in) \S.*"
PLANNER_PATTERNS = (
    (re.compile(r"hosting the (?P<event>.+?)" + _AT_PLACE), True),
    (re.compile(r"going to (?:the |[A-Z][\w-]*'s )(?P<event>.+?)" + _AT_PLACE), False),
)
FOR_THE = re.compile(r"\bfor the ((?:(?!\bfor the\b).)+?)(?: at [A-Z].*)?$")
READ_TOPIC = re.compile(r"\b(read\w*|learn\w*) (?:up )?(?:about|on) .*?(?=\s(?:at|in) |$)")
# ' at Hobbs Cafe', ' to The Rose and Crown Pub': a preposition and capitalised words
PLACE_NAME = re.compile(
    r"\s(?:at|in|to|from|near|by|outside|inside) (?:the |The )?"
    r"[A-Z][\w']*(?:(?: and| of)? [A-Z][\w']*)*"
)


def _first_match(description: str, at_home: bool | None) -> Activity:
    if fix_of(description) is not None:  # a fix, by the troubles table
        return FIXING
    return _first_in_table(description, at_home)


@lru_cache(maxsize=1 << 14)
def _first_in_table(description: str, at_home: bool | None) -> Activity:
    """The first activity of the (fixed) table matching: remembered by its words, since
    every resident's status is classified many times an hour (a town of 100 ran 1.7
    million key searches a day)."""
    for activity in ACTIVITIES:
        if activity.at_home is False and at_home is not False:
            continue  # 'ordering lunch' needs to know it happens away from home
        if activity.at_home is True and at_home is False:
            continue
        if has_any(description, activity.keys):
            return activity
    return GENERIC


STEPS_BY_TEXT = _steps_by_text()
