"""The start screen fits every window from 800x480 with any number of saves (the list
scrolls), and picking a save fills in its visitor's name."""

from __future__ import annotations

from datetime import timedelta

import pygame

from game.sim.factory import build_simulation
from game.sim.saves import save_game
from game.ui.input import Act, Command, click_events


def _saves(root, names) -> None:
    sim = build_simulation("three", seed=0, workers=2)
    sim.run_until(sim.now + timedelta(minutes=5))
    sim.player.add_visitor("Ada")
    for name in names:
        save_game(sim, name, root)
    sim.close()


def test_the_start_screen_fits_800x480_and_scrolls(monkeypatch, tmp_path):
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path))
    _saves(tmp_path / "saves", [f"game {i:02d}" for i in range(12)])
    from game.ui.app import App, Options
    from game.ui.start import StartScene

    app = App(Options(size=(800, 480)))
    try:
        app.start()
        scene = app.stack.top
        assert isinstance(scene, StartScene)
        app.frame(1 / 60)
        window = app.screen.get_rect()
        shown = scene.shown_saves()
        assert 0 < len(shown) < 12
        for widget in (*scene.scenario_buttons, *shown, scene.name_box, scene.start_button):
            assert window.contains(widget.rect), widget
        first = shown[0].label
        scene.handle(Command(Act.WHEEL, pos=shown[0].rect.center, value=-1))
        app.frame(1 / 60)
        assert scene.shown_saves()[0].label != first
        assert scene.name_box.text == "Robin"
        for event in click_events(scene.shown_saves()[0].rect.center):
            app.handle(event)
        assert scene.choice.save and scene.name_box.text == "Ada"
        assert "as Ada" in scene.save_notes[scene.choice.save]
    finally:
        app.close()
        pygame.display.quit()
