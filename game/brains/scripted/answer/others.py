"""Someone else's life, as one knows it: what they do for work, what they are doing, what
they have been up to, what they have planned, whether they go to an event, and who in
town does something (`dialogue.whose` routes a question whose subject is someone else, or
anyone, to these labels).

What one knows of another is what the persona and the memories hold: what the town knows
of those one has a relation with, and what those who introduced themselves said of their
work (`interview.known_people`: occupation and workplace, typed); what one saw them doing,
and where; what they said in a conversation (an answer to an event is a field of the
line); one's own plan items that name them. Nothing here is worded for a particular
question; with nothing to go on, one says honestly that one does not know, of that person
('I don't know what Carmen does for work').
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta

from game.brains.dialogue.acts import Act, Wh
from game.brains.dialogue.exemplars import frame_stems
from game.brains.dialogue.understand import content_stems
from game.brains.dialogue.whose import OWN, asks_of_anyone
from game.brains.questions import AgentContext
from game.core.records import Event, FactKind, MemoryRecord, Rsvp, Source
from game.core.text import with_article
from game.world.scenario import Known

from .. import interview as iv
from .. import selfknow
from ..talk_greeting import NOT_WORTH_MENTION
from ..util import first_name, has_any, join_and
from ..wording import mine
from .day import plan_doing, plan_past, plan_plans, plan_routine
from .events import event_facts, plan_event
from .goers import heard_going
from .persona import plan_interests, plan_work
from .phrasing import Planner, _day

RECENT = timedelta(minutes=45)  # seen this lately, one can say what someone is doing now
LATELY = timedelta(days=2)  # 'what has Eddy been up to?' with no time named
MOST_SEEN = 3  # doings said of someone's day


def plan_other(ctx: AgentContext, act: Act, seed: int) -> str:
    """The facet of someone else's life the act's label asks for; asked of oneself by
    name, one's own (the same facet's planner of oneself)."""
    if not act.person:
        return ""
    if act.person == ctx.persona.name:
        label, aspect = OWN[act.label]
        own = replace(act, label=label, aspect=aspect, person="")
        return _MINE[label](ctx, own, seed)
    if act.label not in ("person.find", "person.going") and not _known_at_all(ctx, act.person):
        return f"I don't know who {act.person} is, I'm afraid."
    planner = _FACETS.get(act.label)
    return planner(ctx, act) if planner else ""


def _known_at_all(ctx: AgentContext, name: str) -> bool:
    """Whether one knows of them: a relation, a housemate or neighbour, a memory."""
    me = ctx.persona
    near = name in me.household or any(name in d.residents for d in me.neighbours)
    return near or me.relation_to(name) is not None or bool(iv._memories_naming(ctx, name))


def _known(ctx: AgentContext, name: str) -> Known | None:
    """What one knows of them by their work: a relation's, or what they told one when the
    two met (`interview.known_people`)."""
    return next((k for k in iv.known_people(ctx) if k.name == name), None)


def _seen(ctx: AgentContext, name: str) -> list[MemoryRecord]:
    """What one saw them doing, oldest first (moments of talk or waiting left out)."""
    return sorted((m for m in ctx.memories if m.fact.kind is FactKind.DOING
                   and m.fact.source is Source.SEEN and m.fact.subject == name
                   and not has_any(m.fact.object, NOT_WORTH_MENTION)),
                  key=lambda m: m.created)  # fmt: skip


def _seen_by(ctx: AgentContext) -> list[MemoryRecord]:
    """Everyone else one saw doing something, oldest first."""
    me = ctx.persona.name
    return sorted((m for m in ctx.memories if m.fact.kind is FactKind.DOING
                   and m.fact.source is Source.SEEN and m.fact.subject not in ("", me)),
                  key=lambda m: m.created)  # fmt: skip


def _doings_at(seen: list[MemoryRecord], me) -> str:
    """The last few things one saw them doing, with where: the place said once when it
    was the same for all ('comparing prices and paying at the counter at the market')."""
    latest = seen[-MOST_SEEN * 2 :]
    doings = _distinct(mine(m.fact.object, me) for m in latest)[-MOST_SEEN:]
    places = {_place(m) for m in latest if mine(m.fact.object, me) in doings}
    if len(places) == 1:
        return f"{join_and(doings)}{places.pop()}"
    return join_and(_distinct(_seen_line(m, me) for m in latest)[-MOST_SEEN:])


def _distinct(doings: Iterable[str]) -> list[str]:
    """Each doing once, in order, less one another says more of ('writing' beside
    'writing a new paragraph')."""
    said = list(dict.fromkeys(doings))
    return [d for d in said if not any(o != d and o.startswith(f"{d} ") for o in said)]


def _place(m: MemoryRecord) -> str:
    place = (m.fact.address or "").split(":")[0]
    return f" at {place}" if place and place not in m.fact.object else ""


def _seen_line(m: MemoryRecord, me) -> str:
    return f"{mine(m.fact.object, me)}{_place(m)}"


def _not_known(ctx: AgentContext, name: str, what: str) -> str:
    """What one has seen them doing, if anything, and that one does not know `what` of
    them ('... but I don't know what Carmen does for work.')."""
    first, seen = first_name(name), _seen(ctx, name)
    if not seen:
        return f"I don't know what {first} {what}.{_also(ctx, name)}"
    doings = join_and(_distinct(m.fact.object for m in seen)[-MOST_SEEN:])
    return f"I've seen {first} {doings}, but I don't know what {first} {what}.{_also(ctx, name)}"


# -- work ------------------------------------------------------------------------------------
def _work(ctx: AgentContext, act: Act) -> str:
    """'Where does Carmen work?': their occupation and workplace as the town knows them."""
    name, first = act.person, first_name(act.person)
    known = _known(ctx, name)
    if known is None or not known.occupation:
        return _not_known(ctx, name, "does for work")
    job = with_article(known.occupation)
    where = ""
    if known.workplace and known.workplace not in known.occupation:
        where = f" at {known.workplace}"
    line = f"{first} is {job}{where}."
    if act.wh is Wh.WHERE:
        if known.workplace and where:
            return f"{first} works at {known.workplace}; {first} is {job}."
        if known.workplace:  # the workplace is in the job's own words
            return line
        return f"Not at any workplace I know of: {first} is {job}."
    if act.wh is Wh.YESNO:
        asked = _asked_stems(act) - _WORK_WORDS
        has = _stems_of(f"{known.occupation} {known.workplace or ''}")
        fits = not asked or _matches(asked, has)
        return f"{'Yes' if fits else 'No'}, {line}"
    return line


_WORK_WORDS = frozenset(content_stems("work works working job jobs employed employ anywhere "
                                      "living earn money career occupation profession trade "
                                      "somewhere still studying study line kind sort do does "
                                      "all day what"))  # fmt: skip


def _also(ctx: AgentContext, name: str) -> str:
    """What else one was told of them, when one cannot say what was asked: ' Ayesha told
    me that Sam Moore is running for mayor ...' (the most important thing, once)."""
    about = [m for m in iv._memories_naming(ctx, name)
             if not iv._private(m) and not iv._seen_doing(m, name)]  # fmt: skip
    told = iv._details(ctx, name, about)[:1]
    return f" {told[0]}" if told else ""


def _asked_stems(act: Act) -> set[str]:
    return content_stems(act.text) - content_stems(act.person)


def _stems_of(text: str) -> set[str]:
    return content_stems(text)


def _matches(asked: set[str], has: set[str]) -> bool:
    """Whether any asked word is one of theirs, by stem or one stem leading the other
    ('paint' and 'painter', 'photograph' and 'photographer', 'math' and 'mathematician')."""
    return any(a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a)))
               for a in asked for b in has)  # fmt: skip


