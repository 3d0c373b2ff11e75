"""Apart: residents who cannot affect each other step apart, each on its own clock, so a
model's slow answer for one holds only those it could touch.

Why: the lockstep clock stops the whole town whenever any resident's due job is not yet
answered, and most of those stops were for a resident nobody else could see (issue 25).
Here a headless lockstep run goes to its end with every resident at its own step. Again
and again, the residents at each step are put in groups: two are in one group if, each
walking a tile a step (up, down, left or right) beyond what it is surely doing (its walk
along its path and its action, its jobs in flight, a thought that may ask it to talk,
closing hours: `settled`), they could come within sight of each other in one room (sight
does not go through walls: one sitting in its room is out of the other's reach until the
other could have walked round into it, game.sim.rooms), within twice that of one who may
ask the other to talk (a wish to talk reaches that far, through walls), if they share a
building while both may move (trouble is sensed across its rooms), if both could be within
sight of one wide object in its room (one sitting down at the far end of the cafe's
seating changes what the other, twelve tiles off, sees of it), or if a job in flight is
for both (a conversation's lines). A group takes its next steps as soon as its own due
jobs are answered, as far as nobody outside it could meet it on the way, step by step
(`Apart._horizon`: one behind may go anywhere its reach allows from its own step on) and
never `apart_steps` steps ahead of the last resident. When every group is held the run
waits for the first answer to come.

What makes it deterministic: a resident reads the others within sight in its room as
they are, and they are surely at its own step (the groups and the horizon keep everyone
else further off); what can reach further (which places are full, which spots are taken,
the states of objects a decision reads outside its room or out of sight) is read as it
was `apart_steps` steps before the step being taken, with the reader's own doings since
(`Past`), and everyone has got that far. One seen a while ago and out of the group now is
not asked to talk (`Past.within`): it is at another step. So each resident's steps are a
function of the seed, whatever order the answers come in; finished jobs are handed back
by the step they were asked at, and the event log is put in (time, resident) order at the
end. A town that answers at once (the scripted brain, whose timing keeps apart_steps 0)
never steps apart.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from game.core.clock import minute_of_day
from game.mind.agent import ActionKind, Agent
from game.mind.perception import distance_to
from game.sim.actions import Actions
from game.sim.appliers import Appliers
from game.sim.config import Timing
from game.sim.decisions import Decisions
from game.sim.rooms import Rooms
from game.sim.scheduler import Lane, Scheduler
from game.sim.sight import Sight
from game.sim.state import SimState
from game.world.town import sector_of, split

SLACK = 2  # tiles beyond sight: an object's extent, a step's rounding

Group = frozenset[str]
Tile = tuple[int, int]
Box = tuple[int, int, int, int]  # a rectangle's corners: x0, y0, x1, y1
Wide = tuple[str, Box, tuple[Box, ...]]  # a room, the box around its wide objects, theirs


@dataclass(frozen=True)
class Outlook:
    """What bounds how far a resident may surely go on from its own step."""

    steps: int  # how far ahead it is asked (the most a resident may lead the last)
    now: datetime  # the resident's own time
    step_seconds: int
    soonest: int  # steps before a job asked meanwhile can change an action
    dues: Mapping[str, int]  # resident -> steps to its first job in flight that may act
    closes: Callable[[Agent], int]  # resident -> steps until its place may send it out

    def steps_to(self, when: datetime) -> int:
        return -(-int((when - self.now).total_seconds()) // self.step_seconds)


def settled(agent: Agent, look: Outlook) -> int:
    """How many of the outlook's steps the agent surely goes on as it is: walking its path
    and then standing at its action, until the action or conversation ends, a job in
    flight for it lands, one asked meanwhile could, or its place closes on it."""
    if not agent.seeded or (agent.action is None and agent.conversation is None):
        return 0
    talk = agent.conversation
    end = talk.end if talk is not None else agent.action.end  # type: ignore[union-attr]
    soon = look.steps if agent.asleep else look.soonest  # sleepers see nothing
    c = min(look.steps_to(end), look.dues.get(agent.name, look.steps), soon)
    return max(0, min(look.steps, c - 1, look.closes(agent)))


class Past:
    """What residents stepping apart read of each other and of the objects (an
    actions.View): a resident within `near` tiles of the reader in its room, in the
    reader's own group, as it is; an object within sight of the reader in its room as it
    is; the rest as they were `lag` steps before the step being taken, with the reader's
    own doings since. Why it is a
    function of the seed: another resident near the reader is surely at the reader's own
    step (the groups keep everyone else further off), and everyone has got at least `lag`
    steps behind the step being taken, whose records are final."""

    def __init__(self, agents: Mapping[str, Agent], state: SimState, start: int, lag: int,
                 near: int, sight: int) -> None:  # fmt: skip
        self.agents, self.town, self.start, self.lag = agents, state.town, start, lag
        self.near, self.sight = near, sight
        self._then = {n: {start: _doing(a)} for n, a in agents.items()}
        self._base = dict(self.town.states)  # the objects' states up to `_folded`
        self._changes: list[tuple[int, str, str, str]] = []  # (step, object, state, by)
        self._folded = start
        self.group: frozenset[str] = frozenset()
        self.at = start  # the step being taken (the clock it takes the group to)

    @property
    def _mark(self) -> int:
        return max(self.start, self.at - self.lag)

    def record(self, name: str, step: int) -> None:
        self._then[name][step] = _doing(self.agents[name])

    def fold(self, low: int) -> None:
        """Forget what no step from `low` on can read (it reads `lag` steps back)."""
        keep = max(self.start, low + 1 - self.lag)
        if keep <= self._folded:
            return
        for then in self._then.values():
            for step in range(self._folded, keep):
                then.pop(step, None)
        old = sorted((c for c in self._changes if c[0] <= keep), key=lambda c: c[0])
        for _, address, state, _ in old:
            self._base[address] = state
        self._changes = [c for c in self._changes if c[0] > keep]
        self._folded = keep

    def _live(self, reader: Agent | None, other: Agent) -> bool:
        if reader is None or other.name not in self.group or reader.name not in self.group:
            return False
        if reader.location != other.location:
            return False
        return max(abs(reader.pos[0] - other.pos[0]), abs(reader.pos[1] - other.pos[1])) <= (
            self.near
        )

    def target(self, reader: Agent | None, other: Agent) -> str:
        if self._live(reader, other):
            return _doing(other)[0]
        return self._then[other.name][self._mark][0]

    def tile(self, reader: Agent | None, other: Agent) -> tuple[int, int]:
        if self._live(reader, other):
            return _doing(other)[1]
        return self._then[other.name][self._mark][1]

    def states(self, reader: Agent | None) -> dict[str, str]:
        mark = self._mark
        out = dict(self._base)
        for step, address, state, by in sorted(self._changes, key=lambda c: c[0]):
            if step <= mark or (reader is not None and by == reader.name):
                out[address] = state
        if reader is not None:
            areas = self.town.areas
            for address in out:
                area = areas[address]
                if area.parent != reader.location:
                    continue  # behind a wall: out of sight
                if distance_to(area.rect, reader.pos) <= self.sight:
                    out[address] = self.town.state(address)
        return out

    def changed(self, address: str, state: str, by: str) -> None:
        self._changes.append((self.at, address, state, by))

    def within(self, reader: Agent, other: Agent, tiles: int) -> bool:
        """Whether the other is in the reader's group (surely at its step) and within so
        many tiles of it: near enough for its doings to be read as they are. One out of
        the group is further off than that in every run (the groups and the horizon keep a
        pair one of whom may ask the other to talk twice sight apart), but where it stands
        now is of another step, and how far it has got differs from run to run."""
        if other.name not in self.group or reader.name not in self.group:
            return False
        far = max(abs(reader.pos[0] - other.pos[0]), abs(reader.pos[1] - other.pos[1]))
        return far <= tiles


def _doing(agent: Agent) -> tuple[str, tuple[int, int]]:
    """Where an agent's action is, and where it stands or is headed."""
    target = agent.action.address if agent.action is not None else ""
    return target, (agent.path[-1] if agent.path else agent.pos)


