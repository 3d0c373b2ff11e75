"""Reacting to what one sees, and small talk that passes news on.

A conversation follows each speaker's own agenda, read afresh from the history on every
turn: greet (or introduce oneself), say what one is doing, tell the best news the partner
has not heard from us, a line of small talk, then goodbye. Each line first answers what
the partner just shared: surprise, interest, a doubt, a polite no, or "I already heard".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from game.brains.dialogue.acts import ActKind
from game.brains.dialogue.state import DialogueState
from game.brains.dialogue.understand import is_yes_no
from game.brains.questions import AgentContext
from game.core.records import (
    CONTINUE,
    ActionKind,
    Event,
    Fact,
    FactKind,
    Observation,
    Reaction,
    ReactionKind,
    Rsvp,
    Source,
    Utterance,
)
from game.world.scenario import Resident

from . import answer, hearsay, interview, selfknow
from .activities import classify
from .goals import rsvp_of
from .lexicon import trouble
from .news import (
    MAX_NEWS_PER_TALK,
    News,
    chat_partner,
    is_news,
    is_private,
    known_fact,
    news_for,
    outside_claim,
    subject_of,
    topic_word,
)
from .plans import event_key
from .rsvp import Decision, decide
from .traits import (
    BLUNT_TRAITS,
    WARM_TRAITS,
    declines,
    dislikes,
    has_trait,
    sociability,
    tension,
)
from .util import (
    article,
    chance,
    clip,
    first_name,
    has_any,
    pick,
    shuffled,
    stable_int,
)
from .wording import PROJECT_KEYS, first_person, mine

# -- when to talk: the base chances the lead tunes against a real run ------------------------
# Each is the chance per TALK_ROLL_MINUTES window in which the agent is asked about the
# other (asking again within the window gives the same answer, so a caller that asks every
# step does not inflate the rate).
TALK_ROLL_MINUTES = 30
TALK_KNOWN = 0.05  # someone in the persona's relationships
TALK_MET = 0.035  # someone met before (a past conversation) but not a relation
TALK_STRANGER = 0.008
TALK_VISITOR = 0.6  # a visitor to town: residents are welcoming
TALK_NEWS_BONUS = 0.05  # the speaker has news this person has not heard from it
OWN_NEWS_BONUS = 0.15  # ... its own (a host inviting, a candidate campaigning) seeks people out
TALK_MAX = 0.9
GATHERING_BONUS = 0.25  # at a party or an event, guests mingle
GATHERING_KINDS = frozenset({"party", "event_visit"})
BUSY_FACTOR = 0.4  # at work away from customers (teaching, class, desk work)
SERVICE_FACTOR = 0.7  # serving customers: chatting is part of the job
FOCUS_FACTOR = 0.6  # concentrating on one's own project
HURRY_FACTOR = 0.3  # on the way somewhere
TENSION_FACTOR = 0.3  # people who do not get along
FOCUS_KINDS = frozenset(
    {"studying", "writing", "programming", "law", "painting", "digital_art", "music",
     "photography", "streaming", "performing", "admin"}
)  # fmt: skip
HURRY_KEYS = ("going to", "heading", "on the way", "hurry", "late for", "rushing")

MIN_TURNS, MAX_TURNS = 4, 8
SMALL_TALK_LINES = 1
LINE_LIMIT = 200

WEATHER_LINES = (
    "Lovely {part} for it.",
    "{where} is busy this {part}.",
    "It's a quiet {part} at {where}.",
)
INTEREST_LINES = (
    "I've been thinking a lot about {interest} lately.",
    "Have you got into {interest} at all, {name}?",
    "Do you know much about {interest}, {name}?",
    "I read something about {interest} this week that I keep thinking about.",
    "I've been meaning to spend more of my {part} on {interest}.",
    "Is there anyone around {where} who's into {interest}, do you know?",
    "I could talk about {interest} all day, honestly.",
    "Any chance you're into {interest}, {name}?",
)
FAREWELL_SURE = 0.75  # how near a goodbye's exemplars a line must be to end a chat
BYE_KEYS = ("bye\\b", "goodbye", "see you", "gotta go", "have to go", "take care")
HOW_ARE_YOU_KEYS = ("how are you", "how's it going", "how are things", "what's up", "how do you do")
FAMILY_NAMES = (("father", "Dad"), ("mother", "Mum"), ("wife", "dear"), ("husband", "dear"))


# -- reacting --------------------------------------------------------------------------------
def react(ctx: AgentContext, observation: Observation, seed: int) -> Reaction:
    if not observation.is_agent:
        return _react_object(ctx, observation)
    other = observation.subject
    if other == ctx.persona.name or observation.activity is ActionKind.SLEEP:
        return CONTINUE  # nobody talks to a sleeper, or to someone on the way to bed
    if _roll(ctx, other, seed) < talk_chance(ctx, observation):
        return Reaction(ReactionKind.TALK, target=other)
    return CONTINUE


def _roll(ctx: AgentContext, other: str, seed: int) -> float:
    """One stable roll per pair and time window (see TALK_ROLL_MINUTES)."""
    minute = ctx.now.hour * 60 + ctx.now.minute
    window = f"{ctx.now.date().isoformat()}#{minute // TALK_ROLL_MINUTES}"
    return chance(seed, ctx.persona.name, "talk", other, window)


def _react_object(ctx: AgentContext, observation: Observation) -> Reaction:
    rule = trouble(observation.status or observation.text)
    if rule is None:
        return CONTINUE
    obj = observation.subject.split(":")[-1]
    action = rule.fix(obj)
    if action in ctx.status:
        return CONTINUE  # already dealing with it
    return Reaction(ReactionKind.REACT, action, rule.minutes, observation.subject)


def talk_chance(ctx: AgentContext, observation: Observation) -> float:
    """How likely the persona starts a conversation with the observed agent right now."""
    persona, other = ctx.persona, observation.subject
    p = _base_chance(ctx, observation)
    news = news_for(ctx.memories, persona, other, now=ctx.now)
    if news:
        p += OWN_NEWS_BONUS if news[0].own else TALK_NEWS_BONUS
    if _at_gathering(ctx):
        p += GATHERING_BONUS
    p *= sociability(persona) * _busy_factor(ctx.status, ctx.location, persona)
    if tension(persona, other):
        p *= TENSION_FACTOR
    return max(0.0, min(TALK_MAX, p))


def _at_gathering(ctx: AgentContext) -> bool:
    """At a party or an event: mingling is what one is there for."""
    return classify(ctx.status).key in GATHERING_KINDS


def _base_chance(ctx: AgentContext, observation: Observation) -> float:
    persona, other = ctx.persona, observation.subject
    if persona.relation_to(other) is not None:
        return TALK_KNOWN
    if observation.fact.source is Source.VISITOR:
        return TALK_VISITOR
    if any(chat_partner(m) == other for m in ctx.memories):
        return TALK_MET
    return TALK_STRANGER


def _busy_factor(status: str, location: str, persona: Resident) -> float:
    if has_any(status, HURRY_KEYS):
        return HURRY_FACTOR
    at_home = location.split(":")[0] == persona.home if location else None
    activity = classify(status, at_home)
    if activity.service:
        return SERVICE_FACTOR
    if activity.work:
        return BUSY_FACTOR
    return FOCUS_FACTOR if activity.key in FOCUS_KINDS else 1.0


# -- one line of a conversation --------------------------------------------------------------
@dataclass(frozen=True)
class Turn:
    """What the speaker knows about the conversation at this line."""

    ctx: AgentContext
    partner: str
    history: tuple[Utterance, ...]
    seed: int

    @property
    def me(self) -> Resident:
        return self.ctx.persona

    @property
    def mine(self) -> list[Utterance]:
        return [u for u in self.history if u.speaker == self.me.name]

    @property
    def last(self) -> Utterance | None:
        h = self.history
        return h[-1] if h and h[-1].speaker != self.me.name else None

    @property
    def key(self) -> tuple[object, ...]:
        first = self.history[0].text if self.history else ""
        return (self.seed, self.me.name, self.partner, len(self.history), first)

    @property
    def number(self) -> int:
        return len(self.history) + 1

    def news(self) -> list[News]:
        if sum(1 for u in self.mine if u.shares) >= MAX_NEWS_PER_TALK:
            return []
        return news_for(self.ctx.memories, self.me, self.partner, self.history, self.ctx.now)


def utter(
    ctx: AgentContext,
    partner: str,
    history: Sequence[Utterance],
    seed: int,
    state: DialogueState | None = None,
) -> Utterance:
    line = _utter(ctx, partner, history, seed, state)
    if state is not None and state.has_said(line.text) and not line.end:
        line = replace(line, text=_fresh(Turn(ctx, partner, tuple(history), seed), state))
    last = history[-1] if history and history[-1].speaker != ctx.persona.name else None
    decision = pending_decision(ctx, partner, last, seed)
    if decision is None:
        return line
    return replace(line, rsvp=decision.answer, reason=decision.reason)


def pending_decision(
    ctx: AgentContext, partner: str, last: Utterance | None, seed: int
) -> Decision | None:
    """The answer owed to an event the partner just told of, unless one was given."""
    if last is None or last.shared is None or last.shared.event is None:
        return None
    event = last.shared.event
    if rsvp_of(ctx.memories, event) is not None or is_visitor(ctx, partner):
        return None
    return decide(ctx, event, partner, seed)


def _utter(
    ctx: AgentContext,
    partner: str,
    history: Sequence[Utterance],
    seed: int,
    state: DialogueState | None = None,
) -> Utterance:
    turn = Turn(ctx, partner, tuple(history), seed)
    if is_visitor(ctx, partner):
        return _to_visitor(turn, state)
    last = turn.last
    reply = _reply(ctx, partner, last, seed, turn.key) if last else ""
    asked = state.open_question(ctx.persona.name) if state is not None else None
    later = asked is not None and asked.act.label == "feelings" and bool(turn.mine)
    social = asked is not None and (
        (asked.act.label in SOCIAL_LABELS and not later)  # 'how did it go?' later is asked
        or (not turn.mine and _is_greeting(last.text))  # the first reply to a hello greets
    )
    if asked is not None and not last.shares and not social:
        said = answer.answer(ctx, asked.act, state, seed).text  # answered before moving on
        if last.end:
            return _line(turn, said, _goodbye(ctx, partner, turn.key), end=True)
        news = turn.news()
        share = _share(ctx, partner, news[0], turn.key) if news else ""
        if share and len(joined(said, share)) <= LINE_LIMIT:  # the answer, then one's news
            return _line(turn, said, share, news[0])
        return Utterance(ctx.persona.name, clip(said, LINE_LIMIT))
    if last is not None and last.end:
        return _line(turn, reply, _goodbye(ctx, partner, turn.key), end=True)
    if not turn.mine:
        return _line(turn, "", _opening(ctx, partner, reply, last is None, turn.key))
    news = turn.news()
    limit = turn_limit(ctx, partner, turn.history, seed)
    done = not news and _small_talk_done(turn.mine) and turn.number >= MIN_TURNS
    if turn.number >= limit or done:
        return _closing(turn, reply, news)
    if news:
        return _line(turn, reply, _share(ctx, partner, news[0], turn.key), news[0])
    return _line(turn, reply, _small_talk(turn))


def is_visitor(ctx: AgentContext, partner: str) -> bool:
    """The player's visitor: so named, or seen or heard as one (by the memory's source)."""
    if "visitor" in partner.lower():
        return True
    return any(
        m.fact.source is Source.VISITOR and partner in (m.fact.subject, m.fact.heard_from)
        for m in ctx.memories
    )


def _to_visitor(turn: Turn, state: DialogueState | None = None) -> Utterance:
    """The player leads a visitor's chat: what the visitor said was understood as an act;
    questions get answers (from memory only), news is taken in, small talk gets small talk,
    and the resident says goodbye only when the visitor does."""
    ctx, partner, last = turn.ctx, turn.partner, turn.last
    hello = "" if turn.mine else greeting(ctx, partner, turn.key)
    if last is None:
        return _line(turn, "", _opening(ctx, partner, "", True, turn.key))
    heard = state.last.act if state is not None and state.last is not None else None
    leaving = (
        heard is not None
        and heard.kind is ActKind.FAREWELL
        and (heard.confidence >= FAREWELL_SURE or has_any(last.text, BYE_KEYS))
    )  # a chat ends on a goodbye that is clearly one
    if last.end or leaving or (heard is None and has_any(last.text, BYE_KEYS)):
        return _line(turn, hello, _goodbye(ctx, partner, turn.key), end=True)
    if heard is not None and heard.label not in ("greeting", "feelings", "ack"):
        return _line(turn, hello, answer.answer(ctx, heard, state, turn.seed).text)
    if heard is None and "?" in last.text and not has_any(last.text, HOW_ARE_YOU_KEYS):
        return _line(turn, hello, interview.answer(ctx, last.text, turn.seed))
    if has_any(last.text, HOW_ARE_YOU_KEYS):
        reply = pick(("Doing well, thanks!", "Not bad at all.", "Can't complain."), *turn.key)
        return _line(turn, hello, f"{reply} {_doing(ctx, partner, turn.key)}".strip())
    news = turn.news()
    if news:
        return _line(turn, hello, _share(ctx, partner, news[0], turn.key), news[0])
    return _line(turn, hello, _small_talk(turn))


def _closing(turn: Turn, reply: str, news: list[News]) -> Utterance:
    """The last line: news not yet told goes out with the goodbye."""
    goodbye = _goodbye(turn.ctx, turn.partner, turn.key)
    if news and not any(u.shares for u in turn.mine):
        share = without_questions(_share(turn.ctx, turn.partner, news[0], turn.key))
        return _line(turn, reply, f"{share} {goodbye}", news[0], end=True)
    return _line(turn, reply, goodbye, end=True)


def without_questions(text: str) -> str:
    """A last line asks nothing: nobody would be left to answer. Trailing questions go;
    words quoted inside the news stay as they were said."""
    parts = re.split(r"(?<=[.!?])\s+|(?<=[.!?][\"\u201d])\s+", text.strip())
    while len(parts) > 1 and parts[-1].endswith("?"):
        parts.pop()
    if parts[-1].endswith("?"):
        said, _, asked = parts[-1].rpartition("; ")  # 'X is hosting ...; are you going?'
        parts[-1] = (said if said else asked.rstrip("?")) + "."
    return " ".join(parts)


def _line(
    turn: Turn, reply: str, content: str, news: News | None = None, end: bool = False
) -> Utterance:
    """Join the reply and the content, dropping the reply if the line would run long.
    News told in the line goes with it as words and as the fact it came from, so the
    listener's memory keeps its intent and event."""
    text = joined(reply, content)
    if turn.number > 2 and not end:
        text = coloured(text, turn.me.name, turn.partner, turn.number, turn.ctx.now.date())
    if len(text) > LINE_LIMIT:
        text = content
    if news is None:
        return Utterance(turn.me.name, clip(text, LINE_LIMIT), end)
    # the host's own news is an invitation; news passed on by anyone else never is
    fact = replace(news.fact, invited=news.own and news.fact.event is not None)
    return Utterance(turn.me.name, clip(text, LINE_LIMIT), end, news.text, fact)


