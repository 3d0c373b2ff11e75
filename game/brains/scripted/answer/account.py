"""One's own part in an event, said after its facts: whether one went and for how long, whom
one saw there, what one did instead; ahead of it, whether one goes and who else does.

Why its own module: the facts of an event (who, what, where, when) are the same for the
whole town, so an answer made of them alone is one sentence said by everyone. What makes
it a resident's own account is what only that resident holds: its own doings while the
event ran (by field: the memory's intent, address and time), the people it saw there, its
answer to the invitation and the reason it gave, who told it they are going. Nothing here
is worded for a particular event.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from game.brains.questions import AgentContext
from game.core.records import Event, FactKind, MemoryRecord, Rsvp, Source

from .. import interview as iv
from ..goals import rsvp_of
from ..util import first_name, join_and
from ..wording import mine
from .goers import heard_going

MOST_SEEN = 3  # people named as seen at an event


def at_words(me, address: str) -> str:
    """'at home', 'at Hobbs Cafe': where an address is, as one says it."""
    place = address.split(":")[0]
    return "at home" if place == me.home else f"at {place}" if place else ""


def own_doings(ctx: AgentContext, start: datetime, end: datetime) -> list[MemoryRecord]:
    """What one remembers doing oneself between two times, in order."""
    me = ctx.persona.name
    done = [m for m in ctx.memories if m.fact.kind is FactKind.DOING and m.fact.subject == me
            and m.fact.source is Source.SELF and start <= m.created < end]  # fmt: skip
    return sorted(done, key=lambda m: m.created)


def done_in(ctx: AgentContext, start: datetime, end: datetime) -> str:
    """'I was cooking dinner at home and at Arthur's quiz night at The Rose and Crown Pub
    yesterday evening': what one did then; a doing that was part of an event (by the
    memory's intent) is said as being at the event."""
    me = ctx.persona
    ordered = own_doings(ctx, start, end)
    if not ordered:
        return ""
    acts = list(dict.fromkeys(_doing_words(ctx, m) for m in ordered))
    where = list(dict.fromkeys(at_words(me, m.fact.address) for m in ordered
                               if m.fact.address and not _event_in(ctx, m)))  # fmt: skip
    at = f", {join_and(where[:2])}" if where and where[0] else ""
    return f"I was {join_and(acts[:3])}{at} {iv._when(ctx.now, start)}."


def _event_in(ctx: AgentContext, m: MemoryRecord) -> Event | None:
    return iv._event_of(ctx, m.fact.intent) if m.fact.intent else None


def _doing_words(ctx: AgentContext, m: MemoryRecord) -> str:
    event = _event_in(ctx, m)
    if event is None:
        return mine(m.fact.object, ctx.persona)
    if event.host == ctx.persona.name:
        return f"hosting the {event.what or 'event'} at {event.place}"
    return f"at {_whose(event, ctx.persona)} at {event.place}"


def _whose(event: Event, me) -> str:
    what = event.what or "event"
    return f"{first_name(event.host)}'s {what}" if event.host and event.host != me.name \
        else f"the {what}"  # fmt: skip


def _at_event(ctx: AgentContext, event: Event, intent: str) -> list[MemoryRecord]:
    """One's doings that were part of the event: by its intent, or at its place."""
    return [m for m in own_doings(ctx, event.start, event.end)
            if (intent and m.fact.intent == intent) or (event.place and event.place in
                                                        (m.fact.address or ""))]  # fmt: skip


def _stay_words(span: timedelta) -> str:
    minutes = span.total_seconds() / 60
    if minutes < 20:
        return "just for a little while"
    if minutes < 50:
        return "for about half an hour"
    if minutes < 80:
        return "for about an hour"
    if minutes < 105:
        return "for an hour and a half or so"
    return "for most of it"


def _seen_while(ctx: AgentContext, start: datetime, end: datetime, place: str) -> list[str]:
    """Others who were where one was between two times (`met_at`)."""
    during = [m for m in ctx.memories if start <= m.created <= end]
    return [first_name(p) for p in met_at(during, place, ctx.persona.name)][:MOST_SEEN]


def met_at(memories, place: str, me: str) -> list[str]:
    """Who was at a place, as one's memories of the time show it: those one talked with,
    those seen there (the seen one's address, by field), and, where a memory has no
    address (saves made before it was kept), those seen more than once: a single glimpse
    may be of someone passing by, or next door."""
    ordered = sorted(memories, key=lambda m: m.created)
    talked = [p for m in ordered if m.fact.kind is FactKind.CONVERSATION
              for p in m.fact.participants if p != me]  # fmt: skip
    seen = [m.fact for m in ordered if m.fact.kind is FactKind.DOING
            and m.fact.source is Source.SEEN and m.fact.subject != me]  # fmt: skip
    there = [f.subject for f in seen if f.address.split(":")[0] == place]
    unplaced = [f.subject for f in seen if not f.address]
    again = [p for p in unplaced if unplaced.count(p) > 1]
    return list(dict.fromkeys([*talked, *there, *again]))


def went_part(ctx: AgentContext, event: Event, intent: str, went: bool | None) -> str:
    """After an ended event's facts: ', and I went for about an hour. Carlos and Jane were
    there too.', or ', but I didn't go.' with the reason one gave, else what one did."""
    if went is None:
        return "."
    if not went:  # what one did instead, else the reason one gave back then
        instead = done_in(ctx, event.start, event.end)
        reason = declined_reason(ctx, event)
        said = instead or (f"I'd said no: {_lower_first(reason)}" if reason else "")
        return f", but I didn't go. {said}" if said else ", but I didn't go."
    there = _at_event(ctx, event, intent)
    if not there:
        return ", and I went."
    arrived, left = there[0].created, there[-1].created
    seen = _seen_while(ctx, arrived, left + timedelta(minutes=1), event.place)
    stay = _stay_words(left - arrived + timedelta(minutes=5))
    others = f" {join_and(seen)} {'was' if len(seen) == 1 else 'were'} there too." if seen \
        else ""  # fmt: skip
    return f", and I went {stay}.{others}"


def _lower_first(text: str) -> str:
    """A sentence carried on after a colon: lower case, but 'I' stays 'I'."""
    first = text.split(" ", 1)[0]
    return text if first == "I" or first.startswith("I'") else text[:1].lower() + text[1:]


def declined_reason(ctx: AgentContext, event: Event) -> str:
    """The reason one gave when one said no to the event, as a sentence ('' if none)."""
    for m in ctx.memories:
        if m.fact.rsvp is Rsvp.DECLINED and m.fact.event == event and m.fact.reason:
            said = mine(m.fact.reason.rstrip("."), ctx.persona)
            return f"{said[:1].upper()}{said[1:]}."
    return ""


def ahead_part(ctx: AgentContext, event: Event, going: bool) -> str:
    """Before an event, after its facts: whether one goes, with whom one heard is going,
    or one's reason for not."""
    heard = [first_name(n) for n in heard_going(ctx, event)][:MOST_SEEN]
    if going:
        also = f" {join_and(heard)} {'is' if len(heard) == 1 else 'are'} going too." if heard \
            else ""  # fmt: skip
        answered = rsvp_of(ctx.memories, event) is Rsvp.ACCEPTED
        return f"I've said I'll go.{also}" if answered else f"I'm planning to go.{also}"
    reason = declined_reason(ctx, event)
    return f"I won't make it, though. {reason}" if reason else "I won't make it, though."
