"""A line read in its conversation: the topic a follow-up takes, the time the talk was
about, the tense its window gives, the person a pronoun means, and the aspect its slots and
words settle beside the exemplars' label.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from .acts import Act, ActKind, Aspect, Wh, Window
from .form import (
    _EXPLICIT_WH,
    _REFERS,
    _WH_WORDS,
    _WHEN_PHRASE,
    _YESNO_START,
    _wh_by_form,
    main_clause,
)
from .slots import PERSON_BACK, Slots, words
from .state import DialogueState

if TYPE_CHECKING:
    from .exemplars import Label


_PRONOUN_YOU = re.compile(r"^\s*(?:and|what about|how about)\s+(?:you|yourself)\b", re.I)

# labels that, asked of the topic, keep their own facet: 'who else is going?' after the
# party asks for its goers, not for whoever the follow-up's who would name (its host)
_OWN_FACET = frozenset({"event.goers", "event.who_came"})
# a line that refers back ('what time does it kick off?') asks its wh of the topic
_FOLLOW_WH = {Wh.WHEN: "follow.when", Wh.WHERE: "follow.where", Wh.WHO: "follow.who",
              Wh.WHY: "follow.why"}  # fmt: skip


def _by_slots(act: Act, label: Label | None) -> Act:
    """A line whose label is about nothing in particular takes its aspect from what it
    names: 'tell me about Hobbs Cafe' is about a place, '... Sam's campaign' an event."""
    if act.aspect is Aspect.PERSON and not act.person:
        act = replace(act, aspect=Aspect.GENERAL)
    if act.person and act.aspect in _OF_SOMEONE:  # 'how would you describe Klaus?'; 'Tom?
        return replace(act, aspect=Aspect.PERSON, label="person.about")  # do you two know?'
    if act.aspect not in (Aspect.GENERAL, Aspect.NEWS):
        return act
    general = label is not None and label.aspect is Aspect.GENERAL and not label.follow \
        and act.asks and label.name not in _KEEP_GENERAL  # fmt: skip
    if act.intent:
        return replace(act, aspect=Aspect.EVENT, label="event.know" if general else act.label)
    if act.person:
        return replace(act, aspect=Aspect.PERSON, label="person.about" if general else act.label)
    if act.obj:
        return replace(act, aspect=Aspect.OBJECT, label="object.state" if general else act.label)
    if act.place and act.aspect is Aspect.GENERAL:
        return replace(act, aspect=Aspect.PLACE, label="place.about" if general else act.label)
    return act


# aspects of oneself that, naming someone else, ask of that someone and oneself
_OF_SOMEONE = frozenset({Aspect.IDENTITY, Aspect.FAMILY, Aspect.FRIENDS})
# labels about nothing in particular that stay themselves whatever the line names (a
# message to pass on names its person)
_KEEP_GENERAL = frozenset({"request"})
_EVENT_BY_WH = {Wh.WHO: "event.who", Wh.WHEN: "event.when", Wh.WHERE: "event.where"}


def _follow(act: Act, state: DialogueState | None) -> Act:
    """A follow-up takes the conversation's topic: its aspect and slots, its own wh."""
    topic = state.topic if state is not None else None
    if topic is None:
        return act
    if act.aspect is Aspect.GENERAL and not act.label.startswith("follow") and not act.about_you:
        wh = _wh_by_form(act.text)  # 'what time does it start?' asks when of the topic
        act = replace(act, label=_FOLLOW_BY_WH.get(wh, "follow.more"), wh=wh)
    act = _facet(act, topic)
    return replace(
        act,
        aspect=act.aspect if act.aspect in _SUBJECTS else topic.aspect,
        person=act.person or topic.person,
        place=act.place or topic.place,
        obj=act.obj or topic.obj,
        intent=act.intent or topic.intent,
        event=topic.event if _asks_more_of(act, topic) else act.event or topic.event,
        window=act.window or topic.window,
        follow_up=True,
        label=topic.label if act.about_you or _asks_more_of(act, topic) else act.label,
        wh=topic.wh if act.about_you else act.wh,
        kind=topic.kind if act.about_you else act.kind,
    )


