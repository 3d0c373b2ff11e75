"""The language-model brain: every Brain question through the one call path, frugally.

Economy (the original spent ~54 requests and ~26k tokens per agent per game hour):

- The decomposition is asked once per broad plan item, hours and their 5-15 minute
  actions together, and each action comes back with its spot (from the sector's own
  tree), its object's state, its emoji and its importance. The later per-action
  questions (where, which state, which emoji, how important) then need no request.
- An identical task reuses its decomposition; an area question whose plan already names
  one of the options, or that was answered before for the same action and options, is
  not asked again; importance is remembered per text.
- Routine sights (an object in a state some resident's action gave it; someone asleep,
  talking or waiting) are rated by the scripted rules, and never reacted to by the model;
  having decided to carry on, a resident does not reconsider the same person for an hour.
- A conversation is one request for both sides (`converse`), which also rates it.
- The texts a decomposition makes certain (each action's memory, each hour's retrieval
  query) are embedded at once, in one request.

Reproducibility: whether a request is sent depends on memos kept per resident (a resident
has at most one job in flight, so in lockstep its requests come in the same order every
run) or on what an earlier answer settled before anyone else could see it (the state an
action gave an object, the emoji and importance of an action, all from the actor's own
job). So a recording replays a run exactly. The one gap: two residents' answers racing to
invent the very same action text within one step; at worst a replay then stops with a
clear message.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from game.brains.audit import AuditLog
from game.brains.budget import BudgetGuard
from game.brains.llm import questions as Q
from game.brains.llm.client import ChatClient
from game.brains.llm.embedder import open_embedder
from game.brains.llm.questions import Chunk, Step
from game.brains.protocol import AgentContext, Embedder
from game.brains.replay import ReplayCache
from game.brains.scripted import ScriptedBrain, lexicon
from game.brains.usage import Pricing, UsageMeter
from game.core.config import LLMSettings, cache_dir, data_dir
from game.core.records import (
    CONTINUE,
    Insight,
    MemoryRecord,
    Observation,
    PlanItem,
    Reaction,
    ReactionKind,
    Utterance,
)
from game.world.roles import Role
from game.world.scenario import Resident
from game.world.town import SEP, AreaKind, Town, split

log = logging.getLogger("smallville.llm")

LEVELS = {AreaKind.SECTOR: 0, AreaKind.ARENA: 1, AreaKind.OBJECT: 2}
_OBJECT_SIGHT = re.compile(r"^the (.+?) in the .+? of .+? is (.+)$")
# Statuses the simulation itself writes (asleep, in a conversation, waiting), not a
# model's words: seeing them is routine, and the scripted rules rate it.
_SIM_STATUS = re.compile(
    r" is (sleeping|idle|talking with .+|starting a conversation with .+|waiting for .+|"
    r"pausing to collect their thoughts|thinking about what to do next)\.?$"
)
REACT_QUIET = timedelta(minutes=60)  # after "continue" about someone, not asked again
MEMO_SIZE = 4000  # entries per resident and kind


class Memo:
    """A small thread-safe LRU map."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            if key not in self._data:
                return None
            self._data.move_to_end(key)
            return self._data[key]

    def put(self, key: Hashable, value: Any, keep_first: bool = False) -> None:
        with self._lock:
            if keep_first and key in self._data:
                return
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)


class Memos:
    """Per resident: importance by text, actions by description, decompositions, area and
    state answers. Shared: emoji by action and the object states actions produced."""

    def __init__(self) -> None:
        self._by_resident: dict[tuple[str, str], Memo] = {}
        self._lock = threading.Lock()
        self.emoji = Memo()
        self.produced = Memo()  # (object name, state) -> True

    def of(self, resident: str, kind: str) -> Memo:
        with self._lock:
            return self._by_resident.setdefault((resident, kind), Memo())

    def residents(self) -> list[str]:
        with self._lock:
            return sorted({r for r, kind in self._by_resident if kind == "importance"})

    def produce(self, obj: str, state: str) -> None:
        if obj and state:
            self.produced.put((obj.lower(), state.lower()), True)

    def routine(self, obj: str, state: str) -> bool:
        return self.produced.get((obj.lower(), state.lower())) is not None