_SOFT = (
    "have did do is are apparently guess so word there's someone according oh yes just well "
    "any the what it's lovely good nice hello hi hey right anyway take catch enjoy weren't "
    "how there tell will can"
)
SOFT_STARTS = frozenset(_SOFT.split())


MARKERS = ("Well, ", "Oh, ", "So, ", "You know, ", "Honestly, ", "Mind you, ", "Say, ", "Now, ")
MARKED = 0.45  # the share of lines that open with a spoken marker


def coloured(text: str, *key: object) -> str:
    """Now and then a line opens as speech does ('Well, ...', 'You know, ...'), by a
    stable hash of the speaker, the listener and the turn."""
    first = text.split()[0].strip(",?.!") if text.split() else ""
    if chance(*key, "marker") >= MARKED or first.lower() in ("well", "oh", "so", "ha", "right"):
        return text
    if first.lower() in ("yes", "no", "not", "maybe", "sure"):
        return text  # an answer's yes or no comes first
    if first.lower() not in SOFT_STARTS and first != "I" and not first.startswith("I'"):
        return text  # a name, or a word a marker would read oddly before
    return pick(MARKERS, *key) + lower_first(text)


def joined(reply: str, content: str) -> str:
    """A short reply runs on into what follows ('Not bad, thanks; have you heard ...'), as
    people say it, instead of standing as a stock sentence of its own."""
    reply, content = reply.strip(), content.strip()
    if not reply or not content:
        return reply or content
    first = content.split()[0].strip(",?.!").lower()
    if len(reply.split()) <= 5 and reply.endswith(".") and first in SOFT_STARTS:
        return f"{reply[:-1]}; {lower_first(content)}"
    return f"{reply} {content}"


