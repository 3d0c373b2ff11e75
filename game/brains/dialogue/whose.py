"""Whose life a question asks of: the listener's, someone else's, or anyone's.

An exemplar label says what aspect of a life a line asks about (work, plans, what one did);
the exemplars are written of 'you'. A question whose subject is someone else ('Where does
Carmen work?', 'Is Klaus going to the party?', 'What has she been up to?') or anyone
('Does anybody here paint for a living?') asks that same aspect of them. So the line is
read again as asked of the listener, with its subject put as 'you', and the aspect that
reading finds is the facet of the other person asked for (`person.work`, `person.past`
...), or, asked of anyone, a search for someone (`person.find`). One mechanism, with the
exemplars as its data: no wording here is of a particular question.

Who the subject is comes from the line's form: the person a slot named (or a pronoun that
points at them) standing before any 'you', with no 'you' in its own clause, and not after
a preposition ('with Sam'), once a frame of knowing that opens the line ('do you know',
'any idea') is set aside.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from .acts import Act, ActKind, Aspect
from .exemplars import labels
from .form import main_clause
from .state import DialogueState

# the aspect of a life, asked of someone else: the label its answer is planned under
OF_SOMEONE = {
    Aspect.WORK: "person.work",
    Aspect.DOING: "person.doing",
    Aspect.PLANS: "person.plans",
    Aspect.PAST: "person.past",
    Aspect.INTERESTS: "person.interests",
    Aspect.ROUTINE: "person.routine",
}
GOING = "person.going"  # whether someone goes (went) to an event
FIND = "person.find"
# ... and asked back of the listener ('and you?'), or of oneself by name: one's own
OWN: dict[str, tuple[str, Aspect]] = {
    **{label: (aspect.value, aspect) for aspect, label in OF_SOMEONE.items()},
    "person.plans": ("today", Aspect.PLANS),
    GOING: ("event.going", Aspect.EVENT),
}
# labels of the listener's going to an event: asked of someone else, theirs
_GOING_LABELS = frozenset({"event.going", "event.goers", "event.who_came"})
# aspects whose question, asked of anyone, looks for someone who does or is that
_FINDS = frozenset({Aspect.WORK, Aspect.INTERESTS, Aspect.IDENTITY})
_FIND_LABELS = frozenset({"work", "work.here", "interests", "identity"})  # ... as second reading
# what a line about anyone read first as news asks ('is anyone running for office?' asks
# of the election, not who works in an office)
_NOT_FOUND = frozenset({Aspect.NEWS})
# the facets that who someone is (person.about) tells already
_ABOUT_SAYS = frozenset({Aspect.INTERESTS, Aspect.ROUTINE})
# what a line already asks of the person it names, whatever its subject (what one talked
# about with someone is asked of 'you' with them, and stays so by its subject)
_KEEP = frozenset({"person.opinion", "person.book", "person.gift",
                   "person.compliment", "request", "statement.self", "statement.news",
                   "statement.event"})  # fmt: skip
# aspects a line about someone may be read as first (the rest say what they ask already:
# an event's time, a place, an object)
_READ_AGAIN = frozenset({*OF_SOMEONE, Aspect.PERSON, Aspect.NEWS, Aspect.GENERAL, Aspect.EVENT,
                         Aspect.IDENTITY, Aspect.FRIENDS, Aspect.FEELINGS, Aspect.PLACE,
                         Aspect.FAMILY, Aspect.HOME})  # fmt: skip

_YOU = re.compile(r"\b(?:you|your|yours|yourself|u|ur|ya|yer|you're|you've|you'll|you'd)\b",
                  re.I)  # fmt: skip
# a frame of knowing that opens a line: what follows it is the question ('Any idea where
# Carmen works?' asks where Carmen works)
_FRAME = re.compile(
    r"^\W*(?:(?:(?:do|did|would|could|can|might|does)\s+(?:you|u|ya)\s+)?(?:happen\s+to\s+)?"
    r"(?:know|remember|recall|reckon|suppose|guess)(?:\s+of)?|(?:any|got\s+any|have\s+you\s+"
    r"(?:got\s+)?any|no)\s+idea|(?:can|could|would)\s+(?:you|u)\s+tell\s+me|"
    r"(?:have|did)\s+(?:you|u)\s+(?:heard|hear)|you\s+know|i\s+wonder|i\s+was\s+wondering)"
    r"\b[\s,]*(?:if|whether)?\b\s*",
    re.I,
)
_BEFORE_NAME = frozenset(("with", "to", "about", "for", "from", "at", "of", "by", "and", "or",
                          "than", "like", "without", "beside", "near"))  # fmt: skip
_POINTER = re.compile(r"\b(?:he|she|they|his|her|their)\b", re.I)
_ANYONE = re.compile(
    r"^\W*(?:(?:is|are)\s+there\s+(?:any\s*one|anybody|someone|somebody|people|folks?|any)"
    r"(?:\s+(?:here|around(?:\s+here)?|in\s+town|round\s+here|nearby))?(?:\s+(?:who|that))?|"
    r"(?:does|do|is|has|did|can|could|would|will)\s+(?:any\s*one|anybody|someone|somebody)|"
    r"(?:any\s*one|anybody|someone|somebody)(?:\s+(?:here|around(?:\s+here)?|in\s+town))?"
    r"(?:\s+(?:who|that))?|who(?=\s+(?!(?:do|does|did|would|should|can|could|will|shall|may|"
    r"might|must|is|am|are|was|were|has|have|had|you|u|i|we|they|he|she|it|else)\b)\w))\b",
    re.I,
)
_AUX = frozenset(["does", "do", "is", "has", "did", "can", "could", "would", "will"])
_THERE = re.compile(r"^\W*(?:is|are)\s+there\b", re.I)
_AGREE = ((re.compile(r"\b(?:does|do) you\b", re.I), "do you"),
          (re.compile(r"\bhas you\b", re.I), "have you"),
          (re.compile(r"\b(?:is|are) you\b", re.I), "are you"),
          (re.compile(r"\bwas you\b", re.I), "were you"),
          (re.compile(r"\byou is\b", re.I), "you are"),
          (re.compile(r"\byou has\b", re.I), "you have"),
          (re.compile(r"\byou was\b", re.I), "you were"),
          (re.compile(r"\byou's\b", re.I), "your"))  # fmt: skip


def asked_part(text: str) -> str:
    """The question a line asks, without an opening clause or a frame of knowing, before
    it or tagged on after it ('Is anyone here into fitness, do you know?')."""
    core = _TAGGED.sub("?", main_clause(text))
    framed = _FRAME.match(core)
    return core[framed.end():] if framed and core[framed.end():].strip() else core


_TAGGED = re.compile(r"[,;]\s*(?:(?:do|did|would|d')?\s*(?:you|u|ya)\s+)?(?:know|think|"
                     r"reckon|say|suppose|guess|remember)\s*\??\s*$", re.I)  # fmt: skip


def _name_at(text: str, person: str) -> re.Match[str] | None:
    """Where the line names `person`: the full name, else the first or the last."""
    for form in (person, *person.split()):
        m = re.search(rf"(?<![\w'])({re.escape(form)})(?:'s)?(?![\w'])", text, re.I)
        if m:
            return m
    return None


def subject_named(text: str, person: str) -> re.Match[str] | None:
    """The words naming `person` when they are what the question asks of: before any
    'you', and not the object of a preposition ('are you going with Sam?' asks of you)."""
    asked = asked_part(text)
    at = _name_at(asked, person) or _POINTER.search(asked)
    if at is None:
        return None
    before = asked[: at.start()].split()
    if before and before[-1].lower().strip(",") in _BEFORE_NAME:
        return None
    you = _YOU.search(asked)
    if you is not None and you.start() < at.start():
        return None
    # ... nor with a 'you' in its own clause: 'has Arthur ever crossed your path?' asks of
    # one's acquaintance, 'what does Carmen do, do you know?' of Carmen
    clause = re.split(r"[,;:]| - ", asked[at.end():], maxsplit=1)[0]
    return None if _YOU.search(clause) else at


def asks_of_anyone(text: str) -> re.Match[str] | None:
    """The words that make 'anyone' the question's subject ('Does anybody here ...',
    'Is there someone who ...', 'Who runs ...'), when no 'you' is in it."""
    asked = asked_part(text)
    return None if _YOU.search(asked) else _ANYONE.match(asked)


def as_of_you(text: str, at: re.Match[str]) -> str:
    """The question with its subject put as the listener ('Where does Carmen work?' as
    'Where do you work?', 'What's Ryan's job?' as 'What's your job?')."""
    asked = asked_part(text)
    said = at.group(0)
    start, end = at.start(), at.end()
    if asked[start:end] != said:  # the match came from the same text
        start = asked.find(said)
        end = start + len(said)
    whose = said.lower().endswith("'s") or said.lower() in ("his", "her", "their")
    put = "your" if whose else "you"
    if _ANYONE.match(said):  # 'does anybody here ...' as 'do you ...', 'who runs' as 'do you run'
        aux = said.split()[0].lower()
        put = f"{aux} you" if aux in _AUX and not _THERE.match(said) else "do you"
    line = f"{asked[:start]}{put}{asked[end:]}"
    for pattern, agreed in _AGREE:
        line = pattern.sub(agreed, line)
    return line


def of_whom(act: Act, reread: Callable[[str], Act], state: DialogueState | None = None) -> Act:
    """The act asked of the one its line is about: a question of someone else's work,
    day, plans or going is that person's (`person.work` ..., `person.going`); a question
    of what anyone does looks for someone (`person.find`). `reread` reads a line alone,
    as the act's own line was read; `state`, the conversation so far, says whom a pointing
    word means when the line named no one."""
    if act.about_you and act.label in OWN:  # 'and you?' after 'what does Sam do?'
        label, aspect = OWN[act.label]
        return replace(act, label=label, aspect=aspect, person="")
    if not act.asks or act.kind is ActKind.OPINION or act.label in _KEEP or act.about_you:
        return act
    pointed = _POINTER.search(asked_part(act.text)) is not None
    if pointed and not act.person and state is not None:  # 'is he going to the party?'
        act = replace(act, person=next((s.act.person for s in reversed(state.said)
                                        if s.act.person), ""))  # fmt: skip
    if act.follow_up and not (act.person and pointed):
        return act  # a follow-up asks of someone only by pointing at them ('where is she?')
    if act.aspect not in _READ_AGAIN:
        return act
    if act.person:
        at = subject_named(act.text, act.person)
        if at is None:
            return act
        asked = reread(as_of_you(act.text, at))
        if act.intent and asked.label in _GOING_LABELS:
            return replace(act, aspect=Aspect.EVENT, label=GOING, second="")
        # the facet: the reading's aspect, else its runner-up's ('do you have anything on
        # tomorrow?' reads as news of events first, as one's plans second)
        label = OF_SOMEONE.get(asked.aspect)
        if label is None and asked.aspect is Aspect.EVENT:
            label = OF_SOMEONE.get(_aspect_of(asked.second))
        if label is None or (act.aspect is Aspect.PERSON and asked.aspect in _ABOUT_SAYS):
            return act  # 'what's Sam like?': who someone is says their interests already
        # the line's runner-up reading was of the listener's own life: it is dropped
        return replace(act, aspect=Aspect.PERSON, label=label, window=act.window or asked.window,
                       intent="" if asked.aspect is Aspect.WORK else act.intent,
                       second="")  # fmt: skip
    anyone = asks_of_anyone(act.text)
    if anyone is None and act.label == FIND and act.second and _YOU.search(asked_part(act.text)):
        # 'Have you been teaching yourself anything?' reads as looking for someone, but
        # asks of 'you': the runner-up reading is the line's
        aspect = _aspect_of(act.second)
        return replace(act, label=act.second, aspect=aspect, second="") if aspect else act
    if anyone is None or act.intent or act.aspect in _NOT_FOUND:
        return act
    asked = reread(as_of_you(act.text, anyone))
    if asked.aspect in _FINDS or asked.label == FIND or asked.second in _FIND_LABELS:
        return replace(act, aspect=Aspect.PERSON, label=FIND, second="")
    return act


def _aspect_of(label: str) -> Aspect | None:
    found = next((g for g in labels() if g.name == label), None) if label else None
    return found.aspect if found is not None else None