class LLMBrain:
    """Answers the Brain protocol through any OpenAI-compatible endpoint.

    `notices` collects what a person should be told (the endpoint is down, the budget is
    spent, the offline embedder is in use): the HUD shows new entries, a headless run
    prints them. `fatal` is non-empty when a run must stop (strict mode, replay miss).
    """

    name = "llm"

    def __init__(self, settings: LLMSettings, seed: int = 0, town: Town | None = None) -> None:
        self.settings = settings
        self.model = settings.model
        self.base_url = settings.base_url or "https://api.openai.com/v1"
        self.town = town
        self.notices: list[str] = []
        self._notice_lock = threading.Lock()
        self.scripted = ScriptedBrain(seed)
        self.meter = UsageMeter(Pricing(settings.prices(), settings.prices(cheap=True)))
        self.guard = BudgetGuard(self.meter, settings.budget_usd, settings.max_calls)
        self.audit = AuditLog(audit_path(settings), secrets=[settings.api_key()])
        self.cache = open_cache(settings)
        self.client = ChatClient(
            settings,
            self.scripted,
            self.meter,
            self.guard,
            self.audit,
            self.cache,
            notify=self.notify,
        )
        self.memo = Memos()
        self._handoff = threading.local()  # object_state -> the emoji asked next
        self._walk = threading.local()  # one job's tree walk: its sector, then its object
        self.embedder: Embedder = open_embedder(
            self.client,
            settings.embeddings,
            settings.embed_model,
            settings.embed_batch,
            self.notify,
        )

    # -- reporting ------------------------------------------------------------------------
    @property
    def fatal(self) -> str:
        return self.client.fatal

    def notify(self, message: str) -> None:
        with self._notice_lock:
            if message in self.notices:
                return
            self.notices.append(message)
        log.warning("%s", message)

    def usage(self) -> dict[str, Any]:
        """The run report's "model" section and the HUD's usage line."""
        out = self.meter.snapshot()
        out.update(
            model=self.settings.model,
            cheap_model=self.settings.cheap_model or self.settings.model,
            embedder=self.embedder.name,
            endpoint_down=self.client.down,
            budget_spent=self.guard.exhausted,
            notices=list(self.notices),
        )
        return out

    def restore_usage(self, saved: dict[str, Any]) -> None:
        """A loaded game keeps counting where its save left off."""
        self.meter.restore(saved)

    def close(self) -> None:
        self.audit.close()
        if self.cache is not None:
            self.cache.close()

    def _ask(self, q: Q.Question, agent: str, /, **args: Any) -> Any:
        return self.client.ask(q, args, agent)

    def _count(self, what: str, question: str, agent: str) -> None:
        self.meter.count(what, question, agent)

    # -- importance -------------------------------------------------------------------------
    def rate_importance(self, persona: Resident, texts: Sequence[str]) -> list[int]:
        known = [self._known_importance(persona, t) for t in texts]
        missing = list(dict.fromkeys(t for t, k in zip(texts, known, strict=True) if k is None))
        if missing:
            rated = self._ask(Q.IMPORTANCE, persona.name, persona=persona, texts=missing)
            mine = self.memo.of(persona.name, "importance")
            for text, score in zip(missing, rated, strict=True):
                mine.put(text, int(score))
            fresh = dict(zip(missing, rated, strict=True))
            known = [k if k is not None else fresh[t] for t, k in zip(texts, known, strict=True)]
        return [max(1, min(10, int(k))) for k in known]

    def _known_importance(self, persona: Resident, text: str) -> int | None:
        """From memos or the rules, counted; None when the model must be asked."""
        for owner in (persona.name, _actor(text, self.memo.residents())):
            score = self.memo.of(owner, "importance").get(text) if owner else None
            if score is not None:
                self._count("cache_hits", "importance", persona.name)
                return score
        sight = _OBJECT_SIGHT.match(text)
        routine = sight is not None and self.memo.routine(sight.group(1), sight.group(2))
        if routine or _SIM_STATUS.search(text):
            self._count("skipped", "importance", persona.name)
            return lexicon.importance(persona, text)
        return None

    # -- the day plan ---------------------------------------------------------------------------
    def plan_day(self, ctx: AgentContext, yesterday: str, wake: datetime) -> list[PlanItem]:
        sleep = _next_time(wake + timedelta(minutes=30), ctx.persona.sleep)
        hours = opening_hours(self.town, Q.plan_places(ctx), ctx.persona)
        return self._ask(
            Q.PLAN_DAY,
            ctx.persona.name,
            ctx=ctx,
            yesterday=yesterday,
            wake=wake,
            sleep=sleep,
            hours=hours,
        )

    def decompose(self, ctx: AgentContext, item: PlanItem, grain: int) -> list[PlanItem]:
        name = ctx.persona.name
        if grain >= 60:
            chunks = self._hours(ctx, item, grain)
            return [PlanItem(c.description, item.start, c.minutes, item.place) for c in chunks]
        steps = self.memo.of(name, "steps_of").get(item.description)
        if steps is not None:
            self._count("cache_hits", "decompose_steps", name)
        else:
            spots = self._spots(ctx, item)
            steps = self._ask(Q.DECOMPOSE_STEPS, name, ctx=ctx, item=item, grain=grain, spots=spots)
            self._learn(name, item.description, steps)
            self._prefetch([f"{name} is {s.description}" for s in steps])
        return _timed(item, steps)

    def _hours(self, ctx: AgentContext, item: PlanItem, grain: int) -> list[Chunk]:
        name = ctx.persona.name
        memo = self.memo.of(name, "hours_of")
        chunks = memo.get(item.description)
        if chunks is not None:
            self._count("cache_hits", "decompose_hours", name)
            return chunks
        spots = self._spots(ctx, item)
        chunks = self._ask(Q.DECOMPOSE_HOURS, name, ctx=ctx, item=item, grain=grain, spots=spots)
        if any(c.steps for c in chunks):  # not a scripted fallback: worth reusing
            memo.put(item.description, chunks)
        for chunk in chunks:
            if chunk.steps:
                self._learn(name, chunk.description, list(chunk.steps))
        texts = [c.description for c in chunks]
        self._prefetch(texts + [f"{name} is {s.description}" for c in chunks for s in c.steps])
        return chunks

    def _prefetch(self, texts: list[str]) -> None:
        """Embed now, in one request, the texts this answer makes certain to come: each
        action's memory (also what others will see) and each hour's retrieval query."""
        if texts and self.embedder.name.startswith("openai:"):
            self.embedder.embed(texts)

    def _learn(self, name: str, description: str, steps: list[Step]) -> None:
        """Remember a decomposition and what its answer said about each action."""
        if not any(s.emoji for s in steps):
            return  # a scripted fallback: nothing learned, ask again next time
        self.memo.of(name, "steps_of").put(description, steps)
        actions = self.memo.of(name, "action")
        importance = self.memo.of(name, "importance")
        for step in steps:
            actions.put(step.description, step)
            self.memo.emoji.put(step.description, step.emoji, keep_first=True)
            if step.importance:
                importance.put(f"{name} is {step.description}", step.importance)
            if step.address and step.state:
                self.memo.produce(split(step.address)[-1], step.state)

    def _spots(self, ctx: AgentContext, item: PlanItem) -> dict[str, str]:
        """'arena: object' -> address for the item's sector (else where the agent is)."""
        if self.town is None:
            return {}
        sector = split(item.place or ctx.location)[:1]
        name = sector[0] if sector and sector[0] in self.town.areas else ctx.persona.home
        return spots_of(self.town, name, ctx.persona)

    # -- where to act and what the things do -------------------------------------------------
    def choose_area(
        self,
        ctx: AgentContext,
        action: str,
        level: AreaKind,
        options: Sequence[str],
        current: str,
        hint: str = "",
        roles: Mapping[str, Role | None] | None = None,
    ) -> str:
        chosen = self._where(ctx, action, level, options, current, hint, roles)
        if level is AreaKind.SECTOR:  # remembered for this job's lower levels
            self._walk.state = ((ctx.persona.name, action, ctx.now), chosen, None)
        return chosen

    def _where(self, ctx, action, level, options, current, hint, roles=None) -> str:
        name = ctx.persona.name
        parts, depth = split(hint), LEVELS.get(level, 0)
        if len(parts) > depth and parts[depth] in options:
            self._count("skipped", "choose_area", name)
            return parts[depth]
        spot = self._walked(ctx, action, level, options)
        if spot:
            return spot
        memo = self.memo.of(name, "area")
        key = (action, level.value, tuple(options), current, hint)
        chosen = memo.get(key)
        if chosen is not None:
            self._count("cache_hits", "choose_area", name)
            return chosen
        if level is AreaKind.ARENA:
            chosen = self._arena_and_object(ctx, action, options, current, hint)
        if not chosen:
            chosen = self._ask(
                Q.CHOOSE_AREA,
                name,
                ctx=ctx,
                action=action,
                level=level,
                options=list(options),
                current=current,
                hint=hint,
                roles=roles or {},
            )
        memo.put(key, chosen)
        return chosen

    def _walked(self, ctx: AgentContext, action: str, level: AreaKind, options) -> str:
        """The object this job's arena answer already named, if it is offered."""
        state = getattr(self._walk, "state", None)
        if level is not AreaKind.OBJECT or state is None or state[2] is None:
            return ""
        job, _, obj = state
        if job == (ctx.persona.name, action, ctx.now) and obj in options:
            self._count("skipped", "choose_area", ctx.persona.name)
            return obj
        return ""

    def _arena_and_object(self, ctx, action, options, current, hint) -> str:
        """One question for the room and the object in it: the job's sector is known from
        its sector answer, so the spots ('kitchen: stove') can be offered together."""
        state = getattr(self._walk, "state", None)
        job = (ctx.persona.name, action, ctx.now)
        if self.town is None or state is None or state[0] != job:
            return ""
        spots = {
            label: address
            for label, address in spots_of(self.town, state[1], ctx.persona).items()
            if split(address)[1] in options
        }
        if len(spots) < 2:
            return ""
        label = self._ask(
            Q.CHOOSE_AREA,
            ctx.persona.name,
            ctx=ctx,
            action=action,
            level=AreaKind.OBJECT,
            options=list(spots),
            current=current,
            hint=hint,
        )
        parts = split(spots[label])
        self._walk.state = (job, state[1], parts[2] if len(parts) > 2 else None)
        return parts[1]

    def object_state(self, persona: Resident, action: str, obj: str, old_state: str) -> str:
        state, emoji = self._state_and_emoji(persona, action, obj, old_state)
        self._handoff.last = (action, emoji)
        self.memo.produce(obj, state)
        return state

    def _state_and_emoji(
        self, persona: Resident, action: str, obj: str, old_state: str
    ) -> tuple[str, str]:
        name = persona.name
        step: Step | None = self.memo.of(name, "action").get(action)
        if step is not None and step.state and split(step.address)[-1:] == [obj]:
            self._count("cache_hits", "object_state", name)
            return step.state, step.emoji
        memo = self.memo.of(name, "state")
        key = (action, obj, old_state)
        found = memo.get(key)
        if found is not None:
            self._count("cache_hits", "object_state", name)
            return found
        found = self._ask(
            Q.OBJECT_STATE, name, persona=persona, action=action, obj=obj, old_state=old_state
        )
        memo.put(key, found)
        return found

    def emoji(self, action: str) -> str:
        handed = getattr(self._handoff, "last", None)
        self._handoff.last = None
        if handed is not None and handed[0] == action and handed[1]:
            self._count("cache_hits", "emoji", "")
            return handed[1]
        found = self.memo.emoji.get(action)
        if found is not None:
            self._count("cache_hits", "emoji", "")
            return found
        found = self._ask(Q.EMOJI, "", action=action)
        self.memo.emoji.put(action, found, keep_first=True)
        return found

    # -- reacting and talking -----------------------------------------------------------------
    def react(self, ctx: AgentContext, observation: Observation) -> Reaction:
        name, subject = ctx.persona.name, observation.subject
        obj = subject.split(SEP)[-1]
        if not observation.is_agent and self.memo.routine(obj, observation.status):
            self._count("skipped", "react", name)
            return CONTINUE
        quiet = self.memo.of(name, "quiet")
        since = quiet.get(subject)
        if since is not None and timedelta(0) <= ctx.now - since < REACT_QUIET:
            self._count("skipped", "react", name)
            return CONTINUE
        reaction = self._ask(Q.REACT, name, ctx=ctx, observation=observation)
        if reaction.kind is ReactionKind.CONTINUE:
            quiet.put(subject, ctx.now)
        return reaction

    def utter(self, ctx: AgentContext, partner: str, history: Sequence[Utterance]) -> Utterance:
        return self._ask(
            Q.UTTER, ctx.persona.name, ctx=ctx, partner=partner, history=tuple(history)
        )

    def converse(self, ctx_a: AgentContext, ctx_b: AgentContext, max_turns: int) -> list[Utterance]:
        """Both sides of a conversation in one request (the paper suggests it). The same
        answer rates the conversation for each side, so storing it costs no request."""
        a, b = ctx_a.persona.name, ctx_b.persona.name
        talk: Q.Talk = self._ask(Q.CONVERSE, a, ctx_a=ctx_a, ctx_b=ctx_b, max_turns=max_turns)
        text = transcript(a, b, talk.lines[:max_turns])
        for who, score in zip((a, b), talk.importance, strict=True):
            if score:
                self.memo.of(who, "importance").put(text, score)
        return list(talk.lines)

    # -- reflection, summaries, interviews ----------------------------------------------------
    def reflect_questions(self, persona: Resident, recent: Sequence[MemoryRecord]) -> list[str]:
        return self._ask(Q.REFLECT_QUESTIONS, persona.name, persona=persona, recent=list(recent))

    def insights(
        self, persona: Resident, question: str, memories: Sequence[MemoryRecord]
    ) -> list[Insight]:
        return self._ask(
            Q.INSIGHTS, persona.name, persona=persona, question=question, memories=list(memories)
        )

    def summarize(self, persona: Resident, topic: str, memories: Sequence[MemoryRecord]) -> str:
        return self._ask(
            Q.SUMMARIZE, persona.name, persona=persona, topic=topic, memories=list(memories)
        )

    def answer(self, ctx: AgentContext, question: str) -> str:
        return self._ask(Q.ANSWER, ctx.persona.name, ctx=ctx, question=question)


