"""A speech bubble that cannot stand over its speaker's head says whose it is (issue 25):
in the 100-resident town Hailey's line rose over Tamara, just above her, and read as
Tamara's. One at its natural place stays as it was, unnamed; the layout's placement is
the same as before, and its offsets are the same however often they are asked for."""

from __future__ import annotations

import pygame

from game.ui import actors
from game.ui.actors import ActorLayer, Figure, Glide
from game.ui.layout import Layout, _offsets
from game.ui.mapview import Camera

LINE = "Pleased to meet you, Arthur; I'm Hailey, a writer planning to start a podcast."


def street(*people: tuple[str, float, float]) -> ActorLayer:
    """Figures at (x, y) tiles, no sprites or emoji needed (only overlays are drawn)."""
    layer = ActorLayer(sprites=None, emoji=None)  # type: ignore[arg-type]
    for name, x, y in people:
        layer.figures[name] = Figure(name, name, "x", Glide(x, y))
    layer.spread()
    return layer


def drawn_speech(layer: ActorLayer, blocked=()) -> dict[str, pygame.Rect]:
    pygame.init()
    surface = pygame.Surface((800, 600))
    cam = Camera((800, 600), (40 * 32, 40 * 32), center=(10 * 32, 10 * 32), zoom=1.5)
    actors._speeches.clear()
    layer.draw_overlays(surface, cam, None, list(blocked))
    return {key: box for key, kind, box in layer.bubbles if kind == "speech"}


def named(text: str) -> set[str]:
    """Who the bubbles drawn with this line were named after ('' for none)."""
    return {who for line, who, _ in actors._speeches if line == text}


def test_a_bubble_over_its_speaker_names_no_one() -> None:
    layer = street(("Hailey Johnson", 10, 10), ("Tamara Taylor", 14, 10))
    layer.figures["Hailey Johnson"].speech = LINE
    assert "Hailey Johnson" in drawn_speech(layer)
    assert named(LINE) == {""}


def test_a_bubble_pushed_over_a_neighbour_names_its_speaker() -> None:
    layer = street(("Hailey Johnson", 10, 10), ("Tamara Taylor", 10, 8.5))  # her label over Hailey
    layer.figures["Hailey Johnson"].speech = LINE
    bubble = drawn_speech(layer)["Hailey Johnson"]
    assert named(LINE) == {"", "Hailey"}  # tried where it belongs, drawn named
    assert not bubble.colliderect(layer.labels["Tamara Taylor"])


def test_a_bubble_pushed_aside_by_a_panel_names_its_speaker() -> None:
    layer = street(("Rajiv Patel", 10, 10))
    layer.figures["Rajiv Patel"].speech = "Hi, Abigail, how's your afternoon been?"
    panel = pygame.Rect(410, 0, 390, 600)  # Rajiv stands at x 400..448: half under it
    drawn_speech(layer, [panel])
    assert named("Hi, Abigail, how's your afternoon been?") == {"", "Rajiv"}


def test_find_is_where_place_puts_a_box_and_claims_nothing() -> None:
    area = pygame.Rect(0, 0, 400, 300)
    layout = Layout(area, [pygame.Rect(100, 100, 200, 40)])
    box = pygame.Rect(150, 110, 100, 20)
    spot = layout.find(box)
    assert spot is not None and not layout.at_home(spot, box)
    assert len(layout.taken) == 1 and layout.place(box) == spot
    edge = pygame.Rect(-5, 10, 50, 20)  # over the map's edge: home is just inside it
    assert layout.at_home(edge.clamp(area), edge) and not layout.at_home(edge.move(9, 0), edge)
    assert _offsets(52, 12, True, 4, 2) == _offsets(52, 12, True, 4, 2)
    assert _offsets(52, 12, True, 4, 2)[0] == (0, 0)