def turn_limit(ctx: AgentContext, partner: str, history: tuple[Utterance, ...], seed: int) -> int:
    """4-8 lines per conversation, the same for both sides; shorter when busy or cool."""
    pair = sorted((ctx.persona.name, partner))
    limit = MIN_TURNS + stable_int(seed, *pair, history[0].text if history else "") % 5
    if tension(ctx.persona, partner):
        return MIN_TURNS
    if _busy_factor(ctx.status, ctx.location, ctx.persona) < 1:
        limit -= 2
    return max(MIN_TURNS, min(MAX_TURNS, limit))


def _small_talk_done(mine: list[Utterance]) -> bool:
    return sum(1 for u in mine[1:] if not u.shares) >= SMALL_TALK_LINES


# -- greeting --------------------------------------------------------------------------------
def _opening(ctx: AgentContext, partner: str, reply: str, opener: bool, key: tuple) -> str:
    """Greeting, then (for the one answering) how one is, then what one is doing: one
    sentence each, each carrying something of this moment (a place, an activity)."""
    hello = greeting(ctx, partner, key, asking=opener)
    doing = _doing(ctx, partner, key)
    if tension(ctx.persona, partner):
        return f"{hello} {doing}".strip()
    if opener and hello.endswith("?"):
        return hello  # the question is the line's last word, for the partner to answer
    if not opener and _strangers(ctx, partner):
        who = f"I'm {first_name(ctx.persona.name)}, {article(ctx.persona.occupation)}"
        nice = pick(MEET_LINES, *key).format(name=first_name(partner))
        hello = f"{nice}; {who}."
    if reply and doing:
        return f"{hello} {reply.rstrip('.!')}; {lower_first(doing)}"
    return " ".join(p for p in (hello, reply, doing) if p)


