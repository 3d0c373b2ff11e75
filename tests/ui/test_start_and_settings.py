"""The first minutes on the player's terms (issue 21): Enter starts the save just clicked,
the settings show and save the name one plays under, and choosing a window size leaves
the Save button where it was until Save applies it."""

from __future__ import annotations

import pygame

from game.sim.factory import build_simulation
from game.ui.input import click_events, key_event
from game.ui.settings import SettingsScene, load_prefs
from game.ui.start import Choice
from tests.ui.helpers import frames


def post(app, events) -> None:
    for event in events if isinstance(events, list) else [events]:
        app.handle(event)


def test_enter_starts_the_save_just_clicked(monkeypatch, tmp_path):
    from game.sim.saves import save_game
    from game.ui.app import App, Options

    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path))
    sim = build_simulation("three", seed=2, workers=2)
    for _ in range(30):
        sim.step()
    sim.player.add_visitor("Sasha")
    save_game(sim, "mine")
    sim.close()
    app = App(Options(autosave_minutes=0), events=lambda: [])
    try:
        app.start()
        frames(app, 1)
        start = app.stack.top
        button = next(b for b in start.save_buttons if b.key == Choice(save="mine"))
        post(app, click_events(button.rect.center))
        post(app, key_event(pygame.K_RETURN))
        frames(app, 1)
        assert app.town is not None and app.town.visitor.name == "Sasha"
        assert app.town.sim.steps >= 30
    finally:
        app.close()


def test_enter_starts_even_with_no_box_focused(tmp_path, monkeypatch):
    from game.ui.app import App, Options

    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path))
    app = App(Options(autosave_minutes=0), events=lambda: [])
    try:
        app.start()
        frames(app, 1)
        start = app.stack.top
        three = next(b for b in start.scenario_buttons if b.key == Choice(scenario="three"))
        post(app, click_events(three.rect.center))
        post(app, click_events((app.size[0] - 5, app.size[1] // 2)))  # nowhere: focus goes
        assert start.focus.current is None
        post(app, key_event(pygame.K_RETURN))
        frames(app, 1)
        assert app.town is not None and len(app.town.sim.agents) == 3
    finally:
        app.close()


def open_settings(app) -> SettingsScene:
    post(app, key_event(pygame.K_ESCAPE))
    frames(app, 1)
    settings = app.stack.top
    assert isinstance(settings, SettingsScene)
    return settings


def test_the_settings_show_and_save_the_name_one_plays_under(make_app, tmp_path, monkeypatch):
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "config.toml"))
    app = make_app(name="Robin")  # the name the game was opened with ...
    app.town.visitor.name = "Quinn"  # ... and the one typed on the start screen
    frames(app, 1)
    settings = open_settings(app)
    assert settings.name_box.text == "Quinn"
    post(app, click_events(settings.save_button.rect.center))
    assert load_prefs().name == "Quinn" and app.options.name == "Quinn"
    assert "saved" in settings.note


def test_a_window_size_applies_on_save_and_save_stays_under_the_pointer(
    make_app, tmp_path, monkeypatch
):
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "config.toml"))
    app = make_app(size=(1280, 720))
    frames(app, 1)
    settings = open_settings(app)
    save_at = settings.save_button.rect.center
    big = next(b for b in settings.size_buttons if b.key == ("size", (1600, 900)))
    post(app, click_events(big.rect.center))
    frames(app, 1)
    assert app.size == (1280, 720) and settings.save_button.rect.collidepoint(save_at)
    assert big.on and "1600x900" in settings.note  # chosen, and said when it applies
    post(app, click_events(save_at))
    frames(app, 1)
    assert app.size == (1600, 900)
    assert load_prefs().size == (1600, 900)
