"""How soon residents notice trouble and fix it: stoves set burning, sinks set leaking.

The 25-resident town (scripted brain, lockstep) runs a day; every three game hours the
benchmark sets one object of the kind in each building with someone awake inside, as a
player would, and watches. *Noticed* is when a resident starts dealing with that object
(a reaction aimed at it), *fixed* is when its state is no longer the one set. Each trial
is labelled by where the nearest awake resident was: the same room, the next room (walls
touching) or farther in the building. A trouble still there at the next
round is counted missed and put right by the benchmark.

Usage: python benchmarks/troubles.py [--seed 7] [--kinds stove,leak] (last line is JSON)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.core.records import ActionKind  # noqa: E402
from game.sim.factory import build_simulation  # noqa: E402
from game.world.town import AreaKind, Town, split  # noqa: E402

# kind -> (the state set, which objects: a name that contains one of these, first found)
KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "stove": ("burning", ("stove",)),
    "leak": ("leaking", ("sink", "shower")),
}
ROUND = timedelta(hours=3)
FIRST_HOUR = 7  # of the first full day; rounds at 7, 10, 13, 16, 19 and 22


@dataclass
class Trial:
    kind: str
    address: str
    state: str
    at: datetime
    where: str  # the nearest awake resident: room, next room, building
    noticed: float | None = None  # game minutes after it was set
    fixed: float | None = None
    by: str = ""
    awake: list[str] = field(default_factory=list)


def pick(town: Town, sector: str, names: tuple[str, ...]) -> str | None:
    """The first object of the sector (in map order) whose name holds one of `names`."""
    objects = [a for a in town.areas.values() if a.kind is AreaKind.OBJECT]
    return next(
        (a.address for a in objects
         if split(a.address)[0] == sector and any(n in a.name for n in names)),
        None,
    )  # fmt: skip


PLACES = ("room", "next room", "building")  # rooms apart: 0, 1, 2 or more


def where(town: Town, room: str, location: str) -> str:
    apart = town.rooms_apart(location, room)
    return PLACES[min(2, apart if apart is not None else 2)]


def start_round(sim, kind: str, at: datetime) -> list[Trial]:
    state, names = KINDS[kind]
    trials = []
    for sector in sorted(a.address for a in sim.town.sectors()):
        inside = [
            a for a in sim.agents.values()
            if not a.asleep and a.location and split(a.location)[0] == sector
        ]  # fmt: skip
        address = pick(sim.town, sector, names) if inside else None
        if address is None:
            continue
        room = sim.town.areas[address].parent
        near = min((where(sim.town, room, a.location) for a in inside), key=PLACES.index)
        sim.player.set_object_state(address, state)
        trials.append(Trial(kind, address, state, at, near, awake=sorted(a.name for a in inside)))
    return trials


def watch(sim, trials: list[Trial]) -> None:
    """Called each step: note who starts on a trial's object, and when it is put right."""
    minutes = lambda t: (sim.now - t.at).total_seconds() / 60  # noqa: E731
    for t in trials:
        if t.noticed is None:
            for agent in sim.agents.values():
                a = agent.action
                if a is not None and a.kind is ActionKind.REACT and a.address == t.address:
                    t.noticed, t.by = minutes(t), agent.name
                    break
        if t.fixed is None and sim.town.state(t.address) != t.state:
            t.fixed = minutes(t)


def run_kind(kind: str, seed: int, workers: int) -> list[Trial]:
    sim = build_simulation("smallville", seed=seed, workers=workers)
    at = sim.now.replace(hour=0, minute=0) + timedelta(days=1, hours=FIRST_HOUR)
    end = at.replace(hour=0) + timedelta(days=1)
    trials: list[Trial] = []
    while at < end:
        sim.run_until(at)
        for t in trials:  # the round before: what is left is put right
            if sim.town.state(t.address) == t.state:
                sim.player.set_object_state(t.address, sim.town.areas[t.address].default_state)
        batch = start_round(sim, kind, at)
        trials += batch
        sim.run_until(min(at + ROUND, end), lambda s, b=batch: watch(s, b))
        at += ROUND
    sim.close()
    return trials


def figures(trials: list[Trial]) -> dict:
    noticed = [t.noticed for t in trials if t.noticed is not None]
    fixed = [t.fixed for t in trials if t.fixed is not None]
    out: dict = {"trials": len(trials), "missed": len(trials) - len(fixed)}
    for name, values in (("notice", noticed), ("fix", fixed)):
        values = sorted(values)
        out[f"{name}_median_min"] = round(median(values), 1) if values else None
        out[f"{name}_p90_min"] = round(values[int(0.9 * (len(values) - 1))], 1) if values else None
        out[f"{name}_max_min"] = round(values[-1], 1) if values else None
    by_place = {}
    for place in PLACES:
        here = [t for t in trials if t.where == place]
        late = [t.noticed for t in here if t.noticed is not None]
        by_place[place] = {
            "trials": len(here),
            "noticed": len(late),
            "notice_max_min": round(max(late), 1) if late else None,
        }
    out["by_nearest"] = by_place
    return out


def report(kind: str, trials: list[Trial]) -> None:
    for t in trials:
        seen = f"{t.noticed:5.1f}" if t.noticed is not None else "  -  "
        done = f"{t.fixed:5.1f}" if t.fixed is not None else "  -  "
        print(
            f"  {kind:5} {t.at:%H:%M} {t.address:55.55} nearest {t.where:9} "
            f"noticed {seen} fixed {done} min  {t.by}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    began = time.perf_counter()
    result: dict = {"benchmark": "troubles", "seed": args.seed}
    for kind in args.kinds.split(","):
        trials = run_kind(kind, args.seed, args.workers)
        report(kind, trials)
        result[kind] = figures(trials)
        f = result[kind]
        print(
            f"{kind}: {f['trials']} trials, {f['missed']} missed; notice median "
            f"{f['notice_median_min']} max {f['notice_max_min']} min; fix median "
            f"{f['fix_median_min']} max {f['fix_max_min']} min"
        )
    result["wall_seconds"] = round(time.perf_counter() - began, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
