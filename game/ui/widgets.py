"""Small widgets: buttons, text boxes and a scrolling list of wrapped rows.

Layout (rects) is decided when a panel updates; drawing only paints what was decided, so
"draw never changes game state" holds for the widgets too.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import pygame

from game.ui import theme
from game.ui.input import Act, Command, Edit


@dataclass
class Button:
    """A clickable label. `key` is what it stands for (a Command, a tab, a choice); the
    owning panel acts on it, and buttons a panel tells apart by identity need none."""

    label: str
    key: object = None
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    on: bool = False  # shown as selected (the current speed, the open tab)
    enabled: bool = True
    size: int = 18

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)

    def fit(self, x: int, y: int, pad: int = 10, height: int = 26) -> pygame.Rect:
        """Place the button with its width fitted to its label; returns its rect."""
        width = theme.font(self.size).size(self.label)[0] + 2 * pad
        self.rect = pygame.Rect(x, y, width, height)
        return self.rect

    def draw(self, surface: pygame.Surface) -> None:
        colour = theme.BUTTON_ON if self.on else theme.BUTTON
        if not self.enabled:
            colour = (44, 48, 60)
        pygame.draw.rect(surface, colour, self.rect, border_radius=5)
        ink = theme.INK if self.on else (theme.TEXT if self.enabled else theme.MUTED)
        image = theme.font(self.size).render(theme.safe_text(self.label), True, ink)
        surface.blit(image, image.get_rect(center=self.rect.center))


@dataclass
class TextBox:
    """A one-line text field with a cursor, select-all and the clipboard. The panel routes
    typed text and editing keys here while it has the focus."""

    placeholder: str
    text: str = ""
    focused: bool = False
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    limit: int = 400
    size: int = 18
    secret: bool = False  # shown as dots (an API key)
    selected: bool = False  # the whole text is selected (Ctrl+A)
    label: str = "the text"  # what the box holds, for the message when it is full
    refused: int = 0  # characters the last typing or paste did not fit
    _cursor: int | None = None  # None: at the end

    @property
    def cursor(self) -> int:
        n = len(self.text)
        return n if self._cursor is None else max(0, min(n, self._cursor))

    def _move(self, to: int) -> None:
        self.selected = False
        self._cursor = None if to >= len(self.text) else max(0, to)

    def type(self, text: str) -> None:
        if self.selected:
            self.text, self._cursor, self.selected = "", None, False
        at = self.cursor
        room = max(0, self.limit - len(self.text))
        text = text.replace("\n", " ")
        self.refused = max(0, len(text) - room)
        text = text[:room]
        self.text = self.text[:at] + text + self.text[at:]
        self._move(at + len(text))

    def refusal(self) -> str:
        """What the player is told when typing did not fit ('' when it all did): the limit,
        so a cut is never silent."""
        if not self.refused:
            return ""
        what = self.label[:1].upper() + self.label[1:]
        more = "1 more character was" if self.refused == 1 else f"{self.refused} more were"
        return f"{what} is at most {self.limit} characters: {more} not typed."

    def erase(self) -> None:
        if self.selected:
            self.text, self._cursor, self.selected = "", None, False
            return
        at = self.cursor
        if at:
            self.text = self.text[: at - 1] + self.text[at:]
            self._move(at - 1)

    def take(self) -> str:
        """The typed text, stripped, and an empty box."""
        text, self.text = self.text.strip(), ""
        self._cursor, self.selected = None, False
        return text

    def edit(self, command: Command) -> str | None:
        """Apply a typing command; on Enter, the submitted text (else None)."""
        self.refused = 0
        if command.act is Act.TYPE:
            self.type(command.text)
        elif command.act is Act.ERASE:
            self.erase()
        elif command.act is Act.EDIT:
            self.apply_edit(Edit(command.text))
        elif command.act is Act.SUBMIT:
            return self.take()
        return None

    def apply_edit(self, edit: Edit) -> None:
        """The editing keys: cursor moves, word jumps, select all and the clipboard."""
        at, text = self.cursor, self.text
        if edit is Edit.SELECT_ALL:
            self.selected = bool(text)
        elif edit in (Edit.COPY, Edit.CUT):
            if not self.secret:  # a key never leaves its box unmasked
                clipboard_put(text)
            if edit is Edit.CUT:
                self.text, self._cursor, self.selected = "", None, False
        elif edit is Edit.PASTE:
            self.type(" ".join(clipboard_get().split()))
        elif edit is Edit.DELETE:
            if self.selected:
                self.erase()
            else:
                self.text = text[:at] + text[at + 1 :]
                self._move(at)
        elif edit is Edit.ERASE_WORD:
            start = _word_left(text, at)
            self.text = text[:start] + text[at:]
            self._move(start)
        else:
            self._move(_CURSOR_MOVES[edit](text, at))

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.rect.collidepoint(pos)

    def shown_text(self) -> str:
        return "\u2022" * len(self.text) if self.secret else self.text

    def draw(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, theme.FIELD, self.rect, border_radius=4)
        edge = theme.ACCENT if self.focused else theme.PANEL_EDGE
        pygame.draw.rect(surface, edge, self.rect, width=1, border_radius=4)
        fnt = theme.font(self.size)
        inner = self.rect.inflate(-12, 0)
        shown = self.shown_text().replace("\u2022", "*")
        if not (self.text or self.focused):
            image = fnt.render(
                theme.ellipsize(self.placeholder, fnt, inner.width), True, theme.MUTED
            )
            surface.blit(image, (inner.x, self.rect.centery - image.get_height() // 2))
            return
        before = shown[: self.cursor]
        head = _tail(before, fnt, inner.width - 4)
        line = head + shown[self.cursor :]
        image = fnt.render(theme.printable(line, self.size), True, theme.TEXT)
        y = self.rect.centery - image.get_height() // 2
        if self.selected:
            pygame.draw.rect(
                surface,
                theme.HIGHLIGHT,
                (inner.x, y, min(inner.width, image.get_width()), image.get_height()),
            )
        clip = surface.get_clip()
        surface.set_clip(inner.clip(clip) if clip else inner)
        surface.blit(image, (inner.x, y))
        if self.focused:
            x = inner.x + fnt.size(head)[0]
            pygame.draw.line(surface, theme.ACCENT, (x, y), (x, y + image.get_height()), 2)
        surface.set_clip(clip)


def _word_left(text: str, at: int) -> int:
    i = at
    while i > 0 and text[i - 1] == " ":
        i -= 1
    while i > 0 and text[i - 1] != " ":
        i -= 1
    return i


def _word_right(text: str, at: int) -> int:
    i, n = at, len(text)
    while i < n and text[i] == " ":
        i += 1
    while i < n and text[i] != " ":
        i += 1
    return i


_CURSOR_MOVES = {
    Edit.LEFT: lambda text, at: at - 1,
    Edit.RIGHT: lambda text, at: at + 1,
    Edit.WORD_LEFT: _word_left,
    Edit.WORD_RIGHT: _word_right,
    Edit.HOME: lambda text, at: 0,
    Edit.END: lambda text, at: len(text),
}
_clipboard = [""]  # used when the system clipboard is not available (the dummy driver)


def clipboard_put(text: str) -> None:
    _clipboard[0] = text
    with contextlib.suppress(pygame.error, NotImplementedError):
        pygame.scrap.put_text(text)


def clipboard_get() -> str:
    try:
        text = pygame.scrap.get_text()
    except (pygame.error, NotImplementedError):
        text = ""
    return text or _clipboard[0]


def _tail(text: str, fnt: pygame.font.Font, width: int) -> str:
    """The end of a long text that fits (the part being typed stays visible)."""
    while text and fnt.size(text)[0] > width:
        text = text[1:]
    return text


class Focus:
    """Which of a panel's text boxes has the keyboard, and Tab to move between them."""

    def __init__(self, *boxes: TextBox) -> None:
        self.boxes = list(boxes)

    @property
    def current(self) -> TextBox | None:
        return next((b for b in self.boxes if b.focused), None)

    def set(self, box: TextBox | None) -> None:
        for b in self.boxes:
            b.focused = b is box

    def next(self) -> None:
        if not self.boxes:
            return
        cur = self.current
        i = self.boxes.index(cur) + 1 if cur in self.boxes else 0
        self.set(self.boxes[i % len(self.boxes)])

    def click(self, pos: tuple[int, int]) -> bool:
        """Focus the box under the pointer; True if there was one."""
        for box in self.boxes:
            if box.hit(pos):
                self.set(box)
                return True
        return False


