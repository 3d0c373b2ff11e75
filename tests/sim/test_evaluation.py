"""The evaluation's measures on a small hand-built history, against numbers worked by hand."""

from datetime import datetime

import numpy as np
import pytest

from game.core.records import MemoryKind
from game.mind import facts
from game.sim.evaluation import (
    BATTERY,
    acquaintances_now,
    attendance,
    battery_questions,
    density,
    diffusion,
)
from game.sim.events import EventKind
from game.sim.factory import build_simulation


def test_density_by_hand():
    names = ["A", "B", "C", "D"]
    knows = {("A", "B"), ("B", "A"), ("A", "C"), ("C", "D"), ("D", "C"), ("D", "D")}
    # mutual pairs: A-B and C-D (A-C is one-way, D-D is no pair): 2 * 2 / (4 * 3) = 1/3
    result = density(names, knows)
    assert result["density"] == pytest.approx(0.3333, abs=1e-4)
    assert result["edges"] == [["A", "B"], ["C", "D"]]
    assert density(["A"], set())["density"] == 0.0


@pytest.fixture
def history():
    """'three' with a hand-made past: who heard of the party, who was at the cafe."""
    sim = build_simulation("three", seed=0)
    vec = np.zeros(sim.mind.embedder.dim, dtype=np.float32)
    klaus = sim.agents["Klaus Mueller"].memory
    heard = facts.claim("Isabella Rodriguez", "there is a Valentine's Day party", None)
    klaus.add(MemoryKind.CHAT, facts.render(heard), datetime(2023, 2, 13, 12, 0), 7, vec, heard)
    cafe = "Hobbs Cafe:cafe:cafe customer seating"
    log = sim.log
    log.add(
        datetime(2023, 2, 14, 16, 30), EventKind.ACTION, "Klaus Mueller", "coffee", address=cafe
    )
    log.add(
        datetime(2023, 2, 14, 17, 30),
        EventKind.ACTION,
        "Klaus Mueller",
        "home",
        address="Oak Hill College Dorm:Klaus Mueller's room:bed",
    )
    log.add(datetime(2023, 2, 14, 19, 0), EventKind.ACTION, "Maria Lopez", "late", address=cafe)
    log.add(
        datetime(2023, 2, 14, 17, 10),
        EventKind.ACTION,
        "Isabella Rodriguez",
        "host",
        address="Hobbs Cafe:cafe:cafe counter",
    )
    sim.clock.now = datetime(2023, 2, 15, 4, 0)
    yield sim
    sim.close()


def test_attendance_from_the_event_log(history):
    party = attendance(history)["party"]
    assert party["happened"]
    assert party["invited"] == ["Klaus Mueller"]  # heard before 5 pm; the host is not counted
    # Klaus 16:30-17:30 overlaps 17:00-19:00; Isabella from 17:10; Maria only from 19:00
    assert party["attended"] == ["Isabella Rodriguez", "Klaus Mueller"]
    assert party["invited_who_came"] == ["Klaus Mueller"]


def test_diffusion_checks_each_yes_against_memory(history):
    answers = {
        ("party", "Klaus Mueller"): "Yes, Isabella is throwing a party at the cafe.",
        ("party", "Maria Lopez"): "Oh yes, the Valentine party!",  # nothing in her memory
        ("party", "Isabella Rodriguez"): "I'm hosting a Valentine's Day party!",
    }
    party = diffusion(history, answers)["party"]
    assert party["start"] == 1 and party["end"] == 3
    assert party["carried_by"]["Klaus Mueller"] == "conversation with Isabella Rodriguez"
    assert party["carried_by"]["Isabella Rodriguez"] == "seed"
    assert party["ungrounded"] == ["Maria Lopez"]


def test_no_is_not_counted_as_knowing(history):
    answers = {
        (i, n): "I haven't heard about any party." for i in ("party",) for n in history.agents
    }
    assert diffusion(history, answers)["party"]["end"] == 0


def test_talking_makes_acquaintances(history):
    assert ("Klaus Mueller", "Isabella Rodriguez") in acquaintances_now(history)


def test_battery_has_the_papers_25_questions(history):
    rows = list(battery_questions(history, "Klaus Mueller"))
    assert len(rows) == 25 and {g for g, _ in rows} == set(BATTERY)
    assert all("[" not in q for _, q in rows)
