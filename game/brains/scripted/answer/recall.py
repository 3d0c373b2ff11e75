"""What retrieval found, and the news: the best retrieved fact sharing the question's words,
in the first person and its tense, and news asked of (about something, about someone, or
in general) from what one has heard and who told it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from game.brains.dialogue.acts import Act, Wh
from game.brains.dialogue.slots import STOP, contracted
from game.brains.dialogue.understand import content_stems, frame_stems
from game.brains.questions import AgentContext
from game.core.records import FactKind, MemoryRecord, Source

from .. import interview as iv
from ..news import facts_in, is_private, people_in, shareable
from ..util import first_name, join_and
from ..wording import first_person, mine
from .events import _told, _verbal, event_facts, event_line, plan_event
from .people import plan_person
from .phrasing import _claim_line


def from_retrieval(ctx: AgentContext, act: Act) -> str:
    """The best retrieved fact that shares the words the question names (retrieval ranked
    them by recency, importance and relevance), in the first person and tense. Words that
    frame a question of its kind are not what it names: 'What's going on around here?'
    shares 'around' with 'Maria is looking around', and is not about her."""
    wanted = named_stems(act)
    if not wanted:
        return ""
    for m in ctx.memories:
        line = _fact_line(ctx, m, wanted)
        if line:
            return line
    return ""


def _fact_line(ctx: AgentContext, m: MemoryRecord, wanted: set[str]) -> str:
    me = ctx.persona
    fact = m.fact
    if fact.private or is_private(m.text) or not wanted & content_stems(m.text):
        return ""
    if fact.kind is FactKind.CLAIM and fact.source in (Source.VISITOR, Source.NOTICE):
        return _claim_line(ctx, m)
    if fact.kind is FactKind.DOING and m.created < ctx.now - timedelta(minutes=30):
        return _did_line(ctx, m)  # what was being done then, in the past
    for s in facts_in(m, me):
        if s.fact.event is not None:
            return event_line(ctx, s.fact.event, s.text, s.source, s.fact.intent, Wh.NONE)
        if s.subject == me.name:
            return first_person(s.text, me) + "."
        if s.source:
            return f"{first_name(s.source)} told me that {s.text}."
        return f"As far as I know, {s.text}."
    if fact.kind is FactKind.DOING and fact.subject == me.name:
        return f"I was {mine(fact.object, me)} {iv._when(ctx.now, m.created)}."
    return ""


def named_stems(act: Act) -> frozenset[str]:
    """The content stems of what the question names: its event slot (else its words),
    less the stems of its label's own exemplars."""
    stems = {s for s in content_stems(act.event or act.text) if not contracted(s)}
    return frozenset(stems - frame_stems(act.label)) if act.label else frozenset(stems)


# the words that open a noun phrase, which names a thing ('the fair', 'about fairs')
_OPENERS = frozenset(["the", "a", "an", "this", "that", "any", "some", "about", "of", "on"])


def names_a_thing(act: Act, every: bool = False) -> bool:
    """Whether the words a question names (`named_stems`) stand in a noun phrase of its
    ('Any news on the bake sale?'): after an article or preposition, up to the next
    function word, not among its verbs ('... neighbours can't stop talking about?');
    with `every`, all of them ('the one topic you could go on about for hours' names no
    'one hours')."""
    named = named_stems(act)
    if not named:
        return False
    ws = [w.strip("?!.,;:") for w in act.text.lower().split()]
    phrase: list[str] = []
    for i, w in enumerate(ws):
        if w in _OPENERS:
            for nxt in ws[i + 1 : i + 5]:
                if nxt in STOP or contracted(nxt) or nxt in _OPENERS:
                    break
                phrase.append(nxt)
    held = content_stems(" ".join(phrase))
    return named <= held if every else bool(named & held)


def _did_line(ctx: AgentContext, m: MemoryRecord) -> str:
    f, me = m.fact, ctx.persona
    when = iv._when(ctx.now, m.created)
    if f.subject == me.name:
        return f"I was {mine(f.object, me)} {when}."
    if f.subject and f.source is Source.SEEN:
        return f"I saw {first_name(f.subject)} {f.object} {when}."
    return f"I heard {first_name(f.subject)} was {f.object} {when}." if f.subject else ""


