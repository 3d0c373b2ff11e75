"""Reflection questions, insights and summaries, read off the memories themselves.

Everything here counts and quotes: who appears most, which activity repeats, what news
was heard. An insight cites exactly the memories it was counted from, so nothing is said
that the cited memories do not support.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from game.brains.event_words import find_date
from game.core.records import FactKind, Insight, MemoryKind, MemoryRecord, Source
from game.world.scenario import Resident

from .activities import classify
from .news import chat_partner, facts_in, is_public_news, names, people_in
from .util import (
    article,
    counts,
    first_name,
    has_any,
    is_person,
    join_and,
    mentions,
    pronouns,
    sentence,
)

MAX_INSIGHTS = 5
MIN_EVIDENCE = 2
_FULL_NAME = re.compile(r"\b([A-Z][a-z]+ [A-Z][a-z]+)\b")
# How an activity is spoken of in an insight: 'has spent a lot of time {phrase} lately'.
ACTIVITY_PHRASES = {
    "cafe_work": "working at the cafe", "bar_work": "working behind the bar",
    "shop_work": "working in the store", "pharmacy": "working at the pharmacy",
    "studying": "studying", "writing": "writing", "painting": "painting",
    "digital_art": "drawing and animating", "music": "making music", "streaming": "streaming",
    "photography": "taking photographs", "programming": "programming", "law": "on legal work",
    "teaching": "teaching", "class": "in class", "exercise": "exercising",
    "walking": "walking", "reading": "reading", "gardening": "gardening",
    "cooking": "cooking", "socialising": "with friends", "campaign": "campaigning",
    "performing": "rehearsing and performing", "party_prep": "getting ready for guests",
    "party": "out among guests", "hosting": "hosting guests", "event_visit": "out at events",
}  # fmt: skip
TOPICS = (
    (("valentine", "party", "celebrat"), "party"),
    (("mayor", "election", "campaign", "vote"), "upcoming election"),
    (("exhibition",), "exhibition"),
    (("show\\b",), "show"),
    (("podcast",), "podcast"),
)


# -- who and what the memories are about -------------------------------------------------
def people(persona: Resident, memories: Sequence[MemoryRecord]) -> dict[str, list[int]]:
    """Each person the memories name (other than the persona) -> positions naming them.

    Who they are comes from the persona's relationships and the memories' fields; a memory
    names someone when its fields do, or its words mention a person so found. (That is
    `news.names` for each person and memory, with each memory's fields read once, not
    once a person: a crowded hour's reflections read them a hundred thousand times.)"""
    known = {n for n, _ in persona.relationships}
    fields = [people_in(m.fact) for m in memories]
    for named in fields:
        known.update(n for n in named if is_person(n))
    known.discard(persona.name)
    # A text mentions someone only if it holds their first name (a prefix of the full
    # name, and each of the text's words is a piece of it), so texts without it are not
    # read word by word: in a town of 500 a resident knows dozens, few of them named.
    texts = [m.text for m in memories]
    joined = "\n".join(texts)  # a first name holds no whitespace: in joined iff in a text
    found: dict[str, list[int]] = {}
    for n in known:
        first = first_name(n)
        if first in joined:
            found[n] = [
                i
                for i, text in enumerate(texts)
                if n in fields[i] or (first in text and mentions(text, n))
            ]
        else:
            found[n] = [i for i, named in enumerate(fields) if n in named]
    return {n: pos for n, pos in found.items() if pos}


def ranked_people(persona: Resident, memories: Sequence[MemoryRecord]) -> list[str]:
    found = people(persona, memories)
    return sorted(found, key=lambda n: (-len(found[n]), n))


def own_activities(persona: Resident, memories: Sequence[MemoryRecord]) -> dict[str, list[int]]:
    """Activity key -> positions of memories of the persona doing it."""
    out: dict[str, list[int]] = {}
    for i, m in enumerate(memories):
        if is_doing(m, persona):
            key = classify(m.text).key
            if key in ACTIVITY_PHRASES:
                out.setdefault(key, []).append(i)
    return out


def is_doing(memory: MemoryRecord, persona: Resident) -> bool:
    """'Isabella Rodriguez is making espresso': a memory of the persona's own action."""
    fact = memory.fact
    return fact.kind is FactKind.DOING and fact.subject == persona.name


def is_about_self(memory: MemoryRecord, persona: Resident) -> bool:
    """A sentence about the persona itself: a seed fact, a thought, an insight."""
    fact = memory.fact
    return fact.kind is FactKind.STATEMENT and fact.subject == persona.name


@lru_cache(maxsize=8192)
def topic_of(text: str) -> str:
    """The first topic of the table the text is on ('' for none). Kept for the next call:
    each reflection reads the same recent memories as the one before it."""
    for keys, topic in TOPICS:
        if has_any(text, keys):
            return _event_phrase(text, topic)
    return ""


def _event_phrase(text: str, topic: str) -> str:
    if topic == "party" and has_any(text, ("valentine",)):
        return "Valentine's Day party"
    return topic


# -- reflection questions --------------------------------------------------------------------
def reflect_questions(persona: Resident, recent: Sequence[MemoryRecord]) -> list[str]:
    name = persona.name
    ranked = ranked_people(persona, recent)
    topics = counts(t for t in (topic_of(m.text) for m in recent) if t)
    out: list[str] = []
    if ranked:
        out.append(f"What is {name}'s relationship with {ranked[0]}?")
    out.append(f"What is {name} most focused on lately?")
    if topics:
        top = max(sorted(topics), key=lambda t: topics[t])
        out.append(f"How does {name} feel about the {top}?")
    fallbacks = [f"How does {name} feel about {p}?" for p in ranked[1:3]]
    fallbacks += [
        f"What does {name} care about most right now?",
        f"Who has {name} been spending time with?",
    ]
    for q in fallbacks:
        if len(out) >= 3:
            break
        if q not in out:
            out.append(q)
    return out[:3]


# -- insights --------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Draft:
    text: str
    evidence: tuple[int, ...]
    weight: int  # higher first


def insights(persona: Resident, question: str, memories: Sequence[MemoryRecord]) -> list[Insight]:
    drafts: list[_Draft] = []
    subject = _question_person(persona, question, memories)
    if subject:
        drafts += _person_drafts(persona, subject, memories, weight=3)
    for person in ranked_people(persona, memories)[:2]:
        if person != subject:
            drafts += _person_drafts(persona, person, memories, weight=1)
    drafts += _news_drafts(persona, memories, weight=2 if "feel" in question.lower() else 1)
    drafts += _activity_drafts(persona, memories, weight=2 if "focus" in question else 1)
    return _best(drafts, len(memories))


def _question_person(persona: Resident, question: str, memories: Sequence[MemoryRecord]) -> str:
    for name in [*_FULL_NAME.findall(question)]:
        if name != persona.name and is_person(name):
            return name
    return ""


def _best(drafts: list[_Draft], n: int) -> list[Insight]:
    out: list[Insight] = []
    for d in sorted(drafts, key=lambda d: -d.weight):
        evidence = tuple(sorted({i for i in d.evidence if 0 <= i < n}))
        # an insight rests on at least two memories: one alone would only be restated
        if len(evidence) >= MIN_EVIDENCE and all(d.text != o.text for o in out):
            out.append(Insight(d.text, evidence))
        if len(out) == MAX_INSIGHTS:
            break
    return out


def _person_drafts(
    persona: Resident, other: str, memories: Sequence[MemoryRecord], weight: int
) -> list[_Draft]:
    name, out = persona.name, []
    chats = [i for i, m in enumerate(memories) if chat_partner(m) == other]
    if len(chats) >= 2:
        out.append(_Draft(_bond(persona, other, len(chats)), tuple(chats), weight + 1))
    seen = [i for i, m in enumerate(memories) if _seen_doing(m, other)]
    if len(seen) >= 2:
        out.append(_Draft(f"{name} often runs into {other}", tuple(seen), weight))
    out += _heard_from(persona, other, memories, weight)
    out += _own_words_about(persona, other, memories, weight)
    return out


def _bond(persona: Resident, other: str, times: int) -> str:
    """What repeated conversations say about a relationship, by what it already was."""
    name, relation = persona.name, persona.relation_to(other)
    if relation is None:
        return f"{name} is getting to know {other}; they keep ending up in conversation"
    if times >= 4:
        return f"{name} and {other} are close these days; they talk almost every time they meet"
    return f"{name} values {other}, {relation}, and seeks out their company"


def _seen_doing(memory: MemoryRecord, other: str) -> bool:
    fact = memory.fact
    return fact.kind is FactKind.DOING and fact.source is Source.SEEN and fact.subject == other


def _heard_from(
    persona: Resident, other: str, memories: Sequence[MemoryRecord], weight: int
) -> list[_Draft]:
    told = [i for i, m in enumerate(memories) for s in facts_in(m, persona)
            if s.source == other and is_public_news(s)]  # fmt: skip
    chats = [i for i, m in enumerate(memories) if chat_partner(m) == other]
    if told and chats:
        text = f"{persona.name} counts on {other} to keep {pronouns(persona)[1]} up to date"
        return [_Draft(text, (told[0], chats[0]), weight)]
    return []


def _own_words_about(
    persona: Resident, other: str, memories: Sequence[MemoryRecord], weight: int
) -> list[_Draft]:
    """A seed-like memory of the persona's that names the other person."""
    for i, m in enumerate(memories):
        own = m.kind is MemoryKind.OBSERVATION and m.fact.subject == persona.name
        if own and names(m, other):
            more = [j for j, o in enumerate(memories) if j != i and names(o, other)]
            if more:
                text = f"{other} is part of {persona.name}'s everyday life"
                return [_Draft(text, (i, more[0]), weight)]
    return []


def _news_drafts(persona: Resident, memories: Sequence[MemoryRecord], weight: int) -> list[_Draft]:
    """What the news one holds says about one's goals and plans: a story told by several
    memories (one's own intention and talk of it, or an event heard of more than once)."""
    stories: dict[str, list[int]] = {}
    for i, m in enumerate(memories):
        key = m.fact.intent or topic_of(m.text)
        if key and not m.fact.private and m.kind is not MemoryKind.REFLECTION:
            stories.setdefault(key, []).append(i)
    out = []
    for key, found in sorted(stories.items(), key=lambda kv: -len(kv[1])):
        if len(found) < MIN_EVIDENCE:
            continue
        own = any(memories[i].fact.subject == persona.name for i in found)
        what = topic_of(" ".join(memories[i].text for i in found)) or key
        if own:
            poss = pronouns(persona)[2]
            text = f"{persona.name}'s {what} is on {poss} mind; it comes up again and again"
        else:
            text = f"The {what} is what people around {persona.name} keep talking about"
        out.append(_Draft(text, tuple(found), weight + (1 if own else 0)))
    return out[:2]


def _activity_drafts(
    persona: Resident, memories: Sequence[MemoryRecord], weight: int
) -> list[_Draft]:
    found = own_activities(persona, memories)
    ranked = sorted(found, key=lambda k: (-len(found[k]), k))
    out = []
    for key in ranked[:2]:
        if len(found[key]) >= 2:
            text = f"{persona.name} has spent a lot of time {ACTIVITY_PHRASES[key]} lately"
            out.append(_Draft(text, tuple(found[key]), weight))
    return out


# -- summaries -------------------------------------------------------------------------------
def summarize(persona: Resident, topic: str, memories: Sequence[MemoryRecord]) -> str:
    low = topic.lower()
    if "characteristic" in low:
        return _characteristics(persona, memories)
    if "occupation" in low:
        return _occupation(persona, memories)
    if "progress" in low or "feeling" in low:
        return _progress(persona, memories)
    if "did" in low or "day" in low:
        return _day(persona, topic, memories)
    texts = [sentence(m.text) for m in _top(memories, 3)]
    return f"{topic.rstrip('?')}: " + "; ".join(texts) + "." if texts else ""


def _top(memories: Sequence[MemoryRecord], n: int) -> list[MemoryRecord]:
    return sorted(memories, key=lambda m: (-m.importance, -m.created.timestamp()))[:n]


def _about_self(persona: Resident, memories: Sequence[MemoryRecord]) -> list[str]:
    own = [m for m in memories if is_about_self(m, persona)]
    return [sentence(m.text) + "." for m in _top(own, 2)]


def _characteristics(persona: Resident, memories: Sequence[MemoryRecord]) -> str:
    subj = pronouns(persona)[0].capitalize()
    parts = [f"{persona.name} is {join_and(list(persona.traits))}."]
    if persona.interests:
        cares = "care" if subj == "They" else "cares"
        parts.append(f"{subj} {cares} about {join_and(list(persona.interests))}.")
    parts += _about_self(persona, memories)
    return " ".join(parts)


def _occupation(persona: Resident, memories: Sequence[MemoryRecord]) -> str:
    parts = [f"{persona.name} is {article(persona.occupation)}."]
    block = max(persona.routine, key=lambda b: (b.end - b.start) % (24 * 60), default=None)
    if block is not None:
        parts.append(f"Most days {first_name(persona.name)} is {block.activity}.")
    plans = [m for m in memories if m.kind is MemoryKind.PLAN]
    if plans:
        latest = max(plans, key=lambda m: m.created)
        longest = sorted(latest.fact.plan, key=lambda x: -x.minutes)[:2]
        if longest:
            parts.append("Lately: " + "; ".join(x.description for x in longest) + ".")
    return " ".join(parts)


def _progress(persona: Resident, memories: Sequence[MemoryRecord]) -> str:
    subj, _, poss = pronouns(persona)
    if _upbeat(persona):
        parts = [f"{persona.name} feels good about how {poss} life is going."]
    else:
        parts = [f"{persona.name} feels {poss} life is coming along, step by step."]
    parts += _about_self(persona, memories)[:1]
    found = own_activities(persona, memories)
    if found:
        key = max(sorted(found), key=lambda k: len(found[k]))
        parts.append(f"Recently {first_name(persona.name)} has been {ACTIVITY_PHRASES[key]}.")
    return " ".join(parts)


def _upbeat(persona: Resident) -> bool:
    upbeat = ("cheerful", "energetic", "friendly", "outgoing", "warm", "humorous", "curious")
    return any(t.lower() in upbeat for t in persona.traits)


def _day(persona: Resident, topic: str, memories: Sequence[MemoryRecord]) -> str:
    """What the persona did: its main activities, whom it talked with, news it heard."""
    when = find_date(topic, memories[0].created.year if memories else 2023)[0]
    if when is not None:
        memories = [m for m in memories if m.created.date() == when]
    first = first_name(persona.name)
    parts = []
    found = own_activities(persona, memories)
    ranked = sorted(found, key=lambda k: (-len(found[k]), min(found[k])))[:4]
    if ranked:
        doing = sorted(ranked, key=lambda k: min(found[k]))
        parts.append(f"{first} spent the day {join_and([ACTIVITY_PHRASES[k] for k in doing])}.")
    talked = [chat_partner(m) for m in memories if m.kind is MemoryKind.CHAT]
    talked = [p for p in dict.fromkeys(talked) if p and p != persona.name][:4]
    if talked:
        parts.append(f"{first} talked with {join_and(talked)}.")
    news = [s for m in memories if m.kind is MemoryKind.CHAT for s in facts_in(m, persona)]
    news = [s for s in news if is_public_news(s)][:1]
    if news:
        parts.append(f"{first} heard that {news[0].text}.")
    return " ".join(parts) or f"{persona.name} has no memories of that day."
