"""Interview answers in the first person, grounded only in the memories and the persona.

The paper checked every claim of knowing against the memory stream; so here a question
about something the memories do not hold gets "I haven't heard" or "I don't know".

What one will be doing at a time, and what one looks forward to, is in `interview_plans`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from game.brains.questions import AgentContext
from game.core.records import Event, FactKind, Introduction, MemoryRecord, Source
from game.world.scenario import Known, introduced_as

from . import selfknow
from .interview_plans import _ahead, _event_when, _plans
from .lexicon import trouble
from .news import News, Stated, chat_partner, facts_in, is_private, names, people_in, shareable
from .plans import attends, event_key, event_text, remembered_events
from .traits import declines, dislikes, tension
from .util import (
    content_words,
    counts,
    first_name,
    has_any,
    join_and,
    mentions,
    pick,
    sentence,
)
from .wording import first_person, mine, my_occupation, relation_in_first_person

TOPICS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("mayor", "election", "office", "candida", "campaign", "vote"), "anyone running for mayor"),
    (("party", "valentine", "celebrat"), "a party"),
    (("exhibition", "show\\b", "gallery"), "an exhibition"),
)
OBJECT_WORDS = (
    ("breakfast", "stove"), ("lunch", "stove"), ("dinner", "stove"), ("kitchen", "stove"),
    ("stove", "stove"), ("oven", "stove"), ("shower", "shower"), ("sink", "sink"),
    ("toilet", "toilet"), ("coffee", "coffee machine"),
)  # fmt: skip
GERUND_BASE = {
    "turning": "turn", "putting": "put", "fixing": "fix", "mopping": "mop",
    "repairing": "repair", "stopping": "stop", "unjamming": "unjam", "cleaning": "clean",
    "wiping": "wipe", "lighting": "light", "checking": "check",
}  # fmt: skip
_WHO_IS = re.compile(r"\b(?i:who (?:is|was|'s)) ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)")
_ABOUT = re.compile(
    r"\b(?i:relationship with|about|think of|know) ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)"
)


def answer(ctx: AgentContext, question: str, seed: int) -> str:
    for test, handler in _HANDLERS:
        if test(question) if callable(test) else re.search(test, question, re.I):
            reply = handler(ctx, question, seed)
            if reply:
                return reply
    return _fallback(ctx, question)


# -- about oneself ---------------------------------------------------------------------------
def _intro(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    parts = [f"I'm {me.name}, I'm {me.age}, and I'm {my_occupation(me)}."]
    if me.traits:
        parts.append(f"People would say I'm {join_and(list(me.traits))}.")
    if me.interests:
        parts.append(f"I care about {join_and(list(me.interests))}.")
    project = selfknow.own_project(me, ctx.now, ctx.memories)
    if project:
        parts.append(project + ".")
    return " ".join(parts)


# -- people ----------------------------------------------------------------------------------
UNKNOWN_PERSON = "I don't know who that is."


def _who_is(ctx: AgentContext, question: str, seed: int) -> str:
    m = _WHO_IS.search(question) or _ABOUT.search(question)
    if m is None:
        return ""
    name = _resolve(ctx, m.group(1))
    if name == ctx.persona.name:
        return _intro(ctx, question, seed)
    relation = ctx.persona.relation_to(name)
    known = acquainted_with(ctx, name)
    about = [x for x in _memories_naming(ctx, name) if not _private(x)]  # theirs are private
    if relation is None and not about:
        return UNKNOWN_PERSON
    parts = [f"{name} is {relation_in_first_person(relation, ctx.persona)}."] if relation else []
    if not relation and not known and any(_seen_doing(m, name) for m in about):
        parts.append(f"I know {first_name(name)} by sight.")  # one seen about town: known of
    if known:  # their work, home and interests, as the town knows them
        parts.append(f"{first_name(name)}{known.removeprefix(name)}")
    parts += _details(ctx, name, about)[: 1 if known else 2 if relation else 3]
    return " ".join(parts) or f"I've heard the name {name}, but I don't really know them."


def acquainted_with(ctx: AgentContext, name: str) -> str:
    """What one knows of someone: one has a relation with (the scenario loader's
    `acquaintance`: their work, home and interests), or who told one who they are when
    the two met; '' for anyone else."""
    return next((k.said for k in known_people(ctx) if k.name == name), "")


def known_people(ctx: AgentContext) -> tuple[Known, ...]:
    """Everyone one knows of by their work: one's relations (the loader's), then those who
    introduced themselves in a conversation one remembers (the last time they did)."""
    have = {k.name for k in ctx.persona.acquainted} | {ctx.persona.name}
    told: dict[str, Introduction] = {}
    for m in ctx.memories:
        if m.fact.kind is FactKind.CONVERSATION:
            told.update((x.speaker, x.introduces) for x in m.fact.lines
                        if x.introduces is not None and x.speaker not in have)  # fmt: skip
    return ctx.persona.acquainted + tuple(introduced_as(n, i) for n, i in told.items())


def _resolve(ctx: AgentContext, name: str) -> str:
    """A first name to the full name the persona knows, if it knows one."""
    if " " in name:
        return name
    known = [n for n, _ in ctx.persona.relationships]
    known += sorted({n for m in ctx.memories for n in people_in(m.fact)})
    return next((k for k in known if k.split()[0] == name), name)


def _memories_naming(ctx: AgentContext, name: str) -> list[MemoryRecord]:
    """Memories that tell something of the person: a claim that only came by way of them
    ('... (passed on from Arthur Burton)') tells nothing of Arthur, and asked 'Do you know
    Arthur?' one who knows no more says so, not 'Yes' and the claim."""
    return [m for m in ctx.memories if names(m, name) and not _only_passed_on(m, name)]


