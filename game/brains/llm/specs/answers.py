"""Specs for interviews and their evaluation: an answer, a judge's verdict, a ranking."""

from __future__ import annotations

from typing import Any

from game.brains.llm import examples as ex
from game.brains.llm import sense
from game.brains.llm.jsontext import Invalid
from game.brains.llm.specs.checks import text_field, want
from game.brains.llm.specs.quoting import clip
from game.brains.llm.specs.schema import BOOL, arr, enum, obj, text, titled
from game.brains.llm.specs.spec import Spec
from game.brains.llm.specs.views import memory_lines, persona_line, persona_places
from game.brains.questions import Answer, JudgeAnswer, RankAnswers
from game.core.text import quoted


def _earlier(q: Answer) -> str:
    if q.state is None or not q.state.said:
        return ""
    lines = "\n".join(f"{quoted(s.speaker)} said: {quoted(s.text)}" for s in q.state.said[-6:])
    return f"Earlier in this conversation:\n{lines}"


def _answer_open(q: Answer) -> str:
    act = q.act
    if act is None or not act.follow_up:
        return ""
    about = ", ".join(x for x in (act.person, act.place, act.intent, act.event) if x)
    return f"This follows up on the earlier questions (about {about or act.aspect.value})."


def _answer_parse(data: dict[str, Any], q: Answer) -> str:
    """An answer must answer: not repeat the question, not copy the example, and not give
    an event a host, place or time that the resident's memories contradict."""
    said = text_field(data, "answer", 1200)
    if sense.echoes(said, q.question):
        raise Invalid("the answer repeats the question instead of answering it")
    aspect = q.act.aspect if q.act is not None else None
    example = ex.answer_example(q.ctx.persona, q.question, aspect)[0]
    if sense.copies(said, example.answer) and not example.answers_question(aspect):
        raise Invalid("the answer copies the example; answer the question that was asked")
    me = q.ctx.persona.name
    places = [*persona_places(q.ctx.persona, q.ctx.memories), *(a.name for a in q.ctx.sectors)]
    problem = sense.event_problems(said, q.ctx.memories, places, me, me, q.ctx.now.date())
    if problem:
        raise Invalid(problem)
    return said


# An interview answer the model could not give is the scripted brain's, and says so
# wherever it is shown (interview output, the player's panel, the evaluation's rows): an
# interview leaves no memory, so the mark never reaches a prompt.
FALLBACK_MARK = "[scripted fallback: the model gave no usable answer]"

ANSWER = Spec(
    Answer,
    "answer",
    "answer.txt",
    lambda q: {
        "summary": q.ctx.summary,
        "time": q.ctx.now.strftime("%A %B %d, %H:%M"),
        "name": q.ctx.persona.name,
        "status": q.ctx.status or "idle",
        "memories": memory_lines(q.ctx.memories, 200),
        "question": quoted(q.question),
        "earlier": _earlier(q),
        "open": _answer_open(q),
        "example": ex.answer_example(
            q.ctx.persona, q.question, q.act.aspect if q.act is not None else None
        )[1],
    },
    lambda q: titled("answer", obj(answer=text(1, 1200))),
    lambda d, q: _answer_parse(d, q),
    lambda s, q: f"{FALLBACK_MARK} {s.ask(q)}",
    max_tokens=400,
)


def _judge_parse(data: dict[str, Any], q: JudgeAnswer) -> bool:
    return bool(want(data, "carries", bool))


JUDGE = Spec(
    JudgeAnswer,
    "judge",
    "judge.txt",
    lambda q: {
        "question": q.question,
        "answer": clip(q.answer, 1200),
        "speaker": q.resident,
        "fact": q.fact,
        "rubric": "\n".join(f"- {p.what}" for p in q.rubric.parts),
    },
    lambda q: titled("judge", obj(carries=BOOL)),
    _judge_parse,
    simple=True,
    max_tokens=40,
)


def _rank_parse(data: dict[str, Any], q: RankAnswers) -> tuple[int, ...]:
    """Every label exactly once: an ordering, not a pick of favourites."""
    order = want(data, "order", list)
    labels = q.labels
    if any(not isinstance(x, str) or x.strip() not in labels for x in order):
        raise Invalid(f"'order' may hold only the labels {', '.join(labels)}")
    picked = [labels.index(x.strip()) for x in order]
    if len(set(picked)) != len(picked) or len(picked) != len(labels):
        raise Invalid(f"'order' must hold each of {', '.join(labels)} exactly once")
    return tuple(picked)


def _labelled(q: RankAnswers) -> str:
    """One line per answer: its label and its words, quoted (an answer is data)."""
    pairs = zip(q.labels, q.answers, strict=True)
    return "\n".join(f"{label}. {quoted(clip(a, 800))}" for label, a in pairs)


RANK = Spec(
    RankAnswers,
    "rank",
    "rank.txt",
    lambda q: {
        "persona": persona_line(q.persona),
        "name": q.persona.name,
        "question": quoted(clip(q.question, 400)),
        "answers": _labelled(q),
        "labels": ", ".join(q.labels),
    },
    lambda q: titled("rank", obj(order=arr(enum(q.labels), len(q.labels), len(q.labels)))),
    _rank_parse,
    # No scripted stand-in: a ranking the model did not give is no verdict, never a guess.
    fallback=lambda s, q: (),
    max_tokens=60,
)
