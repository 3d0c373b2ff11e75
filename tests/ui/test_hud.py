"""The HUD's model lines (issue 15): the output mode the endpoint settled on, and a warning
when residents stand waiting for the model; both fit 800x600 and the default window
without overlapping the speed buttons or each other."""

from __future__ import annotations

import pygame
import pytest

from game.sim.factory import build_simulation
from game.sim.pace import MIN_SAMPLES, Pace
from game.sim.view import Usage
from game.ui import theme
from game.ui.hud import BAR_HEIGHT, INFO_SIZE, pace_line, usage_line
from game.ui.input import PLAY_KEYS, Act, key_event
from game.ui.pacing import SPEEDS
from tests.ui.helpers import frames, realtime

MODEL = "language model SmolLM2-135M-Instruct at 127.0.0.1"
USAGE = Usage(1234, 345_678, 45_678, 0.0, "json_object")
SLOW = Pace(recent_waiting=60, recent_awake=260, total_waiting=60, total_awake=260)


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
    assert pace_line(Pace(), speed=8) == ""  # what a replay reports
    assert pace_line(Pace(recent_waiting=5, recent_awake=MIN_SAMPLES), speed=8) == ""
    assert pace_line(Pace(recent_waiting=60, recent_awake=MIN_SAMPLES - 1), speed=8) == ""


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
