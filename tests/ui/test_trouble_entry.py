"""A trouble is one entry in game.world.troubles (issue 21): add one, and the brain notices
it and fixes it, and the map knows how it looks, with nothing else edited but a painter."""

from __future__ import annotations

from datetime import timedelta

import pytest

from game.brains.scripted.activities import classify
from game.brains.scripted.lexicon import emoji, object_state
from game.core.records import ActionKind
from game.sim.factory import build_simulation
from game.ui import overlays
from game.world import troubles
from game.world.troubles import LIGHT, Trouble

FRIDGE = "Isabella Rodriguez's apartment:kitchen:refrigerator"
FROZEN = Trouble("frozen", ("frozen", "iced up"), "thawing the frozen {obj}", 7, "idle", "🧊",
                 "The {obj} is frozen solid!", "ice", reach=1)  # fmt: skip


@pytest.fixture
def with_frozen(monkeypatch):
    monkeypatch.setattr(troubles, "TROUBLES", (*troubles.TROUBLES, FROZEN))


def test_a_new_entry_is_noticed_and_fixed_by_the_brain(with_frozen):
    action = FROZEN.fix("refrigerator")
    assert troubles.trouble("iced up") is FROZEN and troubles.fix_of(action) is FROZEN
    assert emoji(action).startswith("🧊")
    assert object_state(action, FRIDGE, "frozen") == "idle"
    assert classify(action).key == "fixing"
    sim = build_simulation("three", seed=3, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=30))
    isabella = sim.agents["Isabella Rodriguez"]
    sim.player.set_object_state(FRIDGE, "frozen")
    sim.run_until(sim.now + timedelta(minutes=2))
    assert isabella.action.kind is ActionKind.REACT and isabella.action.address == FRIDGE
    assert isabella.action.description == action
    assert isabella.action.said == "The refrigerator is frozen solid!"
    sim.run_until(sim.now + timedelta(minutes=12))
    assert troubles.trouble(sim.town.state(FRIDGE)) is None
    sim.close()


def test_a_new_entry_is_looked_up_by_the_map(with_frozen, monkeypatch):
    assert overlays.effect_of("frozen", "idle") == LIGHT  # no painter of its own yet: a glow
    assert overlays.notable("idle", "frozen", "idle")
    monkeypatch.setitem(overlays.PAINTERS, "ice", overlays.PAINTERS["water"])
    assert overlays.effect_of("frozen", "idle") == "ice"
    assert overlays.effect_of("idle", "idle") is None


def test_every_look_in_the_table_has_a_painter():
    assert troubles.looks() <= set(overlays.PAINTERS)
    assert overlays.effect_of("burning", "idle") == "fire"
    assert overlays.effect_of("leaking", "idle") == "water"
    assert overlays.effect_of("out of order", "idle") == "broken"
    assert overlays.effect_of("brewing coffee", "idle") == LIGHT
    assert not overlays.notable("idle", "brewing coffee", "idle")
