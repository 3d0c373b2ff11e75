"""Residents who cannot affect each other step apart, each on its own clock
(game.sim.apart): who falls into which group, how far a group may go while others are
behind, that a slow answer for one lets the others go on, and that the run is the same
whatever order the answers come in."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace
from datetime import timedelta

from game.mind.agent import Action, ActionKind
from game.sim.apart import Outlook, Past, settled
from game.sim.factory import make_brain, make_embedder
from game.sim.sight import agent_observation
from game.sim.simulation import MODEL_TIMING, SimConfig, Simulation
from game.world.scenario import load_world
from tests.sim.outcomes import memories_of

RADIUS = 4
SEED = 3


class Paced:
    """The scripted brain, each answer after a pause from its own random stream (answers
    come back in another order every run), and one resident's first answer held until
    `release` is set (or `hold` seconds pass)."""

    def __init__(self, seed: int, most: float = 0.003, held: str = "", hold: float = 0.0):
        self.inner = make_brain("scripted", SEED, None, "", [], False)
        self.name = self.inner.name
        self._rng, self._lock = random.Random(seed), threading.Lock()
        self.most, self.held, self.hold = most, held, hold
        self.release, self.waiting = threading.Event(), threading.Event()
        self.timed_out = False

    def ask(self, question):
        if self.held and getattr(question, "agent", "") == self.held and self.hold:
            self.hold, self.held = 0.0, ""  # only the first
            self.waiting.set()
            self.timed_out = not self.release.wait(10.0)
        with self._lock:
            pause = self._rng.random() * self.most
        time.sleep(pause)
        return self.inner.ask(question)

    def knows(self, kind) -> bool:
        return self.inner.knows(kind)


class OpenGround:
    """Rooms where every tile is one room: only the gaps count (game.sim.rooms)."""

    def at(self, tile):
        return ""

    def steps_into(self, room, tile):
        return 0

    def steps_out(self, tile):
        return 0


def open_ground(sim: Simulation) -> Simulation:
    """Only the gaps count: one room everywhere, and no wide object between any two."""
    sim.apart.rooms = OpenGround()
    sim.apart._wide = ()
    return sim


def town(brain, workers: int = 8, scenario: str = "three") -> Simulation:
    loaded, world = load_world(scenario)
    config = SimConfig(seed=SEED, timing=MODEL_TIMING, workers=workers)
    return Simulation(loaded, world, brain, make_embedder(brain.inner), config)


def outcome(sim: Simulation, hours: float) -> dict:
    """Every memory, the event log and the questions asked."""
    try:
        sim.run_until(sim.now + timedelta(hours=hours))
    finally:
        sim.close()
    memories = memories_of(sim)
    log = [e.to_dict() for e in sim.log.events]
    return {
        "memories": memories,
        "log": log,
        "positions": {n: a.pos for n, a in sim.agents.items()},
    }


def outlook(sim: Simulation, steps: int = 12, dues=None) -> Outlook:
    """An outlook from now with nothing in flight and no place closing."""
    return Outlook(steps, sim.now, 10, 60, dues or {}, lambda a: steps)


def at_rest(sim: Simulation) -> dict[str, int]:
    """Every resident at the town's step, none settled (anywhere a tile a step): the
    calm `Apart` would work out for residents awake with nothing to do."""
    sim.apart._clock = {n: sim.steps for n in sim.agents}
    return {n: sim.steps for n in sim.agents}


def test_residents_in_sight_reach_are_one_group_and_those_far_apart_are_not():
    sim = open_ground(town(Paced(0)))
    a, b, c = (sim.agents[n] for n in sorted(sim.agents))
    for agent in (a, b, c):  # awake with nothing to do: anywhere a tile a step
        agent.asleep, agent.action, agent.location, agent.path = False, None, "", []
    a.pos, b.pos, c.pos = (10, 10), (10 + 2 + RADIUS + 2, 10), (90, 60)
    calm, k = at_rest(sim), sim.steps
    assert sim.apart._groups(calm, set()) == [
        (k, frozenset({a.name, b.name})),
        (k, frozenset({c.name})),
    ]
    b.pos = (b.pos[0] + 1, 10)  # one tile further: they cannot meet within the next step
    assert len(sim.apart._groups(calm, set())) == 3
    sim.apart._links = {frozenset((a.name, b.name))}  # unless one may ask the other to talk
    assert len(sim.apart._groups(calm, set())) == 2
    sim.apart._links = set()
    together = sim.apart._groups(calm, {frozenset((a.name, c.name))})
    assert (k, frozenset({a.name, c.name})) in together  # a conversation's job in flight
    c.pos = (11, 10)  # beside a, but a step further on: grouped with those at its step
    sim.apart._clock[c.name] = k + 1
    assert sim.apart._groups(calm, set()) == [
        (k, frozenset({a.name})),
        (k, frozenset({b.name})),
        (k + 1, frozenset({c.name})),
    ]
    sim.close()


def test_a_group_goes_on_only_as_far_as_nobody_behind_could_reach_it():
    sim = open_ground(town(Paced(0)))
    a, b, c = (sim.agents[n] for n in sorted(sim.agents))
    for agent in (a, b, c):
        agent.asleep, agent.action, agent.location, agent.path = False, None, "", []
    a.pos, b.pos, c.pos = (10, 10), (10, 90), (90, 60)  # 80 tiles from a, far from c
    calm, k = at_rest(sim), sim.steps
    # a tile a step each, and sight's margin: clear while 2 d + r + 2 < 80
    margin = RADIUS + 2
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k + (
        (80 - margin - 1) // 2
    )
    sim.apart._clock[c.name] = sim.apart._clock[b.name] = k + 60  # ahead: no bound
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k + 60
    sim.close()


def test_a_sleeper_not_due_to_wake_stays_put_and_one_waking_may_go_anywhere():
    sim = town(Paced(0))
    sleeper = next(a for a in sim.agents.values() if a.asleep)
    sleeper.seeded = True
    sim.apart._clock = {n: sim.steps for n in sim.agents}

    def reach() -> int:
        calm = sim.apart._calms(sim.now, sim.steps, 10, 60)
        return sim.apart._reach(sleeper.name, 12, calm)

    sleeper.action = replace(sleeper.action, end=sim.now + timedelta(hours=2))
    assert reach() <= 1
    sleeper.action = replace(sleeper.action, end=sim.now + timedelta(seconds=10))
    assert reach() == 12
    sim.close()


def test_a_resident_at_a_long_action_is_settled_until_a_thought_that_may_stop_it_lands():
    sim = town(Paced(0))
    sim.run_until(sim.now + timedelta(hours=6))
    busy = next(a for a in sim.agents.values() if a.action is not None and not a.asleep)
    busy.action = replace(busy.action, end=sim.now + timedelta(hours=1))
    busy.conversation, busy.path = None, []
    assert settled(busy, outlook(sim, dues={})) == 11
    assert settled(busy, outlook(sim, dues={busy.name: 4})) == 3  # its own thought lands
    other = next(n for n in sim.agents if n != busy.name)
    apart, k = sim.apart, sim.steps
    apart._clock = {n: k for n in sim.agents}
    sim.scheduler.dues = lambda step: {other: k + 5 - step}  # the other's thought, in flight
    sim.decisions.wishes = {other: frozenset({busy.name})}
    assert apart._calms(sim.now, k, 10, 60)[busy.name] == k + 4  # its wish may stop busy
    sim.scheduler.dues = lambda step: {}
    assert apart._calms(sim.now, k, 10, 60)[busy.name] == k + 59  # a wish with no thought
    sim.close()  # in flight is spent; busy goes on till the outlook's end (60 steps)


def test_a_slow_answer_for_one_resident_lets_the_others_step_on_and_changes_nothing():
    plain = outcome(town(Paced(1)), hours=6)
    brain = Paced(1, held="Klaus Mueller", hold=10.0)
    sim = town(brain)
    lead = []

    def watch(group) -> None:  # on the simulation's thread, after each group's step
        ahead = sim.apart.lead("Klaus Mueller")
        if brain.waiting.is_set() and ahead > 0:
            lead.append(ahead)
            brain.release.set()  # the others got ahead of him while he waited

    sim.apart.on_step = watch
    held = outcome(sim, hours=6)
    assert brain.waiting.is_set() and lead and not brain.timed_out
    assert sim.apart.split > 0
    assert held == plain


def test_stepping_apart_does_not_depend_on_the_threads_or_the_order_answers_come_in():
    runs = [outcome(town(Paced(seed), workers=w, scenario="smallville"), 3) for seed, w in
            ((1, 1), (2, 8), (3, 2))]  # fmt: skip
    assert runs[0]["memories"] and sum(len(m) for m in runs[0]["memories"].values()) > 100
    assert runs[1] == runs[0]
    assert runs[2] == runs[0]


def test_an_answer_at_once_keeps_the_town_in_one_lockstep():
    sim = town(Paced(0))
    sim.config = replace(sim.config, timing=replace(MODEL_TIMING, apart_steps=0))
    outcome(sim, hours=2)
    assert sim.apart.epochs == 0


def test_a_diagonal_gap_takes_the_steps_of_both_its_sides_to_close():
    # a walk goes a tile up, down, left or right a step: residents 20 tiles apart both
    # ways must close 2 (20 - margin) tiles between them, twice a straight gap of 20
    sim = open_ground(town(Paced(0)))
    a, b, c = (sim.agents[n] for n in sorted(sim.agents))
    for agent in (a, b, c):
        agent.asleep, agent.action, agent.location, agent.path = False, None, "", []
    margin = RADIUS + 2
    a.pos, b.pos, c.pos = (10, 10), (30, 30), (90, 60)
    calm, k = at_rest(sim), sim.steps
    gap = 2 * (20 - margin)
    # each walks a tile a step: they could first meet once 2 d >= gap
    assert sim.apart._first_meet(a.name, b.name, k + 1, k + 60, calm, set()) == k + gap // 2
    # so a, with b behind, may go on while 2 d < gap, not (straight) while 2 d < 20 - margin
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k + (gap - 1) // 2
    b.pos = (10, 30)
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k + (
        (20 - margin - 1) // 2
    )
    sim.close()


def test_one_walking_away_along_its_path_comes_no_nearer():
    # b, behind and free, may come a tile a step; a, surely walking its path then
    # standing at its action, is where its path has got to at each step
    sim = open_ground(town(Paced(0)))
    a, b, c = (sim.agents[n] for n in sorted(sim.agents))
    for agent in (a, b, c):
        agent.asleep, agent.action, agent.location, agent.path = False, None, "", []
    margin = RADIUS + 2
    a.pos, b.pos, c.pos = (50, 30), (50 - margin - 30, 30), (0, 500)  # 30 tiles past sight
    calm, k = at_rest(sim), sim.steps
    calm[a.name] = k + 60  # settled for the outlook
    a.path = [(50 + i, 30) for i in range(1, 41)]  # away from b, a tile a step
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k + 60
    a.path = []  # sitting at its spot: b alone closes the gap
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k + 29
    a.path = [(50 - i, 30) for i in range(1, 41)]  # towards b: two tiles a step
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k + 14
    calm[a.name] = k + 5  # free after 5 steps of its path: 35 past sight, both closing
    a.path = [(50 + i, 30) for i in range(1, 41)]
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k + 19
    sim.close()


def test_one_sitting_behind_a_wall_is_out_of_reach_until_the_other_could_walk_round():
    # in the three-house town, Hobbs Cafe's bathroom and the pub are 5 tiles apart
    # through a wall and 86 steps apart by the doors; sight does not go through walls
    sim = town(Paced(0))
    a, b, c = (sim.agents[n] for n in sorted(sim.agents))
    for agent in (a, b, c):
        agent.asleep, agent.action, agent.path = False, None, []
    a.pos, b.pos, c.pos = (14, 20), (19, 20), (60, 90)
    for agent in (a, b, c):
        agent.location = sim.apart.rooms.at(agent.pos)
    assert a.location == "Hobbs Cafe:bathroom" and b.location == "The Rose and Crown Pub"
    assert sim.apart.rooms.steps_into(a.location, b.pos) == 86
    calm, k = at_rest(sim), sim.steps
    calm[a.name] = k + 60  # a sits for the outlook; b may go anywhere a tile a step
    assert [g for _, g in sim.apart._groups(calm, set())] == [frozenset({n}) for n in
                                                              sorted(sim.agents)]  # fmt: skip
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k + 60
    calm[a.name] = k + 200  # sitting on: b could first be in its room 86 steps on
    assert sim.apart._first_meet(b.name, a.name, k + 1, k + 100, calm, set()) == k + 86
    sim.apart._links = {frozenset((a.name, b.name))}  # one has seen the other: a wish to
    assert sim.apart._horizon(frozenset({a.name}), k, k + 60, calm, set()) == k  # talk
    sim.close()  # reaches through the wall


def test_two_at_either_end_of_a_wide_object_may_affect_each_other_through_it():
    # Hobbs Cafe's seating is 11 tiles wide: one sitting down at its far end changes its
    # state, and one at the counter, 12 tiles off (out of sight's reach of the other),
    # sees it. In a model day she saw it before or after the other sat down by how far
    # each had got in the threads' time (issue 25)
    sim = town(Paced(0), scenario="smallville")
    seating = "Hobbs Cafe:cafe:cafe customer seating"
    names = sorted(sim.agents)
    a, b = sim.agents[names[0]], sim.agents[names[1]]
    for agent, tile in ((a, (2, 26)), (b, (14, 31))):
        agent.asleep, agent.action, agent.path, agent.pos = False, None, [], tile
        agent.location = sim.apart.rooms.at(tile)
    assert a.location == b.location == "Hobbs Cafe:cafe"
    assert (14, 31) in {t for _, t in sim.spots.seats(seating)}
    calm, k = at_rest(sim), sim.steps
    calm[a.name] = calm[b.name] = k + 60  # both stay where they are for the outlook
    assert sim.apart._first_meet(a.name, b.name, k + 1, k + 60, calm, set()) == k + 1
    sim.apart._wide = ()  # without the object between them they are out of each other's reach
    assert sim.apart._first_meet(a.name, b.name, k + 1, k + 60, calm, set()) is None
    sim.close()


def test_one_seen_and_gone_out_of_reach_is_not_asked_to_talk_while_apart():
    # a resident's sightings wait to be thought over; by then one it saw may be at another
    # step, in another group, busy or not by how far the threads have got: only one in its
    # group (surely at its step) and within a wish's reach may be asked to talk
    sim = town(Paced(0), scenario="smallville")
    names = sorted(sim.agents)
    a, b = sim.agents[names[0]], sim.agents[names[1]]
    for agent, tile in ((a, (30, 30)), (b, (33, 30))):
        agent.asleep, agent.path, agent.pos, agent.seeded = False, [], tile, True
        agent.action = Action("reading", "", sim.now, sim.now + timedelta(hours=1),
                              ActionKind.PLAN)  # fmt: skip
    a.pending = [agent_observation(b)]
    assert sim.decisions.talkable(a) == {b.name}  # in lockstep: as it is
    past = Past(sim.agents, sim.state, sim.steps, 60, sim.apart.near, RADIUS)
    sim.actions.view = past
    past.group = frozenset({a.name})  # b is in another group
    assert sim.decisions.talkable(a) == frozenset()
    sim.appliers.request_talk(a, b.name)
    assert a.action.kind is ActionKind.PLAN and sim.scheduler.pending == 0
    past.group = frozenset({a.name, b.name})
    assert sim.decisions.talkable(a) == {b.name}
    b.pos = (30 + 2 * RADIUS + 1, 30)  # in the group, but beyond a wish's reach
    assert sim.decisions.talkable(a) == frozenset()
    b.pos = (33, 30)
    sim.appliers.request_talk(a, b.name)  # in the group and near: they stop to talk
    assert a.action.kind is ActionKind.CHAT and sim.scheduler.pending == 1
    sim.actions.view = None
    sim.close()
