"""The snapshot an autosave takes between steps, for its writer's thread to write.

Taken on the frame thread, so it copies only what the game goes on changing (the
residents' containers, the object tables, the log's list of frozen events) and encodes
as little as it can: a resident's state is encoded by the writer (game.sim.autosave).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from game.core.codec import encode
from game.mind.memory import MemoryView
from game.world.scenario import scenario_ref


@dataclass(frozen=True)
class AgentSnap:
    """One resident at the moment of the snapshot (cheap: views, no copies of rows, and
    its state as copied, `Agent.state_copy`, encoded only when the writer reads it)."""

    name: str
    copied: dict[str, Any]
    memory: MemoryView

    @cached_property
    def state(self) -> dict[str, Any]:
        """What `Agent.get_state` gave at the snapshot, encoded on the writer's thread."""
        return {key: encode(value) for key, value in self.copied.items()}


@dataclass(frozen=True)
class Snapshot:
    """Everything a save holds, taken on the simulation's thread; encoded and written on
    the writer's thread. Memory views and the frozen log events are safe to read there:
    rows below a view's length never change (only `accessed`, which the view copies)."""

    header: dict[str, Any]  # format, version, scenario, seed, brain, embedder
    clock: datetime
    steps: int
    objects: dict[str, str]
    object_setters: dict[str, str]
    visitor: Any
    chats: Any
    usage: dict[str, Any]
    agents: tuple[AgentSnap, ...]
    log: tuple[Any, ...]  # the events (frozen) up to now
    notices: dict[str, Any] = field(default_factory=dict)  # posted notices and their readers


def snapshot(sim) -> Snapshot:
    """The state to save, taken between steps (a few ms for 100 residents: what takes
    longer, encoding them, is left to the writer's thread)."""
    from game.sim.saves import FORMAT, VERSION

    sim.settle_memories()  # every memory saved with its vector
    header = {
        "format": FORMAT,
        "version": VERSION,
        "scenario": scenario_ref(sim.scenario.path),
        "scenario_name": sim.scenario.name,
        "seed": sim.config.seed,
        "brain": sim.mind.brain.name,
        "embedder": {"name": sim.mind.embedder.name, "dim": sim.mind.embedder.dim},
    }
    agents = tuple(
        AgentSnap(name, sim.agents[name].state_copy(), sim.agents[name].memory.view())
        for name in sorted(sim.agents)
    )
    return Snapshot(
        header,
        sim.now,
        sim.steps,
        dict(sim.town.states),
        dict(sim.state_by),
        encode(sim.visitor),
        encode(sim.chats),
        sim.usage(),
        agents,
        tuple(sim.log.events),
        sim.player.notice_state(),
    )
