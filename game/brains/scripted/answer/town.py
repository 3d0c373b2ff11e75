"""Places in town: what a place is to oneself, its hours and rooms as the map gives them,
who is usually there, and where one goes for something (the place the planner would
choose, else the public place whose offers are nearest in meaning).
"""

from __future__ import annotations

import re

import numpy as np

from game.brains.dialogue.acts import Act, Wh
from game.brains.dialogue.understand import content_stems, sentence_embedder
from game.brains.questions import AgentContext
from game.core.records import FactKind, Source
from game.core.text import with_article
from game.world.roles import OFFERS

from .. import places, selfknow
from ..interview import known_people
from ..plans import remembered_events
from ..util import first_name, join_and
from ..wording import mine, my_occupation, relation_in_first_person
from . import whereabouts
from .events import event_line


def plan_hours(ctx: AgentContext, act: Act, seed: int) -> str:
    """A place's opening hours as the map states them, and whether it is open now; a
    place without hours is always open. Without a place named, the place question's own
    answer."""
    area = next((a for a in ctx.sectors if a.name == act.place), None)
    if area is None:
        return plan_place(ctx, act, seed)
    minute = ctx.now.hour * 60 + ctx.now.minute
    if area.opens is None or area.closes is None:
        return f"{area.name} is open all day, as far as I know."
    hours = f"{area.name} opens at {selfknow.clock(area.opens)} and closes at " \
            f"{selfknow.clock(area.closes % 1440)}"
    now = "it's open now" if area.is_open(minute) else "it's closed right now"
    return " ".join([f"{hours}, so {now}.", *_on_there(ctx, area.name)])


def plan_place(ctx: AgentContext, act: Act, seed: int) -> str:
    """A place: what it is to oneself (home, work, a haunt), and what one knows on there."""
    me, place = ctx.persona, act.place
    if not place:
        return plan_where_to(ctx, act, seed)
    if act.wh is Wh.WHO:
        return _seen_at_place(ctx, place)
    if whereabouts.FAR.search(act.text):  # 'how far is it from home?'
        here = ctx.location.split(":")[0]
        start = here if place == me.home or _FROM_HERE.search(act.text) else me.home
        far = whereabouts.how_far(ctx, place, start)
        if far:
            return far
    parts = []
    if act.wh is Wh.WHERE and place != me.home:  # 'where is it?', 'which part of town?'
        part = whereabouts.part_of_town(ctx, place)
        parts += [f"{place} is {part}."] if part else []
    if place == me.home:
        parts.append(f"That's my home, {selfknow.home_phrase(me)}.")
    elif place == me.workplace:
        parts.append(f"I work there: I'm {my_occupation(me)}.")
    elif place in me.known_places or place in ctx.known_places:
        usual = next((b for b in me.routine if b.place.split(":")[0] == place), None)
        if usual is not None:
            when = f"around {selfknow.clock(usual.start)}"
            parts.append(f"I go there most days {when}, {mine(usual.activity, me)}.")
        else:
            parts.append(f"I know {place}, but I only go there now and then.")
    else:
        parts.append(f"I know where {place} is, but I don't go there much.")
    if place != me.home and act.wh is not Wh.WHEN:
        parts.extend(_what_it_is(ctx, place))
    if act.label != "place.regular":
        parts.extend(_on_there(ctx, place))
    return " ".join(parts)


_FROM_HERE = re.compile(r"\bfrom (?:here|where we are|this place)\b", re.I)


def _what_it_is(ctx: AgentContext, place: str) -> list[str]:
    """What a public place is for, as the map's role says ('It's a cafe, for coffee, tea,
    cake and pastries.'): asked what one gets at the market, one who seldom goes there
    still knows what a market sells."""
    area = next((a for a in ctx.sectors if a.name == place), None)
    if area is None or area.role not in OFFERS:
        return []
    offers = [o.strip() for o in OFFERS[area.role].split(",")][:OFFERS_SAID]
    return [f"It's {with_article(area.role.value)}, for {join_and(offers)}."]


