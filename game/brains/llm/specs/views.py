"""Pieces of prompt text several specs fill their templates with: times, numbered lists,
memories, a persona in a line, where one is.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from game.brains.llm.specs.quoting import clip
from game.brains.questions import AgentContext
from game.core.records import MemoryRecord
from game.core.text import with_article
from game.world.scenario import Resident


def hhmm(when: datetime) -> str:
    return when.strftime("%H:%M")


def numbered(texts: Sequence[str], limit: int = 160) -> str:
    if not texts:
        return "(nothing)"
    return "\n".join(f"{i}. {clip(t, limit)}" for i, t in enumerate(texts, 1))


def memory_lines(memories: Sequence[MemoryRecord], limit: int = 160) -> str:
    """Each memory text once: retrieval can bring the same sight back three times."""
    return numbered(list(dict.fromkeys(m.text for m in memories)), limit)


def persona_line(p: Resident) -> str:
    return f"{p.name} ({p.age}; {', '.join(p.traits)}) is {with_article(p.occupation)}."


def where(ctx: AgentContext) -> str:
    """The agent's address as prose ('Hobbs Cafe, cafe'), or 'outdoors'."""
    return ctx.location.replace(":", ", ") if ctx.location else "outdoors"


def persona_places(p: Resident, memories: Sequence[MemoryRecord] = ()) -> list[str]:
    """The places a resident's own facts name: known places, home, work, events."""
    events = [m.fact.event.place for m in memories if m.fact.event is not None]
    named = [*p.known_places, p.home, p.workplace or "", *events]
    return list(dict.fromkeys(x.split(":")[0] for x in named if x))
