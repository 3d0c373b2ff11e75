"""Trouble with a thing (a stove burning, a sink leaking, a machine broken): one table.

Why one table: a trouble is one concept that the brains (noticing it, fixing it, talking
about it), the simulation (who senses it, from how far) and the map (how it looks) all
need. Each entry says everything about one trouble, so adding a trouble is one entry here,
plus a painter in game/ui/overlays.py only if it needs a look of its own.

Lookups read `TROUBLES` when they are called (never a copy taken at import), so a test
may add an entry and see every layer pick it up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

LIGHT = "light"  # the look of a thing in use: the map's painter for any state not at rest


@dataclass(frozen=True)
class Trouble:
    """One kind of trouble: the states that show it, what a person does about it and for
    how long, the state the thing is in while (and after) it is fixed, the bubble, how it
    looks on the map, and how far it is sensed."""

    name: str
    words: tuple[str, ...]  # word starts of the states that show it ('burn', 'smok')
    action: str  # the fix; '{obj}' is the object's name
    minutes: int  # how long the fix takes
    fixed: str  # the object's state while someone fixes it
    emoji: str  # the fixer's bubble
    said: str  # what the one who notices calls out; '{obj}' is the object's name
    look: str  # the map painter's name (game/ui/overlays.py)
    reach: int = 0  # rooms away it is sensed at once (0: only in its own room)
    spreads: int = 0  # game minutes until it reaches each room further (0: never)
    importance: int = 8  # how poignant seeing it is (1..10)
    unnamed: str = ""  # the fix said of no thing in particular ('putting the fire out')

    def fix(self, obj: str) -> str:
        """The fixing action for one object: 'turning off the burning stove'; with no
        object ('' : a blackout, 'if something breaks'), the fix of no thing in particular."""
        if not obj:
            return self.unnamed or self.action.format(obj="thing")
        return self.action.format(obj=obj)

    def call(self, obj: str) -> str:
        """What one calls out on noticing it: 'Something's burning! The stove!'."""
        return self.said.format(obj=obj)

    @property
    def verb(self) -> str:
        """The fix's words before the object ('turning off the burning'): what marks an
        action as this fix, whatever the object."""
        return self.action.split("{obj}")[0].strip()

    def reach_after(self, minutes: float) -> int:
        """How many rooms away it is sensed once it has gone on this long: smoke fills a
        house, water spreads."""
        if self.spreads <= 0:
            return self.reach
        return self.reach + int(max(0.0, minutes) // self.spreads)


# Worst first: the first entry whose words match a state is its trouble. Anything not
# listed (idle, in use, cooking ...) is a normal state.
TROUBLES: tuple[Trouble, ...] = (
    Trouble("fire", ("on fire", "in flames", "fire\\b", "ablaze"),
            "putting out the fire at the {obj}", 10, "off", "🧯",
            "Fire! The {obj} is on fire!", "fire", reach=1, spreads=3, importance=9,
            unnamed="putting the fire out"),
    Trouble("burning", ("burning", "burnt", "smok", "scorch"),
            "turning off the burning {obj}", 5, "off", "🧯",
            "Something's burning! The {obj}!", "fire", reach=1, spreads=3, importance=9,
            unnamed="turning off whatever is burning"),
    Trouble("flood", ("flood", "burst", "spray", "gushing", "pouring out"),
            "mopping up the water around the {obj}", 20, "idle", "🔧",
            "There's water everywhere!", "water", reach=1, spreads=5,
            unnamed="turning off the water and mopping up"),
    Trouble("leak", ("leak", "drip"),
            "fixing the leaking {obj}", 15, "idle", "🔧",
            "Is that water dripping? The {obj}!", "water", reach=1, spreads=5,
            unnamed="fixing the leak"),
    Trouble("overflow", ("overflow",),
            "stopping the overflowing {obj}", 10, "idle", "🔧",
            "The {obj} is overflowing!", "water", reach=1, spreads=5,
            unnamed="stopping the overflow and mopping up"),
    Trouble("blackout", ("blackout", "power cut", "power out", "power's out", "power is out",
                         "power went", "power goes", "power's gone", "power has gone",
                         "power failure", "outage", "no power", "no electricity",
                         "lights went out", "lights go out", "lights are out", "fuse blew",
                         "blown fuse", "blew a fuse"),
            "checking the fuse box for the {obj}", 10, "idle", "🔦",
            "The lights just went out!", "broken",
            unnamed="lighting a candle and checking the fuse box"),
    Trouble("broken", ("broken", "broke\\b", "out of order", "not working", "stopped working",
                       "crack", "collaps", "went out", "goes out", "gone out", "failed",
                       "breaks\\b", "breaks down", "broke down", "busted", "snap", "smash",
                       "shatter", "acting up", "acts up", "playing up", "plays up",
                       "gave out", "gives out", "on the fritz", "cuts out", "cut out",
                       "fell apart", "falls apart", "stops working", "stop working", "won't work",
                       "won't start", "doesn't work", "isn't working", "packed up", "packs up"),
            "repairing the broken {obj}", 20, "idle", "🔧",
            "Oh no, the {obj} is broken.", "broken", unnamed="repairing whatever broke"),
    Trouble("jammed", ("jammed", "stuck", "clogged", "blocked"),
            "unjamming the {obj}", 10, "idle", "🔧",
            "The {obj} is stuck.", "broken", unnamed="unjamming it"),
    Trouble("left on", ("left on",),
            "turning off the {obj}", 3, "off", "🔌",
            "Who left the {obj} on?", LIGHT, importance=5,
            unnamed="switching it off"),
    Trouble("dirty", ("dirty", "messy", "spilled", "spilt"),
            "wiping up the mess on the {obj}", 10, "clean", "🧹",
            "What a mess on the {obj}.", LIGHT, importance=4,
            unnamed="wiping up the mess"),
)  # fmt: skip


def trouble(state: str) -> Trouble | None:
    """The trouble a state shows ('burning' -> burning), or None for a normal state."""
    return _looked_up(_first_match, state) if state else None


def fix_of(action: str) -> Trouble | None:
    """The trouble an action is fixing ('turning off the burning stove'), if any."""
    return _looked_up(_first_fix, action) if action else None


def looks() -> frozenset[str]:
    """Every look the table asks the map to paint."""
    return frozenset(t.look for t in TROUBLES)


def _first_match(table: tuple[Trouble, ...], state: str) -> Trouble | None:
    return next((t for t in table if _words(t.words).search(state)), None)


def _first_fix(table: tuple[Trouble, ...], action: str) -> Trouble | None:
    return next((t for t in table if _words((re.escape(t.verb),)).search(action)), None)


MEMO_SIZE = 4096
_UNSET = object()
# The table read, and each answer found in it: rebound whole, so threads never see half.
_memo: tuple[tuple[Trouble, ...], dict[tuple[object, str], object]] = ((), {})


def _looked_up(find, text: str) -> Trouble | None:
    """`find` in the table, remembered by text: every object's state is asked each step.
    A table changed since (a test's added entry) is read afresh."""
    global _memo
    table, memo = _memo
    if table is not TROUBLES or len(memo) > MEMO_SIZE:
        table, memo = _memo = (TROUBLES, {})
    found = memo.get((find, text), _UNSET)
    if found is _UNSET:
        found = memo[(find, text)] = find(table, text)
    return found  # type: ignore[return-value]


@lru_cache(maxsize=256)
def _words(starts: tuple[str, ...]) -> re.Pattern[str]:
    """Any of the word starts, at the start of a word, in any case."""
    return re.compile(r"\b(?:" + "|".join(starts) + ")", re.I)
