"""Failed cognition jobs: how many, whose, and which were lost for good."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from game.mind.effects import JobKind

NOTICE_AFTER = 3  # failed jobs of one resident before a person is told


@dataclass
class JobHealth:
    """Failed cognition jobs: how many, whose, and which were lost for good.

    A failed seeding is retried (after a wait that doubles, up to 30 game minutes) and is
    lost only if the run ends before it succeeds; any other failed job lost its decision
    (the agent simply decides again). The run's report and exit code read `lost`."""

    failed_total: int = 0
    lost_total: int = 0
    by_agent: dict[str, int] = field(default_factory=dict)
    unseeded: set[str] = field(default_factory=set)
    notices: list[str] = field(default_factory=list)
    retry_at: dict[str, datetime] = field(default_factory=dict)

    def failed(self, agent: str, label: str, now: datetime, problem: str) -> None:
        self.failed_total += 1
        n = self.by_agent[agent] = self.by_agent.get(agent, 0) + 1
        if label == JobKind.SEED.value:
            self.unseeded.add(agent)
            self.retry_at[agent] = now + timedelta(minutes=min(30, 2 ** min(n - 1, 5)))
        else:
            self.lost_total += 1
        if n == NOTICE_AFTER:
            self.notices.append(
                f"{agent}'s thinking keeps failing ({n} jobs so far; last: {problem}); "
                "see the event log"
            )

    def seeded(self, agent: str) -> None:
        self.unseeded.discard(agent)
        self.retry_at.pop(agent, None)

    def waiting(self, agent: str, now: datetime) -> bool:
        """Whether a failed seeding is still waiting for its retry."""
        at = self.retry_at.get(agent)
        return at is not None and now < at

    @property
    def lost(self) -> int:
        """Jobs whose work is gone: failed ones, and seedings still not done."""
        return self.lost_total + len(self.unseeded)

    def report(self) -> dict[str, Any]:
        return {
            "failed": self.failed_total,
            "lost": self.lost,
            "unseeded": sorted(self.unseeded),
            "failed_by_agent": dict(sorted(self.by_agent.items())),
        }
