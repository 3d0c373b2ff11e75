"""The object editor says what it did (issue 21): an empty Set, a state it already has and
over-long typing each get a message; a long state wraps inside the panel; the history
carries the day; the log says the change in one grammatical sentence."""

from __future__ import annotations

import pygame
import pytest

from game.core.errors import SmallvilleError
from game.sim.player import STATE_LIMIT
from game.ui.input import Act, Command, Edit, click_events, key_event, text_event
from game.ui.widgets import clipboard_put
from tests.ui.helpers import frames, post

SINK = "Hobbs Cafe:kitchen:kitchen sink"


def editing(make_app, address: str = SINK):
    app = make_app()
    frames(app, 1)
    editor = app.town.open_editor(address)
    frames(app, 1)
    post(app, click_events(editor.box.rect.center))
    assert editor.box.focused
    return app, editor


def test_an_empty_set_says_why_nothing_changed(make_app):
    app, editor = editing(make_app)
    before = editor.state
    post(app, click_events(editor.set_button.rect.center))
    frames(app, 1)
    assert editor.state == before and "Nothing changed" in editor.note
    assert "type a new state" in editor.note
    editor.note = ""
    post(app, key_event(pygame.K_RETURN))  # Enter in the empty box: the same
    assert "Nothing changed" in editor.note and editor.box.focused
    post(app, text_event(before))
    post(app, key_event(pygame.K_RETURN))
    assert f"already {before}" in editor.note


def test_over_long_typing_and_pastes_are_refused_with_the_limit(make_app):
    app, editor = editing(make_app)
    post(app, text_event("x" * (STATE_LIMIT + 15)))
    assert len(editor.box.text) == STATE_LIMIT
    assert f"at most {STATE_LIMIT} characters" in editor.note and "15 more" in editor.note
    post(app, key_event(pygame.K_BACKSPACE))
    assert editor.note == ""  # it fits again: the refusal is gone
    post(app, key_event(pygame.K_a, mod=pygame.KMOD_LCTRL))
    clipboard_put("the kitchen sink is overflowing all over the floor and into the cafe room")
    editor.keys(Command(Act.EDIT, text=Edit.PASTE.value))
    assert len(editor.box.text) == STATE_LIMIT and f"at most {STATE_LIMIT}" in editor.note


def test_the_simulation_refuses_an_over_long_state_too(make_app):
    app = make_app()
    with pytest.raises(SmallvilleError, match=f"at most {STATE_LIMIT} characters"):
        app.town.sim.player.set_object_state(SINK, "y" * (STATE_LIMIT + 1))


def test_a_sentence_becomes_the_state_and_the_log_says_it_grammatically(make_app):
    app, editor = editing(make_app)
    post(app, text_event("the sink is overflowing"))
    post(app, key_event(pygame.K_RETURN))
    frames(app, 2)
    town = app.town
    assert town.sim.town.state(SINK) == "overflowing"
    assert editor.box.text == "" and "now overflowing" in editor.note
    line = "The kitchen sink is now overflowing (set by you)"
    assert any(line in f.text for f in town.feed.lines), [f.text for f in town.feed.lines]
    assert any(line in t.text for t in town.notes.toasts)
    assert not any("is the sink is" in f.text for f in town.feed.lines)


def test_history_entries_carry_the_day(make_app):
    app, editor = editing(make_app)
    sim = app.town.sim
    for state in ("overflowing", "idle"):
        sim.player.set_object_state(SINK, state)
        frames(app, 1)
    day = sim.now.strftime("%a")
    assert editor.history[-2].startswith(f"{day} ") and "-> overflowing" in editor.history[-2]
    assert editor.history[-1].split("  ")[1] == "you: overflowing -> idle"


@pytest.mark.parametrize("state", ["w" * STATE_LIMIT, "very " * (STATE_LIMIT // 5 - 1) + "wet"])
def test_a_long_state_wraps_inside_the_panel(make_app, state):
    app, editor = editing(make_app)
    post(app, text_event(state))
    post(app, key_event(pygame.K_RETURN))
    frames(app, 2)
    r = editor.rect
    assert app.town.sim.town.state(SINK) == state
    assert editor.state_text.height > 30, "a long state takes more than one line"
    assert editor.state_text._row._image.get_width() <= r.width - 24
    assert editor.box.rect.top > r.top + 60 + editor.state_text.height - 4
    for widget in (editor.box, editor.set_button, editor.reset_button, editor.close_button):
        assert r.contains(widget.rect), widget
    assert r.contains(editor.list.rect)
