"""SEED: the persona's seed paragraph becomes its first memories."""

from __future__ import annotations

from dataclasses import replace

from game.core.records import MemoryKind
from game.mind import facts
from game.mind.agent import AgentSnapshot
from game.mind.effects import Seeded
from game.mind.jobs.common import Mind, Note, new_memories


def seed_job(mind: Mind, snap: AgentSnapshot) -> Seeded:
    p = snap.persona
    sentences = p.seed_memories() if mind.settings.ablation.memory else []
    notes = [Note(MemoryKind.OBSERVATION, facts.seed(p, s, mind.intents)) for s in sentences]
    if mind.settings.ablation.memory:  # what one knows of acquaintances: known, not news
        notes += [Note(MemoryKind.OBSERVATION, replace(facts.seed(p, s, ()), private=True))
                  for s in (k.said for k in p.acquainted)]  # fmt: skip
    return Seeded(snap.name, new_memories(mind, snap, notes))
