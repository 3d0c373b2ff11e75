"""Specs for what is done with memories: rating them, reflecting on them, summarising them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from game.brains.llm import examples as ex
from game.brains.llm import sense
from game.brains.llm.jsontext import Invalid
from game.brains.llm.specs.checks import items, ranged, text_field, want
from game.brains.llm.specs.schema import SCORE, arr, integer, obj, text, titled
from game.brains.llm.specs.spec import Spec
from game.brains.llm.specs.views import memory_lines, numbered, persona_line, persona_places
from game.brains.questions import (
    Insights,
    InsightsEach,
    RateImportance,
    ReflectQuestions,
    Summarize,
)
from game.core.records import Insight


def _importance_parse(data: dict[str, Any], q: RateImportance) -> tuple[int, ...]:
    n = len(q.drafts)
    ratings = want(data, "ratings", list)
    if len(ratings) != n:
        raise Invalid(f"give exactly {n} ratings, one per memory, not {len(ratings)}")
    return tuple(ranged({"rating": r}, "rating", 1, 10) for r in ratings)


IMPORTANCE = Spec(
    RateImportance,
    "importance",
    "importance.txt",
    lambda q: {
        "persona": persona_line(q.persona),
        "name": q.persona.name,
        "texts": numbered([d.text for d in q.drafts]),
        "example": ex.importance_example(q.persona),
    },
    lambda q: titled("importance", obj(ratings=arr(SCORE, len(q.drafts), len(q.drafts)))),
    _importance_parse,
    simple=True,
    max_tokens=80,
)


def _questions_parse(data: dict[str, Any], q: ReflectQuestions) -> tuple[str, ...]:
    out = []
    for i, asked in enumerate(want(data, "questions", list)):
        out.append(text_field({f"questions[{i}]": asked}, f"questions[{i}]", 200))
    if not 1 <= len(out) <= 5:
        raise Invalid(f"give 3 questions, not {len(out)}")
    if len({" ".join(t.lower().split()) for t in out}) != len(out):
        raise Invalid("the questions must be different from each other")
    if any(sense.copies(t, ex.reflect_example(q.persona)[0]) for t in out):
        raise Invalid("a question copies the example; ask about these memories instead")
    return tuple(out[:3])


REFLECT_QUESTIONS = Spec(
    ReflectQuestions,
    "reflect_questions",
    "reflect_questions.txt",
    lambda q: {
        "persona": persona_line(q.persona),
        "name": q.persona.name,
        "memories": memory_lines(q.recent, 120),
        "example": ex.reflect_example(q.persona)[1],
    },
    lambda q: titled("reflect_questions", obj(questions=arr(text(10, 200), 3, 3))),
    _questions_parse,
    max_tokens=200,
)


def _insights_parse(data: dict[str, Any], q: Insights) -> tuple[Insight, ...]:
    n = len(q.memories)
    out = []
    for entry in items(data, "insights", 1, 5):
        cited = want(entry, "because", list)
        numbers = [ranged({"because": c}, "because", 1, max(1, n)) for c in cited]
        if not numbers:
            raise Invalid("every insight must cite at least one statement number")
        insight = text_field(entry, "insight", 240)
        if len(insight.split()) < 3:
            raise Invalid(f"'insight' must be a sentence, not {insight!r}")
        out.append(Insight(insight, tuple(c - 1 for c in numbers)))
    return tuple(out)


INSIGHTS = Spec(
    Insights,
    "insights",
    "insights.txt",
    lambda q: {
        "persona": persona_line(q.persona),
        "name": q.persona.name,
        "question": q.question,
        "memories": numbered([m.text for m in q.memories]),  # cited by number: all kept
    },
    lambda q: titled(
        "insights",
        obj(
            insights=arr(
                obj(
                    insight=text(10, 240),
                    because=arr(integer(1, max(1, len(q.memories))), 1, 5),
                ),
                1,
                5,
            )
        ),
    ),
    _insights_parse,
    max_tokens=500,
)


def _insight_schema(most: int) -> dict[str, Any]:
    """Up to 5 insights, each citing 1 to 5 of `most` statements by number, and rated."""
    because = arr(integer(1, max(1, most)), 1, 5)
    return arr(obj(insight=text(10, 240), because=because, importance=SCORE), 1, 5)


def _each_parse(data: dict[str, Any], q: InsightsEach) -> tuple[tuple[Insight, ...], ...]:
    n = len(q.asked)
    answers = items(data, "answers", n, n)
    out = []
    for i, (entry, asked) in enumerate(zip(answers, q.asked, strict=True), 1):
        try:
            found = _insights_parse(entry, asked)
            rated = [ranged(e, "importance", 1, 10) for e in entry["insights"]]
            out.append(tuple(replace(f, importance=r) for f, r in zip(found, rated, strict=True)))
        except Invalid as problem:
            raise Invalid(f"answer {i}: {problem}") from problem
    return tuple(out)


def _each_view(q: InsightsEach) -> dict[str, str]:
    blocks = [
        f"Question {i}: {a.question}\nIts statements:\n{numbered([m.text for m in a.memories])}"
        for i, a in enumerate(q.asked, 1)
    ]
    return {
        "persona": persona_line(q.persona),
        "name": q.persona.name,
        "count": str(len(q.asked)),
        "questions": "\n\n".join(blocks),
    }


INSIGHTS_EACH = Spec(
    InsightsEach,
    "insights_each",
    "insights_each.txt",
    _each_view,
    lambda q: titled(
        "insights_each",
        obj(
            answers=arr(
                obj(insights=_insight_schema(max((len(a.memories) for a in q.asked), default=1))),
                len(q.asked),
                len(q.asked),
            )
        ),
    ),
    _each_parse,
    max_tokens=1200,
)


def _summary_parse(data: dict[str, Any], q: Summarize) -> str:
    """The summary opens every later prompt: it must name the resident and be about them."""
    summary = text_field(data, "summary", 600)
    names = q.persona.name.lower().split()
    if not any(n in summary.lower() for n in names):
        raise Invalid(f"the summary must be about {q.persona.name} and name them")
    if len(summary.split()) < 4:
        raise Invalid("the summary must be at least a sentence")
    if sense.copies(summary, ex.summary_example(q.persona, q.topic)[0]):
        raise Invalid(f"the summary copies the example; summarize {q.topic} instead")
    if sense.echoes(summary, q.topic):
        raise Invalid("the summary only repeats its topic; say what the memories show")
    borrowed = sense.borrowed_occupation(summary, q.persona)
    if borrowed:
        raise Invalid(borrowed)
    places = persona_places(q.persona, q.memories)
    problem = sense.event_problems(summary, q.memories, places, q.persona.name)
    if problem:
        raise Invalid(problem)
    return summary


SUMMARIZE = Spec(
    Summarize,
    "summarize",
    "summarize.txt",
    lambda q: {
        "name": q.persona.name,
        "topic": q.topic,
        "memories": memory_lines(q.memories, 140),
        "example": ex.summary_example(q.persona, q.topic)[1],
    },
    lambda q: titled("summarize", obj(summary=text(20, 600))),
    lambda d, q: _summary_parse(d, q),
    max_tokens=200,
)
