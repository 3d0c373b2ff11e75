"""Passing news on in one's own words, and saying what one is doing, with varied wording.

The same fact told by everyone in the same words reads as a script. Here a fact is worded
from its fields (whom it is about, what they do, the event with its place and times) in
one of several phrasings, chosen by a stable hash of the speaker, the listener and the
fact: the same teller says it the same way to the same person (determinism), different
tellers say it differently. Words passed on as `Utterance.shares` stay the fact's own
words, so the listener's memory keeps the fact, not the paraphrase.
"""

from __future__ import annotations

import re
from datetime import datetime

from game.core.records import Event, Rsvp, Source
from game.core.text import quoted
from game.world.scenario import Resident

from .util import STOPWORDS, first_name, pick
from .wording import mine

# what trails a clause and can be left out in a shorter telling
_TRAIL = re.compile(r"\s(?:in the upcoming|in the coming|this coming|next)\b.*$")

HEARSAY_LEADS = (
    "Have you heard that {who} {rest}?",
    "Did you know {who} {rest}?",
    "I hear {who} {rest}.",
    "Word around town is that {who} {rest}.",
    "Apparently {who} {rest}, did you know?",
    "Guess what: {who} {rest}.",
    "So it turns out {who} {rest}.",
    "Someone mentioned that {who} {rest}; had you heard?",
)
FROM_THEM_LEADS = (  # the teller heard it from the very person it is about
    "{source} told me {pronoun_rest}.",
    "I heard it from {source} in person: {pronoun_rest}.",
    "{who} {rest}; I heard it from them myself.",
    "{source} was saying {pronoun_rest}.",
)
SOURCED_LEADS = (
    "{source} told me {who} {rest}.",
    "{source} was saying that {who} {rest}.",
    "According to {source}, {who} {rest}.",
    "I ran into {source} and heard that {who} {rest}.",
    "{source} mentioned {who} {rest}; had you heard?",
    "I had it from {source} that {who} {rest}.",
)
HEARSAY_TAILS = ("", "", "What do you make of that?", "Quite something.",
                 "Thought you'd want to know.", "Interesting, that.", "Who'd have thought it.",
                 "Not that it surprises me.", "We'll see how that goes.")  # fmt: skip


def split_subject(text: str, subject: str) -> tuple[str, str]:
    """'Sam Moore is running for mayor' -> ('Sam Moore', 'is running for mayor')."""
    text = text.strip().rstrip(".")
    for name in (subject, first_name(subject)) if subject else ():
        if text.startswith(name + " "):
            return name, text[len(name) + 1 :]
    return "", text


def hearsay(text: str, subject: str, source: str, speaker: str, listener: str) -> str:
    """News about someone, heard from someone else, in the teller's words."""
    key = (speaker, listener, text)
    who, rest = split_subject(text, subject)
    if not who:
        lead = pick(("I heard that {rest}.", "Apparently {rest}.", "Did you know {rest}?"), *key)
        return lead.format(rest=rest)
    if pick((True, False), *key, "short") and _TRAIL.search(rest):
        rest = _TRAIL.sub("", rest)
    own = bool(source) and first_name(source) == first_name(who)
    who = pick((who, first_name(who)), *key, "name")
    leads = SOURCED_LEADS if source and pick((True, False), *key, "src") else HEARSAY_LEADS
    leads = FROM_THEM_LEADS if own and leads is SOURCED_LEADS else leads
    line = pick(leads, *key).format(
        who=who, rest=rest, source=first_name(source), pronoun_rest=_they(rest)
    )
    return tailed(line, pick(HEARSAY_TAILS, *key, "tail"))


def when(event: Event, now: datetime, *key: object) -> str:
    """When an event is, said relative to today where that is natural."""
    days = (event.start.date() - now.date()).days
    day = {0: "today", 1: "tomorrow"}.get(days, f"on {event.start:%A}")
    at, until = hour(event.start), hour(event.end)
    part = "evening" if event.start.hour >= 17 else "afternoon" if event.start.hour >= 12 else ""
    options = [f"{day} from {at}", f"{day} at {at}", f"{day}, {at} to {until}"]
    if days == 0 and part:
        options.append(f"this {part}")
    elif days == 1 and part:
        options.append(f"tomorrow {part}")
    elif part:
        options.append(f"{day} {part}".replace("on ", "", 1) if days > 1 else f"{day}")
    options.append(f"on the {_ordinal(event.start.day)}")
    return pick(options, *key, "when")


