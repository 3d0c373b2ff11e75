"""A whole game day of the 25-resident town on the scripted brain (issue 3's acceptance).

One run, shared by the tests below; every step is checked against the norms the map
states: nobody who is not staff enters a closed place, and no one-person room is crowded.
The same day is the pace meter's lockstep run (tests/sim/test_pace.py has the rest).
"""

from collections import Counter
from datetime import timedelta

import pytest

from game.core.clock import minute_of_day
from game.core.records import MemoryKind, Source
from game.sim.events import EventKind
from game.sim.factory import build_simulation
from game.sim.report import build_report, knowers
from game.world.town import AreaKind, split


class Watch:
    """Records every breach of opening hours or capacity, step by step."""

    def __init__(self, sim):
        self.sim = sim
        self.where = {n: a.location for n, a in sim.agents.items()}
        self.closed_entries: list[str] = []
        self.crowded: list[str] = []
        self.limited = [
            a
            for a in sim.town.areas.values()
            if a.capacity is not None and a.kind is AreaKind.ARENA
        ]

    def __call__(self, sim) -> None:
        minute = minute_of_day(sim.now)
        for name, agent in sim.agents.items():
            before, now = self.where[name], agent.location
            self.where[name] = now
            sector = split(now)[0] if now else ""
            if not sector or sector == (split(before)[0] if before else ""):
                continue
            area = sim.town.areas[sector]
            staff = sector in (agent.persona.home, agent.persona.workplace)
            if not staff and not area.is_open(minute):
                self.closed_entries.append(f"{sim.now} {name} entered closed {sector}")
        here = Counter(a.location for a in sim.agents.values())  # once a step, not per room
        for arena in self.limited:
            if here[arena.address] > arena.capacity:
                inside = [n for n, a in sim.agents.items() if a.location == arena.address]
                self.crowded.append(f"{sim.now} {arena.address}: {inside}")


@pytest.fixture(scope="module")
def day():
    sim = build_simulation("smallville", seed=7)
    start = sim.now
    watch = Watch(sim)
    try:
        sim.run_until(start + timedelta(hours=24), watch)
        pace = sim.pace()
    finally:
        sim.close()
    return sim, watch, build_report(sim, start, 0.0, "scripted"), pace


def test_everyone_sleeps_wakes_and_gets_about(day):
    sim, _, report, _ = day
    woke = {e.agent for e in sim.log.of(EventKind.WAKE)}
    slept = {e.agent for e in sim.log.of(EventKind.SLEEP)}
    assert woke == set(sim.agents) and slept == set(sim.agents)
    for agent in report["agents"]:
        assert len(agent["visited"]) >= 2, agent


def test_the_town_talks_and_reflects(day):
    sim, _, report, _ = day
    assert len(report["conversations"]) >= 20
    assert sum(1 for a in sim.agents.values() if a.reflections > 0) >= 5


def test_news_of_the_party_spreads(day):
    sim, *_ = day
    assert len(knowers(sim, "party")) > len(knowers(sim, "party", at_start=True))


def test_no_closed_shop_or_crowded_bathroom(day):
    _, watch, *_ = day
    assert not watch.closed_entries, watch.closed_entries[:5]
    assert not watch.crowded, watch.crowded[:5]


def test_reflections_cite_real_memories(day):
    sim, *_ = day
    checked = 0
    for agent in sim.agents.values():
        for i in range(len(agent.memory)):
            record = agent.memory.record(i)
            own = record.fact.source is not Source.INNER_VOICE
            if record.kind is MemoryKind.REFLECTION and own:
                assert record.evidence and all(0 <= e < i for e in record.evidence)
                checked += 1
    assert checked > 0


def test_plans_fill_their_parents(day):
    sim, *_ = day
    for agent in sim.agents.values():
        plan = agent.plan
        for b, hours in plan.hours.items():
            parent = plan.broad[b]
            assert hours[0].start == parent.start and hours[-1].end == parent.end
        for (b, h), actions in plan.actions.items():
            parent = plan.hours[b][h]
            assert actions[0].start == parent.start and actions[-1].end == parent.end


def _own_lines(sim):
    for e in sim.log.of(EventKind.CONVERSATION):
        if not e.data.get("visitor"):
            yield e.data.get("lines", [])


def test_residents_answer_most_of_the_questions_they_ask_each_other(day):
    from game.sim.talk_judge import Lexicon, answers, last_question

    sim, *_ = day
    names = sorted(sim.agents)
    people = (*names, *{n.split()[0] for n in names})
    places = tuple(a.name for a in sim.town.areas.values() if a.name)
    lex = Lexicon(people, places, ())
    asked = answered = 0
    for lines in _own_lines(sim):
        for i, (speaker, text) in enumerate(lines):
            question = last_question(text)
            if not question:
                continue
            asked += 1
            nxt = lines[i + 1] if i + 1 < len(lines) else None
            answered += nxt is not None and nxt[0] != speaker and answers(question, nxt[1], lex)
    assert asked >= 20
    assert answered / asked >= 0.5, (answered, asked)


def test_no_conversation_ends_on_a_question_and_a_greeting_is_not_asked_back(day):
    sim, *_ = day
    for lines in _own_lines(sim):
        assert not lines[-1][1].rstrip().endswith("?"), lines
        if len(lines) > 1 and lines[0][1].endswith("?"):
            first_q = lines[0][1].rsplit(",", 1)[-1].strip()
            assert first_q not in lines[1][1], lines[:2]


def test_lockstep_run_counts_the_decision_delay_as_waiting(day):
    """The pace meter over the day (tests/sim/test_pace.py): the scripted brain answers in
    one step, so the waits are that step, a small share, and no model is to blame."""
    *_, pace = day
    assert pace.total_awake > 0  # residents woke up during the morning
    assert 0 < pace.total_share < 0.2
    assert not pace.model and not pace.bottleneck
