"""Believability ranked the paper's way (`evaluate --rank`).

For every battery question (game/sim/evaluation.py) and resident, the same save is
interviewed under each of the paper's conditions (full; no reflection; no reflection or
planning; no memory), and, when a researcher supplies them, a human baseline joins
(`--human FILE`). A judge then orders the answers by believability: the fixed rubric
prompt `game/brains/prompts/rank.txt`, asked through the model brain's one call path as
the typed question `RankAnswers`. Each ranking is a multiplayer match, and the ratings per
condition are fitted from all of them, reported with the pairwise effect sizes as the
paper's Table 1 is.

Why the choices:

- The conditions are declared here, each an `Ablation` (game/core/mind_settings.py), not
  taken from evaluation's `Condition`: that one has "no plan memories" where the paper
  has "no reflection", and its members name the ablation scorer's report keys.
- The judge sees the answers labelled A, B, C... in an order shuffled per resident and
  question by a seeded generator (the save's seed), so no label or position tells which
  condition answered, and the same save gives the same prompts.
- Conditions that gave the very same words (after spacing) share one label and so one
  place: no judge can prefer one of two identical texts, and making it pick would add
  noise. A question whose answers are all alike is no match at all.
- A ranking the model did not give (its answer failed the checks; the endpoint is down)
  is no verdict and is left out: the fallback invents nothing.
- The fit is Weng and Lin's Bayesian approximation with the Plackett-Luce model (JMLR 12,
  2011; what `openskill` calls PlackettLuce), written out here, about thirty lines, rather
  than a dependency: openskill 6.2 installs a compiled wheel on CPython, and `trueskill`
  0.4.5 is a source distribution that needs `six`. Plackett-Luce because a judge's answer
  is a full ordering, which is what that model describes (each place a choice among the
  answers left); TrueSkill, which the paper used, is the same kind of Gaussian skill
  update for a multiplayer match. Its constants are TrueSkill's and openskill's
  (mu 25, sigma 25/3, beta 25/6, kappa 1e-4, gamma = sigma / c), except tau: 0, because a
  condition's believability does not drift between matches (tau models a player who
  improves). The matches are applied in the order asked: residents by name, then the
  battery's order. On any matches, the ratings are openskill 6.2's
  `PlackettLuce(tau=0).rate(teams, ranks=...)` (checked to 1e-9 when written).
- The effect size between two conditions is Cohen's d over their per-match ranks, in the
  matches both took part in: ranks are places among the conditions (1 = most
  believable; conditions sharing an answer share the mean of their places), d = (mean
  rank of b - mean rank of a) / pooled standard deviation, so d > 0 means a was judged
  more believable; each pair is reported once, the higher rated as a. It is None where
  the pooled deviation is 0 (no spread to scale by).
  The paper's Kruskal-Wallis and Dunn tests are not computed.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from itertools import combinations
from pathlib import Path
from typing import Any

from game.brains import answered
from game.brains.protocol import Brain
from game.brains.questions import RankAnswers, answer_labels
from game.core.errors import SmallvilleError
from game.core.files import read_bounded, read_problem
from game.core.mind_settings import Ablation
from game.core.records import AnsweredBy
from game.mind.cognition import Mind
from game.sim.evaluation import ask_snapshot, battery_questions, unmarked


class Contestant(Enum):
    """Who gave an answer: the architecture under one of the paper's conditions, or a
    person (the human baseline)."""

    FULL = "full"
    NO_REFLECTION = "no reflection"
    NO_REFLECTION_PLANNING = "no reflection or planning"
    NO_MEMORY = "no memory"
    HUMAN = "human"


# What the interviewed resident may retrieve under each condition (the human has none).
ABLATIONS: Mapping[Contestant, Ablation] = {
    Contestant.FULL: Ablation(),
    Contestant.NO_REFLECTION: Ablation(reflection=False),
    Contestant.NO_REFLECTION_PLANNING: Ablation(reflection=False, planning=False),
    Contestant.NO_MEMORY: Ablation(memory=False),
}

# -- the fit --------------------------------------------------------------------------------

MU, SIGMA = 25.0, 25.0 / 3.0  # the prior of every condition
BETA = 25.0 / 6.0  # the spread of one match's performance around the skill
KAPPA = 1e-4  # the least a variance may shrink to, as a share, in one match


@dataclass(frozen=True)
class Rating:
    """A condition's believability as a Gaussian belief: mean and standard deviation."""

    mu: float = MU
    sigma: float = SIGMA