def _they(rest: str) -> str:
    """'is running for mayor' -> 'they are running for mayor': the person, not their name
    again, when they are also the one who said it."""
    for verb, plural in (("is ", "are "), ("was ", "were "), ("has ", "have ")):
        if rest.startswith(verb):
            return "they " + plural + rest[len(verb) :]
    return "they " + rest


def hour(moment: datetime) -> str:
    h = moment.hour % 12 or 12
    minutes = f":{moment.minute:02d}" if moment.minute else ""
    return f"{h}{minutes} {'am' if moment.hour < 12 else 'pm'}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


EVENT_LEADS = (
    "Have you heard about {host}'s {what} at {place} {when}?",
    "There's {a_what} at {place} {when}; {host} is hosting.",
    "{host} is throwing {a_what} at {place} {when}.",
    "Are you going to {host}'s {what} {when}?",
    "{host}'s having {a_what} {when} at {place}.",
    "Did anyone tell you about the {what} at {place} {when}?",
    "You know {host} is hosting {a_what} {when}?",
    "There's going to be {a_what} at {place} {when}.",
)
EVENT_FROM_HOST = (  # the teller heard of it from its host
    "{host} invited me to {a_what} at {place} {when}.",
    "{host} told me about the {what} at {place} {when}.",
    "{host} is having {a_what} {when}; I heard it from the host.",
    "{host} mentioned the {what} {when}; are you going?",
)
EVENT_SOURCED = (
    "{source} told me about {host}'s {what} at {place} {when}.",
    "{source} says {host} is having {a_what} {when}.",
    "I heard from {source} there's {a_what} at {place} {when}.",
    "{source} mentioned {host}'s {what} {when}; are you going?",
)
GOING = {
    Rsvp.ACCEPTED: (" I'm going, are you?", " I'll be there.", " I said I'd go.",
                    " Count me in, anyway."),
    Rsvp.MAYBE: (" I might go.", " I haven't decided yet.", " I'm still thinking about it."),
    Rsvp.DECLINED: (" I can't make it myself.", " I won't be there, sadly.",
                    " I told them I can't come."),
}  # fmt: skip
GOING_TOO = "I'm going too."  # told of an event one has already said yes to
NO_ANSWER = ("", " Should be fun.", " You should come.", " Are you going?", " It sounds lovely.")


def event_news(
    event: Event, source: str, speaker: str, listener: str, now: datetime, rsvp: Rsvp | None
) -> str:
    """An event passed on from its fields (so it is the event, not a remark, that spreads),
    with the teller's own answer to it when it has given one."""
    key = (speaker, listener, event.what, event.start.isoformat())
    what = event.what or "get-together"
    host = first_name(event.host) if event.host else "someone"
    leads = EVENT_SOURCED if source and pick((True, False), *key, "src") else EVENT_LEADS
    if leads is EVENT_SOURCED and event.host and first_name(source) == first_name(event.host):
        leads = EVENT_FROM_HOST  # not "Isabella says Isabella is having a party"
    line = pick(leads, *key).format(
        host=host, what=what, a_what=an(what), place=event.place, when=when(event, now, *key),
        source=first_name(source) if source else "",
    )  # fmt: skip
    tail = GOING[rsvp] if rsvp is not None else NO_ANSWER
    return tailed(_capital(line), pick(tail, *key, "tail"))


def tailed(line: str, tail: str) -> str:
    """A remark that runs on in the same breath: 'X is hosting a party; should be fun.'"""
    tail = tail.strip()
    if not tail or tail.lower() in line.lower():
        return line
    if line.endswith("."):
        keep = tail.split()[0].strip(",") in ("I", "I'm", "I'll", "I've", "I'd")
        return f"{line[:-1]}; {tail if keep else tail[:1].lower() + tail[1:]}"
    return f"{line} {_capital(tail)}"


