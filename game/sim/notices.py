"""The town's notice boards: the notices posted on every board and who has read which.

Apart from the player's commands (`game.sim.player`), which post them, so what a save
keeps of them, and how a resident passing a board reads each notice once, is one small
part with its own state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from game.brains.event_words import parse_event
from game.core.codec import decode, encode
from game.core.errors import SmallvilleError
from game.core.records import Observation
from game.core.text import clean
from game.mind.agent import Agent
from game.mind.perception import Notice, boards_in_sight, notice_boards, read_notice
from game.world.town import Town

NOTICE_LIMIT = 500  # characters of one notice


@dataclass
class NoticeBoards:
    """Notices on every board of a town, oldest first, and the numbers each resident read."""

    town: Town
    boards: tuple[str, ...] = ()
    notices: list[Notice] = field(default_factory=list)
    read: dict[str, set[int]] = field(default_factory=dict)  # resident -> notices read

    @classmethod
    def of(cls, town: Town) -> NoticeBoards:
        return cls(town, notice_boards(town))

    def post(self, text: str, now: datetime) -> Notice:
        """A new notice on every board; a time and place in it are read once, now."""
        text = " ".join(clean(text).split())[:NOTICE_LIMIT]
        if not text:
            raise SmallvilleError("a notice needs some words")
        if not self.boards:
            raise SmallvilleError("this town has no notice board to post on")
        places = [a.name for a in self.town.sectors()]
        event = parse_event(text, places, today=now.date())
        notice = Notice(len(self.notices) + 1, text, now, event)
        self.notices.append(notice)
        return notice

    def seen(self, agent: Agent, radius: int) -> list[Observation]:
        """The notices a resident reads now: those on a board in its room and in sight
        that it has not read yet (each once, whichever board it passes)."""
        if not self.notices:
            return []
        boards = boards_in_sight(self.town, agent, self.boards, radius)
        if not boards:
            return []
        read = self.read.setdefault(agent.name, set())
        fresh = [n for n in self.notices if n.number not in read]
        read.update(n.number for n in fresh)
        return [read_notice(self.town, boards[0], agent.name, n) for n in fresh]

    def get_state(self) -> dict[str, Any]:
        """The notices and who has read which, as a save keeps them (plain JSON)."""
        return {
            "notices": encode(self.notices),
            "notices_read": {k: sorted(v) for k, v in sorted(self.read.items()) if v},
        }

    def set_state(self, doc: dict[str, Any]) -> None:
        """The notices of a save (none in a save made before there were notices)."""
        self.notices = decode(list[Notice], doc.get("notices", []))
        read = decode(dict[str, list[int]], doc.get("notices_read", {}))
        self.read = {k: set(v) for k, v in read.items()}
