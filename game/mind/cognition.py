"""The paper's cognition, as jobs: pure functions from a snapshot to a Decision.

Each job runs on a worker thread. It reads an AgentSnapshot and a Surroundings (both
immutable), asks the brain, and returns a Decision; it never mutates an agent, a memory
stream or the town. The simulation applies Decisions on its own thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import Enum

import numpy as np

from game.brains.protocol import AgentContext, Brain, Embedder
from game.core.clock import fmt_datetime, minute_of_day
from game.core.records import (
    MemoryKind,
    MemoryRecord,
    Observation,
    PlanItem,
    ReactionKind,
    Utterance,
)
from game.core.settings import Ablation, MindSettings, RetrievalSettings
from game.mind.agent import Action, ActionKind, AgentSnapshot, Conversation
from game.mind.plan import DayPlan, fit_day, fit_to_span
from game.mind.retrieval import retrieve
from game.world.roles import Role
from game.world.town import SEP, AreaKind, Town, split


class JobKind(Enum):
    SEED = "seed"
    WAKE = "wake"
    PERCEIVE = "perceive"
    NEXT_ACTION = "next_action"
    REFLECT = "reflect"
    CONVERSE = "converse"
    VISITOR = "visitor"
    INNER_VOICE = "inner_voice"


@dataclass(frozen=True)
class NewMemory:
    kind: MemoryKind
    text: str
    importance: int
    embedding: np.ndarray
    source: str = ""
    evidence: tuple[int, ...] = ()


@dataclass(frozen=True)
class Decision:
    """What a job decided for one agent; applied by the simulation at a step boundary."""

    agent: str
    job: JobKind
    memories: tuple[NewMemory, ...] = ()
    touched: tuple[int, ...] = ()
    plan: DayPlan | None = None
    action: Action | None = None
    talk_to: str = ""
    summary: str | None = None
    summary_day: str = ""
    woke: bool = False
    seeded: bool = False
    reflected: bool = False
    conversation: Conversation | None = None
    reply: Utterance | None = None  # a line said to the visitor
    note: str = ""


@dataclass(frozen=True)
class Surroundings:
    """The world as a job may read it: the immutable town plus a copy of what changes."""

    town: Town
    states: Mapping[str, str]
    occupancy: Mapping[str, int]  # agents in or heading to each sector / arena / object
    self_targets: Mapping[str, str] = field(default_factory=dict)  # agent -> its target


@dataclass(frozen=True)
class Mind:
    """The things every job needs besides the snapshot."""

    brain: Brain
    embedder: Embedder
    settings: MindSettings


# -- shared helpers ----------------------------------------------------------------


def _embed(mind: Mind, texts: Sequence[str]) -> np.ndarray:
    return mind.embedder.embed(list(texts)) if texts else np.zeros((0, mind.embedder.dim))


def new_memories(
    mind: Mind,
    snap: AgentSnapshot,
    kind: MemoryKind,
    texts: Sequence[str],
    source: str = "",
    evidence: Sequence[tuple[int, ...]] = (),
) -> tuple[NewMemory, ...]:
    """Rate and embed a batch of memory texts in one call each."""
    if not texts:
        return ()
    scores = mind.brain.rate_importance(snap.persona, list(texts))
    vectors = _embed(mind, texts)
    ev = list(evidence) or [()] * len(texts)
    return tuple(
        NewMemory(kind, t, max(1, min(10, int(s))), v, source, e)
        for t, s, v, e in zip(texts, scores, vectors, ev, strict=True)
    )


def recall(
    mind: Mind,
    snap: AgentSnapshot,
    queries: Sequence[str],
    k: int = 10,
    settings: RetrievalSettings | None = None,
) -> tuple[list[MemoryRecord], tuple[int, ...]]:
    """Retrieve for several queries, merged best-first without repeats."""
    if not mind.settings.ablation.memory or len(snap.memory) == 0 or not queries:
        return [], ()
    vectors = _embed(mind, queries)
    kinds = allowed_kinds(mind.settings.ablation)
    chosen: list[int] = []
    for vec in vectors:
        chosen_settings = settings or mind.settings.retrieval
        for i in retrieve(snap.memory, vec, snap.now, chosen_settings, k=k, kinds=kinds):
            if i not in chosen:
                chosen.append(i)
    return snap.memory.records(chosen), tuple(chosen)


def allowed_kinds(ablation: Ablation) -> tuple[MemoryKind, ...] | None:
    """The paper's ablations: without reflection (or planning) those memories are not
    retrieved, so a save made with the full architecture can be interviewed without them."""
    kinds = [
        k
        for k in MemoryKind
        if (ablation.reflection or k is not MemoryKind.REFLECTION)
        and (ablation.planning or k is not MemoryKind.PLAN)
    ]
    return None if len(kinds) == len(MemoryKind) else tuple(kinds)


def context(snap: AgentSnapshot, town: Town, memories: Sequence[MemoryRecord] = ()) -> AgentContext:
    known = tuple(a for a in sorted(snap.known) if a and SEP not in a and a in town.areas)
    return AgentContext(
        persona=snap.persona,
        now=snap.now,
        summary=snap.summary or base_summary(snap),
        location=snap.location,
        status=snap.status,
        memories=tuple(memories),
        known_places=known,
        sectors=tuple(town.sectors()),
    )


def base_summary(snap: AgentSnapshot) -> str:
    p = snap.persona
    return (
        f"Name: {p.name} (age: {p.age})\nInnate traits: {', '.join(p.traits)}\n"
        f"{p.name} is {p.occupation}."
    )


def next_time(after: datetime, minute: int) -> datetime:
    """The first datetime at or after `after` whose time of day is `minute`."""
    day = after.replace(hour=0, minute=0, second=0, microsecond=0)
    when = day + timedelta(minutes=minute)
    return when if when >= after else when + timedelta(days=1)


# -- SEED: the seed paragraph becomes the first memories ------------------------------


def seed_job(mind: Mind, snap: AgentSnapshot) -> Decision:
    texts = snap.persona.seed_memories() if mind.settings.ablation.memory else []
    memories = new_memories(mind, snap, MemoryKind.OBSERVATION, texts)
    return Decision(snap.name, JobKind.SEED, memories=memories, seeded=True)


# -- WAKE: the summary description and the day plan -----------------------------------

SUMMARY_TOPICS = (
    "{name}'s core characteristics",
    "{name}'s current daily occupation",
    "{name}'s feeling about {pronoun} recent progress in life",
)


def summary_description(mind: Mind, snap: AgentSnapshot) -> tuple[str, tuple[int, ...]]:
    """Name, age, traits and three retrieved summaries: the paper's cached description."""
    p = snap.persona
    parts, touched = [base_summary(snap)], []
    for topic in SUMMARY_TOPICS:
        text = topic.format(name=p.name, pronoun="their")
        records, idx = recall(mind, snap, [text], k=8)
        touched.extend(idx)
        if records:
            parts.append(mind.brain.summarize(p, text, records))
    return "\n".join(parts), tuple(dict.fromkeys(touched))


