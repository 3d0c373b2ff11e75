"""Answers planned from a typed act and the retrieved memories, in the first person.

The question was understood before it got here (`game/brains/dialogue`): its label says
what is asked, its slots whom, where and when. One planner per label turns the facts,
plan items and persona that retrieval returned into a line; a planner with nothing to say
returns '' and the answer tries the line's second reading (the runner-up aspect of the
exemplar vote), then the retrieved facts that share the question's words,
and only then to an honest, in-character "I don't know" (said once a conversation: a
second time the resident asks back instead).

Tense follows the fact's time against now: an event that has ended is spoken of in the
past, and a question about yesterday is answered from yesterday.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import numpy as np

from game.brains.dialogue.acts import UNKNOWN_OPENERS, Act, ActKind, Aspect, Wh
from game.brains.dialogue.state import DialogueState
from game.brains.dialogue.understand import (
    TROUBLE_LABELS,
    content_stems,
    labels,
    sentence_embedder,
)
from game.brains.dialogue.understand import words as words_of
from game.brains.questions import AgentContext
from game.core.records import Event, FactKind, MemoryRecord, Rsvp, Source
from game.core.text import with_article
from game.world import troubles
from game.world.roles import OFFERS
from game.world.states import vocabulary

from . import interview as iv
from . import places, selfknow
from .goals import rsvp_of
from .news import chat_partner, facts_in, is_private, people_in, shareable
from .plans import attends, remembered_events
from .traits import dislikes, tension
from .util import first_name, join_and, pick
from .wording import first_person, mine, relation_in_first_person


@dataclass(frozen=True)
class Reply:
    """An answer and whether it is the honest 'I don't know' (for `--json` and the
    one-a-conversation rule)."""

    text: str
    fallback: bool = False


Planner = Callable[[AgentContext, Act, int], str]
LABELS = {label.name: label for label in labels()}  # the exemplar data's labels, by name
DONT_KNOW = UNKNOWN_OPENERS


def answer(ctx: AgentContext, act: Act, state: DialogueState | None, seed: int) -> Reply:
    """The answer to `act`; `state` is the conversation so far (None: asked alone)."""
    vague = act.wh is not Wh.WHERE and (  # not 'where would you buy one?'
        act.aspect in _TROUBLE_ASPECTS or _SUPPOSED.search(act.text))  # fmt: skip
    fixes = act.label not in PLANNERS_OF_TROUBLE or act.label == "fridge"  # a broken fridge
    if act.asks and vague and fixes and iv.trouble(act.text):
        act = replace(act, label="object.trouble", aspect=Aspect.OBJECT)  # the trouble table
    eats = _EATS.search(act.text) and not _MEAL_AS_TIME.search(act.text)  # not 'after lunch'
    if act.asks and act.aspect in _MEAL_ASPECTS and act.label != "meal" and eats:
        act = replace(act, label="meal", aspect=Aspect.PAST)  # 'eat where around midday?'
    if act.asks and act.aspect in _KIN_ASPECTS and not act.person and _kin_asked(act.text):
        act = replace(act, label="family", aspect=Aspect.FAMILY)  # 'got any kin here?'
    act = _as_place_question(act)
    planner = PLANNERS.get(act.label) or ASPECTS.get(act.aspect)
    text = planner(ctx, act, seed) if planner else ""
    if not text and act.aspect is not Aspect.GENERAL and act.label in PLANNERS:
        aspect_planner = ASPECTS.get(act.aspect)
        text = aspect_planner(ctx, act, seed) if aspect_planner else ""
    if act.second and act.asks and (not text or (act.deep and not act.follow_up)):
        text = _better_reading(act, text, _second_reading(ctx, act, seed), ctx)
    if not text and not (act.aspect is Aspect.EVENT and (act.follow_up or act.intent)):
        # an event of the town's that one has not heard of is not answered with whatever
        # memory shares a word ('... the party at Hobbs Cafe?' 'No, I write at Hobbs Cafe')
        text = from_retrieval(ctx, act)
    if act.wh is Wh.YESNO and text and not text.startswith(DONT_KNOW):
        text = with_polarity(text, polarity(ctx, act, seed))
    if state is not None and text and state.has_said(text):
        part = _part_asked(act.wh, text, ctx) if act.follow_up else ""
        text = part or _another_way(ctx, act, seed, text)
    if text:
        return Reply(text, fallback=text.startswith(DONT_KNOW))
    return _dont_know(ctx, act, state)


def _better_reading(
    act: Act, first: str, second: str, ctx: AgentContext | None = None
) -> str:
    """Of the answers under the two readings of a line the vote found close, the one
    whose meaning is nearer the question's, when the first's is far from it: an answer
    about one's hours of sleep fits 'how much kip do you get?' (0.36) better than one
    about one's job (0.25). Only for lines the sentence model read (the visitor's,
    interviews'), and not for a follow-up, whose words lack the topic its answer is about
    ('Who's putting it on?' after the party)."""
    if not second or second == first:
        return first
    if not first:
        return second
    if ctx is not None and not _gives(act.wh, first, ctx) and _gives(act.wh, second, ctx):
        return second  # 'Who are the folks you come home to?' wants people, not one's hours
    model = sentence_embedder()
    if model is None:
        return first
    q, a, b = model.embed([act.text, first, second])
    near_first, near_second = float(a @ q), float(b @ q)
    if near_first >= ON_TOPIC:  # the first answer is about what was asked: it stands
        return first
    return second if near_second > near_first + RERANK else first


def _gives(wh: Wh, text: str, ctx: AgentContext) -> bool:
    """Whether an answer is of the kind its wh-word asks for: people for 'who' (a name one
    knows, kin, or nobody), a time for 'when', a place for 'where'; any answer for the
    rest."""
    if wh is Wh.WHO:
        me = ctx.persona
        known = {first_name(n) for n in [*me.household, *(k.name for k in me.acquainted),
                                         *(n for n, _ in me.relationships)]}  # fmt: skip
        return bool(known & set(re.findall(r"[A-Z][a-z]+", text))) or bool(_PEOPLE.search(text))
    if wh is Wh.WHEN:
        return bool(_TIME_SAID.search(text))
    if wh is Wh.WHERE:
        places = [*ctx.known_places, *(a.name for a in ctx.sectors)]
        return any(p in text for p in places) or bool(_PLACE_SAID.search(text))
    return True


_PEOPLE = re.compile(r"\b(?:nobody|no one|alone|on my own|by myself|my (?:wife|husband|son|"
                     r"daughter|parents|mother|father|mum|mom|dad|family|partner|friends?|"
                     r"brother|sister|kids|children|roommates?|housemates?))\b", re.I)  # fmt: skip
_TIME_SAID = re.compile(r"\b(?:\d{1,2}(?::\d{2})? ?(?:am|pm)|noon|midnight|morning|afternoon|"
                        r"evening|night|tonight|today|tomorrow|yesterday|monday|tuesday|"
                        r"wednesday|thursday|friday|saturday|sunday|o'clock)\b", re.I)  # fmt: skip
_PLACE_SAID = re.compile(r"\b(?:at home|at my|in my|at the|in the|on the)\b", re.I)
ON_TOPIC = 0.35  # an answer this near its question answers it ('lunch at 1 pm': 0.45)
RERANK = 0.05  # how much nearer the question the second reading's answer must be


def _second_reading(ctx: AgentContext, act: Act, seed: int) -> str:
    """The runner-up reading of the line, when the first found nothing to say: 'what could
    you talk about for hours?' read as about talk finds no conversation, read as about
    one's interests it finds them."""
    label = LABELS.get(act.second)
    if label is None or label.follow:
        return ""
    other = replace(act, label=label.name, aspect=label.aspect, second="")
    planner = PLANNERS.get(other.label) or ASPECTS.get(other.aspect)
    return planner(ctx, other, seed) if planner else ""


# what a question about eating may be read as (a meal's time reads as a plan question)
_MEAL_ASPECTS = frozenset({Aspect.PLANS, Aspect.ROUTINE, Aspect.DOING})
_EATS = re.compile(r"\b(?:eat|eating|ate|breakfast|brunch|lunch|lunchtime|dinner|dinnertime|"
                   r"supper|meal|bite to eat|grab a bite)\b", re.I)  # fmt: skip
# a meal that tells a time ('any plans between lunch and dinner?'), not what is eaten
_MEAL_AS_TIME = re.compile(r"\b(?:between|before|after|until|till|since)\s+(?:your\s+|my\s+)?"
                           r"(?:breakfast|brunch|lunch|lunchtime|dinner|dinnertime|supper)\b",
                           re.I)  # fmt: skip
# what a question naming kin may be read as, when the exemplars miss it
_KIN_ASPECTS = frozenset({Aspect.GENERAL, Aspect.IDENTITY, Aspect.FRIENDS})
# what a question naming a trouble may be about ('when you're not working' is about work)
_TROUBLE_ASPECTS = frozenset({Aspect.GENERAL, Aspect.OBJECT, Aspect.HOME})
# ... whatever it seems about, when it supposes the trouble ('If your fridge stopped working,
# who would come and fix it?' is no question about shopping)
_SUPPOSED = re.compile(r"\b(?:if|suppose|supposing|imagine|let's say|say that|what if|in case|"
                       r"were to|should (?:your|the|a|my))\b", re.I)  # fmt: skip


def _as_place_question(act: Act) -> Act:
    """A yes/no question naming a place asks about the place ('Can you get lunch at Hobbs
    Cafe?' is not about one's lunch), and one that asks only how often one goes there asks
    whether one is a regular."""
    if not act.place or act.wh is not Wh.YESNO or act.aspect not in (Aspect.PLACE, Aspect.PAST):
        return act
    if act.label in _OF_THE_PLACE:  # 'Is Hobbs Cafe open now?' asks its hours already
        return act
    asked = content_stems(_without_place(act))
    label = "place.regular" if asked <= _VISIT_WORDS else "place.about"
    return replace(act, label=label, aspect=Aspect.PLACE)


_OF_THE_PLACE = frozenset({"place.hours"})
_VISIT_WORDS = frozenset(content_stems(
    "go often visit regular come usually frequently much lot lots there spend spent time "
    "times hang hanging out frequent drop pop stop by ever been week day days every most "
    "part usual routine daily regularly"))  # fmt: skip


def _without_place(act: Act) -> str:
    return act.text.replace(act.place, " ") if act.place else act.text


def said_dont_know(state: DialogueState | None, me: str) -> bool:
    return state is not None and any(t.startswith(DONT_KNOW) for t in state.lines_of(me))


def _dont_know(ctx: AgentContext, act: Act, state: DialogueState | None) -> Reply:
    """Honest and in character; a second time in one conversation, a question back."""
    me = ctx.persona
    if said_dont_know(state, me.name):
        cares = me.interests[0] if me.interests else "this town"
        return Reply(f"Hm, you've got me again. What made you ask? I'd sooner talk {cares}.",
                     fallback=True)  # fmt: skip
    said = act.named or act.person or act.place or act.obj
    if not said and act.aspect in _ABOUT_THINGS:  # 'the bake sale', not 'sort person say'
        said = act.event
    topic = f" about {said}" if said and len(said.split()) <= 4 else ""
    if act.named and act.aspect is Aspect.EVENT:
        topic = f" about a {as_said(act.named, act.text)} or anything like it"
    if act.wh is Wh.WHERE and act.asks and not (act.person or act.place or act.obj):
        # 'Where can a person get a haircut?': no place in town is for it
        return Reply("I don't know of anywhere in town for that, I'm afraid.", True)
    if me.interests:
        cares = join_and([mine(i, me) for i in me.interests[:2]])
        return Reply(f"I don't know anything{topic}, to be honest. Ask me about {cares}!", True)
    return Reply(f"I don't know anything{topic}, I'm afraid.", True)


_ABOUT_THINGS = frozenset({Aspect.GENERAL, Aspect.NEWS, Aspect.EVENT, Aspect.OBJECT})


def as_said(named: str, text: str) -> str:
    """The words that named something, as the speaker wrote them: the stretch of the line
    from the first of them to the last ('Valentine's Day party', not the lower-cased
    'valentine's party' the slots hold), or the words as they are when the line does not
    hold them close together."""
    found = [m for w in named.split()
             if (m := re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.I))]  # fmt: skip
    starts = [m.start() for m in found]
    if len(found) != len(named.split()) or starts != sorted(starts):
        return named
    start, end = min(m.start() for m in found), max(m.end() for m in found)
    stretch = text[start:end]
    return stretch if len(stretch.split()) <= len(found) + 2 else named


