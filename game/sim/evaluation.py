"""The paper's evaluation, built in: the interviews it asks, and `evaluate`, which puts
them together with the measures (game/sim/measures.py) the way the paper did.

Diffusion: each public intent's phrasings, each asked of every resident in a conversation
of its own with the intent's follow-up, answers judged by the intent's rubric
(game/sim/judge.py). Hallucinations: every judged yes and every claimed acquaintance
checked against memory; the truth check (game/sim/truth.py): every answer collected
checked against the save. Density: "Do you know <name>?" asked of every pair at the start
(the scenario's seeded town) and at the end, beside the memory proxy. Attendance: from
invitations and answers in memory and the event log. Ablations: the battery asked again
while the interviewed resident may retrieve less, scored by an automatic scorer. The
intents, events and names all come from the scenario; `measure` gives typed results
(game/sim/results.py), `evaluate` their JSON.
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
from game.sim import measures, truth
from game.sim.judge import Score, content_words, persona_words, score_answer, share_good
from game.sim.measures import Answered, DiffusionAnswers
from game.sim.results import Ablations, Evaluation

# -- the interview battery (the paper's five groups; [name] is someone the resident knows,
# [news] and [more news] are phrasings of the scenario's public intents: the paper asked
# about the events of its own town there)

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
        "[news]",
        "[more news]",
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


NO_NEWS = ("What's the latest news around town?", "Has anything happened in town lately?")


def news_questions(scenario) -> tuple[str, str]:
    """Two questions about the town's news: the public intents' first phrasings in turn
    (one intent gives its first two), or NO_NEWS when the scenario interviews none."""
    lists = [i.questions for i in scenario.intents if not i.private and i.questions]
    turns = [q for k in range(max(map(len, lists), default=0)) for qs in lists if k < len(qs)
             for q in qs[k : k + 1]]  # fmt: skip
    picked = (*turns, *NO_NEWS)
    return picked[0], picked[1]


def battery_questions(sim, name: str) -> Iterator[tuple[str, str]]:
    """(group, question) with [name]/[other] filled by residents this one knows and
    [news]/[more news] by the scenario's intents."""
    persona = sim.agents[name].persona
    known = [n for n, _ in persona.relationships if n in sim.agents] or [
        n for n in sorted(sim.agents) if n != name
    ]
    first, other = known[0], known[-1]
    news, more = news_questions(sim.scenario)
    for group, questions in BATTERY.items():
        for q in questions:
            q = q.replace("[name]", first).replace("[other]", other)
            yield group, q.replace("[more news]", more).replace("[news]", news)


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


def ask_many(
    sim, name: str, questions: Sequence[str], snap: AgentSnapshot | None = None
) -> list[Interviewed]:
    """Several questions to one resident, in order, as one conversation (a follow-up such
    as 'and when?' resolves against the questions before it); changes no memory. `snap`
    is the resident as taken once for many conversations (default: now)."""
    snap = snap or sim.agents[name].snapshot(sim.now)
    if not sim.mind.settings.ablation.memory:
        snap = replace(snap, summary="")
    state = DialogueState()
    out = []
    for k, q in enumerate(questions, start=1):
        (text, act), by = answered.taking(
            lambda q=q, state=state: interview_act(sim.mind, snap, sim.town, q, state)
        )
        text = unmarked(text, by)
        if act is not None and k < len(questions):  # the last answer leads to no question
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


def battery_answers(sim, condition: Condition = Condition.FULL) -> list[tuple[str, str, str]]:
    """(resident, question, answer) for the whole battery, each resident restricted to
    `condition`: what the ablations score and, in full, what the truth check reads."""
    mind = restricted(sim.mind, condition)
    out = []
    for name in sorted(sim.agents):
        snap = sim.agents[name].snapshot(sim.now)
        for _, question in battery_questions(sim, name):
            out.append((name, question, ask_snapshot(mind, snap, sim.town, question)))
    return out


def ablation_scores(sim, full: list[tuple[str, str, str]] | None = None) -> Ablations:
    """The battery under each condition, scored: the share of answers that are specific
    and grounded in the resident's memory or persona (game/sim/judge.py). `full` is the
    battery already asked in full, so it is not asked twice."""
    words = {name: grounding(sim, name) for name in sim.agents}
    out: dict[str, float] = {}
    for condition in Condition:
        asked = full if condition is Condition.FULL and full is not None else None
        answers = asked or battery_answers(sim, condition)
        scores: list[Score] = [score_answer(q, a, words[n]) for n, q, a in answers]
        out[condition.value] = share_good(scores)
    method = ("the 25-question battery per resident; share of answers specific and "
              "grounded in the resident's memory or persona")  # fmt: skip
    return Ablations(method, out)


# -- the interviews the measures read ----------------------------------------------------


def diffusion_answers(sim) -> DiffusionAnswers:
    """Every resident asked each phrasing of each public intent, each phrasing in a
    conversation of its own with the intent's follow-up after it (so the follow-up's 'it'
    is whatever the resident's first answer named)."""
    snaps = {name: sim.agents[name].snapshot(sim.now) for name in sorted(sim.agents)}
    out: dict[str, dict[str, dict[str, Answered]]] = {}
    for intent in measures.public_intents(sim):
        asked = [q for q in (intent.follow_up,) if q]
        out[intent.id] = {
            question: {
                name: Answered(*(a.answer for a in ask_many(sim, name, [question, *asked], snap)))
                for name, snap in snaps.items()
            }
            for question in intent.questions
        }
    return out


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


def measure(sim, judge_brain: Brain | None = None, ablations: bool = True) -> Evaluation:
    """Every measure, typed and labelled by its method. `judge_brain` adds a model's
    verdicts beside the keyword judge's; `ablations` asks the battery under each retrieval
    condition."""
    said = diffusion_answers(sim)
    spread = measures.diffusion(sim, said, judge_brain)
    start = acquaintance_answers(sim.mind, start_snapshots(sim), sim.town)
    end = acquaintance_answers(
        sim.mind, {n: a.snapshot(sim.now) for n, a in sim.agents.items()}, sim.town
    )
    battery = battery_answers(sim)
    rows = truth.collected(sim, battery, said, end)
    return Evaluation(
        game_time=sim.now.isoformat(),
        residents=tuple(sorted(sim.agents)),
        diffusion=spread,
        knowledge=measures.knowledge(sim),
        networks=measures.networks(sim, start, end),
        attendance=measures.attendance(sim),
        hallucinations=measures.hallucinations(sim, spread, end),
        conversations=measures.conversations(sim),
        ablations=ablation_scores(sim, battery) if ablations else None,
        talk=sim.usage().get("talk") or None,  # a model answered the interviews: how many
        truth=truth.check(sim, rows, spread),
    )


def evaluate(sim, judge_brain: Brain | None = None, ablations: bool = True) -> dict[str, Any]:
    """`measure`'s results as the JSON `evaluate` writes (the README's shape)."""
    return measure(sim, judge_brain, ablations).to_json()
