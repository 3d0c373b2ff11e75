"""Answers planned from a typed act and the retrieved memories, in the first person.

The question was understood before it got here (`game/brains/dialogue`): its label says
what is asked, its slots whom, where and when. One planner per label turns the facts,
plan items and persona that retrieval returned into a line; a planner with nothing to say
returns '' and the answer tries the line's second reading (the runner-up aspect of the
exemplar vote), then the retrieved facts that share the question's words,
and only then to an honest, in-character "I don't know" (said once a conversation: a
second time the resident asks back instead).

Tense follows the fact's time against now: an event that has ended is spoken of in the
past, and a question about yesterday is answered from yesterday.

Modules: `reply` (the answer: planner, second reading, retrieval, "I don't know"),
`planners` (the planners by label and by aspect, and small talk), `polar` (yes or no),
`recall` (what retrieval found, and news), `events`, `people`, `town` (places),
`objects` (things and their troubles), `persona` (identity, work, interests, home,
neighbours, family), `day` (the past, plans, meals, routine, what one is doing),
`phrasing` (days, clock times and word sets they share) and `others` (someone else's
work, doings, plans and going, and who in town does something). Each module imports only
those before it in: phrasing, events, people, town, objects, persona, recall, polar, day,
others, planners, reply.
"""

from game.brains.dialogue.acts import Aspect, Wh

from .. import selfknow
from .events import _ended_opinion, _going_line, event_facts, event_line, going
from .phrasing import Planner
from .planners import ASPECTS, PLANNERS
from .polar import POLAR_ASPECTS, POLARITY, polarity, with_polarity
from .recall import _fact_line, from_retrieval
from .reply import DONT_KNOW, LABELS, Reply, answer, as_said, said_dont_know

__all__ = [  # the answer and its tables; Aspect, Wh, selfknow and the private three for tests
    "ASPECTS",
    "DONT_KNOW",
    "LABELS",
    "PLANNERS",
    "POLARITY",
    "POLAR_ASPECTS",
    "Aspect",
    "Planner",
    "Reply",
    "Wh",
    "_ended_opinion",
    "_fact_line",
    "_going_line",
    "answer",
    "as_said",
    "event_facts",
    "event_line",
    "from_retrieval",
    "going",
    "polarity",
    "said_dont_know",
    "selfknow",
    "with_polarity",
]
