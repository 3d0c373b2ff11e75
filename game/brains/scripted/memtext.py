"""The shapes memory texts take, read back: conversations, things said, day plans.

The architecture writes them (game/mind/cognition.py); the scripted brain reads them to know
who it talked with, what was said, and what it planned. Older or hand-written shapes
('Conversation with X: A: ... / B: ...') are read too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from game.brains.events import MONTHS
from game.core.records import MemoryKind, MemoryRecord

_NAME = r"[A-Z][\w'-]+(?: [A-Z][\w'-]+)*"
_SAID = re.compile(rf"^(?P<who>{_NAME}) said: (?P<what>.+)$", re.S)
_WITH = re.compile(r"^Conversation with (?P<who>[^:]+): (?P<body>.+)$", re.S)
_BETWEEN = re.compile(
    rf"^Conversation between (?P<a>{_NAME}) and (?P<b>{_NAME}): (?P<body>.+)$", re.S
)
_PLAN = re.compile(
    r"^(?P<who>.+?)'s plan for (?:\w+ )?(?P<month>[A-Z][a-z]+) (?P<day>\d{1,2}): (?P<body>.*)$",
    re.S,
)
_PLAN_LINE = re.compile(r"^(\d{1,2}):(\d{2})-(\d{1,2}):(\d{2}) (.+)$")


@dataclass(frozen=True)
class PlanLine:
    start: int  # minutes after midnight
    end: int  # may be past 24 * 60 for a line that runs after midnight
    text: str


def said(memory: MemoryRecord) -> tuple[str, str] | None:
    """(who, what) of a 'Maria Lopez said: ...' memory."""
    m = _SAID.match(memory.text.strip())
    return (m.group("who"), m.group("what")) if m else None


def chat_partner(memory: MemoryRecord) -> str:
    """Whom a chat memory is a conversation with ('' for other kinds of memory)."""
    if memory.kind is not MemoryKind.CHAT:
        return ""
    if memory.heard_from:
        return memory.heard_from
    text = memory.text.strip()
    for pattern, group in ((_WITH, "who"), (_SAID, "who")):
        m = pattern.match(text)
        if m is not None:
            return m.group(group).strip()
    return ""


def transcript(memory: MemoryRecord) -> list[tuple[str, str]]:
    """(speaker, line) pairs of a conversation memory; [] for anything else."""
    text = memory.text.strip()
    m = _BETWEEN.match(text) or _WITH.match(text)
    if m is None:
        return []
    separator = " | " if _BETWEEN.match(text) else " / "
    out = []
    for part in m.group("body").split(separator):
        speaker, _, line = part.partition(": ")
        out.append((speaker.strip(), line.strip()) if line else ("", part.strip()))
    return out


def plan_day(memory: MemoryRecord, year: int) -> tuple[date | None, list[PlanLine]]:
    """The day and the lines of a plan memory ('X's plan for Monday February 13: 07:00-...')."""
    if memory.kind is not MemoryKind.PLAN:
        return None, []
    m = _PLAN.match(memory.text.strip())
    if m is None:
        return None, []
    month = MONTHS.get(m.group("month").lower())
    try:
        when = date(year, month, int(m.group("day"))) if month else None
    except ValueError:
        when = None
    return when, [line for line in map(_plan_line, m.group("body").split("; ")) if line]


def _plan_line(text: str) -> PlanLine | None:
    m = _PLAN_LINE.match(text.strip())
    if m is None:
        return None
    start = int(m.group(1)) * 60 + int(m.group(2))
    end = int(m.group(3)) * 60 + int(m.group(4))
    return PlanLine(start, end if end > start else end + 24 * 60, m.group(5).strip())
