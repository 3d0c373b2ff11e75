"""Concrete examples for prompts, drawn from the asking resident's own town and facts.

Why: a prompt that ends `Answer {"answer": "..."}` invites a small model to copy the
dots (Gemma 3 270M answered 15 of 15 interviews with them). An example built from the
resident's typed facts (occupation, home, routine, the objects of the world's state
vocabulary) shows the shape with real words, always answers a *different* question than
the one asked (so copying it is never the answer; specs reject a copy), and is true of
the resident when it is about them. Each function returns the words before the example
and the example's JSON.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.brains.dialogue.acts import Aspect
from game.brains.dialogue.understand import content_stems
from game.core.text import with_article
from game.world.scenario import Resident
from game.world.states import UseExample, vocabulary


def shown(lead: str, example: dict[str, Any]) -> str:
    """'For example, <lead>: {...}' as one line of the prompt."""
    return f"For example, {lead}: {json.dumps(example, ensure_ascii=False)}"


def use_unlike(*texts: str) -> UseExample:
    """An everyday use from the state vocabulary sharing no word with `texts` (the action
    or object asked about), so the example answers another question."""
    asked = set().union(*(content_stems(t) for t in texts))
    table = vocabulary()
    for use in table.examples.values():
        if not content_stems(f"{use.action} {use.kind}") & asked:
            return use
    return table.example()


def _home(p: Resident) -> str:
    return p.home.split(":")[0]


def _work(p: Resident) -> str:
    """' at <workplace>' unless the occupation already names it."""
    place = p.workplace.split(":")[0] if p.workplace else ""
    return f" at {place}" if place and place.lower() not in p.occupation.lower() else ""


@dataclass(frozen=True)
class SelfFact:
    """A question a resident can answer from its persona alone, its true answer, and the
    aspects of a question that answer answers (the dialogue act's `Aspect`)."""

    question: str
    answer: str
    answers: frozenset[Aspect]

    def answers_question(self, aspect: Aspect | None) -> bool:
        """Whether this fact is also the answer to a question of `aspect`: then a model
        that gives it copies nothing, it answers."""
        return aspect is not None and aspect in self.answers


def self_facts(p: Resident) -> tuple[SelfFact, ...]:
    """The persona's facts as examples: work (which also says who one is), home, age."""
    return (
        SelfFact(
            "What do you do for a living?",
            f"I'm {with_article(p.occupation)}{_work(p)}.",
            frozenset({Aspect.WORK, Aspect.IDENTITY}),
        ),
        SelfFact("Where do you live?", f"I live at {_home(p)}.", frozenset({Aspect.HOME})),
        SelfFact("How old are you?", f"I'm {p.age} years old.", frozenset({Aspect.IDENTITY})),
    )


def answer_example(
    p: Resident, question: str, aspect: Aspect | None = None
) -> tuple[SelfFact, str]:
    """(the example, the prompt line): a true fact of the resident's for another question.

    The example must not answer the question asked, or a model that copies it gives the
    right answer and is told it copied ('What's your job?' shares no word with 'What do
    you do for a living?'). So it is the first fact that answers another aspect than the
    question's, as the dialogue act read it, and shares no content word with it."""
    asked = content_stems(question)
    facts = self_facts(p)

    def unlike(f: SelfFact) -> bool:
        return aspect not in f.answers and not content_stems(f.question) & asked

    other = next((f for f in facts if unlike(f)), facts[-1])
    lead = f"asked {json.dumps(other.question)}, {p.first_name} would reply"
    return other, shown(lead, {"answer": other.answer})


def summary_example(p: Resident, topic: str) -> tuple[str, str]:
    """(the example summary, the prompt line): where the resident lives, which none of the
    mind's topics asks (its characteristics, its daily occupation, its feelings about its
    progress), so a copy is never the summary asked for; what it is like if the topic is
    the home. (An example of home and work was the true summary of 'Isabella Rodriguez's
    current daily occupation', and the copy check refused the model's right answer.)"""
    text = f"{p.name} lives at {_home(p)}."
    about = f"a summary of where {p.first_name} lives"
    if content_stems(topic) & content_stems("live lives home house"):
        traits = ", ".join(p.traits[:2]) or "friendly"
        text = f"{p.name} is {traits}, and is {with_article(p.occupation)}."
        about = f"a summary of what {p.first_name} is like"
    return text, shown(about, {"summary": text})


def reflect_example(p: Resident) -> tuple[str, str]:
    interest = p.interests[0] if p.interests else p.occupation
    text = f"What does {p.first_name} hope to get out of {interest}?"
    return text, f"Each question is a full sentence, such as {json.dumps(text)}."


def importance_example(p: Resident) -> str:
    place = _home(p)
    low, high = f"{p.first_name} is brushing teeth", f"{p.first_name} got engaged at {place}"
    return (
        f"For example, {json.dumps(low)} rates 1 and {json.dumps(high)} rates 9; "
        'the answer holds "ratings": one whole number per memory, in the order given.'
    )


def emoji_example(action: str) -> str:
    use = use_unlike(action)
    return shown(f"someone {use.action}", {"emoji": use.emoji})


def state_example(action: str, obj: str) -> str:
    use = use_unlike(action, obj)
    return shown(f"someone {use.action} at a {use.kind}", {"state": use.state, "emoji": use.emoji})


def plan_example(p: Resident, places: Sequence[str]) -> str:
    """One block of the resident's own routine, its time and place as the plan wants."""
    block = next((b for b in p.routine if b.start != p.wake), None)
    if block is None:
        return ""
    place = block.place.split(":")[0]
    entry = {
        "start": f"{block.start // 60 % 24:02d}:{block.start % 60:02d}",
        "activity": block.activity,
        "place": place if place in places else "",
    }
    return shown(f"one block of an ordinary day of {p.first_name}'s", entry)


def step_example(description: str, kinds: dict[str, str]) -> str:
    """One action at a spot of this sector (`kinds`: spot label -> object kind), from an
    everyday use of that kind unlike the item asked; at no spot when none fits."""
    asked = content_stems(description)
    table = vocabulary()
    for label, kind in kinds.items():
        use = table.examples.get(kind)
        if use is not None and not content_stems(use.action) & asked:
            return shown("one action", _step(use, label))
    return shown("one action", _step(use_unlike(description), ""))


def _step(use: UseExample, spot: str) -> dict[str, Any]:
    return {
        "action": use.action,
        "minutes": 10,
        "spot": spot,
        "state": use.state if spot else "",
        "emoji": use.emoji,
        "importance": 2,
    }
