"""Where things happen: the town's public places and hours, refining a plan's place for
one action, and choosing among the areas the architecture offers.

The names follow docs/TOWN.md. The rules only prefer names; when the map lacks one, the
choice falls through to the next rule, so another map degrades gracefully.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.world.scenario import Resident
from game.world.town import AreaKind, split

from .util import first_name, has_any

CAFE = "Hobbs Cafe"
PUB = "The Rose and Crown Pub"
PARK = "Johnson Park"
MARKET = "The Willows Market and Pharmacy"
SUPPLY = "Harvey Oak Supply Store"
COLLEGE = "Oak Hill College"
# Opening hours (minutes after midnight) of the public places, as the map states them.
PUBLIC_HOURS: dict[str, tuple[int, int]] = {
    CAFE: (8 * 60, 20 * 60),
    PUB: (12 * 60, 24 * 60),
    MARKET: (8 * 60, 17 * 60),
    SUPPLY: (8 * 60, 18 * 60),
    COLLEGE: (8 * 60, 22 * 60),
}
PUBLIC_PLACES = (CAFE, PUB, PARK, MARKET, SUPPLY, COLLEGE)

HOME = "@home"  # tokens in the tables below: the persona's home, workplace, own room
WORK = "@work"
OWN = "@own"

# (action keys, preferred sectors) when no hint names a sector.
SECTOR_RULES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("sleep", "nap\\b", "bed\\b", "shower", "brush", "teeth", "getting dressed",
      "morning routine", "getting ready", "waking up", "breakfast"), (HOME,)),
    (("espresso", "coffee", "cafe", "latte"), (CAFE,)),
    (("beer", "pub\\b", "pint", "bar\\b", "drink"), (PUB,)),
    (("grocer", "medicine", "pharmacy", "prescription"), (MARKET,)),
    (("tools?\\b", "supplies", "canvas", "hardware", "paints and"), (SUPPLY,)),
    (("walk", "run\\b", "jog", "park\\b", "picnic", "outdoors", "training"), (PARK,)),
    (("class", "lectur", "library", "seminar", "teach"), (COLLEGE,)),
    (("work", "shift", "serving", "customers"), (WORK,)),
    (("cook", "dinner", "television", "tv\\b", "relax", "sofa", "housemates", "home"), (HOME,)),
)  # fmt: skip
# (action keys, preferred arenas); a preference matches an arena that starts with it.
ARENA_RULES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("sleep", "nap\\b", "bed\\b", "getting dressed", "changing", "closet", "waking up"), (OWN,)),
    (("shower", "bath", "brush", "teeth", "wash(?:ing)? up", "toilet"), ("bathroom",)),
    (("cook", "breakfast", "fridge", "ingredients", "stove", "bak", "dishes", "chopping",
      "heating", "plating", "kitchen", "cup of tea"), ("kitchen", "common room")),
    (("eat", "lunch", "dinner", "meal", "snack", "table"), ("dining", "common room", "cafe",
                                                          "pub", "kitchen", "main room")),
    (("television", "tv\\b", "sofa", "relax", "housemates", "dorm mates", "chat", "hanging out",
      "watching"), ("common room", "main room")),
    (("paint", "easel", "watercolo", "canvas"), ("studio", OWN)),
    (("class", "lectur", "teach", "blackboard"), ("classroom",)),
    (("library", "research", "thesis", "books?\\b"), ("library", OWN, "study")),
    (("stud", "writ", "read", "homework", "desk", "cod", "stream", "compos", "practis",
      "scales", "keyboard", "animat", "draw", "photo", "tax", "client", "accounts", "rehears",
      "lectures", "proof", "notes"), (OWN, "study", "home office", "main room", "library")),
    (("garden", "plants", "weed", "vegetable"), ("garden",)),
    (("coffee", "espresso", "serv", "customer", "pastr", "counter", "muffin"), ("cafe", "store")),
    (("bar\\b", "beer", "pint", "drink", "pool", "jukebox", "regulars"), ("pub",)),
    (("grocer", "medicine", "pharmacy", "shelves", "store", "shop"), ("store",)),
    (("walk", "run", "bench", "pond", "fountain", "bird", "jog"), ("park",)),
    (("notice", "vending"), ("hallway",)),
)  # fmt: skip
OBJECT_RULES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("sleep", "nap\\b", "bed\\b", "pyjamas", "alarm", "waking up"), ("bed",)),
    (("shower",), ("shower",)),
    (("brush", "teeth", "wash(?:ing)? up", "wash hands"), ("bathroom sink", "sink")),
    (("toilet",), ("toilet",)),
    (("dishes", "washing up"), ("kitchen sink", "sink")),
    (("espresso", "coffee", "latte", "brew"), ("coffee machine",)),
    (("fridge", "ingredients", "refrigerator"), ("refrigerator",)),
    (("cook", "fry", "stove", "bak", "heating", "stir", "chopping", "plating", "tasting",
      "making breakfast", "cup of tea", "muffin"), ("stove", "dorm kitchen counter")),
    (("eat", "lunch", "dinner", "breakfast", "meal", "snack", "sip", "setting the table",
      "clearing the table"),
     ("dining table", "cafe customer seating", "pub tables", "picnic table",
      "dorm kitchen counter", "garden bench", "sofa", "desk")),
    (("pour", "pints?\\b", "cocktail", "glasses", "bar\\b", "tab\\b", "last orders"),
     ("bar counter",)),
    (("prescription", "pharmacy", "medicine"), ("pharmacy counter", "medicine shelves")),
    (("order", "serv", "customer", "pastr", "counter", "till", "sale", "takings", "paying"),
     ("cafe counter", "bar counter", "cashier counter", "store counter", "pharmacy counter")),
    (("pool",), ("pool table",)),
    (("jukebox", "song"), ("jukebox",)),
    (("grocer", "shelves", "restock", "stock", "displays", "deliveries"),
     ("grocery shelves", "supply shelves", "refrigerated display", "medicine shelves",
      "paint shelves")),
    (("tools?\\b",), ("tool rack",)),
    (("paint", "watercolo", "easel", "canvas", "sketch", "brushes", "colours"),
     ("easel", "paint table", "paint shelves", "cafe customer seating", "park bench",
      "picnic table")),
    (("animat", "draw", "tablet", "character"), ("drawing tablet desk", "desk")),
    (("photo", "editing"), ("photo editing desk", "computer desk", "desk")),
    (("stream", "viewers", "game live"), ("streaming setup",)),
    (("piano", "keyboard", "compos", "music", "scales", "melod", "harmony", "score"),
     ("music keyboard", "piano")),
    (("rehears", "monologue", "mirror", "lines"), ("mirror",)),
    (("lectur", "teach", "explain", "lectern"), ("lectern", "blackboard")),
    (("blackboard",), ("blackboard",)),
    (("class", "listening"), ("lecture desks",)),
    (("tax", "client", "filing", "paperwork", "letter"), ("filing cabinet", "desk")),
    (("writ", "novel", "poem", "outlin", "paragraph", "cod", "bug", "app\\b", "tests?\\b",
      "stud", "research", "homework", "notes", "thesis", "problem", "accounts", "emails",
      "grading"),
     ("writing desk", "desk", "computer desk", "library tables", "lecture desks",
      "cafe customer seating")),
    (("read", "books?\\b", "chapter", "magazine"),
     ("bookshelf", "library bookshelves", "sofa", "desk", "park bench", "cafe customer seating",
      "library tables")),
    (("television", "tv\\b", "news", "show", "channels"), ("television", "sofa")),
    (("relax", "sofa", "sit", "rest", "chat", "talk", "laugh", "listening to", "friend"),
     ("sofa", "cafe customer seating", "pub tables", "park bench", "garden bench")),
    (("garden", "plants", "weed", "water", "seeds", "pruning", "vegetables"),
     ("house garden", "park garden")),
    (("pond", "bird"), ("pond", "park garden")),
    (("fountain",), ("fountain",)),
    (("bench",), ("park bench", "garden bench")),
    (("walk", "stroll", "run", "jog", "sprint", "lap", "stretch", "training", "cooling"),
     ("park garden", "fountain", "pond", "park bench")),
    (("dress", "closet", "clothes"), ("closet",)),
    (("vending",), ("vending machine",)),
    (("notice",), ("notice board",)),
)  # fmt: skip

# Home spots that need another name in some homes ('kitchen' in the dorm).
HOME_SPOT_ALIASES: dict[str, dict[str, str]] = {
    "dorm": {"kitchen:stove": "common room:dorm kitchen counter",
             "kitchen:refrigerator": "common room:dorm kitchen counter",
             "kitchen:kitchen sink": "common room:dorm kitchen counter",
             "kitchen": "common room"},
}  # fmt: skip
HOME_ARENAS = ("own", "bathroom", "kitchen", "common room", "garden")
# Public spots apply only in sectors whose name has one of these words.
SPOT_SECTOR_WORDS: dict[str, tuple[str, ...]] = {
    "cafe": ("cafe",),
    "kitchen": ("cafe",),
    "pub": ("pub",),
    "store": ("market", "store"),
    "library": ("college",),
    "classroom": ("college",),
    "hallway": ("college",),
    "park": ("park",),
}


def hours(sector: str) -> tuple[int, int] | None:
    return PUBLIC_HOURS.get(sector)


def is_open(sector: str, start: int, end: int) -> bool:
    """Whether the public place is open for the whole visit (minutes after midnight)."""
    window = PUBLIC_HOURS.get(sector)
    return window is None or (window[0] <= start and end <= window[1])


def bed_arena(persona: Resident) -> str:
    parts = split(persona.bed)
    return parts[1] if len(parts) > 1 else ""


# -- refining a plan's place for one step ---------------------------------------------------
def refine(place: str, spot: str, persona: Resident) -> str:
    """The parent's place made more precise by a step's spot, when the spot fits there."""
    if not place or not spot:
        return place
    parts = split(place)
    sector = parts[0]
    if sector == persona.home:
        refined = _refine_home(sector, spot, persona)
        moved = len(parts) >= 3 and split(refined)[1:2] != parts[1:2]
        return place if not refined or moved else refined  # a chosen seat stays chosen
    arena = spot.split(":")[0]
    same_arena = len(parts) > 1 and parts[1] == arena
    fits = has_any(sector, SPOT_SECTOR_WORDS.get(arena, ())) and not has_any(sector, ("dorm",))
    return f"{sector}:{spot}" if same_arena or fits else place


def _refine_home(sector: str, spot: str, persona: Resident) -> str:
    arena, _, obj = spot.partition(":")
    if arena not in HOME_ARENAS:
        return ""
    for word, aliases in HOME_SPOT_ALIASES.items():
        if has_any(sector, (word,)):
            spot = aliases.get(spot) or aliases.get(arena) or spot
            arena, _, obj = spot.partition(":")
    if arena == "own":
        arena = bed_arena(persona)
        if not arena:
            return ""
    return ":".join(p for p in (sector, arena, obj) if p)


# -- choosing an area ------------------------------------------------------------------------
LEVEL_INDEX = {AreaKind.SECTOR: 0, AreaKind.ARENA: 1, AreaKind.OBJECT: 2}


def choose(
    persona: Resident,
    action: str,
    level: AreaKind,
    options: Sequence[str],
    current: str,
    hint: str,
) -> str:
    """Hint, then keyword tables, then staying put, then one's own room, then the first."""
    if not options:
        return ""
    own = [o for o in options if not _is_private_other(o, persona)] or list(options)
    usable = [o for o in own if not _staff_only(o, persona, level, hint, action)] or own
    for finder in (_by_hint, _by_rules, _by_current, _by_own, _by_main_room, _by_default):
        found = finder(persona, action, level, usable, current, hint)
        if found:
            return found
    return usable[0]


