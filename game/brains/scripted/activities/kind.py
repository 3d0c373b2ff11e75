"""The shape of one activity, and the two the classifier gives by no keys of their own.

A step is (text, nominal minutes, spot); a spot (spots.py: a shower in a bathroom, by
role) refines where it happens. `{meal}` and `{what}` in a step are filled from the
item's description. A fix is the troubles table's to recognise; the generic activity
is what no entry matches. Its own module so the topic tables and the classifier share it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..spots import Pref, Spot

Step = tuple[str, int, Spot | None]


@dataclass(frozen=True)
class Activity:
    key: str
    keys: tuple[str, ...]
    first: tuple[Step, ...] = ()
    middle: tuple[Step, ...] = ()
    last: tuple[Step, ...] = ()
    hours: tuple[str, ...] = ()  # (opening, *middles, closing) hour phrases
    at_home: bool | None = None  # True: only at home; False: only away; None: anywhere
    work: bool = False  # a job or class: fixed in the day, little idle chatting
    service: bool = False  # work that is talking to people (cafe, bar, shop counter)
    leisure: bool = False  # free time the planner may vary from day to day
    meal: bool = False
    needs: tuple[Pref, ...] = ()  # what the place must offer, any one (roles or kinds)
    otherwise: str = ""  # the key of the activity it becomes where none is offered
    words: str = ""  # how it is said when it stands in for another activity

    def steps(self) -> tuple[Step, ...]:
        return (*self.first, *self.middle, *self.last)


# Dealing with a trouble: what is a fix is the troubles table's to say (game.world.troubles).
FIXING = Activity("fixing", (), middle=(("{what}", 5, None),))

GENERIC = Activity(
    "generic",
    (),
    middle=(("{what}", 15, None), ("{what}", 10, None), ("taking a short break", 5, None)),
)