def _only_passed_on(memory: MemoryRecord, name: str) -> bool:
    f = memory.fact
    return name in f.via and name not in people_in(f) and not mentions(f.object, name)


def _private(memory: MemoryRecord) -> bool:
    return memory.fact.private or is_private(memory.text)


def _details(ctx: AgentContext, name: str, about: list[MemoryRecord]) -> list[str]:
    """What one knows of a person, each thing once: the same news heard from two people
    is one detail, not two."""
    out: list[str] = []
    said: set[str] = set()
    seen = [m for m in about if _seen_doing(m, name)]
    last = max(seen, key=lambda x: x.created) if seen else None  # 'last time I saw' is once
    for m in sorted(about, key=lambda x: (-x.importance, -x.created.timestamp())):
        if m is not last and _seen_doing(m, name):
            continue
        line = _detail(ctx, name, m)
        told = line.split(" told me that ", 1)[-1]
        if line and told not in said:
            out.append(line)
            said.add(told)
    return out


def _ended(ctx: AgentContext, s: Stated) -> str:
    """News of an event that is over, in the past ('There was Giorgio's stargazing evening
    at Johnson Park yesterday...'), not as it was told ('... is hosting ... on February 14')."""
    from game.brains.dialogue.acts import Wh

    from .answer.events import event_line

    assert s.fact.event is not None
    return event_line(ctx, s.fact.event, s.text, s.source, s.fact.intent, Wh.NONE)


def _seen_doing(m: MemoryRecord, name: str) -> bool:
    f = m.fact
    return f.kind is FactKind.DOING and f.source is Source.SEEN and f.subject == name


def _detail(ctx: AgentContext, name: str, m: MemoryRecord) -> str:
    me, fact = ctx.persona, m.fact
    if _seen_doing(m, name):
        return f"Last time I saw {first_name(name)}, they were {sentence(fact.object)}."
    for s in facts_in(m, me):
        if s.fact.event is not None and s.fact.event.end <= ctx.now:
            return _ended(ctx, s)
        if s.subject == me.name:
            return first_person(s.text, me) + "."
        if s.source == name:
            return f"{first_name(name)} told me that {s.text}."
        if s.source:
            return f"{first_name(s.source)} told me that {s.text}."
        return f"I know that {s.text}."
    return ""


def _spend_time(ctx: AgentContext, question: str, seed: int) -> str:
    found = (chat_partner(m) for m in ctx.memories)
    partners = counts(p for p in found if p and p != ctx.persona.name)
    if not partners:
        return "I haven't really spent time with anyone new lately, so I can't say."
    best = max(sorted(partners), key=lambda p: partners[p])
    times = "once" if partners[best] == 1 else f"{partners[best]} times"
    relation = ctx.persona.relation_to(best)
    why = ""
    if relation:
        why = f"{first_name(best)} is {relation_in_first_person(relation, ctx.persona)}, and "
    said = f"{why}we've talked {times} lately and I enjoy our conversations."
    return f"I'd pick {best}. {said[:1].upper()}{said[1:]}"  # 'We've', not 'we've', alone


