"""The talk brain in the window (issue 22): the start screen and the settings say who
answers talk, the settings screen saves it to the config file, and the chat panel marks
each of the resident's lines with who gave it (the model, or the scripted fallback)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pygame
import pytest

from game.core.config import LLMSettings
from game.sim.factory import build_simulation
from game.ui.input import click_events, key_event, text_event
from game.ui.settings import SettingsScene
from game.ui.start import brain_sentence
from tests.ui.helpers import frames, next_to, post, realtime, run_until

sys.path.insert(0, str(Path(__file__).parents[1] / "brains"))

from protocol_server import ProtocolServer  # noqa: E402

KLAUS = "Klaus Mueller"
SHOTS = ""  # a folder to save screenshots in while looking at the screens ('' = none)


def shot(app, name: str) -> None:
    if SHOTS:
        pygame.image.save(app.screen, str(Path(SHOTS) / f"{name}.png"))


def llm(url: str = "http://localhost:8080/v1", tmp: Path | None = None) -> LLMSettings:
    audit = str(tmp / "audit.jsonl") if tmp else ""
    return LLMSettings(base_url=url, model="qwen1.5b", audit=bool(tmp), audit_file=audit,
                       remember_endpoint=False, network_retries=0)  # fmt: skip


def test_the_start_screen_says_who_talks(tmp_path, monkeypatch):
    from game.ui.app import App, Options
    from game.ui.start import StartScene

    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path))
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))
    said = brain_sentence("scripted", llm(), "llm")
    assert said == (
        "scripted residents; interviews and your chat: language model qwen1.5b at localhost"
    )
    assert "residents' talk" in brain_sentence("scripted", llm(), "llm", residents=True)
    assert brain_sentence("scripted", None, "") == brain_sentence("scripted")
    options = Options(autosave_minutes=0, talk_brain="llm", llm=llm())
    app = App(options, events=lambda: [])
    try:
        app.start()
        frames(app, 1)
        start = app.stack.top
        assert isinstance(start, StartScene) and start.talk == "llm"
        assert start.doctor.startswith("not checked yet")  # a model talks: doctor's line
        shot(app, "start")
    finally:
        app.close()


def test_the_settings_choose_and_save_who_talks(tmp_path, monkeypatch):
    from game.ui.app import App, Options

    config = tmp_path / "config.toml"
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(config))
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path))
    app = App(Options(autosave_minutes=0), events=lambda: [])
    try:
        app.start()
        frames(app, 1)
        scene = SettingsScene(app)
        app.stack.push(scene)
        frames(app, 1)
        button = next(b for b in scene.talk_buttons if b.key == ("talk", ("llm", True)))
        post(app, click_events(button.rect.center))
        frames(app, 1)
        assert button.on
        shot(app, "settings")
        post(app, click_events(scene.save_button.rect.center))
        doc = tomllib.loads(config.read_text(encoding="utf-8"))
        assert doc["talk_brain"] == "llm" and doc["talk_residents"] is True
        assert app.options.talk_brain == "llm" and app.options.talk_residents
    finally:
        app.close()


@pytest.mark.parametrize("fault", ["", "server_error"])
def test_the_chat_panel_marks_who_answered(make_app, tmp_path, fault):
    with ProtocolServer() as server:
        server.always = fault
        settings = llm(server.url, tmp_path)
        sim = build_simulation("three", seed=3, workers=2, talk="llm", llm=settings)
        while sim.now.hour < 9 or sim.agents[KLAUS].asleep:
            sim.step()
        app = make_app(realtime(sim), talk_brain="llm")
        town = app.town
        town.visitor.pos = next_to(sim, KLAUS)
        town.open_chat(KLAUS)
        frames(app, 1)
        for ch in "Hello Klaus, what are you working on?":
            post(app, text_event(ch))
        post(app, key_event(pygame.K_RETURN))
        assert run_until(app, lambda: len(sim.chats.get(KLAUS, [])) >= 2, 15)
        frames(app, 2)
        spans = [s for row in town.chat.list.rows for s in row.spans]
        want = "(scripted fallback)" if fault else "(model)"
        assert want in [s.text for s in spans]
        assert "language model qwen1.5b" in sim.brain_label()
        shot(app, f"chat{'-' + fault if fault else ''}")