def _part_asked(wh: Wh, said: str, ctx: AgentContext) -> str:
    """A follow-up whose answer was said already ('Oh yeah? And which place would that
    be?' after one's plan for tonight): the part of it the wh-word asks for, alone ('At
    home.'), rather than the whole again."""
    found = ""
    if wh is Wh.WHERE:
        names = sorted({*ctx.known_places, *(a.name for a in ctx.sectors)}, key=len, reverse=True)
        spots = [(said.find(n), f"at {n}") for n in names if n in said]
        spots += [(m.start(), m.group(0)) for m in _HOME_SAID.finditer(said)]
        found = min(spots)[1] if spots else ""
    elif wh is Wh.WHEN:
        m = _SPAN_SAID.search(said)
        found = m.group(0) if m else ""
    elif wh is Wh.WHO:
        me = ctx.persona
        known = [first_name(n) for n in [*me.household, *(k.name for k in me.acquainted),
                                         *(n for n, _ in me.relationships)]]  # fmt: skip
        named = sorted({n for n in known if re.search(rf"\b{re.escape(n)}\b", said)},
                       key=said.find)  # fmt: skip
        found = join_and(named[:3]) if named else ""
    return f"{found[:1].upper()}{found[1:]}." if found else ""


_HOME_SAID = re.compile(r"\bat (?:home|my (?:house|apartment|flat|place))\b")
_SPAN_SAID = re.compile(r"\b(?:(?:from|between|around|at|by) )?\d{1,2}(?::\d{2})? ?(?:am|pm)"
                        r"(?:(?: to | and |-)\d{1,2}(?::\d{2})? ?(?:am|pm))?")  # fmt: skip


def _another_way(ctx: AgentContext, act: Act, seed: int, said: str) -> str:
    """The same question again in one conversation: the answer stands, said shorter."""
    first = said.split(". ")[0].rstrip(".")
    me = ctx.persona
    names = {w for n in [me.name, *me.household, *(k.name for k in me.acquainted),
                         *(n for n, _ in me.relationships), *ctx.known_places]
             for w in n.split()}  # fmt: skip
    keep = first.startswith(("I ", "I'")) or first.split(" ", 1)[0] in names  # a name stays
    lead = pick(("Like I said,", "As I said,", "Again,"), seed, ctx.persona.name, act.text)
    return f"{lead} {first if keep else first[:1].lower() + first[1:]}."


# -- yes or no --------------------------------------------------------------------------------
Polar = Callable[[AgentContext, Act, int], "bool | None"]
_POLAR_START = re.compile(
    r"^\W*(?:yes|yeah|no|nope|not|nobody|never|of course|sure|i do|i don't|i'm not|i am|i did|"
    r"i didn't|i haven't|i have|can't say|hmm, not)\b",
    re.I,
)
_RUN_ON = frozenset({"there", "it", "the", "not", "usually", "most", "according", "probably",
                     "last", "later", "nobody", "yesterday", "today", "my", "that's", "around",
                     "a", "an", "we", "they", "this", "by", "as", "mostly", "well", "that",
                     "someone", "nothing", "from", "in", "on", "at", "once", "all",
                     "everything", "everyone", "everybody", "anything", "something", "some",
                     "just", "only", "still", "sometimes", "often", "right", "now", "of",
                     "quite", "pretty", "definitely", "sure", "every", "each"})  # fmt: skip


_NONE_START = re.compile(r"^\W*(?:nothing|no one|none|nowhere)\b", re.I)


def with_polarity(text: str, yes: bool | None) -> str:
    """A yes/no question is answered yes or no first, then with the fact that makes it so
    ('Do you live alone?' 'No, I live with ...')."""
    if yes is None or _POLAR_START.match(text):
        return text
    if _NONE_START.match(text):  # 'Nothing much, it's been quiet' is a no, never a yes
        return text if yes else f"No, {text[:1].lower()}{text[1:]}"
    first = text.split(" ", 1)[0].strip(",.!").lower().split("'")[0]
    common = first in _RUN_ON or first.endswith(("ing", "ly"))  # 'Getting on', 'Mostly'
    rest = text[:1].lower() + text[1:] if common else text
    return f"{'Yes' if yes else 'No'}, {rest}"


def polarity(ctx: AgentContext, act: Act, seed: int) -> bool | None:
    """Whether the answer to a yes/no question is yes, from the same persona, plan and
    memories the answer is planned from (None: the planner's words say it themselves)."""
    fn = POLARITY.get(act.label) or POLAR_ASPECTS.get(act.aspect)
    return fn(ctx, act, seed) if fn is not None else None


def _early(me, act: Act) -> bool:
    """'A morning person?' yes for an early riser; 'a night person?' yes for a late sleeper."""
    if act.window is not None and act.window.start.hour >= 17:
        return not 4 * 60 <= me.sleep < 23 * 60
    return me.wake <= 7 * 60


_ALONE = re.compile(r"\b(?:alone|by (?:your|one)self|on your own|just you|only you)\b", re.I)
_OTHERS = re.compile(
    r"\b(?:anyone|anybody|someone|somebody|with|share|shares|family|room-?mates?|"
    r"housemates?|flatmates?|partner|kids|children)\b",
    re.I,
)
_LIVES = frozenset(content_stems("live lives living home house"))


def _home_yes(ctx: AgentContext, act: Act) -> bool:
    """Asked whether one lives alone, yes if nobody shares one's home; whether someone
    lives with one, yes if somebody does; whether one lives here, in town, yes."""
    if _ALONE.search(act.text):
        return not _housemates(ctx)
    if _OTHERS.search(act.text):
        return bool(_housemates(ctx))
    indoors = bool(ctx.location)  # on the street, 'here' is the town
    if indoors and _THIS_BUILDING.search(act.text) and not _IN_TOWN.search(act.text):
        return ctx.location.split(":")[0] == ctx.persona.home  # 'do you live here?' indoors
    return True


# 'here' said indoors is the building one is in, unless the town is named
_THIS_BUILDING = re.compile(r"\b(?:here|this (?:very )?(?:place|building|house|flat|apartment))\b",
                            re.I)  # fmt: skip
_IN_TOWN = re.compile(r"\b(?:in|round|around) (?:town|here|these parts|the area|smallville)\b|"
                      r"\bthis (?:town|area|neighbourhood|neighborhood)\b", re.I)  # fmt: skip


def _housemates(ctx: AgentContext) -> list[str]:
    return [n for n in ctx.persona.household if n != ctx.persona.name]


def _regular_at(ctx: AgentContext, place: str) -> bool:
    return any(b.place.split(":")[0] == place for b in ctx.persona.routine)