def greeting(ctx: AgentContext, partner: str, key: tuple, asking: bool = True) -> str:
    """Hello, by name and relationship, with a clause about the partner or the place; the
    one answering a greeting does not ask the same thing back (`asking` False)."""
    me, name = ctx.persona, first_name(partner)
    relation = me.relation_to(partner)
    if tension(me, partner):
        return f"{name}." if has_trait(me, BLUNT_TRAITS) else f"Oh. Hello, {name}."
    if is_visitor(ctx, partner) and not _met(ctx, partner):
        return _introduce(ctx, partner, key)
    if relation is not None:
        family = next((t for w, t in FAMILY_NAMES if re.search(rf"\b{w}\b", relation)), None)
        hi = pick(("Hi", "Hey", _time_hello(ctx), "Oh, hello"), *key)
        return f"{hi}, {family or name}, {_about_them(ctx, partner, key, asking)}"
    if _met(ctx, partner):
        hi = pick(("Hi again", "Hello again", _time_hello(ctx)), *key)
        return f"{hi}, {name}, {_about_them(ctx, partner, key, asking)}"
    if _seen(ctx, partner):
        hi = pick(("Hi", "Hello", _time_hello(ctx)), *key)
        return f"{hi}, {name}, {_about_them(ctx, partner, key, asking)}"
    return _introduce(ctx, partner, key)


