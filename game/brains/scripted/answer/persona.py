"""Oneself from the persona: who one is, one's work and its hours, one's interests, where
one lives and with whom, one's neighbours as the map places them, and one's kin in town.
"""

from __future__ import annotations

import re
from dataclasses import replace

from game.brains.dialogue.acts import Act, ActKind, Wh
from game.brains.dialogue.understand import content_stems
from game.brains.dialogue.understand import words as words_of
from game.brains.questions import AgentContext
from game.core.text import with_article

from .. import interview as iv
from .. import selfknow
from ..traits import dislikes, tension
from ..util import first_name, join_and, pick
from ..wording import mine, relation_in_first_person
from .people import plan_person
from .phrasing import _FINDS_WORDS, _HERE, _WORK_WORDS, _without_place


def plan_identity(ctx: AgentContext, act: Act, seed: int) -> str:
    """Who one is, and where one lives: the persona, never a guess."""
    intro = iv._intro(ctx, act.text, seed)
    return f"{intro} I live at {selfknow.home_phrase(ctx.persona)}, here in town."


# 'is this where you live?', 'this your place?': asked of the building one is in
_HERE_HOME = re.compile(r"\b(?:is|isn't) (?:this|that) (?:\w+ )?(?:where|your)\b|"
                        r"^\W*(?:this|that)(?:'s| is)? (?:your|ur|yer) (?:own )?(?:place|house|"
                        r"home|flat|apartment)\b|\bdo you live (?:here|in here)\b",
                        re.I)  # fmt: skip


def plan_home(ctx: AgentContext, act: Act, seed: int) -> str:
    """Where one lives and with whom: the housemates are those the town puts there."""
    me = ctx.persona
    home = selfknow.home_phrase(me)
    others = [n for n in ctx.persona.household if n != me.name]
    if act.kind is ActKind.OPINION:
        return _home_life(me, others, home)
    here = ctx.location.split(":")[0]
    if here and _HERE_HOME.search(act.text):  # 'is this where you live?': what here is
        return f"This is {home}." if here == me.home else f"This is {here}; I live at {home}."
    if home.startswith("my ") and act.wh in (Wh.WHERE, Wh.WHAT):  # 'my house' tells a visitor
        home = f"{home}, {me.home}"  # 'my house, Adam Smith's house', as the town names it
    if not others:
        return f"I live on my own, at {home}."
    people = []
    for n in others[:4]:
        rel = me.relation_to(n)
        people.append(f"{first_name(n)}, {relation_in_first_person(rel, me)}" if rel
                      else first_name(n))  # fmt: skip
    sep = "; and " if any(", " in p for p in people) else " and "
    return f"I live at {home} with {sep.join(people) if len(people) < 3 else join_and(people)}."


def _home_life(me, others: list[str], home: str) -> str:
    """How one finds living where and with whom one does ('how do you find sharing with
    them?'): warm of the housemates one gets on with, frank of any one's own words set
    against, and of living alone, that one likes one's own space."""
    if not others:
        return f"I like it. Living on my own at {home} suits me: it's quiet, and it's mine."
    sour = [first_name(n) for n in others if tension(me, n)]
    warm = [n for n in others if not tension(me, n)]
    if not warm:
        return f"Honestly, it's not always easy: {join_and(sour)} and I don't see eye to eye."
    first = warm[0]
    rel = me.relation_to(first)
    about = f" {first_name(first)} is {relation_in_first_person(rel, me)}." if rel else ""
    tail = f" {join_and(sour)} and I don't always see eye to eye, mind." if sour else ""
    names = join_and([first_name(n) for n in warm])
    return f"I love it; {names} and I get on well.{about}{tail}"


