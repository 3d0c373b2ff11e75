"""Breaking a plan item into hour-ish chunks or 5-15 minute actions.

An item is classified (activities/) and split by its activity's table. Hour chunks take
the activity's hour phrases, so when a chunk is itself decomposed the phrase tells which
part of the activity it is: opening steps only at the start, closing steps only at the end.
The sub-items always start at the item's start, touch, and add up to its exact minutes.

When the question says what the item's place offers (its rooms and things, by role), the
activity is the one that fits there (activities.fitting: lectures at home become lecture
notes at a desk) and only steps the place can host are taken.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import timedelta
from enum import Enum

from game.core.records import PlanItem
from game.world.scenario import Resident
from game.world.town import sector_of

from .activities import GENERIC, Activity, Step, classify, event_of, fitting, usable
from .places import Directory, refine
from .spots import ANYTHING, Offers
from .util import pick, stable_int

FINE_GRAIN_LIMIT = 30  # grains below this mean 5-15 minute actions
DEFAULT_HOURS = ("{what}", "still {what}")
STILL, RESUME = "still ", "getting back to "  # a middle chunk; the rest of an interrupted item
MIN_STEP = 5
MEAL_WORDS = ("breakfast", "brunch", "lunch", "dinner", "supper", "snack")
COUNTABLE_MEALS = ("snack", "meal")  # 'eating a snack', but 'eating lunch'


class Role(Enum):
    """Which part of an activity an item is."""

    WHOLE = "whole"
    FIRST = "first"
    MIDDLE = "middle"
    LAST = "last"
    RESUME = "resume"  # the rest of an item that a meal or an event interrupted


@dataclass(frozen=True)
class Job:
    persona: Resident
    item: PlanItem
    activity: Activity
    key: tuple[object, ...]
    directory: Directory
    offers: Offers | None = ANYTHING
    instead: bool = False  # the activity stands in for the one the words name

    @property
    def what(self) -> str:
        if self.instead and self.activity.words:
            return self.activity.words
        return self.item.description.removeprefix(STILL).removeprefix(RESUME)

    @property
    def meal(self) -> str:
        return meal_word(self.item.description)

    @property
    def event(self) -> str:
        """The event's own name ('quiz night'), for a step's {event}."""
        return event_of(self.item.description.removeprefix(STILL).removeprefix(RESUME))

    def fill(self, text: str) -> str:
        return text.format(what=self.what, meal=self.meal, event=self.event)


def meal_word(text: str) -> str:
    low = text.lower()
    word = next((w for w in MEAL_WORDS if re.search(rf"\b{w}\b", low)), "meal")
    return f"a {word}" if word in COUNTABLE_MEALS else word


def decompose(
    persona: Resident,
    item: PlanItem,
    grain: int,
    seed: int,
    directory: Directory | None = None,
    offers: Offers | None = ANYTHING,
) -> list[PlanItem]:
    """`offers` is what the item's place has (spots.offers_of the question's spots);
    ANYTHING when the question did not say."""
    if item.minutes <= 0:
        return [item]
    at_home = sector_of(item.place) == persona.home if item.place else None
    named = classify(item.description, at_home)
    activity = fitting(named, offers)
    key = (seed, persona.name, item.start.isoformat(), item.description)
    job = Job(persona, item, activity, key, directory or Directory(), offers, activity is not named)
    if grain >= FINE_GRAIN_LIMIT:
        return _chunks(job, grain)
    return _actions(job)


# -- hour-level chunks ------------------------------------------------------------------------
def _chunks(job: Job, grain: int) -> list[PlanItem]:
    item = job.item
    n = max(1, round(item.minutes / grain))
    if n == 1:
        return [replace(item, description=job.what) if job.instead else item]
    lengths = split_evenly(item.minutes, n)
    texts = _chunk_texts(job, n)
    out, start = [], item.start
    for text, minutes in zip(texts, lengths, strict=True):
        out.append(PlanItem(text, start, minutes, item.place))
        start += timedelta(minutes=minutes)
    return out


def _chunk_texts(job: Job, n: int) -> list[str]:
    hours = job.activity.hours or DEFAULT_HOURS
    role = _role(job)
    if job.activity.hours and role not in (Role.WHOLE, Role.RESUME):
        hours = DEFAULT_HOURS  # a chunk of a chunk: keep its words
    first, middles = hours[0], hours[1:-1] or hours[-1:]
    last = hours[-1] if job.activity.hours else hours[1]
    if role is Role.RESUME:
        first = job.item.description if not job.activity.hours else pick(middles, *job.key)
    texts = [first]
    for i in range(1, n - 1):
        texts.append(pick(middles, *job.key, "hour", i))
    texts.append(last)
    return [job.fill(t) for t in texts]


def split_evenly(total: int, n: int) -> list[int]:
    """n positive parts adding up to total, in whole five minutes where possible."""
    unit = 5 if total % 5 == 0 and total >= 5 * n else 1
    units = total // unit
    base, extra = divmod(units, n)
    return [(base + (1 if i < extra else 0)) * unit for i in range(n)]


# -- fine actions ------------------------------------------------------------------------------
def _role(job: Job) -> Role:
    """Whether the item is a whole activity or one of its hour chunks."""
    text = job.item.description
    if text.startswith(STILL):
        return Role.MIDDLE
    if text.startswith(RESUME):
        return Role.RESUME
    hours = [job.fill(h) for h in job.activity.hours]
    if not hours or text not in hours:
        return Role.WHOLE
    if text == hours[0]:
        return Role.FIRST
    return Role.LAST if text == hours[-1] else Role.MIDDLE


def _actions(job: Job) -> list[PlanItem]:
    out: list[PlanItem] = []
    start = job.item.start
    for text, minutes, spot in _steps(job):
        text = job.fill(text)
        place = refine(job.item.place, spot, job.persona, job.directory)
        if out and out[-1].description == text and out[-1].place == place:
            out[-1] = PlanItem(text, out[-1].start, out[-1].minutes + minutes, place)
        else:
            out.append(PlanItem(text, start, minutes, place))
        start += timedelta(minutes=minutes)
    return out


def _steps(job: Job) -> list[Step]:
    """Opening steps, middle steps cycled in a stable shuffled order, closing steps."""
    role, activity, total = _role(job), job.activity, job.item.minutes
    first, last = usable(activity.first, job.offers), usable(activity.last, job.offers)
    opening = list(first) if role in (Role.WHOLE, Role.FIRST) else []
    closing = list(last) if role in (Role.WHOLE, Role.LAST, Role.RESUME) else []
    pool = usable(activity.middle, job.offers) or GENERIC.middle
    middle = [pool[0], *_shuffled(pool[1:], job.key)]  # the core action comes first
    steps = list(opening)
    need = total - _sum(opening) - _sum(closing)
    i = 0
    while need > 0:
        step = middle[i % len(middle)]
        steps.append(step)
        need -= step[1]
        i += 1
    steps += closing
    return _fit(steps, len(closing), total)


def _shuffled(steps: tuple[Step, ...], key: tuple[object, ...]) -> list[Step]:
    """A stable shuffle keyed by the steps' words, so where a step happens never reorders
    the steps."""
    return sorted(steps, key=lambda s: stable_int(*key, s[0], s[1]))


def _fit(steps: list[Step], closing: int, total: int) -> list[Step]:
    """Make the steps add up to exactly `total`: shorten or drop the last step before the
    closing ones (keeping whole five minutes), or lengthen it."""
    out = [list(step) for step in steps]
    while _sum(out) > total and len(out) > 1:
        i = len(out) - closing - 1 if closing < len(out) else len(out) - 1
        over = _sum(out) - total
        if out[i][1] - over >= MIN_STEP:
            out[i][1] -= over
            continue
        if i >= len(out) - closing:
            closing -= 1
        del out[i]
    i = max(0, len(out) - closing - 1)
    out[i][1] += total - _sum(out)
    return [(text, minutes, spot) for text, minutes, spot in out]


def _sum(steps: list[Step]) -> int:
    return sum(m for _, m, _ in steps)