def wake_job(mind: Mind, snap: AgentSnapshot, town: Town) -> Decision:
    p, now = snap.persona, snap.now
    today = now.date().isoformat()
    summary, touched = snap.summary, ()
    if snap.summary_day != today or not summary:
        summary, touched = summary_description(mind, snap)
    snap = replace(snap, summary=summary)
    yesterday = ""
    if len(snap.memory) > len(p.seed_memories()):
        prev = (now - timedelta(days=1)).strftime("%A %B %d")
        records, _ = recall(mind, snap, [f"what {p.name} did on {prev}"], k=15)
        yesterday = mind.brain.summarize(p, f"what {p.name} did on {prev}", records)
    plan, memories, idx = plan_rest_of_day(mind, snap, town, yesterday)
    return Decision(
        snap.name,
        JobKind.WAKE,
        memories=memories,
        touched=tuple(dict.fromkeys(touched + idx)),
        plan=plan,
        summary=summary,
        summary_day=today,
        woke=True,
    )


def plan_rest_of_day(
    mind: Mind,
    snap: AgentSnapshot,
    town: Town,
    yesterday: str = "",
    extra: Sequence[MemoryRecord] = (),
) -> tuple[DayPlan, tuple[NewMemory, ...], tuple[int, ...]]:
    """A broad plan from now until bedtime, stored in memory as the paper does.
    `extra` are memories not yet in the stream that the plan must take into account."""
    p, now = snap.persona, snap.now
    records, idx = recall(mind, snap, [f"{p.name}'s plans and events for {fmt_datetime(now)}"])
    records = [*extra, *records]
    sleep_at = next_time(now + timedelta(minutes=30), p.sleep)
    planning = mind.settings.ablation.planning
    items = mind.brain.plan_day(context(snap, town, records), yesterday, now) if planning else []
    items = [i for i in items if i.start < sleep_at]
    today = now.date().isoformat()
    plan = DayPlan(today, tuple(fit_day(items, now, sleep_at))) if items else DayPlan(today)
    texts = [f"{p.name}'s plan for {now.strftime('%A %B %d')}: " + "; ".join(plan.lines())]
    memories = new_memories(mind, snap, MemoryKind.PLAN, texts) if items else ()
    return plan, memories, idx


