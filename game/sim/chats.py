"""The visitor's conversations: when one begins, what holds it, how it ends, and whom T
talks to.

Why a model of its own: a chat used to be one endless list of lines per resident, held by
a three-minute timer and a four-tile radius. The resident who moved to the next table
"walked away"; a player typing a long sentence at 8x lost the chat; Monday's goodbye came
back on Wednesday as "(conversation over)"; T opened someone behind a wall while the one
who had just said hello waited. Here a conversation has a beginning and an end, with a
reason (`ChatEnd`), and reach is a rule: near enough, in the same building or street, and
no wall between (`Town.in_sight`). A conversation going on holds a little further, as two
people talking do when one takes a step.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from game.mind.agent import Agent
from game.world.town import Town, sector_of

Tile = tuple[int, int]

CHAT_RANGE = 4  # tiles: how near the visitor must stand to start talking
CHAT_KEEP = CHAT_RANGE + 2  # tiles: how far a conversation going on stretches
CHAT_IDLE = timedelta(minutes=3)  # game time with no word said nor typed before a chat lapses
CHAT_LEAST = timedelta(minutes=2)  # the next plan item ends no chat shorter than this
EXCUSED = timedelta(minutes=10)  # a resident who had to go is not held up again this soon


class ChatEnd(StrEnum):
    """How a conversation with the visitor ended."""

    GOODBYE = "goodbye"  # a line that ends it
    PLAN = "plan"  # the resident's next plan item was due
    SILENCE = "silence"  # a few game minutes with nothing said or typed
    WALKED = "walked"  # the two are out of each other's reach
    LEFT = "left"  # the visitor closed the chat, or turned to someone else


@dataclass
class VisitorChat:
    """One conversation of the visitor with one resident, from its first word to its end.

    Its lines are the resident's transcript (`Player.chats`) from `first` on: a new
    conversation either starts a new transcript (T, a greeting) or goes on below the last
    one (the visitor speaks again in a panel still open)."""

    resident: str
    began: datetime
    heard: datetime  # the last word said, or typed towards the resident
    greeted: bool = False  # the resident spoke first
    due: datetime | None = None  # when the resident's next plan item calls them away
    next_item: str = ""  # ... and what it is ('having lunch at Hobbs Cafe')
    first: int = 0
    logged: bool = False  # its one line in the event log is written
    visitor_spoke: bool = False
    ended: ChatEnd | None = None

    @property
    def live(self) -> bool:
        return self.ended is None

    def over(self, now: datetime, near: bool, pending: bool) -> ChatEnd | None:
        """Why the conversation ends now (None: it goes on). A reply on its way counts as
        talk (the silence is the resident's); the plan waits for that reply too."""
        if not near:
            return ChatEnd.WALKED
        if pending:
            return None
        if now - self.heard > CHAT_IDLE:
            return ChatEnd.SILENCE
        if self.due is not None and now >= max(self.due, self.began + CHAT_LEAST):
            return ChatEnd.PLAN
        return None

    def ending(self) -> str:
        """What the window says when the conversation ended by itself in a way the chat
        does not show ('' otherwise: a goodbye is a line, walking away closes the chat)."""
        if self.ended is ChatEnd.PLAN:
            doing = f": {self.next_item}" if self.next_item else ""
            return f"{self.resident} has to go now{doing}."
        if self.ended is ChatEnd.SILENCE:
            return f"{self.resident} went back to what they were doing."
        return ""


def in_reach(town: Town, pos: Tile, agent: Agent, talking: bool) -> bool:
    """Whether the visitor at `pos` can talk with the resident: within `CHAT_RANGE`, in the
    same building or on the same street, with no wall between; a conversation going on
    holds within `CHAT_KEEP` while no wall comes between."""
    d = distance(pos, agent.pos)
    if not town.in_sight(pos, agent.pos):
        return False
    if talking:
        return d <= CHAT_KEEP
    same = sector_of(town.address_at(*pos)) == sector_of(agent.location)
    return d <= CHAT_RANGE and same


class TalkWhy(StrEnum):
    """Why T talks with whom it does."""

    TALKING = "talking"  # the conversation going on
    GREETED = "greeted"  # spoke to the visitor first, moments ago, and waits for an answer
    CHOSEN = "chosen"  # open in the inspector
    NEAREST = "nearest"  # the nearest awake resident in reach


@dataclass(frozen=True)
class TalkTarget:
    resident: str
    why: TalkWhy

    def describe(self) -> str:
        """What the window says when T picks someone ('' when it is plain: the chat going
        on, or the resident the player has open)."""
        if self.why is TalkWhy.GREETED:
            return f"Answering {self.resident}, who greeted you."
        if self.why is TalkWhy.NEAREST:
            return f"Talking with {self.resident}, the nearest resident in sight."
        return ""


def nearest(pos: Tile, candidates: Iterable[Agent]) -> Agent | None:
    """The nearest of the candidates, one free to talk before one in a conversation."""
    return min(
        candidates,
        key=lambda a: (a.conversation is not None, distance(pos, a.pos), a.name),
        default=None,
    )


def distance(a: Tile, b: Tile) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
