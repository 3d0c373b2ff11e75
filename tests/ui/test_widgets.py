"""Text layout and emoji: what every panel relies on (no window needed)."""

import pygame
import pytest

from game.ui import theme
from game.ui.emoji import EmojiRenderer
from game.ui.widgets import Focus, Row, ScrollList, Span, TextBox


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    yield


def test_wrap_keeps_every_word_within_the_width():
    fnt = theme.font(17)
    text = "Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe " * 3
    lines = theme.wrap(text, fnt, 200)
    assert len(lines) > 3
    assert all(fnt.size(line)[0] <= 200 for line in lines)
    assert " ".join(lines).split() == text.split()


def test_rows_wrap_and_keep_their_links_clickable():
    row = Row([Span("because of", size=15), Span("#12", link="jump:12"), Span("word " * 40)])
    row.layout(300)
    assert row.height > 40
    assert row._image.get_width() <= 300
    rect, link = row._links[0]
    assert link == "jump:12" and row.link_at(rect.centerx, rect.centery) == "jump:12"


def test_scroll_list_scrolls_within_its_content():
    pygame.display.init()
    lst = ScrollList()
    lst.place(pygame.Rect(0, 0, 300, 100))
    lst.set_rows([Row([Span(f"memory {i}")], tag=str(i)) for i in range(50)])
    lst.scroll(-100)
    assert lst.offset == lst.content_height - 100
    lst.scroll(100)
    assert lst.offset == 0
    lst.scroll_to("30")
    row, _ = lst.row_at((10, 50))
    assert row is not None and abs(int(row.tag) - 30) <= 2


def test_text_box_and_focus():
    a, b = TextBox("a"), TextBox("b")
    focus = Focus(a, b)
    focus.next()
    assert focus.current is a
    a.type("burning")
    a.erase()
    assert a.take() == "burnin" and a.text == ""
    focus.next()
    assert focus.current is b and not a.focused


def test_emoji_render_in_colour_at_the_asked_size():
    emoji = EmojiRenderer()
    image = emoji.render("☕", 24)
    assert image.get_height() == 24
    if emoji.colour:
        r, g, b, a = pygame.transform.average_color(image)
        assert a > 0 and not (r == g == b)  # colour, not a black glyph
    assert emoji.render("☕", 24) is image  # cached


def test_emoji_fall_back_to_text_when_the_font_is_missing(tmp_path):
    emoji = EmojiRenderer(tmp_path / "no-such-font.ttf")
    assert not emoji.colour
    assert emoji.render("😴", 20).get_width() > 0
    assert emoji.render("🦜", 20).get_width() > 0  # unknown emoji: still something


def test_text_box_editing_keys():
    from game.ui.input import Act, Command, Edit
    from game.ui.widgets import TextBox

    box = TextBox("name", text="Robin Hood")
    box.apply_edit(Edit.WORD_LEFT)
    assert box.cursor == len("Robin ")
    box.type("of ")
    assert box.text == "Robin of Hood"
    box.apply_edit(Edit.HOME)
    box.apply_edit(Edit.DELETE)
    assert box.text == "obin of Hood"
    box.apply_edit(Edit.SELECT_ALL)
    box.apply_edit(Edit.COPY)
    box.edit(Command(Act.TYPE, text="Ann"))
    assert box.text == "Ann"  # typing over a selection replaces it
    box.apply_edit(Edit.PASTE)
    assert box.text == "Annobin of Hood"
    box.apply_edit(Edit.ERASE_WORD)
    assert box.text == "Annobin of "


def test_ctrl_keys_become_editing_commands_only_while_typing():
    import pygame

    from game.ui.input import Act, Edit, key_event, translate

    ctrl_a = key_event(pygame.K_a, mod=pygame.KMOD_LCTRL)
    assert translate(ctrl_a, typing=True)[0].text == Edit.SELECT_ALL.value
    assert translate(key_event(pygame.K_LEFT), typing=True)[0].act is Act.EDIT
    assert translate(key_event(pygame.K_LEFT), typing=False)[0].act is Act.WALK


def test_a_full_text_box_says_what_it_refused():
    box = TextBox("state", limit=10, label="a state")
    box.type("overflowing fast")
    assert box.text == "overflowi" + "n" and box.refused == 6
    assert box.refusal() == "A state is at most 10 characters: 6 more were not typed."
    box.erase()
    box.type("g")
    assert box.refused == 0 and box.refusal() == ""


def test_long_words_break_inside_the_width():
    from game.ui.widgets import Paragraph

    fnt = theme.font(17)
    lines = theme.wrap("a " + "w" * 80 + " b", fnt, 200)
    assert len(lines) > 3 and all(fnt.size(line)[0] <= 200 for line in lines)
    assert "".join(lines).replace(" ", "") == "a" + "w" * 80 + "b"
    text = Paragraph(17)
    height = text.layout("x" * 120, 200)
    assert height > 2 * fnt.get_linesize() and text._row._image.get_width() <= 200
