"""The run report: what a headless run did, as JSON (schema in the README)."""

from __future__ import annotations

from typing import Any

from game.core.records import MemoryKind
from game.sim.events import EventKind
from game.sim.simulation import Simulation


def agent_report(sim: Simulation, name: str) -> dict[str, Any]:
    agent = sim.agents[name]
    counts = agent.memory.counts()
    return {
        "name": name,
        "location": agent.location,
        "action": agent.status,
        "emoji": agent.emoji,
        "visited": list(agent.visited),
        "memories": {k.value: int(counts.get(k.value, 0)) for k in MemoryKind},
        "conversations": agent.conversations,
        "reflections": agent.reflections,
    }


def build_report(sim: Simulation, start, wall_seconds: float, brain_name: str) -> dict[str, Any]:
    conversations = [
        {
            "start": e.time.isoformat(),
            "participants": e.data["participants"],
            "turns": len(e.data["lines"]),
        }
        for e in sim.log.of(EventKind.CONVERSATION)
    ]
    return {
        "scenario": sim.scenario.name,
        "seed": sim.config.seed,
        "brain": brain_name,
        "start": start.isoformat(),
        "end": sim.now.isoformat(),
        "steps": sim.steps,
        "wall_seconds": round(wall_seconds, 3),
        "agents": [agent_report(sim, name) for name in sorted(sim.agents)],
        "conversations": conversations,
        "model": sim.usage(),
        "knowledge": knowledge(sim),
    }


def knowers(sim: Simulation, intent_id: str, at_start: bool = False) -> list[str]:
    """Residents whose memories mention a seeded intent (its keywords).

    At the start that is whoever's seed paragraph mentions it; later, anyone who stored
    an observation, a conversation or a reflection about it.
    """
    intent = sim.scenario.intent(intent_id)
    out = []
    for name, agent in sorted(sim.agents.items()):
        if at_start:
            texts = agent.persona.seed_memories()
        else:
            texts = [agent.memory.text(i) for i in range(len(agent.memory))]
        if any(intent.mentioned_in(t) for t in texts):
            out.append(name)
    return out


def knowledge(sim: Simulation) -> dict[str, dict[str, Any]]:
    return {
        i.id: {
            "start": len(knowers(sim, i.id, at_start=True)),
            "end": len(knowers(sim, i.id)),
            "who": knowers(sim, i.id),
        }
        for i in sim.scenario.intents
        if not i.private
    }