def _strangers(ctx: AgentContext, partner: str) -> bool:
    known = ctx.persona.relation_to(partner) is not None or _met(ctx, partner)
    return not known and not is_visitor(ctx, partner)


def _met(ctx: AgentContext, partner: str) -> bool:
    return any(chat_partner(m) == partner or m.fact.heard_from == partner for m in ctx.memories)


def _seen(ctx: AgentContext, partner: str) -> bool:
    return _seen_doing(ctx, partner) != ""


def _about_them(ctx: AgentContext, partner: str, key: tuple, asking: bool = True) -> str:
    """A clause about the partner or the place: what they were doing, where we are."""
    doing = _seen_doing(ctx, partner)
    where = _public_place(ctx)
    part = _part_of_day(ctx)
    options = []
    if doing and asking:
        options += [f"busy {doing}?", f"still {doing}?", f"how's {doing} going?"]
    if where:
        options += [f"nice to see you at {where} this {part}!", f"fancy meeting you at {where}!"]
    options += (
        [f"how's your {part} been?"]
        if asking
        else [
            "what a nice surprise!",
            f"lovely to run into you this {part}!",
            "always a pleasure!",
            "I was hoping I'd see you!",
            f"nice to bump into you this {part}!",
        ]
    )  # the one answering a hello greets back in words of its own, asking nothing
    options += [f"good to see you this {part}!"]
    return pick(options, *key, "about")


def _public_place(ctx: AgentContext) -> str:
    """Where we are, if it is somewhere one meets people (not a home)."""
    where = ctx.location.split(":")[0] if ctx.location else ""
    if not where or where == ctx.persona.home or "'s " in where or "house" in where.lower():
        return ""
    return where


def _part_of_day(ctx: AgentContext) -> str:
    hour = ctx.now.hour
    return "morning" if hour < 12 else "afternoon" if hour < 17 else "evening"


def _time_hello(ctx: AgentContext) -> str:
    return f"Good {_part_of_day(ctx)}"


def _introduce(ctx: AgentContext, partner: str, key: tuple) -> str:
    me = ctx.persona
    who = f"I'm {first_name(me.name)}, {article(me.occupation)}"
    if is_visitor(ctx, partner):
        return pick(VISITOR_HELLOS, *key).format(who=who, home=me.home)
    where = ctx.location.split(":")[0] if ctx.location else "town"
    return pick(STRANGER_HELLOS, *key).format(who=who, where=where, name=first_name(partner))


VISITOR_HELLOS = (
    "Hello, welcome to Smallville! {who}.",
    "Welcome to Smallville! {who}.",
    "Hi, welcome to Smallville! {who}.",
)
STRANGER_HELLOS = (
    "Hi, I don't think we've met; {who}.",
    "Hello, I've seen you around {where}, I think; {who}.",
    "I don't think we've really talked before, {name}; {who}.",
    "I don't believe we've been introduced, {name}; {who}.",
    "Hi there, I keep seeing you at {where}; {who}.",
)


MEET_LINES = ("Nice to meet you, {name}", "Pleased to meet you, {name}", "Good to meet you, {name}",
              "Oh, hello {name}, we've never properly met", "Lovely to meet you at last, {name}",
              "Hi {name}, good to finally meet you")  # fmt: skip


def _doing(ctx: AgentContext, partner: str, key: tuple) -> str:
    """What one is doing, in one's own varied words (hearsay.doing)."""
    place, part = _public_place(ctx), _part_of_day(ctx)
    return hearsay.doing(ctx.status, ctx.persona, place, part, partner, ctx.now.date(), *key[:1])


# -- news ------------------------------------------------------------------------------------
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


def lower_first(text: str) -> str:
    """A sentence's first letter made small to run on after a comma; 'I' stays 'I'."""
    first = text.split()[0] if text.split() else ""
    if first == "I" or first.startswith(("I'", "I’")):
        return text
    return text[:1].lower() + text[1:]


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


def sentence_of(text: str) -> str:
    return f"{text[:1].upper()}{text[1:]}."