@dataclass
class Span:
    """A piece of a row: text in a colour, optionally a link the panel reacts to."""

    text: str
    color: theme.Color = theme.TEXT
    size: int = 17
    link: object = None  # what a click on it means to the panel (None: not a link)


@dataclass
class Row:
    """One entry of a scrolling list: wrapped text, laid out once, rendered once."""

    spans: list[Span]
    tag: str = ""  # what the row stands for (a memory index, a plan item)
    highlight: bool = False
    height: int = 0
    _image: pygame.Surface | None = None
    _laid: int = 0  # the width it was laid out for
    _links: list[tuple[pygame.Rect, object]] = field(default_factory=list)

    def layout(self, width: int) -> None:
        """Wrap the spans into lines of `width` pixels and render them once."""
        if self._laid == width:
            return
        self._laid = width
        pieces, links = _flow(self.spans, width)
        self.height = max((r.bottom for r, _ in pieces), default=0) + 4
        used = max((r.right for r, _ in pieces), default=1)
        image = pygame.Surface((max(1, min(width, used)), self.height), pygame.SRCALPHA)
        for rect, span in pieces:
            image.blit(theme.render(span.text, span.size, span.color), rect)
        self._image, self._links = image, links

    def draw(self, surface: pygame.Surface, x: int, y: int) -> None:
        if self._image is None:
            return
        if self.highlight:
            box = (x - 4, y, self._image.get_width() + 8, self.height)
            pygame.draw.rect(surface, theme.HIGHLIGHT, box, border_radius=4)
        surface.blit(self._image, (x, y))

    def link_at(self, dx: int, dy: int) -> object:
        for rect, link in self._links:
            if rect.collidepoint(dx, dy):
                return link
        return None