def _place_serves(ctx: AgentContext, act: Act, seed: int) -> bool | None:
    """'Can you eat at Hobbs Cafe?': the place the planner would choose for the asked
    activity is that place, or one of its kind."""
    if not act.place:
        return None
    asked = content_stems(_without_place(act))
    if asked <= _VISIT_WORDS:
        return _regular_at(ctx, act.place)
    me = ctx.persona
    if act.place == me.workplace and asked & (_STUDY_WORDS | content_stems(me.occupation)):
        return True  # 'Are you studying at Oak Hill College?' of its student
    where = places.Directory.of(ctx)
    roles = {act.place: where.role(act.place)}
    return places.serves(ctx.persona, _without_place(act), act.place, roles, where)


def _trouble_where(ctx: AgentContext, act: Act) -> str:
    here = ctx.location.split(":")[0]
    if act.place:
        return act.place
    return here if _HERE.search(act.text) and here else ctx.persona.home


_HERE = re.compile(r"\b(?:here|this place|is this|this is)\b", re.I)


_FINE = re.compile(r"\b(?:working|fine|okay|ok|all right|alright|in order|good)\b", re.I)
_NOT = re.compile(r"n't\b|\bnot\b|\bbroken\b|\bwrong\b|\bneed", re.I)


def _trouble_yes(ctx: AgentContext, act: Act) -> bool:
    """'Is anything broken?' yes if something was last seen in trouble; 'is everything
    working?' yes if nothing was."""
    bad = bool(troubles_now(ctx, _trouble_where(ctx, act)))
    return not bad if _FINE.search(act.text) and not _NOT.search(act.text) else bad


def troubles_now(ctx: AgentContext, sector: str) -> list[MemoryRecord]:
    """What one last saw in trouble in `sector`: each object's latest state, if a trouble."""
    latest: dict[str, MemoryRecord] = {}
    for m in ctx.memories:
        f = m.fact
        inside = f.kind is FactKind.OBJECT_STATE and (f.address or "").startswith(sector + ":")
        if inside and (f.address not in latest or latest[f.address].created < m.created):
            latest[f.address] = m
    return [m for m in latest.values() if iv.trouble(m.fact.state) is not None]


def _work_matches(ctx: AgentContext, act: Act, seed: int) -> bool | None:
    """'Are you a student?', 'Do you work at the cafe?': the asked words against one's
    occupation and workplace; asked of the job itself ('Do you like it?'), yes."""
    me = ctx.persona
    if _HERE.search(act.text):
        return _at_work(ctx, act, seed)
    if act.place:
        return act.place == me.workplace
    asked = content_stems(_without_place(act)) - _WORK_WORDS
    if asked & _LIVES:  # 'do you work where you live?', '... from home?'
        return me.workplace == me.home
    if not asked - _ANY_JOB:
        return True  # 'Are you employed somewhere?', 'Do you like your boss?'
    return bool(asked & content_stems(f"{me.occupation} {me.workplace}"))


# words of working that name no job ('are you employed somewhere?', 'do you like your
# boss?'): what is left of a yes/no of work after them is what the occupation may gainsay
_ANY_JOB = frozenset(content_stems(
    "employed somewhere anywhere boss bosses colleague colleagues coworkers paid pay money "
    "busy hard full part time day days week weekdays still currently right now place"))


_WORK_WORDS = frozenset(content_stems("work job like enjoy love happy working jobs career"))
_STUDY_WORDS = _WORK_WORDS | frozenset(content_stems("study studying student students class "
                                                     "classes course teach employed"))  # fmt: skip


def _at_work(ctx: AgentContext, act: Act, seed: int) -> bool | None:
    """'Is this where you work?' yes at one's workplace; 'is this your place?' yes there
    or at home (a cafe owner's place is the cafe, anyone's is their home)."""
    me, here = ctx.persona, ctx.location.split(":")[0]
    if content_stems(act.text) & _LIVES:  # 'Do you work in the same place where you live?'
        return me.workplace == me.home
    if act.place and not _HERE.search(act.text):  # 'Are you one of the college's students?'
        return act.place == me.workplace
    if _YOUR_PLACE.search(act.text):
        return here in (me.home, me.workplace)
    return bool(me.workplace) and here == me.workplace


_YOUR_PLACE = re.compile(r"\byour (?:own )?(?:place|home|house|flat|apartment)\b", re.I)


def _event_yes(ctx: AgentContext, act: Act, seed: int) -> bool | None:
    found = event_facts(ctx, act)
    event = next((e for _, e in found if e is not None), None)
    if act.label in ("event.know", "news", "statement.event"):
        return bool(found) if act.intent else bool(found or _any_event(ctx))
    if event is None:
        return None
    if event.end <= ctx.now:
        return _went(ctx, event, act.intent)
    return going(ctx, event, seed)


def _knows(ctx: AgentContext, act: Act, seed: int) -> bool | None:
    if not act.person or act.person == ctx.persona.name:
        return None
    return bool(ctx.persona.relation_to(act.person) or iv._memories_naming(ctx, act.person))


def _close_to(ctx: AgentContext, act: Act, seed: int) -> bool | None:
    if not act.person or act.person == ctx.persona.name:
        return None
    return bool(ctx.persona.relation_to(act.person)) and not dislikes(ctx.persona, act.person)


def _open_now(ctx: AgentContext, act: Act, seed: int) -> bool | None:
    """'Is the pharmacy open now?': by the map's hours at this minute."""
    area = next((a for a in ctx.sectors if a.name == act.place), None)
    return None if area is None else area.is_open(ctx.now.hour * 60 + ctx.now.minute)


POLARITY: dict[str, Polar] = {
    "home": lambda ctx, act, seed: _home_yes(ctx, act),
    "home.alone": lambda ctx, act, seed: not _housemates(ctx),
    "routine.early": lambda ctx, act, seed: _early(ctx.persona, act),
    "routine.late": lambda ctx, act, seed: not 4 * 60 <= ctx.persona.sleep < 23 * 60,
    "place.regular": lambda ctx, act, seed: _regular_at(ctx, act.place) if act.place else None,
    "place.about": _place_serves,
    "place.hours": _open_now,
    "object.state": lambda ctx, act, seed: _trouble_yes(ctx, act),
    "person.about": _knows,
    "person.opinion": _close_to,
    "person.talk": lambda ctx, act, seed: _talked_with(ctx, act),
    "work": _work_matches,
    "work.here": _at_work,
    "friends": lambda ctx, act, seed: bool(ctx.persona.relationships),
    "family": lambda ctx, act, seed: _has_kin(ctx, act, seed),
}
def _talked_with(ctx: AgentContext, act: Act) -> bool | None:
    """'Ever had a word with Abigail?': yes if one remembers talking with them, or is close
    to them (None: the answer's 'I haven't talked with Abigail lately' says it)."""
    if not act.person:
        return None
    talks = any(m.fact.kind is FactKind.CONVERSATION and act.person in m.fact.participants
                for m in ctx.memories)  # fmt: skip
    return True if talks or ctx.persona.relation_to(act.person) is not None else None


POLAR_ASPECTS: dict[Aspect, Polar] = {Aspect.EVENT: _event_yes, Aspect.NEWS: _event_yes}


# -- what retrieval found ----------------------------------------------------------------------


def from_retrieval(ctx: AgentContext, act: Act) -> str:
    """The best retrieved fact that shares the question's content words (retrieval ranked
    them by recency, importance and relevance), in the first person and tense."""
    wanted = content_stems(act.event or act.text)
    if not wanted:
        return ""
    for m in ctx.memories:
        line = _fact_line(ctx, m, wanted)
        if line:
            return line
    return ""


def _fact_line(ctx: AgentContext, m: MemoryRecord, wanted: set[str]) -> str:
    me = ctx.persona
    fact = m.fact
    if fact.private or is_private(m.text) or not wanted & content_stems(m.text):
        return ""
    if fact.kind is FactKind.CLAIM and fact.source in (Source.VISITOR, Source.NOTICE):
        return _claim_line(ctx, m)
    if fact.kind is FactKind.DOING and m.created < ctx.now - timedelta(minutes=30):
        return _did_line(ctx, m)  # what was being done then, in the past
    for s in facts_in(m, me):
        if s.fact.event is not None:
            return event_line(ctx, s.fact.event, s.text, s.source, s.fact.intent, Wh.NONE)
        if s.subject == me.name:
            return first_person(s.text, me) + "."
        if s.source:
            return f"{first_name(s.source)} told me that {s.text}."
        return f"As far as I know, {s.text}."
    if fact.kind is FactKind.DOING and fact.subject == me.name:
        return f"I was {mine(fact.object, me)} {iv._when(ctx.now, m.created)}."
    return ""


def _did_line(ctx: AgentContext, m: MemoryRecord) -> str:
    f, me = m.fact, ctx.persona
    when = iv._when(ctx.now, m.created)
    if f.subject == me.name:
        return f"I was {mine(f.object, me)} {when}."
    if f.subject and f.source is Source.SEEN:
        return f"I saw {first_name(f.subject)} {f.object} {when}."
    return f"I heard {first_name(f.subject)} was {f.object} {when}." if f.subject else ""


def _claim_line(ctx: AgentContext, m: MemoryRecord) -> str:
    """A visitor's words or a notice, quoted as what they are: someone else's claim."""
    who = _source_words(m)
    said = m.fact.object.strip().rstrip(".!")
    event = m.fact.event
    if event is not None and event.end <= ctx.now:
        day = _day(ctx.now, event.start)
        return f'{who} told me "{said}". That was {day}, so it\'s over now.'
    return f'{who} told me "{said}". I haven\'t checked it myself.'


