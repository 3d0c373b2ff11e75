"""The chat panel: the visitor talking with one resident.

What the visitor says goes to the player's commands (`visitor_say`), which answer through the
resident's dialogue path on the thread pool; the panel only shows the lines as they
arrive, who is speaking, and when the resident ends the conversation.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.core.errors import SmallvilleError
from game.core.records import AnsweredBy, Utterance
from game.sim.view import READ_ONLY, SimView
from game.ui import theme
from game.ui.input import PanelAction
from game.ui.panel import BoxPanel, Dock
from game.ui.widgets import Button, Row, Span, TextBox

SIZE = (540, 320)
MIN_HEIGHT = 180  # a few lines of talk and the text box
CLOSE_SECONDS = 2.5  # an ended chat (or one whose resident left) closes after this


def answered_colour(by: AnsweredBy) -> theme.Color:
    """A fallback stands out: the model was asked and the rules answered instead."""
    return theme.BAD if by is AnsweredBy.FALLBACK else theme.MUTED


class ChatPanel(BoxPanel):
    """A conversation window with a text box; the resident's replies arrive later.

    Why it waits for the box: a panel closing under the player's fingers turns the rest of
    a sentence into hotkeys. So it closes by itself only when the talk is over and the box
    is neither focused nor holding a draft."""

    dock = Dock.STACK
    size = SIZE
    min_height = MIN_HEIGHT

    def __init__(self, sim: SimView, resident: str, focus: bool = True) -> None:
        self.box = TextBox(f"say something to {resident.split()[0]}...", size=18)
        super().__init__(self.box, close_label="Leave")
        self.sim, self.resident = sim, resident
        self.send_button = Button("Say", size=16)
        self.far_note = ""
        self._idle = 0.0  # real seconds the talk has been over with the box left alone
        self._signature: tuple = ()
        if focus:
            self.focus.set(self.box)

    @property
    def subject(self) -> str:
        return self.resident

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

    @property
    def near(self) -> bool:
        """Whether the visitor stands near enough to talk (never, in a replay)."""
        player = self.sim.player
        return player is not None and player.visitor_near(self.resident)

    @property
    def over(self) -> bool:
        """The talk is over: the resident ended it, or stands out of reach."""
        return self.ended or not self.near

    @property
    def finished(self) -> str:
        if self._idle < CLOSE_SECONDS:
            return ""
        why = "ended the conversation" if self.ended else "walked away"
        return f"{self.resident} {why}; the chat closed"

    def close(self) -> None:
        """Leaving the panel ends the talk (the resident goes back to what it was doing)."""
        if self.sim.player is not None:
            self.sim.player.end_chat(self.resident)

    def update(self, rect: pygame.Rect, dt: float = 0.0) -> None:
        self.rect = rect
        left_alone = self.over and not self.box.focused and not self.box.text
        self._idle = self._idle + dt if left_alone else 0.0
        self.place_close_button()
        self.box.rect = pygame.Rect(rect.x + 12, rect.bottom - 40, rect.width - 84, 30)
        self.send_button.fit(rect.right - 64, rect.bottom - 40, height=30)
        self.send_button.enabled = self.near
        self.far_note = self._far_note()
        note = self.note_height() + 4 if self.shown_note() else 0
        relaid = self.list.place(
            pygame.Rect(rect.x + 12, rect.y + 44, rect.width - 20, rect.height - 92 - note)
        )
        signature = (len(self.lines), self.pending, self.ended)
        if relaid or signature != self._signature:
            self.list.set_rows(self._rows())
            self.list.scroll_to_end()  # the newest line in view
            self._signature = signature

    def _far_note(self) -> str:
        if self.near:
            return ""
        first = self.resident.split()[0]
        if self.box.text and not self.box.focused:
            return f"Not sent: {first} is out of reach. Walk closer, press T, then Enter."
        return f"{first} is too far away: walk closer to keep talking."

    def shown_note(self) -> str:
        return self.note or self.far_note

    def _rows(self) -> list[Row]:
        rows = []
        for line in self.lines:
            mine = line.speaker != self.resident
            colour = theme.ACCENT if mine else theme.LINK
            spans = [Span(f"{line.speaker}:", colour, 17), Span(line.text, theme.TEXT, 18)]
            if line.by is not None:  # a model could have answered: say who did
                spans.append(Span(line.by.tag, answered_colour(line.by), 14))
            rows.append(Row(spans))
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
            self.submit(self.box)
        elif not self.focus.click(pos):
            self.focus.set(None)
        return PanelAction.NONE

    def submit(self, box: TextBox) -> None:
        """Enter: say the words. After the resident ended the talk they start it again;
        with the resident out of reach the words stay in the box, and the box lets go."""
        if not box.text.strip():
            if self.over:
                box.focused = False  # nothing to say to a talk that is over
            return
        if not self.near:
            box.focused = False  # the words wait in the box; the note says why
            return
        self.say(box.take())

    def say(self, text: str) -> None:
        if not text:
            return
        player = self.sim.player
        try:
            if player is None:
                raise SmallvilleError(READ_ONLY)
            player.visitor_say(self.resident, text)
            self.note = ""
        except SmallvilleError as exc:
            self.tell(str(exc))

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
        self.draw_note(surface, self.box.rect.y - 4)

    def _speaking(self) -> str:
        if self.ended:
            return "(conversation over)"
        if self.pending:
            return f"({self.resident.split()[0]} is speaking...)"
        return "(your turn)"
