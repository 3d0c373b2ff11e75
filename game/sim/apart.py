"""Apart: residents who cannot affect each other step apart from the town between sync
points, so a model's slow answer for one holds only those it could touch.

Why: the lockstep clock stops the whole town whenever any resident's due job is not yet
answered, and most of those stops were for a resident nobody else could see (issue 25).
Here the run is cut into epochs of a few game minutes. At each sync point the town is split
into groups: two residents are in one group if, each walking a tile a step for the whole
epoch (a sleeper not due to wake stays put), they could come within sight of each other
(twice the sight radius, which is also how far a wish to talk reaches), if they share a
building (trouble is sensed across its rooms), or if a job in flight is for both (a
conversation's lines). Each group then steps on its own, up to the next sync point,
whenever its own due jobs are answered; only when every group is held does the run wait,
for the first answer to come.

What makes it deterministic: a group reads nothing another group changes during the epoch.
Sight, conversations and objects in view cannot reach across groups by the distance kept;
what can (which places are full, which spots are taken, the states of objects a decision
reads: game.sim.actions.Frozen) is read as it was at the sync point. So each group's steps
are a function of its own state and the sync point's, whatever order the answers come in;
the event log of an epoch is put in (time, group) order at its end. With one group an
epoch is plain lockstep, and a town that answers at once (the scripted brain, whose timing
keeps epochs off) never steps apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from game.core.clock import minute_of_day
from game.mind.agent import ActionKind, Agent
from game.sim.actions import Actions, Frozen
from game.sim.appliers import Appliers
from game.sim.config import Timing
from game.sim.decisions import Decisions
from game.sim.scheduler import Scheduler
from game.sim.sight import Sight
from game.sim.state import SimState
from game.world.town import sector_of, split

SLACK = 2  # tiles beyond sight: an object's extent, a step's rounding
SHORTEST = 6  # the shortest epoch tried (a game minute), and lockstep's run without one

Group = frozenset[str]


@dataclass(frozen=True)
class Outlook:
    """What bounds how far residents may go in an epoch, read at its sync point."""

    steps: int  # the epoch's length
    now: datetime
    step_seconds: int
    soonest: int  # steps before a job asked during the epoch can change an action
    dues: Mapping[str, int]  # resident -> steps to its first job in flight that may act
    closes: Callable[[Agent], int]  # resident -> steps until its place may send it out
    wishes: Mapping[str, frozenset[str]]  # resident -> whom its thought may ask to talk

    def steps_to(self, when: datetime) -> int:
        return -(-int((when - self.now).total_seconds()) // self.step_seconds)


def settled(agent: Agent, look: Outlook) -> int:
    """How many of the epoch's steps the agent surely goes on as it is: walking its path
    and then standing at its action, until the action or conversation ends, a job in
    flight for it lands, one asked meanwhile could, or its place closes on it."""
    if not agent.seeded or (agent.action is None and agent.conversation is None):
        return 0
    talk = agent.conversation
    end = talk.end if talk is not None else agent.action.end  # type: ignore[union-attr]
    soon = look.steps if agent.asleep else look.soonest  # sleepers see nothing
    c = min(look.steps_to(end), look.dues.get(agent.name, look.steps), soon)
    return max(0, min(look.steps, c - 1, look.closes(agent)))


def reach(agent: Agent, look: Outlook) -> int:
    """How many tiles the agent may end up from where it stands within the epoch: along
    its path while it surely goes on, a tile a step anywhere after that."""
    c = settled(agent, look)
    return min(len(agent.path), c) + (look.steps - c)


def form_groups(
    agents: Mapping[str, Agent],
    partners: Iterable[tuple[str, ...]],
    look: Outlook,
    radius: int,
) -> list[Group]:
    """The groups that cannot affect each other within the epoch, in name order.

    A resident may be drawn out of its action by another's thought in flight (a wish to
    talk stops both, and their conversation may end within the epoch), so it counts as
    settled only until the first such thought lands."""
    names = sorted(agents)
    return _join(agents, names, partners, look, calm_of(agents, look), radius)


def calm_of(agents: Mapping[str, Agent], look: Outlook) -> dict[str, int]:
    """Each resident's settled steps (`settled`), cut short where another's thought in
    flight may ask it to talk."""
    calm = {n: settled(a, look) for n, a in agents.items()}
    for name, whom in look.wishes.items():
        due = look.dues.get(name)
        if due is None:
            continue
        for other in whom:
            if other in calm:
                calm[other] = max(0, min(calm[other], due - 1))
    return calm


def _join(agents, names, partners, look, calm, radius) -> list[Group]:
    """One pass of grouping: residents whose reaches could bring them within sight of
    each other, in the same building while both may move, or in one job, are together."""
    parent = {n: n for n in names}

    def root(n: str) -> str:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    def join(a: str, b: str) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    moves = {n: min(len(agents[n].path), calm[n]) + look.steps - calm[n] for n in names}
    building = {n: sector_of(agents[n].location) if agents[n].location else "" for n in names}
    for i, a in enumerate(names):
        pa, ra = agents[a].pos, moves[a]
        for b in names[i + 1 :]:
            pb, rb = agents[b].pos, moves[b]
            apart = max(abs(pa[0] - pb[0]), abs(pa[1] - pb[1]))
            near = apart <= ra + rb + 2 * radius + SLACK
            if near or (ra and rb and building[a] and building[a] == building[b]):
                join(a, b)
    for together in partners:
        for other in together[1:]:
            if together[0] in parent and other in parent:
                join(together[0], other)
    groups: dict[str, set[str]] = {}
    for n in names:
        groups.setdefault(root(n), set()).add(n)
    return [frozenset(g) for _, g in sorted(groups.items())]


class Apart:
    """Steps the town one epoch with its groups apart (`epoch`), on the simulation's
    thread: each group's step is the lockstep step for its residents alone."""

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
        self.epochs = self.split = 0  # epochs asked for, and those that split the town
        self._groups: list[Group] = []  # this epoch's groups, and the step each is at
        self._at: list[int] = []

    def choose(self, most: int, step_seconds: int) -> tuple[int, list[Group]]:
        """The epoch to run from this sync point: of `most` steps, half that or a fifth
        (at least SHORTEST), the one that sets the most residents' steps apart from the
        largest group (the longest of equals); a longer epoch lets a group run further
        ahead of one that waits, a shorter one keeps more residents out of each other's
        reach. A function of the sync point's state alone."""
        best: tuple[int, int, list[Group]] = (0, 0, [])
        partners = self.scheduler.partners()
        for steps in dict.fromkeys((most, max(SHORTEST, most // 2), max(SHORTEST, most // 5))):
            if steps > most:
                continue
            look = self._outlook(steps, step_seconds)
            groups = form_groups(self.agents, partners, look, self.radius)
            worth = steps * (len(self.agents) - max(len(g) for g in groups))
            if worth > best[0]:
                best = (worth, steps, groups)
        return best[1], best[2]

    def epoch(self, most: int, step_seconds: int) -> int:
        """Step the town up to `most` steps with its groups apart (`choose`); how many
        steps it took, 0 (nothing done) when it is one group at every length tried, which
        the lockstep step does as well."""
        state = self.state
        start, now = state.steps, state.now
        self.epochs += 1
        steps, groups = self.choose(most, step_seconds)
        if len(groups) < 2:
            return 0
        until = now + timedelta(seconds=steps * step_seconds)
        self.split += 1
        frozen = self._freeze(now)
        first = len(state.log.events)
        at = [(start, now)] * len(groups)
        self._groups, self._at = groups, [start] * len(groups)
        try:
            while True:
                moved, held = False, []
                for i, group in enumerate(groups):
                    k, when = at[i]
                    if k >= start + steps:
                        continue
                    if self.scheduler.blockers(group, k):
                        held.append((group, k))
                        continue
                    state.steps, state.clock.now = k, when
                    self.actions.frozen = Frozen(group, *frozen, now)
                    self._step(group)
                    at[i] = (state.steps, state.now)
                    self._at[i] = state.steps
                    moved = True
                if not moved:
                    if not held:
                        break
                    self.scheduler.wait_any(held)
        finally:
            self._groups, self._at = [], []
            self.actions.frozen = None
            state.steps, state.clock.now = start + steps, until
            self.scheduler.step = state.steps
        self._order_log(first, groups)
        return steps

    def lead(self, name: str) -> int:
        """How many steps the group furthest on is ahead of this resident's group, during
        an epoch (0 outside one): what stepping apart has bought while it waits."""
        mine = next((k for g, k in zip(self._groups, self._at, strict=True) if name in g), None)
        return 0 if mine is None else max(self._at) - mine

    def _outlook(self, steps: int, step_seconds: int) -> Outlook:
        """The epoch's bounds, from the sync point: its jobs in flight, the soonest a job
        asked meanwhile could land (a thought's allowance, a decision's when something out
        of the ordinary is in sight: an object a resident did not set), and closing hours."""
        state, timing = self.state, self.timing
        now, start = state.now, state.steps
        dues = self.scheduler.dues(start)
        town = state.town
        odd = any(
            s != town.areas[a].default_state and state.state_by.get(a, "") not in self.agents
            for a, s in town.states.items()
        )
        soonest = min(timing.decision_steps, timing.thought_steps) if odd else timing.thought_steps

        def closes(agent: Agent) -> int:
            action = agent.action
            if action is None or action.kind in (ActionKind.SLEEP, ActionKind.CHAT):
                return steps
            sector = town.areas.get(split(action.address)[0]) if action.address else None
            if sector is None or sector.opens is None:
                return steps
            if sector.name in (agent.persona.workplace, agent.persona.home):
                return steps
            for j in range(steps):
                if not sector.is_open(
                    minute_of_day(now + timedelta(seconds=(j + 1) * step_seconds))
                ):
                    return j
            return steps

        wishes = self.decisions.wishes
        return Outlook(steps, now, step_seconds, soonest, dues, closes, wishes)

    def _freeze(self, now: datetime) -> tuple[dict[str, str], dict, dict[str, str]]:
        """What every group reads of the others: their actions' places, where they stand
        or are headed, and the objects' states, at the sync point."""
        targets = {
            n: (a.action.address if a.action is not None else "") for n, a in self.agents.items()
        }
        tiles = {n: (a.path[-1] if a.path else a.pos) for n, a in self.agents.items()}
        return targets, tiles, dict(self.state.town.states)

    def _step(self, group: Group) -> None:
        """One lockstep step for the group's residents (their due jobs are all answered):
        apply them, move the clock, walk, keep hours, look, and start what they need."""
        state, scheduler, appliers = self.state, self.scheduler, self.appliers
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
        if self.on_step is not None:
            self.on_step(group)

    def _order_log(self, first: int, groups: list[Group]) -> None:
        """The epoch's events by game time, a group's before the next group's at the same
        time, each group's in the order it logged them: the same log in every run."""
        events = self.state.log.events
        rank = {n: i for i, g in enumerate(groups) for n in g}
        tail = events[first:]
        tail.sort(key=lambda e: (e.time, rank.get(e.agent, len(groups))))
        events[first:] = tail