# -- NEXT_ACTION: decompose just in time, then choose where -----------------------------


def is_staff(snap: AgentSnapshot, sector: str) -> bool:
    """Staff and residents may be in their own places outside opening hours."""
    return sector in (snap.persona.workplace, snap.persona.home)


def _has_room(world: Surroundings, snap: AgentSnapshot, address: str) -> bool:
    area = world.town.areas[address]
    if area.capacity is None:
        return True
    mine = world.self_targets.get(snap.name, "")
    already = 1 if mine == address or mine.startswith(address + SEP) else 0
    return world.occupancy.get(address, 0) - already < area.capacity


def sector_options(snap: AgentSnapshot, world: Surroundings) -> list[str]:
    """Known sectors that are open to this agent now and not full."""
    town, minute = world.town, minute_of_day(snap.now)
    names = [snap.persona.home, snap.persona.workplace or ""]
    names += sorted(a for a in snap.known if a and SEP not in a)
    out = []
    for name in dict.fromkeys(names):
        area = town.areas.get(name)
        if area is None or area.kind is not AreaKind.SECTOR:
            continue
        if (is_staff(snap, name) or area.is_open(minute)) and _has_room(world, snap, name):
            out.append(name)
    return out


def _child_options(snap: AgentSnapshot, world: Surroundings, parent: str) -> list[str]:
    kids = [k.address for k in world.town.children(parent)]
    known = [k for k in kids if k in snap.known] or kids
    return [world.town.areas[k].name for k in known if _has_room(world, snap, k)]


def _ask(
    mind: Mind,
    ctx: AgentContext,
    description: str,
    level: AreaKind,
    options: list[str],
    current: str,
    hint: str,
    roles: Mapping[str, Role | None],
) -> str:
    """One level of the tree walk; an answer outside the options falls back to the first."""
    if len(options) == 1:
        return options[0]
    choice = mind.brain.choose_area(ctx, description, level, options, current, hint, roles)
    return choice if choice in options else options[0]


def ground(
    mind: Mind, snap: AgentSnapshot, world: Surroundings, description: str, hint: str
) -> str:
    """Walk the agent's own tree from the root: sector, then arena, then object."""
    ctx = context(snap, world.town)
    here = split(snap.location)
    sectors = sector_options(snap, world) or [snap.persona.home]
    roles = _roles(world.town, "", sectors)
    sector = _ask(mind, ctx, description, AreaKind.SECTOR, sectors, _part(here, 0), hint, roles)
    arenas = _child_options(snap, world, sector)
    if not arenas:
        return sector
    current_arena = _part(here, 1) if _part(here, 0) == sector else ""
    roles = _roles(world.town, sector, arenas)
    arena = _ask(mind, ctx, description, AreaKind.ARENA, arenas, current_arena, hint, roles)
    arena_address = f"{sector}{SEP}{arena}"
    objects = _child_options(snap, world, arena_address)
    if not objects:
        return arena_address
    roles = _roles(world.town, arena_address, objects)
    obj = _ask(mind, ctx, description, AreaKind.OBJECT, objects, "", hint, roles)
    return f"{arena_address}{SEP}{obj}"