class Apart:
    """Steps the town to an end with its residents apart, each group on its own clock, on
    the simulation's thread: each group's step is the lockstep step for its residents
    alone, taken as soon as its own due jobs are answered, while nobody outside it could
    come within reach by then (`horizon`) and nobody is `lag` steps behind."""

    def __init__(
        self,
        state: SimState,
        agents: Mapping[str, Agent],
        actions: Actions,
        sight: Sight,
        decisions: Decisions,
        appliers: Appliers,
        scheduler: Scheduler,
        radius: int,
        timing: Timing,
    ) -> None:
        self.state, self.agents, self.actions, self.sight = state, agents, actions, sight
        self.decisions, self.appliers, self.scheduler = decisions, appliers, scheduler
        self.radius, self.timing = radius, timing
        # a step of one group has been taken (the pace meter's record, by its residents)
        self.on_step: Callable[[Group], None] | None = None
        self.epochs = self.split = 0  # runs asked for, and those in which groups split
        self.passes = 0  # times the groups were formed
        # resident-seconds of wall time the town stood still, by why each resident did:
        # held by its own due jobs, within reach of one behind ("near"), `lag` steps ahead
        # of the last ("behind"), or at the end (a benchmark reads it; no outcome does)
        self.stood: Counter[str] = Counter()
        self._clock: dict[str, int] = {}  # resident -> the step it has got to
        self._rooms: Rooms | None = None
        self._wide: tuple[Wide, ...] | None = None
        self._widest = 0  # the extent of the widest of them
        self._wide_near: dict[str, frozenset[int]] = {}  # resident -> those it may reach
        self._links: set[frozenset[str]] = set()  # pairs one of whom may ask the other to talk

    @property
    def margin(self) -> int:
        """How far a wish to talk reaches (twice the sight radius), and an object's extent
        and a step's rounding beyond it."""
        return 2 * self.radius + SLACK

    @property
    def rooms(self) -> Rooms:
        """The steps into and out of each room, made when first asked (only a town that
        steps apart asks)."""
        if self._rooms is None:
            self._rooms = Rooms(self.state.town)
        return self._rooms

    @rooms.setter
    def rooms(self, rooms: Rooms) -> None:
        self._rooms = rooms

    @property
    def wide(self) -> tuple[Wide, ...]:
        """The objects wider than the slack (a cafe's seating, eleven tiles), by room: one at
        one end of it sits down and changes its state, and one at the other end, out of
        the first one's sight, sees it. Each room with its objects' rectangles (x0, y0, x1,
        y1) and the box around them all, made when first asked."""
        if self._wide is None:
            town, rooms = self.state.town, {}
            for address in town.states:
                area = town.areas[address]
                r = area.rect
                if max(r.w, r.h) > SLACK:
                    rect = (r.x, r.y, r.x + r.w - 1, r.y + r.h - 1)
                    rooms.setdefault(area.parent or "", []).append(rect)
            self._wide = tuple((room, _box(rects), tuple(rects)) for room, rects in rooms.items())
            self._widest = max((max(x1 - x0, y1 - y0) + 1 for _, _, rs in self._wide
                                for x0, y0, x1, y1 in rs), default=0)  # fmt: skip
        return self._wide

    @property
    def near(self) -> int:
        """How far sight reaches, in a room, with the same slack."""
        return self.radius + SLACK

    def run(self, steps: int, step_seconds: int, progress: Callable[[], None] | None = None):
        """Step every resident `steps` steps on, groups apart; at the end all are at the
        same step, and the event log is in (time, resident) order."""
        state = self.state
        start, begun = state.steps, state.now
        end, lag = start + steps, max(2, self.timing.apart_steps)
        self.epochs += 1
        self.scheduler.ordered = True
        clock = self._clock = {n: start for n in self.agents}
        past = Past(self.agents, state, start, lag, self.near, self.radius)
        first, split = len(state.log.events), False
        try:
            while (low := min(clock.values())) < end:
                past.fold(low)
                self.passes += 1
                calm = self._calms(begun, start, step_seconds, lag)
                partners = {frozenset(p) for p in self.scheduler.partners()}
                groups = self._groups(calm, partners)
                split = split or len(groups) > 1
                moved, held, stood = False, [], Counter()
                for k, group in groups:
                    top = min(end, low + lag)
                    if k >= top:
                        stood["done" if k >= end else "behind"] += len(group)
                        continue
                    near = self._horizon(group, k, top, calm, partners)
                    while k < near:
                        if self.scheduler.blockers(group, k):
                            held.append((group, k))
                            break
                        self._step(group, k, begun, start, step_seconds, past)
                        k += 1
                        moved = True
                    else:
                        stood["near" if near < top else "behind"] += len(group)
                if not moved:
                    if not held:
                        raise RuntimeError("residents stepping apart are held by nothing")
                    began_wait = time.perf_counter()
                    self.scheduler.wait_any(held)
                    waited = time.perf_counter() - began_wait
                    stood["held"] += sum(len(g) for g, _ in held)
                    for why, n in stood.items():
                        self.stood[why] += n * waited
                if progress is not None:
                    progress()
        finally:
            self._clock, self._wide_near = {}, {}
            self.actions.view = None
            state.steps, state.clock.now = end, begun + timedelta(seconds=steps * step_seconds)
            self.scheduler.step = state.steps
        self.split += split
        events = state.log.events
        events[first:] = sorted(events[first:], key=lambda e: (e.time, e.agent or ""))

    def lead(self, name: str) -> int:
        """How many steps the resident furthest on is ahead of this one, during a run
        (0 outside one): what stepping apart has bought while it waits."""
        mine = self._clock.get(name)
        return 0 if mine is None else max(self._clock.values()) - mine

    # -- who may go how far ---------------------------------------------------------------
    def _calms(self, begun: datetime, start: int, step_seconds: int, lag: int) -> dict[str, int]:
        """Until which step each resident surely goes on as it is (`settled`, from its own
        step), cut short where another's thought in flight may ask it to talk."""
        dues = self.scheduler.dues(0)  # absolute steps
        town = self.state.town
        odd = any(
            s != town.areas[a].default_state and self.state.state_by.get(a, "") not in self.agents
            for a, s in town.states.items()
        )
        timing = self.timing
        soonest = min(timing.decision_steps, timing.thought_steps) if odd else timing.thought_steps
        calm: dict[str, int] = {}
        for name, agent in self.agents.items():
            k = self._clock[name]
            now = begun + timedelta(seconds=(k - start) * step_seconds)
            due = {name: dues[name] - k} if name in dues else {}
            closes = _closing(town, now, step_seconds, lag)
            calm[name] = settled(agent, Outlook(lag, now, step_seconds, soonest, due, closes))
        for name, whom in self.decisions.wishes.items():
            if name not in dues:
                continue
            for other in whom:
                if other in calm:
                    calm[other] = max(0, min(calm[other], dues[name] - self._clock[other] - 1))
        self._links = self._linked()
        until = {n: c + self._clock[n] for n, c in calm.items()}
        self._wide_near = self._wide_rooms(calm, lag)
        return until  # until which step

    def _wide_rooms(self, calm: Mapping[str, int], lag: int) -> dict[str, frozenset[int]]:
        """The rooms of wide objects (by their place in `wide`) each resident may come
        within sight of in the outlook (`lag` steps from its own step, `calm` of them on its
        path): the box around its tile and that much of its path, grown by the steps it may
        then walk anywhere."""
        wide, near, out = self.wide, self.near, {}
        for name, agent in self.agents.items():
            c = max(0, min(lag, calm[name]))
            tiles = [agent.pos, *agent.path[:c]]
            grow = lag - c + near
            x0, x1 = min(t[0] for t in tiles) - grow, max(t[0] for t in tiles) + grow
            y0, y1 = min(t[1] for t in tiles) - grow, max(t[1] for t in tiles) + grow
            out[name] = frozenset(
                i
                for i, (_, (bx0, by0, bx1, by1), _) in enumerate(wide)
                if bx0 <= x1 and x0 <= bx1 and by0 <= y1 and y0 <= by1
            )
        return out

    def _reach(self, name: str, steps: int, calm: Mapping[str, int]) -> int:
        """How many tiles the resident may be from where it stands, `steps` steps on,
        counted along the grid (a walk goes a tile up, down, left or right a step)."""
        c = max(0, min(calm[name] - self._clock[name], steps))
        return min(len(self.agents[name].path), c) + steps - c

    def _linked(self) -> set[frozenset[str]]:
        """The pairs one of whom may ask the other to talk: it has seen the other (what it
        saw waits to be thought over), or a thought of its in flight may ask it. A wish to
        talk reaches twice as far as sight, through walls (appliers.request_talk)."""
        out: set[frozenset[str]] = set()
        wishes, busy = self.decisions.wishes, self.scheduler.busy
        for name, agent in self.agents.items():
            seen = {o.subject for o in agent.pending if o.subject in self.agents}
            if busy(name, Lane.THOUGHT):
                seen.update(wishes.get(name, ()))
            out.update(frozenset((name, other)) for other in seen if other != name)
        return out

    def _groups(self, calm: Mapping[str, int], partners) -> list[tuple[int, Group]]:
        """The residents at each step, in groups that could affect each other within the
        next step, by (step, name)."""
        by_step: dict[int, list[str]] = {}
        for name in sorted(self.agents):
            by_step.setdefault(self._clock[name], []).append(name)
        out: list[tuple[int, Group]] = []
        for k in sorted(by_step):
            names = by_step[k]
            pairs = [
                (a, b)
                for i, a in enumerate(names)
                for b in names[i + 1 :]
                if self._first_meet(a, b, k + 1, k + 1, calm, partners) is not None
            ]
            out.extend((k, g) for g in _unite(names, pairs))
        return out

    def _horizon(self, group: Group, k: int, top: int, calm, partners) -> int:
        """The furthest step (at most `top`) the group may go to from `k` while nobody
        outside it could meet it on the way, step by step: one behind may go anywhere its
        reach allows from where it stands, from its own step on; one further on has kept
        clear of the group up to its own step when it took it."""
        clock = self._clock
        behind = [n for n in self.agents if n not in group and clock[n] < top]
        out = top
        for a in group:
            for b in behind:
                met = self._first_meet(a, b, max(k, clock[b]) + 1, out, calm, partners)
                if met is not None:
                    out = met - 1
                    if out <= k:
                        return k
        return out

    def _where(self, name: str, step: int, calm: Mapping[str, int]) -> tuple[Tile, int]:
        """Where the resident may be at `step` (from its own step on): a tile of its path
        while it surely goes on as it is (`calm`), then within so many tiles of where that
        left it, a tile a step (up, down, left or right)."""
        agent, k = self.agents[name], self._clock[name]
        c = max(0, min(calm[name] - k, step - k))
        walked = min(len(agent.path), c)
        return (agent.path[walked - 1] if walked else agent.pos), step - k - c

    def _first_meet(self, a: str, b: str, first: int, last: int, calm, partners) -> int | None:
        """The first step from `first` to `last` at which two residents could affect each
        other, each where `_where` says it may be then: one within sight's margin (a
        square) of the other in its room, so one standing still is out of reach of the
        other until that one could have walked into its room; one of them may ask the
        other to talk (`_linked`), which reaches twice as far, through walls; or both may
        move by then in one building (trouble is sensed across its rooms). A gap the
        reaches fall short of by d cannot close sooner than d / 2 steps on (each walks a
        tile a step at most), so the steps between are skipped."""
        if first > last:
            return None
        pair = frozenset((a, b))
        if pair in partners:
            return first
        linked = pair in self._links
        m, step = (self.margin if linked else self.near), first
        la, lb = self.agents[a].location, self.agents[b].location
        together = bool(la and lb and sector_of(la) == sector_of(lb))
        while step <= last:
            (pa, ra), (pb, rb) = self._where(a, step, calm), self._where(b, step, calm)
            gap = max(0, abs(pa[0] - pb[0]) - m) + max(0, abs(pa[1] - pb[1]) - m)
            short = gap - ra - rb
            if short <= 0:
                if linked:
                    return step
                if self._may_share_a_room(pa, ra, pb, rb):
                    return step
            if together and self._moves(a, step, calm) and self._moves(b, step, calm):
                return step
            skip = 1 if together or short <= 0 else (short + 1) // 2
            if (skip := min(skip, self._through_object(a, b, pa, ra, pb, rb))) <= 0:
                return step
            step += max(1, skip)
        return None

    def _through_object(self, a: str, b: str, pa: Tile, ra: int, pb: Tile, rb: int) -> int:
        """0 if two residents that may walk ra and rb tiles from pa and pb could both be
        within sight of one wide object in its room (one sits at it and changes its state,
        the other sees that, or both change it); else the fewest steps before they could
        (each need falls by a tile a step at most; a gap between them wider than two
        sights and the widest object closes by two tiles a step at most)."""
        near, wide, rooms = self.near, self.wide, self._wide_near
        if a in rooms and b in rooms:  # worked out for this pass's outlook
            wide = tuple(wide[i] for i in rooms[a] & rooms[b])
            if not wide:
                return 1 << 30
        (ax, ay), (bx, by) = pa, pb
        apart = max(abs(ax - bx), abs(ay - by)) - ra - rb
        if (gap := apart - (2 * near + self._widest - 1)) > 0:
            return (gap + 1) // 2
        into, out = self.rooms.steps_into, 1 << 30
        for room, (x0, y0, x1, y1), rects in wide:  # the box first: most are far from any
            need = max(x0 - ax, ax - x1, y0 - ay, ay - y1) - near - ra
            if need >= out:
                continue
            need = max(need, max(x0 - bx, bx - x1, y0 - by, by - y1) - near - rb)
            if need <= 0:
                need = max(into(room, pa) - ra, into(room, pb) - rb)
                if need <= 0:
                    need = min(max(_off(r, pa) - ra, _off(r, pb) - rb) for r in rects) - near
                    if need <= 0:
                        return 0
            out = min(out, need)
        return out

    def _may_share_a_room(self, pa: Tile, ra: int, pb: Tile, rb: int) -> bool:
        """Whether two residents that may walk ra and rb tiles from pa and pb could be in
        one room: one walks into the other's, or both walk out of their own."""
        rooms = self.rooms
        if rooms.steps_into(rooms.at(pa), pb) <= rb or rooms.steps_into(rooms.at(pb), pa) <= ra:
            return True
        return rooms.steps_out(pa) <= ra and rooms.steps_out(pb) <= rb

    def _moves(self, name: str, step: int, calm: Mapping[str, int]) -> bool:
        """Whether the resident may have left its tile by `step`."""
        return self._reach(name, step - self._clock[name], calm) > 0

    # -- one step of one group ----------------------------------------------------------
    def _step(self, group: Group, k: int, begun: datetime, start: int, step_seconds: int,
              past: Past) -> None:  # fmt: skip
        """One lockstep step for the group's residents (their due jobs are all answered):
        apply them, move the clock, walk, keep hours, look, and start what they need."""
        state, scheduler, appliers = self.state, self.scheduler, self.appliers
        state.steps, state.clock.now = k, begun + timedelta(seconds=(k - start) * step_seconds)
        past.group, past.at = group, k + 1
        self.actions.view = past
        scheduler.step = state.steps
        for finished in scheduler.collect(block=True, step=state.steps, names=group):
            appliers.apply(finished)
        state.tick()
        scheduler.step = state.steps
        members = [a for a in self.agents.values() if a.name in group]  # the town's order
        for name in sorted(group):
            self.actions.advance(self.agents[name])
        self.actions.enforce_hours(members)
        self.sight.perceive_all(members)
        for decided in self.decisions.schedule(group):
            for effect in decided:
                appliers.apply_effect(effect)
        for name in group:
            self._clock[name] = k + 1
            past.record(name, k + 1)
        if self.on_step is not None:
            self.on_step(group)


