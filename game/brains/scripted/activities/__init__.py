"""What kind of activity a plan item is, and how such an activity breaks into actions.

One table, read top to bottom (`table`): the first activity whose keys match the
description wins, so specific activities (a party, breakfast) come before broad ones (work
at the cafe). Each activity (`kind`) carries its own decomposition: `hours` are hour-level
phrases (opening, middles..., closing) and `first`/`middle`/`last` are 5-15 minute
actions. A step is (text, nominal minutes, spot); a spot (spots.py: a shower in a
bathroom, by role) refines where it happens. `{meal}`, `{what}` and `{event}` in a step are
filled from the item's description. The entries are kept by topic: `home`, `work`, `social` and
`pursuits`.

What a place must offer is data too: `needs` lists the rooms or things an activity needs
(any one: lectures a classroom, television a television set), and where the place offers
none the activity becomes its `otherwise` ('preparing tomorrow's lecture notes' at a desk
at home, 'relaxing' without a television). A step's spot is what the step needs in a room
the place has (spots.affords), so no step is placed at a thing that cannot host it.
"""

from __future__ import annotations

from .kind import FIXING, GENERIC, Activity, Step
from .table import ACTIVITIES, BY_KEY, classify, event_of, fits, fitting, steps_named, usable

__all__ = [
    "ACTIVITIES",
    "BY_KEY",
    "FIXING",
    "GENERIC",
    "Activity",
    "Step",
    "classify",
    "event_of",
    "fits",
    "fitting",
    "steps_named",
    "usable",
]