class Paragraph:
    """Text wrapped to a width (long words broken too), laid out again only when the
    text or the width changes: a state line, a panel's note."""

    def __init__(self, size: int = 15, color: theme.Color = theme.TEXT) -> None:
        self.size, self.color = size, color
        self._row: Row | None = None
        self._key: tuple = ()

    def layout(self, spans: str | list[Span], width: int) -> int:
        """Wrap the text (or spans) into `width` pixels; returns the height it takes."""
        if isinstance(spans, str):
            spans = [Span(spans, self.color, self.size)] if spans else []
        key = (tuple((s.text, s.color, s.size) for s in spans), width)
        if key != self._key:
            self._key = key
            self._row = Row(spans) if spans else None
            if self._row is not None:
                self._row.layout(max(1, width))
        return self.height

    @property
    def height(self) -> int:
        return self._row.height if self._row is not None else 0

    def draw(self, surface: pygame.Surface, pos: tuple[int, int]) -> None:
        if self._row is not None:
            self._row.draw(surface, *pos)


def _flow(spans: list[Span], width: int) -> tuple[list[tuple[pygame.Rect, Span]], list]:
    """Lay spans out across lines, wrapping at words and at newlines; consecutive words of a
    span on one line become one piece (one render). Links stay whole, with rects for clicks."""
    pieces: list[tuple[pygame.Rect, Span]] = []
    links: list[tuple[pygame.Rect, object]] = []
    line_h = max((theme.font(s.size).get_linesize() for s in spans), default=0)
    x = y = 0
    for span in spans:
        fnt = _Measure(span.size)
        text = span.text
        for n, paragraph in enumerate(text.split("\n")):
            if n:
                x, y = 0, y + line_h
            words = [paragraph] if span.link is not None else paragraph.split(" ")
            x, y = _flow_words(words, span, fnt, (x, y), width, line_h, pieces, links)
    return pieces, links


