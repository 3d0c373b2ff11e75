"""The HUD's model lines (issue 15): the output mode the endpoint settled on, and a warning
when residents stand waiting for the model; both fit 800x600 and the default window
without overlapping the speed buttons or each other. The warning is never a false alarm
(issue 21): not with the scripted brain, not during the night's fast-forward; and it is
there when a slow model really keeps residents waiting."""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "brains"))

from llm_helpers import settings  # noqa: E402
from protocol_server import ProtocolServer  # noqa: E402

from game.sim.factory import build_simulation  # noqa: E402
from game.sim.pace import MIN_RESIDENT_SECONDS, Pace, PaceMeter  # noqa: E402
from game.sim.simulation import ClockMode  # noqa: E402
from game.sim.view import Usage  # noqa: E402
from game.ui import theme  # noqa: E402
from game.ui.hud import BAR_HEIGHT, INFO_SIZE, pace_line, usage_line  # noqa: E402
from game.ui.input import PLAY_KEYS, Act, key_event  # noqa: E402
from game.ui.pacing import SPEEDS  # noqa: E402
from tests.ui.helpers import frames, realtime  # noqa: E402

MODEL = "language model SmolLM2-135M-Instruct at 127.0.0.1"
USAGE = Usage(1234, 345_678, 45_678, 0.0, "json_object")
SLOW = Pace(recent_waiting=60, recent_awake=260, total_waiting=60, total_awake=260, model=True)


class ModelTown:
    """A real town that reports a model brain, its usage and its pace (the HUD reads only
    these three from the brain; running a slow model in a test would take minutes)."""

    def __init__(self, sim, pace: Pace) -> None:
        self._sim, self._pace = sim, pace

    def __getattr__(self, name):
        return getattr(self._sim, name)

    def brain_label(self) -> str:
        return MODEL

    def model_usage(self) -> Usage:
        return USAGE

    def pace(self) -> Pace:
        return self._pace


class Blits(pygame.Surface):
    """A screen that remembers where each blit landed."""

    def __init__(self, size) -> None:
        super().__init__(size)
        self.rects: list[pygame.Rect] = []

    def blit(self, source, dest, *args, **kwargs):
        rect = super().blit(source, dest, *args, **kwargs)
        self.rects.append(rect)
        return rect


def test_the_usage_line_names_the_output_mode():
    assert usage_line(USAGE).endswith("$0.0000 · json_object")
    plain = usage_line(Usage(3, 10, 5))
    assert plain.endswith("$0.0000") and "json" not in plain


def test_the_bottleneck_line_says_how_long_residents_wait_and_what_to_do():
    assert SLOW.bottleneck
    line = pace_line(SLOW, speed=8)
    assert "the model is the bottleneck" in line and "23%" in line
    assert "[ key" in line and f"{SPEEDS[0]}x button" in line
    assert PLAY_KEYS[pygame.K_LEFTBRACKET] is Act.SLOWER  # the key it names slows the game
    lowest = pace_line(SLOW, speed=SPEEDS[0])
    assert "23%" in lowest and "lower speed" not in lowest and "faster model" in lowest


def test_no_bottleneck_line_while_the_model_keeps_up_or_in_a_replay():
    least = MIN_RESIDENT_SECONDS
    assert pace_line(Pace(), speed=8) == ""  # what a replay reports
    assert pace_line(Pace(recent_waiting=1, recent_awake=least, model=True), speed=8) == ""
    few = Pace(recent_waiting=60, recent_awake=least - 1, model=True)
    assert pace_line(few, speed=8) == ""
    assert pace_line(replace(SLOW, model=False), speed=8) == ""  # no model to blame


@pytest.fixture
def morning():
    sim = build_simulation("three", seed=0, workers=2)
    while sim.now.hour < 9:
        sim.step()
    return realtime(sim)