def _source_words(m: MemoryRecord) -> str:
    if m.fact.source is Source.NOTICE:
        return f"A notice on {m.fact.heard_from}" if m.fact.heard_from else "A notice"
    heard = m.fact.heard_from
    if m.fact.source is Source.VISITOR:
        return "A visitor" if not heard or "visitor" in heard.lower() else f"{heard}, a visitor,"
    return first_name(heard) or "Someone"


# -- events ------------------------------------------------------------------------------------


def event_facts(ctx: AgentContext, act: Act) -> list[tuple[MemoryRecord, Event | None]]:
    """Memories about the event asked of: by intent id, else claims and facts naming an
    event whose words the question shares, in retrieval order."""
    found = []
    wanted = content_stems(act.event) if act.event else set()
    for m in ctx.memories:
        f = m.fact
        if f.private or is_private(m.text):
            continue
        by_id = bool(act.intent) and f.intent == act.intent
        dated = f.event is not None or f.kind is FactKind.CLAIM
        by_words = not act.intent and bool(wanted & content_stems(m.text)) and dated
        if by_id or by_words:
            found.append((m, f.event))
    return found


def plan_event(ctx: AgentContext, act: Act, seed: int) -> str:
    """An event: who, what, where, when as retrieval and the fields hold it; past tense
    once it has ended; whether one goes from one's own answer and plan."""
    found = event_facts(ctx, act)
    lead = ""
    opinion = act.kind is ActKind.OPINION or act.label.endswith("opinion")
    if not found and not act.intent and not (opinion and act.event):
        found = _any_event(ctx)
        named = act.named or (act.event and len(act.event.split()) <= 2)
        event_words = act.aspect is Aspect.EVENT and not act.follow_up and named
        if found and act.event and not event_words and act.label != "event.know":
            return ""  # a question about something else: no stray event for an answer
        what = act.named or act.event
        lead = f"I haven't heard of any {what}, but " if found and event_words else ""
    if not found:
        return ""
    line = _plan_event(ctx, act, seed, found)
    return lead + line[:1].lower() + line[1:] if lead and line else line


def _plan_event(ctx: AgentContext, act: Act, seed: int, found) -> str:
    event = next((e for _, e in found if e is not None), None)
    best = max(found, key=lambda x: (x[1] is not None, x[0].importance, x[0].created))[0]
    if act.label in ("event.going", "follow.going", "invitation"):
        return _going_line(ctx, event, seed, act.intent) if event else ""
    if act.label in ("event.opinion", "follow.opinion") or act.kind is ActKind.OPINION:
        return _event_opinion(ctx, best, event, seed)
    if act.label == "event.who_came" and event is not None:
        return iv._who_came(ctx, act.text, seed) or event_line(ctx, event, "", "", "", Wh.WHO)
    if best.fact.kind is FactKind.CLAIM and best.fact.source in (Source.VISITOR, Source.NOTICE):
        return _claim_line(ctx, best)
    stated = facts_in(best, ctx.persona)
    text = stated[0].text if stated else best.text
    source = stated[0].source if stated else best.fact.heard_from
    if event is None:
        subject = stated[0].subject if stated else ""
        if subject == ctx.persona.name:
            return f"Yes! {first_person(text, ctx.persona)}."
        return _told(source, subject, text)
    return event_line(ctx, event, text, source, best.fact.intent, act.wh, act.text)


def _any_event(ctx: AgentContext) -> list[tuple[MemoryRecord, Event | None]]:
    """'Is anything happening?': the events and public news retrieval brought up."""
    return [(m, m.fact.event) for m in ctx.memories
            if (m.fact.event is not None or m.fact.intent) and not m.fact.private
            and not is_private(m.text) and m.kind.value != "plan"]  # fmt: skip


def _told(source: str, subject: str, text: str) -> str:
    if source and source == subject:
        return f"{text}. {first_name(source)} told me so in person."
    if source:
        return f"{first_name(source)} told me that {text}."
    return f"As far as I know, {text}."


def event_line(
    ctx: AgentContext,
    event: Event,
    text: str,
    source: str,
    intent: str,
    wh: Wh,
    question: str = "",
) -> str:
    """An event in the tense its time calls for, leading with what the question asks."""
    me, now = ctx.persona, ctx.now
    what = event.what or "event"
    host = event.host
    whose = f"{first_name(host)}'s {what}" if host and host != me.name else f"the {what}"
    when = _when_words(now, event)
    asks = _asks(question, wh)
    if source and host != me.name and _ASKS_SOURCE.search(question):  # 'how did you hear?'
        rest = event_line(ctx, event, text, "", intent, wh, "")
        return f"{first_name(source)} told me about it. {rest}"
    if event.end <= now:
        went = _went(ctx, event, intent)
        if host == me.name:
            came = iv._seen_at(ctx, event)
            who = f" {join_and(came)} came, among others." if came else ""
            return f"I hosted the {what} at {event.place} {when}.{who}"
        tail = {True: ", and I went.", False: ", but I didn't go.", None: "."}[went]
        if Wh.WHO in asks and host:
            return f"{host} hosted it: {whose} at {event.place} {when}{tail}"
        if Wh.WHERE in asks or Wh.WHEN in asks:
            return f"It was at {event.place} {when}{tail}"
        return f"There was {whose} at {event.place} {when}{tail}"
    if host == me.name:
        return f"Yes! I'm hosting the {what} at {event.place} {when}. I'd love you to come."
    parts = []
    if Wh.WHO in asks and host:
        parts.append(f"{host} is behind it: {whose} at {event.place}, {when}.")
    elif Wh.WHEN in asks:
        parts.append(f"{whose[:1].upper()}{whose[1:]} is {when}, at {event.place}.")
    elif Wh.WHERE in asks:
        parts.append(f"It's at {event.place}, {when}.")
    else:
        parts.append(f"There's {whose} at {event.place} {when}.")
    if source:
        parts.append(f"{first_name(source)} told me about it.")
    return " ".join(parts)


# a question about how one came to know ('How did news of the party reach you?')
_ASKS_SOURCE = re.compile(r"\b(?:hear|heard|told|tell you|find out|found out|learn|learned|"
                          r"learnt|reach|reached|get wind|got wind|word of|news of|"
                          r"pass(?:ed)? it on)\b", re.I)  # fmt: skip


def _asks(question: str, wh: Wh) -> set[Wh]:
    """Every answer the question wants ('who's behind it, and when?' wants two)."""
    found = {wh}
    low = question.lower()
    for word, kind in (("who", Wh.WHO), ("when", Wh.WHEN), ("what time", Wh.WHEN),
                       ("where", Wh.WHERE), ("what day", Wh.WHEN)):  # fmt: skip
        if word in low:
            found.add(kind)
    if Wh.WHO in found and Wh.WHEN in found:
        found.discard(Wh.WHEN)  # the 'who' line carries the time as well
    return found


def _when_words(now: datetime, event: Event) -> str:
    day = _day(now, event.start)
    return f"{day} from {_clock(event.start)} to {_clock(event.end)}"


def _day(now: datetime, when: datetime) -> str:
    if when.date() == now.date():
        return "today"
    if when.date() == now.date() + timedelta(days=1):
        return "tomorrow"
    if when.date() == now.date() - timedelta(days=1):
        return "yesterday"
    return f"on {when:%A}, {when:%B} {when.day}"


def _clock(when: datetime) -> str:
    return selfknow.clock(when.hour * 60 + when.minute)


def _went(ctx: AgentContext, event: Event, intent: str) -> bool | None:
    """Whether one went to an ended event, from what one remembers doing while it ran: yes
    if there, no if elsewhere or one had declined, None if the memories at hand do not say
    (retrieval brings what the question is about, not always one's whole evening)."""
    me = ctx.persona.name
    during = [m for m in ctx.memories if m.fact.kind is FactKind.DOING
              and m.fact.subject == me and event.start <= m.created < event.end]  # fmt: skip
    if any((intent and m.fact.intent == intent) or event.place in (m.fact.address or m.text)
           for m in during):  # fmt: skip
        return True
    if during or rsvp_of(ctx.memories, event) is Rsvp.DECLINED:
        return False
    return None


def going(ctx: AgentContext, event: Event, seed: int) -> bool:
    """Whether one goes: one's own answer first, then one's plan, then temperament."""
    answer = rsvp_of(ctx.memories, event)
    if answer is not None:
        return answer is not Rsvp.DECLINED
    return attends(ctx.persona, event, seed)


def _going_line(ctx: AgentContext, event: Event, seed: int, intent: str = "") -> str:
    what = event.what or "event"
    if event.end <= ctx.now:
        went = _went(ctx, event, intent)
        if went is None:
            return f"The {what} was {_day(ctx.now, event.start)} at {event.place}."
        return f"I did, yes; the {what} was lovely." if went else f"No, I missed the {what}."
    when = _when_words(ctx.now, event)
    if event.host == ctx.persona.name:
        return f"Of course, it's mine! The {what} is at {event.place} {when}."
    if going(ctx, event, seed):
        return f"Yes, I'll be at the {what} at {event.place} {when}."
    reason = _rsvp_reason(ctx, event)
    return f"No, I won't make it to the {what}.{reason}"


def _rsvp_reason(ctx: AgentContext, event: Event) -> str:
    for m in ctx.memories:
        if m.fact.rsvp is Rsvp.DECLINED and m.fact.event == event and m.fact.object:
            return f" {m.fact.object[:1].upper()}{m.fact.object[1:].rstrip('.')}."
    return ""


