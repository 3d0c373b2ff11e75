"""Who answered the last question asked on this thread: the model, or the scripted
fallback after the model failed.

Why a thread-local and not a field of every answer: an answer's type is the question's
(a str for an interview, an Utterance for a line of talk), and the call path that knows
whether the model's answer passed its checks (game/brains/llm/client.py) is far below
whoever shows the answer. A question is asked and answered on one thread, so the call
path notes the outcome here and the brain that asked reads it straight after.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from game.core.records import AnsweredBy

A = TypeVar("A")
_here = threading.local()


def note(by: AnsweredBy) -> None:
    """Said by the call path when an answer is settled (the model's, or the fallback)."""
    _here.by = by


def last() -> AnsweredBy | None:
    """What was noted on this thread since the last `taking` began (None: nothing)."""
    return getattr(_here, "by", None)


def taking(ask: Callable[[], A]) -> tuple[A, AnsweredBy | None]:
    """The answer `ask` returns and who gave it, as noted while it ran on this thread."""
    _here.by = None
    answer = ask()
    return answer, last()


def noted(by: AnsweredBy, answer: A) -> A:
    """`answer`, with who gave it noted (one expression at the call path's returns)."""
    note(by)
    return answer
