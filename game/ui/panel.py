"""Panels: the boxes over the map (inspector, chat, object editor, announce), as one protocol.

The town scene holds a list of panels and knows them only through `Panel`: where a panel
goes (`dock`, `size`, `min_height`), whether it has the keyboard (`focus`), and what it does
with clicks, keys, the wheel and time; `Panels` lays them out and routes input to them.
Adding a panel is a module with a class like these and its line in the scene's `PANELS`.

`BoxPanel` is what the panels with text boxes share, written once: the keys a focused box
gets (Enter submits, an over-long paste is refused with a message), the wheel over the
list, the Close button in the corner and a wrapped note under it all.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import Enum
from typing import ClassVar, Protocol, runtime_checkable

import pygame

from game.ui import theme
from game.ui.input import Act, Command, PanelAction
from game.ui.widgets import Button, Focus, Paragraph, ScrollList, Span, TextBox

MARGIN = 8


class Dock(Enum):
    SIDE = "side"  # along the right edge, the full height under the bar (the inspector)
    STACK = "stack"  # bottom left, stacked upwards in the scene's order (chat, editor, ...)


@runtime_checkable
class Panel(Protocol):
    """What the town scene knows of a panel."""

    dock: ClassVar[Dock]
    size: ClassVar[tuple[int, int]]  # the width and height it would like
    min_height: ClassVar[int]  # the least height at which it still works (a short window)
    rect: pygame.Rect
    focus: Focus

    @property
    def subject(self) -> str:
        """Who or what it shows (a resident, an object's address): opening a panel of the
        same kind for the same subject keeps the open one."""
        ...

    @property
    def finished(self) -> str:
        """'' while it stays open; else why it closed by itself, a line for the log."""
        ...

    def update(self, rect: pygame.Rect, dt: float) -> None:
        """Take `rect` and decide what the next frame shows (dt real seconds later)."""
        ...

    def click(self, pos: tuple[int, int]) -> PanelAction: ...

    def keys(self, command: Command) -> None:
        """A typing command (text, Backspace, Enter, Tab, an editing key) for its boxes."""
        ...

    def wheel(self, pos: tuple[int, int], value: int) -> bool: ...

    def draw(self, surface: pygame.Surface) -> None: ...

    def close(self) -> None:
        """The scene closes the panel: let go of what it holds (a chat ends the talk)."""
        ...


class BoxPanel:
    """The shared part of the panels with text boxes; a subclass says what Enter does
    (`submit`) and lays out and draws the rest."""

    dock: ClassVar[Dock] = Dock.STACK
    size: ClassVar[tuple[int, int]] = (460, 300)
    min_height: ClassVar[int] = 0

    def __init__(self, *boxes: TextBox, close_label: str = "Close") -> None:
        self.rect = pygame.Rect(0, 0, *self.size)
        self.focus = Focus(*boxes)
        self.list = ScrollList()
        self.close_button = Button(close_label, size=16)
        self.note = ""  # a message for the player: why nothing changed, what went wrong
        self.note_color: theme.Color = theme.BAD
        self._note = Paragraph(15)

    @property
    def subject(self) -> str:
        return ""

    @property
    def finished(self) -> str:
        return ""

    def close(self) -> None:
        """Nothing to let go of, by default."""

    def tell(self, text: str, color: theme.Color = theme.BAD) -> None:
        self.note, self.note_color = text, color

    # -- keys -----------------------------------------------------------------------------
    def keys(self, command: Command) -> None:
        """Tab moves between the boxes; the rest goes to the focused box; Enter submits."""
        if command.act is Act.NEXT_FIELD:
            self.focus.next()
            return
        box = self.focus.current
        if box is None:
            return
        if command.act is Act.SUBMIT:
            self.submit(box)
            return
        had = box.refusal() == self.note and bool(self.note)
        box.edit(command)
        if box.refused:
            self.tell(box.refusal())
        elif had:
            self.note = ""  # it fits again: the refusal has done its work

    def submit(self, box: TextBox) -> None:
        """Enter in `box` (it keeps the focus unless the panel says otherwise)."""

    # -- the wheel ------------------------------------------------------------------------
    def wheel(self, pos: tuple[int, int], value: int) -> bool:
        """The wheel scrolls the panel's list; True when the pointer is over the panel."""
        if not self.rect.collidepoint(pos):
            return False
        self.list.scroll(value)
        return True

    # -- layout and drawing helpers -------------------------------------------------------
    def place_close_button(self, y: int = 8) -> None:
        self.close_button.fit(0, self.rect.y + y, pad=8)
        self.close_button.rect.right = self.rect.right - 10

    def note_height(self) -> int:
        """The height the wrapped note takes at the panel's width (0 without a note)."""
        return self._note.layout(self._note_spans(), self.rect.width - 24)

    def shown_note(self) -> str:
        """The note as shown (a panel may put a standing remark in its place)."""
        return self.note

    def _note_spans(self) -> list[Span]:
        note = self.shown_note()
        return [Span(note, self.note_color if note == self.note else theme.BAD, 15)] if note else []

    def draw_note(self, surface: pygame.Surface, bottom: int) -> None:
        """The note, wrapped inside the panel, ending at `bottom`."""
        height = self.note_height()
        if height:
            self._note.draw(surface, (self.rect.x + 12, bottom - height))


class Panels:
    """The open panels, in the order they were opened (the last opened is on top), laid
    out in the order of `kinds` (side panels right to left, stacked ones bottom up)."""

    def __init__(self, kinds: Sequence[type]) -> None:
        self.kinds = tuple(kinds)
        self.opened: list[Panel] = []

    def __iter__(self) -> Iterator[Panel]:
        """Topmost first: clicks and keys go to the first that wants them."""
        return iter(reversed(self.opened))

    def __len__(self) -> int:
        return len(self.opened)

    def find(self, kind: type) -> Panel | None:
        return next((p for p in self.opened if isinstance(p, kind)), None)

    def add(self, panel: Panel) -> Panel:
        """Open a panel on top; one of the same kind already open closes first."""
        old = self.find(type(panel))
        if old is not None:
            self.remove(old)
        self.opened.append(panel)
        return panel

    def remove(self, panel: Panel) -> None:
        if panel in self.opened:
            self.opened.remove(panel)
            panel.close()

    def focused(self) -> Panel | None:
        """The panel whose text box has the keyboard."""
        return next((p for p in self if p.focus.current is not None), None)

    def focus_only(self, keep: Panel | None) -> None:
        """One text box at a time has the keyboard, whichever panel it is in."""
        for panel in self.opened:
            if panel is not keep:
                panel.focus.set(None)

    def at(self, pos: tuple[int, int]) -> Panel | None:
        return next((p for p in self if p.rect.collidepoint(pos)), None)

    def docked(self, dock: Dock) -> list[Panel]:
        order = {kind: i for i, kind in enumerate(self.kinds)}
        return sorted((p for p in self.opened if p.dock is dock), key=lambda p: order[type(p)])

    def side_width(self) -> int:
        """How much of the window's right side the side panels take."""
        return sum(p.rect.width + MARGIN for p in self.docked(Dock.SIDE))

    def layout(self, size: tuple[int, int], top: int, dt: float) -> None:
        """Place every panel for a window of `size` under a bar `top` pixels high, and let
        each update. Stacked panels give up height first to leave the ones above them
        their least height."""
        w, h = size
        right = w - MARGIN
        for panel in self.docked(Dock.SIDE):
            width = min(panel.size[0], w // 2)
            rect = pygame.Rect(right - width, top + MARGIN, width, h - top - 2 * MARGIN)
            panel.update(rect, dt)
            right = rect.x - MARGIN
        bottom, ceiling = h - MARGIN, top + MARGIN
        stacked = self.docked(Dock.STACK)
        for i, panel in enumerate(stacked):
            pw, ph = panel.size
            above = sum(p.min_height + MARGIN for p in stacked[i + 1 :])
            if above:
                ph = max(panel.min_height, min(ph, bottom - ceiling - above))
            ph = max(0, min(ph, bottom - ceiling))
            rect = pygame.Rect(MARGIN, bottom - ph, min(pw, right - 2 * MARGIN), ph)
            panel.update(rect, dt)
            bottom = rect.y - MARGIN

    def draw(self, surface: pygame.Surface) -> None:
        for panel in self.opened:  # the topmost last
            panel.draw(surface)
