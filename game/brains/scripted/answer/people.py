"""People: someone named (who they are, what one thinks of them, what one talked about),
whom one talks with most or talked with on a day, and who is around now (someone who does
something, and the rest of someone else's life, is `others`).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from game.brains.dialogue.acts import Act, ActKind, Wh
from game.brains.questions import AgentContext
from game.core.records import FactKind, Source

from .. import interview as iv
from .. import selfknow
from ..news import chat_partner
from ..util import first_name, join_and
from .phrasing import _day


def plan_person(ctx: AgentContext, act: Act, seed: int) -> str:
    if not act.person:
        return _talked(ctx, act) if act.label == "person.talk" else ""
    if act.person == ctx.persona.name:
        return iv._intro(ctx, act.text, seed)
    label = act.label
    if label == "person.opinion" or act.kind is ActKind.OPINION:
        if ctx.persona.relation_to(act.person) or iv._memories_naming(ctx, act.person):
            return iv._feel_person(ctx, act.person)
        return f"I don't really know {first_name(act.person)}, so I can't say."
    if label == "person.talk":
        return iv._talked_about(ctx, f"with {act.person}", seed)
    slots = {"person.book": 0, "person.gift": 1, "person.compliment": 2}
    if label in slots:
        return selfknow.taste(ctx, act.text, act.person, slots[label])
    seen = _last_seen(ctx, act.person) if _SAW.search(act.text) else ""
    who = iv._who_is(ctx, f"who is {act.person}", seed)
    if who == iv.UNKNOWN_PERSON and act.wh is Wh.YESNO:  # 'Ever heard of X?' gets a no
        return f"No, I've never come across anyone called {act.person}."
    if not seen or who == iv.UNKNOWN_PERSON:
        return seen or who
    rest = [x for x in re.split(r"(?<=[.!?])\s+", who) if not x.startswith("Last time I saw")]
    return " ".join([seen, *rest])


# asked when one last saw someone, or what they were doing: 'bumped into Sam lately?'
_SAW = re.compile(r"\b(?:saw|seen|see|bump(?:ed)? into|run into|ran into|spotted|spot|"
                  r"come across|came across|last time)\b", re.I)  # fmt: skip


def _last_seen(ctx: AgentContext, person: str) -> str:
    """'I last saw Sam this morning, heating up dinner at the Moore family's house.': the
    latest memory of seeing them, when and where."""
    seen = [m for m in ctx.memories if m.fact.kind is FactKind.DOING
            and m.fact.source is Source.SEEN and m.fact.subject == person]  # fmt: skip
    if not seen:
        return ""
    last = max(seen, key=lambda m: m.created)
    place = (last.fact.address or "").split(":")[0]
    at = f" at {place}" if place and place not in last.fact.object else ""
    when = iv._when(ctx.now, last.created)
    return f"I last saw {first_name(person)} {when}, {last.fact.object}{at}."


def _talked_most(ctx: AgentContext) -> str:
    """Whom one talks with most, by the conversations one remembers."""
    counts: dict[str, int] = {}
    for m in ctx.memories:
        partner = chat_partner(m)
        if partner and partner != ctx.persona.name:
            counts[partner] = counts.get(partner, 0) + 1
    if not counts:
        return ""
    best = max(counts, key=lambda n: (counts[n], n))
    times = f"; we've talked {counts[best]} times lately" if counts[best] > 1 else ""
    return f"Probably {best}{times}."


def _talked(ctx: AgentContext, act: Act) -> str:
    """Whom one talked with on the day asked of (today when none is named)."""
    day = act.window.start.date() if act.window is not None else ctx.now.date()
    people = selfknow.talked_on(ctx.memories, day, ctx.persona.name)
    when = _day(ctx.now, datetime.combine(day, datetime.min.time()))
    if not people:
        return f"Nobody much {when}, now that you ask."
    return f"{when[:1].upper()}{when[1:]} I talked with {join_and(people[:4])}."


def seen_nearby(ctx: AgentContext) -> list[str]:
    """The people one has seen in the last half hour, latest first (four at most)."""
    recent = ctx.now - timedelta(minutes=30)
    seen = [m.fact.subject for m in sorted(ctx.memories, key=lambda m: m.created, reverse=True)
            if m.fact.kind is FactKind.DOING and m.fact.source is Source.SEEN
            and m.created >= recent and m.fact.subject != ctx.persona.name]  # fmt: skip
    return list(dict.fromkeys(seen))[:4]


def plan_nearby(ctx: AgentContext, act: Act, seed: int) -> str:
    """Who is around: the people one has seen lately where one is now."""
    me, here = ctx.persona, ctx.location.split(":")[0]
    seen = seen_nearby(ctx)
    where = f" here at {here}" if here and here != me.home else ""
    if not seen:
        return f"Nobody but me{where}, as far as I've noticed."
    return f"I've seen {join_and([first_name(n) for n in seen])} around{where} just now."