def _political(text: str) -> bool:
    """Words of an election (asks for a vote): a fallback for the wording only, since
    which news is a cause to pitch is read from its fields (`_share`)."""
    return has_any(text, ("mayor", "election", "campaign", "vote"))


# -- answering what the partner said ---------------------------------------------------------
def _reply(ctx: AgentContext, partner: str, last: Utterance, seed: int, key: tuple) -> str:
    if last.shares:
        return _react_to_news(ctx, partner, last, seed, key)
    if last.end:
        return ""
    if _is_greeting(last.text) and "?" in last.text:
        where = _public_place(ctx)
        part = _part_of_day(ctx)
        options = [
            "Not bad, thanks",
            "Doing well, thanks",
            "Can't complain",
            f"My {part} has been good, thanks",
            f"A good {part} so far, thanks",
        ]
        if where:
            options.append(f"Good, thanks; {where} is treating me well")
        return pick(options, *key) + "."
    return ""


def _is_greeting(text: str) -> bool:
    return has_any(
        text,
        ("hi\\b", "hey\\b", "hello", "good morning", "good afternoon", "good evening", "oh, hi"),
    )


def _react_to_news(ctx: AgentContext, partner: str, told: Utterance, seed: int, key: tuple) -> str:
    """Surprise, interest, a doubt or a polite no, read from the news's fields (whom it is
    about, the event it names) when the speaker gave them, else from its words."""
    me, fact, shared = ctx.persona, told.shares, told.shared
    decision = pending_decision(ctx, partner, told, seed)
    known = known_fact(fact, shared, ctx.memories)
    if known is not None:
        source = known.heard_from if known.heard_from and known.heard_from != partner else ""
        about = _what(shared) if shared is not None else "that"
        if source and shared is not None and subject_of(shared) == source:
            about = about.replace(f"{first_name(source)}'s ", "the ")  # not 'Sam ... Sam's'
        if source:
            said = pick(HEARD_FROM, *key).format(
                about=about, name=first_name(source), part=_part_of_day(ctx)
            )
        else:
            said = pick(HEARD, *key).format(about=about, part=_part_of_day(ctx))
        said = _yes_first(told.text, said, "Yes")
        if decision is not None:
            return hearsay.tailed(said, decision.line)
        return hearsay.tailed(said, _own_answer(ctx, shared)) if shared is not None else said
    if decision is not None:
        return _yes_first(told.text, decision.line, _yes_word(decision.answer))
    subject = subject_of(shared) if shared is not None else ""
    if subject and subject == partner and (_political(fact) or told.shared.intent):
        return _react_pitch(me, partner, _political(fact), key)  # asked for one's support
    if _political(fact):
        return _yes_first(told.text, _react_politics(me, subject, key), "No")
    event = shared.event if shared is not None else None
    if event is not None or has_any(fact, ("party", "celebrat", "exhibition", "show\\b")):
        if declines(me, event_key(event) if event else fact, seed):
            return _decline(me, key)
        what = (event.what if event is not None else "") or topic_word(fact) or "event"
        said = pick(
            (
                f"Oh, the {what}! I'll see you there then.",
                f"I'm looking forward to the {what}.",
                f"Yes, I'll be at the {what}.",
            ),
            *key,
        )
        return _yes_first(told.text, said, "Yes")
    said = pick(
        ("Oh really, I hadn't heard that.", "Interesting, thanks for telling me.",
         "Huh, news to me.", "Huh, I had no idea.", "Well, that's news to me."),
        *key,
    )  # fmt: skip
    return _yes_first(told.text, said, "No")


HEARD_FROM = (
    "I already heard about {about} from {name}.",
    "{name} already told me about {about}, yes.",
    "Oh, {name} already mentioned {about} to me.",
    "Yes, {name} filled me in on {about} this {part}.",
    "I know, {name} beat you to it.",
    "Ha, {name} told me about {about} already.",
    "I heard about {about} from {name}, actually.",
)
HEARD = ("Yes, I'd heard about {about}.", "I know about {about}, yes.",
         "Oh, {about}, yes, I know.", "I'd already heard about {about} this {part}.",
         "Yes, everyone's talking about {about}.", "Right, {about}; I'd heard.")  # fmt: skip


def _yes_first(asked: str, said: str, word: str) -> str:
    """A yes/no question ('had you heard?', 'are you going?') is answered yes or no
    first; a 'yes' said later in the line moves to its front."""
    if not is_yes_no(asked) or said.startswith(("No", "Yes", "Not", "Maybe", "Sure")):
        return said
    if word == "Yes":
        said = re.sub(r",? yes\b,?|\byes, ", "", said, count=1, flags=re.I).strip()
    for filler in ("Oh, ", "Ha, ", "Well, "):
        said = said.removeprefix(filler)
    first = said.split(" ", 1)[0]
    opener = (
        first in ("I", "I'd", "I'm", "I've")
        or first[:1].isupper()
        and first.istitle()
        and first.lower() not in SOFT_STARTS
    )
    return f"{word}, {said if opener else lower_first(said)}"


