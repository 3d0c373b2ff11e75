"""What every job shares: the world it reads, the mind it asks, and the memories it writes.

A job reads a `Surroundings` and a `Mind` beside its snapshot, fans independent
questions out at once (`each`, `ask_each`), writes memories as `Note`s rated in one
question (`new_memories`), and hands the brain an `AgentContext` (`context`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from game.brains.dialogue.understand import Understander
from game.brains.protocol import Brain, Embedder, answers_locally
from game.brains.questions import AgentContext, Draft, Question, RateImportance
from game.core.mind_settings import MindSettings
from game.core.records import Fact, MemoryKind, MemoryRecord
from game.core.text import with_article
from game.mind import facts
from game.mind.agent import AgentSnapshot
from game.mind.effects import NewMemory
from game.world.scenario import Intent
from game.world.town import SEP, Town


@dataclass(frozen=True)
class Surroundings:
    """The world as a job may read it: the immutable town plus a copy of what changes."""

    town: Town
    states: Mapping[str, str]
    occupancy: Mapping[str, int]  # agents in or heading to each sector / arena / object
    self_targets: Mapping[str, str] = field(default_factory=dict)  # agent -> its target


@dataclass(frozen=True)
class Mind:
    """The things every job needs besides the snapshot."""

    brain: Brain
    embedder: Embedder
    settings: MindSettings
    intents: tuple[Intent, ...] = ()  # the scenario's, so memories can name them by id
    words: Understander | None = None  # hears lines as typed acts (game/mind/dialogue.py)


A = TypeVar("A")
_FAN_OUT = ThreadPoolExecutor(max_workers=32, thread_name_prefix="fan-out")


def ask_each(mind: Mind, questions: Sequence[Question[A]]) -> list[A]:
    """Independent questions asked at once, answers in order: a job waits for the
    slowest, not for their sum (a local brain answers them in a row: nothing to wait for)."""
    return each(mind.brain.ask, questions, at_once=not answers_locally(mind.brain))


T = TypeVar("T")


def each(work: Callable[[T], A], items: Sequence[T], at_once: bool = True) -> list[A]:
    """Independent pieces of a job done at once, results in order (in a row without
    `at_once`). (A piece never fans out again, so the pool cannot deadlock.)"""
    if len(items) < 2 or not at_once:
        return [work(item) for item in items]
    return list(_FAN_OUT.map(work, items))


@dataclass(frozen=True)
class Note:
    """A memory to write, before it is rated and embedded: its fields and what the data
    already says about its importance."""

    kind: MemoryKind
    fact: Fact
    known: int = 0
    routine: bool = False
    evidence: tuple[int, ...] = ()


def new_memories(
    mind: Mind, snap: AgentSnapshot, notes: Sequence[Note], town: Town | None = None
) -> tuple[NewMemory, ...]:
    """Render and rate a batch of memories (one question). Their vectors are the ones the
    embedder has at no cost; the rest are left to the next retrieval, which embeds them
    with its query in one request instead of one request here, and meanwhile ride along
    with any request (`later`), so that retrieval seldom has to wait for them."""
    if not notes:
        return ()
    texts = [facts.render(n.fact, town) for n in notes]
    drafts = tuple(
        Draft(n.kind, t, n.fact, n.known, n.routine) for n, t in zip(notes, texts, strict=True)
    )
    scores = mind.brain.ask(RateImportance(snap.persona, drafts))
    known = mind.embedder.peek(texts)
    mind.embedder.later([t for t in texts if t not in known])  # the next retrieval's
    return tuple(
        NewMemory(n.kind, t, n.fact, max(1, min(10, int(s))), known.get(t), n.evidence)
        for n, t, s in zip(notes, texts, scores, strict=True)
    )


def context(snap: AgentSnapshot, town: Town, memories: Sequence[MemoryRecord] = ()) -> AgentContext:
    known = tuple(a for a in sorted(snap.known) if a and SEP not in a and a in town.areas)
    return AgentContext(
        persona=snap.persona,
        now=snap.now,
        summary=snap.summary or base_summary(snap),
        location=snap.location,
        status=snap.status,
        memories=tuple(memories),
        known_places=known,
        sectors=tuple(town.sectors()),
    )


def base_summary(snap: AgentSnapshot) -> str:
    p = snap.persona
    return (
        f"Name: {p.name} (age: {p.age})\nInnate traits: {', '.join(p.traits)}\n"
        f"{p.name} is {with_article(p.occupation)}."
    )
