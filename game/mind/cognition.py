"""The paper's cognition, as jobs: pure functions from a snapshot to a typed effect.

Each job runs on a worker thread. It reads an AgentSnapshot and a Surroundings (both
immutable), asks the brain typed questions (game/brains/questions.py), and returns an
effect of its own type (game/mind/effects.py); it never mutates an agent, a memory stream
or the town. The simulation applies effects on its own thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TypeVar

import numpy as np

from game.brains.dialogue.acts import Act
from game.brains.dialogue.state import DialogueState
from game.brains.dialogue.understand import Understander
from game.brains.event_words import parse_event
from game.brains.protocol import Brain, Embedder
from game.brains.questions import (
    ActionDetails,
    AgentContext,
    Answer,
    ChooseSector,
    ChooseSpot,
    Converse,
    DecomposeHours,
    DecomposeSteps,
    Draft,
    Emoji,
    Insights,
    Place,
    PlanDay,
    Question,
    RateImportance,
    React,
    ReflectQuestions,
    Spot,
    Summarize,
    Utter,
)
from game.core.clock import fmt_datetime, hours_since_epoch, minute_of_day, next_time
from game.core.mind_settings import Ablation, MindSettings, RetrievalSettings
from game.core.records import (
    ActionKind,
    Event,
    Fact,
    FactKind,
    MemoryKind,
    MemoryRecord,
    Observation,
    PlanItem,
    ReactionKind,
    Rsvp,
    Source,
    Utterance,
)
from game.core.text import with_article
from game.mind import facts
from game.mind.agent import Action, AgentSnapshot, Conversation
from game.mind.dialogue import hear, retrieval_query, state_of
from game.mind.effects import (
    Conversed,
    InnerVoiced,
    NewMemory,
    NextAction,
    Perceived,
    Prepared,
    Reflected,
    Seeded,
    VisitorReplied,
    Woke,
)
from game.mind.plan import DayPlan, fit_day, fit_to_span
from game.mind.retrieval import retrieve
from game.world.scenario import Intent
from game.world.town import SEP, AreaKind, Town, split
from game.world.troubles import trouble


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
    intents: tuple[Intent, ...] = ()  # the scenario's, so memories can name them by id
    words: Understander | None = None  # hears lines as typed acts (game/mind/dialogue.py)


# -- shared helpers ----------------------------------------------------------------


def _embed(mind: Mind, texts: Sequence[str]) -> np.ndarray:
    return mind.embedder.embed(list(texts)) if texts else np.zeros((0, mind.embedder.dim))


def relationship_query(name: str, other: str) -> str:
    """The query a resident recalls someone by, before reacting to them or talking."""
    return f"What is {name}'s relationship with {other}?"


def standing_queries(names: Sequence[str]) -> list[str]:
    """The retrieval queries a town of these residents will certainly use (about one
    another, before reacting or talking; the news a conversation brings up)."""
    pairs = [relationship_query(a, b) for a in names for b in names if a != b]
    return [*pairs, *names, NEWS]


def foresee(mind: Mind, texts: Sequence[str]) -> None:
    """Texts certain to be retrieved with or remembered soon (the residents' relationship
    queries, what others will be seen doing, an object's new state) ride along with the
    next embedding request anyone sends, so the perception that needs them finds them
    kept and asks the model at once instead of first waiting for an embedding."""
    if mind.settings.ablation.memory and texts:
        mind.embedder.later(list(dict.fromkeys(texts)))


def warm(mind: Mind, snaps: Sequence[AgentSnapshot], queries: Sequence[str]) -> None:
    """Embed, in one request, every query a job is about to retrieve with and the
    memories of its agents not embedded yet: the embedder keeps them, so the job's
    retrievals then cost no request and the job waits on the network once, not once
    per retrieval."""
    if not mind.settings.ablation.memory:
        return
    texts = [*queries, *(s.memory.text(i) for s in snaps for i in s.memory.missing())]
    if texts:
        _embed(mind, list(dict.fromkeys(texts)))


A = TypeVar("A")
_FAN_OUT = ThreadPoolExecutor(max_workers=32, thread_name_prefix="fan-out")


def ask_each(mind: Mind, questions: Sequence[Question[A]]) -> list[A]:
    """Independent questions asked at once, answers in order: a job waits for the
    slowest, not for their sum."""
    return each(mind.brain.ask, questions)


T = TypeVar("T")


def each(work: Callable[[T], A], items: Sequence[T]) -> list[A]:
    """Independent pieces of a job done at once, results in order. (A piece never fans
    out again, so the pool cannot deadlock.)"""
    if len(items) < 2:
        return [work(item) for item in items]
    return list(_FAN_OUT.map(work, items))


@dataclass(frozen=True)
class Note:
    """A memory to write, before it is rated and embedded: its fields and what the data
    already says about its importance."""

    kind: MemoryKind
    fact: Fact
    known: int = 0
    routine: bool = False
    evidence: tuple[int, ...] = ()


def new_memories(
    mind: Mind, snap: AgentSnapshot, notes: Sequence[Note], town: Town | None = None
) -> tuple[NewMemory, ...]:
    """Render and rate a batch of memories (one question). Their vectors are the ones the
    embedder has at no cost; the rest are left to the next retrieval, which embeds them
    with its query in one request instead of one request here."""
    if not notes:
        return ()
    texts = [facts.render(n.fact, town) for n in notes]
    drafts = tuple(
        Draft(n.kind, t, n.fact, n.known, n.routine) for n, t in zip(notes, texts, strict=True)
    )
    scores = mind.brain.ask(RateImportance(snap.persona, drafts))
    known = mind.embedder.peek(texts)
    return tuple(
        NewMemory(n.kind, t, n.fact, max(1, min(10, int(s))), known.get(t), n.evidence)
        for n, t, s in zip(notes, texts, scores, strict=True)
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
    view = snap.memory
    missing = view.missing()  # memories not embedded yet go in the same request
    vectors = _embed(mind, [*queries, *(view.text(i) for i in missing)])
    view = view.with_vectors(missing, vectors[len(queries) :])
    kinds = allowed_kinds(mind.settings.ablation)
    chosen: list[int] = []
    for vec in vectors[: len(queries)]:
        chosen_settings = settings or mind.settings.retrieval
        for i in retrieve(view, vec, snap.now, chosen_settings, k=k, kinds=kinds):
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
        f"{p.name} is {with_article(p.occupation)}."
    )


# -- SEED: the seed paragraph becomes the first memories ------------------------------


def seed_job(mind: Mind, snap: AgentSnapshot) -> Seeded:
    p = snap.persona
    sentences = p.seed_memories() if mind.settings.ablation.memory else []
    notes = [Note(MemoryKind.OBSERVATION, facts.seed(p, s, mind.intents)) for s in sentences]
    if mind.settings.ablation.memory:  # what one knows of acquaintances: known, not news
        notes += [Note(MemoryKind.OBSERVATION, replace(facts.seed(p, s, ()), private=True))
                  for s in (k.said for k in p.acquainted)]  # fmt: skip
    return Seeded(snap.name, new_memories(mind, snap, notes))


# -- WAKE: the summary description and the day plan -----------------------------------

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
    warm(mind, [snap], [*(_summary_topics(snap) if fresh else []), topic, _plan_query(snap)])
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


def _plan_query(snap: AgentSnapshot) -> str:
    return f"{snap.persona.name}'s plans and events for {fmt_datetime(snap.now)}"


def plan_places(snap: AgentSnapshot, town: Town) -> tuple[Place, ...]:
    """The places a day plan may name (home, work, what the agent knows) with their hours;
    one's own home and workplace have none (staff come and go as they need)."""
    p = snap.persona
    known = (a for a in sorted(snap.known) if a and SEP not in a)
    names = dict.fromkeys([p.home, *([p.workplace] if p.workplace else []), *known])
    out = []
    for name in names:
        area = town.areas.get(name)
        if area is None or area.kind is not AreaKind.SECTOR:
            continue
        own = name in (p.home, p.workplace)
        out.append(Place(name, None if own else area.opens, None if own else area.closes))
    return tuple(out)


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
    records, idx = recall(mind, snap, [_plan_query(snap)])
    records = [*extra, *records, *(r for r in commitments(snap) if r.index not in idx)]
    sleep_at = next_time(now + timedelta(minutes=30), p.sleep)
    items: Sequence[PlanItem] = ()
    if mind.settings.ablation.planning:
        ctx = context(snap, town, records)
        places = plan_places(snap, town)
        items = mind.brain.ask(PlanDay(ctx, yesterday, now, sleep_at, places))
    items = [i for i in items if i.start < sleep_at]
    today = now.date().isoformat()
    plan = DayPlan(today, tuple(fit_day(items, now, sleep_at))) if items else DayPlan(today)
    notes = [Note(MemoryKind.PLAN, facts.plan(p.name, plan.broad))] if items else []
    return plan, new_memories(mind, snap, notes), idx


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
    names += event_places(snap)  # where an event one heard of is: one can find it
    out = []
    for name in dict.fromkeys(names):
        area = town.areas.get(name)
        if area is None or area.kind is not AreaKind.SECTOR:
            continue
        if (is_staff(snap, name) or area.is_open(minute)) and _has_room(world, snap, name):
            out.append(name)
    return out


def event_places(snap: AgentSnapshot) -> list[str]:
    """The places of events still to come (or on now) that the resident has heard of."""
    now = snap.now
    return sorted({f.event.place for f in snap.memory.facts
                   if f.event is not None and f.event.end > now and f.event.place})  # fmt: skip


def _children(snap: AgentSnapshot, world: Surroundings, parent: str) -> list[str]:
    """The addresses under `parent` the agent knows (all, if it knows none) with room."""
    kids = [k.address for k in world.town.children(parent)]
    known = [k for k in kids if k in snap.known] or kids
    return [k for k in known if _has_room(world, snap, k)]


def spots_in(snap: AgentSnapshot, world: Surroundings, sector: str) -> tuple[Spot, ...]:
    """Where in a sector the agent may act: each roomy object of each roomy arena, or the
    arena itself where none of its objects has room."""
    town, out = world.town, []
    for arena in _children(snap, world, sector):
        arena_name = town.areas[arena].name
        objects = _children(snap, world, arena)
        arena_role = town.areas[arena].role
        for obj in objects:
            thing = town.areas[obj]
            out.append(Spot(arena_name, thing.name, obj, arena_role, thing.role))
        if not objects:
            out.append(Spot(arena_name, "", arena, arena_role))
    return tuple(out)


def ground(
    mind: Mind, snap: AgentSnapshot, world: Surroundings, description: str, hint: str
) -> str:
    """Walk the agent's own tree: the sector, then the spot in it (room and object)."""
    ctx = context(snap, world.town)
    here = split(snap.location)
    sectors = sector_options(snap, world) or [snap.persona.home]
    sector = sectors[0]
    if len(sectors) > 1:
        roles = {name: world.town.areas[name].role for name in sectors}
        question = ChooseSector(ctx, description, tuple(sectors), _part(here, 0), hint, roles)
        answer = mind.brain.ask(question)
        sector = answer if answer in sectors else sectors[0]
    spots = spots_in(snap, world, sector)
    if not spots:
        return sector
    spot = spots[0]
    if len(spots) > 1:
        current = _part(here, 1) if _part(here, 0) == sector else ""
        answer = mind.brain.ask(ChooseSpot(ctx, description, sector, spots, current, hint))
        spot = answer if answer in spots else spots[0]
    return spot.address


def _part(parts: list[str], i: int) -> str:
    return parts[i] if len(parts) > i else ""


def _closing(snap: AgentSnapshot, world: Surroundings, address: str, end: datetime) -> datetime:
    """Visitors leave a place when it closes (the norms that language misses)."""
    sector = world.town.areas.get(split(address)[0]) if address else None
    if sector is None or sector.closes is None or is_staff(snap, sector.name):
        return end
    close = next_time(snap.now, sector.closes % (24 * 60))
    return min(end, close)


def _details(mind: Mind, snap: AgentSnapshot, world: Surroundings, item: PlanItem, address: str):
    """The object's state and the bubble: from the plan item when its planner said them,
    else asked (one question for both when there is an object)."""
    area = world.town.areas.get(address)
    if area is None or area.kind is not AreaKind.OBJECT:
        emoji = item.emoji or mind.brain.ask(Emoji(snap.persona, item.description))
        return "", emoji
    if item.state and item.emoji and item.place == address:
        return item.state, item.emoji
    old = world.states.get(address, area.default_state)
    found = mind.brain.ask(ActionDetails(snap.persona, item.description, area.name, old))
    return found.state, found.emoji


def make_action(
    mind: Mind,
    snap: AgentSnapshot,
    world: Surroundings,
    item: PlanItem,
    kind: ActionKind = ActionKind.PLAN,
    address: str = "",
) -> Action:
    address = address or ground(mind, snap, world, item.description, item.place)
    state, emoji = _details(mind, snap, world, item, address)
    end = _closing(snap, world, address, max(item.end, snap.now + timedelta(minutes=1)))
    return Action(
        item.description,
        address,
        snap.now,
        end,
        kind,
        emoji,
        state.strip()[:60],
        importance=item.importance,
    )


def sleep_action(mind: Mind, snap: AgentSnapshot) -> Action:
    """Asleep until the plan's next item if it has one (a gap in a day is never a night),
    else until the persona's usual waking time."""
    wake = next_time(snap.now + timedelta(minutes=1), snap.persona.wake)
    planned = snap.plan.next_start(snap.now)
    if planned is not None and planned < wake:
        wake = planned
    details = mind.brain.ask(ActionDetails(snap.persona, "sleeping", "bed", "idle"))
    return Action(
        "sleeping", snap.persona.bed, snap.now, wake, ActionKind.SLEEP, "😴", details.state
    )


def _decomposed(
    mind: Mind, snap: AgentSnapshot, world: Surroundings
) -> tuple[DayPlan, PlanItem | None, PlanItem | None]:
    """The plan with the item covering now decomposed down to an action, just in time;
    also the broad item that action belongs to."""
    plan = snap.plan
    b, h, a = plan.locate(snap.now)
    if b is None:
        return plan, None, None
    broad = plan.broad[b]
    if h is None:
        plan = _hours(mind, snap, world, plan, b)
        b, h, a = plan.locate(snap.now)
    if a is None:
        hour = plan.hours[b][h]
        acts = [hour]
        if hour.minutes > 15:
            records, _ = recall(mind, snap, [hour.description], k=5)
            ctx = context(snap, world.town, records)
            spots = _item_spots(snap, world, hour)
            acts = fit_to_span(hour, mind.brain.ask(DecomposeSteps(ctx, hour, spots)))
        plan = plan.with_actions(b, h, acts)
        b, h, a = plan.locate(snap.now)
    return plan, plan.actions[(b, h)][a], broad


def _hours(mind: Mind, snap: AgentSnapshot, world: Surroundings, plan: DayPlan, b: int) -> DayPlan:
    """A broad item split into hours; the actions of the hours whose answer gave them are
    laid in at once (a model plans an item's hours and actions in one request)."""
    broad = plan.broad[b]
    if broad.minutes <= 60:
        return plan.with_hours(b, [broad])
    records, _ = recall(mind, snap, [broad.description], k=5)
    ctx = context(snap, world.town, records)
    chunks = mind.brain.ask(DecomposeHours(ctx, broad, _item_spots(snap, world, broad)))
    hours = fit_to_span(broad, [c.item for c in chunks])
    plan = plan.with_hours(b, hours)
    if len(hours) == len(chunks):
        for h, (hour, chunk) in enumerate(zip(hours, chunks, strict=True)):
            if chunk.steps and hour.minutes > 15:
                plan = plan.with_actions(b, h, fit_to_span(hour, chunk.steps))
    return plan


def _item_spots(snap: AgentSnapshot, world: Surroundings, item: PlanItem) -> tuple[Spot, ...]:
    """The spots of the sector an item happens in (else where the agent is, else home)."""
    sector = split(item.place or snap.location)[0] if (item.place or snap.location) else ""
    if sector not in world.town.areas:
        sector = snap.persona.home
    return tuple(s for s in spots_in(snap, world, sector) if not _others_room(s, snap))


def _others_room(spot: Spot, snap: AgentSnapshot) -> bool:
    """Another resident's private room ('Klaus Mueller's room' for Maria)."""
    p = snap.persona
    arena = spot.arena
    return "'s " in arena and not (arena.startswith(p.name) or arena.startswith(p.first_name))


def _unplanned(snap: AgentSnapshot) -> DayPlan:
    """Without planning (an ablation) the agent decides an hour at a time."""
    item = PlanItem(f"{snap.persona.name} decides what to do next", snap.now, 60)
    return DayPlan(snap.now.date().isoformat(), (item,))


def next_action_job(mind: Mind, snap: AgentSnapshot, world: Surroundings) -> NextAction:
    if not snap.plan.broad and not mind.settings.ablation.planning:
        snap = replace(snap, plan=_unplanned(snap))
    plan, item, broad = _decomposed(mind, snap, world)
    action = sleep_action(mind, snap) if item is None else make_action(mind, snap, world, item)
    parent = broad.description if broad is not None else ""
    intent = item.intent if item is not None else ""
    fact = facts.doing(snap.name, action.description, Source.SELF, parent, intent)
    note = Note(MemoryKind.OBSERVATION, fact, known=action.importance)
    return NextAction(snap.name, new_memories(mind, snap, [note]), plan=plan, action=action)


# -- PREPARE: the next decision, asked while the current action runs --------------------


def decide_job(mind: Mind, snap: AgentSnapshot, world: Surroundings) -> list[NextAction | Prepared]:
    """The next action for a resident standing still, and, when it is a short one, the
    decision after it, held (first in the list, so the action's start asks no more): the
    rest of a plan item after a reaction is often a minute long, and would otherwise
    stop the clock a second time."""
    decision = next_action_job(mind, snap, world)
    then = _following(mind, snap, world, decision)
    return [decision] if then is None else [then, decision]


def prepare_next_job(mind: Mind, snap: AgentSnapshot, world: Surroundings) -> Prepared:
    """The next action, asked ahead: `snap.now` is when the current action ends. Why: the
    model's seconds then overlap the action's minutes instead of leaving the agent
    standing still, and lockstep need not stop the clock for it."""
    decision = next_action_job(mind, snap, world)
    then = _following(mind, snap, world, decision)
    _foresee_decisions(mind, world, [decision, *(then.decisions if then else ())])
    return Prepared(snap.name, decisions=(decision,), base=snap.plan, at=snap.now, then=then)


def _foresee_decisions(
    mind: Mind, world: Surroundings, decisions: Sequence[Woke | NextAction]
) -> None:
    """What decisions asked ahead will put into memories when they are used (the
    agent's own, what others will see it doing, the state it leaves an object in)."""
    texts = [m.text for d in decisions for m in d.memories if m.embedding is None]
    for d in decisions:
        action = d.action if isinstance(d, NextAction) else None
        if action is None:
            continue
        texts.append(facts.render(facts.doing(d.agent, action.description, Source.SEEN)))
        if action.object_state and action.address in world.states:
            texts.append(
                facts.render(facts.object_state(action.address, action.object_state), world.town)
            )
    foresee(mind, texts)


# An action shorter than this gets the decision after it asked in the same job.
SHORT_ACTION = timedelta(minutes=5)


def _following(
    mind: Mind, snap: AgentSnapshot, world: Surroundings, decision: NextAction
) -> Prepared | None:
    """The next action after a short one, as the agent would ask it when that one ends."""
    action = decision.action
    if action is None or action.kind is ActionKind.SLEEP or action.end - snap.now >= SHORT_ACTION:
        return None
    later = replace(snap, now=action.end, plan=decision.plan, action=None)
    following = next_action_job(mind, later, world)
    return Prepared(snap.name, decisions=(following,), base=decision.plan, at=action.end)


def prepare_wake_job(mind: Mind, snap: AgentSnapshot, world: Surroundings) -> Prepared:
    """Waking up and the day's first action, asked during the night (`snap.now` is the
    waking time): nothing an asleep agent perceives could change them."""
    woke = wake_job(mind, snap, world.town)
    awake = replace(
        snap,
        plan=woke.plan,
        summary=woke.summary,
        summary_day=woke.summary_day,
        asleep=False,
        action=None,
    )
    first = next_action_job(mind, awake, world)
    then = _following(mind, awake, world, first)
    _foresee_decisions(mind, world, [woke, first, *(then.decisions if then else ())])
    return Prepared(snap.name, decisions=(woke, first), base=snap.plan, at=snap.now, then=then)


# -- PERCEIVE: store what was seen, and decide whether to react -------------------------

MAX_REACT_QUESTIONS = 3


def _seen(obs: Observation) -> Note:
    routine = obs.routine or obs.activity in (ActionKind.SLEEP, ActionKind.CHAT, ActionKind.WAIT)
    return Note(MemoryKind.OBSERVATION, obs.fact, obs.importance, routine)


def perceive_job(
    mind: Mind,
    snap: AgentSnapshot,
    world: Surroundings,
    observations: Sequence[Observation],
    talkable: frozenset[str],
) -> Perceived:
    memories = new_memories(mind, snap, [_seen(o) for o in observations], world.town)
    # A resident using an object is routine: remembered, never a question (a stove left
    # burning by the player, or a state nobody here set, is one).
    candidates = [o for o in observations if not o.is_agent and not o.routine]
    candidates += [o for o in observations if o.is_agent and o.subject in talkable]
    touched: list[int] = []
    candidates = candidates[:MAX_REACT_QUESTIONS]
    if candidates:
        warm(mind, [snap], [q for obs in candidates for q in _react_queries(snap, obs)])
    recalled = [recall(mind, snap, _react_queries(snap, obs), k=5) for obs in candidates]
    pairs = zip(candidates, recalled, strict=True)
    asked = [React(context(snap, world.town, records), o) for o, (records, _) in pairs]
    answers = ask_each(mind, asked)  # at once: most say "carry on", so all are asked anyway
    for obs, (_, idx), reaction in zip(candidates, recalled, answers, strict=True):
        touched.extend(idx)  # the first that leads somewhere wins, as if asked in turn
        found = _reaction(mind, snap, world, obs, reaction, talkable)
        if found is not None:
            return replace(found, memories=memories, touched=tuple(touched))
    return Perceived(snap.name, memories, tuple(touched))


def _react_queries(snap: AgentSnapshot, obs: Observation) -> list[str]:
    return [relationship_query(snap.name, obs.subject), obs.text]


def _reaction(mind, snap, world, obs, reaction, talkable) -> Perceived | None:
    if reaction.kind is ReactionKind.TALK and reaction.target in talkable:
        return Perceived(snap.name, talk_to=reaction.target)
    if reaction.kind is not ReactionKind.REACT or not reaction.action.strip():
        return None
    target = reaction.target if reaction.target in world.town.areas else ""
    if not target:  # an object is dealt with where it is; a person, where one stands
        here = snap.location if snap.location in world.town.areas else ""
        target = here if obs.is_agent else obs.subject
    minutes = max(1, min(120, reaction.minutes or 10))
    item = PlanItem(reaction.action.strip(), snap.now, minutes, target)
    action = make_action(mind, snap, world, item, ActionKind.REACT, target)
    fixed = world.town.areas[target].default_state if target in world.town.areas else ""
    action = replace(action, fixes_to=fixed if not obs.is_agent else "")
    found = trouble(obs.status) if not obs.is_agent else None
    if found is not None:  # whoever answered, trouble shows on the map the table's way
        name = world.town.areas[obs.subject].name if obs.subject in world.town.areas else ""
        emoji = action.emoji if action.emoji.startswith(found.emoji) else found.emoji
        action = replace(action, emoji=emoji, said=found.call(name or "thing"))
    plan = snap.plan.replan_from(snap.now, item)
    note = f"{snap.name} reacts to {obs.text}: {reaction.action}"
    return Perceived(snap.name, action=action, plan=plan, note=note)


# -- REFLECT: questions, retrieval, insights with evidence ------------------------------


def reflect_job(mind: Mind, snap: AgentSnapshot) -> Reflected:
    s, n = mind.settings, len(snap.memory)
    recent = tuple(snap.memory.records(range(max(0, n - s.reflection_window), n)))
    questions = mind.brain.ask(ReflectQuestions(snap.persona, recent))
    questions = questions[: s.questions_per_reflection]
    notes: list[Note] = []
    seen = _reflection_texts(snap)  # an insight already held is not written again
    touched: list[int] = []
    warm(mind, [snap], questions)
    recalled = [recall(mind, snap, [question], k=12) for question in questions]
    pairs = zip(questions, recalled, strict=True)
    asked = [Insights(snap.persona, q, tuple(records)) for q, (records, _) in pairs]
    for (_, idx), found in zip(recalled, ask_each(mind, asked), strict=True):
        touched.extend(idx)
        for insight in found[: s.insights_per_question]:
            cited = tuple(dict.fromkeys(idx[j] for j in insight.evidence if 0 <= j < len(idx)))
            text = insight.text.strip()
            if cited and text and text not in seen:
                seen.add(text)
                fact = facts.statement(snap.name, text, Source.SELF)
                notes.append(Note(MemoryKind.REFLECTION, fact, evidence=cited))
    memories = _discount_repeats(
        new_memories(mind, snap, notes), seen - {n.fact.object for n in notes}
    )
    return Reflected(snap.name, memories, tuple(dict.fromkeys(touched)))


REPEAT_OVERLAP = 0.6  # share of an insight's words an earlier one holds to count as a restatement


def _discount_repeats(memories: tuple[NewMemory, ...], held: set[str]) -> tuple[NewMemory, ...]:
    """An insight that mostly restates ones already held (or written in this batch) is
    worth less each time, so a family of near-repeats does not crowd retrieval."""
    earlier = [_words(t) for t in held]
    out = []
    for m in memories:
        words = _words(m.text)
        repeats = sum(1 for e in earlier if words and len(words & e) >= REPEAT_OVERLAP * len(words))
        earlier.append(words)
        out.append(replace(m, importance=max(1, m.importance // (1 + repeats))) if repeats else m)
    return tuple(out)


def _words(text: str) -> set[str]:
    """The longer words of an insight, for overlap only (no field is read from them)."""
    letters = "".join(c if c.isalpha() or c == "'" else " " for c in text.lower())
    return {w for w in letters.split() if len(w) > 3}


def _reflection_texts(snap: AgentSnapshot) -> set[str]:
    mask = snap.memory.mask([MemoryKind.REFLECTION])
    return {snap.memory.text(int(i)) for i in np.flatnonzero(mask)}


# -- CONVERSE: both sides, turn by turn --------------------------------------------------


NEWS = "news, plans and upcoming events"


def _speaker_queries(
    speaker: AgentSnapshot, listener: str, history: Sequence[Utterance]
) -> list[str]:
    queries = [relationship_query(speaker.name, listener), listener]
    return queries + [history[-1].text] if history else queries


def _speaker_context(
    mind: Mind, speaker: AgentSnapshot, listener: str, history: Sequence[Utterance], town: Town
) -> tuple[AgentContext, tuple[int, ...]]:
    records, idx = recall(mind, speaker, _speaker_queries(speaker, listener, history), k=5)
    on_mind = replace(mind.settings.retrieval, importance_weight=2.0, relevance_weight=0.5)
    news, idx2 = recall(mind, speaker, [NEWS], k=6, settings=on_mind)
    merged = records + [r for r in news if r.index not in idx]
    seen = {r.index for r in merged}
    merged += [r for r in commitments(speaker) if r.index not in seen]  # one's own cause
    seen = {r.index for r in merged}
    merged += [r for r in fresh_claims(speaker) if r.index not in seen]  # what one just heard
    return context(speaker, town, merged), idx + idx2


FRESH_HOURS = 36  # how long something an outsider said stays on one's mind to pass on
FRESH_CLAIMS = 2


def fresh_claims(snap: AgentSnapshot) -> list[MemoryRecord]:
    """The newest claims from outside the town's own talk (the visitor's words, a notice,
    and those passed on from them), heard lately: news one has just been told is on one's
    mind when one next talks, as it is for a person, whatever the news retrieval ranks."""
    since = hours_since_epoch(snap.now) - FRESH_HOURS
    facts_, hours = snap.memory.facts, snap.memory.created
    found = [
        i for i, f in enumerate(facts_)
        if f.kind is FactKind.CLAIM and hours[i] >= since and not f.private
        and f.first_source in (Source.VISITOR, Source.NOTICE)
    ]  # fmt: skip
    return snap.memory.records(found[-FRESH_CLAIMS:])


def _whole_conversation(mind, first, second, town, touched) -> tuple[list[Utterance], tuple]:
    """A brain that answers Converse writes both sides at once (the paper suggests it),
    each side from the context the turn-by-turn loop would give its first line; the same
    answer rates the conversation for each side."""
    warm(mind, [first, second], [*_speaker_queries(first, second.name, ()), NEWS,
                                 *_speaker_queries(second, first.name, ())])  # fmt: skip
    ctx_a, idx_a = _speaker_context(mind, first, second.name, (), town)
    ctx_b, idx_b = _speaker_context(mind, second, first.name, (), town)
    touched[first.name].extend(idx_a)
    touched[second.name].extend(idx_b)
    names = (first.name, second.name)
    talk = mind.brain.ask(Converse(ctx_a, ctx_b, mind.settings.max_turns))
    lines = [u for u in talk.lines if u.speaker in names]
    lines = [replace(u, text=u.text.strip()[:300]) for u in lines if u.text.strip()]
    return lines[: mind.settings.max_turns], talk.importance


def _turn_by_turn(mind, first, second, town, touched) -> list[Utterance]:
    history: list[Utterance] = []
    speaker, listener = first, second
    state = state_of(mind.words, (), first.now)
    for _ in range(mind.settings.max_turns):
        ctx, idx = _speaker_context(mind, speaker, listener.name, history, town)
        touched[speaker.name].extend(idx)
        if state is not None and history:  # the last line, heard by its listener
            last = history[-1]
            state = state.then(
                last.speaker,
                last.text,
                hear(mind.words, last.text, speaker.now, state, last.speaker),
            )
        line = mind.brain.ask(Utter(ctx, listener.name, tuple(history), state))
        history.append(replace(line, speaker=speaker.name, text=line.text.strip()[:300]))
        if line.end or not line.text.strip():
            break
        speaker, listener = listener, speaker
    return history


def converse_job(
    mind: Mind, first: AgentSnapshot, second: AgentSnapshot, world: Surroundings
) -> list[Conversed]:
    touched: dict[str, list[int]] = {first.name: [], second.name: []}
    ratings: tuple[int, int] = (0, 0)
    if mind.brain.knows(Converse):
        history, ratings = _whole_conversation(mind, first, second, world.town, touched)
    else:
        history = _turn_by_turn(mind, first, second, world.town, touched)
    talk = Conversation((first.name, second.name), tuple(history), first.now)

    def side(i: int) -> Conversed:
        """What one of the two remembers and replans: independent of the other's."""
        me, other = (first, second) if i == 0 else (second, first)
        pair, rating = talk.participants, ratings[i]
        notes = [Note(MemoryKind.CHAT, facts.conversation(me.name, pair, history), rating)]
        notes += [_heard(mind, u, other) for u in history if u.speaker == other.name and u.shares]
        answers = _answers(me.name, history)
        notes += answers
        memories = new_memories(mind, me, notes)
        touched_me = tuple(dict.fromkeys(touched[me.name]))
        plan = _replan_for(mind, me, world.town, answers, memories)
        return Conversed(me.name, memories, touched_me, conversation=talk, plan=plan)

    return each(side, [0, 1])


def _answers(name: str, history: Sequence[Utterance]) -> list[Note]:
    """The resident's own answers to events told of in the conversation (its `rsvp` lines,
    each answering the partner's line before it): remembered, with the reason."""
    out = []
    for before, line in zip(history, history[1:], strict=False):
        if line.speaker == name and line.rsvp is not None and before.shared is not None:
            fact = facts.rsvp(name, line.rsvp, line.reason, before.shared)
            out.append(Note(MemoryKind.OBSERVATION, fact, known=7))
    return out


def _replan_for(
    mind: Mind, snap: AgentSnapshot, town: Town, answers: Sequence[Note], memories
) -> DayPlan | None:
    """An answer to an event later today re-plans the rest of the day: around it when
    accepted, without it when declined (an event on another day is planned that day)."""
    today = snap.now.date()
    going = [
        n for n in answers
        if n.fact.rsvp in (Rsvp.ACCEPTED, Rsvp.DECLINED) and n.fact.event is not None
        and n.fact.event.start.date() == today and n.fact.event.end > snap.now
    ]  # fmt: skip
    if not going or not mind.settings.ablation.planning:
        return None
    mem = next((m for m in memories if m.fact is going[0].fact), None)
    text = mem.text if mem is not None else facts.render(going[0].fact)
    fact = going[0].fact
    record = MemoryRecord(len(snap.memory), MemoryKind.OBSERVATION, text, snap.now, 7, fact)
    plan, _, _ = plan_rest_of_day(mind, snap, town, extra=(record,))
    return plan


def _heard(mind: Mind, line: Utterance, teller: AgentSnapshot) -> Note:
    """News heard in a line: its fields when the speaker knew them, else its words tied to
    the scenario intent whose keywords they use and to the teller's own memory of a claim
    they repeat (so a model's retelling keeps the chain of sources, and the words stay
    quoted however often they are passed on)."""
    if line.shared is not None:
        return Note(MemoryKind.CHAT, facts.claim(line.speaker, line.shares, line.shared))
    intent = facts.intent_named(line.shares, mind.intents)
    relayed = facts.repeated_claim(line.shares, teller.memory.facts)
    return Note(MemoryKind.CHAT, facts.claim(line.speaker, line.shares, None, intent, relayed))


# -- interviews (the player's and the evaluation's way in) --------------------------------


def interview(
    mind: Mind,
    snap: AgentSnapshot,
    town: Town,
    question: str,
    state: DialogueState | None = None,
) -> str:
    """An answer through retrieval and the brain; changes no memory (the caller may not
    even touch the retrieved ones, so an interview leaves no trace). The question is heard
    as an act first, in the light of the conversation so far (`state`)."""
    return interview_act(mind, snap, town, question, state)[0]


def interview_act(
    mind: Mind,
    snap: AgentSnapshot,
    town: Town,
    question: str,
    state: DialogueState | None = None,
) -> tuple[str, Act | None]:
    """The answer and the act the question was understood as (None without a town)."""
    act = hear(mind.words, question, snap.now, state, "") if mind.words else None
    query = retrieval_query(mind.words, act) if act else question
    records, idx = recall(mind, snap, [query], k=15)
    ctx = context(snap, town, grounded(mind, snap, records))
    return mind.brain.ask(Answer(ctx, question, act, state)), act


def grounded(mind: Mind, snap: AgentSnapshot, records: list[MemoryRecord]) -> list[MemoryRecord]:
    """Retrieved memories plus what a person always has at hand when asked about its days:
    the latest plans and the events it knows of (interviews and the visitor's chat)."""
    seen = {r.index for r in records}
    extra = [
        r for r in [*latest_plans(mind, snap), *event_facts(mind, snap)] if r.index not in seen
    ]
    return [*records, *dict((r.index, r) for r in extra).values()]


def event_facts(mind: Mind, snap: AgentSnapshot) -> list[MemoryRecord]:
    """Per event the memory names: the latest memory naming it, the resident's own answer,
    and (once it has begun) what the resident did and saw there, so an event asked about
    after it ended is answered in the past tense even when retrieval misses it."""
    if not mind.settings.ablation.memory:
        return []
    facts_ = snap.memory.facts
    events = {f.intent: f.event for f in facts_ if f.event is not None and f.intent}
    found: list[int] = []
    for intent, event in events.items():
        tagged = [i for i, f in enumerate(facts_) if f.intent == intent]
        named = [i for i in tagged if facts_[i].event is not None]
        answers = [i for i in tagged if facts_[i].rsvp is not None]
        found += named[-1:] + answers[-1:]
        if event.start <= snap.now:
            found += _at_event(snap, intent, event)
    return snap.memory.records(dict.fromkeys(found))


def _at_event(snap: AgentSnapshot, intent: str, event: Event) -> list[int]:
    """One's own action for the event, and up to four people seen there."""
    facts_, hours = snap.memory.facts, snap.memory.created
    begin, end = hours_since_epoch(event.start), hours_since_epoch(event.end)
    during = [int(i) for i in np.flatnonzero((hours >= begin) & (hours < end))]
    own = [i for i in during if facts_[i].kind is FactKind.DOING and facts_[i].intent == intent]
    seen, people = [], set()
    for i in during:
        f = facts_[i]
        if f.kind is FactKind.DOING and f.source is Source.SEEN and f.subject not in people:
            people.add(f.subject)
            seen.append(i)
    return own[:1] + seen[:4]


def commitments(snap: AgentSnapshot) -> list[MemoryRecord]:
    """The resident's own answers to events still to come, and its own intentions (a
    campaign, a party it hosts): a promise or a purpose is always at hand when it plans,
    as it would be for a person, however long ago it was first remembered."""
    me, now = snap.persona.name, snap.now
    found = [
        i for i, f in enumerate(snap.memory.facts)
        if f.rsvp is not None and f.event is not None and f.event.end > now
    ]  # fmt: skip
    own = {}
    for i, f in enumerate(snap.memory.facts):
        mine = f.subject == me or (f.event is not None and f.event.host == me)
        stated = f.kind is FactKind.STATEMENT and f.source in (Source.SEED, Source.SELF)
        ahead = f.event is None or f.event.end > now
        if f.intent and mine and stated and ahead and not f.private and f.rsvp is None:
            own.setdefault(f.intent, i)
    return snap.memory.records([*found[-4:], *list(own.values())[:2]])


def latest_plans(mind: Mind, snap: AgentSnapshot, n: int = 3) -> list[MemoryRecord]:
    """The newest plan memories (today's and yesterday's): what one did and means to do is
    always at hand when asked about one's day, as it is for a person."""
    if not mind.settings.ablation.memory or not mind.settings.ablation.planning:
        return []
    found = np.flatnonzero(snap.memory.mask([MemoryKind.PLAN]))[-n:]
    return snap.memory.records(int(i) for i in found)


# -- the player's ways in: the visitor's chat and the inner voice -----------------------


def visitor_chat_job(
    mind: Mind, snap: AgentSnapshot, town: Town, visitor: str, history: Sequence[Utterance]
) -> VisitorReplied:
    """The resident hears the visitor and answers. What the visitor said is stored as a
    claim with the visitor as its source, never as a fact the resident saw; a time and
    place in the visitor's words are read once, here, as the event the claim names."""
    memories: tuple[NewMemory, ...] = ()
    if history and history[-1].speaker == visitor:
        said = history[-1].text
        places = [a.name for a in town.sectors()]
        event = parse_event(said, places, today=snap.now.date())
        fact = facts.visitor_claim(visitor, snap.name, said, event)
        memories = new_memories(mind, snap, [Note(MemoryKind.CHAT, fact)])
    ctx, idx = _speaker_context(mind, snap, visitor, history, town)
    if history and history[-1].speaker == visitor:  # grounded as an interview is
        asked, idx_q = recall(mind, snap, [history[-1].text], k=15)
        known = {m.index for m in ctx.memories}
        more = [r for r in grounded(mind, snap, asked) if r.index not in known]
        ctx = replace(ctx, memories=tuple(ctx.memories) + tuple(more))
        idx = tuple(dict.fromkeys(idx + idx_q))
    state = state_of(mind.words, history, snap.now)
    line = mind.brain.ask(Utter(ctx, visitor, tuple(history), state))
    reply = replace(line, speaker=snap.name, text=line.text.strip()[:300] or "...")
    return VisitorReplied(snap.name, memories, idx, reply=reply)


def inner_voice_job(mind: Mind, snap: AgentSnapshot, town: Town, text: str) -> InnerVoiced:
    """The paper's inner voice: the player's words become the resident's own thought, and
    the rest of the day is planned again with that thought in mind."""
    fact = facts.statement(snap.name, text, Source.INNER_VOICE)
    thought = new_memories(mind, snap, [Note(MemoryKind.REFLECTION, fact)])
    record = MemoryRecord(len(snap.memory), MemoryKind.REFLECTION, text, snap.now, 10, fact)
    plan, memories, _ = plan_rest_of_day(mind, snap, town, extra=(record,))
    return InnerVoiced(snap.name, thought + memories, plan=plan)
