"""Appliers: what a job's effect does to the town, on the simulation's thread.

The effect table says what each kind of job does beyond storing its memories; memories
are written here (and their known vectors filled in); actions start here, and so do
conversations, the ones residents wish for and the ones their jobs bring back. A job
that failed leaves its resident in a safe state and is counted (`game.sim.health`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from game.core.records import MemoryKind, Source
from game.core.text import single_line as clean_line
from game.mind import facts
from game.mind.agent import Action, ActionKind, Agent, Conversation
from game.mind.cognition import Mind, converse_job, foresee
from game.mind.effects import (
    Conversed,
    Effect,
    InnerVoiced,
    JobKind,
    NextAction,
    Perceived,
    Prepared,
    Reflected,
    Seeded,
    VisitorReplied,
    Woke,
)
from game.sim.actions import Actions
from game.sim.config import SimConfig
from game.sim.decisions import Decisions
from game.sim.events import EventKind, answered_by
from game.sim.health import JobHealth
from game.sim.player import Player
from game.sim.scheduler import Finished, Lane, Scheduler
from game.sim.state import SimState

# What counts towards the reflection trigger: events perceived (the paper), not the
# agent's own reflections and plans, which would otherwise trigger ever more reflection.
PERCEIVED = (MemoryKind.OBSERVATION, MemoryKind.CHAT)


class Appliers:
    """Applies finished jobs: the effect table, memory writes and conversations."""

    def __init__(
        self,
        state: SimState,
        agents: Mapping[str, Agent],
        actions: Actions,
        decisions: Decisions,
        player: Player,
        scheduler: Scheduler,
        mind: Mind,
        config: SimConfig,
        jobs: JobHealth,
    ) -> None:
        self.state, self.agents, self.actions, self.decisions = state, agents, actions, decisions
        self.player, self.scheduler, self.mind = player, scheduler, mind
        self.config, self.jobs = config, jobs
        self.town = state.town
        self._table = self._effect_table()

    @property
    def now(self) -> datetime:
        return self.state.now

    # -- finished jobs --------------------------------------------------------------------
    def apply(self, finished: Finished) -> None:
        self.decisions.landed(finished)
        if finished.error is not None:
            self._job_failed(finished)
            return
        results = finished.result
        for effect in results if isinstance(results, list) else [results]:
            self.apply_effect(effect)

    def apply_effect(self, effect: Effect) -> None:
        """Store what a job remembered, then do what its kind of job does."""
        agent = self.agents.get(effect.agent)
        if agent is None or _overtaken(agent, effect):
            return
        self._store(agent, effect)
        self._table[effect.job](agent, effect)

    def _job_failed(self, finished: Finished) -> None:
        """A failed job costs the agent some waiting, never the run nor its memories: the
        agent is left in a safe state, a failed seeding is tried again (never marked done),
        and repeated failures become a notice a person sees and the report counts."""
        err, log, now = finished.error, self.state.log, self.now
        problem = clean_line(f"{type(err).__name__}: {err}", 200)
        if finished.lane is Lane.AHEAD:  # nothing lost: the agent is asked when it gets there
            for name in finished.agents:
                log.add(now, EventKind.ERROR, name, f"asking ahead failed: {problem}")
            return
        for name in finished.agents:
            agent = self.agents.get(name)
            if agent is None:
                continue
            log.add(now, EventKind.ERROR, name, f"{finished.label} failed: {problem}")
            self.jobs.failed(name, finished.label, now, problem)
            if agent.conversation is None and not agent.asleep and agent.seeded:
                end = now + timedelta(minutes=1)
                desc = "pausing to collect their thoughts"
                agent.action = Action(desc, agent.location, now, end, ActionKind.WAIT, "💭")

    # -- the effect table -----------------------------------------------------------------
    def _effect_table(self) -> dict[JobKind, Callable[[Agent, Any], None]]:
        """What each kind of job's effect does to its agent, beyond storing memories."""
        return {
            JobKind.SEED: self._seeded,
            JobKind.WAKE: self._wake,
            JobKind.NEXT_ACTION: self._next_action,
            JobKind.PERCEIVE: self._perceived,
            JobKind.REFLECT: self._reflected,
            JobKind.CONVERSE: self._conversed,
            JobKind.VISITOR: self._visitor_replied,
            JobKind.INNER_VOICE: self._inner_voiced,
            JobKind.PREPARE: self._hold_prepared,
        }

    def _seeded(self, agent: Agent, e: Seeded) -> None:
        agent.seeded = True
        self.jobs.seeded(agent.name)
        if agent.action is not None and agent.action.kind is ActionKind.SLEEP:
            self.decisions.ask_ahead(agent)  # the first morning, asked during the night

    def _next_action(self, agent: Agent, e: NextAction) -> None:
        agent.plan = e.plan
        if e.action is not None:
            self.start_action(agent, e.action)

    def _hold_prepared(self, agent: Agent, e: Prepared) -> None:
        self.decisions.hold(e)

    def _perceived(self, agent: Agent, e: Perceived) -> None:
        talking = agent.conversation is not None
        if talking or (agent.action is not None and agent.action.kind is ActionKind.CHAT):
            return  # a conversation began meanwhile: what was seen is only remembered
        if agent.asleep:
            return
        if e.plan is not None:
            agent.plan = e.plan
        if e.action is not None:
            self.start_action(agent, e.action, e.note)
        elif e.talk_to:
            self.request_talk(agent, e.talk_to)

    def _reflected(self, agent: Agent, e: Reflected) -> None:
        agent.reflections += 1
        insights = [m.text for m in e.memories]
        self.state.log.add(
            self.now, EventKind.REFLECTION, agent.name, "reflects", insights=insights
        )

    def _conversed(self, agent: Agent, e: Conversed) -> None:
        if e.plan is not None:
            agent.plan = e.plan
        if e.conversation is not None:
            self._start_conversation(agent, e.conversation)

    def _visitor_replied(self, agent: Agent, e: VisitorReplied) -> None:
        if e.reply is not None:
            self.player.apply_reply(agent.name, e.reply)

    def _inner_voiced(self, agent: Agent, e: InnerVoiced) -> None:
        if e.plan is not None:
            agent.plan = e.plan
        if agent.action is not None and agent.action.kind is ActionKind.PLAN:
            self.actions.finish(agent, agent.action)

    def _wake(self, agent: Agent, e: Woke) -> None:
        agent.summary, agent.summary_day = e.summary, e.summary_day
        agent.asleep = False
        agent.woke_on = self.now.date().isoformat()
        agent.plan = e.plan
        if agent.action is not None and agent.action.kind is ActionKind.SLEEP:
            self.actions.finish(agent, agent.action)
        agent.action = None
        log = self.state.log
        log.add(self.now, EventKind.WAKE, agent.name, f"{agent.name} wakes up")
        log.add(self.now, EventKind.PLAN, agent.name, "plans the day", plan=agent.plan.lines())

    # -- memory writes --------------------------------------------------------------------
    def _store(self, agent: Agent, e: Effect) -> None:
        stream = agent.memory
        if not self.config.mind.ablation.memory:
            return
        if e.touched:
            stream.touch(e.touched, self.now)
        for m in e.memories:
            evidence = tuple(i for i in m.evidence if i < len(stream))
            stream.add(m.kind, m.text, self.now, m.importance, m.embedding, m.fact, evidence)
            if m.kind in PERCEIVED:
                agent.reflect_pool += m.importance
        self._fill_known_vectors(agent)

    def _fill_known_vectors(self, agent: Agent) -> None:
        """Vectors some retrieval has fetched since (the embedder keeps them) go into the
        stream, so later retrievals need not send those texts again; the rest ride along
        with the next embedding request anyone sends."""
        stream = agent.memory
        missing = stream.missing()
        if not missing:
            return
        embedder = self.mind.embedder
        known = embedder.peek([stream.text(i) for i in missing])
        stream.fill({i: known[stream.text(i)] for i in missing if stream.text(i) in known})
        embedder.later([stream.text(i) for i in stream.missing()])  # ride the next request

    def settle_memories(self) -> None:
        """Embed every memory still without a vector, in one request: a save holds every
        vector, so a loaded game never meets a half-embedded stream."""
        pending = [(a, i) for a in self.agents.values() for i in a.memory.missing()]
        if not pending:
            return
        texts = list(dict.fromkeys(a.memory.text(i) for a, i in pending))
        vectors = dict(zip(texts, self.mind.embedder.embed(texts), strict=True))
        for agent in self.agents.values():
            stream = agent.memory
            stream.fill({i: vectors[stream.text(i)] for i in stream.missing()})

    # -- actions --------------------------------------------------------------------------
    def start_action(self, agent: Agent, action: Action, note: str = "") -> None:
        """Begin an action now: a place that is full makes the agent wait instead."""
        now, log = self.now, self.state.log
        if agent.action is not None and agent.action is not action:
            self.actions.finish(agent, agent.action)
        if action.kind is ActionKind.REACT:  # as long as decided, however late the thought
            action = replace(action, end=now + (action.end - action.start))
        action = replace(action, start=now, end=max(action.end, now))
        if self.actions.full(agent, action.address):
            end = now + timedelta(minutes=2)
            where = self.town.areas[action.address].name if action.address else "place"
            desc = f"waiting for the {where} to be free"
            action = Action(desc, agent.location, now, end, ActionKind.WAIT, "⏳")
        agent.action = action
        if action.kind is ActionKind.REACT:
            log.add(now, EventKind.REACTION, agent.name, note or action.description)
        log.add(
            now,
            EventKind.ACTION,
            agent.name,
            action.description,
            address=action.address,
            emoji=action.emoji,
        )
        seen = facts.doing(agent.name, action.description, Source.SEEN)
        foresee(self.mind, [facts.render(seen)])  # what those who see it will remember
        self.actions.route(agent, action)
        self.decisions.ask_ahead(agent)

    # -- conversations --------------------------------------------------------------------
    def request_talk(self, agent: Agent, partner_name: str) -> None:
        """A resident wishes to talk: both stop and greet while their lines are made."""
        visitor = self.player.visitor
        if visitor is not None and partner_name == visitor.name:
            if self.player.visitor_near(agent.name):  # not gone out of reach meanwhile
                agent.last_chat[partner_name] = self.now
                self.player.greet(agent.name)
            return
        other, reach = self.agents.get(partner_name), 2 * self.config.mind.vision_radius
        view = self.actions.view  # stepping apart, one out of reach is at another step
        if other is None or (view is not None and not view.within(agent, other, reach)):
            return
        if not self._free_to_talk(agent, other):
            return
        far = max(abs(agent.pos[0] - other.pos[0]), abs(agent.pos[1] - other.pos[1]))
        if far > reach:
            return  # they went their ways while the wish to talk formed
        snaps = (agent.snapshot(self.now), other.snapshot(self.now))  # before they stop
        for person in (agent, other):
            self.actions.stop(person)
            partner = other.name if person is agent else agent.name
            person.action = Action(
                f"starting a conversation with {partner}",
                person.location,
                self.now,
                self.now + timedelta(hours=1),
                ActionKind.CHAT,
                "💬",
            )
        self.scheduler.submit(
            (agent.name, other.name),
            JobKind.CONVERSE.value,
            converse_job,
            self.mind,
            snaps[0],
            snaps[1],
            self.actions.surroundings(agent),
            delay=self.config.timing.talk_steps,
        )

    def _free_to_talk(self, agent: Agent, other: Agent) -> bool:
        """Neither asleep, in a conversation, talking with the visitor, nor thinking."""
        if other.asleep or other.conversation is not None:
            return False
        if self.player.chatting(agent.name) or self.player.chatting(other.name):
            return False  # one of them is talking with the visitor
        return not (self.scheduler.busy(other.name) or self.scheduler.busy(agent.name))

    def _start_conversation(self, agent: Agent, talk: Conversation) -> None:
        talk = replace(talk, start=self.now)
        partner = talk.partner_of(agent.name)
        agent.conversation = talk
        agent.action = Action(
            f"talking with {partner}", agent.location, self.now, talk.end, ActionKind.CHAT, "💬"
        )
        agent.last_chat[partner] = self.now
        agent.conversations += 1
        self.decisions.ask_ahead(agent)  # what to do when the conversation ends
        if agent.name == talk.participants[0]:
            self.state.log.add(
                self.now,
                EventKind.CONVERSATION,
                agent.name,
                f"{agent.name} talks with {partner}",
                participants=list(talk.participants),
                lines=[[u.speaker, u.text] for u in talk.lines],
                **answered_by(talk.lines),
            )


def _overtaken(agent: Agent, effect: Effect) -> bool:
    """A next action that arrives after the agent already found something to do (a
    reaction from its thoughts, which run beside its decisions) is dropped whole,
    memory included: the agent never did it."""
    return isinstance(effect, NextAction) and agent.action is not None
