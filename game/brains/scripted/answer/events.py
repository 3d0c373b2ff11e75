"""Events: who, what, where and when as the remembered facts hold them, in the tense the
event's time calls for; whether one goes (one's own answer, then one's plan), why not, and
what one thinks of it; a statement about an event taken in.
"""

from __future__ import annotations

import re
from dataclasses import replace

from game.brains.dialogue.acts import Act, ActKind, Aspect, Wh
from game.brains.dialogue.slots import contracted, said_in_past
from game.brains.dialogue.understand import content_stems, frame_stems
from game.brains.questions import AgentContext
from game.core.records import Event, FactKind, MemoryRecord, Rsvp, Source

from .. import interview as iv
from .. import selfknow
from ..goals import rsvp_of
from ..news import facts_in, is_private
from ..plans import attends
from ..traits import dislikes
from ..util import first_name, join_and, pick
from ..wording import first_person
from .account import ahead_part, declined_reason, went_part
from .goers import goers_line, heard_going
from .phrasing import _claim_line, _day, _when_words


def event_facts(ctx: AgentContext, act: Act) -> list[tuple[MemoryRecord, Event | None]]:
    """Memories about the event asked of: by intent id, else claims and facts naming an
    event whose words the question shares, in retrieval order."""
    found = []  # the event's words, less the question's frame ('around town', 'going on')
    wanted = content_stems(act.event) - frame_stems(act.label) if act.event else set()
    for m in ctx.memories:
        f = m.fact
        if f.private or is_private(m.text):
            continue
        by_id = bool(act.intent) and f.intent == act.intent
        dated = f.event is not None or f.kind is FactKind.CLAIM
        by_words = not act.intent and bool(wanted & content_stems(m.text)) and dated
        if by_id or by_words:
            found.append((m, f.event))
    return found


def named_words(act: Act) -> str:
    """The words of the event slot that name something, in the order said: those whose
    stem is not of its label's frame ('who's throwing bake sale' under event.who names
    'bake sale')."""
    frame = frame_stems(act.label) if act.label else frozenset()
    return " ".join(w for w in act.event.split() if content_stems(w) - frame and not contracted(w))


def plan_event(ctx: AgentContext, act: Act, seed: int) -> str:
    """An event: who, what, where, when as retrieval and the fields hold it; past tense
    once it has ended; whether one goes from one's own answer and plan."""
    found = event_facts(ctx, act)
    lead = ""
    opinion = act.kind is ActKind.OPINION or act.label.endswith("opinion")
    if not found and not act.intent and not (opinion and act.event):
        found = _any_event(ctx)
        slot = named_words(act)  # not the question's own frame ('who is behind it?')
        named = act.named or (slot and len(slot.split()) <= 2 and not _verbal(slot))
        event_words = act.aspect is Aspect.EVENT and not act.follow_up and named
        if found and slot and not event_words and act.label != "event.know":
            return ""  # a question about something else: no stray event for an answer
        what = act.named or slot
        lead = f"I haven't heard of any {what}, but " if found and event_words else ""
    if not found:
        return ""
    if lead:  # another event than the one asked of: told as itself, not as its answer
        act = replace(act, label="event.know", wh=Wh.NONE, text="")  # not "... but X is behind it"
    line = _plan_event(ctx, act, seed, found)
    if line and not lead and all_over(ctx, act, found):  # 'anything coming up?' after it
        return f"Nothing coming up that I know of. {line}"
    return lead + _run_on(line) if lead and line else line


def all_over(ctx: AgentContext, act: Act, found) -> bool:
    """Asked what is on (not what was: no past verbs, no window gone by), every event one
    knows of has ended, so none is on: 'Anything on that a newcomer could join?' the day
    after the party is not answered 'Yes, there was ...'."""
    if act.label != "event.know" or said_in_past(act.text):
        return False
    if act.window is not None and act.window.end <= ctx.now:
        return False
    events = [e for _, e in found if e is not None]
    return bool(events) and all(e.end <= ctx.now for e in events)  # news of no date aside


def _verbal(words: str) -> bool:
    """Words left of a question that hold a verb ('happening town', 'readings coming') are
    not the name of an event one could say one has not heard of."""
    return any(w.endswith("ing") and len(w) > 5 for w in words.split())