def _ended_opinion(ctx: AgentContext, event: Event, seed: int, intent: str = "") -> str:
    """What one thinks of an event that is over: as host, as a guest, or having missed it
    (whether one went is read as `_going_line` reads it, so the two never disagree)."""
    what, me = event.what or "event", ctx.persona
    if event.host == me.name:
        return f"I think the {what} went well; I was glad so many people came."
    went = _went(ctx, event, intent)
    if went:
        return pick((f"I enjoyed the {what}; it was a lovely evening.",
                     f"The {what} was fun; I'm glad I went."), seed, me.name)  # fmt: skip
    if went is False:
        return f"I missed the {what}, but I heard it went well."
    return f"The {what} was {_day(ctx.now, event.start)}; people seemed to like it."


def _event_opinion(ctx: AgentContext, m: MemoryRecord, event: Event | None, seed: int) -> str:
    me = ctx.persona
    stated = facts_in(m, me)
    subject = stated[0].subject if stated else m.fact.subject
    if event is not None and event.end <= ctx.now:
        return _ended_opinion(ctx, event, seed, m.fact.intent)
    if subject == me.name or (event is not None and event.host == me.name):
        return "It matters a lot to me, so of course I'm all for it."
    if event is None:
        if subject and dislikes(me, subject):
            return f"I don't think {first_name(subject)} is the right person for it, frankly."
        who = first_name(subject) if subject else "them"
        return pick(
            (
                f"I'd give {who} a fair hearing; I'm curious how it turns out.",
                f"I lean towards {who}, but I want to hear more first.",
            ),
            seed,
            me.name,
        )
    if going(ctx, event, seed):
        return f"I think it'll be fun, and I'm planning to go to the {event.what or 'event'}."
    return "It sounds nice, but it's not really for me."


# -- people, places, objects -------------------------------------------------------------------


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
    return iv._who_is(ctx, f"who is {act.person}", seed)


def plan_find(ctx: AgentContext, act: Act, seed: int) -> str:
    """'Anyone around here who's into podcasts?': someone one has seen doing it, or whose
    relationship to one names it; else an honest no."""
    me = ctx.persona
    asked = content_stems(act.event or act.text) - _FIND_WORDS
    if not asked:
        return ""
    for m in sorted(ctx.memories, key=lambda m: m.created, reverse=True):
        f = m.fact
        if f.kind is FactKind.DOING and f.subject not in ("", me.name) and f.source is Source.SEEN \
                and asked & content_stems(f.object):  # fmt: skip
            when = iv._when(ctx.now, m.created)
            return f"Yes, {first_name(f.subject)} is; I saw them {f.object} {when}."
    for name, relation in me.relationships:
        if asked & content_stems(relation):
            return f"Yes, {first_name(name)}: {relation_in_first_person(relation, me)}."
    where = ctx.location.split(":")[0] if ctx.location else ""
    ask = f" You could ask around {where}." if where and where != me.home else ""
    thing = " ".join(w for w in (act.event or "").split() if not content_stems(w) <= _FIND_WORDS)
    return f"No, nobody I know is into {thing}.{ask}" if thing else f"No, nobody I know.{ask}"


_FIND_WORDS = frozenset(content_stems("anyone anybody someone into interested keen likes enjoys "
                                      "around here know town who does people"))  # fmt: skip


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


def plan_identity(ctx: AgentContext, act: Act, seed: int) -> str:
    """Who one is, and where one lives: the persona, never a guess."""
    intro = iv._intro(ctx, act.text, seed)
    return f"{intro} I live at {selfknow.home_phrase(ctx.persona)}, here in town."


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
    return f"{hours}, so {now}."


def plan_place(ctx: AgentContext, act: Act, seed: int) -> str:
    """A place: what it is to oneself (home, work, a haunt), and what one knows on there."""
    me, place = ctx.persona, act.place
    if not place:
        return plan_where_to(ctx, act, seed)
    if act.wh is Wh.WHO:
        return _seen_at_place(ctx, place)
    parts = []
    if place == me.home:
        parts.append(f"That's my home, {selfknow.home_phrase(me)}.")
    elif place == me.workplace:
        parts.append(f"I work there: I'm {iv.article(me.occupation)}.")
    elif place in me.known_places or place in ctx.known_places:
        usual = next((b for b in me.routine if b.place.split(":")[0] == place), None)
        if usual is not None:
            when = f"around {selfknow.clock(usual.start)}"
            parts.append(f"I go there most days {when}, {mine(usual.activity, me)}.")
        else:
            parts.append(f"I know {place}, but I only go there now and then.")
    else:
        parts.append(f"I know where {place} is, but I don't go there much.")
    events = [k.event for k in remembered_events(ctx.memories) if k.event.place == place]
    if events and act.label != "place.regular":
        e = max(events, key=lambda x: x.start)
        parts.append(event_line(ctx, e, "", "", "", Wh.NONE))
    return " ".join(parts)


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
    staff = _staff_of(me, place, {n for n, _ in known})
    if place == me.workplace:
        mine_too = f"I work there myself: I'm {iv.article(me.occupation)}."
        return " ".join(x for x in (mine_too, _belong(known, me), staff) if x)
    if known or staff:
        return " ".join(x for x in (_belong(known, me), staff) if x)
    if not counts:
        return f"I can't say I've noticed who's usually at {place}."
    names = sorted(counts, key=lambda n: (-counts[n], n))[:3]
    return f"I usually see {join_and([first_name(n) for n in names])} at {place}."


def _staff_of(me, place: str, named: set[str]) -> str:
    """Those one knows of who work at `place` ('Isabella is the owner of Hobbs Cafe.'),
    from what one knows of one's acquaintances, beyond those already `named`."""
    staff = [k for k in me.acquainted if k.workplace == place and k.name not in named]
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


def plan_nearby(ctx: AgentContext, act: Act, seed: int) -> str:
    """Who is around: the people one has seen lately where one is now."""
    me, here = ctx.persona, ctx.location.split(":")[0]
    recent = ctx.now - timedelta(minutes=30)
    seen = [m.fact.subject for m in sorted(ctx.memories, key=lambda m: m.created, reverse=True)
            if m.fact.kind is FactKind.DOING and m.fact.source is Source.SEEN
            and m.created >= recent and m.fact.subject != me.name]  # fmt: skip
    seen = list(dict.fromkeys(seen))[:4]
    where = f" here at {here}" if here and here != me.home else ""
    if not seen:
        return f"Nobody but me{where}, as far as I've noticed."
    return f"I've seen {join_and([first_name(n) for n in seen])} around{where} just now."


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


_THING = re.compile(r"\b(?:your|the|a|my) ((?!place\b|home\b|house\b)[a-z]+(?: [a-z]+){0,2})",
                    re.I)  # fmt: skip


def _thing_in(act: Act) -> str:
    """The thing a trouble question is about: the town's object it names, else a word
    after 'your' or 'the' that the object-state table knows as a thing ('pan', 'oven',
    'chair'); '' for none ('a blackout', 'the power')."""
    if act.obj:
        return act.obj.split(":")[-1]
    table = vocabulary()
    for found in _THING.finditer(act.text):
        said = found.group(1).lower().split()
        for n in range(1, len(said) + 1):  # 'a frying pan', 'your kitchen tap'
            if table.kind_of(said[n - 1]):
                return " ".join(said[:n])
    return ""


def plan_what_if(ctx: AgentContext, act: Act, seed: int) -> str:
    """'What would you do if your bed broke?': the fix the troubles table gives for it,
    and whom one would turn to (one's household first) if one could not do it alone. A
    question read as about trouble that names none ('when something goes wrong at home,
    who sorts it out?') gets the fix of something broken."""
    found = troubles.trouble(act.text)
    if found is None and act.label == "object.trouble":
        found = troubles.trouble("broken")
    if found is None:
        return ""
    verb, _, rest = found.fix(_thing_in(act)).partition(" ")
    base = iv.GERUND_BASE  # 'light a candle and check the fuse box', not '... and checking'
    rest = re.sub(r"\band (\w+ing)\b", lambda m: f"and {base.get(m.group(1), m.group(1))}", rest)
    fix = f"{iv.GERUND_BASE.get(verb, verb.removesuffix('ing'))} {rest}".strip()
    others = _housemates(ctx)
    helper = f"ask {first_name(others[0])} to help" if others else "call a repair person in"
    if found.importance >= 9:
        return f"I'd {fix} straight away and call for help if it spread."
    if act.wh is Wh.WHO:
        return f"I'd try to {fix} myself first; if I couldn't, I'd {helper}."
    return f"I'd {fix} myself, and if I couldn't, I'd {helper}."


def plan_object(ctx: AgentContext, act: Act, seed: int) -> str:
    if act.label == "fridge":
        return selfknow.empty_fridge(ctx, act.text, seed)
    if act.label == "object.trouble" and act.wh is Wh.WHERE:
        return plan_where_to(ctx, act, seed)  # 'where would you buy a new one?'
    if act.label == "object.trouble" and act.wh is not Wh.YESNO:
        said = plan_what_if(ctx, act, seed)
        if said:
            return said
    if act.label == "object.trouble" or (
        act.label != "object.state" and iv.trouble(act.text) is not None
    ):
        return iv._emergency(ctx, act.text, seed)
    seen = [m for m in ctx.memories if m.fact.kind is FactKind.OBJECT_STATE
            and act.obj and act.obj.lower() in (m.fact.address or "").lower()]  # fmt: skip
    if seen:
        last = max(seen, key=lambda m: m.created)
        when = iv._when(ctx.now, last.created)
        return f"Last I saw, the {act.obj} was {last.fact.state}, {when}."
    return _troubles_seen(ctx, act) if act.label == "object.state" or not act.obj else ""