def _off(box: Box, tile: Tile) -> int:
    """Tiles from a tile to the nearest tile of a box, the larger of the two axes (0 in
    it), as game.mind.perception.distance_to measures sight."""
    x0, y0, x1, y1 = box
    return max(x0 - tile[0], tile[0] - x1, y0 - tile[1], tile[1] - y1, 0)


def _box(rects: list[Box]) -> Box:
    """The box around rectangles."""
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects),
            max(r[3] for r in rects))  # fmt: skip


def _unite(names: list[str], pairs: Iterable[tuple[str, str]]) -> list[Group]:
    """The groups the pairs join the names into, in name order."""
    parent = {n: n for n in names}

    def root(n: str) -> str:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, set[str]] = {}
    for n in names:
        groups.setdefault(root(n), set()).add(n)
    return [frozenset(g) for _, g in sorted(groups.items())]


def _closing(town, now: datetime, step_seconds: int, most: int) -> Callable[[Agent], int]:
    """Resident -> steps from `now` until its place may send it out (looked at up to
    `most` steps; further, never)."""

    def closes(agent: Agent) -> int:
        action = agent.action
        if action is None or action.kind in (ActionKind.SLEEP, ActionKind.CHAT):
            return 1 << 30
        sector = town.areas.get(split(action.address)[0]) if action.address else None
        if sector is None or sector.opens is None:
            return 1 << 30
        if sector.name in (agent.persona.workplace, agent.persona.home):
            return 1 << 30
        for j in range(most):
            if not sector.is_open(minute_of_day(now + timedelta(seconds=(j + 1) * step_seconds))):
                return j
        return 1 << 30

    return closes
