"""Do the residents' plans fit their rooms and one another? An audit of the scripted town.

Runs the town headless (scripted brain) for some game hours on each seed and counts:

- `misplaced`: planned actions placed at an object that does not afford them, by the
  activity table's data (a step's spot names the thing it needs: 'watching the news' a
  television, 'doing the laundry' a washing machine), or in a sector that lacks what the
  step's activity needs ('explaining a new idea to the class' where there is no classroom);
- `lacking`: broad plan items whose activity needs something their sector lacks ('watching
  television at home' in a house without a television): the planner's choice, before any
  action;
- `joint`: broad items that name another resident ('meeting Klaus for a snack'), and how
  many of them the partner never came to (same sector, within the item's time), with the
  minutes the resident waited there for the partner.

Usage:
  python tools/plan_audit.py [--seeds 7,8] [--hours 48]          (last line is JSON)
  python tools/plan_audit.py --record trace.json ...   run and keep what happened, unjudged
  python tools/plan_audit.py --judge trace.json ...    judge kept runs

Recording uses only the simulation's public state, so an older checkout can record a run
that this one judges (the "before" figures of a change to the tables).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.core.files import write_atomic  # noqa: E402
from game.world.town import AreaKind, Town, sector_of, split  # noqa: E402

SCENARIO = "smallville"


# -- recording ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Done:
    """One planned action as it started, with the broad item it belongs to."""

    agent: str
    start: str
    text: str
    address: str
    broad: str
    broad_place: str
    broad_start: str
    broad_end: str


@dataclass
class Trace:
    """What one run did: its actions, and where each resident was, minute by minute (as
    runs of (first minute, sector))."""

    seed: int
    hours: float
    actions: list[Done] = field(default_factory=list)
    whereabouts: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


def record(seed: int, hours: float) -> Trace:
    from game.core.records import ActionKind
    from game.sim.factory import build_simulation

    sim = build_simulation(SCENARIO, seed=seed, workers=8)
    trace = Trace(seed, hours)
    seen: dict[str, object] = {}
    end = sim.now + timedelta(hours=hours)
    minute = None
    while sim.now < end:
        sim.step()
        for name, agent in sim.agents.items():
            action = agent.action
            if action is not None and seen.get(name) is not action:
                seen[name] = action
                if action.kind is ActionKind.PLAN:
                    trace.actions.append(_done(agent, action))
        if sim.now.replace(second=0) != minute:
            minute = sim.now.replace(second=0)
            for name, agent in sim.agents.items():
                runs = trace.whereabouts.setdefault(name, [])
                here = sector_of(agent.location) if agent.location else ""
                if not runs or runs[-1][1] != here:
                    runs.append((minute.isoformat(), here))
    sim.close()
    return trace


def _done(agent, action) -> Done:
    b, _, _ = agent.plan.locate(action.start)
    broad = agent.plan.broad[b] if b is not None else None
    return Done(
        agent.name,
        action.start.isoformat(),
        action.description,
        action.address,
        broad.description if broad else "",
        broad.place if broad else "",
        broad.start.isoformat() if broad else "",
        broad.end.isoformat() if broad else "",
    )


def save_traces(traces: list[Trace], path: Path) -> None:
    write_atomic(path, json.dumps([asdict(t) for t in traces]))


def load_traces(path: Path) -> list[Trace]:
    out = []
    for t in json.loads(path.read_text()):
        actions = [Done(**a) for a in t["actions"]]
        where = {k: [tuple(r) for r in v] for k, v in t["whereabouts"].items()}
        out.append(Trace(t["seed"], t["hours"], actions, where))
    return out


# -- judging --------------------------------------------------------------------------------
@dataclass
class Verdict:
    """The counts of one run, and a few examples of each kind of misfit."""

    actions: int = 0
    judged: int = 0  # actions whose words are a step of the table with a place need
    misplaced: int = 0
    broad_items: int = 0
    lacking: int = 0
    joint: int = 0
    joint_missed: int = 0
    waits: list[int] = field(default_factory=list)
    examples: Counter = field(default_factory=Counter)

    def figures(self) -> dict[str, object]:
        return {
            "actions": self.actions,
            "judged": self.judged,
            "misplaced": self.misplaced,
            "broad_items": self.broad_items,
            "lacking": self.lacking,
            "joint": self.joint,
            "joint_missed": self.joint_missed,
            "wait_minutes_max": max(self.waits, default=0),
            "wait_minutes_mean": round(sum(self.waits) / len(self.waits), 1) if self.waits else 0,
        }


def judge(trace: Trace, town: Town, residents: Iterable[str]) -> Verdict:
    from game.brains.scripted import activities, spots

    offers = {s.name: spots.offers_in(town, s.name) for s in town.sectors()}
    verdict = Verdict()
    for done in trace.actions:
        verdict.actions += 1
        steps = activities.steps_named(done.text)
        if not steps:
            continue
        sector = sector_of(done.address)
        needs = any(a.needs or spot is not None and spot.thing is not None for a, spot in steps)
        verdict.judged += needs
        if not _affords(town, done.address, steps, offers.get(sector, frozenset())):
            verdict.misplaced += 1
            verdict.examples[f"{done.text} @ {_short(done.address)}"] += 1
    broad = {(d.agent, d.broad, d.broad_start): d for d in trace.actions if d.broad}
    verdict.broad_items = len(broad)
    for d in broad.values():
        fit = activities.classify(d.broad, None)
        sector = sector_of(d.broad_place) if d.broad_place else ""
        if sector and fit.needs and not activities.fits(fit, offers.get(sector, frozenset())):
            verdict.lacking += 1
            verdict.examples[f"plan: {d.broad} ({sector})"] += 1
    _judge_joint(verdict, list(broad.values()), trace, list(residents))
    return verdict


def _affords(town: Town, address: str, steps, offers) -> bool:
    """Some activity that has this step fits the sector, and where the sector has the
    step's room, the object is the step's thing or one standing in for it (spots.affords:
    a cafe seat's step at the pub only prefers a seat)."""
    from game.brains.scripted import activities, spots

    area = town.areas.get(address)
    thing = area is not None and area.kind is AreaKind.OBJECT
    for activity, spot in steps:
        if not activities.fits(activity, offers):
            continue
        if not thing or spot is None or spot.thing is None:
            return True
        if not spots.offered(spot.arena, offers):
            return True
        if spots.offered(spot.thing, spots.offers_of_thing(area.role, area.name)):
            return True
    return False


def _judge_joint(verdict: Verdict, items: list[Done], trace: Trace, residents: list[str]) -> None:
    for d in items:
        partner = _partner(d, residents)
        sector = sector_of(d.broad_place) if d.broad_place else ""
        if not partner or not sector:
            continue
        verdict.joint += 1
        start, end = datetime.fromisoformat(d.broad_start), datetime.fromisoformat(d.broad_end)
        mine = _spans(trace.whereabouts.get(d.agent, []), sector, start, end)
        theirs = _spans(trace.whereabouts.get(partner, []), sector, start, end)
        arrived = mine[0][0] if mine else None
        met = _first_overlap(mine, theirs)
        if met is None:
            verdict.joint_missed += 1
            verdict.examples[f"missed: {d.agent}: {d.broad}"] += 1
        if arrived is not None:
            verdict.waits.append(int(((met or end) - arrived).total_seconds() // 60))


def _partner(d: Done, residents: list[str]) -> str:
    """Another resident the item names by first name ('meeting Klaus ...')."""
    for name in residents:
        first = name.split()[0]
        if name != d.agent and re.search(rf"\b{re.escape(first)}\b", d.broad):
            return name
    return ""


Span = tuple[datetime, datetime]


def _spans(runs: list[tuple[str, str]], sector: str, start: datetime, end: datetime) -> list[Span]:
    """When, between start and end, the runs put someone in the sector."""
    out = []
    for i, (since, where) in enumerate(runs):
        until = datetime.fromisoformat(runs[i + 1][0]) if i + 1 < len(runs) else end
        a, b = max(datetime.fromisoformat(since), start), min(until, end)
        if where == sector and a < b:
            out.append((a, b))
    return out


def _first_overlap(mine: list[Span], theirs: list[Span]) -> datetime | None:
    found = [max(a, c) for a, b in mine for c, d in theirs if max(a, c) < min(b, d)]
    return min(found, default=None)


def _kind(example: str) -> str:
    head = example.split(":")[0]
    return head if head in ("plan", "missed") else "misplaced"


def _short(address: str) -> str:
    parts = split(address)
    return ":".join(parts[-2:]) if len(parts) > 1 else address


# -- the command ----------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="7,8")
    parser.add_argument("--hours", type=float, default=48.0)
    parser.add_argument("--record", type=Path, help="run and keep the trace here, unjudged")
    parser.add_argument("--judge", type=Path, nargs="+", help="judge kept traces, not a run")
    parser.add_argument("--examples", type=int, default=8)
    args = parser.parse_args()
    if args.judge:
        traces = [t for path in args.judge for t in load_traces(path)]
    else:
        traces = [record(int(s), args.hours) for s in args.seeds.split(",")]
    if args.record:
        save_traces(traces, args.record)
        print(json.dumps({"recorded": str(args.record), "seeds": [t.seed for t in traces]}))
        return
    from game.world.scenario import load_world

    scenario, town = load_world(SCENARIO)
    names = [r.name for r in scenario.residents]
    out = {}
    for trace in traces:
        verdict = judge(trace, town, names)
        print(f"seed {trace.seed}: {verdict.figures()}")
        for kind in ("misplaced", "plan", "missed"):
            shown = [(t, n) for t, n in verdict.examples.most_common() if _kind(t) == kind]
            for text, n in shown[: args.examples]:
                print(f"  {n:4d}  {text}")
        out[str(trace.seed)] = verdict.figures()
    print(json.dumps({"tool": "plan_audit", "hours": traces[0].hours, "seeds": out}))


if __name__ == "__main__":
    main()
