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


SMOL = dict(base_url="http://127.0.0.1:8080/v1", model="SmolLM2-135M-Instruct")


def _start_texts(monkeypatch, size, brain, llm):
    """The start screen drawn once: every line of text it wrote."""
    from game.ui import theme
    from game.ui.app import App, Options

    drawn: list[str] = []
    real = theme.blit_text

    def record(surface, text, pos, *args, **kwargs):
        drawn.append(text)
        return real(surface, text, pos, *args, **kwargs)

    monkeypatch.setattr(theme, "blit_text", record)
    app = App(Options(size=size, brain=brain, llm=llm))
    try:
        app.start()
        app.frame(1 / 60)
        scene = app.stack.top
        window = app.screen.get_rect()
        for widget in (*scene.scenario_buttons, scene.name_box, scene.start_button):
            assert window.contains(widget.rect), widget
        return drawn, theme.font(15).size
    finally:
        app.close()
        pygame.display.quit()


def _verdict(**fields):
    from game.brains.llm.doctor import Verdict
    from game.core.config import OutputMode

    base = dict(
        endpoint="http://127.0.0.1:8080/v1",
        model=SMOL["model"],
        modes={"json_object": "works"},
        mode=OutputMode.JSON_OBJECT,
        embeddings="works (8 dimensions)",
        latency=0.3,
        tokens_per_second=65.0,
        follows_schema="3 of 3",
        max_parallel=0,
    )
    return Verdict(**{**base, **fields})


def test_the_start_screen_shows_what_doctor_said_of_the_endpoint(monkeypatch, tmp_path):
    from game.brains.llm.doctor import remember
    from game.core.config import LLMSettings

    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))
    verdict = _verdict()
    remember(verdict)
    drawn, _ = _start_texts(monkeypatch, (1280, 720), "llm", LLMSettings(**SMOL))
    assert f"checked: {verdict.line()}" in drawn
    assert any("0.3 s to the first token, 65.0 tokens/s" in text for text in drawn)


def test_another_model_on_the_endpoint_is_not_checked_yet(monkeypatch, tmp_path):
    from game.brains.llm.doctor import remember
    from game.core.config import LLMSettings

    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))
    remember(_verdict(model="gemma-3-270m"))
    drawn, _ = _start_texts(monkeypatch, (1280, 720), "llm", LLMSettings(**SMOL))
    assert "not checked yet: run `python main.py doctor`" in drawn
    assert not any(text.startswith("checked:") for text in drawn)


def test_a_long_verdict_is_one_line_cut_to_an_800_px_window(monkeypatch, tmp_path):
    from game.brains.llm.doctor import remember
    from game.core.config import LLMSettings

    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))
    refused = "HTTP 500, Input should be 'text' or 'json_object' at response_format.type"
    problems = [f"{mode}: {refused}" for mode in ("json_schema", "json_object", "text")]
    remember(_verdict(mode=None, problems=problems))
    drawn, width = _start_texts(monkeypatch, (800, 480), "llm", LLMSettings(**SMOL))
    line = next(text for text in drawn if text.startswith("checked: unusable"))
    assert line.endswith("...") and width(line)[0] <= 800 - 100 - 20


def test_the_scripted_brain_shows_no_endpoint_check(monkeypatch, tmp_path):
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))
    drawn, _ = _start_texts(monkeypatch, (1280, 720), "scripted", None)
    assert not any("checked" in text or "doctor" in text for text in drawn)
    assert any(text.startswith("Brain: scripted") for text in drawn)