def _staff_only(option: str, persona: Resident, level: AreaKind, hint: str, action: str) -> bool:
    """A public place's kitchen is for its staff, unless the plan names it."""
    sector = split(hint)[0] if hint else ""
    if level is not AreaKind.ARENA or not sector or sector in (persona.home, persona.workplace):
        return False
    return option.lower() == "kitchen" and sector in PUBLIC_PLACES


def _match(options: Sequence[str], pref: str, persona: Resident) -> str:
    """The option a preference names: exact, else one starting with it ('bathroom 1')."""
    if pref == HOME:
        pref = persona.home
    elif pref == WORK:
        pref = persona.workplace or ""
    elif pref == OWN:
        return _own_room(options, persona)
    if not pref:
        return ""
    low = pref.lower()
    for option in options:
        if option.lower() == low:
            return option
    for option in options:
        if option.lower().startswith(low):
            return option
    return ""


def _own_room(options: Sequence[str], persona: Resident) -> str:
    bed = bed_arena(persona)
    for option in options:
        if option == bed or persona.name in option or first_name(persona.name) in option:
            return option
    return ""


def _is_private_other(option: str, persona: Resident) -> bool:
    """Someone else's home or room ('Klaus Mueller's room' for Maria)."""
    if "'s " not in option or option in (persona.home, bed_arena(persona)):
        return False
    return first_name(persona.name) not in option