_SUBJECTS = frozenset({Aspect.PERSON, Aspect.EVENT, Aspect.PLACE})  # what a question asks of


def _asks_more_of(act: Act, topic: Act) -> bool:
    """'Where do you have lunch?' 'What time?': a bare when, where or who of a question
    about one's own day asks it of the same thing (lunch), under the topic's own label."""
    return (act.label in _FOLLOW_WH_LABELS and topic.aspect in _ONES_OWN_DAY
            and not topic.label.startswith("follow") and not (topic.person or topic.intent))


_FOLLOW_WH_LABELS = frozenset({"follow.when", "follow.where", "follow.who"})


def _facet(act: Act, topic: Act) -> Act:
    """Which part of a topic of people a follow-up asks for: 'how did that start?' or
    'what's she like?' after one's friends or someone, once an answer named one, asks of
    that person; 'how many live there?' after one's home wants the people ('how many' of
    people is who); 'how do you find sharing with them?' asks how one finds it."""
    if act.about_you or topic.aspect not in (*_OF_PEOPLE, Aspect.PERSON):
        return act
    said = _wh_by_form(act.text)  # the line's own wh-word, over its label's usual one
    if topic.person and topic.aspect is not Aspect.HOME and said in (Wh.HOW, Wh.WHAT):
        return replace(act, aspect=Aspect.PERSON, label="person.about", person=topic.person,
                       wh=said)  # fmt: skip
    if topic.aspect is Aspect.PERSON:
        return act
    if _HOW_MANY.search(act.text):
        return replace(act, wh=Wh.WHO, label="follow.who")
    if said is Wh.HOW and not _WHEN_PHRASE.search(act.text):
        return replace(act, kind=ActKind.OPINION, label="follow.opinion", wh=Wh.HOW)
    return act


_OF_PEOPLE = frozenset({Aspect.HOME, Aspect.FAMILY, Aspect.FRIENDS})
_HOW_MANY = re.compile(r"\bhow many\b", re.I)


def _carried_window(act: Act, state: DialogueState | None, now: datetime) -> Act:
    """A short question about one's day that names no time keeps the time the talk was
    about: 'See anyone?' after 'How was your day yesterday?' asks of yesterday."""
    topic = state.topic if state is not None else None
    if (not act.asks or act.window is not None or topic is None or topic.window is None
            or topic.aspect not in _ONES_OWN_DAY
            or act.aspect not in (*_ONES_OWN_DAY, Aspect.GENERAL)
            or act.person or act.place or act.obj or act.intent
            or len(words(act.text)) > CARRY_WORDS):  # fmt: skip
        return act
    window = topic.window
    span = window.end - window.start
    if _NEXT.search(act.text) and span <= timedelta(hours=NEXT_HOURS):
        window = Window(window.end, window.end + span, "after that")  # 'and then?' moves on
    act = _tense(replace(act, window=window, follow_up=True), now)
    if act.aspect in (Aspect.DOING, Aspect.GENERAL) and topic.window.end <= now:
        act = replace(act, aspect=Aspect.PAST, label="past")  # 'see anyone?' of yesterday
    return act


CARRY_WORDS = 6  # a question longer than this says what it asks of itself
# 'and then?', 'what after that?', 'what's next?': the time after the one the talk was about
_NEXT = re.compile(r"^\W*(?:(?:and|so|n|ok|okay|right),? )?(?:(?:what|how) about )?"
                   r"(?:then|after that|afterwards|what next|then what|"
                   r"what(?:'s| is| comes)? (?:next|after(?: that)?)|and after)\b",
                   re.I)  # fmt: skip
NEXT_HOURS = 4  # a stretch longer than this (a whole day) has no 'next' one to move on to

