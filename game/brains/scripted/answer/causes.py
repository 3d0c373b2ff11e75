"""Asked whether anyone wants a hand: the public causes one knows of.

'Can I help?' offers help to the one asked; 'Is anyone looking for help with something?'
asks who in town wants some. What people in town ask of others is the scenario's public
intents with no date (a campaign, a call for volunteers, a petition, someone wanting
testers): one who holds or heard of such a cause names it, whoever it is and whatever its
words; one who knows of none says so.
"""

from __future__ import annotations

import re

from game.brains.dialogue.acts import Act
from game.brains.questions import AgentContext
from game.core.records import FactKind, MemoryRecord

from .. import interview as iv
from ..news import facts_in, is_private
from ..wording import first_person
from .events import _told

# someone other than the two talking: 'anyone', 'somebody', 'people', 'who ... needs'
_OTHERS = re.compile(
    r"\b(?:any|some|every|no)(?:one|body)\b|\bpeople\b|\bneighbou?rs?\b|\bfolks?\b|\bwho\b"
    r"|\bsomeone\b",
    re.I,
)
_ASKED_ME = re.compile(r"\b(?:help|hand|do for|get) you\b|\byou (?:need|want)\b", re.I)


def asks_of_others(text: str) -> bool:
    """Whether a question about help asks who else wants some, not offers it to you."""
    return bool(_OTHERS.search(text)) and not _ASKED_ME.search(text)


def plan_help(ctx: AgentContext, act: Act, seed: int) -> str:
    """An offer of help is thanked; asked who wants help, the causes one knows of."""
    if not asks_of_others(act.text):
        return iv._small_talk(ctx, act.text, seed)
    causes = known_causes(ctx)
    if not causes:
        return "Not that I know of. Nobody's asked me for a hand lately."
    return " ".join(_cause_line(ctx, m) for m in causes[:2])


def known_causes(ctx: AgentContext) -> list[MemoryRecord]:
    """One memory per public intent with no date the memories hold, one's own first, then
    the most important and the latest."""
    best: dict[str, MemoryRecord] = {}
    for m in ctx.memories:
        f = m.fact
        if not f.intent or f.event is not None or f.private or is_private(m.text):
            continue
        if f.kind not in (FactKind.STATEMENT, FactKind.CLAIM):
            continue  # what one was doing is not the cause itself
        if not facts_in(m, ctx.persona):
            continue
        held = best.get(f.intent)
        if held is None or _rank(ctx, m) > _rank(ctx, held):
            best[f.intent] = m
    return sorted(best.values(), key=lambda m: _rank(ctx, m), reverse=True)


def _rank(ctx: AgentContext, m: MemoryRecord) -> tuple:
    stated = facts_in(m, ctx.persona)
    own = bool(stated) and stated[0].subject == ctx.persona.name
    return (own, m.importance, m.created)


def _cause_line(ctx: AgentContext, m: MemoryRecord) -> str:
    s = facts_in(m, ctx.persona)[0]
    if s.subject == ctx.persona.name:
        return f"I am! {first_person(s.text, ctx.persona)}."
    return _told(s.source, s.subject, s.text)
