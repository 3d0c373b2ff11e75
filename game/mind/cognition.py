"""The jobs the simulation runs, gathered in one import (they live in game/mind/jobs).

Why this module stays: the simulation, the player, the evaluation and the tests ask for
the mind's cognition by one name, while each job keeps its own module.
"""

from __future__ import annotations

from game.mind.jobs.common import Mind, Note, Surroundings, base_summary, context
from game.mind.jobs.converse import converse_job
from game.mind.jobs.inner_voice import inner_voice_job
from game.mind.jobs.interview import interview, interview_act
from game.mind.jobs.next_action import next_action_job
from game.mind.jobs.perceive import perceive_job
from game.mind.jobs.prepare import decide_job, prepare_next_job, prepare_wake_job
from game.mind.jobs.recall import foresee, recall, standing_queries, warm
from game.mind.jobs.reflect import reflect_job
from game.mind.jobs.seed import seed_job
from game.mind.jobs.visitor_chat import visitor_chat_job
from game.mind.jobs.wake import wake_job

__all__ = [
    "Mind",
    "Note",
    "Surroundings",
    "base_summary",
    "context",
    "converse_job",
    "decide_job",
    "foresee",
    "inner_voice_job",
    "interview",
    "interview_act",
    "next_action_job",
    "perceive_job",
    "prepare_next_job",
    "prepare_wake_job",
    "recall",
    "reflect_job",
    "seed_job",
    "standing_queries",
    "visitor_chat_job",
    "wake_job",
    "warm",
]
