"""WAKE: the morning's summary description, yesterday in a sentence, and the day plan."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from game.brains.questions import Summarize
from game.mind.agent import AgentSnapshot
from game.mind.effects import Woke
from game.mind.jobs.common import Mind, ask_each, base_summary
from game.mind.jobs.planning import plan_query, plan_rest_of_day
from game.mind.jobs.recall import recall, warm
from game.world.town import Town

SUMMARY_TOPICS = (
    "{name}'s core characteristics",
    "{name}'s current daily occupation",
    "{name}'s feeling about {pronoun} recent progress in life",
)


def summary_description(mind: Mind, snap: AgentSnapshot) -> tuple[str, tuple[int, ...]]:
    """Name, age, traits and three retrieved summaries: the paper's cached description."""
    (summary, touched), _ = _summaries(mind, snap, yesterday="")
    return summary, touched


def _summary_topics(snap: AgentSnapshot) -> list[str]:
    return [topic.format(name=snap.persona.name, pronoun="their") for topic in SUMMARY_TOPICS]


def _yesterday_topic(snap: AgentSnapshot) -> str:
    """What to summarise of yesterday ('' on the first morning: nothing happened yet)."""
    if len(snap.memory) <= len(snap.persona.seed_memories()):
        return ""
    yesterday = snap.now - timedelta(days=1)
    return f"what {snap.persona.name} did on {yesterday.strftime('%A %B %d')}"


def _summaries(
    mind: Mind, snap: AgentSnapshot, yesterday: str
) -> tuple[tuple[str, tuple[int, ...]], str]:
    """((description, memories touched), summary of yesterday): the description's
    summaries and yesterday's are independent questions, asked at once."""
    topics = _summary_topics(snap)
    recalled = [recall(mind, snap, [text], k=8) for text in topics]
    asked = [
        Summarize(snap.persona, t, tuple(r))
        for t, (r, _) in zip(topics, recalled, strict=True)
        if r
    ]
    if yesterday:
        records, _ = recall(mind, snap, [yesterday], k=15)
        asked.append(Summarize(snap.persona, yesterday, tuple(records)))
    answers = ask_each(mind, asked)
    said_yesterday = answers.pop() if yesterday else ""
    touched = tuple(dict.fromkeys(i for _, idx in recalled for i in idx))
    lines = dict.fromkeys([base_summary(snap), *answers])  # a summary said twice, once
    return ("\n".join(lines), touched), said_yesterday


def wake_job(mind: Mind, snap: AgentSnapshot, town: Town) -> Woke:
    today = snap.now.date().isoformat()
    topic = _yesterday_topic(snap)
    fresh = snap.summary_day != today or not snap.summary
    warm(mind, [snap], [*(_summary_topics(snap) if fresh else []), topic, plan_query(snap)])
    if fresh:
        (summary, touched), yesterday = _summaries(mind, snap, topic)
    else:
        summary, touched = snap.summary, ()
        yesterday = ask_each(mind, [_yesterday(mind, snap, topic)])[0] if topic else ""
    snap = replace(snap, summary=summary)
    plan, memories, idx = plan_rest_of_day(mind, snap, town, yesterday)
    return Woke(
        snap.name,
        memories,
        tuple(dict.fromkeys(touched + idx)),
        plan=plan,
        summary=summary,
        summary_day=today,
    )


def _yesterday(mind: Mind, snap: AgentSnapshot, topic: str) -> Summarize:
    records, _ = recall(mind, snap, [topic], k=15)
    return Summarize(snap.persona, topic, tuple(records))
