"""The player's commands: walk as a visitor, chat, interview, inner voice, edit objects.

`Player` is a collaborator the simulation holds as `sim.player`; the UI (or a test)
calls it. It is handed the few parts of the simulation it needs (a PlayerContext: the
town's state, its actions, the residents, the scheduler and the mind), so it never
imports the Simulation. Its commands only queue work or change state on the
simulation's thread, and anything that needs the brain runs as a job like any other
cognition.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from game.core.codec import decode, encode
from game.core.errors import SmallvilleError
from game.core.records import Observation, Source, Utterance
from game.core.text import clean
from game.mind import facts
from game.mind.agent import Action, ActionKind, Agent
from game.mind.cognition import Mind, inner_voice_job, interview, visitor_chat_job
from game.mind.effects import JobKind
from game.mind.perception import Notice, Sighting
from game.sim import stride
from game.sim.actions import Actions
from game.sim.chats import (
    CHAT_IDLE,
    CHAT_KEEP,
    EXCUSED,
    ChatEnd,
    TalkTarget,
    TalkWhy,
    VisitorChat,
    in_reach,
    nearest,
)
from game.sim.events import EventKind, EventLog, answered_by
from game.sim.nearby import Grid
from game.sim.notices import NOTICE_LIMIT as NOTICE_LIMIT  # where callers look
from game.sim.notices import NoticeBoards
from game.sim.scheduler import Scheduler
from game.sim.setup import facing
from game.sim.state import EditSource, SimState
from game.world.town import AreaKind, Town

# What a visitor's name may hold: it goes into every prompt, so nothing that could end a
# quotation or start a new line of the prompt (letters, digits, spaces, - ' .).
VISITOR_NAME = re.compile(r"[^\w '.-]")
STATE_LIMIT = 60  # characters of an object's state


def plain_state(text: str, name: str) -> str:
    """The state in what a player typed: 'the sink is overflowing.', "it's overflowing"
    and 'is now overflowing' are all 'overflowing', so the log and the residents' memories
    say 'the kitchen sink is overflowing', never '... is the sink is overflowing'."""
    words = " ".join(clean(text).split()).strip(" .!")
    names = sorted({re.escape(name), re.escape(name.split()[-1])}, key=len, reverse=True)
    subject = rf"(?:(?:the|my|this|that|your)\s+)?(?:{'|'.join(names)}|it)"
    verb = r"(?:\s+is|\s+was|['’]s)"
    lead = re.match(rf"(?:{subject}{verb}\s+|is\s+)?(?:now\s+)?", words, re.IGNORECASE)
    rest = words[lead.end() :] if lead else words
    return rest or words


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


@dataclass(frozen=True)
class VisitorReply:
    """A queued job: the resident answers what the visitor said."""

    kind = JobKind.VISITOR


@dataclass(frozen=True)
class InnerVoice:
    """A queued job: the resident takes `text` as its own thought."""

    text: str
    kind = JobKind.INNER_VOICE


PlayerJob = VisitorReply | InnerVoice


@dataclass(frozen=True)
class PlayerContext:
    """The parts of a simulation the player's commands touch, and no more."""

    state: SimState  # the clock, the objects' states and the event log
    actions: Actions  # stopping a walker, changing an object: logged alike for replays
    agents: Mapping[str, Agent]
    scheduler: Scheduler
    mind: Mind
    nearby: Grid  # the residents by tile cell, shared with sight

    @property
    def town(self) -> Town:
        return self.state.town

    @property
    def log(self) -> EventLog:
        return self.state.log


