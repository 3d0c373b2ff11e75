"""A run that starts in a resident's waking hours has it up and planning at once, not
asleep until the next morning: a model-driven hour can then begin at 07:00 (issue 22's
awake hour), while a run from 04:00, before everyone's waking time, is unchanged."""

from __future__ import annotations

from datetime import datetime

from game.sim.setup import waking_at
from game.world.scenario import load_world


def test_a_resident_gets_up_at_once_in_its_waking_hours_and_sleeps_on_before_them() -> None:
    scenario, _ = load_world("three")
    people = {r.name: r for r in scenario.residents}
    isabella, maria = people["Isabella Rodriguez"], people["Maria Lopez"]  # up 06:00, 10:00
    seven = datetime(2023, 2, 13, 7)
    assert waking_at(isabella, seven) == seven
    assert waking_at(maria, seven) == datetime(2023, 2, 13, 10)
    four = datetime(2023, 2, 13, 4)
    assert waking_at(isabella, four) == datetime(2023, 2, 13, 6)
    assert waking_at(maria, datetime(2023, 2, 13, 23, 30)) == datetime(2023, 2, 13, 23, 30)
    assert waking_at(maria, datetime(2023, 2, 14, 0, 30)) == datetime(2023, 2, 14, 10)