def _what(fact: Fact) -> str:
    if fact.event is not None:
        host = f"{first_name(fact.event.host)}'s " if fact.event.host else "the "
        return f"{host}{fact.event.what or 'event'}"
    if fact.subject and _political(fact.object):
        return f"{first_name(fact.subject)}'s campaign"
    return "that"


def _react_politics(me: Resident, subject: str, key: tuple) -> str:
    name = first_name(subject) if subject else "them"
    if subject and dislikes(me, subject):
        return f"{name} in office; I'll believe it when I see it."
    if any("politic" in i for i in me.interests):
        return f"I'd like to hear what {name} stands for before I decide."
    if has_trait(me, BLUNT_TRAITS):
        return f"Politics, huh. Well, good luck to {name}."
    return pick(
        (f"Huh, I didn't know that; good for {name}.", f"{name} is running; good for {name}.",
         f"Well, {name} has my attention.", f"I'll have to ask {name} about it.",
         f"{name} running; we'll see."),
        me.name, subject, *key,
    )  # fmt: skip


def _decline(me: Resident, key: tuple) -> str:
    if has_trait(me, BLUNT_TRAITS):
        return "No, parties aren't really my thing."
    return pick(
        ("No, I don't think I can make it, sorry.", "Not this time; I'm busy that day."), *key
    )


def _own_answer(ctx: AgentContext, shared: Fact) -> str:
    """Told of an event one has already answered: whether one goes, said again."""
    event = shared.event
    if event is None or event.end <= ctx.now or event.host == ctx.persona.name:
        return ""
    answer = rsvp_of(ctx.memories, event)
    if answer is None:
        return ""
    return "I'm going too." if answer is not Rsvp.DECLINED else "I can't make it, though."


def _yes_word(answer: Rsvp) -> str:
    return "No" if answer is Rsvp.DECLINED else "Yes"


def _react_pitch(me: Resident, partner: str, political: bool, key: tuple) -> str:
    """A candidate asks for one's vote, to one's face: an answer to them, not about them."""
    name = first_name(partner)
    if dislikes(me, partner):
        if political:
            return f"No, {name}. You in office: I'll believe it when I see it."
        return f"No, {name}; I have my doubts about it."
    if any("politic" in i for i in me.interests):
        return f"Maybe; I'd like to hear more about what you stand for first, {name}."
    options = (f"Sure, I'll think about it, {name}. Good luck!",
               f"Maybe; tell me more about your plans first, {name}.",
               "Yes, you've got my attention; good luck with it.")  # fmt: skip
    return pick(options, me.name, partner, *key)


# -- small talk and goodbye ------------------------------------------------------------------
def _small_talk(turn: Turn) -> str:
    """A persona-coloured line: one's own project, what one saw the partner doing, or one's
    interests; never a line shaped like one already said in this conversation."""
    ctx, key = turn.ctx, turn.key
    candidates = (
        _follow_up(ctx, turn.partner, key),
        _project_line(ctx, key),
        _seen_line(ctx, turn.partner),
        *_interest_lines(ctx, turn.partner, key),
    )
    said = " ".join(u.text for u in turn.history)
    lines = [line for line in candidates if line and _opening_words(line) not in said]
    if not lines:
        where = ctx.location.split(":")[0] if ctx.location else "town"
        return pick(WEATHER_LINES, *key).format(part=_part_of_day(ctx), where=where)
    return lines[len(turn.mine) % len(lines)]


def _fresh(turn: Turn, state: DialogueState) -> str:
    """A line this conversation has not had yet (it never repeats one of its own)."""
    ctx, key = turn.ctx, turn.key
    candidates = (
        _follow_up(ctx, turn.partner, key),
        _project_line(ctx, key),
        _seen_line(ctx, turn.partner),
        *_interest_lines(ctx, turn.partner, key),
    )
    for line in candidates:
        if line and not state.has_said(line):
            return line
    where = ctx.location.split(":")[0] if ctx.location else "town"
    for line in shuffled(WEATHER_LINES, *key):
        text = line.format(part=_part_of_day(ctx), where=where)
        if not state.has_said(text):
            return text
    return "Anyway, it's good to talk."


SOCIAL_LABELS = frozenset({"greeting", "farewell", "thanks", "ack", "feelings"})


def _opening_words(line: str) -> str:
    return " ".join(line.split()[:4])


def _interest_lines(ctx: AgentContext, partner: str, key: tuple) -> list[str]:
    if not ctx.persona.interests:
        return []
    interest = pick(ctx.persona.interests, *key, "interest")
    lines = INTEREST_LINES[:1] if has_trait(ctx.persona, BLUNT_TRAITS) else INTEREST_LINES
    where = _public_place(ctx) or "here"
    fill = {"interest": interest, "name": first_name(partner), "part": _part_of_day(ctx),
            "where": where}  # fmt: skip
    return [line.format(**fill) for line in shuffled(lines, *key)][:3]


