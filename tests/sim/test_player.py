"""The player's commands on objects: what is typed as a state, and its limit."""

import pytest

from game.core.errors import SmallvilleError
from game.sim.factory import build_simulation
from game.sim.player import STATE_LIMIT, plain_state
from game.sim.view import state_changes

SINK = "Hobbs Cafe:kitchen:kitchen sink"


@pytest.mark.parametrize(
    "typed",
    [
        "overflowing",
        "the sink is overflowing",
        "The kitchen sink is overflowing.",
        "it's overflowing!",
        "is now overflowing",
        "now overflowing",
    ],
)
def test_a_sentence_typed_as_a_state_is_the_state(typed):
    assert plain_state(typed, "kitchen sink") == "overflowing"


def test_words_that_are_not_a_sentence_stay_as_typed():
    assert plain_state("sink overflowing", "kitchen sink") == "sink overflowing"
    assert plain_state("the sink is", "kitchen sink") == "the sink is"
    assert plain_state("on fire", "stove") == "on fire"


def test_the_state_is_remembered_in_plain_words_and_a_long_one_is_refused():
    sim = build_simulation("three", seed=0, workers=1)
    try:
        sim.player.set_object_state(SINK, "the sink is overflowing")
        assert sim.town.state(SINK) == "overflowing"
        change = state_changes(sim.log, 0, SINK)[-1]
        assert change.state == "overflowing" and change.by_player
        with pytest.raises(SmallvilleError, match=f"at most {STATE_LIMIT} characters"):
            sim.player.set_object_state(SINK, "x" * (STATE_LIMIT + 1))
        assert sim.town.state(SINK) == "overflowing"
    finally:
        sim.close()
