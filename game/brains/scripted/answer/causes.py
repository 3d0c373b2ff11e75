"""Asked whether anyone wants a hand: the public causes one knows of.

'Can I help?' offers help to the one asked; 'Is anyone looking for help with something?'
asks who in town wants some. What people in town ask of others is the scenario's public
intents with no date (a campaign, a call for volunteers, a petition, someone wanting
testers): one who holds or heard of such a cause names it, whoever it is and whatever its
words; one who knows of none says so.
"""

from __future__ import annotations

import re
from dataclasses import replace

from game.brains.dialogue.acts import Act
from game.brains.dialogue.understand import content_stems
from game.brains.questions import AgentContext
from game.core.records import FactKind, MemoryRecord

from .. import interview as iv
from ..news import facts_in, is_private
from ..wording import first_person
from .events import _OPENERS, _told, plan_event

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


def plan_happenings(ctx: AgentContext, act: Act, seed: int) -> str:
    """'Anything going on in town?' asks of every happening, not only of dated ones: the
    event one knows best (`plan_event`), then a cause with no date one knows of (a call for
    volunteers, a campaign), as a person tells both. A question naming an event, or
    following one up, is about that event alone."""
    if act.intent or act.named or act.follow_up:
        return plan_event(ctx, act, seed)
    causes = known_causes(ctx)
    if not causes:
        return plan_event(ctx, act, seed)
    told = {m.fact.intent for m in causes}  # the events, then one cause: each said once
    line = plan_event(replace(ctx, memories=tuple(m for m in ctx.memories
                                                  if m.fact.intent not in told)), act, seed)
    if not line:
        return _cause_line(ctx, causes[0])
    s = facts_in(causes[0], ctx.persona)[0]
    asked, cause = content_stems(act.text), causes[0].fact.intent
    its = set().union(*(content_stems(m.text) for m in ctx.memories if m.fact.intent == cause))
    if asked & its and not asked & content_stems(line):
        return f"{_cause_line(ctx, causes[0])} {_also(line)}"  # 'anyone asking for help?'
    if s.subject == ctx.persona.name:
        return f"{line} And {first_person(s.text, ctx.persona)}."
    return f"{line} {_also(_told(s.source, s.subject, s.text))}"


def _also(line: str) -> str:
    """A second piece of news run on: 'Also, there was ...', 'Also, Tom told me ...'."""
    first = line.split(" ", 1)[0]
    keep = first == "I" or first[:1].isupper() and first not in _OPENERS
    return f"Also, {line if keep else line[:1].lower() + line[1:]}"


def known_causes(ctx: AgentContext) -> list[MemoryRecord]:
    """One memory per public intent with no date the memories hold, one's own first, then
    the most important and the latest. An intent with an event is an event, whatever
    words of it came without the date ('Carlos wants neighbours to come')."""
    best: dict[str, MemoryRecord] = {}
    dated = {m.fact.intent for m in ctx.memories if m.fact.event is not None}
    for m in ctx.memories:
        f = m.fact
        if not f.intent or f.event is not None or f.private or is_private(m.text):
            continue
        if f.intent in dated:
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