def _flow_words(words, span, fnt, at, width, line_h, pieces, links) -> tuple[int, int]:
    """Place one paragraph of a span from `at`; returns where the next text starts."""
    x, y = at
    run, run_x = "", x
    if span.link is None:
        words = [piece for word in words for piece in theme.break_word(word, fnt, width)]
    for word in words:
        candidate = f"{run} {word}" if run else word
        if x + fnt.size(candidate)[0] > width and (run or x):
            if run:
                pieces.append((pygame.Rect(run_x, y, fnt.size(run)[0], line_h), _like(span, run)))
            x, y, run_x, candidate = 0, y + line_h, 0, word
        run = candidate
    w = fnt.size(run)[0]
    rect = pygame.Rect(run_x, y, w, line_h)
    pieces.append((rect, _like(span, run)))
    if span.link is not None:
        links.append((rect, span.link))
    return run_x + w + fnt.size(" ")[0], y


class _Measure:
    """Widths as `theme.render` draws them (emoji included), in a font's shape."""

    def __init__(self, size: int) -> None:
        self.size_px = size

    def size(self, text: str) -> tuple[int, int]:
        return theme.measure(text, self.size_px), 0


def _like(span: Span, text: str) -> Span:
    return Span(text, span.color, span.size, span.link)


class ScrollList:
    """A list of rows in a rect, scrolled by the wheel, drawn only where visible."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.offset = 0
        self._width = 0

    def set_rows(self, rows: list[Row], keep_offset: bool = True) -> None:
        for row in rows:
            row.layout(max(40, self.rect.width - 14))
        self.rows = rows
        self._width = self.rect.width
        self.offset = self.offset if keep_offset else 0
        self._clamp()

    def place(self, rect: pygame.Rect) -> bool:
        """Move the list; True when its width changed and the rows must be laid out again."""
        changed = rect.width != self._width
        self.rect = pygame.Rect(rect)
        self._clamp()
        return changed

    @property
    def content_height(self) -> int:
        return sum(r.height for r in self.rows)

    def scroll(self, lines: int) -> None:
        self.offset -= lines * 40
        self._clamp()

    def scroll_to_end(self) -> None:
        self.offset = self.content_height
        self._clamp()

    def scroll_to(self, tag: str) -> None:
        y = 0
        for row in self.rows:
            if row.tag == tag:
                self.offset = max(0, y - 40)
                break
            y += row.height
        self._clamp()

    def _clamp(self) -> None:
        self.offset = max(0, min(self.offset, self.content_height - self.rect.height))

    def row_at(self, pos: tuple[int, int]) -> tuple[Row | None, object]:
        """The row under a point and the link under it, if any."""
        if not self.rect.collidepoint(pos):
            return None, None
        y = self.rect.y - self.offset
        for row in self.rows:
            if y <= pos[1] < y + row.height:
                return row, row.link_at(pos[0] - self.rect.x, pos[1] - y)
            y += row.height
        return None, None

    def draw(self, surface: pygame.Surface, empty: str = "") -> None:
        clip = surface.get_clip()
        surface.set_clip(self.rect)
        y = self.rect.y - self.offset
        for row in self.rows:
            if y + row.height >= self.rect.y and y <= self.rect.bottom:
                row.draw(surface, self.rect.x, y)
            y += row.height
        if not self.rows and empty:
            theme.blit_text(surface, empty, self.rect.topleft, 17, theme.MUTED)
        self._draw_bar(surface)
        surface.set_clip(clip)

    def _draw_bar(self, surface: pygame.Surface) -> None:
        total = self.content_height
        if total <= self.rect.height or total == 0:
            return
        h = max(20, self.rect.height * self.rect.height // total)
        y = self.rect.y + (self.rect.height - h) * self.offset // max(1, total - self.rect.height)
        pygame.draw.rect(surface, theme.PANEL_EDGE, (self.rect.right - 6, y, 5, h), border_radius=2)
