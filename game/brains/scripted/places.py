"""Where things happen: the town's public places and hours, refining a plan's place for
one action, and choosing among the areas the architecture offers.

Places are matched by role (docs/MAP.md), never by this map's names: a rule says 'cook at
a stove in a kitchen' and any map whose kitchen has the role works. The rules only prefer;
when a place lacks a role, the choice falls through to the next rule, so a map without
roles degrades gracefully. Opening hours are the map's, read from the sectors in the
context.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from game.brains.questions import AgentContext
from game.world.roles import Role
from game.world.scenario import Resident
from game.world.town import Area, AreaKind, split

from .spots import HOME, OWN, STANDS_IN, WORK, Offers, Pref, Spot, parse_token
from .util import first_name, has_any

Roles = Mapping[str, Role | None]
PRIVATE = (Role.HOME, None)  # sector roles that are nobody's public place


@dataclass(frozen=True)
class Directory:
    """The town's sectors by name, as the map states them: what each is for, its hours."""

    sectors: Mapping[str, Area] = field(default_factory=dict)
    # what each sector has (its rooms' and things' roles and names), where known: the
    # context does not say yet, so planning rules nothing out until it does
    offers: Mapping[str, Offers] = field(default_factory=dict)

    @classmethod
    def of(cls, ctx: AgentContext) -> Directory:
        return cls({a.name: a for a in ctx.sectors})

    def offers_at(self, sector: str) -> Offers | None:
        """What a sector has, or None when not known (nothing is ruled out)."""
        return self.offers.get(sector)

    def role(self, sector: str) -> Role | None:
        area = self.sectors.get(sector)
        return area.role if area is not None else None

    def is_open(self, sector: str, start: int, end: int) -> bool:
        """Whether the place is open for the whole visit (minutes after midnight); places
        without hours (and unknown ones) always are."""
        area = self.sectors.get(sector)
        if area is None or area.opens is None or area.closes is None:
            return True
        return area.opens <= start and end <= area.closes

    def public(self) -> tuple[str, ...]:
        """Every public place of the town (a cafe, a park ...), in map order."""
        return tuple(name for name, area in self.sectors.items() if area.role not in PRIVATE)

    def find(self, role: Role, known: Collection[str]) -> str:
        """The first place with this role that the persona knows, or ''."""
        return next((n for n, a in self.sectors.items() if a.role is role and n in known), "")


def public_places(ctx: AgentContext) -> tuple[str, ...]:
    """The town's public places: where an event someone mentions may be."""
    return Directory.of(ctx).public()


