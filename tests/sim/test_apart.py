"""Residents who cannot affect each other step apart between sync points (game.sim.apart):
who falls into which group, that a slow answer for one group lets the others go on, and
that the run is the same whatever order the answers come in."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace
from datetime import timedelta

from game.sim.apart import Outlook, calm_of, form_groups, reach, settled
from game.sim.factory import make_brain, make_embedder
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


def outlook(sim: Simulation, steps: int = 12, dues=None, wishes=None) -> Outlook:
    """An epoch from now with nothing in flight and no place closing."""
    return Outlook(steps, sim.now, 10, 60, dues or {}, lambda a: steps, wishes or {})


def test_residents_in_sight_reach_are_one_group_and_those_far_apart_are_not():
    sim = town(Paced(0))
    a, b, c = (sim.agents[n] for n in sorted(sim.agents))
    for agent in (a, b, c):  # awake with nothing to do: anywhere a tile a step
        agent.asleep, agent.action, agent.location, agent.path = False, None, "", []
    a.pos, b.pos, c.pos = (10, 10), (10 + 2 * 12 + 2 * RADIUS + 2, 10), (90, 60)
    look = outlook(sim)
    assert form_groups(sim.agents, [], look, RADIUS) == [
        frozenset({a.name, b.name}),
        frozenset({c.name}),
    ]
    b.pos = (b.pos[0] + 1, 10)  # one tile further: they cannot meet within the epoch
    assert len(form_groups(sim.agents, [], look, RADIUS)) == 3
    together = form_groups(sim.agents, [(a.name, c.name)], look, RADIUS)
    assert frozenset({a.name, c.name}) in together  # a conversation's job in flight
    sim.close()


def test_a_sleeper_not_due_to_wake_stays_put_and_one_waking_may_go_anywhere():
    sim = town(Paced(0))
    sleeper = next(a for a in sim.agents.values() if a.asleep)
    sleeper.seeded = True
    sleeper.action = replace(sleeper.action, end=sim.now + timedelta(hours=2))
    assert reach(sleeper, outlook(sim)) <= 1
    sleeper.action = replace(sleeper.action, end=sim.now + timedelta(seconds=10))
    assert reach(sleeper, outlook(sim)) == 12
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
    look = outlook(sim, dues={other: 5}, wishes={other: frozenset({busy.name})})
    assert calm_of(sim.agents, look)[busy.name] == 4  # the other's wish to talk may stop it
    assert (
        calm_of(sim.agents, outlook(sim, wishes={other: frozenset({busy.name})}))[busy.name] == 11
    )  # a wish with no thought in flight is spent
    sim.close()


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
