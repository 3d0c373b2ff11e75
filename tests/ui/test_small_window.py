"""Every panel fits the smallest window, 800x480 (issue 14): the help, the settings, and
the inspector, chat and object editor open all at once, with the log beside them; no
panel leaves the window or overlaps another. The start screen has its own test."""

from __future__ import annotations

import pygame

from game.sim.factory import build_simulation
from game.ui.help import HelpOverlay
from game.ui.input import CONTROLS, key_event
from game.ui.settings import SettingsScene
from tests.ui.helpers import frames, realtime

SMALL = (800, 480)


def post(app, event) -> None:
    app.handle(event)


def inside(rect: pygame.Rect) -> bool:
    return rect.width > 0 and rect.height > 0 and pygame.Rect((0, 0), SMALL).contains(rect)


def test_help_and_settings_fit_800x480(make_app):
    app = make_app(size=SMALL)
    frames(app, 1)
    assert app.size == SMALL
    post(app, key_event(pygame.K_F1))
    frames(app, 1)
    help_ = app.stack.top
    assert isinstance(help_, HelpOverlay) and inside(help_.rect), help_.rect
    assert help_.layout(SMALL)[1] * len(CONTROLS) < help_.rect.height  # every line inside
    post(app, key_event(pygame.K_F1))
    post(app, key_event(pygame.K_ESCAPE))
    frames(app, 1)
    settings = app.stack.top
    assert isinstance(settings, SettingsScene) and inside(settings.rect)
    widgets = [*settings._choices(), settings.save_button, settings.close_button]
    widgets += [box for box in settings.focus.boxes]
    for widget in widgets:
        assert settings.rect.contains(widget.rect), (widget, widget.rect)


def test_inspector_chat_editor_and_log_fit_800x480_together(make_app):
    sim = build_simulation("three", seed=3, workers=2)
    while sim.now.hour < 9:
        sim.step()
    app = make_app(realtime(sim), size=SMALL)
    town = app.town
    name = "Isabella Rodriguez"
    town.visitor.pos = next(
        (x + dx, y + dy)
        for x, y in [sim.agents[name].pos]
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if sim.town.is_walkable(x + dx, y + dy)
    )
    assert town.open_chat(name) is not None
    stove = next(a for a in sim.town.areas if a.endswith("kitchen:stove"))
    town.open_editor(stove)
    town.open_inspector(name)
    town.feed.note("9:00 am", "a line for the log")
    frames(app, 2)
    panels = [town.inspector, town.chat, town.editor]
    for panel in panels:
        assert inside(panel.rect), (type(panel).__name__, panel.rect)
    for i, a in enumerate(panels):
        for b in panels[i + 1 :]:
            assert not a.rect.colliderect(b.rect), (a.rect, b.rect)
    log = town.feed.rect
    assert log.width == 0 or (inside(log) and not any(log.colliderect(p.rect) for p in panels)), log
    town.close_panel(town.editor)
    town.close_panel(town.inspector)
    frames(app, 2)
    assert inside(town.chat.rect) and inside(town.feed.rect)
    assert not town.feed.rect.colliderect(town.chat.rect), (town.feed.rect, town.chat.rect)
