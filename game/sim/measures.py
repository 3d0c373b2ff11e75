"""The paper's end-to-end measures, each computed by one function and labelled by its method.

The run report, `evaluate`, the study and the chart all take a measure from here, so one
figure is never counted two ways. What a resident knows, whom it heard it from, whom it
was invited by and what it answered come from the typed fields of its memories
(`fact.intent`, `fact.heard_from`, `fact.invited`, `fact.rsvp`); only interview answers,
which are brain output, are read as text (by game/sim/judge.py). Each measure is a typed
result (game/sim/results.py); its JSON is rendered from it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from game.brains.protocol import Brain
from game.core.records import Event, FactKind, MemoryKind, MemoryRecord, Rsvp, Source
from game.mind import facts
from game.sim.events import EventKind
from game.sim.judge import (
    Verdict,
    claimed_host,
    claimed_source,
    claims_acquaintance,
    keyword_verdict,
    model_verdict,
    named_times,
)
from game.sim.results import (
    Attendance,
    Case,
    Conversations,
    Diffusion,
    Hallucinations,
    Knowledge,
    Network,
    Networks,
    Phrasing,
    Reply,
)
from game.world.scenario import Intent, denies
from game.world.town import split

MEMORY_METHOD = "memory: residents holding a memory tagged with the intent (fact.intent)"
INTERVIEW_METHOD = (
    "interview: each of the intent's phrasings, in a conversation with its follow-up; a "
    "resident knows it under a phrasing when either answer passes the rubric ({judge}); "
    "end is the median over the phrasings, spread their min and max"
)
NETWORK_METHOD = "interview: 'Do you know <name>?' asked of every pair; an edge if both say yes"
PROXY_METHOD = "memory proxy: seed relationships plus residents talked with"
HALLUCINATION_METHOD = (
    "every judged yes (each phrasing's answer or follow-up answer that passes the rubric) "
    "checked against memory (the claimed source told them, the named host and times match "
    "what they heard) and every claimed acquaintance against some memory of that person"
)
ATTENDANCE_METHOD = (
    "invited: invited by the host, or heard of it and accepted (fact.invited, fact.rsvp); "
    "attended: at the venue 30+ minutes of the window (event log), doing something for the "
    "event, whatever they answered"
)
MIN_PRESENCE = timedelta(minutes=30)


def public_intents(sim) -> list[Intent]:
    return [i for i in sim.scenario.intents if not i.private]


def records(agent) -> list[MemoryRecord]:
    return [agent.memory.record(i) for i in range(len(agent.memory))]


def tagged(agent, intent_id: str) -> list[MemoryRecord]:
    """The resident's memories about an intent, by field."""
    return [r for r in records(agent) if r.fact.intent == intent_id]


# -- knowledge in memory (the run report and the chart's curve) -------------------------------


def seed_knowers(sim, intent: Intent) -> list[str]:
    """Residents whose seed paragraph states the intent (as the seed job tags it)."""
    intents = sim.scenario.intents
    return sorted(
        name
        for name, agent in sim.agents.items()
        if any(
            facts.seed(agent.persona, s, intents).intent == intent.id
            for s in agent.persona.seed_memories()
        )
    )


def memory_knowers(sim, intent_id: str) -> list[str]:
    return sorted(name for name, agent in sim.agents.items() if tagged(agent, intent_id))


def memory_curve(sim, intent_id: str) -> list[tuple[str, int]]:
    """(game time, residents who know) at each resident's first tagged memory."""
    firsts = sorted(
        min(r.created for r in t) for a in sim.agents.values() if (t := tagged(a, intent_id))
    )
    return [(t.isoformat(), i + 1) for i, t in enumerate(firsts)]


def knowledge(sim) -> dict[str, Knowledge]:
    """Who knows each public intent by memory: the run report's `knowledge`."""
    return {
        i.id: Knowledge(i.id, MEMORY_METHOD, len(seed_knowers(sim, i)),
                        tuple(memory_knowers(sim, i.id)), tuple(memory_curve(sim, i.id)))
        for i in public_intents(sim)
    }  # fmt: skip


