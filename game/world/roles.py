"""What an area is for, whatever the map calls it: the `role` property of docs/MAP.md.

Names are the map author's ('Hobbs Cafe', 'galley', 'dorm kitchen counter'); roles are a
small shared vocabulary, so rules written once ('cook at a stove in a kitchen') work on any
map. One enum for all three levels keeps a role a plain value a brain can compare.
"""

from __future__ import annotations

from enum import Enum


class Role(Enum):
    """The purpose of a sector, an arena or an object. The value is the map's spelling."""

    # sectors
    HOME = "home"
    CAFE = "cafe"
    BAR = "bar"
    MARKET = "market"  # groceries and medicine
    SUPPLY = "supply store"  # tools, paint, hardware
    PARK = "park"
    COLLEGE = "college"
    # arenas
    BEDROOM = "bedroom"
    BATHROOM = "bathroom"
    KITCHEN = "kitchen"
    LIVING_ROOM = "living room"
    STUDY = "study"
    STUDIO = "studio"
    GARDEN = "garden"
    CLASSROOM = "classroom"
    LIBRARY = "library"
    HALLWAY = "hallway"
    LAUNDRY_ROOM = "laundry room"
    STORE = "store"  # a shop's sales floor (a cafe's or bar's main room is CAFE / BAR)
    # objects
    BED = "bed"
    CLOSET = "closet"
    DESK = "desk"
    TABLE = "table"
    SEAT = "seat"  # seating for customers: cafe seats, pub tables
    SOFA = "sofa"
    BENCH = "bench"
    STOVE = "stove"
    KITCHEN_COUNTER = "kitchen counter"  # a kitchenette: stove, fridge and sink in one
    SINK = "sink"
    SHOWER = "shower"
    TOILET = "toilet"
    REFRIGERATOR = "refrigerator"
    COUNTER = "counter"  # where customers are served
    COFFEE_MACHINE = "coffee machine"
    TELEVISION = "television"
    WASHER = "washing machine"
    BOOKSHELF = "bookshelf"
    SHELVES = "shelves"  # goods for sale


ROLES_BY_VALUE: dict[str, Role] = {r.value: r for r in Role}


def parse_role(text: str) -> Role:
    """The role a map spells, tolerant of case and spacing; ValueError otherwise."""
    role = ROLES_BY_VALUE.get(" ".join(str(text).lower().split()))
    if role is None:
        raise ValueError(f"unknown role {text!r}, see docs/MAP.md for the roles")
    return role


# What a public place of each role offers, in words: what 'where can I get cough syrup?'
# is matched against by meaning when the planner's keyword tables name nothing asked.
OFFERS: dict[Role, str] = {
    Role.MARKET: "groceries, food, bread, milk, eggs, fruit, vegetables, medicine, a pharmacy, "
    "pills, toiletries, soap, shampoo",
    Role.SUPPLY: "hardware, tools, paint, nails, screws, glue, batteries, light bulbs, "
    "art supplies, garden supplies",
    Role.CAFE: "coffee, tea, cake, pastries, sandwiches, breakfast, lunch",
    Role.BAR: "beer, wine, drinks, pub food, a night out",
    Role.PARK: "walks, running, picnics, fresh air, trees",
    Role.COLLEGE: "classes, lectures, library books, studying",
}
