"""The activity table in its one order, and how a description is classified by it.

Read top to bottom: the first activity whose keys match the description wins, so
specific activities (a party, breakfast) come before broad ones (work at the cafe). The
entries live in their topic's module; their order is this module's to say.
"""

from __future__ import annotations

import re

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
    """The first activity in the table whose keys match (and whose home rule fits).

    A place's name says where, not what: 'reading at Hobbs Cafe' is reading, not cafe
    work, so the words without proper place names are tried first; the full words only
    when those name no activity ('working at Hobbs Cafe'). What one reads about is a
    topic too: 'reading about cooking' is reading, not cooking at a stove."""
    bare = READ_TOPIC.sub(r"\1", PLACE_NAME.sub("", description))
    found = _first_match(bare, at_home) if bare != description else GENERIC
    return found if found is not GENERIC else _first_match(description, at_home)


READ_TOPIC = re.compile(r"\b(read\w*|learn\w*) (?:up )?(?:about|on) .*?(?=\s(?:at|in) |$)")
# ' at Hobbs Cafe', ' to The Rose and Crown Pub': a preposition and capitalised words
PLACE_NAME = re.compile(
    r"\s(?:at|in|to|from|near|by|outside|inside) (?:the |The )?"
    r"[A-Z][\w']*(?:(?: and| of)? [A-Z][\w']*)*"
)


def _first_match(description: str, at_home: bool | None) -> Activity:
    if fix_of(description) is not None:  # a fix, by the troubles table
        return FIXING
    for activity in ACTIVITIES:
        if activity.at_home is False and at_home is not False:
            continue  # 'ordering lunch' needs to know it happens away from home
        if activity.at_home is True and at_home is False:
            continue
        if has_any(description, activity.keys):
            return activity
    return GENERIC


STEPS_BY_TEXT = _steps_by_text()