def plan_news(ctx: AgentContext, act: Act, seed: int) -> str:
    """News about something named ('have you heard about the bake sale?') from what
    retrieval holds on it; asked in general, the best news one has, and the next best
    when it is about someone else (as one catches a neighbour up)."""
    text = _news_of(ctx, act, seed)
    if not text or act.intent or act.person or named_stems(act):
        return text
    others = [n for n in shareable(ctx.memories, ctx.persona) if not iv._over(ctx, n)]
    also = next((n for n in others if not _told_in(n, text, ctx)), None)
    return f"{text} {_also_line(ctx, also, seed)}" if also is not None else text


def _also_line(ctx: AgentContext, news, seed: int) -> str:
    """A second item of news, an event in the tense its time calls for (a reading that
    ended an hour ago is not 'giving' any more)."""
    event = news.fact.event or iv._event_of(ctx, news.fact.intent)
    if event is None or news.own:
        return iv._news_line(news, ctx, "And ")
    line = event_line(ctx, event, news.text, news.source, news.fact.intent, Wh.NONE, seed=seed)
    lead = line.split(" ", 1)[0]
    common = lead.split("'")[0] in ("There", "The")  # not a name, which keeps its capital
    return f"And {lead.lower() if common else lead} {line.split(' ', 1)[1]}"


def _told_in(news, text: str, ctx: AgentContext) -> bool:
    """Whether an answer already tells this news: it holds its line (one's own news is
    told in the first person, naming nobody), or names its subject or its host."""
    if iv._news_line(news, ctx, "") in text:
        return True
    host = news.fact.event.host if news.fact.event is not None else ""
    return any(first_name(n) in text for n in (news.fact.subject, host) if n)


def _news_of(ctx: AgentContext, act: Act, seed: int) -> str:
    if act.event and event_facts(ctx, act):
        return plan_event(ctx, act, seed)
    named = from_retrieval(ctx, act) if act.event and not _verbal(act.event) else ""
    if named:  # a thing named ('the bake sale'), not words that frame news
        return named
    if act.event and names_a_thing(act) and not (act.intent or act.person):
        return ""  # news of a thing one has not heard of is none ('Any news on the fair?')
    found = shareable(ctx.memories, ctx.persona)
    if act.intent:  # news of what was asked of, not the freshest news of anything
        found = [n for n in found if n.fact.intent == act.intent]
        if not found:
            return ""
    if act.person and act.person != ctx.persona.name:
        found = [n for n in found if _involves(n, act.person)]
        if not found:  # what one knows of them and last saw them doing, if anything
            seen = iv._memories_naming(ctx, act.person) or iv.acquainted_with(ctx, act.person)
            if seen:
                return plan_person(ctx, replace(act, label="person.about"), seed)
            return f"I haven't heard anything new about or from {first_name(act.person)}."
        news = found[0]
        event = news.fact.event or iv._event_of(ctx, news.fact.intent)
        if event is None:  # 'What's Sam been up to?': the news itself, and who told it
            return _told("" if news.own else news.source, news.fact.subject,
                         first_person(news.text, ctx.persona))  # fmt: skip
    best = found[0] if found else None
    if act.wh in (Wh.WHO, Wh.WHERE) and not act.person:  # 'who keeps you in the loop?'
        sources = [n.source for n in found if n.source and not n.own]
        if sources:
            most = sorted(set(sources), key=lambda x: (-sources.count(x), sources.index(x)))
            told = next(n for n in found if n.source == most[0])
            said = first_person(told.text, ctx.persona)
            who = join_and([first_name(x) for x in most[:3]])
            return f"Mostly from {who}. {first_name(most[0])} told me {said}."
    if act.wh is Wh.WHO and best is not None and best.source and not best.own:
        return f"{best.source} told me: {first_person(best.text, ctx.persona)}."
    event = None
    if best is not None:
        event = best.fact.event or iv._event_of(ctx, best.fact.intent)
    if best is not None and event is not None and not best.own:  # in the tense its time calls for
        return event_line(ctx, event, best.text, best.source, best.fact.intent, Wh.NONE,
                          seed=seed)  # fmt: skip
    if best is not None and act.intent:  # the news asked of, as it was told
        return _told("" if best.own else best.source, best.fact.subject,
                     first_person(best.text, ctx.persona))  # fmt: skip
    return iv._news(ctx, act.text, seed)


def _involves(news, person: str) -> bool:
    """News about someone, or from them, by the fact's fields: its subject, its source,
    the people it names (an event's host among them)."""
    return person in (news.fact.subject, news.source) or person in people_in(news.fact)