# where one spends one's own day: a where-question of it that says no 'you' asks of the town
# a where-question of what the asker (or anyone) could do asks of the town, not the listener
_WHERE_TO = re.compile(r"\bwhere (?:can|could|should|would|might|do|does) (?:i|we|one|someone|"
                       r"somebody|anyone|a person|people|folks?)\b|\bwhere to\b|"
                       r"\bwhere(?:'s| is) (?:good|best|nice|a good|the best)\b", re.I)  # fmt: skip
_ONES_OWN_DAY = frozenset({Aspect.PLANS, Aspect.PAST, Aspect.ROUTINE, Aspect.DOING})
_YOU = re.compile(r"\b(?:you|your|yours|yourself|u|ur|ya|yer|thee|we|we're|us|ull|youll|ud|"
                  r"youd|ure|youre|uve|youve)\b",
                  re.I)  # ('where are we right now?' asks of here, with the listener in it)

_HE_SHE = re.compile(r"\b(?:he|she|him|his|hers|their|(?:you|u) two|the two of (?:you|u|ya))\b",
                     re.I)  # fmt: skip


def _tense(act: Act, now: datetime) -> Act:
    """A window already over makes a question about plans one about the past, and the
    other way round ('what were you up to yesterday afternoon?')."""
    if act.window is None:
        return act
    bare = not (act.place or act.person or act.intent or act.obj)
    if bare and act.asks and act.aspect in (Aspect.GENERAL, Aspect.PLACE) and act.window.end > now:
        return replace(act, aspect=Aspect.PLANS, label="plans.at")  # 'where can I find you at 7?'
    if act.aspect is Aspect.PLANS and act.window.end <= now:
        return replace(act, aspect=Aspect.PAST, label="past")
    if act.aspect is Aspect.PLANS and act.window.end - act.window.start < timedelta(hours=12):
        return replace(act, label="plans.at")  # 'any plans for tonight?' asks of tonight only
    if act.aspect is Aspect.PAST and act.window.start > now:
        return replace(act, aspect=Aspect.PLANS, label="plans.at")
    return act


def _about_person(act: Act, state: DialogueState) -> Act:
    """'What is he up to?': the last person the conversation named."""
    for s in reversed(state.said):
        if s.act.person:
            return replace(
                act,
                aspect=Aspect.PERSON,
                person=s.act.person,
                intent="",
                event="",
                label="person.about" if act.label.startswith("follow") else act.label,
            )
    return act


# aspects whose words are about oneself or a named thing: a nearby intent does not take them
_OF_ONESELF = frozenset({Aspect.EVENT, Aspect.PERSON, Aspect.PLACE, Aspect.HOME, Aspect.WORK,
                         Aspect.ROUTINE, Aspect.FAMILY, Aspect.IDENTITY})  # fmt: skip
# ... but 'or not', 'or nah', 'or anything' only ask the yes or the no again
_CHOICE = re.compile(r"\w(?:,\s*|\s)or\s+(?!(?:not|no|nah|nope|anything|something|what|whatever)\b)"
                     r"[^?]*\?\s*$", re.I)
# 'Do you know when it is?' asks when; 'Is anyone in when you get back?' asks yes or no
_EMBEDDED_WH = re.compile(r"\b(?:know|tell|remember|sure|recall|say|guess|idea|heard|hear|"
                          r"find out|wonder)\b[^?]*?\b(who|when|where|what time)\b", re.I)