def _project_line(ctx: AgentContext, key: tuple) -> str:
    me = ctx.persona
    clauses = [
        c.rstrip(".")
        for c in me.seed_memories()
        if has_any(c, PROJECT_KEYS)
        and not is_private(c)
        and not is_news(c)
        and not selfknow.stale(c, ctx.now)
    ]
    if not clauses:
        return ""
    lead = pick(("These days", "At the moment", "As for me,"), *key)
    return f"{lead} {first_person(pick(clauses, *key, 'project'), me)}."


def _seen_line(ctx: AgentContext, partner: str) -> str:
    """'I saw you studying earlier' from an observation of the partner."""
    doing = _seen_doing(ctx, partner)
    if not doing:
        return ""
    lines = (
        "I saw you {doing} earlier; how did it go?",
        "Weren't you {doing} earlier, {name}?",
        "How did {doing} go, {name}?",
        "I spotted you {doing} before; everything all right?",
    )
    return pick(lines, ctx.persona.name, partner, doing).format(
        doing=doing, name=first_name(partner)
    )


NOT_WORTH_MENTION = ("starting a conversation", "talking with", "waiting", "sleeping", "idle",
                     "walking to", "going to bed", "heading")  # fmt: skip


def _seen_doing(ctx: AgentContext, partner: str) -> str:
    """What the persona last saw the partner doing, if it is worth mentioning."""
    for m in sorted(ctx.memories, key=lambda m: m.created, reverse=True):
        fact = m.fact
        if fact.kind is FactKind.DOING and fact.source is Source.SEEN and fact.subject == partner:
            doing = fact.object.rstrip(".")
            if doing and not has_any(doing, NOT_WORTH_MENTION) and ctx.persona.name not in doing:
                return mine(doing, ctx.persona).replace(" my ", " your ")
    return ""


def _follow_up(ctx: AgentContext, partner: str, key: tuple) -> str:
    """The paper's 'How is your project going?': from what the partner told us of itself."""
    for m in ctx.memories:
        f = m.fact
        if f.kind is FactKind.CLAIM and f.heard_from == partner and f.subject == partner:
            said = second_person(sentence_text(f.object), partner)
            if said:
                return pick(FOLLOW_UPS, *key, "follow").format(said=said)
    return ""


FOLLOW_UPS = (
    "Last time you told me {said}; how is that going?",
    "How are things going? You said {said}.",
    "So, you said {said}; any news on that?",
)


def sentence_text(text: str) -> str:
    return text.strip().rstrip(".")


def second_person(text: str, partner: str) -> str:
    """'Jennifer Moore is preparing her exhibition' -> 'you were preparing your exhibition'."""
    for name in (partner, first_name(partner)):
        if text.startswith(name + " is "):
            rest = text[len(name) + 4 :]
            rest = re.sub(r"\b(?:his|her|their)\b", "your", rest)
            return f"you were {rest}"
    return ""


def _goodbye(ctx: AgentContext, partner: str, key: tuple) -> str:
    me, name = ctx.persona, first_name(partner)
    if tension(me, partner) or has_trait(me, ("gruff",)):
        return pick(
            ("Right, I've got things to do.", "Well, I'll be off then.",
             f"I'd best get on, {name}.", f"Right then, {name}, I'm off."),
            *key,
        )  # fmt: skip
    part = _part_of_day(ctx)
    status = mine(ctx.status, me) if ctx.status else ""
    where = _public_place(ctx)
    if has_trait(me, WARM_TRAITS):
        options = [
            f"It was lovely talking to you, {name}; enjoy the rest of your {part}!",
            f"Take care, {name}, and say hello to everyone for me.",
            f"So good to catch up, {name}; don't be a stranger!",
            f"Lovely to see you this {part}, {name}; take care of yourself.",
        ]
    else:
        options = [f"Well, see you around, {name}.", f"Have a good {part}, {name}.",
                   f"Catch you later, {name}.", f"Good talking to you, {name}; see you soon.",
                   f"Enjoy your {part}, {name}."]  # fmt: skip
    if where:
        options += [
            f"See you around {where}, {name}.",
            f"I'm sure I'll see you at {where} again, {name}.",
        ]
    if status:
        options += [
            f"Anyway, I should get back to {status}; see you, {name}.",
            f"I'll let you go, {name}; {status} won't finish itself.",
        ]
    theirs = _seen_doing(ctx, partner)
    if theirs:
        options += [
            f"I won't keep you from {theirs} any longer, {name}.",
            f"Good luck with {theirs}, {name}; see you.",
        ]
    when = "tomorrow" if part == "evening" else "later"
    options += [f"Have a good {ctx.now:%A} {part}, {name}.", f"See you {when}, I hope, {name}."]
    return pick(options, *key, "bye")