def rate(
    ratings: Mapping[Contestant, Rating], places: Mapping[Contestant, int]
) -> dict[Contestant, Rating]:
    """One match: the ratings after it. `places` are 0 for the most believable, and equal
    places are ties. Weng and Lin (2011), Algorithm 4 (Plackett-Luce), one player a team."""
    c = math.sqrt(sum(r.sigma**2 + BETA**2 for r in ratings.values()))
    strength = {k: math.exp(r.mu / c) for k, r in ratings.items()}
    # for each q: the strengths of all placed at or after q; and how many share q's place
    rest = {q: sum(strength[s] for s in places if places[s] >= places[q]) for q in places}
    tied = {q: sum(places[s] == places[q] for s in places) for q in places}
    out: dict[Contestant, Rating] = {}
    for i, r in ratings.items():
        omega = delta = 0.0
        for q in places:
            if places[q] <= places[i]:
                p = strength[i] / rest[q]
                omega += ((1.0 if q is i else 0.0) - p) / tied[q]
                delta += p * (1 - p) / tied[q]
        var = r.sigma**2
        gamma = r.sigma / c
        out[i] = Rating(
            r.mu + var / c * omega, r.sigma * math.sqrt(max(1 - gamma * var / c**2 * delta, KAPPA))
        )
    return out


def fit(rankings: Iterable[Mapping[Contestant, int]]) -> dict[Contestant, Rating]:
    """Every match in order, each condition from the prior at its first."""
    ratings: dict[Contestant, Rating] = {}
    for places in rankings:
        now = {k: ratings.get(k, Rating()) for k in places}
        ratings.update(rate(now, places))
    return ratings


def cohens_d(a: Sequence[float], b: Sequence[float]) -> float | None:
    """(mean of b - mean of a) / pooled standard deviation (None: no spread, or too few)."""
    if len(a) < 2 or len(b) < 2:
        return None
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    ss = sum((x - ma) ** 2 for x in a) + sum((x - mb) ** 2 for x in b)
    pooled = math.sqrt(ss / (len(a) + len(b) - 2))
    return None if pooled == 0 else (mb - ma) / pooled


# -- matches ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One question to one resident: the distinct answers in the order shown (labelled A,
    B, C...), which contestant gave which (an index into `shown`), and the judge's order
    (indexes into `shown`, most believable first; () when not judged)."""

    agent: str
    question: str
    shown: tuple[str, ...]
    entrants: tuple[tuple[Contestant, int], ...]
    order: tuple[int, ...] = ()

    @property
    def judged(self) -> bool:
        return len(self.shown) >= 2 and sorted(self.order) == list(range(len(self.shown)))

    def places(self) -> dict[Contestant, int]:
        """Each contestant's place: its answer's position in the judge's order."""
        at = {shown: place for place, shown in enumerate(self.order)}
        return {c: at[i] for c, i in self.entrants}

    def ranks(self) -> dict[Contestant, float]:
        """Places among the contestants, from 1; those sharing an answer share the mean."""
        out: dict[Contestant, float] = {}
        first = 1
        for shown in self.order:
            group = [c for c, i in self.entrants if i == shown]
            for c in group:
                out[c] = first + (len(group) - 1) / 2
            first += len(group)
        return out


def setup(seed: int, agent: str, question: str, answers: Mapping[Contestant, str]) -> Match:
    """The match as the judge will see it: identical answers once, shuffled by a
    generator seeded by the save's seed, the resident and the question."""
    words = {c: " ".join(a.split()) for c, a in answers.items()}
    shown = list(dict.fromkeys(words.values()))
    random.Random(f"{seed}|{agent}|{question}").shuffle(shown)
    entrants = tuple((c, shown.index(w)) for c, w in words.items())
    return Match(agent, question, tuple(shown), entrants)