# (action keys, preferred sectors) when no hint names a sector.
SECTOR_RULES: tuple[tuple[tuple[str, ...], tuple[Pref, ...]], ...] = (
    (("sleep", "nap\\b", "bed\\b", "shower", "brush", "teeth", "getting dressed",
      "morning routine", "getting ready", "waking up", "breakfast"), (HOME,)),
    (("espresso", "coffee", "cafe", "latte"), (Role.CAFE,)),
    (("beer", "pub\\b", "pint", "bar\\b", "drink"), (Role.BAR,)),
    (("grocer", "medicine", "pharmacy", "prescription"), (Role.MARKET,)),
    (("tools?\\b", "supplies", "canvas", "hardware", "paints and", "hammer", "nails",
      "screws?\\b", "drill"), (Role.SUPPLY,)),
    (("walk", "run\\b", "jog", "park\\b", "picnic", "outdoors", "training"), (Role.PARK,)),
    (("class", "lectur", "library", "seminar", "teach"), (Role.COLLEGE,)),
    (("work", "shift", "serving", "customers"), (WORK,)),
    (("cook", "dinner", "television", "tv\\b", "relax", "sofa", "housemates", "home"), (HOME,)),
)  # fmt: skip
# (action keys, preferred arenas).
ARENA_RULES: tuple[tuple[tuple[str, ...], tuple[Pref, ...]], ...] = (
    (("sleep", "nap\\b", "bed\\b", "getting dressed", "changing", "closet", "waking up"), (OWN,)),
    (("shower", "bath", "brush", "teeth", "wash(?:ing)? up", "toilet"), (Role.BATHROOM,)),
    (("cook", "breakfast", "fridge", "ingredients", "stove", "bak", "dishes", "chopping",
      "heating", "plating", "kitchen", "cup of tea"), (Role.KITCHEN, Role.LIVING_ROOM)),
    (("eat", "lunch", "dinner", "meal", "snack", "table"),
     (Role.LIVING_ROOM, Role.CAFE, Role.BAR, Role.KITCHEN)),
    (("television", "tv\\b", "sofa", "relax", "housemates", "dorm mates", "chat", "hanging out",
      "watching"), (Role.LIVING_ROOM,)),
    (("paint", "easel", "watercolo", "canvas"), (Role.STUDIO, OWN)),
    (("class", "lectur", "teach", "blackboard"), (Role.CLASSROOM,)),
    (("library", "research", "thesis", "books?\\b"), (Role.LIBRARY, OWN, Role.STUDY)),
    (("stud", "writ", "read", "homework", "desk", "cod", "stream", "compos", "practis",
      "scales", "keyboard", "animat", "draw", "photo", "tax", "client", "accounts", "rehears",
      "lectures", "proof", "notes"), (OWN, Role.STUDY, Role.LIBRARY)),
    (("garden", "plants", "weed", "vegetable"), (Role.GARDEN,)),
    (("coffee", "espresso", "serv", "customer", "pastr", "counter", "muffin"),
     (Role.CAFE, Role.STORE)),
    (("bar\\b", "beer", "pint", "drink", "pool", "jukebox", "regulars"), (Role.BAR,)),
    (("grocer", "medicine", "pharmacy", "shelves", "store", "shop"), (Role.STORE,)),
    (("walk", "run", "bench", "pond", "fountain", "bird", "jog"), (Role.PARK,)),
    (("notice", "vending"), (Role.HALLWAY,)),
)  # fmt: skip
# (action keys, preferred objects): roles, or the names of kinds of things ('easel').
OBJECT_RULES: tuple[tuple[tuple[str, ...], tuple[Pref, ...]], ...] = (
    (("sleep", "nap\\b", "bed\\b", "pyjamas", "alarm", "waking up"), (Role.BED,)),
    (("shower",), (Role.SHOWER,)),
    (("brush", "teeth", "wash(?:ing)? up", "wash hands"), (Role.SINK,)),
    (("toilet",), (Role.TOILET,)),
    (("dishes", "washing up"), (Role.SINK, Role.KITCHEN_COUNTER)),
    (("espresso", "coffee", "latte", "brew"), (Role.COFFEE_MACHINE,)),
    (("fridge", "ingredients", "refrigerator"), (Role.REFRIGERATOR, Role.KITCHEN_COUNTER)),
    (("cook", "fry", "stove", "bak", "heating", "stir", "chopping", "plating", "tasting",
      "making breakfast", "cup of tea", "muffin"), (Role.STOVE, Role.KITCHEN_COUNTER)),
    (("eat", "lunch", "dinner", "breakfast", "meal", "snack", "sip", "setting the table",
      "clearing the table"),
     (Role.TABLE, Role.SEAT, Role.KITCHEN_COUNTER, Role.BENCH, Role.SOFA, Role.DESK)),
    (("pour", "pints?\\b", "cocktail", "glasses", "bar\\b", "tab\\b", "last orders"),
     (Role.COUNTER,)),
    (("prescription", "pharmacy", "medicine"), ("pharmacy counter", "medicine shelves")),
    (("order", "serv", "customer", "pastr", "counter", "till", "sale", "takings", "paying"),
     (Role.COUNTER,)),
    (("pool",), ("pool table",)),
    (("jukebox", "song"), ("jukebox",)),
    (("grocer", "shelves", "restock", "stock", "displays", "deliveries"),
     (Role.SHELVES, "refrigerated display")),
    (("tools?\\b",), ("tool rack",)),
    (("paint", "watercolo", "easel", "canvas", "sketch", "brushes", "colours"),
     ("easel", "paint table", Role.SEAT, Role.BENCH, Role.TABLE)),
    (("animat", "draw", "tablet", "character"), ("drawing tablet desk", Role.DESK)),
    (("photo", "editing"), ("photo editing desk", "computer desk", Role.DESK)),
    (("stream", "viewers", "game live"), ("streaming setup",)),
    (("piano", "keyboard", "compos", "music", "scales", "melod", "harmony", "score"),
     ("music keyboard", "piano")),
    (("rehears", "monologue", "mirror", "lines"), ("mirror",)),
    (("lectur", "teach", "explain", "lectern"), ("lectern", "blackboard")),
    (("blackboard",), ("blackboard",)),
    (("class", "listening"), ("lecture desks",)),
    (("tax", "client", "filing", "paperwork", "letter"), ("filing cabinet", Role.DESK)),
    (("writ", "novel", "poem", "outlin", "paragraph", "cod", "bug", "app\\b", "tests?\\b",
      "stud", "research", "homework", "notes", "thesis", "problem", "accounts", "emails",
      "grading"),
     ("writing desk", Role.DESK, Role.TABLE, "lecture desks", Role.SEAT)),
    (("read", "books?\\b", "chapter", "magazine"),
     (Role.BOOKSHELF, Role.SOFA, Role.DESK, Role.BENCH, Role.SEAT, Role.TABLE)),
    (("television", "tv\\b", "news", "show", "channels"), (Role.TELEVISION, Role.SOFA)),
    (("relax", "sofa", "sit", "rest", "chat", "talk", "laugh", "listening to", "friend"),
     (Role.SOFA, Role.SEAT, Role.BENCH)),
    (("garden", "plants", "weed", "water", "seeds", "pruning", "vegetables"), (Role.GARDEN,)),
    (("pond", "bird"), ("pond", Role.GARDEN)),
    (("fountain",), ("fountain",)),
    (("bench",), (Role.BENCH,)),
    (("walk", "stroll", "run", "jog", "sprint", "lap", "stretch", "training", "cooling"),
     (Role.GARDEN, "fountain", "pond", Role.BENCH)),
    (("dress", "closet", "clothes"), (Role.CLOSET,)),
    (("vending",), ("vending machine",)),
    (("notice",), ("notice board",)),
)  # fmt: skip

