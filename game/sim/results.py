"""The evaluation's results, typed: one frozen dataclass per measure, and the JSON of each.

game/sim/measures.py computes them; `evaluate`'s JSON (`to_json`), the chart
(game/ui/chart.py) and `study`'s table all read these fields, so a figure is never looked
up by a string key in one place and written under another name in the next. What the
JSON looks like is documented in the README ("The evaluation's report").
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from game.world.scenario import Reference

# A phrasing is flagged when its count is farther from the median of all phrasings than
# FAR_MIN residents or FAR_SHARE of the town, whichever is more: in a town of 25, more than
# 6 away. Small towns keep a floor of 3, since one resident there is a large share.
FAR_MIN = 3
FAR_SHARE = 0.25


def far_by(residents: int) -> float:
    """How far from the median a phrasing's count may be before it is flagged."""
    return max(FAR_MIN, FAR_SHARE * residents)


def number(value: float) -> float | int:
    """A whole median as an int (23, not 23.0); a half as it is (22.5)."""
    return int(value) if float(value).is_integer() else round(value, 4)


# -- diffusion --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """One resident's conversation on one phrasing: its answer, the answer to the
    follow-up, and whether either carries the intent's fact (the rubric)."""

    resident: str
    answer: str
    follow_up: str = ""  # the answer to the follow-up ('' when the intent has none)
    carries: bool = False
    missing: tuple[str, ...] = ()  # the rubric parts the better of the two answers lacks
    model: bool | None = None  # the model judge's verdict, when one was asked
    carrying: tuple[str, ...] = ()  # which answers carry it: 'answer', 'follow_up'

    def to_json(self) -> dict[str, Any]:
        return {"answer": self.answer, "follow_up": self.follow_up, "carries": self.carries,
                "missing": list(self.missing), "llm": self.model}  # fmt: skip


@dataclass(frozen=True)
class Phrasing:
    """One wording of the diffusion question, asked of every resident."""

    question: str
    replies: tuple[Reply, ...]
    keyword_mentions: int  # the old, loose count: mentions a keyword, denies nothing

    @property
    def knowers(self) -> tuple[str, ...]:
        return tuple(r.resident for r in self.replies if r.carries)

    @property
    def count(self) -> int:
        return len(self.knowers)

    @property
    def model_count(self) -> int | None:
        if any(r.model is None for r in self.replies) or not self.replies:
            return None
        return sum(bool(r.model) for r in self.replies)


@dataclass(frozen=True)
class Diffusion:
    """Who carries a public intent's fact in their answers, per phrasing. The headline,
    `end`, is the median over the phrasings, with their spread beside it: what the
    measure says should not hang on one wording."""

    intent_id: str
    method: str
    follow_up: str
    must_name: tuple[str, ...]
    residents: int
    start: int  # residents whose seed states it (the fact's holders at the start)
    phrasings: tuple[Phrasing, ...]
    carried_by: Mapping[str, str] = field(default_factory=dict)  # resident -> first source
    paper: float | None = None  # the published figure, if the scenario gives one

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(p.count for p in self.phrasings)

    @property
    def end(self) -> float:
        return statistics.median(self.counts) if self.phrasings else 0

    @property
    def spread(self) -> tuple[int, int]:
        counts = self.counts or (0,)
        return min(counts), max(counts)

    @property
    def far_by(self) -> float:
        return far_by(self.residents)

    def far(self, phrasing: Phrasing) -> bool:
        return abs(phrasing.count - self.end) > self.far_by

    @property
    def flagged(self) -> tuple[str, ...]:
        return tuple(p.question for p in self.phrasings if self.far(p))

    @property
    def keyword_mentions(self) -> float:
        loose = [p.keyword_mentions for p in self.phrasings]
        return statistics.median(loose) if loose else 0

    @property
    def model_end(self) -> float | None:
        counts = [p.model_count for p in self.phrasings]
        if not counts or any(c is None for c in counts):
            return None
        return statistics.median(c for c in counts if c is not None)

    @property
    def model_agrees(self) -> int:
        return sum(r.model == r.carries for p in self.phrasings for r in p.replies)

    def to_json(self) -> dict[str, Any]:
        low, high = self.spread
        out: dict[str, Any] = {
            "method": self.method,
            "follow_up": self.follow_up,
            "must_name": list(self.must_name),
            "start": self.start,
            "end": number(self.end),
            "percent_end": round(100 * self.end / max(1, self.residents), 1),
            "spread": {"min": low, "max": high},
            "far": f"more than {number(self.far_by)} residents from the median "
            f"(max of {FAR_MIN} and {round(100 * FAR_SHARE)}% of {self.residents})",
            "flagged": list(self.flagged),
            "keyword_mentions": number(self.keyword_mentions),
            "phrasings": [
                {
                    "question": p.question,
                    "count": p.count,
                    "knowers": list(p.knowers),
                    "keyword_mentions": p.keyword_mentions,
                    "far": self.far(p),
                    "answers": {r.resident: r.to_json() for r in p.replies},
                }
                for p in self.phrasings
            ],
            "carried_by": dict(self.carried_by),
        }
        if self.model_end is not None:
            out["llm_judge"] = {
                "end": number(self.model_end),
                "phrasings": [p.model_count for p in self.phrasings],
                "agree": self.model_agrees,
            }
        return out