def judge_match(judge: Brain, persona, match: Match) -> Match:
    """The judge's order, through the brain's one question path (no verdict on a fallback)."""
    if len(match.shown) < 2:
        return match
    question = RankAnswers(persona, match.question, match.shown)
    order, by = answered.taking(lambda: judge.ask(question))
    return match if by is AnsweredBy.FALLBACK else replace(match, order=tuple(order))


# -- the human baseline --------------------------------------------------------------------


MAX_HUMAN = 16 * 1024 * 1024  # bytes of a --human file (the battery's answers: a few KB)


def read_human(path: Path, sim) -> dict[tuple[str, str], str]:
    """Answers written by people: JSON lines `{"agent", "question", "answer"}`, the
    question as the battery asks it of that resident ('[name]' filled in: what
    `interview --battery --out FILE` writes, so its file can be rewritten by hand). Other
    fields are ignored; blank lines and lines starting with '#' are skipped. A line that
    names no resident or no battery question of theirs is an error naming the line."""
    asked = {name: {q for _, q in battery_questions(sim, name)} for name in sim.agents}
    out: dict[tuple[str, str], str] = {}
    try:
        raw = read_bounded(path, MAX_HUMAN)  # /dev/zero was read until memory ran out
    except OSError as exc:  # a machine's problem, not the file's: one line, exit 1
        raise read_problem(path, exc, "the --human file") from None
    if len(raw) > MAX_HUMAN:
        raise SmallvilleError(f"--human {path}: larger than such a file may be ({MAX_HUMAN} bytes)")
    try:
        lines = raw.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError as exc:  # it was a traceback
        raise SmallvilleError(f"--human {path}: not UTF-8 text ({exc.reason})") from None
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"--human {path}, line {number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SmallvilleError(f"{where}: not JSON ({exc.msg})") from None
        fields = [
            row.get(k) if isinstance(row, dict) else None for k in ("agent", "question", "answer")
        ]
        if not all(isinstance(v, str) and v.strip() for v in fields):
            raise SmallvilleError(f'{where}: needs "agent", "question" and "answer" (text)')
        agent, question, answer = fields
        if agent not in asked:
            raise SmallvilleError(f"{where}: no resident named {agent!r} in this save")
        if question not in asked[agent]:
            raise SmallvilleError(f"{where}: {question!r} is not a battery question of {agent}")
        if (agent, question) in out:
            raise SmallvilleError(f"{where}: a second answer of {agent} to {question!r}")
        out[agent, question] = answer
    return out


# -- the whole ranking ---------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """A condition's fitted rating, its matches and its mean rank (1 = most believable)."""

    contestant: Contestant
    rating: Rating
    matches: int
    mean_rank: float


@dataclass(frozen=True)
class Effect:
    """Cohen's d of a over b from their per-match ranks (> 0: a judged more believable)."""

    a: Contestant
    b: Contestant
    matches: int
    d: float | None


@dataclass(frozen=True)
class Believability:
    standings: tuple[Standing, ...]  # best mu first
    effects: tuple[Effect, ...]
    matches: tuple[Match, ...]

    @property
    def judged(self) -> int:
        return sum(m.judged for m in self.matches)

    @property
    def alike(self) -> int:
        """Questions every contestant answered in the same words: nothing to rank."""
        return sum(len(m.shown) < 2 for m in self.matches)

    @property
    def no_verdict(self) -> int:
        return len(self.matches) - self.judged - self.alike


METHOD = (
    "each battery question to each resident, answered under each condition (and by people, "
    "where given), ranked by the model judge with a fixed rubric (prompts/rank.txt), answers "
    "shuffled and unlabelled, identical answers shown once and tied; ratings fitted by "
    "Weng-Lin Plackett-Luce (mu 25, sigma 25/3, beta 25/6, tau 0), one match per ranking in "
    "order asked; Cohen's d over per-match ranks (1 = most believable), d > 0: a more believable"
)


