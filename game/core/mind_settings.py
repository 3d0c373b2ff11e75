"""Settings: plain frozen dataclasses with the paper's defaults.

Later layers (config file, environment, flags) build these; nothing reads globals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class RecencyUnit(Enum):
    """How recency decays: per game hour since last access (the paper), or per position in
    the list sorted by last access (the original code)."""

    GAME_HOURS = "game_hours"
    POSITION = "position"


@dataclass(frozen=True)
class RetrievalSettings:
    recency_weight: float = 1.0
    importance_weight: float = 1.0
    relevance_weight: float = 1.0
    decay: float = 0.995
    recency_unit: RecencyUnit = RecencyUnit.GAME_HOURS
    k: int = 30
    skip_idle: bool = False  # the original code leaves memories mentioning "idle" out


# The original research code's weights: recency 0.5, relevance 3, importance 2, 0.99 per position.
ORIGINAL_CODE_RETRIEVAL = RetrievalSettings(
    recency_weight=0.5,
    importance_weight=2.0,
    relevance_weight=3.0,
    decay=0.99,
    recency_unit=RecencyUnit.POSITION,
    skip_idle=True,
)


@dataclass(frozen=True)
class Ablation:
    """The paper's ablation conditions: switch parts of the architecture off."""

    reflection: bool = True
    planning: bool = True
    memory: bool = True


@dataclass(frozen=True)
class MindSettings:
    # The original code's perception: vision 4 tiles, attend to the 3 nearest, and check
    # repeats against the last 5 things noticed.
    vision_radius: int = 4  # tiles
    attention_bandwidth: int = 3  # observations taken in per perception
    retention: int = 5  # recent observations a repeat is checked against
    reflection_threshold: int = 150
    reflection_window: int = 100  # memories the questions are asked about
    questions_per_reflection: int = 3
    insights_per_question: int = 5
    conversation_cooldown_minutes: int = 120  # before the same pair talks again
    max_turns: int = 8
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    ablation: Ablation = field(default_factory=Ablation)