@dataclass(frozen=True)
class Knowledge:
    """Who holds a memory tagged with the intent (the run report's `knowledge`)."""

    intent_id: str
    method: str
    start: int
    who: tuple[str, ...]
    curve: tuple[tuple[str, int], ...] = ()  # (game time, residents who know) as it grew

    @property
    def end(self) -> int:
        return len(self.who)

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "who": list(self.who), "method": self.method}


# -- hallucinations ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One answer memory does not back, and why. `after` is the phrasing a follow-up's
    answer followed ('' for an answer to the question itself)."""

    resident: str
    question: str
    answer: str
    why: str
    after: str = ""

    def to_json(self) -> dict[str, str]:
        out = {"resident": self.resident, "question": self.question, "answer": self.answer}
        if self.after:
            out["after"] = self.after
        return out | {"why": self.why}


@dataclass(frozen=True)
class Hallucinations:
    method: str
    diffusion_claims: int
    acquaintance_claims: int
    cases: tuple[Case, ...]

    @property
    def checked(self) -> int:
        return self.diffusion_claims + self.acquaintance_claims

    @property
    def hallucinated(self) -> int:
        """Answers with at least one reason (an answer may have several)."""
        return len({(c.resident, c.after, c.question, c.answer) for c in self.cases})

    @property
    def rate(self) -> float:
        return round(self.hallucinated / self.checked, 4) if self.checked else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "checked": self.checked,
            "diffusion_claims": self.diffusion_claims,
            "acquaintance_claims": self.acquaintance_claims,
            "hallucinated": self.hallucinated,
            "rate": self.rate,
            "cases": [c.to_json() for c in self.cases],
        }


# -- the acquaintance networks ----------------------------------------------------------------


@dataclass(frozen=True)
class Network:
    """Mutual acquaintance at the start and at the end, by one method."""

    method: str
    start: float
    end: float
    edges_start: tuple[tuple[str, str], ...]
    edges_end: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "start": self.start, "end": self.end,
                "edges_start": [list(e) for e in self.edges_start],
                "edges_end": [list(e) for e in self.edges_end]}  # fmt: skip


@dataclass(frozen=True)
class Networks:
    interview: Network  # the paper's: 'Do you know <name>?' both ways
    memory_proxy: Network  # seed relationships plus conversations in memory

    def to_json(self) -> dict[str, Any]:
        return {"interview": self.interview.to_json(), "memory_proxy": self.memory_proxy.to_json()}


# -- attendance -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attendance:
    """An event's invitations, answers and who came. `attended` is by presence (the
    event log) and doing the event's things, whatever the resident answered."""

    intent_id: str
    method: str
    place: str
    start: str  # ISO times of the event
    end: str
    host: str
    happened: bool
    invited: tuple[str, ...]
    invited_by_host: tuple[str, ...]
    accepted: tuple[str, ...]
    maybe: tuple[str, ...]
    declined: tuple[str, ...]
    attended: tuple[str, ...]
    present_not_counted: tuple[str, ...]
    paper: Reference = Reference()

    def to_json(self) -> dict[str, Any]:
        names = ("invited", "invited_by_host", "accepted", "maybe", "declined", "attended",
                 "present_not_counted")  # fmt: skip
        return {"method": self.method, "place": self.place, "start": self.start,
                "end": self.end, "host": self.host, "happened": self.happened} | {
            k: list(getattr(self, k)) for k in names
        }  # fmt: skip


