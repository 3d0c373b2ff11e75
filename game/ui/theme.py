"""Colours, fonts and text helpers shared by every screen.

Fonts are loaded once and cached by size: creating a pygame Font reads the file from disk,
far too slow to do per frame. The text font is pygame's bundled default, so the game needs
no system font.
"""

from __future__ import annotations

import pygame

from game.core.text import clean

Color = tuple[int, int, int] | tuple[int, int, int, int]

BG = (24, 26, 34)
PANEL = (34, 38, 50, 236)
PANEL_EDGE = (92, 104, 140)
TEXT = (236, 238, 244)
MUTED = (160, 166, 184)
ACCENT = (255, 204, 92)
GOOD = (120, 210, 140)
BAD = (240, 110, 100)
LINK = (130, 190, 255)
BUTTON = (58, 66, 90)
BUTTON_HOT = (86, 98, 134)
BUTTON_ON = (196, 150, 60)
FIELD = (18, 20, 28)
HIGHLIGHT = (70, 82, 120)
BUBBLE = (252, 250, 240)
BUBBLE_EDGE = (60, 56, 50)
INK = (30, 30, 36)

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The UI font at a pixel size, cached (opening a font is slow)."""
    key = (size, bold)
    cached = _fonts.get(key)
    if cached is None:
        if not pygame.font.get_init():
            pygame.font.init()
        cached = pygame.font.Font(None, size)
        cached.bold = bold
        _fonts[key] = cached
    return cached


_texts: dict[tuple[str, int, tuple], pygame.Surface] = {}


def safe_text(text: str, limit: int = 1000) -> str:
    """Any string made renderable: no NUL, controls, surrogates or bidi tricks, and not so
    long that the surface would be wider than SDL allows. The font path never raises."""
    return clean(str(text))[:limit]


def printable(text: str, size: int = 18) -> str:
    """Text without the characters the UI font has no glyph for (emoji show as boxes
    otherwise); emoji are drawn by the emoji renderer where they matter."""
    text = safe_text(text)
    if text.isascii():
        return text
    fnt = font(size)
    keep = [ch for ch, m in zip(text, fnt.metrics(text), strict=False) if m is not None]
    return "".join(keep).replace("  ", " ")


def render(text: str, size: int = 18, color: Color = TEXT) -> pygame.Surface:
    """One line of text; emoji in it come from the one emoji renderer (game.ui.emoji)."""
    from game.ui.emoji import has_emoji, shared_renderer

    text = safe_text(text)
    if has_emoji(text):
        return shared_renderer().line(text, size, color)
    return font(size).render(printable(text, size), True, color)


def measure(text: str, size: int = 18) -> int:
    """The width `render` gives a text, in pixels."""
    from game.ui.emoji import has_emoji

    if has_emoji(text):
        return render(text, size).get_width()
    return font(size).size(text)[0]


def text_image(text: str, size: int = 18, color: Color = TEXT) -> pygame.Surface:
    """A rendered line of text, cached: labels and the HUD repeat the same words each frame."""
    key = (text, size, tuple(color))
    image = _texts.get(key)
    if image is None:
        if len(_texts) > 4000:
            _texts.clear()
        image = render(text, size, color)
        _texts[key] = image
    return image


def wrap(text: str, fnt: pygame.font.Font, width: int) -> list[str]:
    """Greedy word wrap to a pixel width; a word longer than the width is broken into
    pieces that fit (a long state typed without a space must not run past a box's edge)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in (p for w in paragraph.split(" ") for p in break_word(w, fnt, width)):
            candidate = f"{line} {word}" if line else word
            if fnt.size(candidate)[0] <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def break_word(word: str, fnt, width: int) -> list[str]:
    """A word in pieces no wider than `width` (itself, if it fits); `fnt` measures by
    `size(text)`, a font or anything shaped like one."""
    if width <= 0 or fnt.size(word)[0] <= width:
        return [word]
    pieces, piece = [], ""
    for ch in word:
        if piece and fnt.size(piece + ch)[0] > width:
            pieces.append(piece)
            piece = ""
        piece += ch
    return [*pieces, piece] if piece else pieces


def ellipsize(text: str, fnt: pygame.font.Font, width: int) -> str:
    """Cut text to fit a width, ending in '...' when cut."""
    if fnt.size(text)[0] <= width:
        return text
    while text and fnt.size(text + "...")[0] > width:
        text = text[:-1]
    return text + "..."


def blit_text(
    surface: pygame.Surface,
    text: str,
    pos: tuple[int, int],
    size: int = 18,
    color: Color = TEXT,
    bold: bool = False,
) -> pygame.Rect:
    """Draw one line of text at a top-left position; returns the rect it covers."""
    image = (
        render(text, size, color)
        if not bold
        else font(size, bold).render(printable(text, size), True, color)
    )
    return surface.blit(image, pos)


_boxes: dict[tuple, pygame.Surface] = {}


def box_image(size: tuple[int, int], color: Color, radius: int = 8, edge: bool = True):
    """A translucent rounded box, cached by size and colour (panels redraw every frame)."""
    key = (size, tuple(color), radius, edge)
    image = _boxes.get(key)
    if image is None:
        if len(_boxes) > 64:  # window resizes make new sizes; keep the cache small
            _boxes.clear()
        image = pygame.Surface(size, pygame.SRCALPHA)
        pygame.draw.rect(image, color, image.get_rect(), border_radius=radius)
        if edge:
            pygame.draw.rect(image, PANEL_EDGE, image.get_rect(), width=1, border_radius=radius)
        _boxes[key] = image
    return image


def panel(surface: pygame.Surface, rect: pygame.Rect, color: Color = PANEL) -> None:
    """A translucent rounded panel with an edge, the backdrop of every window."""
    surface.blit(box_image(rect.size, color), rect.topleft)