class Player:
    """The commands the UI (or a test) sends, and the visitor's chats they lead to."""

    def __init__(self, ctx: PlayerContext) -> None:
        self.ctx = ctx
        self.visitor: Visitor | None = None
        self.chats: dict[str, list[Utterance]] = {}
        self._jobs: dict[str, PlayerJob] = {}
        # the latest conversation with each resident (at most one goes on); not saved: a
        # loaded game has none going on, so no finished one is ever taken up again
        self.talks: dict[str, VisitorChat] = {}
        self._holds: dict[str, Action] = {}  # the action that holds a resident for a chat
        self._asked: dict[str, VisitorChat] = {}  # the conversation a reply is asked for
        self._excused: dict[str, datetime] = {}  # who had to go, until when
        self._chat_status: dict[str, str] = {}
        self.board = NoticeBoards.of(ctx.town)  # the notices posted, and who read which

    @property
    def now(self) -> datetime:
        return self.ctx.state.now

    def _agent(self, resident: str) -> Agent:
        agent = self.ctx.agents.get(resident)
        if agent is None:
            raise SmallvilleError(f"no resident named {resident!r}")
        return agent

    # -- the visitor --------------------------------------------------------------------
    def add_visitor(self, name: str) -> Visitor:
        name = " ".join(VISITOR_NAME.sub("", clean(name)).split())[:40] or "Visitor"
        if name in self.ctx.agents:
            raise SmallvilleError(f"{name!r} is a resident's name; choose another")
        spawns = self.ctx.town.spawns
        self.visitor = Visitor(name, spawns.get("visitor") or next(iter(spawns.values())))
        return self.visitor

    def move_visitor(self, dx: int, dy: int) -> bool:
        """One step; an obstacle a tile or two wide is walked around, a resident's tile
        never stepped on (`game.sim.stride`)."""
        v = self.visitor
        if v is None or (dx, dy) == (0, 0):
            return False
        v.facing = facing(dx, dy, v.facing)
        target = stride.step(self.ctx.town, v.pos, (dx, dy), self._resident_tiles())
        if target is None:
            return False
        v.pos = target
        return True

    def settle_visitor(self) -> bool:
        """The visitor steps aside when it stands where it cannot: on furniture (an old
        save, a script), or on the tile of a resident who stopped there; returns whether
        it moved. Residents walking through are let pass."""
        v, town = self.visitor, self.ctx.town
        if v is None:
            return False
        standing = {a.pos for a in self.ctx.agents.values() if not a.path}
        if stride.free(town, v.pos, standing):
            return False
        tile = stride.nearest_free(town, v.pos, self._resident_tiles(), town.address_at(*v.pos))
        if tile is None or tile == v.pos:
            return False
        v.pos = tile
        return True

    def _resident_tiles(self) -> set[tuple[int, int]]:
        return {a.pos for a in self.ctx.agents.values()}

    def sighting(self, agent: Agent, radius: int) -> Sighting | None:
        """What `agent` sees of the visitor, if the visitor is in its area and in range."""
        v = self.visitor
        if v is None or self.ctx.town.address_at(*v.pos) != agent.location:
            return None
        d = _distance(v.pos, agent.pos)
        if d > radius or not self.ctx.town.in_sight(v.pos, agent.pos):
            return None
        status = f"talking with {v.talking_to}" if v.talking_to else "looking around"
        fact = facts.doing(v.name, status, Source.VISITOR)
        return Sighting(Observation(v.name, facts.render(fact), True, status, fact), d)

    def visitor_beside(self, resident: str) -> Visitor:
        """Put the visitor on a free tile next to the resident, in the same room (so the
        resident sees who speaks); a script's `say` stands there as a player would."""
        agent = self._agent(resident)
        v = self.visitor or self.add_visitor("Visitor")
        town, (x, y) = self.ctx.town, agent.pos
        taken = {a.pos for a in self.ctx.agents.values()}
        ring = [(x + dx, y + dy) for d in (1, 2) for dx in range(-d, d + 1) for dy in (-d, d)]
        ring += [(x + dx, y + dy) for d in (1, 2) for dy in range(-d + 1, d) for dx in (-d, d)]
        free = [t for t in ring if town.is_walkable(*t) and t not in taken]
        same_room = [t for t in free if town.address_at(*t) == agent.location]
        v.pos = (same_room or free or [agent.pos])[0]
        v.facing = facing(x - v.pos[0], y - v.pos[1], v.facing)
        return v

    def visitor_near(self, resident: str) -> bool:
        """Whether the visitor can talk with the resident now (`game.sim.chats.in_reach`:
        near, in the same building or street, no wall between); a conversation going on
        holds a step or two further than one may begin."""
        v, agent = self.visitor, self.ctx.agents.get(resident)
        if v is None or agent is None:
            return False
        return in_reach(self.ctx.town, v.pos, agent, self.chatting(resident))

    # -- chat ---------------------------------------------------------------------------
    @property
    def live_chat(self) -> VisitorChat | None:
        """The visitor's conversation going on, if any (there is at most one)."""
        return next((t for t in self.talks.values() if t.live), None)

    def chatting(self, resident: str) -> bool:
        """Whether the resident is in a conversation with the visitor now."""
        talk = self.talks.get(resident)
        return talk is not None and talk.live

    def chat_over(self, resident: str) -> ChatEnd | None:
        """How the last conversation with the resident ended (None: it goes on, or there
        was none since the game began or was loaded)."""
        talk = self.talks.get(resident)
        return None if talk is None else talk.ended

    def talk_target(self, chosen: str = "") -> TalkTarget | None:
        """Whom T talks with: the resident in a conversation with the visitor, or who just
        greeted it and waits for an answer; else `chosen` (open in the inspector) if in
        reach; else the nearest awake resident in reach. None: nobody is in reach."""
        v = self.visitor
        if v is None:
            return None
        talk = self.live_chat
        if talk is not None and self.visitor_near(talk.resident):
            fresh = talk.greeted and not talk.visitor_spoke
            return TalkTarget(talk.resident, TalkWhy.GREETED if fresh else TalkWhy.TALKING)
        near = self.ctx.nearby.fresh_near(v.pos, CHAT_KEEP)  # none further is in reach
        awake = [a for a in near if not a.asleep and self.visitor_near(a.name)]
        if any(a.name == chosen for a in awake):
            return TalkTarget(chosen, TalkWhy.CHOSEN)
        best = nearest(v.pos, awake)
        return None if best is None else TalkTarget(best.name, TalkWhy.NEAREST)

    def begin_chat(self, resident: str) -> VisitorChat:
        """The visitor turns to the resident (T, or Talk in the inspector): the conversation
        going on with them, else a new one on a fresh transcript (a finished conversation
        is never taken up again). The resident stops to listen."""
        talk = self.talks.get(resident)
        if talk is not None and talk.live:
            return talk
        talk = self._begin(resident, fresh=True)
        self._hold_for_chat(resident)
        return talk

    def visitor_say(self, resident: str, text: str) -> None:
        self._agent(resident)
        if self.visitor is None:
            raise SmallvilleError("there is no visitor to speak")
        text = " ".join(clean(text).split())[:500]
        if not text:
            return
        talk = self.talks.get(resident)
        if talk is None or not talk.live:  # words after an ending begin the next conversation
            talk = self._begin(resident, fresh=False)
        self.chats.setdefault(resident, []).append(Utterance(self.visitor.name, text))
        talk.heard, talk.visitor_spoke = self.now, True
        self._jobs[resident] = VisitorReply()
        self._hold_for_chat(resident)

    def visitor_typing(self, resident: str) -> None:
        """The visitor is typing to the resident (the window's chat box holds a draft): the
        resident waits for the sentence, so the silence does not count."""
        talk = self.talks.get(resident)
        if talk is not None and talk.live:
            talk.heard = self.now

    def chat_pending(self, resident: str) -> bool:
        """Whether the resident's answer to the visitor is on its way."""
        lines = self.chats.get(resident)
        waiting = bool(lines) and lines[-1].speaker != resident
        return resident in self._jobs or (self.ctx.scheduler.busy(resident) and waiting)

    def end_chat(self, resident: str) -> None:
        """The visitor leaves the conversation (closes the chat)."""
        talk = self.talks.get(resident)
        if talk is not None and talk.live:
            self._end(talk, ChatEnd.LEFT)

    def greet(self, resident: str) -> None:
        """A resident who noticed the visitor decided to speak first (not while the visitor
        is in a conversation)."""
        if self.visitor is None or self.live_chat is not None:
            return
        self._begin(resident, fresh=True, greeted=True)
        self._jobs[resident] = VisitorReply()
        self._hold_for_chat(resident)

    def _begin(self, resident: str, fresh: bool, greeted: bool = False) -> VisitorChat:
        """A new conversation with the resident: on a fresh transcript, or below the last
        one. The visitor leaves any other; the resident's next plan item will end it."""
        agent = self._agent(resident)
        live = self.live_chat
        if live is not None:
            self._end(live, ChatEnd.LEFT)  # the visitor turns to someone else
        if fresh or resident not in self.chats:
            self.chats[resident] = []
        now = self.now
        due = agent.plan.next_start(now) or agent.plan.end
        item = next((i.description for i in agent.plan.broad if i.start == due), "")
        lines = len(self.chats[resident])
        talk = VisitorChat(resident, now, now, greeted, due, item, lines)
        self.talks[resident] = talk
        if self.visitor is not None:
            self.visitor.talking_to = resident
            agent.last_chat[self.visitor.name] = now  # they have met: no greeting after
        return talk

    def _end(self, talk: VisitorChat, why: ChatEnd) -> None:
        """The conversation is over: the resident goes back to its day."""
        talk.ended = why
        resident = talk.resident
        if self.visitor is not None and self.visitor.talking_to == resident:
            self.visitor.talking_to = ""
        if why is ChatEnd.PLAN:
            self._excused[resident] = self.now + EXCUSED
        agent = self.ctx.agents[resident]
        hold = self._holds.pop(resident, None)
        if hold is not None and agent.action is hold and agent.conversation is None:
            agent.action = None

    def _hold_for_chat(self, resident: str) -> None:
        """A resident stops to talk with the visitor (one who had to go answers on the
        way, without stopping)."""
        agent = self.ctx.agents[resident]
        if agent.asleep or agent.conversation is not None:
            return
        if self.now < self._excused.get(resident, self.now):
            return
        hold = self._holds.get(resident)
        if hold is not None and agent.action is hold:
            self._holds[resident] = agent.action = replace(hold, end=self.now + CHAT_IDLE)
            return
        if agent.action is not None and agent.action.kind is ActionKind.CHAT:
            return  # a conversation with another resident is starting
        self._chat_status[resident] = agent.status  # what they were doing, to talk about
        self.ctx.actions.stop(agent)
        who = self.visitor.name if self.visitor else "the visitor"
        now = self.now
        agent.action = Action(
            f"talking with {who}", agent.location, now, now + CHAT_IDLE, ActionKind.CHAT, "💬"
        )
        self._holds[resident] = agent.action

    def expire_chats(self) -> None:
        """The conversation going on ends at a goodbye, when the resident's next plan item
        is due, after a few game minutes of silence, or when the two are out of each
        other's reach; until then the resident stays (held again after a conversation with
        another resident that was starting)."""
        v = self.visitor
        if v is not None and v.talking_to and not self.chatting(v.talking_to):
            v.talking_to = ""  # a loaded game: no conversation goes on
        talk = self.live_chat
        if talk is None:
            return
        resident = talk.resident
        pending = self.chat_pending(resident)
        why = talk.over(self.now, v is not None and self.visitor_near(resident), pending)
        if why is not None:
            self._end(talk, why)
        else:
            self._hold_for_chat(resident)

    def apply_reply(self, resident: str, reply: Utterance) -> None:
        """A resident's answer to the visitor arrived from its job: shown in the
        conversation it was asked for (and dropped if a newer one has begun since); the
        conversation's one line in the event log is written with its first answer."""
        talk, asked = self.talks.get(resident), self._asked.pop(resident, None)
        if talk is None or asked is not talk:
            return
        self.chats.setdefault(resident, []).append(reply)
        self._log_once(talk)
        if not talk.live:
            return  # said as the two parted
        talk.heard = self.now
        if reply.end:
            self._end(talk, ChatEnd.GOODBYE)

    def _log_once(self, talk: VisitorChat) -> None:
        if talk.logged:
            return
        talk.logged = True
        resident = talk.resident
        lines = self.chats.get(resident, [])[talk.first :]
        self.ctx.log.add(
            self.now,
            EventKind.CONVERSATION,
            resident,
            f"{resident} talks with the visitor",
            participants=[resident, self.visitor.name if self.visitor else "visitor"],
            lines=[[u.speaker, u.text] for u in lines],
            visitor=True,
            **answered_by(lines),
        )

    # -- interview, inner voice, objects -----------------------------------------------
    def interview(self, resident: str, question: str) -> Ticket:
        """Ask as an interviewer; the answer changes no memory."""
        snap = self._agent(resident).snapshot(self.now)
        ctx = self.ctx
        future = ctx.scheduler.run_detached(interview, ctx.mind, snap, ctx.town, question)
        return Ticket(future)

    def inner_voice(self, resident: str, text: str) -> None:
        self._agent(resident)
        text = " ".join(clean(text).split())[:500]
        if text:
            self._jobs[resident] = InnerVoice(text)
            self.ctx.log.add(self.now, EventKind.PLAYER, resident, f"inner voice: {text}")

    def set_object_state(self, address: str, state: str) -> None:
        town = self.ctx.town
        area = town.find(address) or town.resolve(address)
        if area is None or area.kind is not AreaKind.OBJECT:
            raise SmallvilleError(f"no object at {address!r}")
        state = plain_state(state, area.name)
        if len(state) > STATE_LIMIT:
            raise SmallvilleError(f"a state is at most {STATE_LIMIT} characters, not {len(state)}")
        state = state or area.default_state
        self.ctx.actions.set_object_state(area.address, state, EditSource.PLAYER)
        text = f"{area.address} set to {state}"
        self.ctx.log.add(self.now, EventKind.PLAYER, EditSource.PLAYER, text)

    # -- notices on the town's boards (game.sim.notices) ------------------------------
    @property
    def notices(self) -> list[Notice]:
        return self.board.notices

    @property
    def notices_read(self) -> dict[str, set[int]]:
        return self.board.read

    def announce(self, text: str) -> Notice:
        """Town-wide news: a notice on every notice board, read by each resident who
        passes one (`notices_seen`)."""
        notice = self.board.post(text, self.now)
        self.ctx.log.add(
            self.now,
            EventKind.PLAYER,
            EditSource.PLAYER,
            f"notice posted: {notice.text}",
            notice=notice.number,
            boards=list(self.board.boards),
        )
        return notice

    def notices_seen(self, agent: Agent, radius: int) -> list[Observation]:
        """The notices a resident reads now, each once."""
        return self.board.seen(agent, radius)

    def get_state(self) -> dict[str, Any]:
        """The visitor, its chats and the notices, as a save keeps them (plain JSON)."""
        return {"visitor": encode(self.visitor), "chats": encode(self.chats), **self.notice_state()}

    def set_state(self, doc: dict[str, Any]) -> None:
        """Take up a save's visitor, chats and notices (none in an older save)."""
        self.visitor = decode(Visitor | None, doc.get("visitor"))
        self.chats = decode(dict[str, list[Utterance]], doc.get("chats", {}))
        self.restore_notices(doc)

    def notice_state(self) -> dict[str, Any]:
        """The notices and who has read which, as a save keeps them (plain JSON)."""
        return self.board.get_state()

    def restore_notices(self, doc: dict[str, Any]) -> None:
        """The notices of a save (none in a save made before there were notices)."""
        self.board.set_state(doc)

    # -- queued jobs, run when the resident has no job in flight -------------------------
    def submit_jobs(self) -> None:
        for resident in sorted(self._jobs):
            if self.ctx.scheduler.busy(resident):
                continue
            job = self._jobs.pop(resident)
            call = self._call(resident, job)
            if call is None:
                continue
            self.ctx.scheduler.submit((resident,), job.kind.value, *call)
            if isinstance(job, VisitorReply):
                self._asked[resident] = self.talks[resident]

    def _call(self, resident: str, job: PlayerJob) -> tuple[Any, ...] | None:
        """The job function and its arguments (None: the visitor has gone)."""
        ctx = self.ctx
        snap = ctx.agents[resident].snapshot(self.now)
        if isinstance(job, InnerVoice):
            return (inner_voice_job, ctx.mind, snap, ctx.town, job.text)
        if self.visitor is None:
            return None
        talk = self.talks.get(resident)
        if talk is None:
            return None
        snap = replace(snap, status=self._chat_status.get(resident, snap.status))
        history = tuple(self.chats.get(resident, [])[talk.first :])  # this conversation's
        return (visitor_chat_job, ctx.mind, snap, ctx.town, self.visitor.name, history)


def idle(player: Player) -> bool:
    """No visitor, no conversation with one and no job queued: nothing the player does
    can touch the town until a command comes (residents may step apart meanwhile)."""
    return player.visitor is None and not player._jobs and player.live_chat is None


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