# -- truth checks -----------------------------------------------------------------------------


class Asked(Enum):
    """Which interview of `evaluate` an answer comes from."""

    BATTERY = "battery"
    DIFFUSION = "diffusion"
    FOLLOW_UP = "follow-up"  # the intent's follow-up, after one of its phrasings
    ACQUAINTANCE = "acquaintance"  # 'Do you know <name>?', at the end


class Verdict(Enum):
    """A claim against the save: borne out, contradicted, or true once and said as if the
    clock had not moved (an ended event spoken of as still to come)."""

    BACKED = "backed"
    CONTRADICTED = "contradicted"
    STALE = "stale"


@dataclass(frozen=True)
class TruthCase:
    """One claim the save does not bear out, quoted: the answer, the words that make the
    claim, and what the save holds instead."""

    resident: str
    asked: Asked
    question: str
    answer: str
    claim: str  # the claim's kind ('lives with', 'event time', ...)
    quote: str  # the words of the answer that make it
    verdict: Verdict
    why: str
    after: str = ""  # the phrasing a follow-up's answer followed

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.resident, self.after, self.question, self.answer)

    def to_json(self) -> dict[str, str]:
        out = {"resident": self.resident, "asked": self.asked.value, "question": self.question,
               "answer": self.answer}  # fmt: skip
        if self.after:
            out["after"] = self.after
        return out | {"claim": self.claim, "quote": self.quote, "verdict": self.verdict.value,
                      "why": self.why}  # fmt: skip


@dataclass(frozen=True)
class ClaimTally:
    """How many claims of one kind were checked, and how they came out."""

    kind: str
    checked: int
    contradicted: int
    stale: int

    def to_json(self) -> dict[str, int]:
        return {"checked": self.checked, "contradicted": self.contradicted, "stale": self.stale}


@dataclass(frozen=True)
class PairCase:
    """Two phrasings of one intent whose answers, from one resident, do not agree."""

    resident: str
    first: str
    first_said: str
    second: str
    second_said: str
    why: str

    def to_json(self) -> dict[str, str]:
        names = ("resident", "first", "first_said", "second", "second_said", "why")
        return {k: getattr(self, k) for k in names}


@dataclass(frozen=True)
class Consistency:
    """Paraphrase consistency of one intent: of every resident's pairs of phrasings, the
    share whose conversations agree (both show they know it or neither does, and no host,
    place or day of one contradicts the other's)."""

    intent_id: str
    pairs: int
    compatible: int
    cases: tuple[PairCase, ...]

    @property
    def rate(self) -> float:
        return round(self.compatible / self.pairs, 4) if self.pairs else 1.0

    def to_json(self) -> dict[str, Any]:
        return {"pairs": self.pairs, "compatible": self.compatible, "rate": self.rate,
                "cases": [c.to_json() for c in self.cases]}  # fmt: skip


