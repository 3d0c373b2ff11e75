"""The visitor's feet (issue 21): walking into a lamp post or the cafe's counter slides
round it instead of sticking, and the visitor never stands on a resident's tile or on
furniture."""

from __future__ import annotations

import pygame

from game.sim.factory import build_simulation
from game.ui.input import key_event
from tests.ui.helpers import frames, realtime


def lamp_post(town) -> tuple[int, int]:
    """A blocked tile with all eight neighbours walkable (a street lamp's foot, a bush)."""
    return next(
        (x, y)
        for y in range(2, town.height - 2)
        for x in range(3, town.width - 3)
        if not town.is_walkable(x, y)
        and all(
            town.is_walkable(x + dx, y + dy)
            for dx in (-2, -1, 0, 1, 2)
            for dy in (-1, 0, 1)
            if (dx, dy) != (0, 0)
        )
    )


COUNTER = "Hobbs Cafe:cafe:cafe counter"  # four tiles wide, a wall at its left end


def hold(app, key, seconds: float) -> None:
    app.handle(key_event(key))
    frames(app, int(seconds * 60))
    app.handle(key_event(key, down=False))
    frames(app, 1)


def clear_of_residents(sim, near: tuple[int, int]) -> None:
    for agent in sim.agents.values():
        if abs(agent.pos[0] - near[0]) + abs(agent.pos[1] - near[1]) < 8:
            agent.pos = sim.town.spawns.get(agent.name, agent.pos)


def test_the_visitor_walks_round_a_lamp_post(make_app):
    sim = realtime(build_simulation("smallville", seed=5, workers=2))
    lamp = lamp_post(sim.town)
    clear_of_residents(sim, lamp)
    app = make_app(sim)
    app.town.pacer.toggle_pause()
    sim.visitor.pos = (lamp[0] - 1, lamp[1])
    hold(app, pygame.K_d, 0.7)  # about five steps
    assert sim.visitor.pos[0] > lamp[0]  # past it, not pressed against it
    assert sim.town.is_walkable(*sim.visitor.pos)


def test_the_visitor_walks_round_the_cafe_counter(make_app):
    sim = realtime(build_simulation("smallville", seed=5, workers=2))
    counter = sim.town.areas[COUNTER].rect
    start = (counter.x + counter.w - 2, counter.y - 1)  # above it, two tiles from its end
    assert sim.town.is_walkable(*start) and sim.town.is_walkable(counter.x + counter.w, counter.y)
    clear_of_residents(sim, start)
    app = make_app(sim)
    app.town.pacer.toggle_pause()
    sim.visitor.pos = start
    hold(app, pygame.K_s, 1.0)  # down, into the counter: along it, round its end, on
    assert sim.visitor.pos[1] > counter.y


def test_the_visitor_never_stands_on_a_resident(make_app):
    sim = realtime(build_simulation("three", seed=0, workers=2))
    app = make_app(sim)
    town = app.town
    town.pacer.toggle_pause()
    isabella = sim.agents["Isabella Rodriguez"]
    isabella.path = []
    sim.visitor.pos = isabella.pos  # she sat down where the visitor stood
    frames(app, 1)
    assert sim.visitor.pos != isabella.pos and sim.town.is_walkable(*sim.visitor.pos)
    x, y = isabella.pos
    for delta, key in (((-1, 0), pygame.K_d), ((1, 0), pygame.K_a), ((0, -1), pygame.K_s)):
        tile = (x + delta[0], y + delta[1])
        if sim.town.is_walkable(*tile):
            sim.visitor.pos = tile
            for _ in range(4):
                hold(app, key, 0.15)
                assert sim.visitor.pos != isabella.pos


def test_a_visitor_on_furniture_steps_off_it(make_app):
    sim = realtime(build_simulation("smallville", seed=5, workers=2))
    app = make_app(sim)
    app.town.pacer.toggle_pause()
    lamp = lamp_post(sim.town)
    sim.visitor.pos = lamp  # an old save, a map that changed under it
    frames(app, 1)
    assert sim.visitor.pos != lamp and sim.town.is_walkable(*sim.visitor.pos)
    assert max(abs(sim.visitor.pos[0] - lamp[0]), abs(sim.visitor.pos[1] - lamp[1])) == 1
