"""The bar says when the town runs well under the chosen speed (issue 25): the 100-resident
town at 8x kept 1.3x to 1.7x on a 2-core machine while 8x stayed lit and nothing said so.
The measure is plain arithmetic over a couple of seconds of frames; the window test slows
the steps down for real."""

from __future__ import annotations

import time

import pygame

from game.sim.factory import build_simulation
from game.ui.hud import lag_line
from game.ui.input import key_event
from game.ui.pacing import KEPT_WINDOW_SECONDS, Pacer
from tests.ui.helpers import frames, realtime

FRAME = 1 / 60


def play(pacer: Pacer, seconds: float, frame: float = FRAME, most: int = 99) -> None:
    """Frames of `frame` real seconds for `seconds`, each running at most `most` of the
    steps it owes (the rest is given back, as the window does when its budget runs out)."""
    for _ in range(round(seconds / frame)):
        due = pacer.due(frame)
        ran = min(due, most)
        pacer.give_back(due - ran)
        pacer.ran(ran, frame)


def test_a_town_that_keeps_up_is_not_lagging() -> None:
    pacer = Pacer(speed=8)
    play(pacer, KEPT_WINDOW_SECONDS + 0.1)
    assert pacer.kept is not None and abs(pacer.kept - 8) < 0.5
    assert not pacer.lagging and lag_line(pacer) == ""


def test_a_town_whose_steps_are_slow_says_the_speed_it_keeps() -> None:
    pacer = Pacer(speed=8)
    slow = {"frame": 0.1, "most": 1}  # 10 frames a second, a step each: 1.7x
    play(pacer, 1.0, **slow)
    assert pacer.kept is None and not pacer.lagging  # not measured yet: nothing said
    play(pacer, KEPT_WINDOW_SECONDS, **slow)
    assert pacer.kept is not None and abs(pacer.kept - 10 / 6) < 0.1 and pacer.lagging
    line = lag_line(pacer)
    assert "the town runs at 1.7x, not 8x" in line and "try 1x" in line
    pacer.toggle_pause()
    assert not pacer.lagging and lag_line(pacer) == ""  # paused: nothing runs, nothing lags
    pacer.toggle_pause()
    pacer.set_speed(1)
    assert pacer.kept is None  # a new speed is measured afresh
    play(pacer, KEPT_WINDOW_SECONDS + 0.1)
    assert not pacer.lagging


def test_the_bar_says_so_when_the_steps_cannot_keep_up(make_app) -> None:
    sim = realtime(build_simulation("three", seed=0, workers=2))
    step = sim.step

    def slow_step() -> None:  # a step of a big town on a small machine
        time.sleep(0.06)
        step()

    sim.step = slow_step
    app = make_app(sim, size=(1280, 720))
    town = app.town
    town._quiet = lambda: False  # no night fast-forward: the chosen speed is what runs
    app.handle(key_event(pygame.K_4))  # 8x: 48 steps a second, each 60 ms
    frames(app, 3)
    assert town.hud.pace_text == ""
    began = last = time.perf_counter()
    while last - began < 6 and not town.hud.pace_text:
        now = time.perf_counter()
        app.frame(now - last)  # real time, as the window's clock gives it
        last = now
    assert "the town runs at" in town.hud.pace_text and "not 8x" in town.hud.pace_text
    assert town.pacer.kept is not None and town.pacer.kept < 6
