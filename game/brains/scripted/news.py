"""News: which remembered facts a resident would pass on, and to whom.

This is how information spreads through town. What counts as news is read from the
memories' fields (`MemoryRecord.fact`), whatever the scenario calls its events:

- a dated event (`fact.event`): told by whoever knows of it, the host first of all;
- a public scenario intent with no date (`fact.intent`, a campaign): its holder raises
  it with everyone, anyone else who cares (it matters to them, touches their interests,
  or came from someone close) passes it on;
- a claim from outside (the visitor's words, a notice: `fact.first_source`) that names an
  event or matters, passed on by one who believes it and finds it interesting, always as
  the outsider's quoted words with its source;
- only text with no fields falls back on the keyword table (`NEWS_KEYS`).

Nothing private is passed on (`fact.private`, or private words). A fact the speaker
already told this listener, or heard from them, is not told again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from game.brains.event_words import event_name
from game.core.records import Fact, FactKind, MemoryKind, MemoryRecord, Source, Utterance
from game.world.scenario import Resident

from .traits import has_trait, sociability
from .util import clip, content_words, coverage, first_name, has_any, mentions, sentence

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
STATED_BY_SELF = (Source.SEED, Source.SELF, Source.SEEN)  # what one knows first hand
OUTSIDE = (Source.VISITOR, Source.NOTICE)  # claims from outside the town's residents
CLAIM_LIMIT = 160  # characters of an outsider's words passed on (quoted, so kept whole)
TRUSTING = 0.9  # sociability at which a resident believes a stranger's claim at once
SKEPTIC_TRAITS = ("skeptical", "sceptical", "suspicious", "cynical", "cautious", "guarded",
                  "distrustful")  # fmt: skip


@dataclass(frozen=True)
class Stated:
    """A fact a memory states: its words (third person, no full stop) and its fields."""

    text: str
    fact: Fact

    @property
    def source(self) -> str:
        """Who told the holder; '' for the holder's own knowledge."""
        return self.fact.heard_from

    @property
    def subject(self) -> str:
        return subject_of(self.fact)


@dataclass(frozen=True)
class News:
    """A fact worth passing on: its words, the fields it came from, and how it ranks."""

    text: str
    fact: Fact  # passed on as `Utterance.shared`, so the listener keeps intent and event
    source: str  # who told the holder; '' for the holder's own knowledge
    importance: int
    created: datetime
    own: bool  # the holder is the fact's subject (its own party, its own campaign)
    first: datetime | None = None  # when the holder first heard the story (None: `created`)

    @property
    def learned(self) -> datetime:
        return self.first or self.created

    @property
    def subject(self) -> str:
        return subject_of(self.fact)


def subject_of(fact: Fact) -> str:
    """Whom a fact is about; for news heard only as words, the host of the event it names.
    An outsider's claim is about what it says, not about the one it was said to."""
    subject = "" if outside_claim(fact) else fact.subject
    if subject or fact.event is None:
        return subject
    return fact.event.host


def outside_claim(fact: Fact) -> bool:
    """The visitor's or a notice's words, heard first hand or passed on by a neighbour."""
    return fact.kind is FactKind.CLAIM and fact.first_source in OUTSIDE


def chat_partner(memory: MemoryRecord) -> str:
    """Whom a chat memory is with or from ('' for other kinds of memory)."""
    return memory.fact.heard_from if memory.kind is MemoryKind.CHAT else ""


def is_private(text: str) -> bool:
    return has_any(text, PRIVATE_KEYS)


def is_news(text: str) -> bool:
    return has_any(text, NEWS_KEYS) and not is_private(text)


def is_public_news(stated: Stated) -> bool:
    """News to pass on: a public intent or a dated event by its fields, else news words;
    and neither the fields nor the words say private."""
    fact = stated.fact
    if fact.private or is_private(stated.text):
        return False
    return bool(fact.intent) or fact.event is not None or is_news(stated.text)