# -- diffusion by judged interview ------------------------------------------------------------


def carried_by(agent, intent_id: str) -> str:
    """What first brought the intent into the resident's memory."""
    found = tagged(agent, intent_id)
    if not found:
        return ""
    fact = min(found, key=lambda r: r.created).fact
    if fact.source is Source.SEED:
        return "seed"
    if fact.source is Source.HEARD and fact.heard_from:
        return f"heard from {fact.heard_from}"
    if fact.source is Source.VISITOR:
        return f"the visitor {fact.heard_from}"
    return fact.source.value


@dataclass(frozen=True)
class Answered:
    """What one resident said in one diffusion conversation: to the phrasing, then to the
    follow-up ('' when the intent has none)."""

    answer: str
    follow_up: str = ""


# intent id -> phrasing -> resident -> what they said
DiffusionAnswers = Mapping[str, Mapping[str, Mapping[str, Answered]]]


def reply(
    intent: Intent,
    question: str,
    name: str,
    said: Answered,
    brain: Brain | None = None,
    now: datetime | None = None,
) -> Reply:
    """One conversation judged: it carries the fact when the first answer passes the rubric
    (keyword judge), or the follow-up's does and leans on a first answer that knew of it;
    the model, when given, judges the same answers beside it."""
    first = keyword_verdict(intent, dated(said.answer, intent, now), name)
    asked = [("answer", question, said.answer)]
    if intent.follow_up and said.follow_up and leans(intent, said.answer, first):
        asked.append(("follow_up", intent.follow_up, said.follow_up))
    verdicts = [
        (which, keyword_verdict(intent, dated(text, intent, now), name)) for which, _, text in asked
    ]
    carrying = tuple(which for which, v in verdicts if v.carries)
    missing = min((v.missing for _, v in verdicts), key=len)
    model = None
    if brain is not None:
        model = any(model_verdict(brain, intent, name, text, q) for _, q, text in asked)
    return Reply(name, said.answer, said.follow_up, bool(carrying), missing, model, carrying)