def _run_on(line: str) -> str:
    """A sentence carried on after 'but': its opener lower case ('there was'), a name or
    'I' as it was ('but Tom said...')."""
    first = line.split(" ", 1)[0]
    return line[:1].lower() + line[1:] if first in _OPENERS else line


_OPENERS = frozenset({"There", "There's", "It", "It's", "The", "A", "An", "Yes", "Yes!", "No",
                      "No,", "My", "This", "That", "Of", "Quite", "Nobody"})  # fmt: skip


def _plan_event(ctx: AgentContext, act: Act, seed: int, found) -> str:
    event = next((e for _, e in found if e is not None), None)
    best = max(found, key=lambda x: (x[1] is not None, x[0].importance, x[0].created))[0]
    if act.label in ("event.going", "follow.going", "invitation"):
        return _going_line(ctx, event, seed, act.intent) if event else ""
    if act.label in ("event.opinion", "follow.opinion") or act.kind is ActKind.OPINION:
        return _event_opinion(ctx, best, event, seed)
    if act.label == "event.goers" and event is not None:  # once over: who one saw there
        seen = _who_was_there(ctx, event, act.intent) if event.end <= ctx.now else ""
        return seen or goers_line(ctx, event, _myself_going(ctx, event, seed, act.intent))
    if act.label == "event.who_came" and event is not None:
        return iv._who_came(ctx, act.text, seed) or _who_was_there(ctx, event, act.intent) \
            or event_line(ctx, event, "", "", "", Wh.WHO)  # fmt: skip
    if best.fact.kind is FactKind.CLAIM and best.fact.source in (Source.VISITOR, Source.NOTICE):
        return _claim_line(ctx, best)
    stated = facts_in(best, ctx.persona)
    text = stated[0].text if stated else best.text
    source = stated[0].source if stated else best.fact.heard_from
    if event is None:
        subject = stated[0].subject if stated else ""
        if subject == ctx.persona.name:
            return f"Yes! {first_person(text, ctx.persona)}."
        return _told(source, subject, text)
    return event_line(ctx, event, text, source, best.fact.intent, act.wh, act.text, seed)


def _any_event(ctx: AgentContext) -> list[tuple[MemoryRecord, Event | None]]:
    """'Is anything happening?': the events and public news retrieval brought up."""
    return [(m, m.fact.event) for m in ctx.memories
            if (m.fact.event is not None or m.fact.intent) and not m.fact.private
            and not is_private(m.text) and m.kind.value != "plan"]  # fmt: skip


def _told(source: str, subject: str, text: str) -> str:
    if source and source == subject:
        return f"{text}. {first_name(source)} told me so in person."
    if source:
        return f"{first_name(source)} told me that {text}."
    return f"As far as I know, {text}."