def third_person(fact: str, persona: Resident) -> str:
    """'Isabella is planning ...' -> 'Isabella Rodriguez is planning ...' for the holder."""
    fact = sentence(fact)
    first = first_name(persona.name)
    if fact.startswith(first + " ") and not fact.startswith(persona.name):
        return persona.name + fact[len(first) :]
    return fact


def facts_in(memory: MemoryRecord, holder: Resident) -> list[Stated]:
    """The facts a memory states. Plans, reflections, conversations (their news is kept
    as claims of its own), objects and a visitor's claims state none."""
    fact = memory.fact
    if memory.kind in (MemoryKind.REFLECTION, MemoryKind.PLAN):
        return []
    if fact.kind is FactKind.CLAIM and fact.source is Source.HEARD and fact.origin is None:
        return [Stated(sentence(fact.object), fact)]
    if fact.kind is FactKind.STATEMENT and fact.source in STATED_BY_SELF:
        return [Stated(third_person(fact.object, holder), fact)]
    if fact.kind is FactKind.DOING and fact.source in STATED_BY_SELF:
        return [Stated(sentence(memory.text), fact)]
    return []


def claims_in(memory: MemoryRecord) -> list[Stated]:
    """An outsider's claim a memory holds, as the outsider's own words (never a fact)."""
    fact = memory.fact
    if memory.kind is MemoryKind.REFLECTION or not outside_claim(fact):
        return []
    return [Stated(clip(" ".join(fact.object.split()), CLAIM_LIMIT), fact)]


def shareable(memories: tuple[MemoryRecord, ...], holder: Resident) -> list[News]:
    """The holder's public news, best first: most important, own news, most recent."""
    found: list[News] = []
    for m in memories:
        if m.kind is MemoryKind.REFLECTION:
            continue
        for s in [*facts_in(m, holder), *claims_in(m)]:
            if s.fact.kind is FactKind.DOING or s.fact.rsvp is not None:
                continue  # what someone is doing, or one's own answer, is not news
            if worth_telling(s, m, holder, memories):
                own = is_own(s, holder)
                found.append(News(s.text, s.fact, s.source, m.importance, m.created, own))
    # one's own cause first (a candidate talks of the election to everyone it meets), then
    # a dated event: it is the event, not a remark about it, that is passed on
    found.sort(key=lambda n: (n.own, _eventful(n), n.importance, n.created), reverse=True)
    return _dedupe(found)


def _eventful(news: News) -> bool:
    """Names an event: by its fields, or (an outsider's words) by an event's name."""
    return news.fact.event is not None or (
        outside_claim(news.fact) and names_event(Stated(news.text, news.fact))
    )


def worth_telling(
    s: Stated, memory: MemoryRecord, holder: Resident, memories: tuple[MemoryRecord, ...]
) -> bool:
    """Whether the holder would pass on what the memory states, by the fact's fields (see
    the module's docstring); the keyword table only for words that came with no fields."""
    fact, importance = s.fact, memory.importance
    if fact.private or is_private(s.text):
        return False
    if outside_claim(fact):
        notable = names_event(s) or importance >= NEWS_MIN_IMPORTANCE
        return notable and believes(holder, memory, memories) and interested(holder, s)
    if fact.event is not None:
        return True
    if fact.intent:
        return is_own(s, holder) or cares(holder, s, importance)
    return importance >= NEWS_MIN_IMPORTANCE and is_news(s.text)


def is_own(s: Stated, holder: Resident) -> bool:
    """The holder's own news: about itself, or an event it hosts (never an outsider's
    claim, even one that names the holder)."""
    if outside_claim(s.fact):
        return False
    host = s.fact.event.host if s.fact.event is not None else ""
    return holder.name in (s.subject, host)


