"""The inspector's memory search keeps the keyboard on Enter (issue 21): the name typed
next goes into the box, it does not open a chat with the resident beside the visitor."""

from __future__ import annotations

import pygame

from game.ui.input import click_events, key_event, typing_events
from game.ui.inspector import Tab
from tests.ui.helpers import awake_town, frames, next_to, post


def test_enter_in_the_search_box_keeps_the_focus(make_app):
    sim = awake_town()
    name = next(a.name for a in sim.agents.values() if not a.asleep)
    app = make_app(sim)
    town = app.town
    town.visitor.pos = next_to(sim, name)  # T would open a chat here
    inspector = town.open_inspector(name)
    inspector.open_tab(Tab.MEMORIES)
    frames(app, 1)
    post(app, click_events(inspector.search.rect.center))
    post(app, typing_events("is"))
    post(app, key_event(pygame.K_RETURN))
    assert inspector.search.focused and town.typing()
    post(app, typing_events(" Toya"))
    frames(app, 2)
    assert inspector.search.text == "is Toya"
    assert town.chat is None and not sim.chats.get(name), "typing opened a chat"
