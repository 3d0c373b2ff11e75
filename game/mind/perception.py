"""Perception: what an agent sees within its vision radius, filtered to what is new.

The simulation gathers what is visible (it owns positions); this module decides what an
agent attends to (the nearest, up to its attention bandwidth) and what counts as new
(a subject not seen lately, or seen in another state), so an agent sitting beside a
studying friend for an hour stores that once, not 360 times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from game.core.mind_settings import MindSettings
from game.core.records import Observation
from game.mind.agent import Agent

FORGET_AFTER = timedelta(hours=3)  # a subject unseen this long is noticed afresh


@dataclass(frozen=True)
class Sighting:
    observation: Observation
    distance: int


def attend(
    agent: Agent, now: datetime, visible: Sequence[Sighting], settings: MindSettings
) -> list[Observation]:
    """Update what the agent has seen and return the observations worth remembering."""
    nearest = sorted(visible, key=lambda s: (s.distance, s.observation.subject))
    new: list[Observation] = []
    for sighting in nearest[: settings.attention_bandwidth]:
        obs = sighting.observation
        last = agent.seen.get(obs.subject)
        agent.seen[obs.subject] = (obs.status, now)
        if last is not None and last[0] == obs.status and now - last[1] < FORGET_AFTER:
            continue
        if (obs.subject, obs.status) in agent.recent:
            continue
        agent.recent.append((obs.subject, obs.status))
        new.append(obs)
    return new
