"""Panels as one protocol: every panel the town opens is a `Panel`, and a new kind of panel
is a class and its line in the scene's order; the scene lays it out, gives it the clicks,
the keys and the wheel over it, and never zooms the map under it."""

from __future__ import annotations

import pygame

from game.ui.input import PanelAction, click_events, key_event, text_event, wheel_event
from game.ui.panel import BoxPanel, Dock, Panel
from game.ui.town_scene import PANELS
from game.ui.widgets import Row, Span, TextBox
from tests.ui.helpers import awake_town, frames, next_to, post


class NotePad(BoxPanel):
    """A panel that is nowhere in the scene's code: a box, and what was entered in it."""

    dock = Dock.STACK
    size = (300, 200)
    min_height = 120

    def __init__(self) -> None:
        self.box = TextBox("a note...")
        super().__init__(self.box)
        self.entered: list[str] = []

    def update(self, rect: pygame.Rect, dt: float = 0.0) -> None:
        self.rect = rect
        self.place_close_button()
        self.box.rect = pygame.Rect(rect.x + 12, rect.y + 40, rect.width - 24, 30)
        self.list.place(pygame.Rect(rect.x + 12, rect.y + 80, rect.width - 24, 100))

    def click(self, pos: tuple[int, int]) -> PanelAction:
        if self.close_button.hit(pos):
            return PanelAction.CLOSE
        if not self.focus.click(pos):
            self.focus.set(None)
        return PanelAction.NONE

    def submit(self, box: TextBox) -> None:
        self.entered.append(box.take())
        self.list.set_rows([Row([Span(t)]) for t in self.entered * 10])

    def draw(self, surface: pygame.Surface) -> None:
        self.box.draw(surface)


def test_every_panel_the_town_opens_is_a_panel(make_app):
    sim = awake_town()
    name = next(a.name for a in sim.agents.values() if not a.asleep)
    app = make_app(sim)
    town = app.town
    town.visitor.pos = next_to(sim, name)
    town.open_inspector(name)
    town.open_chat(name)
    town.open_editor(next(a for a in sim.town.areas if a.endswith("kitchen:stove")))
    town.open_announce()
    frames(app, 1)
    assert {type(p) for p in town.panels} == set(PANELS)
    assert all(isinstance(p, Panel) for p in town.panels)
    screen = app.screen.get_rect()
    assert all(screen.contains(p.rect) for p in town.panels)


def test_a_new_panel_is_one_class_and_one_line(make_app, monkeypatch):
    import game.ui.town_scene as town_scene

    monkeypatch.setattr(town_scene, "PANELS", (*PANELS, NotePad))
    app = make_app()
    town = app.town
    pad = town.open_panel(NotePad, "", NotePad)
    frames(app, 1)
    assert app.screen.get_rect().contains(pad.rect) and pad.rect.height >= NotePad.min_height
    post(app, [*click_events(pad.box.rect.center), text_event("buy milk")])
    post(app, key_event(pygame.K_RETURN))
    assert pad.entered == ["buy milk"] and pad.box.focused
    zoom = town.camera.zoom
    post(app, wheel_event(pad.list.rect.center, up=False))
    assert town.camera.zoom == zoom and pad.list.offset > 0  # scrolled, not zoomed
    post(app, click_events(pad.close_button.rect.center))
    assert town.panels.find(NotePad) is None
