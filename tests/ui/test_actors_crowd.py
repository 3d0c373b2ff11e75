"""A town of a hundred on the map: who counts as in a crowd (short labels) is found from
nearby cells, the same people as checking every pair, and a crowd's names never overlap."""

from __future__ import annotations

import itertools
import random

import pygame

from game.ui.actors import ActorLayer, Figure, Glide
from game.ui.mapview import Camera


def town_of(n: int, seed: int = 3) -> ActorLayer:
    """n figures scattered over 40 x 25 tiles, some sharing tiles, most a step apart."""
    rng = random.Random(seed)
    layer = ActorLayer(sprites=None, emoji=None)  # type: ignore[arg-type]
    for i in range(n):
        x, y = rng.randrange(40) + rng.choice((0, 0.5)), rng.randrange(25) + rng.random()
        layer.figures[f"p{i}"] = Figure(f"p{i}", f"Person{i} Surname{i}", "x", Glide(x, y))
    return layer


def crowded_by_pairs(layer: ActorLayer) -> set[str]:
    """The rule checked over every pair: a neighbour within 2 tiles across, 1.5 down."""
    figs = list(layer.figures.values())
    return {f.key for f in figs if f.pile > 1 or any(
        o is not f and abs(o.glide.x - f.glide.x) < 2 and abs(o.glide.y - f.glide.y) < 1.5
        for o in figs)}


def test_the_crowd_found_by_cells_is_the_crowd_of_every_pair() -> None:
    for seed in range(5):
        layer = town_of(100, seed)
        layer.spread()
        crowded = {f.key for f in layer.figures.values() if f.pile > 1}
        assert crowded == crowded_by_pairs(layer)
        assert 0 < len(crowded) < 100  # the scatter has both crowds and loners


def test_a_hundred_names_on_screen_never_overlap() -> None:
    pygame.init()
    layer = town_of(100)
    layer.spread()
    surface = pygame.Surface((1280, 800))
    cam = Camera((1280, 800), (40 * 32, 25 * 32), center=(20 * 32, 12.5 * 32), zoom=1.0)
    layer.draw_overlays(surface, cam)
    boxes = list(layer.labels.values())
    assert len(boxes) >= 40  # most names are shown, the rest on hover
    assert not [(a, b) for a, b in itertools.combinations(boxes, 2) if a.colliderect(b)]