# -- helpers ---------------------------------------------------------------------------------


def _actor(text: str, residents: Sequence[str]) -> str:
    """The resident a 'Maria Lopez is studying' text is about, if its memo exists."""
    for name in residents:
        if text.startswith(name + " is "):
            return name
    return ""


def transcript(a: str, b: str, lines: Sequence[Utterance]) -> str:
    """The conversation memory as cognition.converse_job words it (so its importance,
    rated in the conversation's own answer, is found by text; a mismatch only costs a
    request)."""
    said = " | ".join(f"{u.speaker}: {u.text.strip()[:300]}" for u in lines if u.text.strip())
    return f"Conversation between {a} and {b}: " + said


def _timed(item: PlanItem, steps: Sequence[Step]) -> list[PlanItem]:
    out, start = [], item.start
    for step in steps:
        out.append(PlanItem(step.description, start, step.minutes, step.address or item.place))
        start += timedelta(minutes=step.minutes)
    return out


def _next_time(after: datetime, minute: int) -> datetime:
    day = after.replace(hour=0, minute=0, second=0, microsecond=0)
    when = day + timedelta(minutes=minute)
    return when if when >= after else when + timedelta(days=1)


def spots_of(town: Town, sector: str, persona: Resident) -> dict[str, str]:
    """The sector's objects as 'arena: object' (an arena with none as itself), leaving
    out other people's private rooms so the model is not tempted into them."""
    out: dict[str, str] = {}
    if sector not in town.areas:
        return out
    for arena in town.children(sector, AreaKind.ARENA):
        if _private_to_other(arena.name, persona):
            continue
        objects = town.children(arena.address, AreaKind.OBJECT)
        for thing in objects:
            out[f"{arena.name}: {thing.name}"] = thing.address
        if not objects:
            out[arena.name] = arena.address
    return out


