"""Plans that fit rooms and people: an activity happens only where the place has what it
needs (a television, a classroom, a washing machine), each action at a thing that can host
it, and a plan naming someone else only comes from an agreement between the two."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from test_scripted_personas import DAY, Brain, context, seeds, smallville, town

from game.brains.questions import ChooseSpot
from game.brains.questions import Spot as Place
from game.brains.scripted import activities, spots
from game.brains.scripted.decompose import decompose
from game.brains.scripted.freetime import free_option
from game.brains.scripted.places import Directory
from game.brains.scripted.plans import sleep_time
from game.brains.scripted.timeline import Day
from game.core.records import (
    Event,
    Fact,
    FactKind,
    MemoryKind,
    MemoryRecord,
    PlanItem,
    Rsvp,
    Source,
)
from game.mind import facts
from game.world.roles import Role
from game.world.scenario import Resident
from game.world.town import AreaKind, sector_of, split

BRAIN = Brain(seed=0)
STARTS = [DAY + timedelta(hours=h, minutes=m) for h in (8, 13, 19, 21) for m in (0, 25)]
TELEVISION = activities.BY_KEY["television"]
TEACHING = activities.BY_KEY["teaching"]


def resident(name: str) -> Resident:
    return next(r for r in smallville().residents if r.name == name)


def places_in(sector: str) -> tuple[Place, ...]:
    """The spots of a sector as the architecture lists them (game.mind.jobs.where.spots_in)."""
    t, out = town(), []
    for arena in t.children(sector):
        things = list(t.children(arena.address))
        for thing in things:
            out.append(Place(arena.name, thing.name, thing.address, arena.role, thing.role))
        if not things:
            out.append(Place(arena.name, "", arena.address, arena.role))
    return tuple(out)


def steps(persona: Resident, text: str, place: str, grain: int = 15) -> list[PlanItem]:
    """Every action the item breaks into, over several start times and seeds."""
    offers = spots.offers_of(places_in(sector_of(place)))
    out = []
    for seed in (0, 1, 2):
        for start in STARTS:
            item = PlanItem(text, start, 60, place)
            out += decompose(persona, item, grain, seed, Directory.of(context(persona)), offers)
    return out


def in_activity(action: str, activity: activities.Activity) -> bool:
    return any(a is activity for a, _ in activities.steps_named(action))


def placed(persona: Resident, action: PlanItem) -> str:
    """The object the spot rule chooses for an action (the address)."""
    sector = sector_of(action.place)
    options = places_in(sector)
    ctx = context(persona)
    return BRAIN.ask(ChooseSpot(ctx, action.description, sector, options, "", action.place)).address


def test_the_sectors_offers_are_what_the_architecture_lists() -> None:
    for sector in ("Adam Smith's house", "Lin family's house", "Oak Hill College Dorm"):
        assert spots.offers_of(places_in(sector)) == spots.offers_in(town(), sector)
    assert Role.TELEVISION in spots.offers_in(town(), "Lin family's house")
    assert Role.TELEVISION not in spots.offers_in(town(), "Adam Smith's house")


@pytest.mark.parametrize("text", ["watching television at home", "watching the late news"])
def test_a_home_without_a_television_never_gets_a_television_action(text: str) -> None:
    adam = resident("Adam Smith")
    without = steps(adam, text, adam.home) + steps(adam, text, adam.home, grain=60)
    assert without and not any(in_activity(s.description, TELEVISION) for s in without)
    assert not any("television" in s.description for s in without)
    john = resident("John Lin")  # the Lins have one: the same words are television there
    with_tv = steps(john, text, "Lin family's house:common room:sofa")
    assert any(in_activity(s.description, TELEVISION) for s in with_tv)


def test_told_what_the_home_has_free_time_never_needs_what_it_lacks() -> None:
    """Free time at home is chosen from what the home has room for: no television evening
    in a house without one, while a house with one still gets it some evenings."""
    t = town()
    offers = {s.name: spots.offers_in(t, s.name) for s in t.sectors()}
    where = Directory({a.name: a for a in t.sectors()}, offers)
    chosen = {}
    for name in ("Adam Smith", "John Lin"):
        persona = resident(name)
        texts = []
        for day in range(13, 27):
            wake = datetime(2023, 2, day, 7)
            plan = Day(persona, wake, sleep_time(persona, wake), 0, frozenset(), "", where)
            for hour in (18, 19, 20, 21, 22):
                start = datetime(2023, 2, day, hour)
                texts.append(free_option(plan, start, start + timedelta(hours=1), "", True)[0])
        chosen[name] = texts
    adam = offers[resident("Adam Smith").home]
    assert all(activities.fits(activities.classify(t, True), adam) for t in chosen["Adam Smith"])
    assert not any("television" in t for t in chosen["Adam Smith"])
    assert any("television" in t for t in chosen["John Lin"])


@pytest.mark.parametrize("text", ["preparing lectures", "teaching philosophy"])
def test_a_lecture_is_never_given_at_a_bedroom_desk(text: str) -> None:
    mei = resident("Mei Lin")
    desk = "Lin family's house:Mei and John Lin's bedroom:desk"
    actions = steps(mei, text, desk) + steps(mei, text, mei.home)
    assert actions
    for action in actions:
        assert not in_activity(action.description, TEACHING), action.description
        where = placed(mei, action)
        assert split(where)[1:2] != ["classroom"]
        assert _hosts(where, action.description), (action.description, where)
    assert any("lecture notes" in a.description for a in actions)


def test_in_a_classroom_teaching_is_teaching() -> None:
    mei = resident("Mei Lin")
    actions = steps(mei, "teaching philosophy", "Oak Hill College:classroom")
    assert any(in_activity(a.description, TEACHING) for a in actions)
    for action in actions:
        assert _hosts(placed(mei, action), action.description), action.description


def _hosts(address: str, action: str) -> bool:
    """Whether the chosen thing can host the action, by the activity table's data."""
    area = town().areas[address]
    offers = spots.offers_in(town(), sector_of(address))
    found = activities.steps_named(action)
    if not found or area.kind is not AreaKind.OBJECT:
        return True
    here = spots.offers_of_thing(area.role, area.name)
    return any(
        activities.fits(a, offers)
        and (s is None or s.thing is None or not spots.offered(s.arena, offers)
             or spots.offered(s.thing, here))
        for a, s in found
    )  # fmt: skip


