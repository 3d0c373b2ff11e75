"""The "what happened" log: object changes, reactions, conversations, wakings, and the
UI's own notes (a chat that ended), newest last, in a corner of the map.

Why a log beside the toasts: a toast fades in seconds, while at 16x the player looks away
and comes back; the log keeps the last entries, and L opens it wider.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from game.core.clock import fmt_time
from game.sim.player import EditSource
from game.sim.view import Happening, HappeningKind, SimView, happenings
from game.ui import theme
from game.ui.overlays import notable

KEEP = 200
COMPACT = 3
EXPANDED = 14

_COLOURS = {
    HappeningKind.OBJECT: theme.ACCENT,
    HappeningKind.REACTION: theme.GOOD,
    HappeningKind.CONVERSATION: theme.LINK,
    HappeningKind.VISITOR: theme.LINK,
    HappeningKind.WAKE: theme.MUTED,
    HappeningKind.SLEEP: theme.MUTED,
}


@dataclass(frozen=True)
class FeedLine:
    time: str
    text: str
    color: theme.Color


@dataclass
class Feed:
    """The log's lines and whether it is open wide."""

    lines: list[FeedLine] = field(default_factory=list)
    expanded: bool = False
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))  # as drawn
    _seen: int = -1

    def watch(self, sim: SimView) -> list[Happening]:
        """Read the happenings logged since the last call; returns them."""
        events = len(sim.log.events)
        fresh = self._seen < 0 or self._seen > events  # a new town: the recent past only
        start = max(0, events - 400) if fresh else self._seen
        new = happenings(sim.log, start)
        self._seen = events
        for item in new:
            if item.kind is HappeningKind.OBJECT and not self._news(sim, item):
                continue
            self.lines.append(FeedLine(fmt_time(item.time), describe(item), _COLOURS[item.kind]))
        self.lines = self.lines[-KEEP:]
        return new

    @staticmethod
    def _news(sim: SimView, item: Happening) -> bool:
        """An object change worth a line: the player's, or a trouble starting or ending."""
        area = sim.town.areas.get(item.address)
        if area is None:
            return False
        return item.who == EditSource.PLAYER or notable(item.old, item.state, area.default_state)

    def note(self, time: str, text: str, color: theme.Color = theme.TEXT) -> None:
        """A line from the UI itself (the chat panel closed, an autosave)."""
        self.lines.append(FeedLine(time, text, color))
        self.lines = self.lines[-KEEP:]

    def toggle(self) -> None:
        self.expanded = not self.expanded

    def draw(self, surface: pygame.Surface, room: pygame.Rect) -> None:
        """The latest lines at the bottom of `room`, as many as fit; nothing if no room."""
        fnt = theme.font(15)
        line_h = fnt.get_linesize()
        fit = max(0, (room.height - 26) // line_h)
        shown = self.lines[-min(fit, EXPANDED if self.expanded else COMPACT) :] if fit else []
        self.rect = pygame.Rect(room.right, room.bottom, 0, 0)
        if not shown or room.width <= 0:
            return
        width, h = room.width, line_h * len(shown) + 26
        box = self.rect = pygame.Rect(room.right - width, room.bottom - h, width, h)
        theme.panel(surface, box, (16, 18, 26, 200))
        title = "What happened (L: less)" if self.expanded else "What happened (L: more)"
        theme.blit_text(surface, title, (box.x + 8, box.y + 4), 14, theme.MUTED)
        y = box.y + 20
        for line in shown:
            text = theme.ellipsize(f"{line.time}  {line.text}", fnt, width - 16)
            surface.blit(theme.text_image(text, 15, line.color), (box.x + 8, y))
            y += line_h


def describe(item: Happening) -> str:
    """A happening in a few words: 'The stove is now off (set by Isabella Rodriguez)'."""
    if item.kind is HappeningKind.OBJECT:
        who = "you" if item.who == EditSource.PLAYER else item.who
        thing = item.address.split(":")[-1] if item.address else "thing"
        return change_text(thing, item.state, who)
    return item.text


def change_text(name: str, state: str, who: str) -> str:
    """'The kitchen sink is now overflowing (set by you)': an object's change, one sentence
    for the log and the toasts alike (the state is the player's word, not a sentence)."""
    return f"The {name} is now {state} (set by {who})"
