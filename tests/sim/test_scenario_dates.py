"""The years a scenario may start in are years the simulation can run through: a town
started on the last evening LAST_YEAR allows runs into the next year, and a date past
it is one line at load (9999-12-31 used to end in an OverflowError traceback)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from game.core.errors import ScenarioError
from game.core.paths import SCENARIOS
from game.sim.factory import build_simulation
from game.world.scenario import LAST_YEAR


def _three_starting(tmp_path, start: str):
    doc = json.loads((SCENARIOS / "three.json").read_text(encoding="utf-8"))
    doc["start"] = start
    for intent in doc["intents"]:
        if "event" in intent:
            intent["event"] |= {"start": f"{start[:10]}T21:00", "end": f"{start[:10]}T22:00"}
    path = tmp_path / "edge.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_a_town_runs_past_the_end_of_the_last_year(tmp_path):
    sim = build_simulation(_three_starting(tmp_path, f"{LAST_YEAR}-12-31T20:00"), seed=0)
    try:
        sim.run_until(sim.now + timedelta(hours=6))
        assert sim.now == datetime(LAST_YEAR + 1, 1, 1, 2, 0)
    finally:
        sim.close()


def test_the_last_day_datetime_has_is_refused_in_one_line(tmp_path):
    with pytest.raises(ScenarioError, match="year 9999 is outside"):
        build_simulation(_three_starting(tmp_path, "9999-12-31T04:00"), seed=0)
