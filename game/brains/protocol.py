"""The seam between the architecture and whoever answers its questions.

The architecture (game/mind) decides *when* to ask and *what to retrieve*; a Brain only
answers. Each question is a typed value (game/brains/questions.py) and `ask` returns the
question's typed answer. Every brain must be safe to call from worker threads: an answer
depends only on the question (and on caches keyed by it), never on what another thread
asked before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from game.brains.questions import Question

A = TypeVar("A")


@runtime_checkable
class Brain(Protocol):
    """Answers the architecture's questions. `name` is shown in the HUD and reports."""

    name: str

    def ask(self, question: Question[A]) -> A:
        """The answer to `question`, of its declared answer type."""
        ...

    def knows(self, kind: type[Question[Any]]) -> bool:
        """Whether this brain answers questions of this class (Converse is optional)."""
        ...


def answers_locally(brain: object) -> bool:
    """Whether a brain answers by computing here, never waiting for anyone (a class
    attribute `local = True`, optional: a brain without one may wait; a wrapper that
    forwards its attributes to a local brain is not one). Its questions gain nothing from
    being asked on threads at once: with the GIL they only take turns."""
    return getattr(type(brain), "local", False) is True


@runtime_checkable
class Embedder(Protocol):
    """Text -> unit vector. One embedder per save: vectors of two embedders never mix."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 array (len(texts), dim), rows L2-normalised."""
        ...

    def peek(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The vectors of those texts this embedder has without a request (all of them
        for a local embedder, the cached ones for a remote one). Why: a memory is
        embedded when a retrieval needs it, and whatever is known already is filled in
        at once at no cost."""
        ...

    def later(self, texts: Sequence[str]) -> None:
        """Fetch these soon, with the next request anyone makes or on their own, before
        a job needs them (a remote embedder; a local one has them at once anyway)."""
        ...
