"""Reacting to what one sees, and small talk that passes news on.

A conversation follows each speaker's own agenda, read afresh from the history on every
turn: greet (or introduce oneself), say what one is doing, tell the best news the partner
has not heard from us, a line of small talk, then goodbye. Each line first answers what
the partner just shared: surprise, interest, a doubt, a polite no, or "I already heard".

Here: when to talk (the tuned chances) and reacting, and the conversation's turns; the
lines themselves come from `talk_greeting` (hello, goodbye), `talk_news` (telling news),
`talk_replies` (answering what was just said), `talk_small` (small talk) and `talk_lines`
(how a line is joined and coloured).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from game.brains.dialogue.acts import ActKind
from game.brains.dialogue.state import DialogueState
from game.brains.questions import AgentContext
from game.core.records import (
    CONTINUE,
    ActionKind,
    Observation,
    Reaction,
    ReactionKind,
    Source,
    Utterance,
)
from game.world.scenario import Resident

from . import answer, interview
from .activities import classify
from .goals import rsvp_of
from .lexicon import trouble
from .news import MAX_NEWS_PER_TALK, News, chat_partner, news_for
from .talk_greeting import (
    _doing,
    _goodbye,
    _opening,
    _part_of_day,
    greeting,
    introduced,
    is_visitor,
)
from .talk_lines import LINE_LIMIT, coloured, joined, without_questions
from .talk_news import _share
from .talk_replies import _is_greeting, _reply, pending_decision
from .talk_small import (
    WEATHER_LINES,
    _follow_up,
    _interest_lines,
    _opening_words,
    _project_line,
    _seen_line,
)
from .traits import sociability, tension
from .util import chance, clip, has_any, pick, shuffled, stable_int

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
GATHERING_KINDS = frozenset({"party", "event_visit", "hosting"})
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


FAREWELL_SURE = 0.75  # how near a goodbye's exemplars a line must be to end a chat
BYE_KEYS = ("bye\\b", "goodbye", "see you", "gotta go", "have to go", "take care")
HOW_ARE_YOU_KEYS = ("how are you", "how's it going", "how are things", "what's up", "how do you do")


def react(ctx: AgentContext, observation: Observation, seed: int) -> Reaction:
    if not observation.is_agent:
        return _react_object(ctx, observation)
    other = observation.subject
    if other == ctx.persona.name or observation.activity is ActionKind.SLEEP:
        return CONTINUE  # nobody talks to a sleeper, or to someone on the way to bed
    roll = _roll(ctx, other, seed)
    if roll >= _chance_ceiling(ctx, observation):
        return CONTINUE
    if roll >= _chance(ctx, observation, max(OWN_NEWS_BONUS, TALK_NEWS_BONUS)):
        return CONTINUE  # not even with news: the news need not be looked for
    if roll < talk_chance(ctx, observation):
        return Reaction(ReactionKind.TALK, target=other)
    return CONTINUE


def _chance_ceiling(ctx: AgentContext, observation: Observation) -> float:
    """No `talk_chance` is above this: the highest base chance, both bonuses, the
    persona's sociability, and every other factor at most 1 (each step of the sum and the
    product only rounds upwards of the real one here). Why: a roll above it needs no
    chance worked out, and working it out (the news one has for the other) was most of a
    look's cost in a crowded room."""
    base = max(TALK_KNOWN, TALK_MET, TALK_STRANGER)
    if observation.fact.source is Source.VISITOR:
        base = max(base, TALK_VISITOR)
    top = base + max(OWN_NEWS_BONUS, TALK_NEWS_BONUS) + GATHERING_BONUS
    return min(TALK_MAX, top * sociability(ctx.persona))


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
    return _chance(ctx, observation, _news_bonus(ctx, observation))


def _news_bonus(ctx: AgentContext, observation: Observation) -> float:
    """More chance to talk with news the other has not heard from one (more for one's own)."""
    news = news_for(ctx.memories, ctx.persona, observation.subject, now=ctx.now)
    if news:
        return OWN_NEWS_BONUS if news[0].own else TALK_NEWS_BONUS
    return 0.0


def _chance(ctx: AgentContext, observation: Observation, news_bonus: float) -> float:
    """`talk_chance` with the news' bonus given: with the highest bonus it is no lower
    than with the one the news gives (each step only grows with it), so a roll above
    that needs no news looked for."""
    persona, other = ctx.persona, observation.subject
    p = _base_chance(ctx, observation)
    p += news_bonus  # adding 0.0 leaves it as it was
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
        return _standing(ctx, line, last)
    event = last.shared.event if last is not None and last.shared is not None else None
    return replace(
        line, rsvp=decision.answer, reason=decision.reason, going=decision.answer, going_to=event
    )


def _standing(ctx: AgentContext, line: Utterance, last: Utterance | None) -> Utterance:
    """A line about an event one has answered says the answer again (the news's tail 'I'll
    be there', 'I'm going too'): kept as fields, so a listener knows who said yes."""
    told = line.shared if line.shared is not None and line.shared.event is not None else None
    if told is None and last is not None and last.shared is not None:
        told = last.shared
    event = told.event if told is not None else None
    if event is None or event.host == ctx.persona.name or event.end <= ctx.now:
        return line
    given = rsvp_of(ctx.memories, event)
    return line if given is None else replace(line, going=given, going_to=event)


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
        first = _line(turn, "", _opening(ctx, partner, reply, last is None, turn.key))
        return replace(first, introduces=introduced(ctx.persona, first.text))
    news = turn.news()
    limit = turn_limit(ctx, partner, turn.history, seed)
    done = not news and _small_talk_done(turn.mine) and turn.number >= MIN_TURNS
    if turn.number >= limit or done:
        return _closing(turn, reply, news)
    if news:
        return _line(turn, reply, _share(ctx, partner, news[0], turn.key), news[0])
    return _line(turn, reply, _small_talk(turn))


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