def cares(holder: Resident, s: Stated, importance: int) -> bool:
    """A public cause with no date (a campaign) is passed on by one who cares: it matters
    to them (their own rating of it), it touches their interests, or someone close told it."""
    close = bool(s.source) and holder.relation_to(s.source) is not None
    return importance >= NEWS_MIN_IMPORTANCE or shares_interest(holder, s.text) or close


def names_event(s: Stated) -> bool:
    """A dated event by its fields, or (words with no fields) an event's name."""
    return s.fact.event is not None or bool(event_name(s.text))


def shares_interest(holder: Resident, text: str) -> bool:
    return bool(content_words(" ".join(holder.interests)) & content_words(text))


def interested(holder: Resident, s: Stated) -> bool:
    """An outsider's claim worth repeating: it names an event, or the holder's interests."""
    return names_event(s) or shares_interest(holder, s.text)


def believes(holder: Resident, claim: MemoryRecord, memories: tuple[MemoryRecord, ...]) -> bool:
    """Whether the holder takes an outsider's claim seriously enough to repeat it. From a
    neighbour: unless a skeptic and the neighbour is a stranger to it. From the outsider
    itself: a trusting temperament, a claim concrete enough to check (a dated event), or
    having met the visitor before this claim."""
    skeptic = has_trait(holder, SKEPTIC_TRAITS)
    if claim.fact.source is Source.HEARD:
        return not skeptic or holder.relation_to(claim.heard_from) is not None
    if met_before(claim, memories):
        return True
    concrete = claim.fact.event is not None  # a place and a time one can check is credible
    return not skeptic and (sociability(holder) >= TRUSTING or concrete)


MET_BEFORE = timedelta(hours=1)
FRESH = timedelta(hours=12)  # news heard this recently is told before older news


def met_before(claim: MemoryRecord, memories: tuple[MemoryRecord, ...]) -> bool:
    """The holder talked with the claim's teller before, in another conversation: some
    memory of the teller's words at least an hour older than this claim."""
    teller = claim.heard_from
    return any(m.heard_from == teller and claim.created - m.created >= MET_BEFORE for m in memories)


def _dedupe(news: list[News]) -> list[News]:
    """One fact per piece of news (the same words, or the same story), remembering when
    the holder first heard it."""
    out: list[News] = []
    for n in news:
        same = next((i for i, o in enumerate(out) if _same(n, o)), None)
        if same is None:
            out.append(n)
        elif n.learned < out[same].learned:
            out[same] = replace(out[same], first=n.learned)
    return out


def _same(a: News, b: News) -> bool:
    return same_words(a.text, b.text) or same_story(a, b)


def topic(text: str) -> str:
    """The news word a fact's words turn on ('party', 'mayor'), or ''."""
    return next((k for k in NEWS_KEYS if has_any(text, (k,))), "")


def topic_word(text: str) -> str:
    """The news word as a word for a sentence ('show', not the table's 'show\\b')."""
    word = re.sub(r"\\b|\\w\*|[^a-z ]", "", topic(text))
    return {"celebrat": "celebration", "invit": "invitation"}.get(word, word)


def same_story(a: News | Stated, b: News | Stated) -> bool:
    """One story: the same scenario intent, or (with no intent) the same person's party."""
    if a.fact.intent or b.fact.intent:
        return a.fact.intent == b.fact.intent
    return bool(a.subject) and a.subject == b.subject and topic(a.text) == topic(b.text) != ""


def same_words(a: str, b: str) -> bool:
    return coverage(a, b) >= SAME_FACT or coverage(b, a) >= SAME_FACT


def told(news: News, partner: str, memories: tuple[MemoryRecord, ...]) -> bool:
    """Whether the partner already had this story from us, or gave it to us."""
    for m in memories:
        if m.fact.heard_from != partner:
            continue
        if m.fact.kind is FactKind.CONVERSATION and coverage(news.text, _said(m.fact)) >= SAME_FACT:
            return True
        if m.fact.kind is FactKind.CLAIM and same_story(news, Stated(m.fact.object, m.fact)):
            return True
    return False


