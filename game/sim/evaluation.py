"""The paper's evaluation, built in: interviews, the battery, and end-to-end measures.

Measures are computed from a save (memories and the event log), the way the paper did:
information diffusion from each resident's interview answer, every "yes" checked against
the memory stream for what carried it; mutual-acquaintance network density; party
attendance from the event log; conversation counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from game.core.records import MemoryKind
from game.mind.cognition import interview
from game.sim.events import EventKind
from game.world.town import split

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

# The questions that measure diffusion, one per public seeded intent.
DIFFUSION_QUESTIONS = {
    "party": "Do you know of any party happening in town? Who is hosting it, and when?",
    "election": "Do you know who is running for mayor?",
}
_NEGATIONS = re.compile(
    r"\b(don't know|do not know|haven't heard|have not heard|not sure|no idea|never heard)\b",
    re.IGNORECASE,
)


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
    return interview(sim.mind, sim.agents[name].snapshot(sim.now), sim.town, question)


def run_battery(sim, on_answer: Callable[[dict], None]) -> int:
    count = 0
    for name in sorted(sim.agents):
        for group, question in battery_questions(sim, name):
            on_answer(
                {
                    "agent": name,
                    "group": group,
                    "question": question,
                    "answer": ask(sim, name, question),
                    "game_time": sim.now.isoformat(),
                }
            )
            count += 1
    return count


# -- information diffusion -------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    agent: str
    says_yes: bool
    grounded: bool
    source: str  # what carried it: 'seed', 'conversation with X', 'observation', ''


def _grounding(sim, name: str, intent) -> str:
    """What in the memory stream carries knowledge of an intent ('' if nothing does)."""
    agent = sim.agents[name]
    if any(intent.mentioned_in(t) for t in agent.persona.seed_memories()):
        return "seed"
    for i in range(len(agent.memory)):
        record = agent.memory.record(i)
        if not intent.mentioned_in(record.text):
            continue
        if record.kind is MemoryKind.CHAT and record.heard_from:
            return f"conversation with {record.heard_from}"
        if record.kind is MemoryKind.OBSERVATION:
            return "observation"
    return ""


def diffusion(sim, answers: dict[tuple[str, str], str] | None = None) -> dict[str, Any]:
    """For each public intent: who says they know (interview), and whether memory backs it."""
    out: dict[str, Any] = {}
    for intent in sim.scenario.intents:
        if intent.private or intent.id not in DIFFUSION_QUESTIONS:
            continue
        question = DIFFUSION_QUESTIONS[intent.id]
        claims = []
        for name in sorted(sim.agents):
            answer = (answers or {}).get((intent.id, name)) or ask(sim, name, question)
            yes = intent.mentioned_in(answer) and not _NEGATIONS.search(answer)
            source = _grounding(sim, name, intent)
            claims.append(Claim(name, yes, bool(source), source))
        knowers = [c.agent for c in claims if c.says_yes]
        start = [
            n
            for n in sorted(sim.agents)
            if any(intent.mentioned_in(t) for t in sim.agents[n].persona.seed_memories())
        ]
        out[intent.id] = {
            "question": question,
            "start": len(start),
            "end": len(knowers),
            "percent_end": round(100 * len(knowers) / max(1, len(sim.agents)), 1),
            "knowers": knowers,
            "carried_by": {c.agent: c.source for c in claims if c.says_yes},
            "ungrounded": [c.agent for c in claims if c.says_yes and not c.grounded],
        }
    return out


def diffusion_curve(sim, intent_id: str) -> list[tuple[str, int]]:
    """(game time, residents who know) at each first mention in a memory stream."""
    intent = sim.scenario.intent(intent_id)
    firsts = []
    for agent in sim.agents.values():
        times = [
            agent.memory.record(i).created
            for i in range(len(agent.memory))
            if intent.mentioned_in(agent.memory.text(i))
        ]
        if times:
            firsts.append(min(times))
    firsts.sort()
    return [(t.isoformat(), i + 1) for i, t in enumerate(firsts)]


# -- the relationship network -----------------------------------------------------------


def acquaintances_at_start(sim) -> set[tuple[str, str]]:
    """Directed 'a knows b' from the scenario's relationships."""
    return {
        (a.name, other)
        for a in (x.persona for x in sim.agents.values())
        for other, _ in a.relationships
    }


