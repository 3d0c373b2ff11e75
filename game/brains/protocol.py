"""The seam between the architecture and whoever answers its questions.

The architecture (game/mind) decides *when* to ask and *what to retrieve*; a Brain only
answers. One method per question the paper asks of its model. Every method must be safe to
call from a worker thread: it reads only its arguments and returns a fresh value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np

from game.core.records import (
    Insight,
    MemoryRecord,
    Observation,
    PlanItem,
    Reaction,
    Utterance,
)
from game.world.roles import Role
from game.world.scenario import Resident
from game.world.town import Area, AreaKind


@dataclass(frozen=True)
class AgentContext:
    """What a brain knows of the agent it answers for, at one moment.

    `memories` are the retrieved memories relevant to the question, best first; the
    architecture chose them, the brain only reads them.
    """

    persona: Resident
    now: datetime
    summary: str  # the cached agent summary description
    location: str  # address: 'Hobbs Cafe:cafe' or '' on the street
    status: str  # current action, e.g. 'making espresso for a customer'
    memories: tuple[MemoryRecord, ...] = ()
    known_places: tuple[str, ...] = ()  # sectors the agent knows (its own subgraph)
    sectors: tuple[Area, ...] = ()  # the town's sectors as the map states them: role, hours
    extras: dict[str, str] = field(default_factory=dict)  # ablation flags and notes


@runtime_checkable
class Brain(Protocol):
    """Answers the architecture's questions. `name` is shown in the HUD and reports."""

    name: str

    def rate_importance(self, persona: Resident, texts: Sequence[str]) -> list[int]:
        """Poignancy 1..10 of each memory text (1 brushing teeth, 10 a breakup)."""
        ...

    def plan_day(self, ctx: AgentContext, yesterday: str, wake: datetime) -> list[PlanItem]:
        """The day in broad strokes (5-8 items) from waking to sleeping."""
        ...

    def decompose(self, ctx: AgentContext, item: PlanItem, grain: int) -> list[PlanItem]:
        """Split an item into sub-items of about `grain` minutes (60, or 5-15)."""
        ...

    def choose_area(
        self,
        ctx: AgentContext,
        action: str,
        level: AreaKind,
        options: Sequence[str],
        current: str,
        hint: str = "",
        roles: Mapping[str, Role | None] | None = None,
    ) -> str:
        """One of `options` (names at one level of the agent's tree) for doing `action`.

        `current` is the agent's area at that level ('' if none); `hint` is the place the
        plan had in mind, if any; `roles` is each option's role from the map (docs/MAP.md).
        The architecture offers only open, not-full places.
        """
        ...

    def object_state(self, persona: Resident, action: str, obj: str, old_state: str) -> str:
        """The state of `obj` while the agent does `action` with it."""
        ...

    def emoji(self, action: str) -> str:
        """One to three emoji for the bubble over the agent's head."""
        ...

    def react(self, ctx: AgentContext, observation: Observation) -> Reaction:
        """Continue the plan, do something else, or talk to the observed agent."""
        ...

    def utter(
        self,
        ctx: AgentContext,
        partner: str,
        history: Sequence[Utterance],
    ) -> Utterance:
        """The speaker's next line to `partner`, given what it recalls and what was said."""
        ...

    def reflect_questions(self, persona: Resident, recent: Sequence[MemoryRecord]) -> list[str]:
        """The 3 most salient high-level questions about the recent memories."""
        ...

    def insights(
        self, persona: Resident, question: str, memories: Sequence[MemoryRecord]
    ) -> list[Insight]:
        """Up to 5 insights answering `question`, each citing the memories it rests on."""
        ...

    def summarize(self, persona: Resident, topic: str, memories: Sequence[MemoryRecord]) -> str:
        """A short paragraph on `topic` ('Klaus Mueller's core characteristics') from memories."""
        ...

    def answer(self, ctx: AgentContext, question: str) -> str:
        """An interview answer in the first person, from ctx.memories."""
        ...


@runtime_checkable
class WholeConversation(Protocol):
    """Optional for a Brain: both sides of a conversation in one answer (the paper suggests
    it; one model call instead of one per line). converse_job uses it when present."""

    def converse(self, ctx_a: AgentContext, ctx_b: AgentContext, max_turns: int) -> list[Utterance]:
        """Lines in order, ctx_a's resident first; the last line ends the conversation."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Text -> unit vector. One embedder per save: vectors of two embedders never mix."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 array (len(texts), dim), rows L2-normalised."""
        ...
