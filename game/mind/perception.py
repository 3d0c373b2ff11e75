"""Perception: what an agent sees within its vision radius, filtered to what is new.

The simulation gathers what is visible (it owns positions); this module decides what an
agent attends to (the nearest, up to its attention bandwidth) and what counts as new
(a subject not seen lately, or seen in another state), so an agent sitting beside a
studying friend for an hour stores that once, not 360 times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from game.core.mind_settings import MindSettings
from game.core.records import Event, Observation
from game.mind import facts
from game.mind.agent import Agent
from game.world.town import Area, AreaKind, Rect, Town

FORGET_AFTER = timedelta(hours=3)  # a subject unseen this long is noticed afresh
TROUBLE_AGAIN = timedelta(minutes=5)  # trouble nobody deals with is noticed again this often
NOTICE_BOARD = "notice board"  # the name (or role) of an object that carries notices


@dataclass(frozen=True)
class Sighting:
    """Something in sight (or smelt, or heard). A `salient` sighting (trouble) is attended
    before anything nearer, and `since`, when its state began (None: unknown), makes the
    same trouble begun again news. Routine states keep the paper's filter: seen once in a
    while, not each time a thing is used."""

    observation: Observation
    distance: int
    since: datetime | None = None
    salient: bool = False


def attend(
    agent: Agent, now: datetime, visible: Sequence[Sighting], settings: MindSettings
) -> list[Observation]:
    """Update what the agent has seen and return the observations worth remembering:
    trouble first, then the nearest, up to the attention bandwidth."""
    nearest = sorted(visible, key=lambda s: (not s.salient, s.distance, s.observation.subject))
    new: list[Observation] = []
    for sighting in nearest[: settings.attention_bandwidth]:
        obs = sighting.observation
        last = agent.seen.get(obs.subject)
        still = _still(sighting, last, now)
        if sighting.salient and still:
            continue  # trouble keeps the time it was last noticed, to notice it again
        agent.seen[obs.subject] = (obs.status, now)
        if still or (not sighting.salient and (obs.subject, obs.status) in agent.recent):
            continue
        agent.recent.append((obs.subject, obs.status))
        new.append(obs)
    return new


def _still(sighting: Sighting, last: tuple[str, datetime] | None, now: datetime) -> bool:
    """The subject was seen lately as it is now. Trouble left alone is noticed again every
    few minutes, and trouble begun again since (a stove put out and set burning again) is a
    new fire, whatever the agent remembers of the first."""
    obs = sighting.observation
    lately = TROUBLE_AGAIN if sighting.salient else FORGET_AFTER
    if last is None or last[0] != obs.status or now - last[1] >= lately:
        return False
    return not (sighting.salient and sighting.since is not None and last[1] < sighting.since)


# -- notices on the town's boards -----------------------------------------------------------


@dataclass(frozen=True)
class Notice:
    """A notice pinned on every notice board: town-wide news (the player's "announce").

    `event` is the time and place the words name, read once when it is posted (so
    'tomorrow' means the day after posting, whenever someone reads it)."""

    number: int  # 1, 2, ... in the order posted: which notices a resident has read
    text: str
    posted: datetime
    event: Event | None = None


def is_notice_board(area: Area) -> bool:
    """An object that carries notices: named so, or (a map may call it otherwise) whose
    role says so."""
    role = area.role.value if area.role is not None else ""
    return area.kind is AreaKind.OBJECT and NOTICE_BOARD in (area.name.lower(), role)


def notice_boards(town: Town) -> tuple[str, ...]:
    """The addresses of every notice board in town, in map order."""
    return tuple(a.address for a in town.areas.values() if is_notice_board(a))


def board_name(town: Town, address: str) -> str:
    """'the notice board at Oak Hill College': a board as a person would name it."""
    area = town.areas[address]
    sector = town.areas.get(address.split(":")[0])
    where = f" at {sector.name}" if sector is not None and sector is not area else ""
    return f"the {area.name}{where}"


def distance_to(rect: Rect, pos: tuple[int, int]) -> int:
    """Tiles from a position to the nearest tile of a rectangle (0 inside it)."""
    dx = max(rect.x - pos[0], pos[0] - (rect.x + rect.w - 1), 0)
    dy = max(rect.y - pos[1], pos[1] - (rect.y + rect.h - 1), 0)
    return max(dx, dy)


def read_notice(town: Town, board: str, reader: str, notice: Notice) -> Observation:
    """What a resident takes away from reading a notice: the board's claim, in fields.

    It is an object observation (the board is its subject), not routine: a model may
    react to what it reads, as to anything out of the ordinary."""
    fact = facts.notice_claim(board_name(town, board), reader, notice.text, notice.event)
    return Observation(board, facts.render(fact, town), False, "has a notice", fact)


def boards_in_sight(town: Town, agent: Agent, boards: Sequence[str], radius: int) -> list[str]:
    """The boards in the agent's room and within its sight."""
    return [
        b
        for b in boards
        if town.areas[b].parent == agent.location
        and distance_to(town.areas[b].rect, agent.pos) <= radius
    ]