def opening_hours(town: Town | None, places: Sequence[str], persona: Resident) -> dict:
    """' (open 08:00-20:00)' for the places with hours the persona does not work in."""
    out = {}
    for place in places:
        area = town.areas.get(place) if town is not None else None
        if area is None or area.opens is None or area.closes is None:
            continue
        if place in (persona.home, persona.workplace):
            continue
        out[place] = f" (open {_clock(area.opens)}-{_clock(area.closes)})"
    return out


def _clock(minute: int) -> str:
    minute %= 24 * 60
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _private_to_other(arena: str, persona: Resident) -> bool:
    if "'s " not in arena:
        return False
    return not (arena.startswith(persona.name) or arena.startswith(persona.first_name + "'s"))


def audit_path(settings: LLMSettings) -> Path | None:
    if not settings.audit:
        return None
    if settings.audit_file:
        return Path(settings.audit_file).expanduser()
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return data_dir() / "saves" / "audit" / f"llm-{stamp}.jsonl"  # beside the saves


def open_cache(settings: LLMSettings) -> ReplayCache | None:
    if not (settings.record or settings.replay):
        return None
    path = Path(settings.cache_file).expanduser() if settings.cache_file else None
    return ReplayCache(path or cache_dir() / "llm-cache.sqlite3", replay=settings.replay)
