"""The announce panel (N): town-wide news, posted as a notice on the town's notice boards.

The words go to the simulation as a player command (`Player.announce`); residents learn
them only by walking past a board and reading it, so the panel lists each notice with how
many residents have read it so far, and the player can watch the news arrive.
"""

from __future__ import annotations

import pygame

from game.core.clock import fmt_time
from game.core.errors import SmallvilleError
from game.sim.view import READ_ONLY, SimView
from game.ui import theme
from game.ui.input import Command, PanelAction
from game.ui.widgets import Button, Focus, Row, ScrollList, Span, TextBox

SIZE = (460, 260)
MIN_HEIGHT = 190  # the text box and a line or two of notices


class AnnouncePanel:
    """A text box for a notice, and the notices posted so far with their readers."""

    def __init__(self, sim: SimView) -> None:
        self.sim = sim
        self.rect = pygame.Rect(0, 0, *SIZE)
        self.box = TextBox('e.g. "Town meeting at Johnson Park on Wednesday at 5 pm"', size=17)
        self.post_button = Button("Post", size=16)
        self.close_button = Button("Close", size=16)
        self.focus = Focus(self.box)
        self.focus.set(self.box)
        self.list = ScrollList()
        self.note = ""
        self._shown: tuple = ()

    def update(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self.close_button.fit(0, rect.y + 8, pad=8)
        self.close_button.rect.right = rect.right - 10
        self.box.rect = pygame.Rect(rect.x + 12, rect.y + 62, rect.width - 86, 30)
        self.post_button.fit(rect.right - 66, rect.y + 62, height=30)
        top = rect.y + 120
        bottom = rect.bottom - (26 if self.note else 8)
        relaid = self.list.place(pygame.Rect(rect.x + 12, top, rect.width - 20, bottom - top))
        lines = tuple(self._lines())
        if relaid or lines != self._shown:
            self.list.set_rows([Row([Span(line, theme.TEXT, 15)]) for line in lines])
            self.list.scroll_to_end()
            self._shown = lines

    def _lines(self) -> list[str]:
        """'9:30 am  read by 2 of 3: Town meeting at ...': each notice, newest last."""
        player = self.sim.player
        if player is None:
            return []
        residents = len(self.sim.agents)
        out = []
        for notice in player.notices:
            readers = sum(notice.number in read for read in player.notices_read.values())
            out.append(
                f"{fmt_time(notice.posted)}  read by {readers} of {residents}: {notice.text}"
            )
        return out

    def click(self, pos: tuple[int, int]) -> PanelAction:
        if self.close_button.hit(pos):
            return PanelAction.CLOSE
        if self.post_button.hit(pos):
            self.post(self.box.take())
        elif not self.focus.click(pos):
            self.focus.set(None)
        return PanelAction.NONE

    def handle_text(self, command: Command) -> None:
        text = self.box.edit(command)
        if text is not None:
            self.post(text)

    def post(self, text: str) -> None:
        """Post the notice; a refusal keeps the words in the box to fix and send again."""
        if not text.strip():
            return
        player = self.sim.player
        try:
            if player is None:
                raise SmallvilleError(READ_ONLY)
            notice = player.announce(text)
        except SmallvilleError as exc:
            self.box.type(text)
            self.note = f"could not post it: {exc}"
            return
        self.note = f"posted at {fmt_time(notice.posted)}: residents read it as they pass a board"

    def wheel(self, pos: tuple[int, int], value: int) -> bool:
        if not self.rect.collidepoint(pos):
            return False
        self.list.scroll(value)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        r = self.rect
        theme.panel(surface, r)
        theme.blit_text(surface, "Announce to the town", (r.x + 12, r.y + 10), 22, theme.ACCENT)
        hint = "a notice on every notice board; Enter posts it"
        theme.blit_text(surface, hint, (r.x + 12, r.y + 38), 15, theme.MUTED)
        for widget in (self.close_button, self.box, self.post_button):
            widget.draw(surface)
        theme.blit_text(surface, "Notices posted", (r.x + 12, r.y + 100), 15, theme.MUTED)
        self.list.draw(surface, "none yet")
        if self.note:
            colour = theme.BAD if self.note.startswith("could not") else theme.GOOD
            note = theme.ellipsize(self.note, theme.font(15), r.width - 24)
            theme.blit_text(surface, note, (r.x + 12, r.bottom - 22), 15, colour)
