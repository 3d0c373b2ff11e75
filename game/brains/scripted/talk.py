"""Reacting to what one sees, and small talk that passes news on.

A conversation follows each speaker's own agenda, read afresh from the history on every
turn: greet (or introduce oneself), say what one is doing, tell the best news the partner
has not heard from us, a line of small talk, then goodbye. Each line first answers what
the partner just shared: surprise, interest, a doubt, a polite no, or "I already heard".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from game.brains.questions import AgentContext
from game.core.records import (
    CONTINUE,
    FactKind,
    Observation,
    Reaction,
    ReactionKind,
    Source,
    Utterance,
)
from game.world.scenario import Resident

from . import interview
from .activities import classify
from .lexicon import trouble
from .news import (
    MAX_NEWS_PER_TALK,
    News,
    chat_partner,
    is_news,
    is_private,
    known_fact,
    news_for,
    subject_of,
)
from .plans import event_key
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
TALK_MAX = 0.9
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
    "Lovely weather today, isn't it?",
    "It's been a busy week.",
    "Quiet day, isn't it?",
)
INTEREST_LINES = (
    "I've been thinking a lot about {interest} lately.",
    "Have you got into {interest} at all? I can't get enough of it.",
)
BYE_KEYS = ("bye\\b", "goodbye", "see you", "gotta go", "have to go", "take care")
HOW_ARE_YOU_KEYS = ("how are you", "how's it going", "how are things", "what's up", "how do you do")
FAMILY_NAMES = (("father", "Dad"), ("mother", "Mum"), ("wife", "dear"), ("husband", "dear"))


# -- reacting --------------------------------------------------------------------------------
def react(ctx: AgentContext, observation: Observation, seed: int) -> Reaction:
    if not observation.is_agent:
        return _react_object(ctx, observation)
    other = observation.subject
    if other == ctx.persona.name:
        return CONTINUE
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
    if news_for(ctx.memories, persona, other):
        p += TALK_NEWS_BONUS
    p *= sociability(persona) * _busy_factor(ctx.status, ctx.location, persona)
    if tension(persona, other):
        p *= TENSION_FACTOR
    return max(0.0, min(TALK_MAX, p))


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
        return news_for(self.ctx.memories, self.me, self.partner, self.history)


def utter(ctx: AgentContext, partner: str, history: Sequence[Utterance], seed: int) -> Utterance:
    turn = Turn(ctx, partner, tuple(history), seed)
    if is_visitor(ctx, partner):
        return _to_visitor(turn)
    last = turn.last
    reply = _reply(ctx, partner, last, seed, turn.key) if last else ""
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


def _to_visitor(turn: Turn) -> Utterance:
    """The player leads a visitor's chat: questions get answers (from memory only), small
    talk gets small talk, and the resident says goodbye only when the visitor does."""
    ctx, partner, last = turn.ctx, turn.partner, turn.last
    hello = "" if turn.mine else greeting(ctx, partner, turn.key)
    if last is None:
        return _line(turn, "", _opening(ctx, partner, "", True, turn.key))
    if last.end or has_any(last.text, BYE_KEYS):
        return _line(turn, hello, _goodbye(ctx, partner, turn.key), end=True)
    if "?" in last.text and not has_any(last.text, HOW_ARE_YOU_KEYS):
        return _line(turn, hello, interview.answer(ctx, last.text, turn.seed))
    if has_any(last.text, HOW_ARE_YOU_KEYS):
        reply = pick(("Doing well, thanks!", "Not bad at all.", "Can't complain."), *turn.key)
        return _line(turn, hello, f"{reply} {_doing(ctx.status, ctx.persona)}".strip())
    news = turn.news()
    if news:
        return _line(turn, hello, _share(ctx, partner, news[0], turn.key), news[0])
    return _line(turn, hello, _small_talk(turn))


def _closing(turn: Turn, reply: str, news: list[News]) -> Utterance:
    """The last line: news not yet told goes out with the goodbye."""
    goodbye = _goodbye(turn.ctx, turn.partner, turn.key)
    if news and not any(u.shares for u in turn.mine):
        share = _share(turn.ctx, turn.partner, news[0], turn.key)
        return _line(turn, reply, f"{share} {goodbye}", news[0], end=True)
    return _line(turn, reply, goodbye, end=True)


def _line(
    turn: Turn, reply: str, content: str, news: News | None = None, end: bool = False
) -> Utterance:
    """Join the reply and the content, dropping the reply if the line would run long.
    News told in the line goes with it as words and as the fact it came from, so the
    listener's memory keeps its intent and event."""
    text = f"{reply} {content}".strip()
    if len(text) > LINE_LIMIT:
        text = content
    if news is None:
        return Utterance(turn.me.name, clip(text, LINE_LIMIT), end)
    return Utterance(turn.me.name, clip(text, LINE_LIMIT), end, news.text, news.fact)


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
    """Greeting, then (for the one answering) how one is, then what one is doing."""
    hello = greeting(ctx, partner, key)
    doing = _doing(ctx.status, ctx.persona)
    if tension(ctx.persona, partner):
        return f"{hello} {doing}".strip()
    ask = pick(("How are you?", "What are you up to?", "How's your day going?"), *key)
    return " ".join(p for p in (hello, reply, doing, ask if opener else "") if p)


