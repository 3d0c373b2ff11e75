"""Where in a place a step happens, said by role ('a stove in a kitchen'), never by name.

A plan step carries a Spot; decomposing writes it into the step's place hint as role
tokens ('Lin family's house:@kitchen:@stove'), and choosing an area matches the tokens
against the roles of the areas on offer, so the rules work on any map that states roles.

A spot's thing is also what the step needs: 'watching the news' needs a television, so
where a place offers none (`Offers`: the roles and names of its rooms and things) the step
is not chosen there. A thing may stand in for another (`STANDS_IN`: a kitchenette's counter
for a stove, any seat for a table).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from game.brains.questions import Spot as Offered
from game.world.roles import ROLES_BY_VALUE, Role
from game.world.town import AreaKind, Town

HOME = "@home"  # tokens in the tables: the persona's home, workplace, own room
WORK = "@work"
OWN = "@own"
ROLE_MARK = "@"  # a hint part that names a role: '@kitchen'

Pref = Role | str  # a role, a token above, or the plain name of a kind of thing ('easel')


@dataclass(frozen=True)
class Spot:
    """A room (a role, or OWN for one's own room) and, optionally, a thing in it."""

    arena: Role | str
    thing: Role | str | None = None

    def parts(self, own_room: str) -> list[str]:
        """The hint parts below the sector; OWN becomes the persona's own room's name."""
        arena = own_room if self.arena == OWN else token(self.arena)
        return [arena] + ([token(self.thing)] if self.thing is not None else [])


def token(pref: Role | str) -> str:
    """How a preference is written in a place hint: roles marked, names as they are."""
    return ROLE_MARK + pref.value if isinstance(pref, Role) else pref


def parse_token(part: str) -> Role | str:
    """The role a hint part names, else the part itself (a name)."""
    if part.startswith(ROLE_MARK):
        return ROLES_BY_VALUE.get(part[len(ROLE_MARK) :], part)
    return part


# what a place has: roles and names of its rooms and things, and each thing with its room
Offers = frozenset[Role | str | tuple]
ANYTHING: Offers | None = None  # what is on offer is unknown: every step may be chosen

# A role a place lacks may be stood in for: a dorm's common room with a kitchen counter
# serves as its kitchen, the counter as its stove, fridge and sink; any seat as a table.
STANDS_IN: dict[Role, tuple[Role, ...]] = {
    Role.KITCHEN: (Role.LIVING_ROOM,),
    Role.STOVE: (Role.KITCHEN_COUNTER,),
    Role.REFRIGERATOR: (Role.KITCHEN_COUNTER,),
    Role.SINK: (Role.KITCHEN_COUNTER,),
    Role.TABLE: (Role.SEAT, Role.KITCHEN_COUNTER, Role.DESK, Role.BENCH, Role.SOFA),
    Role.SOFA: (Role.SEAT, Role.BENCH),
    Role.WASHER: (Role.LAUNDRY_ROOM,),
}


def offered(pref: Pref, offers: Offers | None) -> bool:
    """Whether a place offers what a step needs: the role (or one standing in for it), or
    a thing of that name ('lectern', 'pool table' matches 'pool table 2'). Tokens (one's
    home, own room) and unknown offers always do."""
    if offers is None or pref in (HOME, WORK, OWN):
        return True
    if isinstance(pref, Role):
        return any(r in offers for r in (pref, *STANDS_IN.get(pref, ())))
    low = pref.lower()
    return any(isinstance(o, str) and o.startswith(low) for o in offers)


def affords(spot: Spot | None, offers: Offers | None) -> bool:
    """Whether a place can host a step at its spot. A step whose room the place has needs
    its thing there too ('watching the news' a television in the living room); a step whose
    room the place lacks only prefers it (a cafe's seat: elsewhere the rules choose)."""
    if spot is None or spot.thing is None or not offered(spot.arena, offers):
        return True
    if offers is None or not isinstance(spot.arena, Role):
        return offered(spot.thing, offers)  # one's own room: wherever the home has it
    rooms = (spot.arena, *STANDS_IN.get(spot.arena, ()))
    inside = frozenset(t for o in offers if isinstance(o, tuple) and o[0] in rooms for t in o[1:])
    return offered(spot.thing, inside)  # in that room: a bathroom's sink, not the kitchen's


def offers_of(spots: Iterable[Offered]) -> Offers | None:
    """What a sector offers, from the spots a question lists (None if it lists none: the
    question did not say, so nothing is ruled out)."""
    out: set[Role | str] = set()
    for s in spots:
        out |= offers_of_thing(s.arena_role, s.arena) | offers_of_thing(s.role, s.object)
        out |= _in_room(s.arena_role, s.role, s.object)
    return frozenset(out) or None


def _in_room(room: Role | None, role: Role | None, name: str) -> set:
    """A thing as (its room's role, its role and name): what affords reads room by room."""
    return {(room, *offers_of_thing(role, name))} if room is not None and name else set()


def offers_of_thing(role: Role | None, name: str) -> Offers:
    """One room's or thing's contribution: its role and its name."""
    return frozenset({*([role] if role is not None else []), *([name.lower()] if name else [])})


def offers_in(town: Town, sector: str) -> Offers:
    """What a sector of the map offers (every room and thing in it)."""
    out: set[Role | str] = set()
    for area in town.areas.values():
        inside = area.address.startswith(sector + ":") and area.kind is not AreaKind.SECTOR
        if inside:
            out |= offers_of_thing(area.role, area.name)
        if inside and area.kind is AreaKind.OBJECT:
            room = town.areas[area.parent or ""].role
            out |= _in_room(room, area.role, area.name)
    return frozenset(out)


# The spots the activity table uses.
STOVE = Spot(Role.KITCHEN, Role.STOVE)
FRIDGE = Spot(Role.KITCHEN, Role.REFRIGERATOR)
KITCHEN_SINK = Spot(Role.KITCHEN, Role.SINK)
BATHROOM = Spot(Role.BATHROOM)
BATHROOM_SINK = Spot(Role.BATHROOM, Role.SINK)
SHOWER = Spot(Role.BATHROOM, Role.SHOWER)
OWN_ROOM = Spot(OWN)
BED = Spot(OWN, Role.BED)
CLOSET = Spot(OWN, Role.CLOSET)
LIVING_ROOM = Spot(Role.LIVING_ROOM)
TABLE = Spot(Role.LIVING_ROOM, Role.TABLE)  # a meal at home: at the table if there is one
DESK = Spot(OWN, Role.DESK)  # work at home: the desk in one's own room (or one standing in)
WASHER = Spot(Role.LAUNDRY_ROOM, Role.WASHER)
SOFA = Spot(Role.LIVING_ROOM, Role.SOFA)
TELEVISION = Spot(Role.LIVING_ROOM, Role.TELEVISION)
CAFE_SEAT = Spot(Role.CAFE, Role.SEAT)  # a meal out: a seat (in a cafe; elsewhere the rules)
CAFE_COUNTER = Spot(Role.CAFE, Role.COUNTER)
CAFE_FLOOR = Spot(Role.CAFE)  # the room itself: standing, mingling, dancing
COFFEE_MACHINE = Spot(Role.CAFE, Role.COFFEE_MACHINE)
BAR_COUNTER = Spot(Role.BAR, Role.COUNTER)
BAR_SEAT = Spot(Role.BAR, Role.SEAT)
POOL_TABLE = Spot(Role.BAR, "pool table")
JUKEBOX = Spot(Role.BAR, "jukebox")
STORE = Spot(Role.STORE)
PHARMACY_COUNTER = Spot(Role.STORE, "pharmacy counter")
MEDICINE_SHELVES = Spot(Role.STORE, "medicine shelves")
LECTERN = Spot(Role.CLASSROOM, "lectern")
BLACKBOARD = Spot(Role.CLASSROOM, "blackboard")
LECTURE_DESKS = Spot(Role.CLASSROOM, "lecture desks")
POND = Spot(Role.PARK, "pond")
PARK_BENCH = Spot(Role.PARK, Role.BENCH)
PARK_GARDEN = Spot(Role.PARK, Role.GARDEN)
FOUNTAIN = Spot(Role.PARK, "fountain")
