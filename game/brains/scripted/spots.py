"""Where in a place a step happens, said by role ('a stove in a kitchen'), never by name.

A plan step carries a Spot; decomposing writes it into the step's place hint as role
tokens ('Lin family's house:@kitchen:@stove'), and choosing an area matches the tokens
against the roles of the areas on offer, so the rules work on any map that states roles.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.world.roles import ROLES_BY_VALUE, Role

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