@pytest.mark.parametrize("text", ["doing the laundry", "cleaning the house"])
def test_laundry_only_where_there_is_a_washing_machine(text: str) -> None:
    jane = resident("Jane Moreno")
    home = "Moreno family's house:common room"
    actions = steps(jane, text, home)
    assert actions and not any("laundry" in a.description for a in actions)
    for action in actions:
        assert _hosts(placed(jane, action), action.description), action.description
    washer = spots.offers_in(town(), jane.home) | {Role.WASHER}
    item = PlanItem("doing the laundry", DAY + timedelta(hours=9), 60, home)
    with_one = decompose(jane, item, 15, 0, None, washer)
    assert any(a.description == "doing the laundry" for a in with_one)


def test_every_step_of_the_table_has_an_activity_that_can_be_somewhere() -> None:
    """Each activity's needs and substitutes are keys of the table, and a substitute chain
    ends in something with no needs (so a place always has something to do)."""
    for activity in activities.ACTIVITIES:
        if activity.otherwise:
            assert activity.otherwise in activities.BY_KEY
        assert activities.fitting(activity, frozenset()).needs == ()


# -- plans that name another resident ---------------------------------------------------------
def _named(persona: Resident, text: str) -> list[str]:
    """The other residents an item names by first name."""
    import re

    return [
        r.name
        for r in smallville().residents
        if r.name != persona.name and re.search(rf"\b{r.first_name}\b", text)
    ]


def _routine_names(persona: Resident) -> set[str]:
    return {n for b in persona.routine for n in _named(persona, b.activity)}


def test_no_resident_plans_to_meet_someone_without_an_agreement() -> None:
    """Only the scenario's routines (both sides' standing arrangements) name others."""
    for day in (13, 14, 15):
        for persona in smallville().residents:
            wake = datetime(2023, 2, day) + timedelta(minutes=persona.wake)
            items = BRAIN.plan_day(context(persona, wake, seeds(persona)), "", wake)
            for item in items:
                named = set(_named(persona, item.description)) - _routine_names(persona)
                assert not named, (persona.name, item.description)


def test_an_agreement_to_meet_is_planned_at_its_time_and_place() -> None:
    ayesha, klaus = resident("Ayesha Khan"), resident("Klaus Mueller")
    start = DAY + timedelta(hours=16)
    meet = Event("Hobbs Cafe", start, start + timedelta(hours=1), "snack", klaus.name)
    offer = Fact(FactKind.CLAIM, Source.HEARD, subject=klaus.name, object="a snack", event=meet)
    said = facts.rsvp(ayesha.name, Rsvp.ACCEPTED, "Klaus is my friend", offer)
    agreed = MemoryRecord(50, MemoryKind.OBSERVATION, facts.render(said), DAY, 7, said)
    wake = DAY + timedelta(minutes=ayesha.wake)
    items = BRAIN.plan_day(context(ayesha, wake, (*seeds(ayesha), agreed)), "", wake)
    there = [i for i in items if i.start <= start < i.end]
    assert there and sector_of(there[0].place) == "Hobbs Cafe"
    assert klaus.name in _named(ayesha, there[0].description)
    without = BRAIN.plan_day(context(ayesha, wake, seeds(ayesha)), "", wake)
    assert not any(klaus.name in _named(ayesha, i.description) for i in without)


def test_a_step_needs_its_thing_in_its_own_room() -> None:
    """A kitchen's sink is no place to brush one's teeth: where the bathroom has none, the
    step is not taken (a sink elsewhere in the house does not count)."""
    shared = spots.offers_in(town(), "artists' co-living space")  # a kitchen sink only
    assert not spots.affords(spots.BATHROOM_SINK, shared)
    assert spots.affords(spots.KITCHEN_SINK, shared)
    hailey = resident("Hailey Johnson")
    item = PlanItem("getting ready for bed", DAY + timedelta(hours=22), 30, hailey.home)
    actions = decompose(hailey, item, 15, 0, None, shared)
    assert actions and not any(a.description == "brushing teeth" for a in actions)
    lins = spots.offers_in(town(), "Lin family's house")  # a bathroom sink
    mei = resident("Mei Lin")
    item = PlanItem("getting ready for bed", DAY + timedelta(hours=22), 30, mei.home)
    assert any(a.description == "brushing teeth" for a in decompose(mei, item, 15, 0, None, lins))
