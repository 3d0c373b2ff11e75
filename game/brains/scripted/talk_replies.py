"""Answering what the partner just said: how one is, to a hello; to news, surprise,
interest, a doubt, a polite no, or "I already heard" (with the answer owed to an event
one was told of), yes or no first when the news was asked as a question.
"""

from __future__ import annotations

import re

from game.brains.dialogue.understand import is_yes_no, questions_in
from game.brains.questions import AgentContext
from game.core.records import Fact, Rsvp, Utterance
from game.world.scenario import Resident

from . import hearsay
from .goals import rsvp_of
from .news import known_fact, subject_of, topic_word
from .plans import event_key
from .rsvp import Decision, decide
from .talk_greeting import _part_of_day, _public_place, is_visitor
from .talk_lines import SOFT_STARTS, lower_first
from .talk_news import _political
from .traits import BLUNT_TRAITS, declines, dislikes, has_trait
from .util import first_name, has_any, pick


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
        if shared is not None and subject_of(shared) and _asks_view(told.text) \
                and _political(fact):  # fmt: skip
            # 'What do you make of that?' wants a view, not only that one had heard
            return f"{said} {_react_politics(me, subject_of(shared), key, known=True)}"
        return hearsay.tailed(said, _own_answer(ctx, shared)) if shared is not None else said
    if decision is not None and _asks_if_heard(told.text):
        return f"No, I hadn't heard. {decision.line}"  # 'Have you heard?' of news one lacked
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


def _asks_if_heard(text: str) -> bool:
    """The line's last question asks whether one had heard or knew ('Have you heard?',
    'Do you know if it's so?'), not whether one will come."""
    asked = questions_in(text)
    return bool(asked) and is_yes_no(text) and _HEARD_WORDS.search(asked[-1]) is not None


_HEARD_WORDS = re.compile(r"\b(?:heard|hear|know|knew|aware)\b", re.I)


def _asks_view(text: str) -> bool:
    """The line ends on an open question ('What do you make of that?', 'Thoughts?'), not
    on a yes or no ('had you heard?')."""
    asked = questions_in(text)
    return bool(asked) and not is_yes_no(asked[-1])


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


def _react_politics(me: Resident, subject: str, key: tuple, known: bool = False) -> str:
    name = first_name(subject) if subject else "them"
    if subject and dislikes(me, subject):
        return f"{name} in office; I'll believe it when I see it."
    if any("politic" in i for i in me.interests):
        return f"I'd like to hear what {name} stands for before I decide."
    if has_trait(me, BLUNT_TRAITS):
        return f"Politics, huh. Well, good luck to {name}."
    surprised = () if known else (f"Huh, I didn't know that; good for {name}.",)
    return pick(
        (*surprised, f"{name} is running; good for {name}.",
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
    return hearsay.GOING_TOO if answer is not Rsvp.DECLINED else "I can't make it, though."


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