def greeting(ctx: AgentContext, partner: str, key: tuple) -> str:
    me, name = ctx.persona, first_name(partner)
    relation = me.relation_to(partner)
    if tension(me, partner):
        return f"{name}." if has_trait(me, BLUNT_TRAITS) else f"Oh. Hello, {name}."
    if relation is not None:
        family = next((t for w, t in FAMILY_NAMES if re.search(rf"\b{w}\b", relation)), None)
        hi = pick(("Hi", "Hey", _time_hello(ctx)), *key)
        return f"{hi}, {family or name}!"
    if any(chat_partner(m) == partner for m in ctx.memories):
        return f"Oh, hi again, {name}!"
    return _introduce(ctx, partner)


def _time_hello(ctx: AgentContext) -> str:
    hour = ctx.now.hour
    return "Good morning" if hour < 12 else "Good afternoon" if hour < 17 else "Good evening"


def _introduce(ctx: AgentContext, partner: str) -> str:
    who = f"I'm {first_name(ctx.persona.name)}, {article(ctx.persona.occupation)}."
    if is_visitor(ctx, partner):
        return f"Hello, welcome to Smallville! {who}"
    return f"Hi there, I don't think we've met. {who}"


def _doing(status: str, me: Resident) -> str:
    return f"I'm {mine(status, me)}." if status else ""


# -- news ------------------------------------------------------------------------------------
INVITES = {
    "party": "You should come!",
    "celebrat": "You should come!",
    "election": "I'd be glad of your vote.",
    "mayor": "I'd be glad of your vote.",
    "exhibition": "I hope you can come and see it.",
    "show\\b": "I hope you can come and see it.",
}
HEARSAY = ("Have you heard? {fact}.", "Did you know? {fact}.", "Here's some news: {fact}.")


def _share(ctx: AgentContext, partner: str, news: News, key: tuple) -> str:
    me = ctx.persona
    if news.own:
        invite = next((v for k, v in INVITES.items() if has_any(news.text, (k,))), "")
        return f"{first_person(news.text, me)}. {invite}".strip()
    template = pick(HEARSAY, *key, news.text)
    if news.source and news.source != partner and news.source != news.subject:
        template = f"{first_name(news.source)} told me: {{fact}}."
    line = template.format(fact=news.text)
    if news.subject and dislikes(me, news.subject):
        line += " Don't count on my vote." if _political(news.text) else " Not that I care."
    return line


def _political(text: str) -> bool:
    return has_any(text, ("mayor", "election", "campaign", "vote"))


