"""The chat panel holds the keyboard (issue 21): a chat that ends while the player types
keeps its box, the focus and the draft; keys meant for a box that let go by itself never
run as commands. Driven by scripted SDL events on the dummy video driver."""

from __future__ import annotations

import pygame
import pytest

from game.core.records import Utterance
from game.ui.chat import CLOSE_SECONDS
from game.ui.input import key_event, text_event, typing_events
from game.ui.town_scene import KEYS_GRACE_SECONDS
from tests.ui.helpers import awake_town, frames, next_to, post, run_until

HOTKEYS = " wasd t[]123 nlo"  # pause, walk, talk, speed, announce, log, settings


def chatting(make_app):
    """A window with the visitor beside an awake resident and the chat open by T."""
    sim = awake_town()
    name = next(a.name for a in sim.agents.values() if not a.asleep)
    app = make_app(sim)
    town = app.town
    town.visitor.pos = next_to(sim, name)
    frames(app, 1)
    post(app, [key_event(pygame.K_t), text_event("t")])
    chat = town.chat
    assert chat is not None and chat.box.focused
    post(app, [*typing_events("Hello!"), key_event(pygame.K_RETURN)])
    answered = run_until(app, lambda: len(chat.lines) >= 2 and not chat.pending, 10)
    assert answered and chat.box.focused and not chat.ended
    return app, town, name


def still(app, town) -> tuple:
    """What a hotkey would change: where the visitor is, the pause, the speed, the panels,
    the scenes (settings, help)."""
    return (town.visitor.pos, town.pacer.paused, town.pacer.speed, len(town.panels),
            len(app.stack.scenes), town.feed.expanded)  # fmt: skip


def far_from(sim, name: str) -> tuple[int, int]:
    """A walkable tile well out of the resident's reach."""
    x, y = sim.agents[name].pos
    rows, cols = sim.town.walkable.shape
    return next(
        (tx, ty)
        for ty in range(rows)
        for tx in range(cols)
        if sim.town.is_walkable(tx, ty) and max(abs(tx - x), abs(ty - y)) >= 15
    )


def end_talk(town, name: str, how: str) -> None:
    """The talk is over: the resident said goodbye, or the visitor is out of reach."""
    if how == "goodbye":
        town.pacer.toggle_pause()  # the town holds still: no one greets the visitor anew
        town.sim.chats[name].append(Utterance(name, "Sorry, I have to go. Bye!", end=True))
    else:
        town.visitor.pos = far_from(town.sim, name)


@pytest.mark.parametrize("how", ["goodbye", "walked"])
def test_a_chat_that_is_over_keeps_the_box_and_typing_fires_no_command(make_app, how):
    app, town, name = chatting(make_app)
    chat = town.chat
    end_talk(town, name, how)
    frames(app, int((CLOSE_SECONDS + 1) * 60))  # longer than a chat that is over waits
    assert town.chat is chat and chat.over
    assert chat.box.focused and chat.box.text == ""
    if town.pacer.paused:
        town.pacer.toggle_pause()
    before = still(app, town)
    post(app, typing_events("I wanted to ask" + HOTKEYS))
    frames(app, 30)
    assert still(app, town) == before, "typing ran as commands"
    assert town.chat is chat and chat.box.text == "I wanted to ask" + HOTKEYS
    post(app, key_event(pygame.K_ESCAPE))  # the player lets go of the box
    assert not chat.box.focused and not town.typing()


def test_a_draft_is_never_lost_when_the_resident_is_out_of_reach(make_app):
    app, town, name = chatting(make_app)
    post(app, typing_events("See you"))
    end_talk(town, name, "walked")
    frames(app, int((CLOSE_SECONDS + 1) * 60))
    chat = town.chat
    assert chat is not None and chat.box.text == "See you" and chat.box.focused
    post(app, key_event(pygame.K_RETURN))  # Enter: not sent, kept, and the note says why
    frames(app, int((CLOSE_SECONDS + 1) * 60))
    assert town.chat is chat and chat.box.text == "See you" and not chat.box.focused
    assert "Not sent" in chat.shown_note()
    assert all(u.text != "See you" for u in town.sim.chats.get(name, []))
    post(app, key_event(pygame.K_ESCAPE))  # Esc closes the panel: the player chose to
    assert town.chat is None


def test_keys_after_a_box_lets_go_by_itself_fire_no_command(make_app):
    app, town, _ = chatting(make_app)
    post(app, typing_events("Hello"))
    town.close_panel(town.chat)  # the game closes it, not the player
    frames(app, 1)
    assert town.chat is None and town.typing()
    before = still(app, town)
    post(app, typing_events(HOTKEYS))
    frames(app, 10)
    assert still(app, town) == before, "the rest of the sentence ran as commands"
    frames(app, int(KEYS_GRACE_SECONDS * 60) + 5)
    assert not town.typing()
    post(app, key_event(pygame.K_SPACE))  # a moment later the keys are commands again
    assert town.pacer.paused


def test_esc_just_after_a_box_let_go_closes_nothing_else(make_app):
    app, town, _ = chatting(make_app)
    town.open_editor(next(a for a in town.sim.town.areas if a.endswith("kitchen:stove")))
    town.panels.focus_only(town.chat)
    town.chat.focus.set(town.chat.box)
    frames(app, 1)
    town.close_panel(town.chat)
    frames(app, 1)
    post(app, key_event(pygame.K_ESCAPE))  # meant for the box that is gone
    assert town.editor is not None and app.stack.top is town
    post(app, key_event(pygame.K_ESCAPE))
    assert town.editor is None
