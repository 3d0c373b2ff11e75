"""Hearing of an event is a decision: accept, maybe or decline, with a reason.

The decision reads the persona (traits, interests), its relationship to the host and what
its day holds at that hour (its routine's work blocks); the reason is said in its own words
and kept in memory (`Fact.rsvp`), so its plans and the evaluation read the answer by field.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from game.brains.questions import AgentContext
from game.core.records import Event, Rsvp
from game.world.scenario import Resident
from game.world.town import sector_of

from .traits import BLUNT_TRAITS, declines, dislikes, has_trait, sociability
from .util import chance, content_words, first_name, has_any, pick
from .wording import relation_in_first_person

SOCIAL_INTERESTS = ("community", "people", "party", "parties", "music", "food", "cooking",
                    "dancing", "hospitality", "friends", "events", "socialis")  # fmt: skip
WORK_KEYS = ("work", "serving", "running the", "shift", "teaching", "class", "customers",
             "shop", "pharmacy", "store", "bar\\b", "counter")  # fmt: skip


@dataclass(frozen=True)
class Decision:
    answer: Rsvp
    reason: str  # a clause in the first person: 'I work until 8 that evening'
    line: str  # what the resident says


def decide(ctx: AgentContext, event: Event, teller: str, seed: int) -> Decision | None:
    """The persona's answer to an event it has just been told of (None if it is its own
    event, or the event is over)."""
    me = ctx.persona
    if event.host == me.name or event.end <= ctx.now:
        return None
    host = event.host or teller
    key = (seed, me.name, "rsvp", event.place, event.start.isoformat())
    what = event.what or "event"
    if host and dislikes(me, host):
        reason = f"I don't much care for {first_name(host)}"
        return Decision(Rsvp.DECLINED, reason, f"I'll pass, thanks. {_cap(reason)}.")
    clash = _work_clash(me, event)
    relation = me.relation_to(host) if host else None
    social = sociability(me) >= 1.1 or has_any(" ".join(me.interests), SOCIAL_INTERESTS)
    if clash:
        reason = f"I'm {clash} until {_clock(event.end)} that day"
        if social or relation:
            reason += ", but I'll come by after"
            return Decision(Rsvp.MAYBE, reason, f"{_cap(reason)}. Maybe see you there!")
        return Decision(Rsvp.DECLINED, reason, f"Sorry, I can't. {_cap(reason)}.")
    if relation is not None and not declines(me, "close" + what, seed):
        reason = f"{first_name(host)} is {relation_in_first_person(relation, me)}"
        lines = ACCEPT_FRIEND if event.host else ACCEPT_WITH  # no host: not the teller's
        line = pick(lines, *key).format(name=first_name(host), what=what)
        return Decision(Rsvp.ACCEPTED, reason, line)
    if declines(me, f"{event.place}@{event.start.isoformat()}", seed) or not (
        social or chance(*key, "mood") < 0.6
    ):
        blunt = has_trait(me, BLUNT_TRAITS)
        reason = "that sort of thing isn't for me" if blunt else pick(QUIET_REASONS, *key)
        return Decision(Rsvp.DECLINED, reason, pick(DECLINE_LINES, *key).format(reason=reason))
    interest = _interest_in(me, event)
    reason = f"I love {interest}" if interest else "it sounds like fun"
    line = pick(ACCEPT_LINES, *key).format(what=what, reason=reason, day=_day(event.start))
    return Decision(Rsvp.ACCEPTED, reason, line)


ACCEPT_FRIEND = (
    "For {name}, I wouldn't miss it.",
    "Of course I'll come to {name}'s {what}!",
    "Count me in; I'll tell {name} myself.",
    "I'll be at {name}'s {what}, wouldn't miss it.",
    "{name}'s {what}: I'm there.",
)
ACCEPT_WITH = (  # an event nobody hosts, told by a friend: going along with them
    "If you're going, {name}, count me in.",
    "I'll come along with you, {name}.",
    "Let's go to the {what} together, {name}!",
)
ACCEPT_LINES = (
    "A {what}! I'll be there, {reason}.",
    "Oh, {reason}, so I'll come on {day}.",
    "I'd love to come; {reason}.",
    "Sounds good, I'll come along on {day}; {reason}.",
    "Put me down for the {what}; {reason}.",
)
DECLINE_LINES = (
    "Thanks, but I'll give it a miss; {reason}.",
    "That's kind of you, but no; {reason}.",
    "I don't think so; {reason}.",
)
QUIET_REASONS = (
    "I'd rather have a quiet evening", "I have a lot on that day", "crowds wear me out",
    "I've promised myself an early night",
)  # fmt: skip


def _interest_in(me: Resident, event: Event) -> str:
    """The persona's interest the event speaks to (a cook-off to one who loves cooking),
    else a sociable one (meeting people, community events), else ''."""
    stems = {w[:STEM] for w in content_words(event.what)}
    topical = (i for i in me.interests if stems & {w[:STEM] for w in content_words(i)})
    social = (i for i in me.interests if has_any(i, SOCIAL_INTERESTS))
    return next(topical, "") or next(social, "")


STEM = 4  # letters two words share to count as the same topic ('cook-off', 'cooking')


def _work_clash(me: Resident, event: Event) -> str:
    """The persona's routine work that still runs when the event ends ('running the
    cafe'), or ''. Work at the event's own place is no clash: one is there anyway."""
    end = event.end.hour * 60 + event.end.minute
    for block in me.routine:
        stop = block.end if block.end > block.start else block.end + 24 * 60
        work = has_any(block.activity, WORK_KEYS) and sector_of(block.place) != event.place
        if work and block.start < end and stop >= end:
            return block.activity.split(" and ")[0]
    return ""


def _clock(when: datetime) -> str:
    hour = when.hour % 12 or 12
    return f"{hour}{f':{when.minute:02d}' if when.minute else ''}"


def _day(when: datetime) -> str:
    return when.strftime("%A")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