# -- answering what the partner said ---------------------------------------------------------
def _reply(ctx: AgentContext, partner: str, last: Utterance, seed: int, key: tuple) -> str:
    if last.shares:
        return _react_to_news(ctx, partner, last, seed, key)
    if last.end:
        return ""
    if _is_greeting(last.text) and "?" in last.text:
        return pick(("Not bad, thanks.", "Doing well, thanks!", "Can't complain."), *key)
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
    known = known_fact(fact, shared, ctx.memories)
    if known is not None:
        source = known.heard_from if known.heard_from and known.heard_from != partner else ""
        if source:
            return f"I already heard that from {first_name(source)}."
        return "Yes, I'd heard about that."
    subject = subject_of(shared) if shared is not None else ""
    if _political(fact):
        return _react_politics(me, subject, key)
    event = shared.event if shared is not None else None
    if event is not None or has_any(fact, ("party", "celebrat", "exhibition", "show\\b")):
        if declines(me, event_key(event) if event else fact, seed):
            return _decline(me, key)
        return pick(
            (
                "Oh, that sounds lovely! I'll try to come.",
                "Really? Count me in!",
                "How fun! I'll be there if I can.",
            ),
            *key,
        )
    return pick(("Oh really? I hadn't heard that.", "Interesting, thanks for telling me."), *key)


def _react_politics(me: Resident, subject: str, key: tuple) -> str:
    name = first_name(subject) if subject else "them"
    if subject and dislikes(me, subject):
        return f"{name}? Mayor? I'll believe it when I see it."
    if any("politic" in i for i in me.interests):
        return f"Really? I'd like to hear what {name} stands for before I decide."
    if has_trait(me, BLUNT_TRAITS):
        return f"Politics, huh. Well, good luck to {name}."
    return f"Huh, I didn't know that. Good for {name}."


def _decline(me: Resident, key: tuple) -> str:
    if has_trait(me, BLUNT_TRAITS):
        return "Parties aren't really my thing."
    return pick(
        ("Thanks, but I don't think I can make it.", "That's kind, but I'm busy that day."), *key
    )


# -- small talk and goodbye ------------------------------------------------------------------
def _small_talk(turn: Turn) -> str:
    """A persona-coloured line: one's own project, what one saw the partner doing, or one's
    interests; never a line shaped like one already said in this conversation."""
    ctx, key = turn.ctx, turn.key
    candidates = (
        _project_line(ctx, key),
        _seen_line(ctx, turn.partner),
        *_interest_lines(ctx, key),
    )
    said = " ".join(u.text for u in turn.history)
    lines = [line for line in candidates if line and _opening_words(line) not in said]
    if not lines:
        return pick(WEATHER_LINES, *key)
    return lines[len(turn.mine) % len(lines)]


def _opening_words(line: str) -> str:
    return " ".join(line.split()[:4])


def _interest_lines(ctx: AgentContext, key: tuple) -> list[str]:
    if not ctx.persona.interests:
        return []
    interest = pick(ctx.persona.interests, *key, "interest")
    lines = INTEREST_LINES[:1] if has_trait(ctx.persona, BLUNT_TRAITS) else INTEREST_LINES
    return [line.format(interest=interest) for line in shuffled(lines, *key)]


def _project_line(ctx: AgentContext, key: tuple) -> str:
    me = ctx.persona
    clauses = [
        c.rstrip(".")
        for c in me.seed_memories()
        if has_any(c, PROJECT_KEYS) and not is_private(c) and not is_news(c)
    ]
    if not clauses:
        return ""
    lead = pick(("These days", "At the moment", "As for me,"), *key)
    return f"{lead} {first_person(pick(clauses, *key, 'project'), me)}."


def _seen_line(ctx: AgentContext, partner: str) -> str:
    """'I saw you studying earlier' from an observation of the partner."""
    for m in ctx.memories:
        fact = m.fact
        if fact.kind is FactKind.DOING and fact.source is Source.SEEN and fact.subject == partner:
            doing = fact.object.rstrip(".")
            if doing and doing != "idle":
                return f"I saw you {doing} earlier."
    return ""


def _goodbye(ctx: AgentContext, partner: str, key: tuple) -> str:
    me, name = ctx.persona, first_name(partner)
    if tension(me, partner) or has_trait(me, ("gruff",)):
        return "Right. I've got things to do."
    if has_trait(me, WARM_TRAITS):
        return pick(
            (
                f"It was lovely talking to you, {name}. Take care!",
                f"Good to see you, {name}. See you soon!",
            ),
            *key,
        )
    if ctx.status:
        return f"Anyway, I should get back to {mine(ctx.status, me)}. See you, {name}."
    return f"Well, see you around, {name}."
