"""Yes or no: whether the answer to a yes/no question is yes, decided from the same persona,
plan and memories the planners answer from (one decider per label, else per aspect), and
the answer's first word set to match ('Do you live alone?' 'No, I live with ...').
"""

from __future__ import annotations

import re
from collections.abc import Callable

from game.brains.dialogue.acts import Act, Aspect
from game.brains.dialogue.understand import content_stems
from game.brains.questions import AgentContext
from game.core.records import FactKind

from .. import interview as iv
from .. import places
from ..news import shareable
from ..traits import dislikes
from .events import _any_event, _went, all_over, event_facts, going
from .objects import _trouble_yes
from .persona import _HERE_HOME, _has_kin
from .phrasing import _HERE, _LIVES, _VISIT_WORDS, _WORK_WORDS, _housemates, _without_place
from .town import offers_fit

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


_ASKS_FIRST = re.compile(r"^[^.!?]*\?")  # the answer opens with a question of its own
_NONE_START = re.compile(r"^\W*(?:nothing|no one|none|nowhere)\b", re.I)


def with_polarity(text: str, yes: bool | None) -> str:
    """A yes/no question is answered yes or no first, then with the fact that makes it so
    ('Do you live alone?' 'No, I live with ...')."""
    if yes is None or _POLAR_START.match(text):
        return text
    if _ASKS_FIRST.match(text):  # 'Have you heard? Ryan told me ...': its own sentence
        return f"{'Yes' if yes else 'No'}. {text}"
    if _NONE_START.match(text):  # 'Nothing much, it's been quiet' is a no, never a yes
        return text if yes else f"No, {text[:1].lower()}{text[1:]}"
    first = text.split(" ", 1)[0].strip(",.!").lower().split("'")[0]
    common = first in _RUN_ON or first.endswith(("ing", "ly"))  # 'Getting on', 'Mostly'
    rest = text[:1].lower() + text[1:] if common else text
    return f"{'Yes' if yes else 'No'}, {rest}"


def said_no(text: str) -> str:
    """'No, I don't know who that is.': a no before words that say it already in their way."""
    keeps = re.match(r"I\b", text) is not None  # 'I' stays capital
    return f"No, {text if keeps else text[:1].lower() + text[1:]}"


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


def _home_yes(ctx: AgentContext, act: Act) -> bool:
    """Asked whether one lives alone, yes if nobody shares one's home; whether someone
    lives with one, yes if somebody does; whether one lives here, in town, yes."""
    if _ALONE.search(act.text):
        return not _housemates(ctx)
    if _OTHERS.search(act.text):
        return bool(_housemates(ctx))
    indoors = bool(ctx.location)  # on the street, 'here' is the town
    this = _THIS_BUILDING.search(act.text) or _HERE_HOME.search(act.text)  # 'this ur house?'
    if indoors and this and not _IN_TOWN.search(act.text):
        return ctx.location.split(":")[0] == ctx.persona.home  # 'do you live here?' indoors
    return True


def _alone_yes(ctx: AgentContext, act: Act) -> bool:
    """'Living on your own?' yes for one with no housemates; 'is someone else home?' asks the
    other way round."""
    if _OTHERS.search(act.text) and not _ALONE.search(act.text):
        return bool(_housemates(ctx))
    return not _housemates(ctx)


# 'here' said indoors is the building one is in, unless the town is named
_THIS_BUILDING = re.compile(r"\b(?:here|this (?:very )?(?:place|building|house|flat|apartment))\b",
                            re.I)  # fmt: skip
_IN_TOWN = re.compile(r"\b(?:in|round|around) (?:town|here|these parts|the area|smallville)\b|"
                      r"\bthis (?:town|area|neighbourhood|neighborhood)\b", re.I)  # fmt: skip


def _regular_at(ctx: AgentContext, place: str) -> bool:
    return any(b.place.split(":")[0] == place for b in ctx.persona.routine)


