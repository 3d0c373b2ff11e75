"""The talk brain: conversation questions to one brain, every other question to another.

Talk is where the scripted brain is weakest and a model is worth most, while a model
driving a whole town's plans is slow on a laptop. So `TalkBrain` wraps two brains behind
the one `Brain` protocol: the *town's* brain (plans, places, reactions, reflections,
importance, the summary: the scripted brain in the usual case) and the *talk* brain (the
language model), which answers only

- interviews (`Answer`): the player's, `interview`'s and the evaluation's;
- the visitor's chat (`Utter` to someone who is not a resident);
- and, when `own_talk` is set, the residents' conversations with each other (`Converse`,
  or `Utter` between residents).

It is one mechanism: a route per question class, not a copy of either brain. Every
conversation answer comes back marked with who gave it (`AnsweredBy`: the model, the
scripted fallback when the model failed, or the scripted brain), read from what the call
path noted on this thread (game.brains.answered), and counted for the run report.

The town's brain keeps its embedder, so a scripted save stays a scripted save: the talk
brain only reads the memories the town's brain wrote (as the paper's interviews did).
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, TypeVar

from game.brains import answered
from game.brains.protocol import Brain
from game.brains.questions import Answer, Converse, Question, Talk, Utter
from game.core.records import AnsweredBy, Utterance

A = TypeVar("A")
TALK_QUESTIONS = (Answer, Utter, Converse)


class TalkKind(Enum):
    """The three kinds of conversation a talk brain may answer (the report's keys)."""

    INTERVIEW = "interview"
    VISITOR_CHAT = "visitor chat"
    RESIDENTS = "residents' conversations"


@dataclass(frozen=True)
class TalkRoutes:
    """Which questions are talk. `residents` tells the visitor's chat from the residents'
    own (an `Utter` to someone who is no resident is to the visitor)."""

    residents: frozenset[str]
    own_talk: bool = False  # the residents' conversations with each other count as talk

    def kind(self, q: Question[Any]) -> TalkKind | None:
        """The conversation `q` belongs to (None: not a conversation question)."""
        if isinstance(q, Answer):
            return TalkKind.INTERVIEW
        if isinstance(q, Utter) and q.partner not in self.residents:
            return TalkKind.VISITOR_CHAT
        if isinstance(q, (Utter, Converse)):
            return TalkKind.RESIDENTS
        return None

    def is_talk(self, kind: TalkKind | None) -> bool:
        return kind is not None and (kind is not TalkKind.RESIDENTS or self.own_talk)


def is_model(brain: object) -> bool:
    """Whether a brain asks a language model (the scripted brain never does)."""
    return getattr(brain, "name", "") == "llm"


def uses_model(brain: object) -> bool:
    """Whether a built brain asks a language model anything (for refusing model flags
    that would be ignored)."""
    return is_model(getattr(brain, "model_brain", brain))


class TalkBrain:
    """`base` answers the town's questions, `talk` its conversations; both brains' answers
    to conversation questions come back marked. Built by game.sim.factory whenever a
    model answers anything, so a model's words are always marked as the model's."""

    def __init__(self, base: Brain, talk: Brain, routes: TalkRoutes) -> None:
        self.base, self.talk, self.routes = base, talk, routes
        self.name = base.name  # what the town runs on: saves and timing follow it
        self.talk_name = talk.name
        self.embedder = getattr(base, "embedder", None)  # the save's own embedder
        self.model_brain = talk if is_model(talk) else base
        self._answers: Counter[tuple[TalkKind, AnsweredBy]] = Counter()
        self._lock = threading.Lock()

    # -- what the HUD, the start screen and the reports read -----------------------------
    @property
    def own_talk(self) -> bool:
        return self.routes.own_talk

    @property
    def model(self) -> str:
        return str(getattr(self.model_brain, "model", ""))

    @property
    def base_url(self) -> str:
        return str(getattr(self.model_brain, "base_url", ""))

    @property
    def notices(self) -> list[str]:
        return list(getattr(self.model_brain, "notices", None) or ())

    @property
    def fatal(self) -> str:
        return str(getattr(self.model_brain, "fatal", "") or "")

    @property
    def unwritten(self) -> list[str]:
        return list(getattr(self.model_brain, "unwritten", None) or ())

    def usage(self) -> dict[str, Any]:
        """The model's usage (requests by question: the proof of what was asked) and the
        talk section: which brain talks, and who gave how many answers of each kind."""
        meter = getattr(self.model_brain, "usage", None)
        out = dict(meter()) if callable(meter) else {}
        out["talk"] = self.talk_report()
        return out

    def talk_report(self) -> dict[str, Any]:
        with self._lock:
            counts = dict(self._answers)
        answers: dict[str, dict[str, int]] = {}
        for kind, by in sorted(counts, key=lambda k: (k[0].value, k[1].value)):
            answers.setdefault(kind.value, {})[by.value] = counts[(kind, by)]
        return {
            "town_brain": self.base.name,
            "talk_brain": self.talk.name,
            "residents_talk": self.routes.own_talk,
            "answers": answers,
        }

    def restore_usage(self, saved: dict[str, Any]) -> None:
        restore = getattr(self.model_brain, "restore_usage", None)
        if callable(restore):
            restore(saved)

    def cancel(self) -> None:
        self._each("cancel")

    def close(self) -> None:
        self._each("close")

    def _each(self, method: str) -> None:
        brains = [self.base] if self.base is self.talk else [self.talk, self.base]
        for brain in brains:
            call = getattr(brain, method, None)
            if callable(call):
                call()

    # -- asking -------------------------------------------------------------------------------
    def knows(self, kind: type[Question[Any]]) -> bool:
        """Converse is optional: the brain that answers residents' talk decides."""
        if kind is Converse:
            return (self.talk if self.routes.own_talk else self.base).knows(kind)
        return self.base.knows(kind)

    def ask(self, question: Question[A]) -> A:
        kind = self.routes.kind(question)
        brain = self.talk if self.routes.is_talk(kind) else self.base
        if kind is None:
            return brain.ask(question)
        answer, noted = answered.taking(lambda: brain.ask(question))
        by = noted or (AnsweredBy.FALLBACK if is_model(brain) else AnsweredBy.SCRIPTED)
        with self._lock:
            self._answers[(kind, by)] += 1
        answered.note(by)  # for a caller that shows a plain answer (an interview's text)
        return marked(answer, by)


def marked(answer: A, by: AnsweredBy) -> A:
    """A line of talk (or each line of a whole conversation) with who gave it."""
    if isinstance(answer, Utterance):
        return replace(answer, by=by)  # type: ignore[return-value]
    if isinstance(answer, Talk):
        return replace(answer, lines=tuple(replace(u, by=by) for u in answer.lines))  # type: ignore[return-value]
    return answer
