"""Judges of interview answers, for the evaluation.

Answers are brain output, so the judges read their text: does an answer carry an intent's
fact (the intent's rubric), does it claim to know a person, whom does it name as its
source, which clock times and host does it name, and is it specific and grounded (the
ablation scorer). Memory is never read back from text: what a resident heard, and from
whom, comes from the typed fields of its memories (see game/sim/measures.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from game.brains.protocol import Brain
from game.brains.questions import JudgeAnswer
from game.world.scenario import Intent, Resident, denies


class JudgeKind(Enum):
    """Who decides whether an answer carries a fact: the rubric's keywords, or a model
    given the same rubric (reported beside the keyword verdict, never instead of it)."""

    KEYWORD = "keyword"
    LLM = "llm"


@dataclass(frozen=True)
class Verdict:
    carries: bool  # the keyword judge: every rubric part named, and no denial
    missing: tuple[str, ...]  # the rubric parts the answer does not name
    model: bool | None = None  # the model judge's verdict, when one was asked


def keyword_verdict(intent: Intent, answer: str, speaker: str = "") -> Verdict:
    """`speaker` answered; when it holds the intent, its 'I' names it."""
    me = speaker if speaker == intent.holder else ""
    return Verdict(intent.rubric.accepts(answer, me), intent.rubric.missing(answer, me))


def model_verdict(
    brain: Brain, intent: Intent, resident: str, answer: str, question: str = ""
) -> bool:
    """The fixed rubric prompt, through the brain's one question path; `question` is what
    was asked (a phrasing or the follow-up; the first phrasing when not given)."""
    asked = JudgeAnswer(
        resident, question or intent.question, answer, intent.text, intent.rubric, intent.holder
    )
    return bool(brain.ask(asked))


# -- "Do you know <name>?" -------------------------------------------------------------------

_NOT_ACQUAINTED = re.compile(
    r"\b(who that is|who (?:he|she|they) (?:is|are)|never met|haven't met|have not met|"
    r"don't really know|do not really know|not acquainted|doesn't ring a bell)\b",
    re.IGNORECASE,
)


def claims_acquaintance(answer: str) -> bool:
    """Whether an answer to 'Do you know X?' says yes."""
    text = answer.strip()
    if not text or re.match(r"(?i)no\b", text):
        return False
    return not (denies(text) or _NOT_ACQUAINTED.search(text))


# -- what a "yes" claims ---------------------------------------------------------------------

_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d\d))?\s*([ap])\.?m\b|\b(\d{1,2}):(\d\d)\b", re.IGNORECASE)


def named_times(answer: str) -> tuple[int, ...]:
    """Clock times an answer names, as minutes after midnight ('5 pm' -> 1020)."""
    out = []
    for m in _CLOCK.finditer(answer):
        if m.group(3):
            hour, minute = int(m.group(1)) % 12, int(m.group(2) or 0)
            hour += 12 if m.group(3).lower() == "p" else 0
        else:
            hour, minute = int(m.group(4)), int(m.group(5))
        if hour < 24 and minute < 60:
            out.append(hour * 60 + minute)
    return tuple(out)


def _name_pattern(name: str) -> str:
    first = re.escape(name.split()[0])
    return rf"{re.escape(name)}|{first}"


def claimed_source(answer: str, names: Iterable[str], speaker: str) -> str:
    """The resident the answer says told the speaker ('Isabella told me ...'), or ''."""
    for name in sorted(names, key=len, reverse=True):
        if name == speaker:
            continue
        who = _name_pattern(name)
        said = rf"(?:{who})\b(?: \w+)? (?:told|mentioned|said|invited|was telling)"
        heard = rf"(?:heard|learned) (?:it |about it |this |that )?from (?:{who})\b"
        if re.search(said, answer) or re.search(heard, answer):
            return name
    return ""


EVENT_NOUNS = ("event", "celebration")  # what any event may be called after its host


def claimed_host(answer: str, names: Iterable[str], nouns: Iterable[str] = ()) -> str:
    """The resident the answer names as the host ('Tom is hosting', "Tom's cook-off"):
    `nouns` are what this event is called (the intent's keywords), beside EVENT_NOUNS."""
    called = "|".join(re.escape(n) for n in sorted({*nouns, *EVENT_NOUNS}, key=len, reverse=True))
    for name in sorted(names, key=len, reverse=True):
        who = _name_pattern(name)
        if re.search(rf"(?:{who}) (?:is hosting|is throwing|hosts|will host|is having)", answer):
            return name
        if re.search(rf"(?:{who})'s (?:[\w'-]+ ){{0,3}}(?i:{called})\b", answer):
            return name
    return ""


# -- the ablation scorer: specific and grounded ----------------------------------------------

_STOP = frozenset(  # fmt: skip
    (
        "about",
        "after",
        "again",
        "also",
        "always",
        "around",
        "because",
        "been",
        "before",
        "being",
        "could",
        "didn",
        "does",
        "doing",
        "done",
        "down",
        "each",
        "even",
        "every",
        "from",
        "going",
        "have",
        "having",
        "here",
        "into",
        "just",
        "know",
        "lately",
        "like",
        "little",
        "made",
        "make",
        "many",
        "maybe",
        "mine",
        "more",
        "most",
        "much",
        "must",
        "myself",
        "never",
        "only",
        "other",
        "over",
        "people",
        "person",
        "really",
        "right",
        "same",
        "should",
        "since",
        "some",
        "someone",
        "something",
        "still",
        "such",
        "sure",
        "than",
        "that",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "thing",
        "things",
        "think",
        "this",
        "those",
        "through",
        "time",
        "today",
        "tomorrow",
        "very",
        "want",
        "well",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "will",
        "with",
        "would",
        "yesterday",
        "your",
        "yours",
    )
)


def content_words(text: str) -> set[str]:
    """Lower-case words of four letters or more, cut to five letters (a crude stem), no
    stop words: what two texts must share to be about the same things."""
    words = re.findall(r"[a-z][a-z']{3,}", text.lower())
    return {w[:5] for w in words if w not in _STOP and not w.endswith("'s")} | {
        w[:-2][:5] for w in words if w.endswith("'s") and len(w) > 5
    }


def persona_words(persona: Resident) -> set[str]:
    """Everything the persona states about the resident: the grounding besides memory."""
    texts = [persona.name, persona.occupation, persona.seed, persona.home, persona.workplace or ""]
    texts += list(persona.traits) + list(persona.interests) + list(persona.known_places)
    texts += [f"{n} {d}" for n, d in persona.relationships]
    texts += [f"{b.place} {b.activity}" for b in persona.routine]
    return content_words(" ".join(texts))


MIN_WORDS = 3  # content words beyond the question's that make an answer specific
GROUNDED_SHARE = 0.6  # of those words, the share found in memory or persona


@dataclass(frozen=True)
class Score:
    specific: bool
    grounded: bool

    @property
    def good(self) -> bool:
        return self.specific and self.grounded


def score_answer(question: str, answer: str, grounding: set[str]) -> Score:
    """Specific: says something (no denial, at least MIN_WORDS content words not taken
    from the question). Grounded: most of those words are in the resident's memory stream
    or persona, so the answer is about this resident's life rather than made up."""
    words = content_words(answer) - content_words(question)
    specific = not denies(answer) and len(words) >= MIN_WORDS
    grounded = bool(words) and len(words & grounding) / len(words) >= GROUNDED_SHARE
    return Score(specific, grounded)


def share_good(scores: Sequence[Score]) -> float:
    return round(sum(s.good for s in scores) / len(scores), 4) if scores else 0.0
