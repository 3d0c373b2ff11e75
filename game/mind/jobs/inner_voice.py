"""The paper's inner voice: the player's words become the resident's own thought."""

from __future__ import annotations

from game.core.records import MemoryKind, MemoryRecord, Source
from game.mind import facts
from game.mind.agent import AgentSnapshot
from game.mind.effects import InnerVoiced
from game.mind.jobs.common import Mind, Note, new_memories
from game.mind.jobs.planning import plan_rest_of_day
from game.world.town import Town


def inner_voice_job(mind: Mind, snap: AgentSnapshot, town: Town, text: str) -> InnerVoiced:
    """The paper's inner voice: the player's words become the resident's own thought, and
    the rest of the day is planned again with that thought in mind."""
    fact = facts.statement(snap.name, text, Source.INNER_VOICE)
    thought = new_memories(mind, snap, [Note(MemoryKind.REFLECTION, fact)])
    record = MemoryRecord(len(snap.memory), MemoryKind.REFLECTION, text, snap.now, 10, fact)
    plan, memories, _ = plan_rest_of_day(mind, snap, town, extra=(record,))
    return InnerVoiced(snap.name, thought + memories, plan=plan)
