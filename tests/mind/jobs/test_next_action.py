"""The next action: one who finds the planned place closed goes elsewhere, and stays there
for the rest of that plan item (game/mind/jobs/next_action)."""

from dataclasses import replace
from datetime import datetime, timedelta

from game.core.records import PlanItem
from game.mind.cognition import next_action_job
from game.mind.plan import DayPlan
from game.sim.factory import build_simulation
from game.world.town import split

EVENING = datetime(2023, 2, 13, 18, 0)  # the pharmacy closes at 17:00
PHARMACY = "The Willows Market and Pharmacy"


def test_the_rest_of_an_item_planned_at_a_closed_place_goes_where_one_went() -> None:
    sim = build_simulation("smallville", seed=7, workers=1)
    try:
        agent = sim.agents["Abigail Chen"]
        before = PlanItem("painting", EVENING - timedelta(hours=2), 120, agent.persona.home)
        shopping = PlanItem("shopping for groceries", EVENING, 120, f"{PHARMACY}:store")
        after = PlanItem("shopping again", EVENING + timedelta(hours=2), 60, PHARMACY)
        plan = DayPlan(EVENING.date().isoformat(), (before, shopping, after))
        snap = replace(agent.snapshot(EVENING), plan=plan, action=None)
        decided = next_action_job(sim.mind, snap, sim.surroundings())
    finally:
        sim.close()
    went = split(decided.action.address)[0]
    assert went != PHARMACY, "closed: one goes elsewhere"
    new = decided.plan
    assert new.broad[1].place == went and new.broad[0] == before and new.broad[2] == after
    rest = [*new.hours[1], *(a for (b, _), acts in new.actions.items() if b == 1 for a in acts)]
    assert rest and all(split(i.place)[0] == went for i in rest)