@dataclass(frozen=True)
class TruthCheck:
    """Every answer `evaluate` collected, its claims checked against the save: the paper's
    hallucination broadened to every claim an answer makes, the stale tense, and how far
    an answer hangs on the wording of the question."""

    method: str
    answers: int  # answers checked
    by_asked: Mapping[str, int]  # answers per interview
    about_ended: int  # answers that speak of an event that has ended
    tallies: tuple[ClaimTally, ...]
    cases: tuple[TruthCase, ...]  # every contradicted or stale claim
    consistency: Mapping[str, Consistency] = field(default_factory=dict)

    def _answers_with(self, verdict: Verdict) -> int:
        return len({c.key for c in self.cases if c.verdict is verdict})

    @property
    def contradicted(self) -> int:
        """Answers with at least one contradicted claim."""
        return self._answers_with(Verdict.CONTRADICTED)

    @property
    def stale(self) -> int:
        """Answers that speak of an ended event as still to come."""
        return self._answers_with(Verdict.STALE)

    @property
    def contradicted_rate(self) -> float:
        return round(self.contradicted / self.answers, 4) if self.answers else 0.0

    @property
    def stale_rate(self) -> float:
        return round(self.stale / self.answers, 4) if self.answers else 0.0

    @property
    def paraphrase_consistency(self) -> float | None:
        pairs = sum(c.pairs for c in self.consistency.values())
        same = sum(c.compatible for c in self.consistency.values())
        return round(same / pairs, 4) if pairs else None

    def lines(self, shown: int = 3) -> list[str]:
        """The human summary: the figures, then the first `shown` cases of each kind quoted
        (the report lists every one)."""
        agree = self.paraphrase_consistency
        out = [f"  truth: {self.contradicted} of {self.answers} answers contradicted "
               f"({self.contradicted_rate}), {self.stale} stale ({self.stale_rate}; "
               f"{self.about_ended} speak of an ended event); paraphrase consistency "
               f"{'n/a' if agree is None else agree}"]  # fmt: skip
        for verdict in (Verdict.CONTRADICTED, Verdict.STALE):
            cases = [c for c in self.cases if c.verdict is verdict]
            for c in cases[:shown]:
                out.append(f"    {verdict.value}: {c.resident}, {c.question!r}: {c.quote!r} "
                           f"({c.claim}: {c.why})")  # fmt: skip
            if len(cases) > shown:
                more = len(cases) - shown
                out.append(f"    ... and {more} more {verdict.value} claims in the report")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "answers": self.answers,
            "by_asked": dict(self.by_asked),
            "contradicted": self.contradicted,
            "contradicted_rate": self.contradicted_rate,
            "stale": self.stale,
            "stale_rate": self.stale_rate,
            "about_ended_events": self.about_ended,
            "paraphrase_consistency": self.paraphrase_consistency,
            "claims": {t.kind: t.to_json() for t in self.tallies},
            "cases": [c.to_json() for c in self.cases],
            "consistency": {k: c.to_json() for k, c in self.consistency.items()},
        }


# -- the rest ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Conversations:
    method: str
    total: int
    per_day: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "total": self.total, "per_day": dict(self.per_day)}


@dataclass(frozen=True)
class Ablations:
    """The battery's share of specific, grounded answers under each retrieval condition."""

    method: str
    scores: Mapping[str, float]  # condition label -> share

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "scores": dict(self.scores)}


@dataclass(frozen=True)
class Evaluation:
    """Every measure of one save, each labelled by its method."""

    game_time: str
    residents: tuple[str, ...]
    diffusion: Mapping[str, Diffusion]
    knowledge: Mapping[str, Knowledge]
    networks: Networks
    attendance: Mapping[str, Attendance]
    hallucinations: Hallucinations
    conversations: Conversations
    ablations: Ablations | None = None
    talk: Mapping[str, Any] | None = None  # who gave how many answers, when a model spoke
    truth: TruthCheck | None = None  # every collected answer checked against the save

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game_time": self.game_time,
            "residents": len(self.residents),
            "diffusion": {k: d.to_json() for k, d in self.diffusion.items()},
            "knowledge_in_memory": {k: m.to_json() for k, m in self.knowledge.items()},
            "network_density": self.networks.to_json(),
            "attendance": {k: a.to_json() for k, a in self.attendance.items()},
            "hallucinations": self.hallucinations.to_json(),
            "conversations": self.conversations.to_json(),
            "diffusion_curve": {k: [list(p) for p in m.curve] for k, m in self.knowledge.items()},
        }
        if self.ablations is not None:
            out["interview_ablations"] = self.ablations.to_json()
        if self.talk:
            out["talk"] = dict(self.talk)
        if self.truth is not None:
            out["truth"] = self.truth.to_json()
        return out
