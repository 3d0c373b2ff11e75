"""The chat panel: the visitor talking with one resident.

What the visitor says goes to the player's commands (`visitor_say`), which answer through the
resident's dialogue path on the thread pool; the panel only shows the lines as they
arrive, who is speaking, and when the resident ends the conversation.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.core.errors import SmallvilleError
from game.core.records import Utterance
from game.sim.view import READ_ONLY, SimView
from game.ui import theme
from game.ui.input import Command, PanelAction
from game.ui.widgets import Button, Focus, Row, ScrollList, Span, TextBox

SIZE = (540, 320)


class ChatPanel:
    """A conversation window with a text box; the resident's replies arrive later."""

    def __init__(self, sim: SimView, resident: str, focus: bool = True) -> None:
        self.sim, self.resident = sim, resident
        self.rect = pygame.Rect(0, 0, *SIZE)
        self.box = TextBox(f"say something to {resident.split()[0]}...", size=18)
        self.send_button = Button("Say", size=16)
        self.close_button = Button("Leave", size=16)
        self.focus = Focus(self.box)
        self.list = ScrollList()
        self.note = ""
        self._signature: tuple = ()
        if focus:
            self.focus.set(self.box)

    @property
    def lines(self) -> Sequence[Utterance]:
        return self.sim.chats.get(self.resident, ())

    @property
    def pending(self) -> bool:
        player = self.sim.player
        return player is not None and player.chat_pending(self.resident)

    @property
    def ended(self) -> bool:
        lines = self.lines
        return bool(lines) and lines[-1].speaker == self.resident and lines[-1].end

    def update(self, rect: pygame.Rect, near: bool) -> None:
        self.rect = rect
        self.close_button.fit(0, rect.y + 8, pad=8)
        self.close_button.rect.right = rect.right - 10
        self.box.rect = pygame.Rect(rect.x + 12, rect.bottom - 40, rect.width - 84, 30)
        self.send_button.fit(rect.right - 64, rect.bottom - 40, height=30)
        self.send_button.enabled = near and not self.ended
        relaid = self.list.place(
            pygame.Rect(rect.x + 12, rect.y + 44, rect.width - 20, rect.height - 92)
        )
        signature = (len(self.lines), self.pending, self.ended)
        if relaid or signature != self._signature:
            self.list.set_rows(self._rows())
            self.list.scroll_to_end()  # the newest line in view
            self._signature = signature
        first = self.resident.split()[0]
        self.note = "" if near else f"{first} is too far away: walk closer to keep talking."

    def _rows(self) -> list[Row]:
        rows = []
        for line in self.lines:
            mine = line.speaker != self.resident
            colour = theme.ACCENT if mine else theme.LINK
            rows.append(
                Row([Span(f"{line.speaker}:", colour, 17), Span(line.text, theme.TEXT, 18)])
            )
        if self.pending:
            rows.append(Row([Span(f"{self.resident} is thinking...", theme.MUTED, 17)]))
        if self.ended:
            rows.append(Row([Span(f"{self.resident} ended the conversation.", theme.MUTED, 17)]))
        if not rows:
            rows.append(Row([Span("Say hello: type below and press Enter.", theme.MUTED, 17)]))
        return rows

    def click(self, pos: tuple[int, int]) -> PanelAction:
        if self.close_button.hit(pos):
            return PanelAction.CLOSE
        if self.send_button.hit(pos):
            self.say(self.box.take())
        elif not self.focus.click(pos):
            self.focus.set(None)
        return PanelAction.NONE

    def handle_text(self, command: Command) -> None:
        text = self.box.edit(command)
        if text is not None:
            self.say(text)

    def say(self, text: str) -> None:
        if not text or self.ended:
            return
        player = self.sim.player
        try:
            if player is None:
                raise SmallvilleError(READ_ONLY)
            player.visitor_say(self.resident, text)
        except SmallvilleError as exc:
            self.note = str(exc)

    def wheel(self, pos: tuple[int, int], value: int) -> bool:
        if not self.rect.collidepoint(pos):
            return False
        self.list.scroll(value)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        theme.panel(surface, self.rect)
        r = self.rect
        room = self.close_button.rect.x - r.x - 24  # the title stops short of the button
        title = theme.ellipsize(f"Talking with {self.resident}", theme.font(22), room)
        theme.blit_text(surface, title, (r.x + 12, r.y + 10), 22, theme.ACCENT)
        left = room - theme.font(22).size(title)[0] - 12
        if left > 40:
            speaking = theme.ellipsize(self._speaking(), theme.font(16), left)
            x = r.x + 12 + theme.font(22).size(title)[0] + 12
            theme.blit_text(surface, speaking, (x, r.y + 14), 16, theme.MUTED)
        self.close_button.draw(surface)
        self.list.draw(surface)
        self.box.draw(surface)
        self.send_button.draw(surface)
        if self.note:
            theme.blit_text(surface, self.note, (r.x + 12, r.bottom - 60), 15, theme.BAD)

    def _speaking(self) -> str:
        if self.ended:
            return "(conversation over)"
        if self.pending:
            return f"({self.resident.split()[0]} is speaking...)"
        return "(your turn)"
