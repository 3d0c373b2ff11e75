"""News: which remembered facts a resident would pass on, and to whom.

This is how information spreads through town: a fact is shareable when it is public (a
party, an election), important, and not private (a crush, a secret, a grudge). A fact the
speaker already told this listener, or heard from them, is not told again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from game.core.records import MemoryKind, MemoryRecord, Utterance
from game.world.scenario import Resident

from .memtext import chat_partner, said, transcript
from .util import coverage, first_name, has_any, is_person, mentions, sentence

NEWS_KEYS = (
    "party", "celebrat", "election", "mayor", "campaign", "exhibition", "show\\b", "concert",
    "festival", "grand opening", "wedding", "invit", "running for", "vote", "gallery",
    "fair\\b", "gathering", "picnic", "debate", "rally", "open mic",
)  # fmt: skip
PRIVATE_KEYS = (
    "crush", "secret", "in love", "feelings for", "attracted to", "private", "confiden",
    "don't tell", "do not tell", "affair", "does not like", "doesn't like", "dislike",
    "hates?\\b", "can't stand",
)  # fmt: skip
NEWS_MIN_IMPORTANCE = 6
SAME_FACT = 0.6  # share of a fact's words another text must hold to count as the same fact
MAX_NEWS_PER_TALK = 2

_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'll|me|my|we|we're|our|you|your)\b")
_SUBJECT = re.compile(r"^([A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?)\b")


@dataclass(frozen=True)
class News:
    """A fact worth passing on, as a plain third-person statement without a full stop."""

    fact: str
    source: str  # who told the holder; '' for the holder's own knowledge
    importance: int
    created: datetime
    own: bool  # the holder is the fact's subject (its own party, its own campaign)

    @property
    def subject(self) -> str:
        return subject_of(self.fact)


def subject_of(fact: str) -> str:
    """The name a fact is about: 'Sam Moore' in 'Sam Moore is running for mayor'."""
    m = _SUBJECT.match(fact)
    return m.group(1) if m and is_person(m.group(1)) and "'" not in m.group(1) else ""


def is_private(text: str) -> bool:
    return has_any(text, PRIVATE_KEYS)


def is_news(text: str) -> bool:
    return has_any(text, NEWS_KEYS) and not is_private(text)


def third_person(fact: str, persona: Resident) -> str:
    """'Isabella is planning ...' -> 'Isabella Rodriguez is planning ...' for the holder."""
    fact = sentence(fact)
    first = first_name(persona.name)
    if fact.startswith(first + " ") and not fact.startswith(persona.name):
        return persona.name + fact[len(first) :]
    return fact


def facts_in(memory: MemoryRecord, holder: Resident) -> list[tuple[str, str]]:
    """(fact, source) pairs a memory states in the third person. Plans and reflections
    state no facts about the world; a visitor's claims are not taken as facts."""
    if memory.kind in (MemoryKind.REFLECTION, MemoryKind.PLAN):
        return []
    heard = said(memory)
    if heard is not None:
        return [(sentence(heard[1]), heard[0])]
    lines = transcript(memory)
    if lines:
        return _transcript_facts(lines, memory, holder)
    if memory.kind is MemoryKind.CHAT:
        return []
    return [(third_person(memory.text, holder), memory.heard_from)]


def _transcript_facts(
    lines: list[tuple[str, str]], memory: MemoryRecord, holder: Resident
) -> list[tuple[str, str]]:
    """Plain third-person sentences said in a conversation, with who said them."""
    out = []
    for speaker, line in lines:
        own = speaker in (holder.name, first_name(holder.name))
        source = "" if own else (speaker if " " in speaker else chat_partner(memory))
        for part in re.split(r"(?<=[.!?])\s+", line):
            part = sentence(part.rstrip("!?"))
            if " " in subject_of(part) and not _FIRST_PERSON.search(part):
                out.append((part, source))  # only 'Full Name does ...'
    return out


def shareable(memories: tuple[MemoryRecord, ...], holder: Resident) -> list[News]:
    """The holder's public news, best first: most important, own news, most recent."""
    found: list[News] = []
    for m in memories:
        if m.importance < NEWS_MIN_IMPORTANCE or m.kind is MemoryKind.REFLECTION:
            continue
        for fact, source in facts_in(m, holder):
            if not is_news(fact):
                continue
            own = mentions(subject_of(fact), first_name(holder.name))
            found.append(News(fact, source, m.importance, m.created, own))
    found.sort(key=lambda n: (n.importance + int(n.own), n.created), reverse=True)
    return _dedupe(found)


def _dedupe(news: list[News]) -> list[News]:
    """One fact per piece of news: the same words, or the same topic about the same person."""
    out: list[News] = []
    for n in news:
        if not any(same_fact(n.fact, o.fact) or same_story(n.fact, o.fact) for o in out):
            out.append(n)
    return out


def topic(fact: str) -> str:
    """The news word a fact turns on ('party', 'mayor'), or ''."""
    return next((k for k in NEWS_KEYS if has_any(fact, (k,))), "")


def same_story(a: str, b: str) -> bool:
    """Two facts about the same person's party (or campaign ...) are one story."""
    return bool(topic(a)) and topic(a) == topic(b) and subject_of(a) == subject_of(b)


def same_fact(a: str, b: str) -> bool:
    return coverage(a, b) >= SAME_FACT or coverage(b, a) >= SAME_FACT


def told(fact: str, partner: str, memories: tuple[MemoryRecord, ...]) -> bool:
    """Whether a past conversation with the partner already carried this fact."""
    for m in memories:
        if m.kind is not MemoryKind.CHAT:
            continue
        if chat_partner(m) == partner and coverage(fact, m.text) >= SAME_FACT:
            return True
    return False


def news_for(
    memories: tuple[MemoryRecord, ...],
    holder: Resident,
    partner: str,
    history: tuple[Utterance, ...] = (),
) -> list[News]:
    """What the holder could still tell this partner, best first."""
    said = [u.shares for u in history if u.shares] + [u.text for u in history]
    out = []
    for n in shareable(memories, holder):
        if mentions(n.subject, first_name(partner)) and n.subject:
            continue  # nobody needs to be told about their own party
        if n.source == partner or told(n.fact, partner, memories):
            continue
        if any(coverage(n.fact, s) >= SAME_FACT or same_story(n.fact, s) for s in said):
            continue
        out.append(n)
    return out


def known_fact(fact: str, memories: tuple[MemoryRecord, ...]) -> MemoryRecord | None:
    """The memory by which the holder already knows the fact, if any."""
    for m in memories:
        if m.kind is not MemoryKind.REFLECTION and coverage(fact, m.text) >= SAME_FACT:
            return m
    return None
