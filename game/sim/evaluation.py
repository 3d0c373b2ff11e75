"""The paper's evaluation, built in: the interviews it asks, and `evaluate`, which puts
them together with the measures (game/sim/measures.py) the way the paper did.

Diffusion: each public intent's question, answers judged by the intent's rubric
(game/sim/judge.py). Hallucinations: every judged yes and every claimed acquaintance
checked against memory. Density: "Do you know <name>?" asked of every pair at the start
(the scenario's seeded town) and at the end, beside the memory proxy. Attendance: from
invitations and answers in memory and the event log. Ablations: the battery asked again
while the interviewed resident may retrieve less, scored by an automatic scorer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from game.brains import answered
from game.brains.dialogue.acts import Act, is_unknown
from game.brains.dialogue.state import DialogueState
from game.brains.protocol import Brain
from game.core.mind_settings import Ablation
from game.core.records import AnsweredBy
from game.mind.agent import AgentSnapshot
from game.mind.cognition import Mind, interview, interview_act
from game.sim import measures
from game.sim.judge import Score, content_words, persona_words, score_answer, share_good

# -- the interview battery (the paper's five groups; [name] is someone the resident knows)

BATTERY: dict[str, tuple[str, ...]] = {
    "self-knowledge": (
        "Give an introduction of yourself.",
        "What is your occupation?",
        "What are your interests?",
        "Who do you live with?",
        "Describe your typical weekday schedule in broad strokes.",
    ),
    "memory": (
        "Who is [name]?",
        "Who is running for mayor?",
        "Was there a Valentine's Day party?",
        "Who is [other]?",
        "What did you do yesterday?",
    ),
    "plans": (
        "What will you be doing at 6 am today?",
        "What will you be doing at 6 pm today?",
        "What will you have just finished doing at 1 pm today?",
        "What will you have just finished doing at 12 pm today?",
        "What will you be doing at 10 am tomorrow?",
    ),
    "reactions": (
        "Your breakfast is burning! What would you do?",
        "The bathroom is occupied. What would you do?",
        "You need to cook dinner but your refrigerator is empty. What would you do?",
        "You see your friend walking by the street. What would you do or say to your friend?",
        "You see fire on the street. What would you do?",
    ),
    "reflections": (
        "What inspires you in life the most right now, and why?",
        "If you had to guess given what you know about [name], what book do you think they "
        "will like and why?",
        "If you had to get something [name] likes for their birthday, what would you get?",
        "What would you say to [name] to compliment them?",
        "If you could spend time with one person you talked to recently, who would it be and why?",
    ),
}


def battery_questions(sim, name: str) -> Iterator[tuple[str, str]]:
    """(group, question) with [name]/[other] filled by residents this one knows."""
    persona = sim.agents[name].persona
    known = [n for n, _ in persona.relationships if n in sim.agents] or [
        n for n in sorted(sim.agents) if n != name
    ]
    first, other = known[0], known[-1]
    for group, questions in BATTERY.items():
        for q in questions:
            yield group, q.replace("[name]", first).replace("[other]", other)


def ask(sim, name: str, question: str) -> str:
    """An interview on the calling thread; changes no memory."""
    return ask_snapshot(sim.mind, sim.agents[name].snapshot(sim.now), sim.town, question)


def ask_marked(sim, name: str, question: str) -> tuple[str, AnsweredBy]:
    """An interview's answer and who gave it (the model, its scripted fallback, or the
    scripted brain)."""
    text, by = answered.taking(lambda: ask(sim, name, question))
    return unmarked(text, by), by or AnsweredBy.SCRIPTED


def unmarked(text: str, by: AnsweredBy | None) -> str:
    """The answer without the fallback's mark in its words, where who answered is a field
    of its own (the inspector, which shows the text alone, keeps the words' mark)."""
    if by is not AnsweredBy.FALLBACK:
        return text
    from game.brains.llm.specs import FALLBACK_MARK

    return text.removeprefix(FALLBACK_MARK).strip()


def ask_snapshot(mind: Mind, snap: AgentSnapshot, town, question: str) -> str:
    """An interview of a snapshot; without memory the agent summary (built from memory)
    gives way to the persona's base description."""
    if not mind.settings.ablation.memory:
        snap = replace(snap, summary="")
    return interview(mind, snap, town, question)


@dataclass(frozen=True)
class Interviewed:
    """One answer of an interview held as a conversation: the question, the answer,
    whether the resident fell back to not knowing, the act the question was understood
    as (its kind, aspect and slots, for `--json`), and who gave the answer: the model,
    the scripted fallback when the model failed, or the scripted brain."""

    question: str
    answer: str
    fallback: bool = False
    act: dict[str, object] = field(default_factory=dict)
    by: AnsweredBy = AnsweredBy.SCRIPTED


def ask_many(sim, name: str, questions: Sequence[str]) -> list[Interviewed]:
    """Several questions to one resident, in order, as one conversation (a follow-up such
    as 'and when?' resolves against the questions before it); changes no memory."""
    snap = sim.agents[name].snapshot(sim.now)
    if not sim.mind.settings.ablation.memory:
        snap = replace(snap, summary="")
    state = DialogueState()
    out = []
    for q in questions:
        (text, act), by = answered.taking(
            lambda q=q, state=state: interview_act(sim.mind, snap, sim.town, q, state)
        )
        text = unmarked(text, by)
        if act is not None:
            state = state.then(INTERVIEWER, q, act)
            heard = sim.mind.words.understand(text, sim.now, state, name)
            state = state.then(name, text, heard)
        out.append(Interviewed(q, text, is_unknown(text), act_fields(act), by or SCRIPTED))
    return out


INTERVIEWER = "the interviewer"
SCRIPTED = AnsweredBy.SCRIPTED


def act_fields(act: Act | None) -> dict[str, object]:
    """The act as plain JSON fields (kind, aspect, wh, label, the slots it filled)."""
    if act is None:
        return {}
    out: dict[str, object] = {"kind": act.kind.value, "aspect": act.aspect.value,
                              "wh": act.wh.value, "label": act.label,
                              "confidence": act.confidence}  # fmt: skip
    for slot in ("person", "place", "obj", "intent", "event"):
        if getattr(act, slot):
            out[slot] = getattr(act, slot)
    if act.window is not None:
        out["window"] = [act.window.start.isoformat(), act.window.end.isoformat()]
    if act.follow_up:
        out["follow_up"] = True
    return out


def run_battery(sim, on_answer: Callable[[dict], None]) -> int:
    count = 0
    for name in sorted(sim.agents):
        for group, question in battery_questions(sim, name):
            answer, by = ask_marked(sim, name, question)
            on_answer(
                {
                    "agent": name,
                    "group": group,
                    "question": question,
                    "answer": answer,
                    "answered_by": by.value,
                    "game_time": sim.now.isoformat(),
                }
            )
            count += 1
    return count


# -- interview-time ablations ------------------------------------------------------------


class Condition(Enum):
    """What the interviewed resident may retrieve (the paper's ablations, on one save)."""

    FULL = "full"
    NO_PLAN = "no plan memories"
    NO_REFLECTION = "no reflection or plan memories"
    NO_MEMORY = "no observation, reflection or plan memories"

    @property
    def ablation(self) -> Ablation:
        return {
            Condition.FULL: Ablation(),
            Condition.NO_PLAN: Ablation(planning=False),
            Condition.NO_REFLECTION: Ablation(reflection=False, planning=False),
            Condition.NO_MEMORY: Ablation(memory=False),
        }[self]


def restricted(mind: Mind, condition: Condition) -> Mind:
    return replace(mind, settings=replace(mind.settings, ablation=condition.ablation))


def grounding(sim, name: str) -> set[str]:
    """What an answer may draw on: the resident's whole memory stream and its persona."""
    agent = sim.agents[name]
    texts = " ".join(agent.memory.text(i) for i in range(len(agent.memory)))
    return content_words(texts) | persona_words(agent.persona)


def ablation_scores(sim) -> dict[str, Any]:
    """The battery under each condition, scored: the share of answers that are specific
    and grounded in the resident's memory or persona (game/sim/judge.py)."""
    words = {name: grounding(sim, name) for name in sim.agents}
    out: dict[str, Any] = {}
    for condition in Condition:
        mind = restricted(sim.mind, condition)
        scores: list[Score] = []
        for name in sorted(sim.agents):
            snap = sim.agents[name].snapshot(sim.now)
            for _, question in battery_questions(sim, name):
                answer = ask_snapshot(mind, snap, sim.town, question)
                scores.append(score_answer(question, answer, words[name]))
        out[condition.value] = share_good(scores)
    return {
        "method": "the 25-question battery per resident; share of answers specific and "
        "grounded in the resident's memory or persona",
        "scores": out,
    }


# -- the interviews the measures read ----------------------------------------------------


def diffusion_answers(sim) -> dict[str, dict[str, str]]:
    """Every resident's answer to each public intent's question."""
    return {
        intent.id: {name: ask(sim, name, intent.question) for name in sorted(sim.agents)}
        for intent in measures.public_intents(sim)
        if intent.question
    }


def acquaintance_answers(mind: Mind, snaps: Mapping[str, AgentSnapshot], town) -> dict:
    """'Do you know <name>?' asked of every resident about every other."""
    return {
        (a, b): ask_snapshot(mind, snaps[a], town, measures.know_question(b))
        for a in sorted(snaps)
        for b in sorted(snaps)
        if a != b
    }


def start_snapshots(sim) -> dict[str, AgentSnapshot]:
    """The same scenario and seed, seeded and not yet run: the town at the start."""
    from game.sim.factory import build_simulation

    fresh = build_simulation(sim.scenario.path, seed=sim.config.seed, workers=1)
    try:
        for _ in range(200):
            if all(a.seeded for a in fresh.agents.values()):
                break
            fresh.step()
        return {n: a.snapshot(fresh.now) for n, a in fresh.agents.items()}
    finally:
        fresh.close()


# -- the whole evaluation -----------------------------------------------------------------


def evaluate(sim, judge_brain: Brain | None = None, ablations: bool = True) -> dict[str, Any]:
    """Every measure, labelled by its method. `judge_brain` adds a model's verdicts beside
    the keyword judge's; `ablations` asks the battery under each retrieval condition."""
    spread = measures.diffusion(sim, diffusion_answers(sim), judge_brain)
    start = acquaintance_answers(sim.mind, start_snapshots(sim), sim.town)
    end = acquaintance_answers(
        sim.mind, {n: a.snapshot(sim.now) for n, a in sim.agents.items()}, sim.town
    )
    result = {
        "game_time": sim.now.isoformat(),
        "residents": len(sim.agents),
        "information_diffusion": spread,
        "knowledge_in_memory": measures.knowledge(sim),
        "network_density": measures.networks(sim, start, end),
        "party_attendance": measures.attendance(sim),
        "hallucinations": measures.hallucinations(sim, spread, end),
        "conversations": measures.conversations(sim),
        "diffusion_curve": {
            i.id: measures.memory_curve(sim, i.id) for i in measures.public_intents(sim)
        },
    }
    if ablations:
        result["interview_ablations"] = ablation_scores(sim)
    talk = sim.usage().get("talk")
    if talk:  # a model answered the interviews above: who gave how many
        result["talk"] = talk
    return result
