"""Small talk's lines, coloured by the persona: a follow-up on what the partner told of
itself, one's own project, what one saw the partner doing, one's interests, and the
weather-like line about the place and the time of day when there is nothing else.
"""

from __future__ import annotations

import re

from game.brains.questions import AgentContext
from game.core.records import FactKind

from . import selfknow
from .news import is_news, is_private
from .talk_greeting import _part_of_day, _public_place, _seen_doing
from .traits import BLUNT_TRAITS, has_trait
from .util import first_name, has_any, pick, shuffled
from .wording import PROJECT_KEYS, first_person, mine

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


def _opening_words(line: str) -> str:
    return " ".join(line.split()[:4])


def _interest_lines(ctx: AgentContext, partner: str, key: tuple) -> list[str]:
    if not ctx.persona.interests:
        return []
    interest = mine(pick(ctx.persona.interests, *key, "interest"), ctx.persona)
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