@pytest.mark.parametrize("size", [(800, 600), (1280, 720)])
def test_the_model_lines_fit_the_bar_without_overlap(make_app, morning, size):
    app = make_app(ModelTown(morning, SLOW), size=size)
    app.handle(key_event(pygame.K_4))  # 8x
    frames(app, 1)
    town, hud = app.town, app.town.hud
    assert "the model is the bottleneck" in hud.pace_text
    assert hud.usage_text.endswith("json_object") and hud.brain_text == MODEL
    assert hud.stacked == (size[0] < 1000)  # a narrow bar puts brain and usage on a row
    assert hud.rect.height == BAR_HEIGHT + 22 * (1 + hud.stacked)
    screen = Blits(size)
    hud.draw(screen)
    buttons = [b.rect for b in hud.buttons]
    texts = [r for r in screen.rects[1:] if not any(b.contains(r) for b in buttons)]
    assert len(texts) >= 5  # time, date, brain, usage, the warning
    whole = theme.text_image(MODEL, INFO_SIZE).get_width()
    assert any(r.width == whole for r in texts)  # the brain's label is not cut
    shapes = texts + buttons
    for i, a in enumerate(shapes):
        assert hud.rect.contains(a), (a, hud.rect)
        for b in shapes[i + 1 :]:
            assert not a.colliderect(b), (a, b)
    town.open_inspector("Isabella Rodriguez")
    frames(app, 1)
    assert town.inspector.rect.top > hud.rect.bottom  # panels start under the grown bar


def test_the_bar_keeps_one_row_when_the_model_keeps_up(make_app, morning):
    app = make_app(ModelTown(morning, Pace()), size=(1280, 720))
    frames(app, 1)
    hud = app.town.hud
    assert hud.pace_text == "" and not hud.stacked and hud.rect.height == BAR_HEIGHT


def test_no_bottleneck_line_during_the_fast_forward(make_app, morning):
    app = make_app(ModelTown(morning, SLOW), size=(1280, 720))
    frames(app, 1)
    town, hud = app.town, app.town.hud
    assert "the model is the bottleneck" in hud.pace_text
    hud.update(town.sim, town.pacer, 1280, fast_forward=True)  # the night runs fast
    assert hud.pace_text == "" and hud.rect.height == BAR_HEIGHT


def test_the_scripted_town_never_blames_a_model_through_its_first_night(make_app):
    """A new game of 25 at 4 am: the night runs fast-forward while residents wake, then
    the morning at 1x; the bottleneck line never shows (issue 21 saw 45%, then 100%)."""
    sim = build_simulation("smallville", seed=0, mode=ClockMode.REALTIME, workers=2)
    app = make_app(sim, size=(1280, 720))
    town = app.town
    shown, nights = [], 0
    for _ in range(900):  # at most fifteen seconds of frames
        app.frame(1 / 60)
        time.sleep(0.004)
        shown.append(town.hud.pace_text)
        nights += town.fast_forward
        if nights and not town.fast_forward:
            break
    assert nights, "the night should have run fast-forward"
    assert not town.fast_forward and sum(not a.asleep for a in sim.agents.values()) >= 5
    for _ in range(180):  # and three seconds of the morning at 1x
        app.frame(1 / 60)
        time.sleep(0.004)
        shown.append(town.hud.pace_text)
    assert not any(shown), next(t for t in shown if t)
    assert not sim.pace().bottleneck


def test_a_slow_model_that_keeps_residents_waiting_gets_the_line(make_app, tmp_path):
    """The model brain against the local protocol server, two real seconds a decision, the
    window at 32x: residents really stand waiting, and the HUD says so."""
    with ProtocolServer(latency=0.0) as server:
        llm = settings(server.url, tmp_path, audit_file="")
        sim = build_simulation("three", seed=0, brain="llm", workers=8, llm=llm)
        start = datetime.combine(sim.now.date(), datetime.min.time())
        sim.run_until(start + timedelta(hours=10, minutes=30))  # all three up, no latency
        server.latency = 2.0
        app = make_app(realtime(sim), size=(1280, 720))
        sim.pace_meter = PaceMeter()  # only what the window's real time shows
        town = app.town
        app.handle(key_event(pygame.K_6))  # 32x
        began = time.perf_counter()
        while time.perf_counter() - began < 25 and "bottleneck" not in town.hud.pace_text:
            app.frame(1 / 60)
            time.sleep(0.01)
        pace = sim.pace()
        assert pace.model and pace.recent_share > 0.05 and pace.bottleneck, pace
        assert "the model is the bottleneck" in town.hud.pace_text
        assert "lower speed" in town.hud.pace_text  # at 32x: slow down