def an(noun: str) -> str:
    """'a party', 'an exhibition'; a name that starts with a capital keeps 'a'."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# An outsider's claim is passed on as the outsider's words, never as the teller's own fact:
# in reported speech when it speaks of no one in the first or second person, else quoted.
OUTSIDER = {Source.VISITOR: "a visitor", Source.NOTICE: "a notice"}
FIRST_HAND_REPORTED = (
    "{Outsider} told me {said}.",
    "{Outsider} to town was telling me {said}.",
    "I had {outsider} tell me {said}.",
    "According to {outsider} I met, {said}.",
)
FIRST_HAND_QUOTED = (
    "{Outsider} told me this: {quote}",
    "{Outsider} to town said to me: {quote}",
    "I met {outsider} who said: {quote}",
)
RELAYED_REPORTED = (
    "{source} told me {outsider} said {said}.",
    "{source} heard from {outsider} that {said}.",
    "According to {source}, {outsider} was saying {said}.",
)
RELAYED_QUOTED = (
    "{source} told me {outsider} said: {quote}",
    "{source} was passing on what {outsider} said: {quote}",
)
NOTICE_QUOTED = (  # a notice is often a title, not a sentence: always its own words
    "I read on {board}: {quote}",
    "There's a notice up on {board}: {quote}",
)
CLAIM_TAILS = ("", "Have you heard anything about it?", "I can't say whether it's true.",
               "Make of that what you will.", "Do you know if it's so?")  # fmt: skip
_PERSONAL = re.compile(r"\b(?:I|I'm|I'll|I've|me|my|mine|we|we're|us|our|you|your|you're)\b", re.I)
_THERE_IS = re.compile(r"^there is\b", re.I)


def relayed_claim(
    words: str, origin: Source, teller: str, first_hand: bool, speaker: str, listener: str
) -> str:
    """An outsider's words passed on with their source: 'A visitor told me there's a bake
    sale at the college on Friday.', or from a neighbour: 'Latoya told me a visitor said
    ...'. `teller` is whoever told the speaker (the visitor, the board, a neighbour)."""
    key = (speaker, listener, words)
    outsider = OUTSIDER.get(origin, "someone")
    said = reported(words)
    if first_hand and origin is Source.NOTICE:
        lines = NOTICE_QUOTED
    elif first_hand:
        lines = FIRST_HAND_REPORTED if said else FIRST_HAND_QUOTED
    else:
        lines = RELAYED_REPORTED if said else RELAYED_QUOTED
    line = pick(lines, *key).format(
        outsider=outsider, Outsider=_capital(outsider), said=said, quote=quoted(words),
        source=first_name(teller), board=teller,
    )  # fmt: skip
    return tailed(_capital(line), pick(CLAIM_TAILS, *key, "tail"))


def _without_lead_question(text: str) -> str:
    """'Have you heard? There is a bake sale ...' without its opening 'Have you heard?': a
    short question before the news asks the one first told, not the next listener."""
    parts = re.split(r"(?<=[.!?])\s+", text.strip())
    while len(parts) > 1 and parts[0].endswith("?") and len(parts[0].split()) <= LEAD_WORDS:
        parts.pop(0)
    return " ".join(parts)


LEAD_WORDS = 4  # 'Have you heard?', 'Did you know?', 'Guess what?'


def reported(words: str) -> str:
    """The words as reported speech ('there's a bake sale ...'), or '' when they speak of
    'I' or 'you' (then only a quotation keeps whose words they are)."""
    text = _without_lead_question(" ".join(words.split())).rstrip(".!?")
    if not text or _PERSONAL.search(text) or '"' in text or len(text) > 140:
        return ""
    text = _THERE_IS.sub("there's", text)
    first = text.split()[0].lower().split("'")[0]
    return text[:1].lower() + text[1:] if first in STOPWORDS else text


DOING_LINES = (
    "I'm {doing}.",
    "I'm {doing} at the moment.",
    "Just {doing}, as you can see.",
    "I'm in the middle of {doing}.",
    "Oh, just {doing} {here}.",
    "I'm {doing} {here} this {part}.",
    "Me, I'm {doing}.",
    "I've been {doing} for a bit.",
)
IDLE_LINES = (
    "I'm just taking a breather.",
    "I'm between things right now.",
    "I was just wondering what to do with my {part}.",
    "Nothing much {here}, to be honest.",
    "I'm taking it easy this {part}.",
)
IDLE_KEYS = ("thinking about what to do", "decides what to do", "idle")


def doing(status: str, me: Resident, place: str, part: str, *key: object) -> str:
    """What one is doing, in the first person, worded a little differently each time."""
    if not status:
        return ""
    here = f"at {place}" if place else "here"
    what = mine(status.rstrip("."), me)
    if any(k in what for k in IDLE_KEYS):
        return pick(IDLE_LINES, me.name, *key).format(part=part, here=here)
    line = pick(DOING_LINES, me.name, what, *key)
    return line.format(doing=what, Doing=_capital(what), here=here, part=part)