HOME_ARENAS = (OWN, Role.BATHROOM, Role.KITCHEN, Role.LIVING_ROOM, Role.GARDEN)
# A public spot applies only in sectors of these roles ('the kitchen' only in a cafe).
SPOT_SECTORS: dict[Role, tuple[Role, ...]] = {
    Role.CAFE: (Role.CAFE,),
    Role.KITCHEN: (Role.CAFE,),
    Role.BAR: (Role.BAR,),
    Role.STORE: (Role.MARKET, Role.SUPPLY),
    Role.LIBRARY: (Role.COLLEGE,),
    Role.CLASSROOM: (Role.COLLEGE,),
    Role.HALLWAY: (Role.COLLEGE,),
    Role.PARK: (Role.PARK,),
}
# The room a public place is named for: where a visitor goes when nothing else says.
MAIN_ROOM: dict[Role, Role] = {
    Role.CAFE: Role.CAFE,
    Role.BAR: Role.BAR,
    Role.PARK: Role.PARK,
    Role.MARKET: Role.STORE,
    Role.SUPPLY: Role.STORE,
}


def bed_arena(persona: Resident) -> str:
    parts = split(persona.bed)
    return parts[1] if len(parts) > 1 else ""


# -- refining a plan's place for one step ---------------------------------------------------
def refine(place: str, spot: Spot | None, persona: Resident, directory: Directory) -> str:
    """The parent's place made more precise by a step's spot, when the spot fits there: in
    one's home, or in a public place of the kind the spot belongs to."""
    if not place or spot is None:
        return place
    parts = split(place)
    sector = parts[0]
    if sector == persona.home:
        refined = _refine_home(sector, spot, persona)
        seated = len(parts) >= 3 and spot.thing is None
        return place if not refined or seated else refined  # a step's thing, else the seat
    fits = isinstance(spot.arena, Role) and directory.role(sector) in SPOT_SECTORS.get(
        spot.arena, ()
    )
    return ":".join([sector, *spot.parts("")]) if fits else place


def _refine_home(sector: str, spot: Spot, persona: Resident) -> str:
    if spot.arena not in HOME_ARENAS:
        return ""
    own = bed_arena(persona)
    if spot.arena == OWN and not own:
        return ""
    return ":".join([sector, *spot.parts(own)])


# -- choosing an area ------------------------------------------------------------------------
LEVEL_INDEX = {AreaKind.SECTOR: 0, AreaKind.ARENA: 1, AreaKind.OBJECT: 2}


@dataclass(frozen=True)
class AreaQuestion:
    """One choose_area question, as the finders below read it."""

    persona: Resident
    action: str
    level: AreaKind
    current: str
    hint: str
    roles: Roles
    directory: Directory

    def match(self, options: Sequence[str], pref: Pref) -> str:
        return _match(options, pref, self.persona, self.roles)

    @property
    def hint_sector(self) -> str:
        return split(self.hint)[0] if self.hint else ""