def _feel(ctx: AgentContext, question: str, seed: int) -> str:
    m = _ABOUT.search(question)
    if m is not None:
        name = _resolve(ctx, m.group(1))
        if ctx.persona.relation_to(name) is not None or _memories_naming(ctx, name):
            return _feel_person(ctx, name)
    for keys, label in TOPICS:
        if has_any(question, keys):
            return _feel_topic(ctx, keys, label, seed)
    return ""


def _feel_person(ctx: AgentContext, name: str) -> str:
    me, first = ctx.persona, first_name(name)
    relation = me.relation_to(name)
    if dislikes(me, name):
        return f"Honestly, I don't care for {first}."
    if tension(me, name):
        return f"{first} and I don't always get along, but I try to be civil."
    if relation:
        return f"I like {first}. {first} is {relation_in_first_person(relation, me)}."
    return f"I don't know {first} well yet, but we've crossed paths."


def _feel_topic(ctx: AgentContext, keys: tuple[str, ...], label: str, seed: int) -> str:
    found = _best_fact(ctx, keys)
    if found is None:
        return f"I haven't heard about {label}, so I can't say."
    fact, subject = found.text, found.subject
    if subject == ctx.persona.name:
        return "It matters a lot to me. " + first_person(fact, ctx.persona) + "."
    if has_any(fact, ("mayor", "election", "campaign")):
        if subject and dislikes(ctx.persona, subject):
            return f"I don't think {first_name(subject)} should be mayor, frankly."
        return "I'm curious to see how it turns out."
    event = found.fact.event
    key = event_key(event) if event else fact
    if declines(ctx.persona, key, seed):
        return "It sounds nice, but I probably won't go."
    return "I'm looking forward to it!"


# -- what one knows --------------------------------------------------------------------------
def _topic(ctx: AgentContext, question: str, seed: int) -> str:
    for keys, label in TOPICS:
        if has_any(question, keys):
            return _known(ctx, keys, label)
    return ""


def _best_fact(ctx: AgentContext, keys: tuple[str, ...]) -> Stated | None:
    """The most telling fact on a topic: one naming a dated event beats a passing remark."""
    found = [
        (s.fact.event is not None, m.importance, m.created, i, s)
        for i, m in enumerate(ctx.memories)
        for s in facts_in(m, ctx.persona)
        if has_any(s.text, keys) and not s.fact.private and not is_private(s.text)
    ]
    if not found:
        return None
    return max(found, key=lambda f: (*f[:3], -f[3]))[4]


def _known(ctx: AgentContext, keys: tuple[str, ...], label: str) -> str:
    found = _best_fact(ctx, keys)
    if found is None:
        return f"I haven't heard anything about {label}."
    fact, source, subject = found.text, found.source, found.subject
    me = ctx.persona
    event = found.fact.event or _event_of(ctx, found.fact.intent)
    if event is not None and event.end <= ctx.now:
        return _past_event(ctx, found.fact.intent, event)
    if subject == me.name:
        return f"Yes! {first_person(fact, me)}."
    if source and source == subject:
        told = f"{fact}. {first_name(source)} told me so in person."
    else:
        told = f"{source} told me that {fact}." if source else f"As far as I know, {fact}."
    if subject and dislikes(me, subject):
        told += " Not that I'm happy about it."
    return told


def _event_of(ctx: AgentContext, intent: str) -> Event | None:
    """The dated event a scenario intent names in any memory (by field), if one does."""
    if not intent:
        return None
    return next(
        (m.fact.event for m in ctx.memories if m.fact.intent == intent and m.fact.event), None
    )