def summarize(matches: Sequence[Match]) -> Believability:
    """The fit, the standings and the effects from the matches (judged ones only)."""
    judged = [m for m in matches if m.judged]
    ratings = fit(m.places() for m in judged)
    ranks: dict[Contestant, list[tuple[int, float]]] = {}
    for n, m in enumerate(judged):
        for c, r in m.ranks().items():
            ranks.setdefault(c, []).append((n, r))
    standings = sorted(
        (
            Standing(c, ratings[c], len(ranks[c]), sum(r for _, r in ranks[c]) / len(ranks[c]))
            for c in Contestant
            if c in ratings
        ),
        key=lambda s: -s.rating.mu,
    )
    effects = []  # each pair once, the higher rated first
    for a, b in combinations([s.contestant for s in standings], 2):
        ra, rb = dict(ranks[a]), dict(ranks[b])
        both = sorted(set(ra) & set(rb))
        d = cohens_d([ra[n] for n in both], [rb[n] for n in both])
        effects.append(Effect(a, b, len(both), d))
    return Believability(tuple(standings), tuple(effects), tuple(matches))


def answers_of(sim, name: str, question: str, minds: Mapping[Contestant, Mind]) -> dict:
    """The resident's answer under each condition (who answered's mark taken off)."""
    snap = sim.agents[name].snapshot(sim.now)
    out = {}
    for c, mind in minds.items():
        text, by = answered.taking(lambda m=mind: ask_snapshot(m, snap, sim.town, question))
        out[c] = unmarked(text, by)
    return out


def rank(sim, judge: Brain, human: Mapping[tuple[str, str], str] | None = None) -> Believability:
    """Interview, judge and fit: the whole of `evaluate --rank` for one save."""
    minds = {
        c: replace(sim.mind, settings=replace(sim.mind.settings, ablation=a))
        for c, a in ABLATIONS.items()
    }
    matches = []
    for name in sorted(sim.agents):
        persona = sim.agents[name].persona
        for _, question in battery_questions(sim, name):
            answers = answers_of(sim, name, question, minds)
            if human and (name, question) in human:
                answers[Contestant.HUMAN] = human[name, question]
            match = setup(sim.config.seed, name, question, answers)
            matches.append(judge_match(judge, persona, match))
    return summarize(matches)


# -- rendered -------------------------------------------------------------------------------


def as_json(b: Believability) -> dict[str, Any]:
    """The report's "believability" section."""
    return {
        "method": METHOD,
        "matches": {"judged": b.judged, "alike": b.alike, "no_verdict": b.no_verdict},
        "conditions": {
            s.contestant.value: {
                "mu": round(s.rating.mu, 4),
                "sigma": round(s.rating.sigma, 4),
                "matches": s.matches,
                "mean_rank": round(s.mean_rank, 4),
            }
            for s in b.standings
        },
        "effects": [
            {
                "a": e.a.value,
                "b": e.b.value,
                "matches": e.matches,
                "cohens_d": None if e.d is None else round(e.d, 4),
            }
            for e in b.effects
        ],  # fmt: skip
        "rankings": [ranking_json(m) for m in b.matches],
    }


def ranking_json(m: Match) -> dict[str, Any]:
    """One match as the judge saw it (labels and words), who gave which, and its order."""
    labels = answer_labels(len(m.shown))
    return {
        "agent": m.agent,
        "question": m.question,
        "shown": dict(zip(labels, m.shown, strict=True)),
        "who": {c.value: labels[i] for c, i in m.entrants},
        "order": [labels[i] for i in m.order],
    }


def table(b: Believability) -> str:
    """The small table printed after a save's summary."""
    lines = [
        f"  believability: {b.judged} rankings by the judge"
        f" ({b.alike} all alike, {b.no_verdict} without a verdict)",
        f"    {'condition':28} {'mu':>7} {'sigma':>6} {'mean rank':>9}",
    ]
    for s in b.standings:
        lines.append(
            f"    {s.contestant.value:28} {s.rating.mu:7.2f} {s.rating.sigma:6.2f}"
            f" {s.mean_rank:9.2f}"
        )
    for e in b.effects:
        d = "n/a" if e.d is None else f"{e.d:+.2f}"
        lines.append(f"    d({e.a.value} over {e.b.value}) = {d} ({e.matches} matches)")
    return "\n".join(lines)