def _wh_of(act: Act, text: str) -> Wh:
    """The answer wanted: the question's own wh-word first ('When do you start work?' asks
    when, of work), then a yes/no form ('Were you at the party?'; 'Do you know when it
    is?' still asks when), then what the label usually wants."""
    if not act.asks:
        return act.wh
    said = _wh_by_form(text)
    if said in _EXPLICIT_WH:
        return said
    if _CHOICE.search(text):
        return Wh.WHAT  # 'an early riser or a night owl?' wants one of the two, not a yes
    core = main_clause(text)
    embedded = _EMBEDDED_WH.search(core)
    if embedded:  # 'Can you tell me where Hobbs Cafe is?' asks where
        return Wh.WHEN if embedded.group(1).lower() == "what time" else _WH_WORDS[
            embedded.group(1).lower()]  # fmt: skip
    if _YESNO_START.match(core):
        return Wh.YESNO
    if act.wh is Wh.YESNO:  # a label that is usually asked yes or no, asked otherwise
        if said in (Wh.YESNO, Wh.NONE) and not _ANY_WH.search(text):
            return Wh.YESNO  # its auxiliary dropped, as typed chat does ('living solo?')
        return said if said is not Wh.YESNO else Wh.WHAT
    return act.wh


_ANY_WH = re.compile(r"\b(?:who|whom|whose|what|when|where|why|how|which)\b", re.I)
_FOLLOW_BY_WH = {Wh.WHO: "follow.who", Wh.WHEN: "follow.when", Wh.WHERE: "follow.where",
                 Wh.WHY: "follow.why", Wh.YESNO: "follow.going"}  # fmt: skip


def _by_what_it_says(
    act: Act, text: str, label: Label | None, slots: Slots, seen_doing: bool, now: datetime
) -> Act:
    """The aspect the line's own words and time settle beside its label: doing what at a
    time to come is one's plans, a where-question of no one's own day asks of the town, a
    feeling of a time over asks of the past, an intent found by meaning alone makes it an
    event, and 'and you?' asks it back of the listener."""
    if act.aspect is Aspect.DOING and act.window is not None and act.window.start > now:
        act = replace(act, aspect=Aspect.PLANS, label="plans.at")  # 'doing what tonight?'
    if (act.wh is Wh.WHERE and act.asks and act.aspect in _ONES_OWN_DAY and not act.person
            and not _YOU.search(text)):  # 'Where do people go for a drink of an evening?'
        act = replace(act, aspect=Aspect.PLACE, label="place.about")  # asks of the town
    if (act.wh is Wh.WHERE and act.asks and _WHERE_TO.search(text) and not act.place
            and not act.person and not act.intent and not _YOU.search(text)):
        # 'Where can I go for a walk?' asks of the town; 'where can I find you?', 'once
        # you're done, where to next?' ask of the listener
        act = replace(act, aspect=Aspect.PLACE, label="place.about")
    if (act.aspect is Aspect.FEELINGS and act.window is not None and act.window.end <= now
            and not seen_doing):  # 'saw you fixing the fence; how did it go?' is feelings
        act = replace(act, aspect=Aspect.PAST, label="past")  # 'how was your evening?'
    if act.intent and not slots.intent and act.aspect not in _OF_ONESELF:
        act = replace(act, aspect=Aspect.EVENT, label="event.know")  # by meaning alone
    if _PRONOUN_YOU.search(text) or (label is not None and label.name == "follow.you"):
        act = replace(act, about_you=True)
    return act


