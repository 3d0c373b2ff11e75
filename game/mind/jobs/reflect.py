"""REFLECT: questions from recent memories, retrieval, and insights that cite their evidence."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from game.brains.questions import Insights, InsightsEach, ReflectQuestions
from game.core.records import MemoryKind, Source
from game.mind import facts
from game.mind.agent import AgentSnapshot
from game.mind.effects import NewMemory, Reflected
from game.mind.jobs.common import Mind, Note, new_memories
from game.mind.jobs.recall import recall, warm


def reflect_job(mind: Mind, snap: AgentSnapshot) -> Reflected:
    s, n = mind.settings, len(snap.memory)
    recent = tuple(snap.memory.records(range(max(0, n - s.reflection_window), n)))
    questions = mind.brain.ask(ReflectQuestions(snap.persona, recent))
    questions = questions[: s.questions_per_reflection]
    notes: list[Note] = []
    seen = _reflection_texts(snap)  # an insight already held is not written again
    touched: list[int] = []
    warm(mind, [snap], questions)
    recalled = [recall(mind, snap, [question], k=12) for question in questions]
    pairs = zip(questions, recalled, strict=True)
    asked = tuple(Insights(snap.persona, q, tuple(records)) for q, (records, _) in pairs)
    answers = mind.brain.ask(InsightsEach(snap.persona, asked)) if asked else ()  # one request
    for (_, idx), found in zip(recalled, answers, strict=True):
        touched.extend(idx)
        for insight in found[: s.insights_per_question]:
            cited = tuple(dict.fromkeys(idx[j] for j in insight.evidence if 0 <= j < len(idx)))
            text = insight.text.strip()
            if cited and text and text not in seen:
                seen.add(text)
                fact = facts.statement(snap.name, text, Source.SELF)
                rated = insight.importance  # rated with it, or in one question below
                notes.append(Note(MemoryKind.REFLECTION, fact, rated, evidence=cited))
    memories = _discount_repeats(
        new_memories(mind, snap, notes), seen - {n.fact.object for n in notes}
    )
    return Reflected(snap.name, memories, tuple(dict.fromkeys(touched)))


REPEAT_OVERLAP = 0.6  # share of an insight's words an earlier one holds to count as a restatement


def _discount_repeats(memories: tuple[NewMemory, ...], held: set[str]) -> tuple[NewMemory, ...]:
    """An insight that mostly restates ones already held (or written in this batch) is
    worth less each time, so a family of near-repeats does not crowd retrieval."""
    earlier = [_words(t) for t in held]
    out = []
    for m in memories:
        words = _words(m.text)
        repeats = sum(1 for e in earlier if words and len(words & e) >= REPEAT_OVERLAP * len(words))
        earlier.append(words)
        out.append(replace(m, importance=max(1, m.importance // (1 + repeats))) if repeats else m)
    return tuple(out)


def _words(text: str) -> set[str]:
    """The longer words of an insight, for overlap only (no field is read from them)."""
    letters = "".join(c if c.isalpha() or c == "'" else " " for c in text.lower())
    return {w for w in letters.split() if len(w) > 3}


def _reflection_texts(snap: AgentSnapshot) -> set[str]:
    mask = snap.memory.mask([MemoryKind.REFLECTION])
    return {snap.memory.text(int(i)) for i in np.flatnonzero(mask)}
