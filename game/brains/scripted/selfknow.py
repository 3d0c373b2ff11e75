"""Interview answers about oneself and the people one knows, from the persona and memory.

Who a resident is (occupation, interests, household, routine) is scenario data, so these
questions never need "I don't know"; what it did yesterday and plans today come from its
plan memories (`Fact.plan`) and its own remembered actions, worded in the past tense for
the past. Wording is composed from the persona's own data and varied by a stable hash of
the question, so two residents never answer in the same sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from game.brains.event_words import find_date
from game.brains.questions import AgentContext
from game.core.records import FactKind, MemoryKind, MemoryRecord, PlanItem, Source
from game.world.roles import Role
from game.world.scenario import Resident

from .news import chat_partner, is_private
from .places import Directory
from .util import content_words, first_name, has_any, join_and, pick, sentence
from .wording import first_person, mine, my_occupation, relation_in_first_person

HOUSEHOLD_KEYS = (
    "wife", "husband", "married", "son\\b", "daughter", "father", "mother", "roommate",
    "housemate", "flatmate", "lives with", "live with", "partner", "co-living",
)  # fmt: skip
REASON_KEYS = (
    "believ", "hopes?\\b", "wants?\\b", "loves?\\b", "cares?\\b", "thinks?\\b", "dreams?\\b",
    "wish", "feels?\\b", "enjoys?\\b",
)  # fmt: skip
RESUME = "getting back to "
MORNING_WORDS = ("waking up", "getting ready")
PARTS = (("in the morning", 0, 12), ("in the afternoon", 12, 17), ("in the evening", 17, 24))
# What someone who likes a thing might read, be given, or be praised for: keys are read in
# what the asker knows of them (their relationship, what they said, what they were doing).
TASTES: tuple[tuple[tuple[str, ...], str, str, str], ...] = (
    (("paint", "exhibition", "art\\b", "artist", "draw"), "a book on the great painters",
     "a set of good brushes", "how alive their paintings feel"),
    (("music", "compos", "song", "guitar", "piano"), "a biography of a composer",
     "tickets to a concert", "how their music stays with me"),
    (("paper", "writ", "poet", "novel", "essay"), "a collection of essays",
     "a handsome notebook", "how well they put things into words"),
    (("garden", "plant", "flower"), "a gardening handbook", "some seedlings for the garden",
     "how lovely their garden looks"),
    (("cook", "bak", "kitchen", "cafe", "coffee"), "a cookbook from somewhere far away",
     "a bag of really good coffee beans", "how welcome they make everyone feel"),
    (("politic", "mayor", "election", "law", "navy", "history"), "a history of the town",
     "a biography of a statesman", "how much they care about this town"),
    (("equation", "math", "physic", "science", "research", "professor", "philosoph"),
     "a popular science book", "a puzzle book", "how sharp their mind is"),
    (("code", "program", "software", "computer"), "a book on the history of computing",
     "a new keyboard", "how clever their work is"),
    (("photo", "camera"), "a book of great photographs", "a new camera strap",
     "what an eye they have"),
    (("study", "student", "class", "college"), "a classic novel to take their mind off study",
     "a good reading lamp", "how hard they work"),
    (("shop", "store", "customer", "pharmacy", "market"), "a light mystery novel",
     "something nice for their evenings off", "how patient they are with everyone"),
)  # fmt: skip


# -- who one is ------------------------------------------------------------------------------
def occupation(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    block = _main_block(me)
    lead = pick(("I'm", "I work as", "By trade I'm"), seed, me.name, "job")
    text = f"{lead} {my_occupation(me)}."
    if block is not None:
        text += f" Most days I'm {mine(block.activity, me)}, from {clock(block.start)}."
    return text


def _main_block(me: Resident):
    """One's main block of work: the longest at one's workplace, else the longest block;
    meals and rest never (Abigail, who works from home, said 'Most days I'm having dinner
    and chatting with my housemates, from 7 pm' of her job: her longest block)."""
    blocks = work_blocks(me) or [b for b in me.routine if not HOME_LIFE.search(b.activity)]
    return max(blocks or me.routine, key=lambda b: (b.end - b.start) % (24 * 60), default=None)


def work_blocks(me: Resident) -> list:
    """The routine's blocks at one's workplace, in order; at home, without meals and rest."""
    work = me.workplace
    blocks = [b for b in me.routine if work and b.place.split(":")[0] == work]
    return [b for b in blocks if not HOME_LIFE.search(b.activity)] if work == me.home else blocks


HOME_LIFE = re.compile(r"\b(?:breakfast|brunch|lunch|dinner|supper|meal|snack|cook|cooking|"
                       r"sleep|sleeping|nap|bed|shower|bath|television|tv|relax|relaxing|"
                       r"chores|laundry|tidying|cleaning|chatting)\b", re.I)  # fmt: skip


def interests(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    if not me.interests:
        return ""
    lead = pick(("I love", "I'm really into", "Mostly"), seed, me.name, "interests")
    text = f"{lead} {join_and(list(mine(i, me) for i in me.interests))}."
    project = own_project(me, ctx.now, ctx.memories)
    if project:
        text += f" Lately {lower_first(project)}."
    return text


def own_project(
    me: Resident, now: datetime | None = None, memories: Sequence[MemoryRecord] = ()
) -> str:
    """What the persona is working on, from its own seed (skipping who and how it is, and a
    project whose date has passed: a party planned for Tuesday is no project on Wednesday,
    nor a wish whose memory is tied to an event that is over)."""
    from .wording import PROJECT_KEYS

    clauses = [c for c in me.seed_memories()[2:] if has_any(c, PROJECT_KEYS) and not is_private(c)]
    over = {w for c in clauses if stale(c, now) for w in content_words(c)}
    ended = _ended_clauses(memories, me, now)
    for clause in clauses:
        if clause.rstrip(".").lower() in ended:
            continue
        if not stale(clause, now) and not over & set(content_words(clause)):
            return first_person(sentence(clause), me)  # ('... invite everyone to the party')
    return ""


def _ended_clauses(
    memories: Sequence[MemoryRecord], me: Resident, now: datetime | None
) -> set[str]:
    """One's own seed clauses whose memory is tied to an event that has ended."""
    if now is None:
        return set()
    return {
        m.fact.object.rstrip(".").lower()
        for m in memories
        if m.fact.subject == me.name and m.fact.event is not None and m.fact.event.end <= now
    }


def stale(clause: str, now: datetime | None) -> bool:
    """Whether a clause names a day that is already over."""
    if now is None:
        return False
    day, _ = find_date(clause, now.year, now.date())
    return day is not None and day < now.date()


def household(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    home = home_phrase(me)
    family = [(n, r) for n, r in me.relationships if has_any(r, HOUSEHOLD_KEYS)]
    if not family:
        if has_any(me.home, ("co-living", "dorm", "shared")):
            return f"I live at {home}, so there are always other people around."
        return f"I live on my own, at {home}."
    people = [f"{first_name(n)}, {relation_in_first_person(r, me)}" for n, r in family[:3]]
    return f"I live at {home} with {'; and '.join(people)}."


def home_phrase(me: Resident) -> str:
    home = me.home
    for name in (me.name, first_name(me.name)):
        if home.startswith(name + "'s "):
            return "my " + home[len(name) + 3 :]
    return f"the {home}" if "'s " in home or not home[:1].isupper() else home


def weekday(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    blocks = sorted(me.routine, key=lambda b: (b.start - me.wake) % (24 * 60))
    if not blocks:
        return ""
    steps = [f"from {clock(b.start)} I'm {mine(b.activity, me)}" for b in blocks[:5]]
    return (
        f"I get up around {clock(me.wake)}. Then {', '.join(steps)}, "
        f"and I'm usually in bed by {clock(me.sleep)}."
    )


def clock(minute: int) -> str:
    """A time of day as said aloud: 9 am, 5:30 pm."""
    minute %= 24 * 60
    hour, rest = divmod(minute, 60)
    half = "am" if hour < 12 else "pm"
    hour = hour % 12 or 12
    return f"{hour}{f':{rest:02d}' if rest else ''} {half}"


# -- days: today and yesterday ---------------------------------------------------------------
def plan_for(memories: Sequence[MemoryRecord], day: date) -> tuple[PlanItem, ...]:
    """The latest plan the memories hold for that day (a replan supersedes the morning's)."""
    plans = [
        m for m in memories if m.fact.kind is FactKind.PLAN and m.fact.plan
        and m.fact.plan[0].start.date() == day
    ]  # fmt: skip
    if not plans:
        return ()
    first = min(plans, key=lambda m: m.created)
    latest = max(plans, key=lambda m: m.created)
    if latest is first:
        return first.fact.plan
    cut = latest.fact.plan[0].start
    return tuple(i for i in first.fact.plan if i.start < cut) + latest.fact.plan


def _by_part(items: Sequence[PlanItem], me: Resident) -> list[tuple[str, list[str]]]:
    out = []
    for label, lo, hi in PARTS:
        found = []
        for item in items:
            text = item.description.removeprefix(RESUME)
            if lo <= item.start.hour < hi and not has_any(text, MORNING_WORDS):
                text = mine(text, me)
                if text not in found:
                    found.append(text)
        if found:
            out.append((label, found[:3]))
    return out


def today(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    items = [i for i in plan_for(ctx.memories, ctx.now.date()) if i.end > ctx.now]
    parts = []
    if ctx.status:
        parts.append(f"Right now I'm {mine(ctx.status, me)}.")
    if items:
        said = [
            f"{label.replace('in the', 'this')} I'm {join_and(found)}"
            for label, found in _by_part(items, me)
        ]
        if said:
            parts.append(lower_first("; ".join(said)).capitalize()[:1] + "; ".join(said)[1:] + ".")
    return " ".join(parts)


def yesterday(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    day = ctx.now.date() - timedelta(days=1)
    items = plan_for(ctx.memories, day)
    parts = []
    if items:
        said = [f"{label} I was {join_and(found)}" for label, found in _by_part(items, me)]
        if said:
            parts.append(f"Yesterday, {'; '.join(said)}.")
    talked = talked_on(ctx.memories, day, me.name)
    if talked:
        parts.append(f"I also talked with {join_and(talked)}.")
    if not parts:
        done = _done_on(ctx.memories, day, me)
        if done:
            parts.append(f"Yesterday I was {join_and(done)}.")
    return " ".join(parts)


def talked_on(memories: Sequence[MemoryRecord], day: date, me: str) -> list[str]:
    """First names of whom one talked with that day (at most three)."""
    found = [chat_partner(m) for m in memories if m.created.date() == day]
    return [first_name(p) for p in dict.fromkeys(found) if p and p != me][:3]


def _done_on(memories: Sequence[MemoryRecord], day: date, me: Resident) -> list[str]:
    own = [
        mine(m.fact.plan_item or m.fact.object, me) for m in memories
        if m.fact.kind is FactKind.DOING and m.fact.subject == me.name
        and m.fact.source is Source.SELF and m.created.date() == day
    ]  # fmt: skip
    return list(dict.fromkeys(own))[:3]


# -- why one does what one does --------------------------------------------------------------
def why(ctx: AgentContext, question: str, seed: int) -> str:
    """The persona's own reasons, from its seed: the clause the question is about, and the
    beliefs and hopes that go with it."""
    me = ctx.persona
    clauses = [sentence(c) for c in me.seed_memories() if not is_private(c)]
    wanted = content_words(question)
    about = max(clauses, key=lambda c: len(wanted & content_words(c)), default="")
    if not about or not wanted & content_words(about):
        return ""
    ended = _ended_clauses(ctx.memories, me, ctx.now)
    reasons = [
        c
        for c in clauses
        if c != about and has_any(c, REASON_KEYS) and c.rstrip(".").lower() not in ended
    ]
    near = content_words(about) | wanted
    reasons.sort(key=lambda c: -len(near & content_words(c)))
    if not reasons:
        return f"It matters to me. {first_person(about, me)}, and I mean to see it through."
    lead = pick(("Because", "Well, because", "Honestly, because"), seed, me.name, question)
    return f"{lead} {lower_first(first_person(reasons[0], me))}."


def lower_first(text: str) -> str:
    """'I believe' stays; 'Sam believes' stays; 'My wife' -> 'my wife'."""
    head = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if head in ("My", "The", "A", "An", "It", "This") else text


# -- what one would do ------------------------------------------------------------------------
def occupied(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    household_names = [first_name(n) for n, r in me.relationships if has_any(r, HOUSEHOLD_KEYS)]
    who = f"{household_names[0]} to finish" if household_names else "whoever is in there"
    return f"I'd wait for {who}, and {mine(_morning_task(me), me)} in the meantime."


def _morning_task(me: Resident) -> str:
    first = min(me.routine, key=lambda b: (b.start - me.wake) % (24 * 60), default=None)
    return first.activity if first is not None else "get dressed"


def empty_fridge(ctx: AgentContext, question: str, seed: int) -> str:
    where = Directory.of(ctx)
    known = {*ctx.known_places, *ctx.persona.known_places}
    shop = where.find(Role.MARKET, known)
    cafe = where.find(Role.CAFE, known)
    shop = shop or next((p for p in sorted(known) if has_any(p, ("market", "grocer"))), "")
    if shop and cafe:
        return f"I'd pop over to {shop} for groceries, or just have dinner at {cafe}."
    if shop:
        return f"I'd go to {shop} and pick up something for dinner."
    if cafe:
        return f"I'd eat out at {cafe} tonight and shop tomorrow."
    return ""


def friend(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    if not me.relationships:
        return ""
    name, relation = pick(me.relationships, seed, me.name, "friend")
    first = first_name(name)
    said = [m for m in ctx.memories if chat_partner(m) == name]
    ask = f"ask how {first} has been" if not said else "pick up where we left off last time"
    return (
        f'I\'d wave and call out "Hi {first}!" {first} is '
        f"{relation_in_first_person(relation, me)}, so I'd stop to {ask}."
    )


# -- what one thinks of others ----------------------------------------------------------------
def inspires(ctx: AgentContext, question: str, seed: int) -> str:
    me = ctx.persona
    ended = _ended_clauses(ctx.memories, me, ctx.now)
    clauses = [sentence(c) for c in me.seed_memories()[1:] if not is_private(c)]
    reasons = [
        c for c in clauses if has_any(c, REASON_KEYS) and c.rstrip(".").lower() not in ended
    ]
    project = own_project(me, ctx.now, ctx.memories)
    parts = []
    if project:
        parts.append(f"Right now it's my work: {lower_first(project)}.")
    if reasons:
        reason = first_person(pick(reasons, seed, me.name, "inspire"), me)
        parts.append(f"{reason}.")
    if not parts and me.interests:
        parts.append(f"{me.interests[0].capitalize()}, mostly; it keeps me going.")
    return " ".join(parts)


def taste(ctx: AgentContext, question: str, name: str, slot: int) -> str:
    """A book, a gift or a compliment for someone, from what the persona knows of them."""
    me = ctx.persona
    relation = me.relation_to(name) or ""
    known = [m.text for m in ctx.memories if name in m.text and m.kind is not MemoryKind.PLAN]
    text = " ".join([relation, *known])
    first = first_name(name)
    for keys, *choices in TASTES:
        if has_any(text, keys):
            what = choices[slot]
            why = f"{first} is {relation_in_first_person(relation, me)}" if relation else ""
            return _taste_line(slot, first, what, why)
    if relation:
        why = f"{first} is {relation_in_first_person(relation, me)}"
        plain = ("a good novel", "a nice dinner out", "how kind they are")[slot]
        return _taste_line(slot, first, plain, why)
    return ""


def _taste_line(slot: int, first: str, what: str, why: str) -> str:
    because = f", since {why}" if why else ""
    if slot == 0:
        return f"I'd guess {what}{because}."
    if slot == 1:
        return f"Probably {what}{because}."
    return f"I'd tell {first} {what}{because}."


def person_in(question: str) -> str:
    m = re.search(r"\b([A-Z][a-z]+ [A-Z][a-z]+)\b", question)
    return m.group(1) if m else ""
