"""The answer to an understood act: the planner its label (else its aspect) names, then the
line's second reading, then retrieval, then an honest, in-character "I don't know" (said
once a conversation: a second time the resident asks back). A yes/no question is answered
yes or no first (`polar`); an answer said already in the conversation is said shorter, or
only the part a follow-up asks for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from game.brains.dialogue.acts import UNKNOWN_OPENERS, Act, Aspect, Wh
from game.brains.dialogue.form import asks_how_long
from game.brains.dialogue.state import DialogueState
from game.brains.dialogue.understand import content_stems, labels, sentence_embedder
from game.brains.questions import AgentContext

from .. import interview as iv
from ..news import people_in
from ..util import first_name, join_and, pick
from ..wording import mine
from . import whereabouts
from .described import described
from .events import named_words
from .people import seen_nearby
from .persona import _kin_asked
from .phrasing import _VISIT_WORDS, _without_place
from .planners import ASPECTS, PLANNERS, PLANNERS_OF_TROUBLE
from .polar import polarity, said_no, with_polarity
from .recall import from_retrieval, names_a_thing


@dataclass(frozen=True)
class Reply:
    """An answer and whether it is the honest 'I don't know' (for `--json` and the
    one-a-conversation rule)."""

    text: str
    fallback: bool = False


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
    act = described(ctx, _as_place_question(act))
    if act.asks and act.place and whereabouts.FAR.search(act.text):  # '... is it far?'
        act = replace(act, label="place.about", aspect=Aspect.PLACE)
    if act.asks and act.aspect in _NOW_OR_LATER and asks_how_long(act.text) \
            and act.window is None and not (act.person or act.intent or act.named):  # fmt: skip
        act = replace(act, label="doing", aspect=Aspect.DOING, wh=Wh.WHEN)  # 'be long at it?'
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
    unknown = text.startswith(DONT_KNOW)
    if act.wh is Wh.YESNO and text:
        yes = polarity(ctx, act, seed)
        # 'Ever heard of Abigail?' 'No, I don't know who that is.': not knowing is a no only
        # where the decider says so; an 'I don't know' of anything else stays as it is
        if not unknown:
            text = with_polarity(text, yes)
        elif yes is False:
            text = said_no(text)
    if state is not None and text and state.has_said(text):
        asks_names = act.wh is not Wh.WHO or _WHO_WORD.search(act.text) is not None
        part = _part_asked(act.wh, text, ctx) if act.follow_up and asks_names else ""
        text = part or _another_way(ctx, act, seed, text)
    if text:
        return Reply(text, fallback=unknown and text.startswith((*DONT_KNOW, "No, I don't")))
    return _dont_know(ctx, act, state)


_NOW_OR_LATER = frozenset({Aspect.DOING, Aspect.PLANS, Aspect.GENERAL})  # 'be long at it?'


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
    if label.name == "nearby" and not seen_nearby(ctx):
        return ""  # 'nobody but me here' is no answer to a line that seemed about else
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
    label = "place.regular" if asked and asked <= _VISIT_WORDS else "place.about"
    return replace(act, label=label, aspect=Aspect.PLACE)


_OF_THE_PLACE = frozenset({"place.hours"})


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
    label = LABELS.get(act.label)
    if label is not None and label.follow and not (said or act.intent or act.follow_up):
        # 'So who's behind it?' with nothing said before it for 'it' to be
        pointer = _POINTER.search(act.text)
        what = f" by '{pointer.group(0).lower()}'" if pointer else ""
        return Reply(f"Sorry, what do you mean{what}? I'm not sure what you're asking about.", True)
    if not said and act.aspect in _ABOUT_THINGS and names_a_thing(act, every=True):
        said = named_words(act)  # 'the bake sale', not 'sort person say' nor 'spill tea'
    topic = f" about {said}" if said and len(said.split()) <= 4 else ""
    if act.named and act.aspect is Aspect.EVENT:
        topic = f" about a {as_said(act.named, act.text)} or anything like it"
    elif act.aspect in (Aspect.EVENT, Aspect.NEWS) and topic:  # 'Who's behind the fair?'
        return Reply(f"I haven't heard of any {said}, to be honest.", True)
    if act.wh is Wh.WHERE and act.asks and not (act.person or act.place or act.obj or act.intent):
        # 'Where can a person get a haircut?': no place in town is for it
        return Reply("I don't know of anywhere in town for that, I'm afraid.", True)
    if me.interests:
        cares = join_and([mine(i, me) for i in me.interests[:2]])
        return Reply(f"I don't know anything{topic}, to be honest. Ask me about {cares}!", True)
    return Reply(f"I don't know anything{topic}, I'm afraid.", True)


# what a follow-up leans on
_POINTER = re.compile(r"\b(?:it|that|this|they|them|there|then)\b", re.I)
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


# a follow-up that asks for names says who ('what's she like?' asks for none)
_WHO_WORD = re.compile(r"\b(?:who|whom|whose|who's|which of)\b", re.I)
_HOME_SAID = re.compile(r"\bat (?:home|my (?:house|apartment|flat|place))\b")
_SPAN_SAID = re.compile(r"\b(?:(?:from|between|around|at|by) )?\d{1,2}(?::\d{2})? ?(?:am|pm)"
                        r"(?:(?: to | and |-)\d{1,2}(?::\d{2})? ?(?:am|pm))?")  # fmt: skip


def _another_way(ctx: AgentContext, act: Act, seed: int, said: str) -> str:
    """The same question again in one conversation: the answer stands, said shorter."""
    first = said.split(". ")[0].rstrip(".")
    me = ctx.persona
    heard_of = (n for m in ctx.memories for n in people_in(m.fact))  # 'Like I said, Jane...'
    names = {w for n in [me.name, *me.household, *(k.name for k in me.acquainted),
                         *(n for n, _ in me.relationships), *ctx.known_places, *heard_of]
             for w in n.split()}  # fmt: skip
    keep = first.startswith(("I ", "I'")) or first.split(" ", 1)[0] in names  # a name stays
    lead = pick(("Like I said,", "As I said,", "Again,"), seed, ctx.persona.name, act.text)
    return f"{lead} {first if keep else first[:1].lower() + first[1:]}."