OFFERS_SAID = 4  # of a place's offers, the first few are said


def _on_there(ctx: AgentContext, place: str) -> list[str]:
    """The latest event one knows of at a place, told with it: asked when the pub opens
    or what it is like, one says the poetry night is there on Friday (nobody asked of the
    event by name, but it is what one knows on there)."""
    known = [k for k in remembered_events(ctx.memories) if k.event.place == place]
    told = [k for k in known if k.event in {m.fact.event for m in ctx.memories}]
    if not known:
        return []
    latest = max(told or known, key=lambda k: k.event.start)  # as told, not one's own plan of it
    return [event_line(ctx, latest.event, "", "", latest.intent, Wh.NONE)]


def plan_rooms(ctx: AgentContext, act: Act, seed: int) -> str:
    """'What rooms does it have?': the arenas the map gives the place asked of (one's home
    when none is named), for a place one knows."""
    me = ctx.persona
    place = act.place or me.home
    sector = next((a for a in ctx.sectors if a.name == place), None)
    if sector is None or not sector.children:
        return ""
    known = place in (me.home, me.workplace) or place in {*me.known_places, *ctx.known_places}
    if not known:
        return f"I've never been inside {place}, so I couldn't tell you."
    rooms = list(dict.fromkeys(c.split(":")[-1] for c in sector.children))
    listed = join_and([_room_words(r, me) for r in rooms[:6]])
    whose = "My place" if place == me.home else place
    return f"{whose} has {listed}."


def _room_words(room: str, me) -> str:
    """'a kitchen'; 'my bedroom' for 'Carmen Ortiz's bedroom' said by Carmen, 'our
    bedroom' for one shared, 'Eddy's bedroom' for another's."""
    owner, sep, kind = room.rpartition("'s ")
    if not sep:
        return with_article(room)
    mine_ = me.name in owner or me.name.split()[0] in owner.split()
    if mine_:
        return f"{'our' if ' and ' in owner else 'my'} {kind}"
    return f"{first_name(owner)}'s {kind}" if " and " not in owner else f"{owner}'s {kind}"


def _seen_at_place(ctx: AgentContext, place: str) -> str:
    """'Who is usually at Hobbs Cafe?' 'Who runs it?': the people one knows to belong there
    (one's relationships that name it), then whom one remembers seeing there, most often
    first."""
    me = ctx.persona
    tail = place.lower().split()[-1]
    known = [(n, r) for n, r in me.relationships
             if place.lower() in r.lower() or re.search(rf"\b{re.escape(tail)}\b", r.lower())]
    counts: dict[str, int] = {}
    for m in ctx.memories:
        f = m.fact
        at = (f.address or "").split(":")[0] == place
        if f.kind is FactKind.DOING and f.source is Source.SEEN and at and f.subject:
            counts[f.subject] = counts.get(f.subject, 0) + 1
    staff = _staff_of(ctx, place, {n for n, _ in known})
    if place == me.workplace:
        mine_too = f"I work there myself: I'm {my_occupation(me)}."
        return " ".join(x for x in (mine_too, _belong(known, me), staff) if x)
    if known or staff:
        return " ".join(x for x in (_belong(known, me), staff) if x)
    if not counts:
        return f"I can't say I've noticed who's usually at {place}."
    names = sorted(counts, key=lambda n: (-counts[n], n))[:3]
    return f"I usually see {join_and([first_name(n) for n in names])} at {place}."


def _staff_of(ctx: AgentContext, place: str, named: set[str]) -> str:
    """Those one knows of who work at `place` ('Isabella is the owner of Hobbs Cafe.'),
    from what one knows of one's acquaintances and of those who introduced themselves,
    beyond those already `named`."""
    staff = [k for k in known_people(ctx) if k.workplace == place and k.name not in named]
    said = []
    for k in staff[:3]:
        there = "" if place.lower() in k.occupation.lower() else f" at {place}"
        said.append(f"{first_name(k.name)} is {with_article(k.occupation)}{there}")
    return ("; ".join(said) + ".") if said else ""