def choose(
    persona: Resident,
    action: str,
    level: AreaKind,
    options: Sequence[str],
    current: str,
    hint: str,
    roles: Roles | None = None,
    directory: Directory | None = None,
) -> str:
    """Hint, then keyword tables, then staying put, then one's own room, then the first."""
    if not options:
        return ""
    q = AreaQuestion(persona, action, level, current, hint, roles or {}, directory or Directory())
    own = [o for o in options if not _is_private_other(o, persona)] or list(options)
    usable = [o for o in own if not _staff_only(o, q)] or own
    for finder in (_by_hint, _by_rules, _by_current, _by_own, _by_main_room):
        found = finder(q, usable)
        if found:
            return found
    return usable[0]


def serves(
    persona: Resident, action: str, sector: str, roles: Roles, directory: Directory
) -> bool | None:
    """Whether a sector is a place for `action` ('a drink', 'lunch') by the same keyword
    tables the planner uses to choose one (None: the tables say nothing of the action)."""
    q = AreaQuestion(persona, action, AreaKind.SECTOR, "", "", roles, directory)
    for keys, prefs in SECTOR_RULES:
        if has_any(action, keys):
            return any(q.match([sector], p) for p in prefs)
    role = roles.get(sector)
    for keys, prefs in ARENA_RULES:  # 'lunch' is had in a room: a cafe's, a pub's
        if has_any(action, keys):
            return role is not None and role in prefs
    return None


def _staff_only(option: str, q: AreaQuestion) -> bool:
    """A public place's kitchen is for its staff."""
    sector = q.hint_sector
    if q.level is not AreaKind.ARENA or not sector:
        return False
    if sector in (q.persona.home, q.persona.workplace):
        return False
    public = q.directory.role(sector) not in PRIVATE
    return public and q.roles.get(option) is Role.KITCHEN


def _match(options: Sequence[str], pref: Pref, persona: Resident, roles: Roles) -> str:
    """The option a preference names: by role (or a role standing in for it), else by name,
    exact or as the start of the option's name ('bathroom 1')."""
    if isinstance(pref, Role):
        return _by_role(options, pref, roles)
    if pref == HOME:
        pref = persona.home
    elif pref == WORK:
        pref = persona.workplace or ""
    elif pref == OWN:
        return _own_room(options, persona)
    return _by_name(options, pref)


def _by_role(options: Sequence[str], role: Role, roles: Roles) -> str:
    for wanted in (role, *STANDS_IN.get(role, ())):
        found = next((o for o in options if roles.get(o) is wanted), "")
        if found:
            return found
    return ""


def _by_name(options: Sequence[str], name: str) -> str:
    if not name:
        return ""
    low = name.lower()
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


def _by_hint(q: AreaQuestion, options: Sequence[str]) -> str:
    parts = split(q.hint)
    index = LEVEL_INDEX.get(q.level, 0)
    return q.match(options, parse_token(parts[index])) if index < len(parts) else ""


def _by_rules(q: AreaQuestion, options: Sequence[str]) -> str:
    rules = {AreaKind.SECTOR: SECTOR_RULES, AreaKind.ARENA: ARENA_RULES}.get(q.level, OBJECT_RULES)
    for keys, prefs in rules:
        if not has_any(q.action, keys):
            continue
        fitting = [f for f in (q.match(options, p) for p in prefs) if f]
        if fitting:
            return q.current if q.current in fitting else fitting[0]  # stay put if it fits
    return ""


def _by_current(q: AreaQuestion, options: Sequence[str]) -> str:
    return q.current if q.current in options else ""


def _by_own(q: AreaQuestion, options: Sequence[str]) -> str:
    if q.level is AreaKind.SECTOR:
        return q.match(options, HOME)
    return _own_room(options, q.persona) if q.level is AreaKind.ARENA else ""


def _by_main_room(q: AreaQuestion, options: Sequence[str]) -> str:
    """In a public place, the room it is named for (the cafe of a cafe, a shop's floor)."""
    if q.level is not AreaKind.ARENA:
        return ""
    role = q.directory.role(q.hint_sector)
    main = MAIN_ROOM.get(role) if role is not None else None
    return _by_role(options, main, q.roles) if main is not None else ""