def event_line(
    ctx: AgentContext,
    event: Event,
    text: str,
    source: str,
    intent: str,
    wh: Wh,
    question: str = "",
    seed: int | None = None,
) -> str:
    """An event in the tense its time calls for, leading with what the question asks; told
    whole, with one's own part in it (`account`): whether one goes is one's answer to the
    invitation, else, given the seed, one's plan."""
    me, now = ctx.persona, ctx.now
    what = event.what or "event"
    host = event.host
    intent = intent or _intent_of(ctx, event)
    whose = f"{first_name(host)}'s {what}" if host and host != me.name else f"the {what}"
    when = _when_words(now, event)
    asks = _asks(question, wh)
    asks_source = wh is not Wh.YESNO and _ASKS_SOURCE.search(question)  # not 'heard of any?'
    if source and host != me.name and asks_source:  # 'how did you hear?'
        rest = event_line(ctx, event, text, "", intent, wh, "")
        return f"{first_name(source)} told me about it. {rest}"
    if event.end <= now:
        went = _went(ctx, event, intent)
        if host == me.name:
            came = iv._seen_at(ctx, event)
            who = f" {join_and(came)} came, among others." if came else ""
            return f"I hosted the {what} at {event.place} {when}.{who}"
        tail = {True: ", and I went.", False: ", but I didn't go.", None: "."}[went]
        if not asks - {Wh.NONE, Wh.YESNO, Wh.WHAT}:  # told whole: with one's own part in it
            return f"There was {whose} at {event.place} {when}{went_part(ctx, event, intent, went)}"
        if Wh.WHO in asks and host:
            return f"{host} hosted it: {whose} at {event.place} {when}{tail}"
        if Wh.WHERE in asks or Wh.WHEN in asks:  # named: the question may not have
            return f"{whose[:1].upper()}{whose[1:]} was at {event.place} {when}{tail}"
        return f"There was {whose} at {event.place} {when}{tail}"
    if host == me.name:
        return f"Yes! I'm hosting the {what} at {event.place} {when}. I'd love you to come."
    parts = []
    if Wh.WHO in asks and host:
        parts.append(f"{host} is behind it: {whose} at {event.place}, {when}.")
    elif Wh.WHEN in asks:
        parts.append(f"{whose[:1].upper()}{whose[1:]} is {when}, at {event.place}.")
    elif Wh.WHERE in asks:
        parts.append(f"{whose[:1].upper()}{whose[1:]} is at {event.place}, {when}.")
    else:
        parts.append(f"There's {whose} at {event.place} {when}.")
        answered = rsvp_of(ctx.memories, event)
        if answered is not None or seed is not None:
            goes = answered is not Rsvp.DECLINED if answered else going(ctx, event, seed or 0)
            parts.append(ahead_part(ctx, event, goes))
    if source:
        parts.append(f"{first_name(source)} told me about it.")
    return " ".join(parts)


def _intent_of(ctx: AgentContext, event: Event) -> str:
    """The scenario intent a remembered event belongs to ('' if none names it): what
    one's doings at it are tagged with, when a caller knew the event only by its place."""
    return next((m.fact.intent for m in ctx.memories if m.fact.intent and m.fact.event == event),
                "")  # fmt: skip


# a question about how one came to know ('How did news of the party reach you?')
_ASKS_SOURCE = re.compile(r"\b(?:hear|heard|told|tell you|find out|found out|learn|learned|"
                          r"learnt|reach|reached|get wind|got wind|word of|news of|"
                          r"pass(?:ed)? it on)\b", re.I)  # fmt: skip


def _asks(question: str, wh: Wh) -> set[Wh]:
    """Every answer the question wants ('who's behind it, and when?' wants two)."""
    found = {wh}
    low = question.lower()
    for word, kind in (("who", Wh.WHO), ("when", Wh.WHEN), ("what time", Wh.WHEN),
                       ("where", Wh.WHERE), ("what day", Wh.WHEN)):  # fmt: skip
        if word in low:
            found.add(kind)
    if Wh.WHO in found and Wh.WHEN in found:
        found.discard(Wh.WHEN)  # the 'who' line carries the time as well
    return found


def _went(ctx: AgentContext, event: Event, intent: str) -> bool | None:
    """Whether one went to an ended event, from what one remembers doing while it ran: yes
    if there, no if elsewhere or one had declined, None if the memories at hand do not say
    (retrieval brings what the question is about, not always one's whole evening)."""
    me = ctx.persona.name
    during = [m for m in ctx.memories if m.fact.kind is FactKind.DOING
              and m.fact.subject == me and event.start <= m.created < event.end]  # fmt: skip
    if any((intent and m.fact.intent == intent) or event.place in (m.fact.address or m.text)
           for m in during):  # fmt: skip
        return True
    if during or rsvp_of(ctx.memories, event) is Rsvp.DECLINED:
        return False
    return None


def going(ctx: AgentContext, event: Event, seed: int) -> bool:
    """Whether one goes: one's own answer first, then one's plan, then temperament."""
    answer = rsvp_of(ctx.memories, event)
    if answer is not None:
        return answer is not Rsvp.DECLINED
    return attends(ctx.persona, event, seed)


def _who_was_there(ctx: AgentContext, event: Event, intent: str) -> str:
    """A guest asked who came: those one saw there, else those one heard would go."""
    if event.end > ctx.now:
        return ""
    went = bool(_went(ctx, event, intent))
    seen = iv._seen_at(ctx, event) if went else []
    if seen:
        return f"I saw {join_and(seen)} at the {event.what or 'event'}."
    heard = heard_going(ctx, event)
    return goers_line(ctx, event, went, heard) if heard else ""