def _past_event(ctx: AgentContext, intent: str, event: Event) -> str:
    """An event asked about after it ended: in the past tense, with whether one went."""
    me, what = ctx.persona, event.what or "event"
    day = f"{event.start:%B} {event.start.day}"
    if event.host == me.name:
        came = _seen_at(ctx, event)
        who = f" {join_and(came)} came, among others." if came else ""
        return f"Yes, I hosted the {what} at {event.place} on {day}.{who}"
    host = f"{first_name(event.host)}'s {what}" if event.host else f"the {what}"
    went = any(
        m.fact.kind is FactKind.DOING and m.fact.subject == me.name and m.fact.intent == intent
        and event.start <= m.created < event.end
        for m in ctx.memories
    )  # fmt: skip
    if went:
        return f"Yes, there was {host} at {event.place} on {day}, and I went."
    return f"Yes, there was {host} at {event.place} on {day}, but I didn't go."


def _seen_at(ctx: AgentContext, event: Event) -> list[str]:
    """Who one met at an event while it ran (`account.met_at`)."""
    from .answer.account import met_at

    during = [m for m in ctx.memories if event.start <= m.created < event.end]
    return [first_name(p) for p in met_at(during, event.place, ctx.persona.name)][:4]


def _who_came(ctx: AgentContext, question: str, seed: int) -> str:
    for known in remembered_events(ctx.memories):
        event = known.event
        if event.host == ctx.persona.name and event.start <= ctx.now:
            came = _seen_at(ctx, event)
            if came:
                return f"{join_and(came)} came, and a few more; it was a lovely evening."
            return "Quite a few people came, though I was too busy to keep track of everyone."
    return ""


# -- how one is, and what was said -----------------------------------------------------------
def _mood(ctx: AgentContext, question: str, seed: int) -> str:
    """How one is: well (residents lead ordinary lives), with what fills the day and whom
    one has talked with, rather than "I don't know anything about that"."""
    me = ctx.persona
    yes = question.lower().lstrip().startswith(("are you", "do you"))
    openers = ("Yes, mostly.", "I think so, yes.") if yes else (
        "Pretty good, thanks.", "I'm doing well, thanks for asking.", "Not bad at all.",
    )  # fmt: skip
    parts = [pick(openers, seed, me.name, "mood")]
    if ctx.status and not ctx.status.startswith(("sleeping", "talking with")):
        parts.append(f"I've been {mine(ctx.status, me)}.")
    today = _talked_on(ctx)
    if today:
        parts.append(f"I had a good talk with {join_and(today)} today.")
    else:
        before = _talked_on(ctx, days_ago=1)
        if before:
            parts.append(f"Yesterday I caught up with {join_and(before)}.")
    return " ".join(parts)


_WITH = re.compile(r"\b(?:with|to) ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)")
_DID_SAY = re.compile(r"\bdid ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?) (?:say|tell)")


TALKED_WITH = (
    r"talk(?:ed)? (?:about )?(?:with|to) [A-Z]|did [A-Z][\w'-]+(?: [A-Z][\w'-]+)? (?:say|tell)"
)
HOW_ARE_YOU = (
    r"^\s*(?:how are you|how(?:'s| is) it going|how have you been|how are things"
    r"|are you (?:happy|ok|okay|well)|how do you feel today)"
)


def _talked_about(ctx: AgentContext, question: str, seed: int) -> str:
    """What was said with someone: the news they told, else a line of theirs, from the
    latest conversation with them; an honest no if there was none."""
    m = _WITH.search(question) or _DID_SAY.search(question)
    if m is None:
        return ""
    name = _resolve(ctx, m.group(1))
    first = first_name(name)
    talks = [
        x for x in ctx.memories
        if x.fact.kind is FactKind.CONVERSATION and name in x.fact.participants
    ]  # fmt: skip
    if not talks:
        if ctx.persona.relation_to(name) is not None:  # the retrieved memories may miss it
            return f"Nothing that stands out lately. {first} and I talk about the usual things."
        return f"I haven't talked with {first} lately."
    last = max(talks, key=lambda x: x.created)
    when = _when(ctx.now, last.created)
    told = [
        s.text for x in ctx.memories if x.created == last.created
        for s in facts_in(x, ctx.persona)
        if s.fact.kind is FactKind.CLAIM and s.source == name and not is_private(s.text)
    ]  # fmt: skip
    if told:
        return f"We talked {when}. {first} told me that {told[0]}."
    theirs = [line.text for line in last.fact.lines if line.speaker == name]
    if theirs:  # past the greeting, the line that says most
        said = max(theirs[1:] or theirs, key=lambda t: len(content_words(t)))
        return f'We talked {when}. {first} said: "{_clip_said(said)}"'
    return f"We talked {when}, just small talk."