def _troubles_seen(ctx: AgentContext, act: Act) -> str:
    """Anything broken? The things one last saw in trouble where asked, else an honest no."""
    where = _trouble_where(ctx, act)
    bad = troubles_now(ctx, where)
    place = "home" if where == ctx.persona.home else where
    if not bad:
        return f"Everything at {place} worked when I last used it; nothing's wrong that I've seen."
    last = max(bad, key=lambda m: m.created)
    thing = last.fact.address.split(":")[-1]
    return f"The {thing} at {place} was {last.fact.state} {iv._when(ctx.now, last.created)}."


# -- oneself -----------------------------------------------------------------------------------


def plan_home(ctx: AgentContext, act: Act, seed: int) -> str:
    """Where one lives and with whom: the housemates are those the town puts there."""
    me = ctx.persona
    home = selfknow.home_phrase(me)
    others = [n for n in ctx.persona.household if n != me.name]
    if act.kind is ActKind.OPINION:
        return _home_life(me, others, home)
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


def plan_at(ctx: AgentContext, act: Act, seed: int) -> str:
    """A time window: the past from one's own actions, the future from the plan."""
    window = act.window
    if window is None:
        return ""
    if window.start > ctx.now and window.end - window.start >= timedelta(hours=20):
        return _day_ahead(ctx, window.start, seed)
    when = window.start
    if act.wh is Wh.WHO and act.aspect is Aspect.PAST and window.start <= ctx.now:
        return _talked(ctx, act)  # 'who did you talk to yesterday?'
    so_far = window.start <= ctx.now < window.end and act.wh is not Wh.WHO
    if act.aspect is Aspect.PAST and so_far:  # 'so far today', not 'who did you see today?'
        done = _done_in(ctx, window.start, ctx.now) or _routine_so_far(ctx, window.start)
        if done:
            return done
    if window.start <= ctx.now < window.end:  # 'today', 'this afternoon': from now on
        items = selfknow.plan_for(ctx.memories, ctx.now.date())
        now_on = [i for i in items if i.start <= ctx.now < i.start + timedelta(minutes=i.minutes)]
        later = [i for i in items if i.start >= ctx.now and i.start < window.end]
        said = [mine(i.description, ctx.persona) for i in later[:3]]
        if now_on and window.start >= ctx.now - timedelta(minutes=30):  # 'at three', at 3 pm
            head = f"Right now I'm {mine(now_on[0].description, ctx.persona)}"
            return f"{head}; later I'm {join_and(said)}." if said else f"{head}."
        if later:
            return f"Later I'm {join_and(said)}."
        when = ctx.now
    if when < ctx.now - timedelta(hours=1) and window.end <= ctx.now:
        whole_day = window.end - window.start >= timedelta(hours=20)
        if whole_day and window.start.date() == ctx.now.date() - timedelta(days=1):
            return selfknow.yesterday(ctx, act.text, seed)  # the day by its parts, and talks
        done = _done_in(ctx, window.start, window.end)
        if done or window.start.date() != ctx.now.date():
            return done or _planned_then(ctx, window) or selfknow.yesterday(ctx, act.text, seed)
        return _routine_then(ctx, window.start)  # earlier today, with no memory of it at hand
    return (
        iv._event_at(ctx, when, seed) or iv._plan_at(ctx, when) or iv._routine_at(ctx.persona, when)
    )


def _planned_then(ctx: AgentContext, window) -> str:
    """An earlier day's stretch ('at noon yesterday', 'last night') by that day's plan,
    when no memory of doing it came up: the items the stretch overlaps, where they were."""
    me = ctx.persona
    items = [i for i in selfknow.plan_for(ctx.memories, window.start.date())
             if i.start < window.end and i.start + timedelta(minutes=i.minutes) > window.start]
    if not items:
        return ""
    said = []
    for i in items[:2]:
        what, place = mine(i.description, me), i.place.split(":")[0]
        at = " at home" if place == me.home else f" at {place}"
        said.append(what if not place or place in what else what + at)
    start = window.start
    day = "yesterday" if start.date() == ctx.now.date() - timedelta(days=1) else f"on {start:%A}"
    when = f"At {_clock(start)} {day}" if window.end - start <= timedelta(hours=2) else \
        iv._when(ctx.now, start).capitalize()
    if _PART_SAID.search(window.words):  # 'last night', 'yesterday evening', as asked
        when = window.words[:1].upper() + window.words[1:]
    return f"{when}, I was {join_and(said)}."


_PART_SAID = re.compile(r"^(?:last|yesterday) (?:night|morning|afternoon|evening)$", re.I)


def _routine_then(ctx: AgentContext, when: datetime) -> str:
    me, minute = ctx.persona, when.hour * 60 + when.minute
    block = next((b for b in me.routine if b.start <= minute < b.end), None)
    if block is None:
        return ""
    return f"At {_clock(when)} I was probably {_block_words(me, block)}, as most days."


def _routine_so_far(ctx: AgentContext, since: datetime) -> str:
    """What one's day has held so far, by one's routine, when no memory of it came up."""
    me, now = ctx.persona, ctx.now.hour * 60 + ctx.now.minute
    start = max(since.hour * 60 + since.minute, me.wake) if since.date() == ctx.now.date() else 0
    blocks = [b for b in me.routine if start <= b.start < now]
    if not blocks:
        return ""
    return f"So far I've been {join_and([_block_words(me, b) for b in blocks[:3]])}."


def _day_ahead(ctx: AgentContext, day: datetime, seed: int) -> str:
    """A whole day to come: the events one goes to that day, else one's usual day."""
    me = ctx.persona
    events = [k.event for k in remembered_events(ctx.memories)
              if k.event.start.date() == day.date() and going(ctx, k.event, seed)]  # fmt: skip
    when = _day(ctx.now, day)
    if events:
        e = events[0]
        return f"{when[:1].upper()}{when[1:]} I'm going to the {e.what or 'event'} at {e.place}."
    blocks = sorted(me.routine, key=lambda b: (b.start - me.wake) % (24 * 60))[:3]
    if not blocks:
        return f"Nothing special {when}."
    said = join_and([mine(b.activity, me) for b in blocks])
    return f"{when[:1].upper()}{when[1:]} will be a usual day: {said}."


def _done_in(ctx: AgentContext, start: datetime, end: datetime) -> str:
    me = ctx.persona
    done = [m for m in ctx.memories if m.fact.kind is FactKind.DOING and m.fact.subject == me.name
            and m.fact.source is Source.SELF and start <= m.created < end]  # fmt: skip
    if not done:
        return ""
    ordered = sorted(done, key=lambda m: m.created)
    acts = list(dict.fromkeys(mine(m.fact.object, me) for m in ordered))
    where = list(dict.fromkeys(_at_words(me, m.fact.address) for m in ordered if m.fact.address))
    at = f", {join_and(where[:2])}" if where and where[0] else ""
    return f"I was {join_and(acts[:3])}{at} {iv._when(ctx.now, start)}."


def _at_words(me, address: str) -> str:
    """'at home', 'at Hobbs Cafe': where an address is, as one says it."""
    place = address.split(":")[0]
    return "at home" if place == me.home else f"at {place}" if place else ""


def plan_past(ctx: AgentContext, act: Act, seed: int) -> str:
    if act.label == "meal":
        return plan_meal(ctx, act)
    if act.wh is Wh.WHEN and (_WOKE.search(act.text) or _SLEPT.search(act.text)):
        return _woke_slept(ctx, act)
    if act.window is not None:
        return plan_at(ctx, act, seed)
    today = ctx.now.replace(hour=0, minute=0, second=0, microsecond=0)
    return (
        selfknow.yesterday(ctx, act.text, seed)
        if "yesterday" in act.text.lower()
        else (_done_in(ctx, today, ctx.now) or selfknow.yesterday(ctx, act.text, seed))
    )


_WOKE = re.compile(r"\b(?:get|got|getting) up\b(?! to\b)|\b(?:wake|woke|waking|rise|rose)\b", re.I)
_SLEPT = re.compile(r"\b(?:go|went|get|got) to (?:bed|sleep)\b|\b(?:fell|fall) asleep\b|"
                    r"\bturn(?:ed)? in\b|\bbedtime\b", re.I)  # fmt: skip


def _woke_slept(ctx: AgentContext, act: Act) -> str:
    """'When did you get up today?' 'When did you go to bed last night?': one's hours, in
    the tense the day asked of takes."""
    me = ctx.persona
    day = act.window.start.date() if act.window is not None else ctx.now.date()
    if _WOKE.search(act.text):
        woke = datetime.combine(day, datetime.min.time()) + timedelta(minutes=me.wake)
        verb = "I got up" if woke <= ctx.now else "I'll be up"
        return f"{verb} around {selfknow.clock(me.wake)} {_day(ctx.now, woke)}."
    slept = datetime.combine(day, datetime.min.time()) + timedelta(minutes=me.sleep)
    if me.sleep < me.wake:
        slept += timedelta(days=1)  # bed after midnight belongs to the night before
    verb = "I went to bed" if slept <= ctx.now else "I'll go to bed"
    return f"{verb} around {selfknow.clock(me.sleep)} {_day(ctx.now, slept)}."


# a meal by its name, or by the time of day a line names instead ('where do you eat at
# midday?'); with the usual hour of each, for a day whose plan names no meal
MEALS = {"breakfast": "breakfast", "brunch": "breakfast", "lunch": "lunch", "dinner": "dinner",
         "supper": "dinner", "midday": "lunch", "noon": "lunch",
         "lunchtime": "lunch", "dinnertime": "dinner"}  # fmt: skip