def _in_conversation(
    act: Act, text: str, label: Label | None, state: DialogueState | None, now: datetime
) -> Act:
    """The act in the light of the talk so far: a short question keeps the time the talk
    was about, and a follow-up ('and you?', 'do you enjoy it?', 'who's hosting?' after the
    party) takes the conversation's topic."""
    act = _carried_window(act, state, now)
    topic = state.topic if state is not None else None
    if act.label == "time" and topic is not None and topic.aspect is not Aspect.GENERAL \
            and not _CLOCK_NOW.search(text):  # fmt: skip
        # 'Lunch - where do you go?' 'round what time though?' asks when of lunch, not the clock
        act = replace(act, label="follow.when", wh=Wh.WHEN, aspect=Aspect.GENERAL)
        return _follow(act, state)
    bare = not (act.person or act.place or act.obj or act.intent)
    refers = bare and act.asks and _REFERS.search(text) is not None and len(words(text)) <= 12
    clock = act.label == "time" and _CLOCK_NOW.search(text) is not None
    refers = refers and not clock  # 'what time is it?' asks the clock, not of 'it'
    topic = state.topic if state is not None else None
    if (
        bare
        and act.asks
        and topic is not None
        and topic.aspect is act.aspect
        and (topic.intent or topic.person or topic.place)
    ):
        refers = True  # more about the same thing: 'who's hosting?' after the party
    if (label is not None and label.follow) or act.about_you or refers:
        if (
            refers
            and label is not None
            and not label.follow
            and (label.kind is ActKind.OPINION or label.aspect is Aspect.INTERESTS)
        ):  # 'do you enjoy it?': an opinion of the topic, not a new topic
            act = replace(act, label="follow.opinion", kind=ActKind.OPINION)
        elif refers and topic is not None and label is not None and not label.follow \
                and act.wh in _FOLLOW_WH and label.name not in _OWN_FACET:  # fmt: skip
            act = replace(act, label=_FOLLOW_WH[act.wh])  # 'what time does it kick off?'
        act = _follow(act, state)
        if _HE_SHE.search(text) and state is not None:
            act = _about_person(act, state)
    return act


# the clock asked for itself: 'what time is it?', 'got the time?', 'what's the time now?'
_CLOCK_NOW = re.compile(r"\b(?:is it|it is|now|right now|the time|time's it|o'clock is it)\b",
                        re.I)  # fmt: skip


def referent(state: DialogueState, text: str) -> tuple[Aspect, str, str] | None:
    """What a pointing word of a line that names nothing stands for: the person or event
    the talk's topic named, else the one the answer to it brought up when the topic
    asked of news, events, plans or people ('Has Sam got a plan on the go?' - 'He's running
    for mayor' - 'Are you for it?' asks of the election). 'He', 'she' and 'they' point at
    people; 'it', 'this' and 'the whole thing' at an event.
    Returns the kind, the name and the line with the word put as that kind of thing."""
    topic = state.topic
    if topic is None:
        return None
    at = max((i for i, s in enumerate(state.said) if s.act.text == topic.text), default=-1)
    named = [state.said[at].act] if at >= 0 else []  # what the topic's line itself named
    if topic.aspect in _BRINGS_UP:
        named += [s.act for s in state.said[at + 1 :]]
    for aspect, field, pattern, mask in _POINTERS:
        m = pattern.search(text)
        # people from the topic's own words only: 'who else said they'll come?' after the
        # party points at nobody the answer named
        said = named[:1] if aspect is Aspect.PERSON else named
        source = next((a for a in said if getattr(a, field)), None)
        if m and source is not None:
            line = _agreeing(text[: m.start()] + mask + text[m.end():])
            return aspect, getattr(source, field), line
    return None


_BRINGS_UP = frozenset({Aspect.NEWS, Aspect.EVENT, Aspect.GENERAL, Aspect.PLANS, Aspect.PERSON})
_POINTERS = (
    (Aspect.PERSON, "person", PERSON_BACK, "someone"),
    (Aspect.EVENT, "intent",
     re.compile(r"\b(?:the whole thing|the thing|this thing|that thing|it|this|that)\b", re.I),
     "the event"),
)  # fmt: skip; a place is left to the follow-up ('who else do you see there?')
_AGREE = ((re.compile(r"\bare someone\b", re.I), "is someone"),
          (re.compile(r"\bsomeone (?:are|'re)\b", re.I), "someone is"),
          (re.compile(r"\bwere someone\b", re.I), "was someone"),
          (re.compile(r"\bsomeone were\b", re.I), "someone was"))  # fmt: skip


def _agreeing(text: str) -> str:
    """'what are someone like' as 'what is someone like': the mask is singular."""
    for pattern, said in _AGREE:
        text = pattern.sub(said, text)
    return text