def _roles(town: Town, parent: str, names: list[str]) -> dict[str, Role | None]:
    """Each option's role from the map, so a brain can match places by what they are for."""
    return {n: town.areas[f"{parent}{SEP}{n}" if parent else n].role for n in names}


def _part(parts: list[str], i: int) -> str:
    return parts[i] if len(parts) > i else ""


def _closing(snap: AgentSnapshot, world: Surroundings, address: str, end: datetime) -> datetime:
    """Visitors leave a place when it closes (the norms that language misses)."""
    sector = world.town.areas.get(split(address)[0]) if address else None
    if sector is None or sector.closes is None or is_staff(snap, sector.name):
        return end
    close = next_time(snap.now, sector.closes % (24 * 60))
    return min(end, close)


def make_action(
    mind: Mind,
    snap: AgentSnapshot,
    world: Surroundings,
    item: PlanItem,
    kind: ActionKind = ActionKind.PLAN,
    address: str = "",
) -> Action:
    address = address or ground(mind, snap, world, item.description, item.place)
    area = world.town.areas.get(address)
    state = ""
    if area is not None and area.kind is AreaKind.OBJECT:
        old = world.states.get(address, area.default_state)
        state = mind.brain.object_state(snap.persona, item.description, area.name, old)
    end = _closing(snap, world, address, max(item.end, snap.now + timedelta(minutes=1)))
    emoji = mind.brain.emoji(item.description)
    return Action(item.description, address, snap.now, end, kind, emoji, state.strip()[:60])


def sleep_action(mind: Mind, snap: AgentSnapshot) -> Action:
    wake = next_time(snap.now + timedelta(minutes=1), snap.persona.wake)
    state = mind.brain.object_state(snap.persona, "sleeping", "bed", "idle")
    return Action("sleeping", snap.persona.bed, snap.now, wake, ActionKind.SLEEP, "😴", state)


def _decomposed(mind: Mind, snap: AgentSnapshot, town: Town) -> tuple[DayPlan, PlanItem | None]:
    """The plan with the item covering now decomposed down to an action, just in time."""
    plan = snap.plan
    b, h, a = plan.locate(snap.now)
    if b is None:
        return plan, None
    if h is None:
        broad = plan.broad[b]
        hours = [broad]
        if broad.minutes > 60:
            records, _ = recall(mind, snap, [broad.description], k=5)
            hours = fit_to_span(
                broad, mind.brain.decompose(context(snap, town, records), broad, 60)
            )
        plan = plan.with_hours(b, hours)
        b, h, a = plan.locate(snap.now)
    if a is None:
        hour = plan.hours[b][h]
        acts = [hour]
        if hour.minutes > 15:
            records, _ = recall(mind, snap, [hour.description], k=5)
            acts = fit_to_span(hour, mind.brain.decompose(context(snap, town, records), hour, 15))
        plan = plan.with_actions(b, h, acts)
        b, h, a = plan.locate(snap.now)
    return plan, plan.actions[(b, h)][a]


def _unplanned(snap: AgentSnapshot) -> DayPlan:
    """Without planning (an ablation) the agent decides an hour at a time."""
    item = PlanItem(f"{snap.persona.name} decides what to do next", snap.now, 60)
    return DayPlan(snap.now.date().isoformat(), (item,))


def next_action_job(mind: Mind, snap: AgentSnapshot, world: Surroundings) -> Decision:
    if not snap.plan.broad and not mind.settings.ablation.planning:
        snap = replace(snap, plan=_unplanned(snap))
    plan, item = _decomposed(mind, snap, world.town)
    action = sleep_action(mind, snap) if item is None else make_action(mind, snap, world, item)
    texts = [f"{snap.name} is {action.description}"]
    memories = new_memories(mind, snap, MemoryKind.OBSERVATION, texts)
    return Decision(snap.name, JobKind.NEXT_ACTION, memories=memories, plan=plan, action=action)


# -- PERCEIVE: store what was seen, and decide whether to react -------------------------

MAX_REACT_QUESTIONS = 3