def _clip_said(text: str, limit: int = 140) -> str:
    """Whole sentences up to about `limit` characters (at least the first)."""
    out = ""
    for part in re.split(r"(?<=[.!?])\s+", text.strip()):
        if out and len(out) + len(part) > limit:
            break
        out = f"{out} {part}".strip()
    return out if out[-1:] in ".!?" else out + "."


def _when(now: datetime, then: datetime) -> str:
    part = "morning" if then.hour < 12 else "afternoon" if then.hour < 17 else "evening"
    if then.date() == now.date():
        return f"this {part}"
    if then.date() == now.date() - timedelta(days=1):
        return f"yesterday {part}"
    return f"on {then:%A}"


# -- friends, whereabouts, meals, news -------------------------------------------------------
def _talked_on(ctx: AgentContext, days_ago: int = 0) -> list[str]:
    day = ctx.now.date() - timedelta(days=days_ago)
    return selfknow.talked_on(ctx.memories, day, ctx.persona.name)


def _friends(ctx: AgentContext, question: str, seed: int) -> str:
    """The people one's own words speak of warmly, else whom one has been talking with."""
    me = ctx.persona
    liked = [(n, r) for n, r in me.relationships if not dislikes(me, n) and not tension(me, n)]
    if liked:
        names = join_and([first_name(n) for n, _ in liked[:3]])
        name, relation = pick(liked[:3], seed, me.name, "friends")
        return f"{names}, mostly. {first_name(name)} is {relation_in_first_person(relation, me)}."
    recent = _talked_on(ctx) or _talked_on(ctx, days_ago=1)
    if recent:
        return f"I'm still getting to know people. Lately I've talked with {join_and(recent)}."
    return "I'm still getting to know people here, to be honest."