def _myself_going(ctx: AgentContext, event: Event, seed: int, intent: str) -> bool:
    """Whether one goes (went, once it is over), to say beside others; the host says not."""
    if event.host == ctx.persona.name:
        return False
    return bool(_went(ctx, event, intent)) if event.end <= ctx.now else going(ctx, event, seed)


def _going_line(ctx: AgentContext, event: Event, seed: int, intent: str = "") -> str:
    what = event.what or "event"
    if event.end <= ctx.now:
        went = _went(ctx, event, intent)
        if went is None:
            return f"The {what} was {_day(ctx.now, event.start)} at {event.place}."
        return f"I did, yes; the {what} was lovely." if went else f"No, I missed the {what}."
    when = _when_words(ctx.now, event)
    if event.host == ctx.persona.name:
        return f"Of course, it's mine! The {what} is at {event.place} {when}."
    if going(ctx, event, seed):
        return f"Yes, I'll be at the {what} at {event.place} {when}."
    reason = _rsvp_reason(ctx, event)
    return f"No, I won't make it to the {what}.{reason}"


def _rsvp_reason(ctx: AgentContext, event: Event) -> str:
    reason = declined_reason(ctx, event)
    return f" {reason}" if reason else ""


def _ended_opinion(ctx: AgentContext, event: Event, seed: int, intent: str = "") -> str:
    """What one thinks of an event that is over: as host, as a guest, or having missed it
    (whether one went is read as `_going_line` reads it, so the two never disagree)."""
    what, me = event.what or "event", ctx.persona
    if event.host == me.name:
        return f"I think the {what} went well; I was glad so many people came."
    went = _went(ctx, event, intent)
    if went:
        return pick((f"I enjoyed the {what}; it was a lovely evening.",
                     f"The {what} was fun; I'm glad I went."), seed, me.name)  # fmt: skip
    if went is False:
        return f"I missed the {what}, but I heard it went well."
    return f"The {what} was {_day(ctx.now, event.start)}; people seemed to like it."


def _event_opinion(ctx: AgentContext, m: MemoryRecord, event: Event | None, seed: int) -> str:
    me = ctx.persona
    stated = facts_in(m, me)
    subject = stated[0].subject if stated else m.fact.subject
    if event is not None and event.end <= ctx.now:
        return _ended_opinion(ctx, event, seed, m.fact.intent)
    if subject == me.name or (event is not None and event.host == me.name):
        return "It matters a lot to me, so of course I'm all for it."
    if event is None:
        if subject and dislikes(me, subject):
            return f"I don't think {first_name(subject)} is the right person for it, frankly."
        who = first_name(subject) if subject else "them"
        return pick(
            (
                f"I'd give {who} a fair hearing; I'm curious how it turns out.",
                f"I lean towards {who}, but I want to hear more first.",
            ),
            seed,
            me.name,
        )
    if going(ctx, event, seed):
        return f"I think it'll be fun, and I'm planning to go to the {event.what or 'event'}."
    return "It sounds nice, but it's not really for me."


def plan_why(ctx: AgentContext, act: Act, seed: int) -> str:
    if act.intent or act.event:
        found = event_facts(ctx, act)
        event = next((e for _, e in found if e is not None), None)
        if event is not None:
            reason = _rsvp_reason(ctx, event)
            if reason:
                return f"Well,{reason}"
    return selfknow.why(ctx, act.text, seed) or selfknow.inspires(ctx, act.text, seed)


def plan_statement(ctx: AgentContext, act: Act, seed: int) -> str:
    """The listener was told something: take it in, in one's own words."""
    if act.label == "statement.self":
        return "Nice to meet you! It's always good to see a new face around here."
    if act.intent:
        found = event_facts(ctx, act)
        if len(found) > 1:
            return "Yes, I'd heard about that already. " + (plan_event(ctx, act, seed) or "")
    return pick(
        (
            "Oh, really? I hadn't heard that. Thanks for telling me.",
            "Is that so? I'll keep that in mind, thanks.",
            "Huh, that's news to me. Good to know!",
        ),
        seed,
        ctx.persona.name,
        act.text,
    )
