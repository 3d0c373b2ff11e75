"""Emoji for every screen: the map's bubbles, the panels' text and the HUD, one renderer.

Noto Color Emoji (shipped in assets/) is a bitmap font with one strike: FreeType renders
it only at size 109, and the glyphs come out about 136 x 128. So a glyph is rendered once
at that size, scaled down and cached by (text, size). Builds that cannot load the font (or
render it blank) get drawn stand-ins: a coloured badge with a word, for every emoji the
brains can produce, so nothing is ever an empty box. Text with emoji in it is composed
here (words in the UI font, emoji from the renderer), and theme's text helpers call this
for any text that has emoji.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from game.core.paths import ASSETS
from game.ui import theme

EMOJI_FONT = ASSETS / "fonts" / "NotoColorEmoji.ttf"
STRIKE = 109  # the only size the colour bitmap font renders at
_VARIATION = "\ufe0f"
_ZWJ = "\u200d"

# Stand-ins for builds without colour emoji: a short word on a badge of a colour, for
# every emoji the brains can produce (the test walks the brains' tables and this one).
STAND_INS: dict[str, tuple[str, tuple[int, int, int]]] = {
    "😴": ("zzz", (120, 130, 200)),
    "💬": ("talk", (110, 170, 230)),
    "💭": ("?", (170, 170, 200)),
    "⏳": ("wait", (200, 180, 120)),
    "⏰": ("alarm", (230, 120, 90)),
    "☕": ("coffee", (160, 110, 70)),
    "🍳": ("cook", (240, 190, 80)),
    "🍽": ("eat", (200, 160, 110)),
    "🍺": ("drink", (230, 180, 60)),
    "🛒": ("shop", (120, 180, 120)),
    "🧾": ("till", (180, 180, 160)),
    "📦": ("stock", (190, 150, 100)),
    "💊": ("pills", (220, 120, 160)),
    "📚": ("study", (130, 150, 220)),
    "📖": ("read", (130, 160, 210)),
    "✍": ("write", (150, 140, 200)),
    "📝": ("notes", (200, 200, 150)),
    "📋": ("admin", (170, 170, 150)),
    "✏": ("draw", (240, 200, 90)),
    "🎨": ("paint", (220, 120, 200)),
    "📷": ("photo", (120, 120, 140)),
    "🎹": ("piano", (150, 150, 170)),
    "🎵": ("music", (160, 120, 220)),
    "🎭": ("stage", (200, 100, 120)),
    "🎮": ("game", (120, 110, 200)),
    "🎱": ("pool", (80, 80, 90)),
    "🎉": ("party", (240, 120, 180)),
    "🗳": ("vote", (90, 140, 210)),
    "💻": ("work", (100, 160, 200)),
    "⚖": ("law", (180, 160, 110)),
    "🧑‍🏫": ("teach", (120, 180, 160)),
    "🏃": ("run", (230, 140, 80)),
    "🚶": ("walk", (150, 190, 120)),
    "🌱": ("garden", (100, 190, 100)),
    "🌳": ("park", (80, 160, 90)),
    "🧹": ("tidy", (190, 170, 120)),
    "🪥": ("teeth", (140, 200, 230)),
    "🚿": ("wash", (110, 180, 240)),
    "👕": ("dress", (120, 150, 220)),
    "📺": ("tv", (110, 110, 130)),
    "📱": ("phone", (120, 130, 150)),
    "🛋": ("relax", (190, 140, 120)),
    "🛏": ("bed", (150, 140, 200)),
    "😅": ("phew", (240, 200, 90)),
    "🔑": ("keys", (220, 190, 80)),
    "🧯": ("fire!", (230, 70, 60)),
    "🔥": ("fire!", (230, 70, 60)),
    "🔧": ("fix", (150, 160, 170)),
    "🔌": ("plug", (140, 140, 150)),
    "🔦": ("torch", (230, 210, 120)),
    "🧪": ("lab", (130, 200, 170)),
    "🙂": ("ok", (240, 200, 90)),
}


def clusters(text: str) -> list[str]:
    """The emoji in a string, one per entry: a symbol with its variation selector, skin tone
    or zero-width-joined partners ('🧑‍🏫' is one)."""
    out: list[str] = []
    for ch in text:
        glue = ch in (_VARIATION, _ZWJ) or 0x1F3FB <= ord(ch) <= 0x1F3FF
        if out and (glue or out[-1].endswith(_ZWJ)):
            out[-1] += ch
        elif not ch.isspace():
            out.append(ch)
    return out


def is_emoji(ch: str) -> bool:
    """Whether a character is drawn by the emoji renderer rather than the text font."""
    code = ord(ch)
    return (
        code >= 0x1F000
        or 0x2300 <= code <= 0x23FF
        or 0x2600 <= code <= 0x27BF
        or 0x2B00 <= code <= 0x2BFF
        or ch in (_VARIATION, _ZWJ)
    )


def stand_in_key(emoji: str) -> str:
    return emoji.replace(_VARIATION, "")


class EmojiRenderer:
    """Emoji string -> a small Surface, cached; colour glyphs if the font works."""

    def __init__(self, path: Path = EMOJI_FONT) -> None:
        self._font = _load(path)
        self._cache: dict[tuple[str, int], pygame.Surface] = {}
        self._lines: dict[tuple, pygame.Surface] = {}

    @property
    def colour(self) -> bool:
        """Whether colour emoji are available (False: the plain-text fallback is used)."""
        return self._font is not None

    def render(self, text: str, size: int) -> pygame.Surface:
        """The emoji as a Surface about `size` pixels high (never raises)."""
        key = (text, size)
        image = self._cache.get(key)
        if image is None:
            image = self._render_colour(text, size) or stand_in(text, size)
            self._cache[key] = image
        return image

    def line(self, text: str, size: int, color) -> pygame.Surface:
        """A line of text with emoji in it: words in the UI font, emoji from this renderer."""
        key = (text, size, tuple(color))
        image = self._lines.get(key)
        if image is None:
            if len(self._lines) > 2000:
                self._lines.clear()
            image = self._compose(text, size, color)
            self._lines[key] = image
        return image

    def _compose(self, text: str, size: int, color) -> pygame.Surface:
        fnt = theme.font(size)
        parts: list[pygame.Surface] = []
        for is_icon, run in _runs(text):
            if is_icon:
                parts += [self.render(c, max(8, int(size * 0.8))) for c in clusters(run)]
            elif run:
                parts.append(fnt.render(theme.printable(run, size), True, color))
        height = max([fnt.get_linesize()] + [p.get_height() for p in parts])
        width = sum(p.get_width() for p in parts) + max(0, len(parts) - 1)
        image = pygame.Surface((max(1, width), height), pygame.SRCALPHA)
        x = 0
        for part in parts:
            image.blit(part, (x, (height - part.get_height()) // 2))
            x += part.get_width() + 1
        return image

    def _render_colour(self, text: str, size: int) -> pygame.Surface | None:
        if self._font is None or not text:
            return None
        try:
            raw = self._font.render(text.replace(_VARIATION, ""), True, (0, 0, 0))
        except (pygame.error, ValueError, UnicodeError):
            return None
        if raw.get_width() == 0 or _blank(raw):
            return None
        scale = size / raw.get_height()
        target = (max(1, round(raw.get_width() * scale)), size)
        return pygame.transform.smoothscale(raw.convert_alpha() if _has_display() else raw, target)


def _load(path: Path) -> pygame.font.Font | None:
    """The colour emoji font, or None when this build cannot use it."""
    try:
        if not pygame.font.get_init():
            pygame.font.init()
        fnt = pygame.font.Font(str(path), STRIKE)
        probe = fnt.render("😴", True, (0, 0, 0))
    except (OSError, pygame.error, ValueError, FileNotFoundError):
        return None
    return None if _blank(probe) else fnt


def _blank(surface: pygame.Surface) -> bool:
    """A glyph that rendered as nothing (a build without colour bitmap support)."""
    w, h = surface.get_size()
    if w < 4 or h < 4:
        return True
    return pygame.transform.average_color(surface)[3] == 0


def _has_display() -> bool:
    return pygame.display.get_init() and pygame.display.get_surface() is not None


def stand_in(text: str, size: int) -> pygame.Surface:
    """The drawn stand-in: each emoji as a coloured badge with a short word."""
    badges = [_badge(c, size) for c in clusters(text)] or [_badge("", size)]
    width = sum(b.get_width() for b in badges) + 2 * (len(badges) - 1)
    image = pygame.Surface((width, size), pygame.SRCALPHA)
    x = 0
    for badge in badges:
        image.blit(badge, (x, 0))
        x += badge.get_width() + 2
    return image


def _badge(emoji: str, size: int) -> pygame.Surface:
    word, colour = STAND_INS.get(stand_in_key(emoji), ("*", (180, 180, 190)))
    fnt = theme.font(max(10, int(size * 0.7)))
    label = fnt.render(word, True, theme.INK)
    image = pygame.Surface((label.get_width() + 8, size), pygame.SRCALPHA)
    pygame.draw.rect(image, colour, image.get_rect(), border_radius=size // 3)
    image.blit(label, label.get_rect(center=image.get_rect().center))
    return image


def _runs(text: str) -> list[tuple[bool, str]]:
    """The text split into runs of emoji and of words."""
    runs: list[tuple[bool, str]] = []
    for ch in text:
        icon = is_emoji(ch)
        if runs and runs[-1][0] == icon:
            runs[-1] = (icon, runs[-1][1] + ch)
        else:
            runs.append((icon, ch))
    return runs


_shared: list[EmojiRenderer] = []


def shared_renderer() -> EmojiRenderer:
    """The one renderer every panel, the map and the HUD draw emoji with (the font is
    loaded once, and glyphs are cached once)."""
    if not _shared:
        _shared.append(EmojiRenderer())
    return _shared[0]


def has_emoji(text: str) -> bool:
    return not text.isascii() and any(is_emoji(ch) for ch in text)
