"""Specs for talk: a line in a conversation, or a whole conversation in one answer.

Every line of history goes in as quoted speech, so a visitor's words never pass for the
prompt's own instructions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from game.brains.dialogue.state import DialogueState
from game.brains.llm.jsontext import Invalid
from game.brains.llm.specs.checks import items, one_of, ranged, text_field, want
from game.brains.llm.specs.schema import BOOL, SCORE, arr, enum, obj, text, titled
from game.brains.llm.specs.spec import Spec
from game.brains.llm.specs.views import memory_lines, where
from game.brains.questions import Converse, Talk, Utter
from game.brains.scripted import ScriptedBrain
from game.core.records import Utterance
from game.core.text import quoted


def history_lines(history: Sequence[Utterance]) -> str:
    """Each line as quoted speech (JSON-escaped), so words a visitor typed can never pass
    for the prompt's own instructions: the system prompt says quotes are speech only."""
    if not history:
        return "(nothing yet)"
    return "\n".join(f"{quoted(u.speaker)} said: {quoted(u.text)}" for u in history)


def _utter_view(q: Utter) -> dict[str, str]:
    ctx = q.ctx
    return {
        "summary": ctx.summary,
        "time": ctx.now.strftime("%A %H:%M"),
        "name": ctx.persona.name,
        "where": where(ctx),
        "status": ctx.status or "idle",
        "partner": q.partner,
        "memories": memory_lines(ctx.memories),
        "history": history_lines(q.history),
        "open": open_question(q.state, ctx.persona.name),
    }


def open_question(state: DialogueState | None, name: str) -> str:
    """The question still waiting for `name`'s answer, stated (quoted, as all speech), so
    the model answers it before the talk moves on; and the topic a follow-up refers to."""
    asked = state.open_question(name) if state is not None else None
    if asked is None:
        return f"Nothing is being asked of {name} right now."
    act = asked.act
    about = ", ".join(x for x in (act.aspect.value, act.person, act.place, act.intent,
                                  act.event) if x and x != "general")  # fmt: skip
    topic = f" It is about: {about}." if about else ""
    follow = " It follows up on what was said before." if act.follow_up else ""
    return (
        f"Open question for {name}, from {quoted(asked.speaker)}: {quoted(asked.text)}."
        f"{topic}{follow} {name} answers it before anything else."
    )


def _utter_parse(data: dict[str, Any], q: Utter) -> Utterance:
    say = text_field(data, "say", 400)
    news = text_field(data, "news", 200, True)
    return Utterance(q.ctx.persona.name, say, want(data, "end", bool), news)


UTTER = Spec(
    Utter,
    "utter",
    "utter.txt",
    _utter_view,
    lambda q: titled("utter", obj(say=text(1, 400), end=BOOL, news=text(0, 200))),
    _utter_parse,
    max_tokens=200,
)


def _pair(q: Converse) -> tuple[str, str]:
    return q.ctx_a.persona.name, q.ctx_b.persona.name


def _converse_view(q: Converse) -> dict[str, str]:
    ca, cb = q.ctx_a, q.ctx_b
    return {
        "a": ca.persona.name,
        "b": cb.persona.name,
        "time": ca.now.strftime("%A %H:%M"),
        "where": where(ca),
        "summary_a": ca.summary,
        "memories_a": memory_lines(ca.memories, 140),
        "summary_b": cb.summary,
        "memories_b": memory_lines(cb.memories, 140),
        "max_turns": str(q.max_turns),
    }


def _converse_parse(data: dict[str, Any], q: Converse) -> Talk:
    names = _pair(q)
    lines = []
    for entry in items(data, "lines", 2, 4 * q.max_turns)[: q.max_turns]:
        speaker = one_of(want(entry, "speaker", str), names, "speakers")
        say = text_field(entry, "say", 400)
        lines.append(Utterance(speaker, say, False, text_field(entry, "news", 200, True)))
    if lines[0].speaker != names[0]:
        raise Invalid(f"{names[0]} speaks first")
    scores = (ranged(data, "importance_a", 1, 10), ranged(data, "importance_b", 1, 10))
    return Talk((*lines[:-1], replace(lines[-1], end=True)), scores)


def _scripted_turns(s: ScriptedBrain, q: Converse) -> Talk:
    """The scripted brain's turn-by-turn conversation, each side from its own context."""
    speaker, listener = q.ctx_a, q.ctx_b
    history: list[Utterance] = []
    for _ in range(q.max_turns):
        line = s.ask(Utter(speaker, listener.persona.name, tuple(history)))
        history.append(replace(line, speaker=speaker.persona.name))
        if line.end or not line.text.strip():
            break
        speaker, listener = listener, speaker
    return Talk(tuple(history))


CONVERSE = Spec(
    Converse,
    "converse",
    "converse.txt",
    _converse_view,
    lambda q: titled(
        "converse",
        obj(
            lines=arr(
                obj(speaker=enum(_pair(q)), say=text(1, 400), news=text(0, 200)),
                2,
                4 * q.max_turns,
            ),
            importance_a=SCORE,
            importance_b=SCORE,
        ),
    ),
    _converse_parse,
    _scripted_turns,
    max_tokens=900,
)