MEAL_HOURS = {"breakfast": 8, "lunch": 12, "dinner": 19}


def meal_asked(act: Act) -> str:
    """Which meal a question asks of: the one it names, else the one its time of day holds,
    else '' (any meal)."""
    found = next((MEALS[w] for w in words_of(act.text) if w in MEALS), "")
    if found or act.window is None:
        return found
    hour = act.window.start.hour
    return "breakfast" if hour < 11 else "lunch" if hour < 16 else "dinner"


def plan_meal(ctx: AgentContext, act: Act) -> str:
    """A meal: on the day asked of (today by default), from that day's plan, where and when,
    in the tense its time takes; else from one's routine; else what one is usually doing at
    that meal's hour (everybody eats; the resident says where it happens)."""
    me, meal = ctx.persona, meal_asked(act)
    day = act.window.start.date() if act.window is not None else ctx.now.date()
    keys = (meal,) if meal else tuple(MEAL_HOURS)
    items = [i for i in selfknow.plan_for(ctx.memories, day)
             if any(k in i.description.lower() for k in keys)]  # fmt: skip
    if items:
        item = min(items, key=lambda i: abs(i.start.hour - MEAL_HOURS.get(meal, i.start.hour)))
        return _item_line(ctx, item)
    usual = next((b for b in me.routine if any(k in b.activity.lower() for k in keys)), None)
    if usual is not None:
        where = " " + _at_words(me, usual.place) if usual.place else ""
        where = "" if where and where.strip() in usual.activity else where
        at = selfknow.clock(usual.start)
        return f"Usually I'm {mine(usual.activity, me)}{where} around {at}."
    hour = MEAL_HOURS.get(meal or "lunch", 12) * 60
    block = next((b for b in me.routine if b.start <= hour < b.end), None)
    if block is None:
        return ""
    return f"I usually grab a bite around {selfknow.clock(hour)}, while {_block_words(me, block)}."


def _item_line(ctx: AgentContext, item) -> str:
    """One plan item, in the past if it has begun, else to come."""
    me = ctx.persona
    what = mine(item.description, me)
    where = " " + _at_words(me, item.place) if item.place else ""
    if where and where.strip() in what:  # 'having lunch at home', not '... at home at home'
        where = ""
    when = _day(ctx.now, item.start)
    clock = _clock(item.start)
    if item.start <= ctx.now:
        return f"{when[:1].upper()}{when[1:]} I was {what}{where}, around {clock}."
    return f"{when[:1].upper()}{when[1:]} I'll be {what}{where}, around {clock}."


def plan_plans(ctx: AgentContext, act: Act, seed: int) -> str:
    if act.wh is Wh.WHEN and (_WOKE.search(act.text) or _SLEPT.search(act.text)):
        return _woke_slept(ctx, act)
    if act.window is not None and act.label != "ahead":
        return plan_at(ctx, act, seed)
    if act.label == "ahead":
        return _ahead(ctx, seed)
    if _NEXT.search(act.text):
        later = [i for i in selfknow.plan_for(ctx.memories, ctx.now.date()) if i.start > ctx.now]
        if later:  # 'what are you doing after this?': the next thing in the plan
            nxt = later[0]
            return f"After this I'm {mine(nxt.description, ctx.persona)}, from " \
                   f"{selfknow.clock(nxt.start.hour * 60 + nxt.start.minute)}."  # fmt: skip
    return selfknow.today(ctx, act.text, seed)


_NEXT = re.compile(r"\b(?:after this|after that|afterwards|next)\b", re.I)


def _ahead(ctx: AgentContext, seed: int) -> str:
    """What one looks forward to: an event one is going to (one's own answer counts), else
    one's work, else the rest of the day."""
    coming = sorted((k.event for k in remembered_events(ctx.memories) if k.event.end > ctx.now),
                    key=lambda e: e.start)  # fmt: skip
    for event in coming:
        if going(ctx, event, seed):
            return (
                f"I'm looking forward to the {event.what or 'event'} at {event.place} "
                f"{_when_words(ctx.now, event)}."
            )
    return iv._ahead(ctx, "", seed) if not coming else _work_ahead(ctx, seed)


def _work_ahead(ctx: AgentContext, seed: int) -> str:
    project = selfknow.own_project(ctx.persona, ctx.now)
    if project:
        return f"Getting on with my work, mostly. {project.rstrip('.')}."
    return "A quiet few days, mostly, and that suits me."


def plan_news(ctx: AgentContext, act: Act, seed: int) -> str:
    """News about something named ('have you heard about the bake sale?') from what
    retrieval holds on it; asked in general, the best news one has."""
    if act.event and event_facts(ctx, act):
        return plan_event(ctx, act, seed)
    if act.event and from_retrieval(ctx, act):
        return from_retrieval(ctx, act)
    found = shareable(ctx.memories, ctx.persona)
    if act.person and act.person != ctx.persona.name:
        found = [n for n in found if _involves(n, act.person)]
        if not found:  # what one knows of them and last saw them doing, if anything
            seen = iv._memories_naming(ctx, act.person) or iv.acquainted_with(ctx, act.person)
            if seen:
                return plan_person(ctx, replace(act, label="person.about"), seed)
            return f"I haven't heard anything new about or from {first_name(act.person)}."
        news = found[0]
        event = news.fact.event or iv._event_of(ctx, news.fact.intent)
        if event is None:  # 'What's Sam been up to?': the news itself, and who told it
            return _told("" if news.own else news.source, news.fact.subject,
                         first_person(news.text, ctx.persona))  # fmt: skip
    best = found[0] if found else None
    if act.wh in (Wh.WHO, Wh.WHERE) and not act.person:  # 'who keeps you in the loop?'
        sources = [n.source for n in found if n.source and not n.own]
        if sources:
            most = sorted(set(sources), key=lambda x: (-sources.count(x), sources.index(x)))
            told = next(n for n in found if n.source == most[0])
            said = first_person(told.text, ctx.persona)
            who = join_and([first_name(x) for x in most[:3]])
            return f"Mostly from {who}. {first_name(most[0])} told me {said}."
    if act.wh is Wh.WHO and best is not None and best.source and not best.own:
        return f"{best.source} told me: {first_person(best.text, ctx.persona)}."
    event = None
    if best is not None:
        event = best.fact.event or iv._event_of(ctx, best.fact.intent)
    if best is not None and event is not None and not best.own:  # in the tense its time calls for
        return event_line(ctx, event, best.text, best.source, best.fact.intent, Wh.NONE)
    return iv._news(ctx, act.text, seed)


def _involves(news, person: str) -> bool:
    """News about someone, or from them, by the fact's fields: its subject, its source,
    the people it names (an event's host among them)."""
    return person in (news.fact.subject, news.source) or person in people_in(news.fact)


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
        if mates:
            return f"{yes} work with {_people_line(mates[:3], me)}."
        return f"{no}ostly on my own. {lead}{where}."
    if act.wh is Wh.WHEN:
        return _work_hours(ctx) or f"{lead}{where}.{hours}"
    if act.wh is Wh.YESNO and _HERE.search(act.text):
        return plan_work_here(ctx, act, seed)  # 'is this where you work?'
    bare = not act.place and not content_stems(_without_place(act)) - _WORK_WORDS
    if act.wh is Wh.YESNO and bare or act.kind is ActKind.OPINION:
        project = selfknow.own_project(me, ctx.now)
        return f"I do, mostly. {project.rstrip('.')}." if project else "I do, most days."
    return f"{lead}{where}.{hours}"


_ANYONE = re.compile(r"\b(?:anyone|anybody|someone|somebody|who)\b", re.I)
_COLLEAGUE = re.compile(r"\b(?:colleague|co-?worker|works? with|workmate|boss|employer|"
                        r"employee|assistant|partner at|business partner)", re.I)


_HOME_LIFE = re.compile(r"\b(?:breakfast|brunch|lunch|dinner|supper|meal|snack|cook|cooking|"
                        r"sleep|sleeping|nap|bed|shower|bath|television|tv|relax|relaxing|"
                        r"chores|laundry|tidying|cleaning)\b", re.I)  # fmt: skip


def _work_hours(ctx: AgentContext) -> str:
    """When one starts and stops work: the routine's blocks at one's workplace."""
    me = ctx.persona
    blocks = [b for b in me.routine if me.workplace and b.place.split(":")[0] == me.workplace]
    if me.workplace == me.home:  # at home, meals and rest are not work
        blocks = [b for b in blocks if not _HOME_LIFE.search(b.activity)]
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


def sleep_words(me) -> str:
    """When one gets up and goes to bed, and so how long one sleeps."""
    hours = round(((me.wake - me.sleep) % (24 * 60)) / 60)
    return (f"I'm up around {selfknow.clock(me.wake)} and in bed by {selfknow.clock(me.sleep)}, "
            f"so about {hours} hours of sleep.")  # fmt: skip


_SLEEP_WORDS = frozenset(content_stems("sleep bed wake up rise get turn asleep hours night "
                                       "shut-eye kip snooze slumber"))  # fmt: skip
_FIRST = re.compile(r"\bfirst (?:thing|things|hour|hours|bit|part)\b|\bstart (?:of )?your day\b",
                    re.I)  # fmt: skip
_LAST = re.compile(r"\blast thing\b|\bend (?:of )?(?:your|the) (?:day|evening)\b|"
                   r"\bbefore (?:bed|lights out|(?:you |going |heading |getting )?(?:go |get )?"
                   r"(?:to |in)?(?:bed|sleep))\b|\bwind(?:ing)? down\b|\bbedtime (?:ritual|routine|"
                   r"habits?)\b|\b(?:round|wrap|finish|close) (?:off |up |out )?(?:your|the) "
                   r"(?:day|evening)\b", re.I)  # fmt: skip