def _place_serves(ctx: AgentContext, act: Act, seed: int) -> bool | None:
    """'Can you eat at Hobbs Cafe?': the place the planner would choose for the asked
    activity is that place, or one of its kind."""
    if not act.place:
        return None
    asked = content_stems(_without_place(act))
    if not asked:  # 'Do you know Johnson Park?', 'Ever been to it?': knowing it is yes
        me = ctx.persona
        return act.place in (*me.known_places, *ctx.known_places, me.home, me.workplace)
    if asked <= _VISIT_WORDS:
        return _regular_at(ctx, act.place)
    me = ctx.persona
    if act.place == me.workplace and asked & (_STUDY_WORDS | content_stems(me.occupation)):
        return True  # 'Are you studying at Oak Hill College?' of its student
    where = places.Directory.of(ctx)
    roles = {act.place: where.role(act.place)}
    # 'anything to eat at Hobbs Cafe?', 'borrow a book at the college?': by the meaning of
    # the place's offers against the others', then by the planner's keyword tables
    serves = places.serves(ctx.persona, _without_place(act), act.place, roles, where)
    if serves is None and _YOURS.search(act.text):  # 'Is Hobbs Cafe one of your haunts?'
        return _regular_at(ctx, act.place)  # asks of one's own visits, not of the place
    if _YOURS.search(act.text):  # 'do you teach at the college?' asks of the listener
        return serves
    fits = offers_fit(ctx, " ".join(sorted(asked)), act.place)
    return fits if fits is not None else serves


_YOURS = re.compile(r"\b(?:you|your|yours|ya|u|ur)\b", re.I)


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
    if asked & _SCHOOL and not asked & _TEACHING:  # 'still in school?' of a student: yes
        return "student" in me.occupation.lower() or bool(asked & content_stems(me.occupation))
    return bool(asked & content_stems(f"{me.occupation} {me.workplace}"))


_SCHOOL = frozenset(content_stems("school study studying studies student students class classes "
                                  "college university uni course degree"))  # fmt: skip
_TEACHING = frozenset(content_stems("teach teaching teacher lecture lecturing professor"))


# words of working that name no job ('are you employed somewhere?', 'do you like your
# boss?'): what is left of a yes/no of work after them is what the occupation may gainsay
_ANY_JOB = frozenset(content_stems(
    "employed somewhere anywhere boss bosses colleague colleagues coworkers paid pay money "
    "busy hard full part time day days week weekdays still currently right now place"))


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
        if found and all_over(ctx, act, found):
            return False  # nothing on now: what one knows of has ended
        if act.intent:
            return bool(found)
        return bool(found or _any_event(ctx)) or (act.label == "news" and _fresh_news(ctx))
    if event is None:
        return None
    if act.label == "event.when" and act.window is not None:  # 'is the party at 9?'
        w = act.window
        return w.start <= event.start < w.end or event.start <= w.start < event.end
    if act.label == "event.where":  # 'Is there some kind of do at the cafe?': where it is
        return event.place == act.place if act.place else True
    if act.label == "event.who":  # 'Is Isabella behind it?': whose it is
        return event.host == act.person if act.person else True
    if event.end <= ctx.now:
        return _went(ctx, event, act.intent)
    return going(ctx, event, seed)


def _fresh_news(ctx: AgentContext) -> bool:
    """Any news one would tell, asked for news in general (a campaign has no event)."""
    return any(not iv._over(ctx, n) for n in shareable(ctx.memories, ctx.persona))


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
    "home.alone": lambda ctx, act, seed: _alone_yes(ctx, act),
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
    # someone else's life (answer.others): its planner's words say yes or no themselves
    **dict.fromkeys(("person.work", "person.doing", "person.past", "person.plans",
                     "person.going", "person.interests", "person.routine", "person.find"),
                    lambda ctx, act, seed: None),
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