def perceive_job(
    mind: Mind,
    snap: AgentSnapshot,
    world: Surroundings,
    observations: Sequence[Observation],
    talkable: frozenset[str],
) -> Decision:
    memories = new_memories(mind, snap, MemoryKind.OBSERVATION, [o.text for o in observations])
    candidates = [o for o in observations if not o.is_agent]
    candidates += [o for o in observations if o.is_agent and o.subject in talkable]
    touched: list[int] = []
    for obs in candidates[:MAX_REACT_QUESTIONS]:
        queries = [f"What is {snap.name}'s relationship with {obs.subject}?", obs.text]
        records, idx = recall(mind, snap, queries, k=5)
        touched.extend(idx)
        reaction = mind.brain.react(context(snap, world.town, records), obs)
        decision = _reaction_decision(mind, snap, world, obs, reaction, talkable)
        if decision is not None:
            return replace(decision, memories=memories, touched=tuple(touched))
    return Decision(snap.name, JobKind.PERCEIVE, memories=memories, touched=tuple(touched))


def _reaction_decision(mind, snap, world, obs, reaction, talkable) -> Decision | None:
    if reaction.kind is ReactionKind.TALK and reaction.target in talkable:
        return Decision(snap.name, JobKind.PERCEIVE, talk_to=reaction.target)
    if reaction.kind is not ReactionKind.REACT or not reaction.action.strip():
        return None
    target = reaction.target if reaction.target in world.town.areas else ""
    if not target and not obs.is_agent:
        target = obs.subject
    minutes = max(1, min(120, reaction.minutes or 10))
    item = PlanItem(reaction.action.strip(), snap.now, minutes, target)
    action = make_action(mind, snap, world, item, ActionKind.REACT, target)
    fixed = world.town.areas[target].default_state if target in world.town.areas else ""
    action = replace(action, fixes_to=fixed if not obs.is_agent else "")
    plan = snap.plan.replan_from(snap.now, item)
    note = f"{snap.name} reacts to {obs.text}: {reaction.action}"
    return Decision(snap.name, JobKind.PERCEIVE, action=action, plan=plan, note=note)


# -- REFLECT: questions, retrieval, insights with evidence ------------------------------


def reflect_job(mind: Mind, snap: AgentSnapshot) -> Decision:
    s, n = mind.settings, len(snap.memory)
    recent = snap.memory.records(range(max(0, n - s.reflection_window), n))
    questions = mind.brain.reflect_questions(snap.persona, recent)[: s.questions_per_reflection]
    texts: list[str] = []
    evidence: list[tuple[int, ...]] = []
    touched: list[int] = []
    for question in questions:
        records, idx = recall(mind, snap, [question], k=12)
        touched.extend(idx)
        for insight in mind.brain.insights(snap.persona, question, records)[
            : s.insights_per_question
        ]:
            cited = tuple(dict.fromkeys(idx[j] for j in insight.evidence if 0 <= j < len(idx)))
            if cited and insight.text.strip() and insight.text not in texts:
                texts.append(insight.text.strip())
                evidence.append(cited)
    memories = new_memories(mind, snap, MemoryKind.REFLECTION, texts, evidence=evidence)
    return Decision(
        snap.name,
        JobKind.REFLECT,
        memories=memories,
        touched=tuple(dict.fromkeys(touched)),
        reflected=True,
    )


# -- CONVERSE: both sides, turn by turn --------------------------------------------------


def _speaker_context(
    mind: Mind, speaker: AgentSnapshot, listener: str, history: Sequence[Utterance], town: Town
) -> tuple[AgentContext, tuple[int, ...]]:
    last = history[-1].text if history else f"{listener} is here"
    queries = [f"What is {speaker.name}'s relationship with {listener}?", listener, last]
    records, idx = recall(mind, speaker, queries, k=5)
    on_mind = replace(mind.settings.retrieval, importance_weight=2.0, relevance_weight=0.5)
    news, idx2 = recall(mind, speaker, ["news, plans and upcoming events"], k=6, settings=on_mind)
    merged = records + [r for r in news if r.index not in idx]
    return context(speaker, town, merged), idx + idx2


