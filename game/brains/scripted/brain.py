"""The scripted brain: deterministic rules driven by the personas, no language model.

Every answer depends only on the arguments and the seed (randomness is a stable hash of
the question), so it is safe on any worker thread and reproducible in any call order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from game.brains.protocol import AgentContext
from game.core.records import Insight, MemoryRecord, Observation, PlanItem, Reaction, Utterance
from game.world.roles import Role
from game.world.scenario import Resident
from game.world.town import AreaKind

from . import decompose as _decompose
from . import interview, lexicon, places, plans, reflect, talk


class ScriptedBrain:
    """Answers every question of the Brain protocol from rules and tables."""

    name = "scripted"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def rate_importance(self, persona: Resident, texts: Sequence[str]) -> list[int]:
        return [lexicon.importance(persona, t) for t in texts]

    def plan_day(self, ctx: AgentContext, yesterday: str, wake: datetime) -> list[PlanItem]:
        return plans.plan_day(ctx, yesterday, wake, self.seed)

    def decompose(self, ctx: AgentContext, item: PlanItem, grain: int) -> list[PlanItem]:
        return _decompose.decompose(ctx.persona, item, grain, self.seed, places.Directory.of(ctx))

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
        directory = places.Directory.of(ctx)
        return places.choose(ctx.persona, action, level, options, current, hint, roles, directory)

    def object_state(self, persona: Resident, action: str, obj: str, old_state: str) -> str:
        return lexicon.object_state(action, obj, old_state)

    def emoji(self, action: str) -> str:
        return lexicon.emoji(action)

    def react(self, ctx: AgentContext, observation: Observation) -> Reaction:
        return talk.react(ctx, observation, self.seed)

    def utter(self, ctx: AgentContext, partner: str, history: Sequence[Utterance]) -> Utterance:
        return talk.utter(ctx, partner, history, self.seed)

    def reflect_questions(self, persona: Resident, recent: Sequence[MemoryRecord]) -> list[str]:
        return reflect.reflect_questions(persona, recent)

    def insights(
        self, persona: Resident, question: str, memories: Sequence[MemoryRecord]
    ) -> list[Insight]:
        return reflect.insights(persona, question, memories)

    def summarize(self, persona: Resident, topic: str, memories: Sequence[MemoryRecord]) -> str:
        return reflect.summarize(persona, topic, memories)

    def answer(self, ctx: AgentContext, question: str) -> str:
        return interview.answer(ctx, question, self.seed)