# words that name a day by the day they are said on, and how many days from it
RELATIVE_DAYS = (
    (re.compile(r"\b(?:yesterday|last night)\b", re.I), -1),
    (re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", re.I), 0),
    (re.compile(r"\btomorrow\b", re.I), 1),
)


def dated(answer: str, intent: Intent, now: datetime | None) -> str:
    """The answer with the event's date put beside a day it names relative to when it was
    said ('yesterday evening' the morning after: '... (February 14, Tuesday)'), so the
    rubric's dates find it; a relative day that is another day adds nothing."""
    event = intent.event
    if event is None or now is None:
        return answer
    day = event.start.date()
    for pattern, offset in RELATIVE_DAYS:
        if (now + timedelta(days=offset)).date() == day and pattern.search(answer):
            return f"{answer} ({event.start:%B} {day.day}, {event.start:%A})"
    return answer


def leans(intent: Intent, answer: str, verdict: Verdict) -> bool:
    """Whether a first answer knew something of the intent for the follow-up to complete:
    it names a part of the rubric ('Yes, at Hobbs Cafe'), or the intent's words without
    denying it ('a party, I think'). 'No idea' followed by a full answer to a self-contained
    follow-up is the phrasing failing, not the resident knowing."""
    parts = len(intent.rubric.parts)
    return len(verdict.missing) < parts or (intent.mentioned_in(answer) and not _denies(answer))


def judge_answers(
    intent: Intent, answers: Mapping[str, str], brain: Brain | None = None
) -> dict[str, Verdict]:
    """The keyword verdict on every answer, and the model's beside it when `brain` is given."""
    out = {}
    for name, answer in sorted(answers.items()):
        verdict = keyword_verdict(intent, answer, name)
        if brain is not None:
            verdict = Verdict(
                verdict.carries, verdict.missing, model_verdict(brain, intent, name, answer)
            )
        out[name] = verdict
    return out


def loosely(intent: Intent, said: Answered) -> bool:
    """The old count: an answer mentions a keyword and denies nothing."""
    text = f"{said.answer} {said.follow_up}"
    return intent.mentioned_in(text) and not _denies(text)


def diffusion(sim, answers: DiffusionAnswers, brain: Brain | None = None) -> dict[str, Diffusion]:
    """Per interviewed intent and phrasing: who carries the fact in their answers (judged),
    beside the old lenient count (answers that mention a keyword and deny nothing)."""
    out: dict[str, Diffusion] = {}
    judge = "keyword" if brain is None else "keyword, and a model beside it"
    for intent in public_intents(sim):
        if not intent.questions:
            continue
        given = answers.get(intent.id, {})
        phrasings = []
        for question in intent.questions:
            said = given.get(question, {})
            replies = tuple(
                reply(intent, question, n, said[n], brain, sim.now) for n in sorted(said)
            )
            loose = sum(loosely(intent, a) for a in said.values())
            phrasings.append(Phrasing(question, replies, loose))
        asked = sorted({r.resident for p in phrasings for r in p.replies})
        out[intent.id] = Diffusion(
            intent.id,
            INTERVIEW_METHOD.format(judge=judge),
            intent.follow_up,
            tuple(p.what for p in intent.rubric.parts),
            len(sim.agents),
            len(seed_knowers(sim, intent)),
            tuple(phrasings),
            {n: carried_by(sim.agents[n], intent.id) for n in asked},
            intent.paper.diffusion,
        )
    return out


def _denies(answer: str) -> bool:
    return denies(answer)


# -- hallucinations: every yes against memory -------------------------------------------------


def _heard_events(agent, intent: Intent) -> list[Event]:
    events = [r.fact.event for r in tagged(agent, intent.id) if r.fact.event is not None]
    if agent.name == intent.holder and intent.event is not None:
        events.append(intent.event)
    return events


def _minutes(when: datetime) -> int:
    return when.hour * 60 + when.minute


def check_yes(sim, name: str, intent: Intent, answer: str) -> list[str]:
    """Why a judged yes is not backed by memory ([] when it is): no memory of it, a claimed
    source that never told them, or a host or time other than what they heard."""
    agent = sim.agents[name]
    mine = tagged(agent, intent.id)
    if not mine and name != intent.holder:
        return ["no memory carries it"]
    answer = about_intent(answer, intent, sim.scenario.intents)
    why = []
    source = claimed_source(answer, sim.agents, name)
    if source and not any(r.fact.heard_from == source for r in mine):
        why.append(f"says {source} told them; no memory heard from {source} carries it")
    events = _heard_events(agent, intent)
    for t in named_times(answer):
        if events and not any(_minutes(e.start) <= t <= _minutes(e.end) for e in events):
            why.append(f"names {t // 60:02d}:{t % 60:02d}, outside the times they heard")
    host = claimed_host(answer, sim.agents, event_nouns(intent))
    hosts = {e.host or intent.holder for e in events}
    if host and events and host not in hosts:
        why.append(f"names {host} as host; they heard {', '.join(sorted(hosts))}")
    return why


def about_intent(answer: str, intent: Intent, intents: Sequence[Intent] = ()) -> str:
    """The sentences of an answer that name the intent (its nouns), so a source or a time
    said of other news in the same answer ('Also, Tom told me that Jane wants volunteers')
    is not checked against this intent; else those naming no other intent ('She's hosting
    it at 5'); else the whole answer."""
    sentences = re.split(r"(?<=[.!?])\s+", answer)

    def names(s: str, i: Intent) -> bool:
        return any(w.lower() in s.lower() for w in event_nouns(i) if w)

    said = [s for s in sentences if names(s, intent)]
    said = said or [s for s in sentences if not any(names(s, i) for i in intents if i != intent)]
    return " ".join(said) or answer


def event_nouns(intent: Intent) -> tuple[str, ...]:
    """What an answer may call the intent after its host's name ("Tom's chili cook-off"):
    its keywords and the last word of its event's name."""
    what = intent.event.what.split() if intent.event is not None else []
    return (*intent.keywords, *what[-1:])


def knows_of_in_memory(agent, other: str) -> bool:
    """Some memory of that person exists (the persona's relationships are seed memories)."""
    if agent.persona.relation_to(other) is not None:
        return True
    for r in records(agent):
        f = r.fact
        if other in (f.subject, f.heard_from) or other in f.participants:
            return True
        if other in f.object:  # 'Carlos Gomez is talking with Giorgio Rossi'
            return True
    return False


def hallucinations(
    sim, spread: Mapping[str, Diffusion], acquainted: Mapping[tuple[str, str], str]
) -> Hallucinations:
    """The paper's check, both ways: every diffusion yes, and every 'yes, I know them'."""
    cases = []
    yes = 0
    for intent_id, d in spread.items():
        intent = sim.scenario.intent(intent_id)
        for p in d.phrasings:
            for r in p.replies:
                for which in r.carrying:
                    yes += 1
                    follow = which == "follow_up"
                    answer = r.follow_up if follow else r.answer
                    question = intent.follow_up if follow else p.question
                    after = p.question if follow else ""
                    for why in check_yes(sim, r.resident, intent, answer):
                        cases.append(Case(r.resident, question, answer, why, after))
    claims = 0
    for (name, other), answer in sorted(acquainted.items()):
        if not claims_acquaintance(answer):
            continue
        claims += 1
        if not knows_of_in_memory(sim.agents[name], other):
            cases.append(Case(name, know_question(other), answer, f"no memory of {other}"))
    return Hallucinations(HALLUCINATION_METHOD, yes, claims, tuple(cases))


def know_question(other: str) -> str:
    return f"Do you know {other}?"


# -- the acquaintance network -----------------------------------------------------------------


def density(names: Sequence[str], knows: set[tuple[str, str]]) -> dict[str, Any]:
    """Mutual acquaintance: an edge where each knows the other; 2|E| / (|V| (|V| - 1))."""
    edges = {tuple(sorted((a, b))) for a, b in knows if a != b and (b, a) in knows}
    edges = {e for e in edges if e[0] in names and e[1] in names}
    n = len(names)
    value = 2 * len(edges) / (n * (n - 1)) if n > 1 else 0.0
    return {"density": round(value, 4), "edges": sorted(list(e) for e in edges)}


def claimed(answers: Mapping[tuple[str, str], str]) -> set[tuple[str, str]]:
    return {pair for pair, answer in answers.items() if claims_acquaintance(answer)}


def acquaintances_at_start(sim) -> set[tuple[str, str]]:
    """Directed 'a knows b' from the scenario's relationships (the proxy at the start)."""
    return {
        (a.name, other)
        for a in (x.persona for x in sim.agents.values())
        for other, _ in a.relationships
    }


def acquaintances_now(sim) -> set[tuple[str, str]]:
    """The proxy: 'a knows b' if a started knowing b or has a conversation with b in memory."""
    known = set(acquaintances_at_start(sim))
    for name, agent in sim.agents.items():
        for r in records(agent):
            if r.kind is MemoryKind.CHAT and r.fact.heard_from in sim.agents:
                known.add((name, r.fact.heard_from))
    return known


def network(method: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> Network:
    """Two `density` results as one typed network."""
    return Network(method, before["density"], after["density"],
                   tuple(tuple(e) for e in before["edges"]),
                   tuple(tuple(e) for e in after["edges"]))  # fmt: skip


def networks(
    sim, start: Mapping[tuple[str, str], str], end: Mapping[tuple[str, str], str]
) -> Networks:
    """Both networks, labelled: the interviews' (the paper's) and the memory proxy."""
    names = sorted(sim.agents)
    interviews = network(
        NETWORK_METHOD, density(names, claimed(start)), density(names, claimed(end))
    )
    proxy = network(
        PROXY_METHOD,
        density(names, acquaintances_at_start(sim)),
        density(names, acquaintances_now(sim)),
    )
    return Networks(interviews, proxy)


# -- attendance -------------------------------------------------------------------------------


def rsvp(agent, intent_id: str) -> Rsvp | None:
    """The resident's latest own answer to the event."""
    answers = [r for r in tagged(agent, intent_id) if r.fact.rsvp is not None]
    return max(answers, key=lambda r: (r.created, r.index)).fact.rsvp if answers else None


def invited_by(agent, intent: Intent, host: str) -> bool:
    return any(
        r.fact.kind is FactKind.CLAIM and r.fact.invited and r.fact.heard_from == host
        for r in tagged(agent, intent.id)
    )


def time_at(sim, name: str, place: str, start: datetime, end: datetime) -> timedelta:
    """How long the resident's actions were at `place` within [start, end), from the log."""
    actions = sorted(
        (e.time, e.data.get("address", "")) for e in sim.log.of(EventKind.ACTION) if e.agent == name
    )
    total = timedelta()
    ends = [t for t, _ in actions[1:]] + [sim.now] if actions else []
    for (begin, address), until in zip(actions, ends, strict=True):
        if address and split(address)[0] == place:
            total += max(timedelta(), min(until, end) - max(begin, start))
    return total


def did_event_things(agent, intent: Intent, event: Event) -> bool:
    """An action of its own, for the event, during it (a plan item tagged with the intent)."""
    return any(
        r.fact.kind is FactKind.DOING
        and r.fact.source is Source.SELF
        and event.start - timedelta(hours=1) <= r.created < event.end
        for r in tagged(agent, intent.id)
    )


def attendance(sim) -> dict[str, Attendance]:
    """Per event: who was invited, what each answered, and who came. Coming is counted by
    presence and by doing the event's things, not by the answer: a resident who said
    'maybe' (or 'no') and then spent the evening at the event attended it."""
    out: dict[str, Attendance] = {}
    for intent in sim.scenario.intents:
        event = intent.event
        if event is None:
            continue
        host = event.host or intent.holder
        guests = [(n, a) for n, a in sorted(sim.agents.items()) if n != host]
        answer = {n: rsvp(a, intent.id) for n, a in guests}
        direct = [n for n, a in guests if invited_by(a, intent, host)]
        invited = sorted(set(direct) | {n for n, r in answer.items() if r is Rsvp.ACCEPTED})
        present = [
            n
            for n, _ in guests
            if time_at(sim, n, event.place, event.start, event.end) >= MIN_PRESENCE
        ]
        attended = [n for n in present if did_event_things(sim.agents[n], intent, event)]
        out[intent.id] = Attendance(
            intent.id,
            ATTENDANCE_METHOD,
            event.place,
            event.start.isoformat(),
            event.end.isoformat(),
            host,
            sim.now >= event.end,
            tuple(invited),
            tuple(direct),
            tuple(sorted(n for n, r in answer.items() if r is Rsvp.ACCEPTED)),
            tuple(sorted(n for n, r in answer.items() if r is Rsvp.MAYBE)),
            tuple(sorted(n for n, r in answer.items() if r is Rsvp.DECLINED)),
            tuple(attended),
            tuple(n for n in present if n not in attended),
            intent.paper,
        )
    return out


# -- conversations ----------------------------------------------------------------------------


def conversations(sim) -> Conversations:
    talks = [e for e in sim.log.of(EventKind.CONVERSATION) if not e.data.get("visitor")]
    per_day: dict[str, int] = {}
    for e in talks:
        day = e.time.date().isoformat()
        per_day[day] = per_day.get(day, 0) + 1
    return Conversations("event log: conversations between residents", len(talks), per_day)
