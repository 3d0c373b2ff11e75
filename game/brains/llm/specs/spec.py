"""What a spec is: how one question class is put to a model.

Its own module so that every topic's specs, and the call path (client.py), read the one
definition without importing any topic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.brains.llm.specs.quoting import quoting_outsiders
from game.brains.questions import Question
from game.brains.scripted import ScriptedBrain

Args = Question[Any]  # what a spec reads: the typed question itself


@dataclass(frozen=True)
class Spec:
    """How one question class is put to a model."""

    kind: type[Question[Any]]
    name: str
    template: str  # file name in game/brains/prompts
    view: Callable[[Any], dict[str, str]]  # the template's variables
    schema: Callable[[Any], dict[str, Any]]
    parse: Callable[[dict[str, Any], Any], Any]  # raises Invalid
    fallback: Callable[[ScriptedBrain, Any], Any] = lambda s, q: s.ask(q)
    simple: bool = False  # may go to the cheaper model
    max_tokens: int = 300

    def __post_init__(self) -> None:
        object.__setattr__(self, "view", quoting_outsiders(self.view))
