"""The player's commands: walk as a visitor, chat, interview, inner voice, edit objects.

The UI calls these; they only queue work or change state on the simulation thread, and
anything that needs the brain runs as a job like any other cognition.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from game.core.errors import SmallvilleError
from game.core.records import Observation, Source, Utterance
from game.mind import facts
from game.mind.agent import Action, ActionKind
from game.mind.cognition import inner_voice_job, interview, visitor_chat_job
from game.mind.perception import Sighting
from game.sim.events import EventKind
from game.world.town import AreaKind

if TYPE_CHECKING:
    from game.sim.simulation import Simulation

CHAT_RANGE = 4  # tiles: how near the visitor must stand to talk
CHAT_IDLE = timedelta(minutes=3)  # game time without a word before a chat lapses


@dataclass
class Visitor:
    name: str
    pos: tuple[int, int]
    facing: str = "down"
    talking_to: str = ""


@dataclass
class Ticket:
    """An answer that arrives later (interviews run on the thread pool)."""

    future: Future = field(repr=False)

    def done(self) -> bool:
        return self.future.done()

    @property
    def result(self) -> str | None:
        if not self.future.done() or self.future.exception() is not None:
            return None
        return self.future.result()

    @property
    def error(self) -> str | None:
        if not self.future.done():
            return None
        exc = self.future.exception()
        return f"{type(exc).__name__}: {exc}" if exc else None


class PlayerCommands:
    """Mixed into Simulation: the commands the UI (or a test) sends."""

    visitor: Visitor | None
    chats: dict[str, list[Utterance]]
    _player_jobs: dict[str, tuple[str, Any]]
    _chat_last: dict[str, datetime]

    def _init_player(self: Simulation) -> None:
        self.visitor = None
        self.chats = {}
        self._player_jobs = {}
        self._chat_last = {}
        self._chat_status: dict[str, str] = {}

    # -- the visitor --------------------------------------------------------------------
    def add_visitor(self: Simulation, name: str) -> Visitor:
        name = " ".join(name.split())[:40] or "Visitor"
        if name in self.agents:
            raise SmallvilleError(f"{name!r} is a resident's name; choose another")
        pos = self.town.spawns.get("visitor") or next(iter(self.town.spawns.values()))
        self.visitor = Visitor(name, pos)
        return self.visitor

    def move_visitor(self: Simulation, dx: int, dy: int) -> bool:
        v = self.visitor
        if v is None or (dx, dy) == (0, 0):
            return False
        v.facing = ("right" if dx > 0 else "left") if dx else ("down" if dy > 0 else "up")
        target = (v.pos[0] + dx, v.pos[1] + dy)
        if not self.town.is_walkable(*target):
            return False
        v.pos = target
        return True

    def _sight_visitor(self: Simulation, agent) -> Sighting | None:
        v = self.visitor
        if v is None or self.town.address_at(*v.pos) != agent.location:
            return None
        d = max(abs(v.pos[0] - agent.pos[0]), abs(v.pos[1] - agent.pos[1]))
        if d > self.config.mind.vision_radius:
            return None
        status = f"talking with {v.talking_to}" if v.talking_to else "looking around"
        fact = facts.doing(v.name, status, Source.VISITOR)
        return Sighting(Observation(v.name, facts.render(fact), True, status, fact), d)

    def visitor_near(self: Simulation, resident: str) -> bool:
        v, agent = self.visitor, self.agents.get(resident)
        if v is None or agent is None:
            return False
        return max(abs(v.pos[0] - agent.pos[0]), abs(v.pos[1] - agent.pos[1])) <= CHAT_RANGE

    # -- chat ---------------------------------------------------------------------------
    def visitor_say(self: Simulation, resident: str, text: str) -> None:
        if self.visitor is None or resident not in self.agents:
            raise SmallvilleError(f"no resident named {resident!r}")
        text = " ".join(text.split())[:500]
        if not text:
            return
        self.chats.setdefault(resident, []).append(Utterance(self.visitor.name, text))
        self.visitor.talking_to = resident
        self._queue(resident, "visitor", None)
        self._hold_for_chat(resident)

    def chat_lines(self: Simulation, resident: str) -> list[Utterance]:
        return list(self.chats.get(resident, []))

    def chat_pending(self: Simulation, resident: str) -> bool:
        return resident in self._player_jobs or (
            self.scheduler.busy(resident)
            and bool(self.chats.get(resident))
            and self.chats[resident][-1].speaker != resident
        )

    def end_chat(self: Simulation, resident: str) -> None:
        if self.visitor is not None and self.visitor.talking_to == resident:
            self.visitor.talking_to = ""
        agent = self.agents.get(resident)
        chatting = agent is not None and agent.action is not None and agent.conversation is None
        if chatting and agent.action.kind is ActionKind.CHAT:
            agent.action = None

    def _hold_for_chat(self: Simulation, resident: str) -> None:
        """A resident stops to talk with the visitor."""
        agent = self.agents[resident]
        if agent.asleep or agent.conversation is not None:
            return
        if agent.action is None or agent.action.kind is not ActionKind.CHAT:
            self._chat_status[resident] = agent.status  # what they were doing, to talk about
        self.stop(agent)
        end = self.now + CHAT_IDLE
        who = self.visitor.name if self.visitor else "the visitor"
        agent.action = Action(
            f"talking with {who}", agent.location, self.now, end, ActionKind.CHAT, "💬"
        )
        self._chat_last[resident] = self.now

    def _greet_visitor(self: Simulation, resident: str) -> None:
        """A resident who noticed the visitor decided to speak first."""
        if self.visitor is None or self.visitor.talking_to not in ("", resident):
            return
        self.visitor.talking_to = resident
        self._queue(resident, "visitor", None)
        self._hold_for_chat(resident)

    def _expire_chats(self: Simulation) -> None:
        for resident, since in list(self._chat_last.items()):
            agent = self.agents[resident]
            far = not self.visitor_near(resident)
            if self.now - since > CHAT_IDLE or far:
                del self._chat_last[resident]
                self.end_chat(resident)
            elif agent.action is not None and agent.action.kind is ActionKind.CHAT:
                agent.action = Action(
                    agent.action.description,
                    agent.action.address,
                    agent.action.start,
                    self.now + CHAT_IDLE,
                    ActionKind.CHAT,
                    "💬",
                )

    # -- interview, inner voice, objects -----------------------------------------------
    def interview(self: Simulation, resident: str, question: str) -> Ticket:
        """Ask as an interviewer; the answer changes no memory."""
        agent = self.agents.get(resident)
        if agent is None:
            raise SmallvilleError(f"no resident named {resident!r}")
        snap = agent.snapshot(self.now)
        future = self.scheduler.run_detached(interview, self.mind, snap, self.town, question)
        return Ticket(future)

    def inner_voice(self: Simulation, resident: str, text: str) -> None:
        if resident not in self.agents:
            raise SmallvilleError(f"no resident named {resident!r}")
        text = " ".join(text.split())[:500]
        if text:
            self._queue(resident, "inner_voice", text)
            self.log.add(self.now, EventKind.PLAYER, resident, f"inner voice: {text}")

    def set_object_state(self: Simulation, address: str, state: str) -> None:
        area = self.town.find(address) or self.town.resolve(address)
        if area is None or area.kind is not AreaKind.OBJECT:
            raise SmallvilleError(f"no object at {address!r}")
        state = " ".join(state.split())[:60] or area.default_state
        self._set_state(area.address, state, "player")
        self.log.add(self.now, EventKind.PLAYER, "player", f"{area.address} set to {state}")

    def brain_label(self: Simulation) -> str:
        brain = self.mind.brain
        if brain.name == "scripted":
            return "scripted residents: no language model configured"
        host = urlparse(getattr(brain, "base_url", "") or "").hostname or "default endpoint"
        return f"language model {getattr(brain, 'model', brain.name)} at {host}"

    # -- queued player jobs, run when the resident has no job in flight ----------------
    def _queue(self: Simulation, resident: str, kind: str, payload: Any) -> None:
        self._player_jobs[resident] = (kind, payload)

    def _submit_player_jobs(self: Simulation) -> None:
        for resident in sorted(self._player_jobs):
            if self.scheduler.busy(resident):
                continue
            kind, payload = self._player_jobs.pop(resident)
            agent = self.agents[resident]
            snap = agent.snapshot(self.now)
            job: Callable[..., Any]
            if kind == "visitor" and self.visitor is not None:
                snap = replace(snap, status=self._chat_status.get(resident, snap.status))
                history = tuple(self.chats.get(resident, []))
                job, args = (
                    visitor_chat_job,
                    (self.mind, snap, self.town, self.visitor.name, history),
                )
            elif kind == "inner_voice":
                job, args = inner_voice_job, (self.mind, snap, self.town, payload)
            else:
                continue
            self.scheduler.submit((resident,), kind, job, *args)

    def _apply_reply(self: Simulation, resident: str, reply: Utterance) -> None:
        self.chats.setdefault(resident, []).append(reply)
        self._chat_last[resident] = self.now
        self.log.add(
            self.now,
            EventKind.CONVERSATION,
            resident,
            f"{resident} talks with the visitor",
            participants=[resident, self.visitor.name if self.visitor else "visitor"],
            lines=[[reply.speaker, reply.text]],
            visitor=True,
        )
        if reply.end:
            self.end_chat(resident)
