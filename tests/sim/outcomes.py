"""What two runs of one seed must share, whatever the threads did: every memory."""

from __future__ import annotations


def memories_of(sim) -> dict:
    """Each resident's memories as plain tuples (kind, text, created, importance), by name."""
    return {
        name: [
            (r.kind.value, r.text, r.created.isoformat(), r.importance)
            for r in (agent.memory.record(i) for i in range(len(agent.memory)))
        ]
        for name, agent in sorted(sim.agents.items())
    }
