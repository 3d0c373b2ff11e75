"""What a resident has at hand when asked, whatever retrieval ranks (game/mind/jobs/at_hand)."""

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from game.core.records import MemoryKind, Source
from game.mind import facts
from game.sim.evaluation import ask
from game.sim.factory import build_simulation

BOOKLAUNCH = Path(__file__).parents[2] / "sim" / "fixtures" / "booklaunch.json"
CARMEN, JOHN = "Carmen Ortiz", "John Lin"


@pytest.fixture
def told_long_ago():
    """John heard of Carmen's petition (a public intent with no event) the first morning,
    then lived through fifty more memorable moments that crowd it out of retrieval."""
    sim = build_simulation(str(BOOKLAUNCH), seed=3, workers=1)
    petition = sim.scenario.intent("petition")
    john, start = sim.agents[JOHN], datetime(2023, 2, 13, 8)
    zero = np.zeros(sim.mind.embedder.dim, dtype=np.float32)
    heard = facts.claim(CARMEN, petition.text, None, petition)
    john.memory.add(MemoryKind.CHAT, facts.render(heard), start, 5, zero, heard)
    for i in range(50):
        busy = facts.doing(JOHN, f"filling prescription number {i}", Source.SELF)
        when = start + timedelta(minutes=10 * (i + 1))
        john.memory.add(MemoryKind.OBSERVATION, facts.render(busy), when, 8, zero, busy)
    sim.clock.now = start + timedelta(hours=12)
    yield sim
    sim.close()


def test_a_cause_one_was_told_of_is_at_hand_when_asked(told_long_ago):
    answer = ask(told_long_ago, JOHN, "Is anyone collecting signatures for something?")
    assert "Carmen" in answer and "garden" in answer, answer



def test_someone_one_saw_once_is_at_hand_when_asked_of_by_name(told_long_ago):
    """John saw Arthur watering plants on the first morning, then fifty busier moments
    crowded it out; asked about him by name only, he still knows him by sight."""
    sim = told_long_ago
    john, zero = sim.agents[JOHN], np.zeros(sim.mind.embedder.dim, dtype=np.float32)
    assert "never come across" in ask(sim, JOHN, "Has Arthur Burton ever crossed your path?")
    seen = facts.doing("Arthur Burton", "watering the plants", Source.SEEN)
    john.memory.add(MemoryKind.OBSERVATION, facts.render(seen), datetime(2023, 2, 13, 8, 5),
                    2, zero, seen)  # fmt: skip
    answer = ask(sim, JOHN, "Has Arthur Burton ever crossed your path?")
    assert "watering" in answer, answer
    from game.sim.judge import claims_acquaintance  # he knows of Arthur: the paper's yes

    assert claims_acquaintance(ask(sim, JOHN, "Do you know Arthur Burton?"))
