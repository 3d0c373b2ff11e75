"""The one who notices trouble shows it on the map (issue 21): the trouble's emoji in its
bubble and what it calls out in a speech bubble, as the player first sees the reaction."""

from __future__ import annotations

from datetime import timedelta

from game.core.records import ActionKind
from game.sim.factory import build_simulation
from tests.ui.helpers import frames, realtime

STOVE = "Isabella Rodriguez's apartment:kitchen:stove"


def test_noticing_a_burning_stove_shows_an_emoji_and_a_bubble(make_app):
    sim = build_simulation("three", seed=3, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=30))
    isabella = sim.agents["Isabella Rodriguez"]
    sim.player.set_object_state(STOVE, "burning")
    end = sim.now + timedelta(minutes=2)
    while sim.now < end and (
        isabella.action is None or isabella.action.kind is not ActionKind.REACT
    ):
        sim.step()
    assert isabella.action.kind is ActionKind.REACT
    app = make_app(realtime(sim))
    frames(app, 2)
    figure = app.town.actors.figures[isabella.name]
    assert figure.emoji.startswith("🧯")
    assert figure.speech == isabella.action.said == "Something's burning! The stove!"
