"""Who is alone: nobody a resident's next steps could touch, read from the town.

Awake and not in a conversation (with a resident or the visitor), with no other awake
resident, and not the visitor, within sight. Why: it is the first half of issue 25's
"cannot affect each other" for out-of-order stepping, and the lockstep clock's wait meter
(game.sim.scheduler.WaitMeter) marks each job it stood for with it, so
`benchmarks/llm_economy.py --waits` says how much of the wall time a resident alone held
the whole town for: what stepping such residents apart from the town could win.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from game.mind.agent import ActionKind, Agent
from game.sim.nearby import Grid
from game.sim.player import Player


@dataclass(frozen=True)
class Solitude:
    """`alone(names)`: whether every one of these residents is alone now."""

    agents: Mapping[str, Agent]
    grid: Grid
    player: Player
    radius: int

    def __call__(self, names: tuple[str, ...]) -> bool:
        return all(self._alone(name) for name in names)

    def _alone(self, name: str) -> bool:
        agent = self.agents.get(name)
        if agent is None or agent.asleep or not agent.seeded or agent.conversation is not None:
            return False
        if agent.action is not None and agent.action.kind is ActionKind.CHAT:
            return False
        if self.player.chatting(name) or self._visitor_in_sight(agent):
            return False
        return not any(
            other.name != name and not other.asleep
            for other in self.grid.fresh_near(agent.pos, self.radius)
        )

    def _visitor_in_sight(self, agent: Agent) -> bool:
        v = self.player.visitor
        if v is None:
            return False
        return max(abs(v.pos[0] - agent.pos[0]), abs(v.pos[1] - agent.pos[1])) <= self.radius
