"""Hello and goodbye: a greeting by name and relationship with a clause about the partner
or the place (or an introduction, to a stranger or the visitor), what one is doing, and a
goodbye in the persona's manner.
"""

from __future__ import annotations

import re

from game.brains.questions import AgentContext
from game.core.records import FactKind, Introduction, Source
from game.world.scenario import Resident

from . import hearsay
from .news import chat_partner
from .talk_lines import lower_first
from .traits import BLUNT_TRAITS, WARM_TRAITS, has_trait, tension
from .util import first_name, has_any, pick
from .wording import mine, my_occupation

FAMILY_NAMES = (("father", "Dad"), ("mother", "Mum"), ("wife", "dear"), ("husband", "dear"))


def is_visitor(ctx: AgentContext, partner: str) -> bool:
    """The player's visitor: so named, or seen or heard as one (by the memory's source)."""
    if "visitor" in partner.lower():
        return True
    return any(
        m.fact.source is Source.VISITOR and partner in (m.fact.subject, m.fact.heard_from)
        for m in ctx.memories
    )


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
        who = who_i_am(ctx.persona)
        nice = pick(MEET_LINES, *key).format(name=first_name(partner))
        hello = f"{nice}; {who}."
    if reply and doing:
        return f"{hello} {reply.rstrip('.!')}; {lower_first(doing)}"
    return " ".join(p for p in (hello, reply, doing) if p)


def who_i_am(me: Resident) -> str:
    """How one introduces oneself: 'I'm Carmen, a shopkeeper who runs Harvey Oak Supply
    Store'."""
    return f"I'm {first_name(me.name)}, {my_occupation(me)}"


def introduced(me: Resident, text: str) -> Introduction | None:
    """The introduction a line of one's own gives, as fields, if it holds one whole."""
    if who_i_am(me) not in text:
        return None
    works = me.workplace if me.workplace and me.workplace != me.home else ""  # None: none
    return Introduction(me.occupation, works)


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
    who = who_i_am(me)
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
