"""The announce panel (N): town-wide news, posted as a notice on the town's notice boards.

The words go to the simulation as a player command (`Player.announce`); residents learn
them only by walking past a board and reading it, so the panel lists each notice with how
many residents have read it so far, and the player can watch the news arrive.
"""

from __future__ import annotations

import pygame

from game.core.clock import fmt_time
from game.core.errors import SmallvilleError
from game.sim.player import NOTICE_LIMIT
from game.sim.view import READ_ONLY, SimView
from game.ui import theme
from game.ui.input import PanelAction
from game.ui.panel import BoxPanel, Dock
from game.ui.widgets import Button, Row, Span, TextBox

SIZE = (460, 260)
MIN_HEIGHT = 190  # the text box and a line or two of notices


class AnnouncePanel(BoxPanel):
    """A text box for a notice, and the notices posted so far with their readers."""

    dock = Dock.STACK
    size = SIZE
    min_height = MIN_HEIGHT

    def __init__(self, sim: SimView) -> None:
        self.box = TextBox(
            'e.g. "Town meeting at Johnson Park on Wednesday at 5 pm"',
            size=17,
            limit=NOTICE_LIMIT,
            label="a notice",
        )
        super().__init__(self.box)
        self.sim = sim
        self.post_button = Button("Post", size=16)
        self.focus.set(self.box)
        self._shown: tuple = ()

    def update(self, rect: pygame.Rect, dt: float = 0.0) -> None:
        self.rect = rect
        self.place_close_button()
        self.box.rect = pygame.Rect(rect.x + 12, rect.y + 62, rect.width - 86, 30)
        self.post_button.fit(rect.right - 66, rect.y + 62, height=30)
        top = rect.y + 120
        note = self.note_height()
        bottom = rect.bottom - (note + 10 if note else 8)
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
            self.submit(self.box)
        elif not self.focus.click(pos):
            self.focus.set(None)
        return PanelAction.NONE

    def submit(self, box: TextBox) -> None:
        """Enter or Post: post the notice; a refusal keeps the words in the box to fix."""
        if not box.text.strip():
            self.tell("Nothing posted: type the notice first, then Post.")
            return
        if self.post(box.text):
            box.take()

    def post(self, text: str) -> bool:
        """Post the notice; True if it went up. The note says what happened."""
        if not text.strip():
            return False
        player = self.sim.player
        try:
            if player is None:
                raise SmallvilleError(READ_ONLY)
            notice = player.announce(text)
        except SmallvilleError as exc:
            self.tell(f"could not post it: {exc}")
            return False
        when = fmt_time(notice.posted)
        self.tell(f"posted at {when}: residents read it as they pass a board", theme.GOOD)
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
        self.draw_note(surface, r.bottom - 6)