def acquaintances_now(sim) -> set[tuple[str, str]]:
    """'a knows b' if a started knowing b or has talked with b (a conversation in memory)."""
    known = set(acquaintances_at_start(sim))
    for name, agent in sim.agents.items():
        for i in range(len(agent.memory)):
            record = agent.memory.record(i)
            if record.kind is MemoryKind.CHAT and record.heard_from in sim.agents:
                known.add((name, record.heard_from))
    return known


def density(names: list[str], knows: set[tuple[str, str]]) -> dict[str, Any]:
    """Mutual acquaintance: an edge where each knows the other; 2|E| / (|V| (|V| - 1))."""
    edges = {tuple(sorted((a, b))) for a, b in knows if a != b and (b, a) in knows}
    edges = {e for e in edges if e[0] in names and e[1] in names}
    n = len(names)
    value = 2 * len(edges) / (n * (n - 1)) if n > 1 else 0.0
    return {"density": round(value, 4), "edges": sorted(list(e) for e in edges)}


# -- party attendance -------------------------------------------------------------------


def presence(sim, place: str, start: datetime, end: datetime) -> list[str]:
    """Who had an action at `place` overlapping [start, end), from the event log."""
    intervals: dict[str, list[tuple[datetime, str]]] = {}
    for event in sim.log.of(EventKind.ACTION):
        intervals.setdefault(event.agent, []).append((event.time, event.data.get("address", "")))
    there = []
    for agent, actions in intervals.items():
        actions.sort(key=lambda a: a[0])
        ends = [t for t, _ in actions[1:]] + [sim.now]
        for (begin, address), until in zip(actions, ends, strict=True):
            if address and split(address)[0] == place and begin < end and until > start:
                there.append(agent)
                break
    return sorted(there)


def attendance(sim) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for intent in sim.scenario.intents:
        event = intent.event
        if event is None:
            continue
        invited = []
        for name, agent in sorted(sim.agents.items()):
            heard = [
                agent.memory.record(i).created
                for i in range(len(agent.memory))
                if intent.mentioned_in(agent.memory.text(i))
            ]
            if name != intent.holder and heard and min(heard) < event.start:
                invited.append(name)
        present = presence(sim, event.place, event.start, event.end)
        out[intent.id] = {
            "place": event.place,
            "start": event.start.isoformat(),
            "end": event.end.isoformat(),
            "happened": sim.now >= event.end,
            "invited": invited,
            "attended": present,
            "invited_who_came": sorted(set(invited) & set(present)),
        }
    return out


# -- the whole evaluation -----------------------------------------------------------------


def evaluate(sim) -> dict[str, Any]:
    names = sorted(sim.agents)
    spread = diffusion(sim)
    ungrounded = sum(len(v["ungrounded"]) for v in spread.values())
    claims = sum(v["end"] for v in spread.values())
    talks = [e for e in sim.log.of(EventKind.CONVERSATION) if not e.data.get("visitor")]
    return {
        "game_time": sim.now.isoformat(),
        "residents": len(names),
        "information_diffusion": spread,
        "network_density": {
            "start": density(names, acquaintances_at_start(sim))["density"],
            "end": density(names, acquaintances_now(sim))["density"],
        },
        "party_attendance": attendance(sim),
        "hallucinations": {
            "ungrounded_claims": ungrounded,
            "claims": claims,
            "rate": round(ungrounded / claims, 4) if claims else 0.0,
        },
        "conversations": {
            "total": len(talks),
            "per_day": _per_day(talks),
        },
        "diffusion_curve": {i: diffusion_curve(sim, i) for i in spread},
    }


def _per_day(events) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in events:
        day = e.time.date().isoformat()
        out[day] = out.get(day, 0) + 1
    return out


def network_edges(sim) -> tuple[list[list[str]], list[list[str]]]:
    names = sorted(sim.agents)
    return (
        density(names, acquaintances_at_start(sim))["edges"],
        density(names, acquaintances_now(sim))["edges"],
    )
