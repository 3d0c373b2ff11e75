"""The announce action in the window (N): a small panel whose text goes on the town's notice
boards, driven here by the pygame events a player would cause (dummy video driver)."""

from __future__ import annotations

import pygame

from game.core.records import Source
from game.sim.factory import build_simulation
from game.sim.replay import Replay
from game.sim.saves import load_game, save_game
from game.ui.input import click_events, key_event, text_event
from tests.ui.helpers import frames, realtime, run_until

TEXT = "Bake sale at Hobbs Cafe on Tuesday at 3 pm"
BOARD = "Oak Hill College:hallway:notice board"


def post(app, events) -> None:
    for event in events if isinstance(events, list) else [events]:
        app.handle(event)


def panel_text(panel) -> str:
    return " ".join(span.text for row in panel.list.rows for span in row.spans)


def test_n_opens_the_box_and_enter_posts_the_notice(make_app):
    app = make_app()
    frames(app, 2)
    town = app.town
    post(app, key_event(pygame.K_n))
    frames(app, 1)
    panel = town.announce
    assert panel is not None and town.typing(), "the box has the keyboard"
    post(app, text_event(TEXT))
    post(app, text_event("n"))  # typing N in the box is a letter, not the key again
    post(app, key_event(pygame.K_BACKSPACE))
    post(app, key_event(pygame.K_RETURN))
    frames(app, 1)
    notices = town.sim.player.notices
    assert [n.text for n in notices] == [TEXT]
    assert notices[0].event is not None and notices[0].event.place == "Hobbs Cafe"
    assert panel.box.text == "" and "posted at" in panel.note
    assert "read by 0 of 3" in panel_text(panel) and TEXT in panel_text(panel)
    post(app, key_event(pygame.K_ESCAPE))  # leave the box
    post(app, key_event(pygame.K_ESCAPE))  # close the panel
    frames(app, 1)
    assert town.announce is None


def test_the_post_button_posts_and_an_empty_box_posts_nothing(make_app):
    app = make_app()
    frames(app, 2)
    town = app.town
    town.open_announce()
    frames(app, 1)
    panel = town.announce
    post(app, click_events(panel.post_button.rect.center))
    assert town.sim.player.notices == []
    post(app, text_event("Choir practice tonight"))
    post(app, click_events(panel.post_button.rect.center))
    frames(app, 1)
    assert [n.text for n in town.sim.player.notices] == ["Choir practice tonight"]
    assert app.screen.get_rect().contains(panel.rect)
    post(app, click_events(panel.close_button.rect.center))
    frames(app, 1)
    assert town.announce is None


def test_a_resident_at_the_board_reads_a_notice_posted_in_the_window(make_app):
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=10))
    name = next(n for n, a in sorted(sim.agents.items()) if not a.asleep)
    app = make_app(realtime(sim))
    frames(app, 2)
    town = app.town
    town.open_announce()
    post(app, text_event(TEXT))
    post(app, key_event(pygame.K_RETURN))
    agent = sim.agents[name]
    area = sim.town.areas[BOARD]
    below = [(x, area.rect.y + area.rect.h) for x in range(area.rect.x, area.rect.x + area.rect.w)]

    def read() -> bool:
        if agent.conversation is None:
            agent.pos, agent.path = next(t for t in below if sim.town.is_walkable(*t)), []
            agent.location = sim.town.address_at(*agent.pos)
        m = agent.memory
        return any(m.record(i).fact.source is Source.NOTICE for i in range(len(m)))

    assert run_until(app, read, 10), f"{name} never read the notice"
    frames(app, 2)
    assert "read by 1 of 3" in panel_text(town.announce)


def test_a_replay_has_no_announce_and_says_why(make_app, tmp_path):
    sim = build_simulation("three", seed=0)
    sim.run_until(sim.now.replace(minute=30))
    sim.player.announce(TEXT)
    save_game(sim, "posted", tmp_path)
    sim.close()
    app = make_app(Replay(load_game("posted", tmp_path)))
    frames(app, 2)
    post(app, key_event(pygame.K_n))
    frames(app, 1)
    assert app.town.announce is None
    assert any("nothing can be announced" in n.text for n in app.town.notes.toasts)