def _whole_conversation(mind, whole, first, second, town, touched) -> list[Utterance]:
    """A brain with `converse` writes both sides at once (the paper suggests it), each side
    from the context the turn-by-turn loop would give its first line."""
    ctx_a, idx_a = _speaker_context(mind, first, second.name, (), town)
    ctx_b, idx_b = _speaker_context(mind, second, first.name, (), town)
    touched[first.name].extend(idx_a)
    touched[second.name].extend(idx_b)
    names = (first.name, second.name)
    lines = [u for u in whole(ctx_a, ctx_b, mind.settings.max_turns) if u.speaker in names]
    lines = [replace(u, text=u.text.strip()[:300]) for u in lines if u.text.strip()]
    return lines[: mind.settings.max_turns]


def converse_job(
    mind: Mind, first: AgentSnapshot, second: AgentSnapshot, world: Surroundings
) -> list[Decision]:
    history: list[Utterance] = []
    touched: dict[str, list[int]] = {first.name: [], second.name: []}
    speaker, listener = first, second
    whole = getattr(mind.brain, "converse", None)  # optional: both sides in one call
    if callable(whole):
        history = _whole_conversation(mind, whole, first, second, world.town, touched)
    for _ in range(0 if callable(whole) else mind.settings.max_turns):
        ctx, idx = _speaker_context(mind, speaker, listener.name, history, world.town)
        touched[speaker.name].extend(idx)
        line = mind.brain.utter(ctx, listener.name, tuple(history))
        history.append(replace(line, speaker=speaker.name, text=line.text.strip()[:300]))
        if line.end or not line.text.strip():
            break
        speaker, listener = listener, speaker
    talk = Conversation((first.name, second.name), tuple(history), first.now)
    transcript = f"Conversation between {first.name} and {second.name}: " + " | ".join(
        f"{u.speaker}: {u.text}" for u in history
    )
    out = []
    for me, other in ((first, second), (second, first)):
        heard = [
            f"{u.speaker} said: {u.shares}" for u in history if u.speaker == other.name and u.shares
        ]
        memories = new_memories(mind, me, MemoryKind.CHAT, [transcript, *heard], source=other.name)
        out.append(
            Decision(
                me.name,
                JobKind.CONVERSE,
                memories=memories,
                touched=tuple(dict.fromkeys(touched[me.name])),
                conversation=talk,
            )
        )
    return out


# -- interviews (the player's and the evaluation's way in) --------------------------------


def interview(mind: Mind, snap: AgentSnapshot, town: Town, question: str) -> str:
    """An answer through retrieval and the brain; changes no memory (the caller may not
    even touch the retrieved ones, so an interview leaves no trace)."""
    records, _ = recall(mind, snap, [question], k=15)
    return mind.brain.answer(context(snap, town, records), question)


# -- the player's ways in: the visitor's chat and the inner voice -----------------------


def visitor_chat_job(
    mind: Mind, snap: AgentSnapshot, town: Town, visitor: str, history: Sequence[Utterance]
) -> Decision:
    """The resident hears the visitor and answers. What the visitor said is stored as a
    claim with the visitor as its source, never as a fact the resident saw."""
    memories: tuple[NewMemory, ...] = ()
    if history and history[-1].speaker == visitor:
        said = f'{visitor} (a visitor) said to {snap.name}: "{history[-1].text}"'
        memories = new_memories(mind, snap, MemoryKind.CHAT, [said], source=visitor)
    ctx, idx = _speaker_context(mind, snap, visitor, history, town)
    line = mind.brain.utter(ctx, visitor, tuple(history))
    reply = replace(line, speaker=snap.name, text=line.text.strip()[:300] or "...")
    return Decision(snap.name, JobKind.VISITOR, memories=memories, touched=idx, reply=reply)


def inner_voice_job(mind: Mind, snap: AgentSnapshot, town: Town, text: str) -> Decision:
    """The paper's inner voice: the player's words become the resident's own thought, and
    the rest of the day is planned again with that thought in mind."""
    thought = new_memories(mind, snap, MemoryKind.REFLECTION, [text], source="inner voice")
    record = MemoryRecord(
        len(snap.memory), MemoryKind.REFLECTION, text, snap.now, 10, "inner voice"
    )
    plan, memories, _ = plan_rest_of_day(mind, snap, town, extra=(record,))
    return Decision(snap.name, JobKind.INNER_VOICE, memories=thought + memories, plan=plan)