def plan_neighbours(ctx: AgentContext, act: Act, seed: int) -> str:
    """Who lives next door: the nearest homes as the map places them (the persona's
    `neighbours`), and whether one knows them; where one knows none of them, the people
    one does see."""
    me = ctx.persona
    homes = [h for h in me.neighbours if h.home != me.home and h.residents]
    if not homes:
        return ""
    said = [_by_family(list(h.residents)) if len(h.residents) <= 3
            else f"the people at {_the(h.home)}" for h in homes]  # fmt: skip
    one = len(homes) == 1 and len(homes[0].residents) == 1
    line = f"My nearest {'neighbour is' if one else 'neighbours are'} {join_and(said)}."
    near = {n for h in homes for n in h.residents}
    known = [(n, r) for n, r in me.relationships if n in near]
    if known:
        name, relation = pick(known[:3], seed, me.name, "neighbours")
        return f"{line} {first_name(name)} is {relation_in_first_person(relation, me)}."
    friends = [first_name(n) for n, _ in me.relationships if not dislikes(me, n)][:2]
    tail = f" The people I see most are {join_and(friends)}." if friends else ""
    them = first_name(homes[0].residents[0]) if one else "them"
    return f"{line} I don't know {them} well yet.{tail}"


def _by_family(names: list[str]) -> str:
    """'Eddy, John and Mei Lin': those sharing a surname, said once."""
    groups: dict[str, list[str]] = {}
    for n in names:
        first, _, last = n.rpartition(" ")
        groups.setdefault(last, []).append(first or last)
    parts = [f"{join_and(firsts)} {last}" if firsts != [last] else last
             for last, firsts in groups.items()]  # fmt: skip
    return ", ".join(parts[:-1]) + f", and {parts[-1]}" if len(parts) > 1 and any(
        " and " in p for p in parts) else join_and(parts)


def _the(home: str) -> str:
    """'the Lin family's house', 'the artists' co-living space'; 'Adam Smith's house'."""
    return f"the {home}" if home[:1].islower() or " family's " in home else home


def plan_family(ctx: AgentContext, act: Act, seed: int) -> str:
    """One's family in town, or, asked of some kin ('any kids?', 'are your parents
    around?'), those of them one has, or that one has none."""
    me = ctx.persona
    family = _family(ctx)
    asked = _kin_asked(act.text)
    if asked:  # a question naming kin asks whether one has them, however it is put
        named = [(n, r) for n, r in family if _kin_asked(_head(r), KINSHIP) & asked]
        opens = next(iter(words_of(act.text.lower())), "") in _OPENS_OPEN
        if not named:
            noun = " or ".join(KIN[k][0] for k in sorted(asked) if k in KIN)
            noun = "family" if asked == set(KINSHIP) else noun
            others = "" if not family else f" There's {_people_line(family[:2], me)}, though."
            return f"{'' if opens else 'No, '}I've no {noun} in town.{others}"
        return f"{'T' if opens else 'Yes, t'}here's {_people_line(named[:3], me)}."
    if not family:
        return f"No family of my own in town. {plan_home(ctx, act, seed)}"
    return f"There's {_people_line(family[:3], me)}."


_OPENS_OPEN = frozenset({"who", "what", "where", "when", "how", "which", "tell", "describe",
                         "who's", "what's", "how's", "where's"})


def _family(ctx: AgentContext) -> list[tuple[str, str]]:
    """One's kin among one's relationships: those whose relation is itself kin ('her son
    who studies music'), not one that only mentions kin ('her husband's colleague', 'a
    neighbour who writes children's books') or shares the house ('a housemate')."""
    return [(n, r) for n, r in ctx.persona.relationships if _kin_asked(_head(r), KINSHIP)]


def _head(relation: str) -> str:
    """A relation's own words, before what it says of the person ('her son' of 'her son
    who studies music'), without possessives ('her husband's colleague' is a colleague)."""
    head = _HEAD_END.split(relation.lower(), maxsplit=1)[0]
    return " ".join(w for w in head.split() if not w.endswith(("'s", "’s")))


_HEAD_END = re.compile(r",|;|\b(?:who|whose|that|which|at|from|with|in|on|she|he)\b")


def _people_line(people: list[tuple[str, str]], me) -> str:
    return "; and ".join(f"{first_name(n)}, {relation_in_first_person(r, me)}"
                         for n, r in people)  # fmt: skip


