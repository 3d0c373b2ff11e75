"""Telling news: an outsider's claim as their quoted words, the host's own event as an
invitation, one's own cause as a pitch, a dated event from its fields, else hearsay.
"""

from __future__ import annotations

from datetime import datetime

from game.brains.questions import AgentContext
from game.core.records import Event
from game.world.scenario import Resident

from . import hearsay
from .goals import rsvp_of
from .news import News, is_private, outside_claim
from .talk_lines import LINE_LIMIT, lower_first
from .traits import dislikes
from .util import first_name, has_any, pick
from .wording import first_person


def _share(ctx: AgentContext, partner: str, news: News, key: tuple) -> str:
    """News in the speaker's words, by its fields: an outsider's claim as their quoted
    words, the host's own event as an invitation, one's own public cause (any scenario
    intent with no date) as a pitch, a dated event from its fields, else hearsay."""
    me = ctx.persona
    if outside_claim(news.fact):
        origin, first_hand = news.fact.first_source, news.fact.origin is None
        return hearsay.relayed_claim(news.text, origin, news.source, first_hand, me.name, partner)
    if news.own and news.fact.event is not None:
        return invitation(me, partner, news.fact.event, key, ctx.now)
    if news.own and (news.fact.intent or _political(news.text)):
        return campaign_pitch(me, partner, news.text, key)
    if news.own:
        return f"{first_person(news.text, me)}."
    event = news.fact.event
    if event is not None:
        answer = rsvp_of(ctx.memories, event)
        return hearsay.event_news(event, news.source, me.name, partner, ctx.now, answer)
    source = news.source if news.source not in (partner, news.subject) else ""
    line = hearsay.hearsay(news.text, news.subject, source, me.name, partner)
    if news.subject and dislikes(me, news.subject):
        line = hearsay.tailed(
            line, "Don't count on my vote." if _political(news.text) else "Not that I care."
        )
    return line


def invitation(me: Resident, partner: str, event: Event, key: tuple, now: datetime) -> str:
    """The host's invitation, worded from the event's fields and the relationship."""
    what = event.what or "get-together"
    if event.start <= now < event.end:  # under way: join us now
        until = _hour(event.end)
        lead = pick(INVITE_NOW, *key).format(what=what, place=event.place, until=until)
        return f"{lead} {pick(INVITE_CLOSE_NOW, *key, 'close')}"
    when = hearsay.when(event, now, me.name, partner)
    lead = pick(INVITE_LEADS, *key).format(what=what, a_what=hearsay.an(what), place=event.place,
                                          when=when)  # fmt: skip
    relation = me.relation_to(partner)
    close = pick(INVITE_CLOSE_FRIEND if relation else INVITE_CLOSE, *key, "close")
    return f"{lead} {close.format(name=first_name(partner))}"


INVITE_LEADS = (
    "I'm hosting {a_what} at {place} {when}.",
    "I'm throwing {a_what} at {place}, {when}.",
    "We're having {a_what} at {place} {when}.",
    "I'm putting on {a_what} at {place} {when}, and I'd love to see you there.",
    "Let me tell you about my {what}: it's at {place} {when}.",
    "You're invited to my {what} at {place} {when}.",
)
INVITE_NOW = (
    "My {what} is on right now at {place}, until {until}.",
    "You're just in time for my {what}: it's on at {place} until {until}.",
    "We're in the middle of my {what} here at {place}; it goes on until {until}.",
)
INVITE_CLOSE_NOW = ("Do join us!", "Stay a while, won't you?", "Come and join in!")
INVITE_CLOSE = ("Would you like to come?", "I'd love for you to come.", "Do come if you can!")
INVITE_CLOSE_FRIEND = (
    "It wouldn't be the same without you, {name}.",
    "You'll come, won't you, {name}?",
    "Save the date for me, {name}!",
)


def _hour(when: datetime) -> str:
    hour = when.hour % 12 or 12
    minutes = f":{when.minute:02d}" if when.minute else ""
    return f"{hour}{minutes} {'am' if when.hour < 12 else 'pm'}"


def campaign_pitch(me: Resident, partner: str, text: str, key: tuple) -> str:
    """A candidate raises the election: the news, a reason from its own seed, an ask."""
    reasons = [c for c in me.seed_memories() if has_any(c, ("believ", "wants", "hopes", "thinks"))]
    reasons = [first_person(c.rstrip("."), me) for c in reasons if not is_private(c)]
    own = first_person(text, me).rstrip(".")
    said = pick(PITCH_LEADS, *key, "lead").format(own=own, low=lower_first(own))
    why = ""
    if reasons:
        reason = pick(reasons, *key)
        why = " " + pick(PITCH_WHY, *key, "why").format(why=lower_first(reason))
    asks = CAMPAIGN_ASKS if _political(text) else SUPPORT_ASKS
    ask = pick(asks, *key, "ask").format(name=first_name(partner))
    if len(f"{said}{why} {ask}") > LINE_LIMIT - 10:
        why = ""  # a long pitch keeps the news and the ask
    return f"{said}{why} {ask}"


PITCH_LEADS = (
    "{own}.",
    "As you may have heard, {low}.",
    "I don't know if you've heard, but {low}.",
    "I wanted to tell you myself: {low}.",
    "Big news from me: {low}.",
    "You might like to know {low}.",
)
PITCH_WHY = ("{why}.", "The reason is simple: {why}.", "Honestly, {why}.",
             "It comes down to this: {why}.", "Why? Because {why}.")  # fmt: skip
CAMPAIGN_ASKS = (
    "Can I count on your vote, {name}?",
    "What would you like to see change in town?",
    "I'd be glad of your vote.",
    "What matters most to you, {name}?",
    "I'd love to hear what you think, {name}.",
    "Will you think about voting for me, {name}?",
    "Tell me what you'd fix first, {name}.",
)


SUPPORT_ASKS = (  # a cause that is not an election: support, not votes
    "I'd be glad of your support, {name}.",
    "What do you think, {name}?",
    "I'd love to hear what you think, {name}.",
    "Can I count on you, {name}?",
    "Tell your friends, would you, {name}?",
)


def _political(text: str) -> bool:
    """Words of an election (asks for a vote): a fallback for the wording only, since
    which news is a cause to pitch is read from its fields (`_share`)."""
    return has_any(text, ("mayor", "election", "campaign", "vote"))