# -- now -------------------------------------------------------------------------------------
def _doing(ctx: AgentContext, act: Act) -> str:
    """'What is Sam doing right now?': the last time one saw them, and how long ago."""
    first, me = first_name(act.person), ctx.persona
    seen = _seen(ctx, act.person)
    if not seen:
        return f"I don't know what {first} is doing right now; I haven't seen {first} about."
    last = seen[-1]
    ago = ctx.now - last.created
    if ago <= RECENT:
        minutes = max(1, int(ago.total_seconds() // 60))
        when = "just now" if minutes < 10 else f"about {minutes} minutes ago"
        return f"When I saw {first} {when}, {first} was {_seen_line(last, me)}."
    when = iv._when(ctx.now, last.created)
    return (f"I haven't seen {first} since {when}, when {first} was "
            f"{_seen_line(last, me)}, so I couldn't say what {first} is doing now.")


def _interests(ctx: AgentContext, act: Act) -> str:
    """'Is Klaus into football?', 'Is Jennifer a painter?': what the town knows of them."""
    name, first = act.person, first_name(act.person)
    known = _known(ctx, name)
    if known is None:
        return _not_known(ctx, name, "is into")
    line = f"{first}{known.said.removeprefix(name)}"
    if act.wh is not Wh.YESNO:
        return line
    asked = _asked_stems(act) - _WORK_WORDS
    fits = not asked or _matches(asked, content_stems(f"{known.occupation} {known.said}"))
    return f"{'Yes' if fits else 'No'}, {line}"


# -- the past --------------------------------------------------------------------------------
def _past(ctx: AgentContext, act: Act) -> str:
    """'What did Adam do yesterday?', 'What has Eddy been up to?': what one saw them do in
    the time asked of (else lately), and when one talked with them."""
    first, me = first_name(act.person), ctx.persona
    start, end, when = _span(ctx, act)
    seen = [m for m in _seen(ctx, act.person) if start <= m.created < end]
    talks = [m for m in ctx.memories if m.fact.kind is FactKind.CONVERSATION
             and act.person in m.fact.participants and start <= m.created < end]  # fmt: skip
    parts = []
    if seen:
        parts.append(f"{when[:1].upper()}{when[1:]} I saw {first} {_doings_at(seen, me)}.")
    if talks:
        talked = iv._when(ctx.now, max(talks, key=lambda m: m.created).created)
        parts.append(f"We talked {talked}.")
    told = _told_by(ctx, act.person, start, end)
    if told:
        parts.append(told)
    if parts:
        return " ".join(parts)
    return f"I don't know what {first} has been up to {when}; I haven't seen {first} about."


def _span(ctx: AgentContext, act: Act) -> tuple[datetime, datetime, str]:
    if act.window is not None:
        end = min(act.window.end, ctx.now)
        return act.window.start, end, act.window.words or _day(ctx.now, act.window.start)
    return ctx.now - LATELY, ctx.now, "lately"


def _told_by(ctx: AgentContext, name: str, start: datetime, end: datetime) -> str:
    """Something they told one of themselves in the time asked of (not passed-on news)."""
    for m in sorted(ctx.memories, key=lambda m: m.created, reverse=True):
        f = m.fact
        if not start <= m.created < end or f.private or f.kind is FactKind.CONVERSATION:
            continue
        if f.kind in (FactKind.STATEMENT, FactKind.CLAIM) and f.subject == name \
                and f.heard_from == name:  # fmt: skip
            line = iv._detail(ctx, name, m)
            if line:
                return line
    return ""


# -- plans -----------------------------------------------------------------------------------
def _plans(ctx: AgentContext, act: Act) -> str:
    """'What are Jane's plans for tonight?': what one knows they will do then: one's own
    plan items with them, the events they host or told one they will go to."""
    first, me = first_name(act.person), ctx.persona
    start, end, when = _ahead(ctx, act)
    parts = []
    with_them = re.compile(rf"\b{re.escape(first)}\b(?!')")  # 'with Jane', not 'Jane's party'
    together = [i for i in selfknow.plan_for(ctx.memories, start.date())
                if start <= i.start < end and with_them.search(i.description)]  # fmt: skip
    if together:
        item = together[0]
        doing = re.sub(rf"\s+(?:with|and)\s+{re.escape(first)}\b", "", item.description)
        parts.append(f"{first} and I are {mine(doing, me)} at "
                     f"{selfknow.clock(item.start.hour * 60 + item.start.minute)}.")
    for event in _events_of(ctx, act.person, start, end):
        what = event.what or "event"
        day = _day(ctx.now, event.start)
        if event.host == act.person:
            parts.append(f"{first} is hosting the {what} at {event.place} {day}.")
        else:
            parts.append(f"{first} told me they're going to the {what} at {event.place} {day}.")
    if parts:
        return " ".join(parts[:2])
    return f"I don't know what {first} has planned for {when}."


def _ahead(ctx: AgentContext, act: Act) -> tuple[datetime, datetime, str]:
    if act.window is not None:
        return max(act.window.start, ctx.now), act.window.end, act.window.words or "then"
    end = ctx.now.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    return ctx.now, end, "the rest of today"


def _events_of(ctx: AgentContext, name: str, start: datetime, end: datetime) -> list[Event]:
    """Events in the time that the person hosts or told one they will go to."""
    out: list[Event] = []
    for m in ctx.memories:
        f = m.fact
        found = [f.event] if f.event is not None and f.event.host == name else []
        found += [line.event for line in f.lines if line.speaker == name
                  and line.rsvp is Rsvp.ACCEPTED and line.event is not None]  # fmt: skip
        for event in found:
            if event.end > start and event.start < end and event not in out:
                out.append(event)
    return sorted(out, key=lambda e: e.start)


# -- going -----------------------------------------------------------------------------------
def _going(ctx: AgentContext, act: Act) -> str:
    """'Is Klaus going to the party?': whether they told one they would (or would not),
    and, once it is over, whether one saw them there."""
    first = first_name(act.person)
    event = next((e for _, e in event_facts(ctx, act) if e is not None), None)
    if event is None:
        return ""
    what, over = event.what or "event", event.end <= ctx.now
    if event.host == act.person:
        return f"{first} hosted it!" if over else f"Of course, it's {first}'s own {what}!"
    said = _answer_of(ctx, act.person, event)
    if over:
        during = [m for m in ctx.memories if event.start <= m.created < event.end]
        from .account import met_at

        if act.person in met_at(during, event.place, ctx.persona.name):
            return f"Yes, I saw {first} at the {what}."
        if said is Rsvp.ACCEPTED:
            return f"{first} told me they'd go to the {what}, but I didn't see for myself."
        if said is Rsvp.DECLINED:
            return f"I don't think so; {first} told me they couldn't make the {what}."
        return f"I don't know whether {first} went to the {what}."
    if said is Rsvp.ACCEPTED:
        return f"Yes, {first} told me they're going to the {what}."
    if said is Rsvp.DECLINED:
        return f"No, {first} told me they can't make the {what}."
    return f"I don't know whether {first} is going to the {what}; I haven't heard."


def _answer_of(ctx: AgentContext, name: str, event: Event) -> Rsvp | None:
    """Their latest answer to the event, as one heard them give it."""
    if name in heard_going(ctx, event):
        return Rsvp.ACCEPTED
    talks = sorted((m for m in ctx.memories if m.fact.kind is FactKind.CONVERSATION),
                   key=lambda m: m.created, reverse=True)  # fmt: skip
    for m in talks:
        for line in m.fact.lines:
            same = line.event is not None and (line.event.place, line.event.start) == (
                event.place, event.start)  # fmt: skip
            if line.speaker == name and same and line.rsvp is not None:
                return line.rsvp
    return None


# -- anyone ----------------------------------------------------------------------------------
def plan_find_known(ctx: AgentContext, act: Act, seed: int) -> str:
    """'Does anybody here paint for a living?', 'Who runs the supply store?': those one
    knows (oneself too) whose occupation or interests are what the question asks, at the
    place it names, else whom one has seen doing it (`people.plan_find`), else an honest
    no."""
    me = ctx.persona
    places = [*ctx.known_places, *(a.name for a in ctx.sectors), act.place]
    place_stems = set().union(*(content_stems(p) for p in places if p))
    asked = content_stems(act.text) - _FIND_WORDS
    at, what = asked & place_stems, asked - place_stems
    if not (at or what):
        return ""
    found = [f"{k.name} is {with_article(k.occupation)}" for k in iv.known_people(ctx)
             if _does(at, what, k.occupation, k.workplace or "", k.said, place_stems)]  # fmt: skip
    if _does(at, what, me.occupation, me.workplace or "", " ".join(me.interests), place_stems):
        also = f" And {'; '.join(found[:2])}." if found else ""
        return f"I do, as it happens: I'm {with_article(me.occupation)}.{also}"
    if found:
        lead = "Yes: " if act.wh is Wh.YESNO else ""
        return f"{lead}{'; '.join(found[:3])}."
    for m in reversed(_seen_by(ctx)):  # whom one saw doing it there, latest first
        where = m.fact.address.split(":")[0]
        if _matches(what, content_stems(m.fact.object)) and (
                not at or _matches(at, content_stems(where))):  # fmt: skip
            when = iv._when(ctx.now, m.created)
            return f"Yes, {first_name(m.fact.subject)}; I saw them {m.fact.object} {when}."
    if asks_of_anyone(act.text) is None:
        return ""  # 'nobody I know' answers only a question of anyone: other readings stand
    where = ctx.location.split(":")[0] if ctx.location else ""
    ask = f" You could ask around {where}." if where and where != me.home else ""
    return f"Not that I know of, I'm afraid.{ask}"


def _does(at: set[str], what: set[str], occupation: str, workplace: str, into: str,
          place_stems: set[str]) -> bool:
    """Whether one's occupation, workplace and interests are what is asked: the place
    words of the question (if any) one's workplace's, the rest one's job's or interests'."""
    works_at = content_stems(f"{workplace} {occupation}") & place_stems
    does = content_stems(f"{occupation} {into}") - place_stems - _FIND_WORDS
    return (not at or _matches(at, works_at)) and (not what or _fits(what, does))


def _fits(asked: set[str], has: set[str]) -> bool:
    """Whether what is asked is what one does: some asked word is one's, and so are at
    least half of those that are not the words questions of work and interests are framed
    with (a painter fits 'who paints?'; a maths teacher does not fit 'who teaches yoga?')."""
    hit = {a for a in asked if _matches({a}, has)}
    core = asked - _FRAMED
    return bool(hit) and 2 * len(hit & core) >= len(core)


_FRAMED = frame_stems("work") | frame_stems("interests") | frame_stems("person.find")


_FIND_WORDS = frozenset(content_stems(
    "anyone anybody someone somebody any one people person folks who whoever here around round "
    "nearby area neighbourhood locally "
    "town local living lives live work works working job for a living does do know there "
    "into interested keen likes enjoys"))  # fmt: skip


_FACETS = {
    "person.work": _work,
    "person.doing": _doing,
    "person.past": _past,
    "person.plans": _plans,
    "person.going": _going,
    "person.interests": _interests,
    "person.routine": _doing,
}
# asked of oneself by name: one's own answer, by the label the facet has of oneself
_MINE: dict[str, Planner] = {
    "work": plan_work, "doing": plan_doing, "past": plan_past, "today": plan_plans,
    "event.going": plan_event, "interests": plan_interests, "routine": plan_routine,
}  # fmt: skip
