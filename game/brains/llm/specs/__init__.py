"""How the model brain asks each typed question: one spec per question class.

A Spec (`spec`) names its prompt template (a file in game/brains/prompts, our own words),
how to fill it from the question's fields (`view`), the JSON schema of the answer
(`schema`, built per question so that options become an enum), how to read and check the
answer for meaning (`parse`: the area must be one of the offered options, importance
1..10, times inside the day, evidence numbers in range), and what stands in when the
model cannot answer (`fallback`: the scripted brain's answer to the same question). The
one call path (game/brains/llm/client.py) does the rest; nothing here knows about HTTP.

Schemas carry every limit JSON Schema can say (exact array lengths, string lengths,
integer ranges, HH:MM patterns, enums built from the real options), so a server that
turns the schema into a grammar (llama.cpp, vLLM, Ollama) cannot produce a wrong shape.
Every property is required and none is additional. `parse` checks the same limits again
and the meaning besides (placeholders, emoji that hold an emoji, distinct questions);
its error message goes back to the model on a retry.

The parts: `schema` (schema pieces), `views` (prompt text pieces), `quoting` (names from
outside the town as quoted data), `checks` (an answer's fields); the specs by topic:
`memories`, `planning`, `acting`, `dialogue`, `answers`. This package gathers them in
`ALL` and `SPECS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.brains.llm.specs.acting import (
    ACTION_DETAILS,
    CHOOSE_SECTOR,
    CHOOSE_SPOT,
    EMOJI,
    REACT,
    REACT_EACH,
    SPOT_DETAILS,
)
from game.brains.llm.specs.answers import ANSWER, FALLBACK_MARK, JUDGE, RANK
from game.brains.llm.specs.dialogue import CONVERSE, UTTER
from game.brains.llm.specs.memories import (
    IMPORTANCE,
    INSIGHTS,
    INSIGHTS_EACH,
    REFLECT_QUESTIONS,
    SUMMARIZE,
)
from game.brains.llm.specs.planning import DECOMPOSE_HOURS, DECOMPOSE_STEPS, PLAN_DAY, hours_between
from game.brains.llm.specs.spec import Args, Spec
from game.brains.questions import Question

ALL: tuple[Spec, ...] = (
    IMPORTANCE,
    PLAN_DAY,
    DECOMPOSE_HOURS,
    DECOMPOSE_STEPS,
    CHOOSE_SECTOR,
    CHOOSE_SPOT,
    ACTION_DETAILS,
    EMOJI,
    SPOT_DETAILS,
    REACT,
    REACT_EACH,
    UTTER,
    CONVERSE,
    REFLECT_QUESTIONS,
    INSIGHTS,
    INSIGHTS_EACH,
    SUMMARIZE,
    ANSWER,
    JUDGE,
    RANK,
)
SPECS: Mapping[type[Question[Any]], Spec] = {s.kind: s for s in ALL}

__all__ = [
    "ACTION_DETAILS",
    "ALL",
    "ANSWER",
    "Args",
    "CHOOSE_SECTOR",
    "CHOOSE_SPOT",
    "CONVERSE",
    "DECOMPOSE_HOURS",
    "DECOMPOSE_STEPS",
    "EMOJI",
    "FALLBACK_MARK",
    "IMPORTANCE",
    "INSIGHTS",
    "INSIGHTS_EACH",
    "JUDGE",
    "PLAN_DAY",
    "RANK",
    "REACT",
    "REACT_EACH",
    "REFLECT_QUESTIONS",
    "SPECS",
    "SPOT_DETAILS",
    "SUMMARIZE",
    "Spec",
    "UTTER",
    "hours_between",
]
