"""Noticing trouble (issue 21): a resident notices trouble in the room or home it is in at
once, smoke and the sound of water reach the next room and then spread, someone awake and
at home always comes, and nobody stops to chat while something burns.

The town of three, scripted brain, lockstep: these are checks of behaviour (who comes, and
within what game time), not of speed; benchmarks/troubles.py measures the big town.
"""

from __future__ import annotations

from datetime import timedelta

from game.core.records import ActionKind
from game.sim.events import EventKind
from game.sim.factory import build_simulation
from game.world.town import AreaKind, split
from game.world.troubles import trouble

STOVE = "Isabella Rodriguez's apartment:kitchen:stove"
CAFE_STOVE = "Hobbs Cafe:kitchen:stove"
GRACE = timedelta(minutes=2)  # "within a game minute or two"


def at(sim, hour: int, minute: int = 0, day: int = 0):
    start = sim.now.replace(hour=0, minute=0) + timedelta(days=day)
    return start + timedelta(hours=hour, minutes=minute)


def comer(sim, address: str):
    """The first resident dealing with the object: a reaction aimed at it."""
    for agent in sim.agents.values():
        action = agent.action
        if action is not None and action.kind is ActionKind.REACT and action.address == address:
            return agent
    return None


def watch(sim, address: str, limit: timedelta):
    """Run until someone comes for the object (or the limit); who, and after how long."""
    began, end = sim.now, sim.now + limit
    while sim.now < end:
        sim.step()
        found = comer(sim, address)
        if found is not None:
            return found, sim.now - began
    return None, limit


def test_a_burning_stove_in_the_next_room_is_noticed_at_once_and_put_out():
    sim = build_simulation("three", seed=3, workers=2)
    sim.run_until(at(sim, 6, 30))
    isabella = sim.agents["Isabella Rodriguez"]
    assert not isabella.asleep and isabella.location.endswith(":main room")
    sim.player.set_object_state(STOVE, "burning")
    who, after = watch(sim, STOVE, GRACE)
    assert who is isabella, f"nobody came within {GRACE}"
    action = isabella.action
    assert action.emoji.startswith("🧯")  # the map shows it: the emoji ...
    assert "burning" in action.said and "stove" in action.said  # ... and the bubble
    sim.run_until(sim.now + timedelta(minutes=15))
    assert trouble(sim.town.state(STOVE)) is None
    sim.close()


def test_someone_awake_at_home_always_comes():
    """Every half hour of a day, trouble in each home with someone awake inside: a stove
    burning, a shower leaking. Someone comes within the time the trouble takes to reach
    the farthest of them (the table's reach and spread), plus a minute or two."""
    sim = build_simulation("three", seed=3, workers=2)
    moment, end = at(sim, 6, 15), at(sim, 23, 0)
    late = []
    while moment < end:
        sim.run_until(moment)
        for home in sorted({a.persona.home for a in sim.agents.values()}):
            late += _trial(sim, home)
        moment += timedelta(minutes=30)
    sim.close()
    assert not late, late[:5]


def _trial(sim, home: str) -> list[str]:
    inside = [a for a in sim.agents.values()
              if not a.asleep and a.location and split(a.location)[0] == home]  # fmt: skip
    address = _troublesome(sim, home)
    if not inside or address is None:
        return []
    state = "burning" if address.endswith("stove") else "leaking"
    sim.player.set_object_state(address, state)
    rule, room = trouble(state), sim.town.areas[address].parent
    apart = min(sim.town.rooms_apart(a.location, room) or 0 for a in inside)
    bound = GRACE + timedelta(minutes=max(0, apart - rule.reach) * rule.spreads)
    who, after = watch(sim, address, bound)
    sim.run_until(sim.now + timedelta(minutes=rule.minutes + 10))
    left = sim.town.state(address) == state
    if left:
        sim.player.set_object_state(address, sim.town.areas[address].default_state)
    if who is None or left:
        return [f"{sim.now:%H:%M} {address} {state}: came {who and who.name}, left {left}"]
    return []


def _troublesome(sim, home: str) -> str | None:
    """The home's stove, else its first shower."""
    objects = [a for a in sim.town.areas.values()
               if a.kind is AreaKind.OBJECT and split(a.address)[0] == home]  # fmt: skip
    for name in ("stove", "shower"):
        found = next((a.address for a in objects if a.name == name), None)
        if found is not None:
            return found
    return None


def test_a_fire_at_the_cafe_brings_everyone_and_nobody_stops_to_chat():
    sim = build_simulation("three", seed=3, workers=2)
    sim.run_until(at(sim, 14, 30))
    assert all(a.location.startswith("Hobbs Cafe") for a in sim.agents.values())
    talks = len(sim.log.events)
    sim.player.set_object_state(CAFE_STOVE, "burning")
    who, _ = watch(sim, CAFE_STOVE, GRACE)
    assert who is not None
    end = sim.now + timedelta(minutes=15)
    while sim.now < end and trouble(sim.town.state(CAFE_STOVE)) is not None:
        sim.step()
        fixing = [a for a in sim.agents.values() if a.action and a.action.address == CAFE_STOVE]
        assert all(a.conversation is None for a in fixing)
    assert trouble(sim.town.state(CAFE_STOVE)) is None, "the cafe's stove still burns"
    chats = [e for e in sim.log.events[talks:] if e.kind is EventKind.CONVERSATION]
    assert not chats
    sim.close()


def test_the_same_trouble_again_is_noticed_again():
    """A stove put out and set burning again is a new fire (not 'seen lately')."""
    sim = build_simulation("three", seed=3, workers=2)
    sim.run_until(at(sim, 6, 30))
    for _ in range(2):
        sim.player.set_object_state(STOVE, "burning")
        who, _ = watch(sim, STOVE, GRACE)
        assert who is not None
        sim.run_until(sim.now + timedelta(minutes=10))
        assert trouble(sim.town.state(STOVE)) is None
    sim.close()
