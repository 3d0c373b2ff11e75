"""An occupation reads with its article (issue 21): the inspector said "Latoya Williams is
photographer."; the summary description now says "is a photographer", "is the owner of"."""

from __future__ import annotations

from game.core.text import with_article
from game.mind.cognition import base_summary
from game.sim.factory import build_simulation


def test_occupations_take_their_article():
    assert with_article("photographer") == "a photographer"
    assert with_article("artist") == "an artist"
    assert with_article("owner of Hobbs Cafe") == "the owner of Hobbs Cafe"
    assert with_article("a weaver") == "a weaver"  # already has one
    assert with_article("university student") == "a university student"
    assert with_article("honest broker") == "an honest broker"


def test_the_summary_description_says_a_photographer():
    """The inspector's identity tab shows the summary, which opens with this line."""
    sim = build_simulation("smallville", seed=1, workers=2)
    latoya = sim.agents["Latoya Williams"]
    summary = base_summary(latoya.snapshot(sim.now))
    assert "Latoya Williams is a photographer." in summary
    assert "Isabella Rodriguez is the owner of Hobbs Cafe." in base_summary(
        sim.agents["Isabella Rodriguez"].snapshot(sim.now)
    )
    sim.close()
