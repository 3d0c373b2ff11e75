"""Colour emoji for the action bubbles, with a fallback that never crashes.

Noto Color Emoji is a bitmap font with one strike: FreeType renders it only at size 109,
and the glyphs come out about 136 x 128. So a glyph is rendered once at that size, scaled
down to the bubble size and cached by (text, size). Builds that cannot load the font (or
render it blank) fall back to plain text in the UI font, so a bubble always shows something.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from game.core.paths import ASSETS
from game.ui import theme

EMOJI_FONT = ASSETS / "fonts" / "NotoColorEmoji.ttf"
STRIKE = 109  # the only size the colour bitmap font renders at
_VARIATION = "\ufe0f"

# Words for the emoji the residents use most, for builds without colour emoji.
WORDS: dict[str, str] = {
    "😴": "zzz",
    "💬": "...",
    "💭": "?",
    "⏳": "wait",
    "☕": "coffee",
    "🍳": "cook",
    "📚": "read",
    "🎨": "paint",
    "🎵": "music",
    "🚶": "walk",
    "🛏": "bed",
    "🚿": "wash",
    "🍽": "eat",
    "💻": "work",
    "🔥": "fire!",
}


class EmojiRenderer:
    """Emoji string -> a small Surface, cached; colour glyphs if the font works."""

    def __init__(self, path: Path = EMOJI_FONT) -> None:
        self._font = _load(path)
        self._cache: dict[tuple[str, int], pygame.Surface] = {}

    @property
    def colour(self) -> bool:
        """Whether colour emoji are available (False: the plain-text fallback is used)."""
        return self._font is not None

    def render(self, text: str, size: int) -> pygame.Surface:
        """The emoji as a Surface about `size` pixels high (never raises)."""
        key = (text, size)
        image = self._cache.get(key)
        if image is None:
            image = self._render_colour(text, size) or _render_plain(text, size)
            self._cache[key] = image
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


def _render_plain(text: str, size: int) -> pygame.Surface:
    """The fallback: a word for a known emoji, else the first characters, in the UI font."""
    word = WORDS.get(text.replace(_VARIATION, "")[:1], "") or WORDS.get(text, "")
    label = word or "".join(ch for ch in text if ch.isascii())[:6] or "*"
    return theme.font(max(10, int(size * 0.8))).render(label, True, theme.INK)
