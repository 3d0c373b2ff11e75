"""Decompositions fill their parent's span; reactions cut the plan at the right moment."""

import random
from datetime import datetime, timedelta

from game.core.records import PlanItem
from game.mind.plan import DayPlan, fit_day, fit_to_span

T0 = datetime(2023, 2, 13, 9, 0)


def assert_fills(parent: PlanItem, subs: list[PlanItem]) -> None:
    assert subs[0].start == parent.start
    assert sum(s.minutes for s in subs) == parent.minutes
    for a, b in zip(subs, subs[1:], strict=False):
        assert a.end == b.start
    assert all(s.minutes >= 1 for s in subs)


def test_fit_to_span_fixes_a_brains_miscount():
    parent = PlanItem("work at the cafe", T0, 60, "Hobbs Cafe")
    subs = [PlanItem("open up", T0, 25), PlanItem("serve", T0, 25), PlanItem("clean", T0, 25)]
    fitted = fit_to_span(parent, subs)
    assert_fills(parent, fitted)
    assert [s.minutes for s in fitted] == [20, 20, 20]
    assert all(s.place == "Hobbs Cafe" for s in fitted)


def test_fit_to_span_random_inputs():
    rng = random.Random(3)
    for _ in range(300):
        parent = PlanItem("p", T0, rng.randint(1, 600))
        subs = [PlanItem(f"s{i}", T0, rng.randint(0, 90)) for i in range(rng.randint(1, 12))]
        assert_fills(parent, fit_to_span(parent, subs))


def test_empty_decomposition_keeps_the_parent():
    parent = PlanItem("nap", T0, 30)
    assert fit_to_span(parent, []) == [parent]


def test_fit_day_runs_from_waking_to_sleeping():
    items = [PlanItem("b", T0 + timedelta(hours=3), 120), PlanItem("a", T0, 60)]
    day = fit_day(items, T0, T0 + timedelta(hours=14))
    assert [i.description for i in day] == ["a", "b"]
    assert day[0].start == T0 and day[-1].end == T0 + timedelta(hours=14)


def test_locate_and_replan_from():
    broad = tuple(
        fit_day(
            [PlanItem("breakfast", T0, 60), PlanItem("work", T0, 240)], T0, T0 + timedelta(hours=5)
        )
    )
    plan = DayPlan("2023-02-13", broad).with_hours(1, [PlanItem("work", broad[1].start, 240)])
    assert plan.locate(T0 + timedelta(minutes=10)) == (0, None, None)
    assert plan.locate(T0 + timedelta(hours=2))[:2] == (1, 0)
    fire = PlanItem("putting out the fire", T0 + timedelta(minutes=20), 10, "kitchen:stove")
    new = plan.replan_from(T0 + timedelta(minutes=20), fire)
    assert [i.description for i in new.broad] == [
        "breakfast",
        "putting out the fire",
        "breakfast",
        "work",
    ]
    assert new.broad[2].start == T0 + timedelta(minutes=30) and new.broad[2].end == broad[0].end
    assert 3 in new.hours  # the later item's decomposition moved along with it