def _kin_asked(text: str, table: dict[str, tuple[str, ...]] | None = None) -> set[str]:
    """The kinds of kin a text names ('kids' is children, 'mum' a parent; 'relatives',
    any kind)."""
    said = set(words_of(text.lower()))
    table = table or KIN
    if table is KIN and said & _ANY_KIN:
        return set(KINSHIP)
    return {kind for kind, forms in table.items() if said & set(forms)}


_ANY_KIN = frozenset({"kin", "relatives", "relative", "relations", "family", "families"})


def _has_kin(ctx: AgentContext, act: Act, seed: int) -> bool:
    """'Got any kids?' yes if one's family has a child; 'any family here?' if any."""
    asked = _kin_asked(act.text)
    family = _family(ctx)
    return any(_kin_asked(r) & asked for _, r in family) if asked else bool(family)


# kin by kind: the first word is what one says one has none of
KIN = {
    "child": ("children", "child", "kid", "kids", "son", "sons", "daughter", "daughters"),
    "parent": ("parents", "parent", "mom", "mum", "dad", "mother", "father", "folks"),
    "spouse": ("spouse", "married", "wife", "husband", "wed", "partner"),
    "sibling": ("brothers or sisters", "brother", "brothers", "sister", "sisters", "sibling",
                "siblings"),
}
# ... and every word of kin a relation may be (a partner is kin; 'married' is not a relation)
KINSHIP = {**KIN, "spouse": ("wife", "husband", "partner", "fiance", "fiancee"),
           "other": ("cousin", "uncle", "aunt", "grandmother", "grandfather", "grandson",
                     "granddaughter", "grandparent", "nephew", "niece", "stepson",
                     "stepdaughter", "stepmother", "stepfather", "in-law")}  # fmt: skip


def plan_work(ctx: AgentContext, act: Act, seed: int) -> str:
    """What one does, where, and the hours of one's main block; asked if one likes it, yes
    with what one cares about in it."""
    me = ctx.persona
    if act.person and act.person != me.name:  # 'what do they do?' of someone named before
        return plan_person(ctx, replace(act, label="person.about"), seed)
    where = f" at {me.workplace}" if me.workplace and me.workplace not in me.occupation else ""
    if me.workplace and me.workplace == me.home:
        where = ", from home"
    block = selfknow._main_block(me)
    hours = ""
    if block is not None:
        span = f"from {selfknow.clock(block.start)} to {selfknow.clock(block.end)}"
        hours = f" Most days I'm {mine(block.activity, me)}, {span}."
    lead = selfknow.occupation(ctx, act.text, seed).split(".")[0]
    if act.wh is Wh.WHO or (act.wh is Wh.YESNO and _ANYONE.search(act.text)):
        mates = [(n, r) for n, r in me.relationships if _COLLEAGUE.search(r)]  # 'who with?'
        yes, no = ("Yes, I", "No, m") if act.wh is Wh.YESNO else ("I", "M")
        also = _same_workplace(ctx, {n for n, _ in mates})
        if mates:
            more = f" Also there:{also}" if also else ""
            return f"{yes} work with {_people_line(mates[:3], me)}.{more}"
        if also:
            return f"{yes} see a lot of the others there:{also}"
        return f"{no}ostly on my own. {lead}{where}."
    if act.wh is Wh.WHEN:
        return _work_hours(ctx) or f"{lead}{where}.{hours}"
    if act.wh is Wh.YESNO and _HERE.search(act.text):
        return plan_work_here(ctx, act, seed)  # 'is this where you work?'
    bare = not act.place and not content_stems(_without_place(act)) - _WORK_WORDS
    if act.wh is Wh.YESNO and bare or act.kind is ActKind.OPINION:
        project = selfknow.own_project(me, ctx.now, ctx.memories)
        # asked how one finds it ('do you enjoy it?'), one says how, not only 'I do'
        feeling = act.kind is ActKind.OPINION or act.label == "follow.opinion" \
            or bool(content_stems(act.text) & _FEELING)  # fmt: skip
        yes = "I enjoy it" if feeling else "I do"
        return f"{yes}, mostly. {project.rstrip('.')}." if project else f"{yes}, most days."
    return f"{lead}{where}.{hours}"


