"""Every emoji a brain can produce draws as a picture: from the shipped colour font, and
from the drawn stand-ins when the font cannot be used; never an empty box."""

from __future__ import annotations

import pygame
import pytest

from game.brains.scripted.lexicon import EMOJI_DEFAULT, EMOJI_RULES
from game.ui.emoji import (
    STAND_INS,
    EmojiRenderer,
    clusters,
    shared_renderer,
    stand_in,
    stand_in_key,
)
from game.world.troubles import TROUBLES
from tests.brains.protocol_server import EMOJI as SERVER_EMOJI

# The simulation's own bubbles (waiting, talking) and the thinking mark.
SIM_EMOJI = ("⏳", "💬", "😴", "💭")


def brain_emoji() -> list[str]:
    found = {symbol for _, symbol in EMOJI_RULES} | {t.emoji for t in TROUBLES}
    found |= {EMOJI_DEFAULT, *SERVER_EMOJI, *SIM_EMOJI}
    return sorted(c for text in found for c in clusters(text))


@pytest.fixture(scope="module")
def window():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    yield
    pygame.display.quit()


def _ink(surface: pygame.Surface) -> int:
    """How many pixels are visibly drawn (not transparent)."""
    w, h = surface.get_size()
    return sum(surface.get_at((x, y)).a > 40 for x in range(w) for y in range(h))


def test_the_table_covers_the_brains_emoji():
    missing = [e for e in brain_emoji() if stand_in_key(e) not in STAND_INS]
    assert missing == []


def test_the_shipped_font_draws_every_brain_emoji(window):
    renderer = EmojiRenderer()
    assert renderer.colour, "the shipped Noto Color Emoji font did not load"
    for emoji in brain_emoji():
        image = renderer._render_colour(emoji, 24)
        assert image is not None, emoji
        assert image.get_height() == 24 and _ink(image) > 60, emoji


def test_the_stand_ins_draw_every_brain_emoji_when_the_font_is_missing(window, tmp_path):
    renderer = EmojiRenderer(tmp_path / "no-such-font.ttf")
    assert not renderer.colour
    for emoji in brain_emoji():
        image = renderer.render(emoji, 24)
        assert image.get_height() == 24 and _ink(image) > 100, emoji
    two = stand_in("☕🍳", 24)
    assert two.get_width() > stand_in("☕", 24).get_width()


def test_text_with_emoji_is_composed_by_the_one_renderer(window):
    from game.ui import theme

    plain = theme.render("Now: reading", 18)
    mixed = theme.render("Now: 📖 reading", 18)
    assert mixed.get_width() > plain.get_width()
    assert ("📖", 14) in shared_renderer()._cache  # the emoji came from the shared renderer


def test_clusters_keep_joined_emoji_whole():
    assert clusters("🧑‍🏫📚") == ["🧑‍🏫", "📚"]
    assert clusters("🍽️ ☕") == ["🍽️", "☕"]