_HOW_MANY = re.compile(r"\bhow (?:many|much|long)\b", re.I)


def _block_words(me, block) -> str:
    place = block.place.split(":")[0]
    at = " at home" if place == me.home else f" at {place}" if place else ""
    return f"{mine(block.activity, me)}{at} from {selfknow.clock(block.start)}"


def plan_routine(ctx: AgentContext, act: Act, seed: int) -> str:
    """A usual day: asked of a part of the day, what one usually does then; else the
    day from waking to bed."""
    me = ctx.persona
    if act.wh is Wh.WHEN and act.window and (_WOKE.search(act.text) or _SLEPT.search(act.text)):
        return _woke_slept(ctx, act)  # 'when did you get up this morning?': that day's
    hours = sleep_words(me)
    sleep = bool(content_stems(act.text) & _SLEEP_WORDS)
    if _FIRST.search(act.text) and me.routine and not act.window:  # 'first thing you do?'
        first = [_block_words(me, b) for b in me.routine[:2]]
        return f"I'm up around {selfknow.clock(me.wake)}; first I'm {join_and(first)}."
    if _LAST.search(act.text) and me.routine:  # 'the last thing before bed?'
        last = _block_words(me, me.routine[-1])
        return f"Last thing, I'm {last}, and I'm in bed by {selfknow.clock(me.sleep)}."
    if (
        act.label in ("routine.early", "routine.late")
        and act.wh is Wh.YESNO
        or (act.wh is Wh.WHEN and not act.window and sleep)
        or (sleep and _HOW_MANY.search(act.text))
    ):
        return hours
    if act.window is not None:
        start = act.window.start.hour * 60 + act.window.start.minute
        end = start + max(4 * 60, int((act.window.end - act.window.start).total_seconds() // 60))
        if start < 12 * 60:
            start = min(start, me.wake)  # one's morning starts when one gets up
        within = [b for b in me.routine if start <= b.start < end]  # a habit: 4 hours of it
        blocks = within or [b for b in me.routine if b.start <= start < b.end]
        if blocks:
            said = [_block_words(me, b) for b in blocks[:3]]
            return f"Usually I'm {join_and(said)}. {hours}"
    return selfknow.weekday(ctx, act.text, seed) or hours


def plan_interests(ctx: AgentContext, act: Act, seed: int) -> str:
    """What one enjoys; asked about a particular thing, yes if one's interests hold it."""
    me = ctx.persona
    asked = content_stems(act.event) - {"enjoy", "like", "love", "into", "interest", "fun"}
    if asked and act.wh is Wh.YESNO:
        shared = [i for i in me.interests if asked & content_stems(i)]
        key = (seed, me.name, act.text)
        if shared:
            lead = pick(("Yes, I love", "Oh yes, I'm big on", "I am! I really enjoy"), *key)
            return f"{lead} {mine(shared[0], me)}."
        no = pick(("Not really, no.", "Not much, to be honest.", "Can't say I am.",
                   "Not me, I'm afraid.", "Hmm, not really."), *key)  # fmt: skip
        cares = join_and([mine(i, me) for i in me.interests[:2]]) if me.interests else ""
        more = pick(("I'm more into {c}.", "{C} is more my thing.", "Give me {c} any day."), *key)
        told = more.format(c=cares, C=cares[:1].upper() + cares[1:]) if cares else ""
        return f"{no} {told}".strip()
    return selfknow.interests(ctx, act.text, seed)


def plan_doing(ctx: AgentContext, act: Act, seed: int) -> str:
    """Where one is and what one is doing, from the current action and place; asked
    'busy painting?', yes or no by whether the words are one's action's."""
    if _NEXT.search(act.text) and act.wh is not Wh.YESNO:
        return plan_plans(ctx, act, seed)  # 'what are you doing after this?'
    where = iv._where(ctx, act.text, seed)
    if act.wh in (Wh.WHEN, Wh.HOW):
        item = next((i for i in selfknow.plan_for(ctx.memories, ctx.now.date())
                     if i.covers(ctx.now)), None)  # fmt: skip
        if item is not None:
            return f"{where.rstrip('.')}, until about {_clock(item.end)}."
    if act.wh is not Wh.YESNO or not act.event:
        return where
    doing = content_stems(ctx.status) | content_stems(ctx.location.replace(":", " "))
    if ctx.location.split(":")[0] == ctx.persona.home:
        doing |= _LIVES  # 'are you at home?' at one's own house
    asked = content_stems(act.event) - {"busy", "still", "right", "now", "moment"}
    if asked and asked <= _WORK_WORDS:  # 'are you at work now?'
        return with_polarity(plan_work_here(ctx, act, seed), _at_work(ctx, act, seed))
    if not asked:
        return where
    return f"Yes! {where}" if asked & doing else f"Not really. {where}"


def _legacy(fn: Callable[[AgentContext, str, int], str]) -> Planner:
    """A planner that needs only the persona and the memories, not the question's slots."""

    def planner(ctx: AgentContext, act: Act, seed: int) -> str:
        return fn(ctx, act.text, seed)

    return planner


def plan_why(ctx: AgentContext, act: Act, seed: int) -> str:
    if act.intent or act.event:
        found = event_facts(ctx, act)
        event = next((e for _, e in found if e is not None), None)
        if event is not None:
            reason = _rsvp_reason(ctx, event)
            if reason:
                return f"Well,{reason}"
    return selfknow.why(ctx, act.text, seed) or selfknow.inspires(ctx, act.text, seed)


def plan_statement(ctx: AgentContext, act: Act, seed: int) -> str:
    """The listener was told something: take it in, in one's own words."""
    if act.label == "statement.self":
        return "Nice to meet you! It's always good to see a new face around here."
    if act.intent:
        found = event_facts(ctx, act)
        if len(found) > 1:
            return "Yes, I'd heard about that already. " + (plan_event(ctx, act, seed) or "")
    return pick(
        (
            "Oh, really? I hadn't heard that. Thanks for telling me.",
            "Is that so? I'll keep that in mind, thanks.",
            "Huh, that's news to me. Good to know!",
        ),
        seed,
        ctx.persona.name,
        act.text,
    )


def plan_social(ctx: AgentContext, act: Act, seed: int) -> str:
    me = ctx.persona
    if act.label == "greeting":
        return pick(("Hello!", "Hi there!", "Oh, hello!"), seed, me.name, act.text)
    if act.label == "farewell":
        return pick(("Goodbye, take care!", "See you around!", "Bye for now!"), seed, me.name)
    if act.label == "thanks":
        return pick(("You're welcome!", "Any time.", "Happy to help."), seed, me.name)
    if act.label == "request":
        return "Sure, I'll see what I can do."
    return pick(("Mm, yes.", "Right.", "I know what you mean."), seed, me.name, act.text)


PLANNERS_OF_TROUBLE = TROUBLE_LABELS
PLANNERS: dict[str, Planner] = {
    "identity": plan_identity,
    "work": plan_work,
    "home": plan_home,
    "home.alone": plan_home,
    "neighbours": plan_neighbours,
    "routine.early": plan_routine,
    "routine.late": plan_routine,
    "place.regular": plan_place,
    "place.rooms": plan_rooms,
    "place.hours": plan_hours,
    "work.here": plan_work_here,
    "person.find": plan_find,
    "person.talk": lambda ctx, act, seed: (
        (_talked_most(ctx) if not (act.person or act.window) and act.wh is Wh.WHO else "")
        or plan_person(ctx, act, seed)
    ),
    "family": plan_family,
    "friends": _legacy(iv._friends),
    "spend_time": _legacy(iv._spend_time),
    "interests": plan_interests,
    "routine": plan_routine,
    "occupied": _legacy(selfknow.occupied),
    "feelings": _legacy(iv._mood),
    "doing": plan_doing,
    "nearby": plan_nearby,
    "today": plan_plans,
    "plans.at": plan_plans,
    "ahead": plan_plans,
    "past": plan_past,
    "meal": plan_past,
    "town": _legacy(iv._likes),
    "inspire": _legacy(selfknow.inspires),
    "have": _legacy(iv._have),
    "time": _legacy(iv._small_talk),
    "secret": _legacy(iv._small_talk),
    "help": _legacy(iv._small_talk),
    "news": plan_news,
    "fridge": plan_object,
    "follow.why": plan_why,
    "statement.event": plan_statement,
    "statement.news": plan_statement,
    "statement.self": plan_statement,
    "invitation": plan_event,
    "greeting": plan_social,
    "farewell": plan_social,
    "thanks": plan_social,
    "ack": plan_social,
    "request": plan_social,
}
ASPECTS: dict[Aspect, Planner] = {
    Aspect.EVENT: plan_event,
    Aspect.NEWS: plan_event,
    Aspect.PERSON: plan_person,
    Aspect.PLACE: plan_place,
    Aspect.OBJECT: plan_object,
    Aspect.HOME: plan_home,
    Aspect.FAMILY: plan_family,
    Aspect.PLANS: plan_plans,
    Aspect.PAST: plan_past,
    Aspect.DOING: plan_doing,
    Aspect.WORK: plan_work,
    Aspect.IDENTITY: plan_identity,
    Aspect.INTERESTS: plan_interests,
    Aspect.ROUTINE: plan_routine,
    Aspect.FEELINGS: _legacy(iv._mood),
    Aspect.FRIENDS: _legacy(iv._friends),
    Aspect.TOWN: _legacy(iv._likes),
}
