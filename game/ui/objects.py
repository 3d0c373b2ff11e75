"""The object editor: read an object's address and state, and type a new state.

The new state goes to the simulation as a player command; residents who see the object
perceive it like any other change and may react (a burning stove gets turned off). The
panel lists the object's recent changes, so the player can watch the reaction arrive.
"""

from __future__ import annotations

import pygame

from game.core.clock import fmt_time
from game.core.errors import SmallvilleError
from game.sim.player import STATE_LIMIT
from game.sim.view import READ_ONLY, SimView, state_changes
from game.ui import theme
from game.ui.input import PanelAction
from game.ui.inspector import address_text
from game.ui.panel import BoxPanel, Dock
from game.ui.widgets import Button, Paragraph, Row, Span, TextBox

SIZE = (460, 300)
MIN_HEIGHT = 226  # the state box and a few history lines
HISTORY = 200  # changes kept in the scrolling history


class ObjectEditor(BoxPanel):
    """A small panel about one object (an area of kind OBJECT).

    Why it says so when nothing changes: a Set that does nothing, or a state cut short,
    looks like a broken game; so an empty box, a state it already has and over-long typing
    each get a line saying why."""

    dock = Dock.STACK
    size = SIZE
    min_height = MIN_HEIGHT

    def __init__(self, sim: SimView, address: str) -> None:
        self.box = TextBox(
            'a new state, e.g. "burning"', size=18, limit=STATE_LIMIT, label="a state"
        )
        super().__init__(self.box)
        self.sim, self.address = sim, address
        self.area = sim.town.areas[address]
        self.set_button = Button("Set", size=16)
        self.reset_button = Button(f"Reset to {self.area.default_state}", size=15)
        self.history: list[str] = []
        self.state_text = Paragraph(20)
        self._seen = 0
        self._shown = -1  # history length the list was built for

    @property
    def subject(self) -> str:
        return self.address

    @property
    def state(self) -> str:
        return self.sim.object_state(self.address).state

    def update(self, rect: pygame.Rect, dt: float = 0.0) -> None:
        self.rect = rect
        self.place_close_button()
        spans = [Span("State:", theme.MUTED, 20), Span(self._state_line(), theme.TEXT, 20)]
        y = rect.y + 60 + max(26, self.state_text.layout(spans, rect.width - 24)) + 2
        self.box.rect = pygame.Rect(rect.x + 12, y, rect.width - 80, 30)
        self.set_button.fit(rect.right - 60, y, height=30)
        self.reset_button.fit(rect.x + 12, y + 36, pad=8, height=24)
        self._read_log()
        top = y + 88
        note = self.note_height()
        bottom = rect.bottom - (note + 10 if note else 8)
        relaid = self.list.place(pygame.Rect(rect.x + 12, top, rect.width - 20, bottom - top))
        if relaid or len(self.history) != self._shown:
            at_end = self.list.offset >= self.list.content_height - self.list.rect.height - 2
            self.list.set_rows([Row([Span(line, theme.TEXT, 15)]) for line in self.history])
            if at_end:
                self.list.scroll_to_end()  # the newest change in view, unless scrolled back
            self._shown = len(self.history)

    def _read_log(self) -> None:
        """Changes of this object's state since the last look (the log only grows): who
        changed it, to what, and when (with the day: a history spans days), from the log's
        typed records."""
        events = len(self.sim.log.events)
        if self._seen > events:
            self._seen, self.history = 0, []
        for change in state_changes(self.sim.log, self._seen, self.address):
            who = "you" if change.by_player else change.by
            when = f"{change.time:%a} {fmt_time(change.time)}"
            self.history.append(f"{when}  {who}: {change.old} -> {change.state}")
        self.history = self.history[-HISTORY:]
        self._seen = events

    def click(self, pos: tuple[int, int]) -> PanelAction:
        if self.close_button.hit(pos):
            return PanelAction.CLOSE
        if self.set_button.hit(pos):
            self.submit(self.box)
        elif self.reset_button.hit(pos):
            self.apply(self.area.default_state)
        elif not self.focus.click(pos):
            self.focus.set(None)
        return PanelAction.NONE

    def submit(self, box: TextBox) -> None:
        """Enter or Set: the typed state; the box empties only when it took."""
        if self.apply(box.text):
            box.take()

    def apply(self, state: str) -> bool:
        """Set the object's state; True if it changed. The note says what happened."""
        state = " ".join(state.split())
        if not state:
            self.tell('Nothing changed: type a new state first (e.g. "burning"), then Set.')
            return False
        if state.lower() == self.state.lower():
            self.tell(f"Nothing changed: the {self.area.name} is already {self.state}.")
            return False
        player = self.sim.player
        try:
            if player is None:
                raise SmallvilleError(READ_ONLY)
            player.set_object_state(self.address, state)
        except SmallvilleError as exc:
            self.tell(f"could not change it: {exc}")
            return False
        self.tell(f"The {self.area.name} is now {self.state}.", theme.GOOD)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        r = self.rect
        theme.panel(surface, r)
        room = self.close_button.rect.x - r.x - 24
        title = theme.ellipsize(self.area.name, theme.font(22), room)
        theme.blit_text(surface, title, (r.x + 12, r.y + 10), 22, theme.ACCENT)
        where = theme.ellipsize(address_text(self.address), theme.font(16), r.width - 24)
        theme.blit_text(surface, where, (r.x + 12, r.y + 38), 16, theme.MUTED)
        self.state_text.draw(surface, (r.x + 12, r.y + 60))
        for widget in (self.close_button, self.box, self.set_button, self.reset_button):
            widget.draw(surface)
        label = (r.x + 12, self.box.rect.y + 68)
        theme.blit_text(surface, "History (wheel scrolls)", label, 15, theme.MUTED)
        self.list.draw(surface, "no changes yet")
        self.draw_note(surface, r.bottom - 6)

    def _state_line(self) -> str:
        """'burning (set by you)': the state, and who changed it last."""
        current = self.sim.object_state(self.address)
        if not current.set_by:
            return current.state
        who = "you" if current.by_player else current.set_by
        return f"{current.state} (set by {who})"