def _by_hint(persona, action, level, options, current, hint) -> str:
    parts = split(hint)
    index = LEVEL_INDEX.get(level, 0)
    return _match(options, parts[index], persona) if index < len(parts) else ""


def _by_rules(persona, action, level, options, current, hint) -> str:
    rules = {AreaKind.SECTOR: SECTOR_RULES, AreaKind.ARENA: ARENA_RULES}.get(level, OBJECT_RULES)
    for keys, prefs in rules:
        if not has_any(action, keys):
            continue
        fitting = [f for f in (_match(options, p, persona) for p in prefs) if f]
        if fitting:
            return current if current in fitting else fitting[0]  # stay put if it fits
    return ""


def _by_current(persona, action, level, options, current, hint) -> str:
    return current if current in options else ""


def _by_own(persona, action, level, options, current, hint) -> str:
    if level is AreaKind.SECTOR:
        return _match(options, HOME, persona)
    return _own_room(options, persona) if level is AreaKind.ARENA else ""


def _by_main_room(persona, action, level, options, current, hint) -> str:
    """In a public place, the room named like the place ('cafe' in Hobbs Cafe)."""
    sector = split(hint)[0].lower() if hint and level is AreaKind.ARENA else ""
    return next((o for o in options if sector and o.lower() in sector.split()), "")


def _by_default(persona, action, level, options, current, hint) -> str:
    return options[0]