def _where(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    place = ctx.location.split(":")[0] if ctx.location else ""
    here = "home" if place == me.home else place
    if ctx.status.startswith("sleeping"):
        return f"At {here}. It's the middle of the night: I was asleep!" if here else "In bed!"
    doing = f", {mine(ctx.status, me)}" if ctx.status else ""
    return f"I'm at {here}{doing}." if here else f"I'm out and about{doing}."


def _meal(ctx: AgentContext, question: str, seed: int) -> str:
    """The meal as one remembers having it (the latest), else one's habit."""
    me = ctx.persona
    meal = next((w for w in ("breakfast", "lunch", "dinner") if w in question.lower()), "")
    keys = (meal,) if meal else ("breakfast", "lunch", "dinner", "eating", "meal")
    had = [
        m for m in ctx.memories
        if m.fact.kind is FactKind.DOING and m.fact.subject == me.name
        and m.fact.source is Source.SELF and has_any(m.fact.object, keys)
    ]  # fmt: skip
    if had:
        last = max(had, key=lambda m: m.created)
        return f"I was {mine(last.fact.object, me)} {_when(ctx.now, last.created)}."
    usual = next((b for b in me.routine if has_any(b.activity, keys)), None)
    if usual is not None:
        return f"Usually I'm {mine(usual.activity, me)} around {selfknow.clock(usual.start)}."
    return "Nothing special, the usual."


def _news(ctx: AgentContext, question: str, seed: int) -> str:
    """The best public news one holds, with who told it; a quiet week is an answer too."""
    found = [s for s in shareable(ctx.memories, ctx.persona) if not _over(ctx, s)]
    if not found:
        return "Nothing much, it's been quiet around here."
    return _news_line(found[0], ctx, "Have you heard? ")


def _news_line(news: News, ctx: AgentContext, opener: str) -> str:
    if news.own:
        return f"Well, my own news: {first_person(news.text, ctx.persona)}."
    if news.source and news.source == news.fact.subject:
        return f"{opener}{news.text}. {first_name(news.source)} told me so in person."
    told = f"{first_name(news.source)} told me that " if news.source else ""
    return f"{opener}{told}{news.text}."


def _over(ctx: AgentContext, stated: Stated) -> bool:
    """One's own news about an event that has ended, or naming a day gone by, is old."""
    event = stated.fact.event or _event_of(ctx, stated.fact.intent)
    if event is not None and event.end <= ctx.now:
        return stated.own
    return selfknow.stale(stated.text, ctx.now)


def _going(ctx: AgentContext, question: str, seed: int) -> str:
    """Yes or no to an event still to come the question names, as one's plan has it."""
    me = ctx.persona
    for keys, _ in TOPICS:
        if not has_any(question, keys):
            continue
        for known in remembered_events(ctx.memories):
            event = known.event
            if event.end <= ctx.now or not has_any(event.what or "", keys + ("party",)):
                continue
            when = _event_when(ctx.now, event)
            if attends(me, event, seed):
                return f"Yes! I'll be {event_text(me, event)} {when}."
            return "I don't think so. I heard about it, but it's not really for me."
    return ""


def _have(ctx: AgentContext, question: str, seed: int) -> str:
    """'Do you have a dog?': yes with the words one's own description uses, else no."""
    m = re.search(r"do you have (?:a |an |any )?(\w+)", question, re.I)
    if m is None:
        return ""
    thing = m.group(1).lower().rstrip("s")
    for clause in ctx.persona.seed_memories():
        if has_any(clause, (thing,)) and not is_private(clause):
            return f"Yes. {first_person(sentence(clause), ctx.persona)}."
    if thing in ANIMALS:
        return "No pets, no."
    return "I have what I need, I suppose. Why do you ask?"


ANIMALS = frozenset({"pet", "dog", "cat", "fish", "bird", "hamster", "rabbit", "horse"})


# a question asked yes or no, which 'I do.' answers ('Do you like living here?'; not 'How
# long have you lived here?')
_YES_NO = re.compile(r"\s*(?:do|don't|does|are|aren't|is|would)\b", re.I)


def _likes(ctx: AgentContext, question: str, seed: int) -> str:
    """Likes and favourites: from what one cares about, never a stray fact."""
    me = ctx.persona
    cares = join_and([mine(i, me) for i in me.interests[:2]]) if me.interests else ""
    favourite = re.search(r"favou?rite (\w+)", question, re.I)
    if re.search(r"living (?:here|in)|this town|smallville", question, re.I):
        lead = "The people, I think. " if favourite else "I do. " if _YES_NO.match(question) else ""
        return f"{lead}It's a friendly town, and it's home."
    thing = favourite.group(1).lower() if favourite else ""
    if thing and not any(thing in i.lower() for i in me.interests):
        more = f" Ask me about {cares} any time, though!" if cares else ""
        return f"I don't know, it's hard to pick just one {thing}.{more}"
    asked = re.search(r"do you (?:like|enjoy|love) (\w+)", question, re.I)
    liked = asked.group(1).lower() if asked else ""
    shared = next((i for i in me.interests if liked and liked in i.lower()), "")
    if shared:
        return f"Yes, I love {mine(shared, me)}!"
    if not cares:
        return "It's all right, I suppose."
    return f"It's all right. What I really enjoy is {cares}."


def _small_talk(ctx: AgentContext, question: str, seed: int) -> str:
    q = question.lower()
    if "time" in q:
        return f"It's about {selfknow.clock(ctx.now.hour * 60 + ctx.now.minute)}."
    if "secret" in q:
        return "Then it wouldn't be a secret, would it?"
    return "That's kind of you, but I'm fine, thanks."


# -- reactions -------------------------------------------------------------------------------
def _emergency(ctx: AgentContext, question: str, seed: int) -> str:
    rule = trouble(question)
    if rule is None:
        return ""
    obj = next((o for w, o in OBJECT_WORDS if w in question.lower()), "")
    if not obj:
        where = re.search(r"\b(?:on|in) the (\w+)", question)
        place = where.group(1) if where else "spot"
        return f"I'd call for help and keep people away from the {place} until it's safe."
    verb, _, rest = rule.action.format(obj=obj).partition(" ")
    line = f"I'd {GERUND_BASE.get(verb, verb)} {rest} right away"
    meal = next((w for w in ("breakfast", "lunch", "dinner") if w in question.lower()), "")
    return line + (f", then make {meal} again." if meal else ", and check nothing else is damaged.")


def _fallback(ctx: AgentContext, question: str) -> str:
    """The single fact in memory that shares most words with the question; a fact, never a
    conversation quoted whole."""
    wanted = content_words(question) - UBIQUITOUS
    best, score = None, 0
    for m in ctx.memories:
        for s in facts_in(m, ctx.persona):
            overlap = len(wanted & content_words(s.text))
            if overlap > score and not s.fact.private and not is_private(s.text):
                best, score = s, overlap
    if best is None:
        me = ctx.persona
        if me.interests:
            cares = join_and([mine(i, me) for i in me.interests[:2]])
            return f"I don't know, to be honest. I mostly think about {cares}."
        return "I'm not sure. I don't know anything about that."
    said = first_person(best.text, ctx.persona) if best.subject == ctx.persona.name else best.text
    return f"All I can tell you is this: {said}."


# Words too common in this town to tie a question to a memory ('living in Smallville' is
# not about the election held in Smallville).
UBIQUITOUS = frozenset({"smallville", "town", "living", "like", "think", "favourite", "favorite"})

Handler = Callable[[AgentContext, str, int], str]


def _person_taste(slot: int) -> Handler:
    def handler(ctx: AgentContext, question: str, seed: int) -> str:
        name = selfknow.person_in(question)
        return selfknow.taste(ctx, question, _resolve(ctx, name), slot) if name else ""

    return handler


# A test is a pattern, or a function of the question (a table that knows the words).
_HANDLERS: tuple[tuple[str | Callable[[str], object], Handler], ...] = (
    (r"^\s*why\b", selfknow.why),
    (
        r"\boccupation\b|for a living|what is your job|what's your job|where do you work"
        r"|your (?:work|job)\b|what do you work",
        selfknow.occupation,
    ),
    (
        r"introduc|tell me about yourself|who are you\b|describe yourself|what do you do\b"
        r"|your name|who you are",
        _intro,
    ),
    (
        r"your interests|interested in|hobbies|hobby|for fun|free time|spare time|like to do"
        r"|enjoy doing|pastime",
        selfknow.interests,
    ),
    (
        r"live with|lives with you|your household|your family|married|\bwife\b|husband"
        r"|children|\bkids\b|your parents|\bson\b|daughter",
        selfknow.household,
    ),
    (r"typical (?:week)?day|weekday|usual day", selfknow.weekday),
    (r"\byesterday\b", selfknow.yesterday),
    (r"occupied", selfknow.occupied),
    (r"fridge|refrigerator", selfknow.empty_fridge),
    (r"your friends\b|friends (?:do you|have you)", _friends),
    (r"your friend|see a friend", selfknow.friend),
    (r"inspire", selfknow.inspires),
    (r"\bbook\b", _person_taste(0)),
    (r"birthday|gift|present for", _person_taste(1)),
    (r"compliment", _person_taste(2)),
    (r"who came|who was at|who attended|who showed up", _who_came),
    (trouble, _emergency),  # a question naming a trouble (game.world.troubles)
    (r"spend time with|one person|who would it be", _spend_time),
    (r"how do you feel|what do you think (?:of|about)", _feel),
    (r"look(?:ing)? forward|excited about|can't wait", _ahead),
    (TALKED_WITH, _talked_about),
    (HOW_ARE_YOU, _mood),
    (r"what will you be doing|what are you doing at|where will you be|doing at \d", _plans),
    (r"where are you|right now|what are you up to", _where),
    (r"doing today|plans? for today|your day (?:look|going)|what are you doing\b", selfknow.today),
    (r"weekend|tomorrow|next week|any plans|your plans", _ahead),
    (r"breakfast|lunch|dinner|\beat\b|\bate\b|a meal", _meal),
    (r"are you (?:going|coming)|will you (?:go|come|be there)|coming to the", _going),
    (r"^\s*do you have (?:a|an|any)\b", _have),
    (r"what time is it|tell me a secret|can i help|anything i can do|need any help", _small_talk),
    (r"dream|ambition|\bgoals?\b|hope to|wish for", selfknow.inspires),
    (r"mayor|election|office|candidate|campaign|party|valentine|exhibition|show\b", _topic),
    (r"\bwho (?:is|was|'s) [A-Z]|relationship with|know [A-Z]", _who_is),
    (r"gossip|\bnews\b|what's new|anything new|heard anything|going on|happening", _news),
    (r"do you (?:like|enjoy|love)|favou?rite", _likes),
)
