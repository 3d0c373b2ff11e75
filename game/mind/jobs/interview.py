"""Interviews, the player's and the evaluation's way in: an answer that leaves no trace."""

from __future__ import annotations

from game.brains.dialogue.acts import Act
from game.brains.dialogue.state import DialogueState
from game.brains.questions import Answer
from game.mind.agent import AgentSnapshot
from game.mind.dialogue import hear, retrieval_query
from game.mind.jobs.at_hand import grounded
from game.mind.jobs.common import Mind, context
from game.mind.jobs.recall import recall
from game.world.town import Town


def interview(
    mind: Mind,
    snap: AgentSnapshot,
    town: Town,
    question: str,
    state: DialogueState | None = None,
) -> str:
    """An answer through retrieval and the brain; changes no memory (the caller may not
    even touch the retrieved ones, so an interview leaves no trace). The question is heard
    as an act first, in the light of the conversation so far (`state`)."""
    return interview_act(mind, snap, town, question, state)[0]


def interview_act(
    mind: Mind,
    snap: AgentSnapshot,
    town: Town,
    question: str,
    state: DialogueState | None = None,
) -> tuple[str, Act | None]:
    """The answer and the act the question was understood as (None without a town)."""
    act = hear(mind.words, question, snap.now, state, "") if mind.words else None
    query = retrieval_query(mind.words, act) if act else question
    records, idx = recall(mind, snap, [query], k=15)
    ctx = context(snap, town, grounded(mind, snap, records, act.person if act else ""))
    return mind.brain.ask(Answer(ctx, question, act, state)), act
