"""The scripted brain: deterministic rules driven by the personas, no language model.

Every answer depends only on the question and the seed (randomness is a stable hash of
the question), so it is safe on any worker thread and reproducible in any call order.
Each question class has one rule in game/brains/scripted/rules.py.
"""

from __future__ import annotations

from typing import Any, TypeVar

from game.brains.questions import Question

from .rules import RULES

A = TypeVar("A")


class ScriptedBrain:
    """Answers every question but Converse (it talks turn by turn) from rules and tables."""

    name = "scripted"
    local = True  # rules and tables, no waits: jobs may run on the stepping thread

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def ask(self, question: Question[A]) -> A:
        rule = RULES.get(type(question))
        if rule is None:
            raise TypeError(f"the scripted brain has no rule for {type(question).__name__}")
        return rule(question, self.seed)

    def knows(self, kind: type[Question[Any]]) -> bool:
        return kind in RULES