def _said(fact: Fact) -> str:
    return " ".join(line.text for line in fact.lines)


def news_for(
    memories: tuple[MemoryRecord, ...],
    holder: Resident,
    partner: str,
    history: tuple[Utterance, ...] = (),
    now: datetime | None = None,
) -> list[News]:
    """What the holder could still tell this partner, best first (`_telling_order`); an
    event under way is news only to its host (who asks whoever it meets to join), and
    one that is over is news to nobody."""
    out = []
    for n in shareable(memories, holder):
        event = n.fact.event
        if (
            now is not None
            and event is not None
            and event.start <= now
            and (event.end <= now or not n.own)
        ):
            continue  # over, or under way and not one's own: nothing to advertise
        if n.subject == partner:
            continue  # nobody needs to be told about their own party
        if n.source == partner or told(n, partner, memories) or _in_talk(n, history):
            continue
        out.append(n)
    if now is not None:
        out.sort(key=lambda n: _telling_order(n, holder.name, memories, now))
    return out


def _telling_order(
    news: News, me: str, memories: tuple[MemoryRecord, ...], now: datetime
) -> tuple[bool, int, float]:
    """Own news first (a host invites, a candidate campaigns), then the story the holder
    has told least, and among those the one it heard most lately: a new story is passed
    on until it is old, and no story crowds out all others."""
    fresh = now - news.learned <= FRESH
    age = (now - news.learned).total_seconds() if fresh else float("inf")
    return (not news.own, times_told(news, me, memories), age)


def times_told(news: News, me: str, memories: tuple[MemoryRecord, ...]) -> int:
    """In how many remembered conversations the holder's own lines carried the story: an
    event by its name, other news by its words."""
    event = news.fact.event
    name = (event.what or event.place).lower() if event is not None else ""
    count = 0
    for m in memories:
        if m.fact.kind is not FactKind.CONVERSATION:
            continue
        said = " ".join(line.text for line in m.fact.lines if line.speaker == me)
        if said and (name in said.lower() if name else coverage(news.text, said) >= SAME_FACT):
            count += 1
    return count


def _in_talk(news: News, history: Iterable[Utterance]) -> bool:
    """Whether this conversation already carried the story (either side may have told it)."""
    for u in history:
        if u.shared is not None and same_story(news, Stated(u.shares, u.shared)):
            return True
        if any(coverage(news.text, said) >= SAME_FACT for said in (u.shares, u.text) if said):
            return True
    return False


def known_fact(
    words: str, shared: Fact | None, memories: tuple[MemoryRecord, ...]
) -> MemoryRecord | None:
    """The memory by which the holder already knows the news it is told, if any: one
    stating the same story (by its fields), or nearly the same words."""
    told = Stated(words, shared) if shared is not None else None
    for m in memories:
        if m.kind is MemoryKind.REFLECTION:
            continue
        if told is not None and any(same_story(told, s) for s in _stories(m)):
            return m
        if coverage(words, m.text) >= SAME_FACT:
            return m
    return None


def _stories(memory: MemoryRecord) -> list[Stated]:
    """What a memory says it knows as a story: heard claims and its own statements."""
    kinds = (FactKind.CLAIM, FactKind.STATEMENT)
    fact = memory.fact
    return [Stated(fact.object, fact)] if fact.kind in kinds else []


def people_in(fact: Fact) -> set[str]:
    """The people a memory's fields name: whom it is about, who said it, who talked, who
    hosts the event it names (full names only: that is how the fields hold them)."""
    names = {fact.heard_from, *fact.participants}
    if fact.about_person:
        names.add(fact.subject)
    if fact.event is not None:
        names.add(fact.event.host)
    return {n for n in names if " " in n}


def names(memory: MemoryRecord, name: str) -> bool:
    """Whether a memory names the person: in its fields, or in its words."""
    return name in people_in(memory.fact) or mentions(memory.text, name)
