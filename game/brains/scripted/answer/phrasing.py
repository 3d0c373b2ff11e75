"""Phrasing and word sets the planners share: days and clock times as said, a claim quoted
as a claim, the question's words without the place it names, one's housemates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from game.brains.dialogue.acts import Act
from game.brains.dialogue.understand import content_stems
from game.brains.questions import AgentContext
from game.core.records import Event, MemoryRecord, Source

from .. import selfknow
from ..util import first_name

Planner = Callable[[AgentContext, Act, int], str]


def _day(now: datetime, when: datetime) -> str:
    if when.date() == now.date():
        return "today"
    if when.date() == now.date() + timedelta(days=1):
        return "tomorrow"
    if when.date() == now.date() - timedelta(days=1):
        return "yesterday"
    return f"on {when:%A}, {when:%B} {when.day}"


def _clock(when: datetime) -> str:
    return selfknow.clock(when.hour * 60 + when.minute)


def _when_words(now: datetime, event: Event) -> str:
    day = _day(now, event.start)
    return f"{day} from {_clock(event.start)} to {_clock(event.end)}"


def _claim_line(ctx: AgentContext, m: MemoryRecord) -> str:
    """A visitor's words or a notice, quoted as what they are: someone else's claim."""
    who = _source_words(m)
    said = m.fact.object.strip().rstrip(".!")
    event = m.fact.event
    if event is not None and event.end <= ctx.now:
        day = _day(ctx.now, event.start)
        return f'{who} told me "{said}". That was {day}, so it\'s over now.'
    return f'{who} told me "{said}". I haven\'t checked it myself.'


def _source_words(m: MemoryRecord) -> str:
    if m.fact.source is Source.NOTICE:
        return f"A notice on {m.fact.heard_from}" if m.fact.heard_from else "A notice"
    heard = m.fact.heard_from
    if m.fact.source is Source.VISITOR:
        return "A visitor" if not heard or "visitor" in heard.lower() else f"{heard}, a visitor,"
    return first_name(heard) or "Someone"


def _without_place(act: Act) -> str:
    return act.text.replace(act.place, " ") if act.place else act.text
_VISIT_WORDS = frozenset(content_stems(
    "go often visit regular come usually frequently much lot lots there spend spent time "
    "times hang hanging out frequent drop pop stop by ever been week day days every most "
    "part usual routine daily regularly"))  # fmt: skip


_HERE = re.compile(r"\b(?:here|this place|is this|this is)\b", re.I)
_LIVES = frozenset(content_stems("live lives living home house"))


# how one finds one's work, asked yes or no ('Is your job enjoyable?'): a feeling, no job
_FINDS_WORDS = frozenset(content_stems("enjoyable fun rewarding satisfying interesting "
                                       "fulfilling"))  # fmt: skip
_WORK_WORDS = frozenset(content_stems("work job like enjoy love happy working jobs career")) \
    | _FINDS_WORDS  # fmt: skip


def _housemates(ctx: AgentContext) -> list[str]:
    return [n for n in ctx.persona.household if n != ctx.persona.name]
