"""Truth checks: every interview answer `evaluate` collects, its claims checked against the
save.

The paper counted a hallucination where an answer claimed what the agent could not know,
and checked only yes-answers. Here every answer (the battery, each diffusion phrasing and
its follow-up, 'Do you know <name>?') is read for claims of a few typed kinds (`Claim`),
found by the town's own names (its residents, its places, the words of the events its
intents declare) and a small set of cue words that belong to no scenario. Each claim is
checked against what the save holds: the personas (home, household, workplace,
occupation), the event log (who was where, when), the memories' fields (who told whom)
and the clock (has the event ended?). A claim the save does not bear out is
contradicted; an ended event spoken of as still to come is stale.

The truth is fields, never memory text; only the answers, which are brain output, are
read as text. A claim this reading cannot place (a time nobody said, a place the town has
no name for, a window before the log began) is left unchecked rather than guessed.

Three modules: how an answer is read and what it is checked against (`truth_reading`),
the checks of each kind of claim (`truth_checks`), and here, every answer checked and
summed into the report, with the paraphrase consistency beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from game.sim.measures import DiffusionAnswers, know_question
from game.sim.results import (
    Asked,
    ClaimTally,
    Consistency,
    Diffusion,
    PairCase,
    TruthCase,
    TruthCheck,
    Verdict,
)
from game.sim.truth_checks import ABOUT_EVENTS, CHECKS, intents_in, named_intents
from game.sim.truth_reading import (
    PAST,
    Claim,
    Found,
    Names,
    Reading,
    Said,
    Truth,
    clauses,
    day_named,
    mask,
    names_of,
    sentences,
    span_of,
    truth_of,
)
from game.world.scenario import denies

__all__ = [  # the method's parts a caller (evaluate, the tests) reaches for
    "Claim",
    "Found",
    "Names",
    "Said",
    "Truth",
    "check",
    "check_answer",
    "collected",
    "consistency",
    "names_of",
    "summed",
    "truth_of",
]

METHOD = (
    "every answer evaluate collects (the battery, each phrasing and its follow-up, 'Do you "
    "know <name>?' at the end) read for typed claims by the town's own names: lives with, "
    "lives at, works at, occupation (the personas and their households); was at a place at "
    "a time, and a quiet place (the event log); told me (the memories' sources); an event's "
    "host, place, day and time, whether one went (the intents' events and the log), and "
    "its tense (the clock). Contradicted: the save says otherwise; stale: an ended event "
    "spoken of as still to come. Paraphrase consistency: of each resident's pairs of "
    "phrasings, the share whose conversations agree"
)


# -- checking every answer ---------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """One answer and the claims found in it; `speaks_of` the intents whose events it
    names without denying them, `ended` whether any of those has ended."""

    said: Said
    found: tuple[Found, ...]
    speaks_of: frozenset[str]
    ended: bool


def check_answer(said: Said, truth: Truth, names: Names) -> Checked:
    """Every claim of one answer, each checked; the time a clause speaks of carries on to
    the next clauses that name none ('Yesterday, in the morning ...; in the evening ...')."""
    question = mask(said.question, names)
    topic = next((p for p in question.people if p != said.resident), "")
    past = bool(PAST.search(question.tpl))
    asked = span_of(question, truth.now, None, past)
    day = asked.day if asked else None
    found: list[Found] = []
    speaks: set[str] = set()
    carried: tuple[str, ...] = ()
    last = asked
    for sentence in sentences(said.answer):
        for quote in clauses(sentence):
            part = mask(quote, names)
            tense_past = past or bool(PAST.search(part.tpl))
            span = span_of(part, truth.now, day, tense_past)
            if span is not None and day_named(part.plain, truth.now, tense_past)[0]:
                day = span.day
            last = span or last
            reading = Reading(said, truth, names, part, topic, span or last, carried)
            claims = [f for check in CHECKS for f in check(reading)]
            found += claims
            carried = tuple(intents_in(reading))
            if not denies(quote):
                speaks |= set(named_intents(part, names))
                speaks |= {f.intent for f in claims if f.intent and f.kind in ABOUT_EVENTS}
    ended = any(truth.now >= truth.events[i].end for i in speaks)
    return Checked(said, tuple(found), frozenset(speaks), ended)


def collected(
    sim,
    battery: Sequence[tuple[str, str, str]],
    diffusion: DiffusionAnswers,
    acquainted: Mapping[tuple[str, str], str],
) -> list[Said]:
    """Every answer `evaluate` collected, as rows to check: the battery's (resident,
    question, answer), each phrasing's answer and its follow-up's, 'Do you know <name>?'."""
    asks = {q: i.id for i in sim.scenario.intents for q in (*i.questions, i.follow_up) if q}
    rows = [Said(n, Asked.BATTERY, q, a, intent=asks.get(q, "")) for n, q, a in battery]
    for intent_id, phrasings in diffusion.items():
        follow_up = sim.scenario.intent(intent_id).follow_up
        for question, answers in phrasings.items():
            for name, said in sorted(answers.items()):
                rows.append(Said(name, Asked.DIFFUSION, question, said.answer, "", intent_id))
                if follow_up and said.follow_up:
                    rows.append(Said(name, Asked.FOLLOW_UP, follow_up, said.follow_up,
                                     question, intent_id))  # fmt: skip
    for (name, other), answer in sorted(acquainted.items()):
        rows.append(Said(name, Asked.ACQUAINTANCE, know_question(other), answer))
    return rows


def check(sim, rows: Sequence[Said], spread: Mapping[str, Diffusion] | None = None) -> TruthCheck:
    """The truth check of every row, with the paraphrase consistency of the diffusion
    conversations (`spread`, the judged diffusion) beside it."""
    truth, names = truth_of(sim), names_of(sim)
    checked = [check_answer(row, truth, names) for row in rows]
    return summed(checked, consistency(checked, spread or {}))


def summed(checked: Sequence[Checked], agree: Mapping[str, Consistency]) -> TruthCheck:
    cases, tallies = [], {}
    for c in checked:
        for f in c.found:
            n, bad, stale = tallies.get(f.kind, (0, 0, 0))
            tallies[f.kind] = (n + 1, bad + (f.verdict is Verdict.CONTRADICTED),
                               stale + (f.verdict is Verdict.STALE))  # fmt: skip
            if f.verdict is not Verdict.BACKED:
                s = c.said
                cases.append(TruthCase(s.resident, s.asked, s.question, s.answer, f.kind.value,
                                       f.quote, f.verdict, f.why, s.after))  # fmt: skip
    by_asked: dict[str, int] = {}
    for c in checked:
        by_asked[c.said.asked.value] = by_asked.get(c.said.asked.value, 0) + 1
    return TruthCheck(
        METHOD,
        len(checked),
        by_asked,
        sum(c.ended for c in checked),
        tuple(ClaimTally(k.value, *tallies[k]) for k in Claim if k in tallies),
        tuple(cases),
        dict(agree),
    )


# -- paraphrase consistency -----------------------------------------------------------------

_COMPARED = (Claim.HOST, Claim.PLACE, Claim.DAY)


@dataclass(frozen=True)
class Conversation:
    """What one resident said under one phrasing (and its follow-up), for comparing."""

    question: str
    said: str
    knows: bool
    values: Mapping[Claim, frozenset[str]]


def consistency(
    checked: Sequence[Checked], spread: Mapping[str, Diffusion]
) -> dict[str, Consistency]:
    """Per intent: each resident's pairs of phrasings, compatible when both conversations
    show the resident knows the intent or neither does, and no host, place or day one
    names is contradicted by a different one the other names."""
    out = {}
    for intent_id, d in spread.items():
        talks: dict[str, list[Conversation]] = {}
        for p in d.phrasings:
            for reply in p.replies:
                mine = [c for c in checked if c.said.resident == reply.resident
                        and c.said.intent == intent_id
                        and p.question in (c.said.question, c.said.after)]  # fmt: skip
                talks.setdefault(reply.resident, []).append(
                    conversation(p.question, reply.carries, intent_id, mine)
                )
        pairs, same, cases = 0, 0, []
        for name, convs in sorted(talks.items()):
            for a, b in combinations(convs, 2):
                pairs += 1
                why = disagreement(a, b)
                same += not why
                if why:
                    cases.append(PairCase(name, a.question, a.said, b.question, b.said, why))
        out[intent_id] = Consistency(intent_id, pairs, same, tuple(cases))
    return out


def conversation(
    question: str, carries: bool, intent: str, mine: Sequence[Checked]
) -> Conversation:
    said = " / ".join(c.said.answer for c in mine)
    knows = carries or any(intent in c.speaks_of for c in mine)
    values = {k: frozenset(f.value for c in mine for f in c.found
                           if f.kind is k and f.intent == intent and f.value)
              for k in _COMPARED}  # fmt: skip
    return Conversation(question, said, knows, values)


def disagreement(a: Conversation, b: Conversation) -> str:
    """Why two conversations do not agree ('' when they do)."""
    if a.knows != b.knows:
        return "knows of it under one phrasing and not under the other"
    for kind in _COMPARED:
        x, y = a.values[kind], b.values[kind]
        if x and y and not x & y:
            return f"{kind.value}: {', '.join(sorted(x))} against {', '.join(sorted(y))}"
    return ""
