"""The object editor: read an object's address and state, and type a new state.

The new state goes to the simulation as a player command; residents who see the object
perceive it like any other change and may react (a burning stove gets turned off). The
panel lists the object's recent changes, so the player can watch the reaction arrive.
"""

from __future__ import annotations

import pygame

from game.core.clock import fmt_time
from game.core.errors import SmallvilleError
from game.sim.view import READ_ONLY, SimView, state_changes
from game.ui import theme
from game.ui.input import Command, PanelAction
from game.ui.inspector import address_text
from game.ui.widgets import Button, Focus, Row, ScrollList, Span, TextBox

SIZE = (460, 300)
HISTORY = 200  # changes kept in the scrolling history


class ObjectEditor:
    """A small panel about one object (an area of kind OBJECT)."""

    def __init__(self, sim: SimView, address: str) -> None:
        self.sim, self.address = sim, address
        self.area = sim.town.areas[address]
        self.rect = pygame.Rect(0, 0, *SIZE)
        self.box = TextBox('a new state, e.g. "burning"', size=18)
        self.set_button = Button("Set", size=16)
        self.reset_button = Button(f"Reset to {self.area.default_state}", size=15)
        self.close_button = Button("Close", size=16)
        self.focus = Focus(self.box)
        self.note = ""
        self.history: list[str] = []
        self.list = ScrollList()
        self._seen = 0
        self._shown = -1  # history length the list was built for

    @property
    def state(self) -> str:
        return self.sim.object_state(self.address).state

    def update(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self.close_button.fit(0, rect.y + 8, pad=8)
        self.close_button.rect.right = rect.right - 10
        self.box.rect = pygame.Rect(rect.x + 12, rect.y + 88, rect.width - 80, 30)
        self.set_button.fit(rect.right - 60, rect.y + 88, height=30)
        self.reset_button.fit(rect.x + 12, rect.y + 124, pad=8, height=24)
        self._read_log()
        top = rect.y + 176
        relaid = self.list.place(
            pygame.Rect(
                rect.x + 12, top, rect.width - 20, rect.bottom - top - (26 if self.note else 8)
            )
        )
        if relaid or len(self.history) != self._shown:
            at_end = self.list.offset >= self.list.content_height - self.list.rect.height - 2
            self.list.set_rows([Row([Span(line, theme.TEXT, 15)]) for line in self.history])
            if at_end:
                self.list.scroll_to_end()  # the newest change in view, unless scrolled back
            self._shown = len(self.history)

    def _read_log(self) -> None:
        """Changes of this object's state since the last look (the log only grows): who
        changed it, to what, and when, from the log's typed records."""
        events = len(self.sim.log.events)
        if self._seen > events:
            self._seen, self.history = 0, []
        for change in state_changes(self.sim.log, self._seen, self.address):
            who = "you" if change.by_player else change.by
            self.history.append(f"{fmt_time(change.time)}  {who}: {change.old} -> {change.state}")
        self.history = self.history[-HISTORY:]
        self._seen = events

    def click(self, pos: tuple[int, int]) -> PanelAction:
        if self.close_button.hit(pos):
            return PanelAction.CLOSE
        if self.set_button.hit(pos):
            self.apply(self.box.take())
        elif self.reset_button.hit(pos):
            self.apply(self.area.default_state)
        elif not self.focus.click(pos):
            self.focus.set(None)
        return PanelAction.NONE

    def handle_text(self, command: Command) -> None:
        text = self.box.edit(command)
        if text is not None:
            self.apply(text)

    def apply(self, state: str) -> None:
        if not state:
            return
        player = self.sim.player
        try:
            if player is None:
                raise SmallvilleError(READ_ONLY)
            player.set_object_state(self.address, state)
            self.note = ""
        except SmallvilleError as exc:
            self.note = f"could not change it: {exc}"

    def wheel(self, pos: tuple[int, int], value: int) -> bool:
        """The wheel scrolls the history."""
        if not self.rect.collidepoint(pos):
            return False
        self.list.scroll(value)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        r = self.rect
        theme.panel(surface, r)
        theme.blit_text(surface, self.area.name, (r.x + 12, r.y + 10), 22, theme.ACCENT)
        where = theme.ellipsize(address_text(self.address), theme.font(16), r.width - 24)
        theme.blit_text(surface, where, (r.x + 12, r.y + 38), 16, theme.MUTED)
        theme.blit_text(surface, f"State: {self._state_line()}", (r.x + 12, r.y + 60), 20)
        for widget in (self.close_button, self.box, self.set_button, self.reset_button):
            widget.draw(surface)
        theme.blit_text(surface, "History (wheel scrolls)", (r.x + 12, r.y + 156), 15, theme.MUTED)
        self.list.draw(surface, "no changes yet")
        if self.note:
            theme.blit_text(surface, self.note, (r.x + 12, r.bottom - 22), 15, theme.BAD)

    def _state_line(self) -> str:
        """'burning (set by you)': the state, and who changed it last."""
        current = self.sim.object_state(self.address)
        if not current.set_by:
            return current.state
        who = "you" if current.by_player else current.set_by
        return f"{current.state} (set by {who})"
