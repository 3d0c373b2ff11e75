"""The typed dialogue act: kind, topic and slots of one heard line.

An act never holds free text a rule must read again: the people, places, objects, events
and times it names are resolved against the town and the clock when it is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum


class ActKind(Enum):
    """What the speaker does with the line."""

    QUESTION = "question"
    OPINION = "opinion asked"  # 'what do you think of ...'
    STATEMENT = "statement"  # tells something (news, a claim, an answer)
    INVITATION = "invitation"
    REQUEST = "request"  # asks the listener to do something
    GREETING = "greeting"
    FAREWELL = "farewell"
    THANKS = "thanks"
    ACK = "acknowledgement"  # 'I see', 'sounds good', 'really?'


class Aspect(Enum):
    """What the line is about. The SELF_* aspects are the listener's own life."""

    IDENTITY = "identity"  # name, age, who one is
    WORK = "work"
    HOME = "home"  # where one lives, with whom
    FAMILY = "family"
    FRIENDS = "friends"
    INTERESTS = "interests"  # hobbies, likes, favourites
    ROUTINE = "routine"  # a usual day, when one wakes or sleeps
    FEELINGS = "feelings"  # how one is
    DOING = "doing"  # what one is doing now, where one is
    PLANS = "plans"  # what one will do (today, later, a time window)
    PAST = "past"  # what one did (yesterday, this morning)
    PERSON = "person"  # someone else (slot: person)
    PLACE = "place"  # a place in town (slot: place)
    OBJECT = "object"  # a thing and its state (slot: obj)
    EVENT = "event"  # a dated happening: a scenario intent or a remembered event
    NEWS = "news"  # what's new, gossip, anything happening
    TOWN = "town"  # the town itself, living here
    GENERAL = "general"  # anything else: answered from whatever retrieval finds


class Wh(Enum):
    """The kind of answer a question wants."""

    WHO = "who"
    WHAT = "what"
    WHEN = "when"
    WHERE = "where"
    WHY = "why"
    HOW = "how"
    YESNO = "yes/no"
    NONE = ""


@dataclass(frozen=True)
class Window:
    """A stretch of time a line names ('around eight tonight', 'yesterday afternoon')."""

    start: datetime
    end: datetime
    words: str = ""  # the words that named it, as said


@dataclass(frozen=True)
class Act:
    """One heard line, understood.

    `intent` is a scenario intent's id; `event` is the words of an event the town does
    not declare (a visitor's 'bake sale'), matched against memories by retrieval.
    `follow_up` marks a line whose topic came from the conversation so far ('and when?').
    `confidence` is the recogniser's similarity to its nearest exemplar (0..1).
    `event` also holds the content words of a question about something no field names
    (what retrieval should match), when no intent does.
    """

    kind: ActKind
    aspect: Aspect = Aspect.GENERAL
    wh: Wh = Wh.NONE
    person: str = ""
    place: str = ""
    obj: str = ""  # an object's address, or its name when several share it
    intent: str = ""
    event: str = ""
    window: Window | None = None
    follow_up: bool = False
    about_you: bool = False  # 'and you?': the question turned back to the last speaker
    confidence: float = 0.0
    text: str = ""
    named: str = ""  # the words that named the intent, as said ('party'), for a reply
    label: str = ""  # the exemplar group it matched ('work', 'event.when'); finer than aspect
    second: str = ""  # the runner-up reading (another aspect), for when the first finds nothing
    deep: bool = False  # read by the sentence model (a visitor's or an interviewer's line)

    @property
    def asks(self) -> bool:
        """Whether the line wants an answer."""
        return self.kind in (ActKind.QUESTION, ActKind.OPINION, ActKind.INVITATION,
                             ActKind.REQUEST)  # fmt: skip

    @property
    def topic_key(self) -> tuple[str, ...]:
        """What the line is about, as a comparable key (same key: same topic)."""
        return (self.aspect.value, self.person, self.place, self.obj, self.intent, self.event)


# How an honest "I don't know" opens, in any brain's answer: what `--json` reports as a
# fallback and what the one-a-conversation rule counts.
UNKNOWN_OPENERS = (
    "I don't know", "I haven't heard", "I'm not sure", "No idea", "Hm, you've got me",
)  # fmt: skip


def is_unknown(text: str) -> bool:
    return text.strip().startswith(UNKNOWN_OPENERS)