def _belong(known: list[tuple[str, str]], me) -> str:
    """'Isabella: she's the owner of the cafe where I write.'"""
    if not known:
        return ""
    said = [f"{first_name(n)}, {relation_in_first_person(r, me)}" for n, r in known[:2]]
    return f"There's {'; and '.join(said)}."


def plan_where_to(ctx: AgentContext, act: Act, seed: int) -> str:
    """'Where do you buy groceries?': the known place the planner would choose for it."""
    where = places.Directory.of(ctx)
    known = sorted({*ctx.known_places, *ctx.persona.known_places})
    town = sorted({a.name for a in ctx.sectors} - set(known))
    for options, line in ((known, "I usually go to {} for that."),
                          (town, "There's {}; I don't go there much myself.")):  # fmt: skip
        roles = {o: where.role(o) for o in options}
        asked = act.event or act.text
        fits = [o for o in options if places.serves(ctx.persona, asked, o, roles, where)]
        if fits and fits[0] != ctx.persona.home:
            return line.format(fits[0])
    found = _offering(ctx, act.text, where, [*known, *town])
    if found:
        line = "I usually go to {} for that." if found in known else "There's {}; try there."
        return line.format(found)
    return ""


def _offering(ctx: AgentContext, asked: str, where, options: list[str]) -> str:
    """The public place whose offers (the world's `OFFERS` by role) are nearest in meaning
    to what is asked for ('I need bread and cough syrup' -> the market), when the keyword
    tables say nothing of it; '' if none is near."""
    model = sentence_embedder()
    roles = {o: where.role(o) for o in options if o != ctx.persona.home}
    offered = {o: OFFERS[r] for o, r in roles.items() if r in OFFERS}
    if model is None or not offered:
        return ""
    names = list(offered)
    vecs = model.embed([asked, *(f"a place for {offered[n]}" for n in names)])
    sims = vecs[1:] @ vecs[0]
    best = int(np.argmax(sims))
    return names[best] if float(sims[best]) >= OFFER_NEAR else ""


OFFER_NEAR = 0.3  # how near a place's offers must be to what is asked
OFFER_FLOOR = 0.2  # the nearest place's offers serve what is asked when at least this near
OFFER_TIE = 0.05  # a place this near the nearest one's offers serves it as well
OFFER_APART = 0.1  # ... and one this much further off does not


def offers_fit(ctx: AgentContext, asked: str, place: str) -> bool | None:
    """'Can I get something to eat at Hobbs Cafe?': yes when the place's offers are among
    the nearest in meaning to what is asked, no when another public place's are clearly
    nearer and its own are far; None when the meaning does not settle it (or no model)."""
    model = sentence_embedder()
    where = places.Directory.of(ctx)
    roles = {a.name: where.role(a.name) for a in ctx.sectors if a.name != ctx.persona.home}
    offered = {o: OFFERS[r] for o, r in roles.items() if r in OFFERS}
    if model is None or place not in offered or not asked.strip():
        return None
    own = content_stems(f"{place} {roles[place].value if roles[place] else ''}")
    asked = " ".join(w for w in asked.split() if not content_stems(w) <= own)  # not 'the cafe'
    if not asked:
        return None
    names = list(offered)
    vecs = model.embed([asked, *(f"a place for {offered[n]}" for n in names)])
    sims = dict(zip(names, (vecs[1:] @ vecs[0]).tolist(), strict=True))
    best, mine_ = max(sims.values()), sims[place]
    if mine_ >= OFFER_FLOOR and mine_ >= best - OFFER_TIE:
        return True
    if mine_ < OFFER_NEAR and best - mine_ > OFFER_APART:
        return False
    return None
