"""The window reads the town only through SimView and sends commands only through the
player: a replay (no player) shows commands as unavailable instead of failing."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pygame

import game.ui
from game.sim.factory import build_simulation
from game.sim.replay import Replay
from game.sim.saves import load_game, save_game
from game.sim.view import READ_ONLY
from game.ui.input import Act, Command, click_events, key_event
from tests.ui.helpers import frames

STOVE = "Isabella Rodriguez's apartment:kitchen:stove"
# Probing for attributes, the scheduler, the brain, or a simulation's private parts.
PROBES = re.compile(r"getattr\(|hasattr\(|AttributeError|\.scheduler\b|\.mind\b|\bsim\._")


def test_no_ui_module_probes_the_simulation_or_reaches_into_it():
    found = []
    for path in sorted(Path(game.ui.__file__).parent.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PROBES.search(line):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert found == []


def test_the_probe_pattern_catches_what_it_must():
    for line in ("getattr(sim, 'chats', {})", "sim.scheduler.busy(n)", "sim.mind.brain.name"):
        assert PROBES.search(line), line
    assert not PROBES.search("self.sim.thinking(self.name)")


def _replay(tmp_path) -> Replay:
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now + timedelta(minutes=20))
    save_game(sim, "recorded", tmp_path)
    sim.close()
    return Replay(load_game("recorded", tmp_path))


def test_a_replay_in_the_window_refuses_commands_plainly(make_app, tmp_path):
    app = make_app(_replay(tmp_path))
    town = app.town
    frames(app, 3)
    assert town.visitor is None and town.nearest_resident() is None
    editor = town.open_editor(STOVE)
    editor.apply("burning")
    assert READ_ONLY in editor.note and town.sim.object_state(STOVE).state != "burning"
    inspector = town.open_inspector("Maria Lopez")
    inspector.whisper("I should paint today")
    inspector.ask("How are you?")
    assert READ_ONLY in inspector.note and READ_ONLY in inspector.asked[0].error
    app.handle(key_event(pygame.K_F5))
    assert any("replay cannot be saved" in t.text for t in town.notes.toasts)
    assert "replay of a recorded run" in town.hud.brain_text


def test_the_hud_buttons_send_the_keyboards_commands(make_app):
    app = make_app()
    frames(app, 1)
    hud = app.town.hud
    button = next(b for b in hud.buttons if b.key == Command(Act.SET_SPEED, value=4))
    for event in click_events(button.rect.center):
        app.handle(event)
    frames(app, 1)
    assert app.town.pacer.speed == 4 and button.on