def _same_workplace(ctx: AgentContext, named: set[str]) -> str:
    """' Mei, a philosophy professor; ...': the people one knows of who work where
    one works (one's home is nobody else's workplace), beyond those already `named`."""
    me = ctx.persona
    if not me.workplace or me.workplace == me.home:
        return ""
    there = [k for k in iv.known_people(ctx)
             if k.workplace == me.workplace and k.name not in named]  # fmt: skip
    said = [f"{first_name(k.name)}, {with_article(k.occupation)}" for k in there[:3]]
    return f" {'; '.join(said)}." if said else ""


_FEELING = _FINDS_WORDS | frozenset(content_stems("like enjoy love happy"))  # how one finds it
_ANYONE = re.compile(r"\b(?:anyone|anybody|someone|somebody|who)\b", re.I)
_COLLEAGUE = re.compile(r"\b(?:colleague|co-?worker|works? with|workmate|boss|employer|"
                        r"employee|assistant|partner at|business partner)", re.I)


def _work_hours(ctx: AgentContext) -> str:
    """When one starts and stops work: the routine's blocks at one's workplace."""
    me = ctx.persona
    blocks = selfknow.work_blocks(me)  # at home, meals and rest are not work
    if not blocks:
        block = selfknow._main_block(me)
        blocks = [block] if block is not None else []
    if not blocks:
        return ""
    where = "at home" if me.workplace == me.home else f"at {me.workplace}" if me.workplace else ""
    start, end = selfknow.clock(blocks[0].start), selfknow.clock(blocks[-1].end)
    return f"I usually start around {start} and finish around {end}, {where}.".replace(", .", ".")


def plan_work_here(ctx: AgentContext, act: Act, seed: int) -> str:
    """'Is this where you work?': where one is, and where one works."""
    me = ctx.persona
    here = iv._where(ctx, act.text, seed)
    if not me.workplace or ctx.location.split(":")[0] == me.workplace:
        return here
    works = "from home" if me.workplace == me.home else f"at {me.workplace}"
    return f"{here} I work {works}."


def _aux(question: str) -> str:
    """The verb a yes-no question opens with, as one says it back ('are you' -> 'am')."""
    for w in re.findall(r"[a-z']+", question.lower()):
        if w in _AUX:
            return _AUX[w]
    return "do"


_AUX = {"are": "am", "r": "am", "do": "do", "does": "do", "did": "did", "have": "have",
        "would": "would", "will": "will", "can": "can", "could": "could"}  # fmt: skip


def plan_interests(ctx: AgentContext, act: Act, seed: int) -> str:
    """What one enjoys; asked about a particular thing, yes if one's interests hold it."""
    me = ctx.persona
    asked = content_stems(act.event) - {"enjoy", "like", "love", "into", "interest", "fun"}
    if asked and act.wh is Wh.YESNO:
        shared = [i for i in me.interests if asked & content_stems(i)]
        key = (seed, me.name, act.text)
        aux = _aux(act.text)  # 'Are you into X?' 'I am!'; 'Do you know X?' 'I do!'
        if shared:
            lead = pick(("Yes, I love", "Oh yes, I'm big on", f"I {aux}! I really enjoy"), *key)
            return f"{lead} {mine(shared[0], me)}."
        no = pick(("Not really, no.", "Not much, to be honest.", f"Can't say I {aux}.",
                   "Not me, I'm afraid.", "Hmm, not really."), *key)  # fmt: skip
        cares = join_and([mine(i, me) for i in me.interests[:2]]) if me.interests else ""
        more = pick(("I'm more into {c}.", "{C} is more my thing.", "Give me {c} any day."), *key)
        told = more.format(c=cares, C=cares[:1].upper() + cares[1:]) if cares else ""
        return f"{no} {told}".strip()
    return selfknow.interests(ctx, act.text, seed)
