"""Where an action happens: the agent's own tree walked from sector to spot.

Open hours, capacity and private rooms are read here, so the next action and a reaction
ground their actions by the same norms.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from game.brains.questions import (
    ActionDetails,
    ChooseSector,
    ChooseSpot,
    Details,
    Emoji,
    Spot,
    SpotDetails,
)
from game.core.clock import minute_of_day, next_time
from game.mind.agent import AgentSnapshot
from game.mind.jobs.common import Mind, Surroundings, context
from game.world.town import SEP, AreaKind, split


def is_staff(snap: AgentSnapshot, sector: str) -> bool:
    """Staff and residents may be in their own places outside opening hours."""
    return sector in (snap.persona.workplace, snap.persona.home)


def _has_room(world: Surroundings, snap: AgentSnapshot, address: str) -> bool:
    area = world.town.areas[address]
    if area.capacity is None:
        return True
    mine = world.self_targets.get(snap.name, "")
    already = 1 if mine == address or mine.startswith(address + SEP) else 0
    return world.occupancy.get(address, 0) - already < area.capacity


def sector_options(snap: AgentSnapshot, world: Surroundings) -> list[str]:
    """Known sectors that are open to this agent now and not full."""
    town, minute = world.town, minute_of_day(snap.now)
    names = [snap.persona.home, snap.persona.workplace or ""]
    names += sorted(a for a in snap.known if a and SEP not in a)
    names += event_places(snap)  # where an event one heard of is: one can find it
    out = []
    for name in dict.fromkeys(names):
        area = town.areas.get(name)
        if area is None or area.kind is not AreaKind.SECTOR:
            continue
        if (is_staff(snap, name) or area.is_open(minute)) and _has_room(world, snap, name):
            out.append(name)
    return out


def event_places(snap: AgentSnapshot) -> list[str]:
    """The places of events still to come (or on now) that the resident has heard of."""
    now, facts_ = snap.now, snap.memory.facts
    events = (facts_[i].event for i in snap.memory.naming_intents())  # the few that may
    return sorted({e.place for e in events if e is not None and e.end > now and e.place})


def _children(snap: AgentSnapshot, world: Surroundings, parent: str) -> list[str]:
    """The addresses under `parent` the agent knows (all, if it knows none) with room."""
    kids = [k.address for k in world.town.children(parent)]
    known = [k for k in kids if k in snap.known] or kids
    return [k for k in known if _has_room(world, snap, k)]


def spots_in(snap: AgentSnapshot, world: Surroundings, sector: str) -> tuple[Spot, ...]:
    """Where in a sector the agent may act: each roomy object of each roomy arena, or the
    arena itself where none of its objects has room."""
    town, out = world.town, []
    for arena in _children(snap, world, sector):
        arena_name = town.areas[arena].name
        objects = _children(snap, world, arena)
        arena_role = town.areas[arena].role
        for obj in objects:
            thing = town.areas[obj]
            out.append(Spot(arena_name, thing.name, obj, arena_role, thing.role))
        if not objects:
            out.append(Spot(arena_name, "", arena, arena_role))
    return tuple(out)


# The question choosing a spot (by its address) asks next: the object's state and the
# emoji, the emoji alone, or nothing when the plan says them.
Then = Callable[[str], ActionDetails | Emoji | None]


def ground(
    mind: Mind,
    snap: AgentSnapshot,
    world: Surroundings,
    description: str,
    hint: str,
    then: Then | None = None,
) -> tuple[str, Details | None]:
    """Walk the agent's own tree: the sector, then the spot in it (room and object); and
    when a spot is chosen among several, what `then` says choosing it asks next, asked
    with it (a model answers both in one request): the spot's address and those details,
    None when not asked."""
    ctx = context(snap, world.town)
    here = split(snap.location)
    sectors = sector_options(snap, world) or [snap.persona.home]
    sector = sectors[0]
    if len(sectors) > 1:
        roles = {name: world.town.areas[name].role for name in sectors}
        question = ChooseSector(ctx, description, tuple(sectors), _part(here, 0), hint, roles)
        answer = mind.brain.ask(question)
        sector = answer if answer in sectors else sectors[0]
    spots = spots_in(snap, world, sector)
    if not spots:
        return sector, None
    if len(spots) == 1:
        return spots[0].address, None
    current = _part(here, 1) if _part(here, 0) == sector else ""
    choose = ChooseSpot(ctx, description, sector, spots, current, hint)
    follow = tuple(then(s.address) for s in spots) if then is not None else ()
    if not any(follow):
        answer = mind.brain.ask(choose)
        return (answer if answer in spots else spots[0]).address, None
    answer, details = mind.brain.ask(SpotDetails(ctx, choose, follow))
    if answer not in spots:
        return spots[0].address, None
    return answer.address, details


def _part(parts: list[str], i: int) -> str:
    return parts[i] if len(parts) > i else ""


def until_closing(
    snap: AgentSnapshot, world: Surroundings, address: str, end: datetime
) -> datetime:
    """Visitors leave a place when it closes (the norms that language misses)."""
    sector = world.town.areas.get(split(address)[0]) if address else None
    if sector is None or sector.closes is None or is_staff(snap, sector.name):
        return end
    close = next_time(snap.now, sector.closes % (24 * 60))
    return min(end, close)
