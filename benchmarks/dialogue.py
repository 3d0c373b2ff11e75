"""How believable the scripted residents are: 2 game days of the 25-resident town per seed.

Prints, per seed and as the mean over seeds: the distinct-sentence ratio of everything said
(names normalised) and the share of the most frequent sentence; the interview battery's
"don't know" rate; conversations, distinct pairs that talked and network density;
reflection duplicates per resident; who was invited to, accepted, declined and attended
each event (read from the memories' `invited` and `rsvp` fields and the event log).

Usage: python benchmarks/dialogue.py [--hours 48] [--seeds 7 8 9] [--workers 2]
(last line is JSON)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.core.records import FactKind, MemoryKind  # noqa: E402
from game.sim.evaluation import ask, battery_questions  # noqa: E402
from game.sim.events import EventKind  # noqa: E402
from game.sim.factory import build_simulation  # noqa: E402
from game.sim.measures import acquaintances_now, attendance, density  # noqa: E402

DONT_KNOW = re.compile(
    r"\b(don't know|do not know|haven't heard|have not heard|not sure|no idea|never heard)\b",
    re.I,
)
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


def sentences(text: str, names: list[str]) -> list[str]:
    """A line's sentences, with every resident's full and first name made '<name>'."""
    for name in names:
        text = text.replace(name, "<name>")
    for first in {n.split()[0] for n in names}:
        text = re.sub(rf"\b{re.escape(first)}\b", "<name>", text)
    return [s.strip().lower() for s in _SENTENCE.findall(text) if s.strip(" .!?")]


def talk_figures(sim) -> dict:
    names = sorted(sim.agents)
    talks = [e for e in sim.log.of(EventKind.CONVERSATION) if not e.data.get("visitor")]
    said = [s for e in talks for _, text in e.data.get("lines", []) for s in sentences(text, names)]
    counted = Counter(said)
    pairs = {tuple(sorted(e.data["participants"])) for e in talks}
    top, top_n = counted.most_common(1)[0] if counted else ("", 0)
    return {
        "conversations": len(talks),
        "pairs": len(pairs),
        "density": density(names, acquaintances_now(sim))["density"],
        "sentences": len(said),
        "distinct_ratio": round(len(counted) / max(1, len(said)), 4),
        "top_sentence_share": round(top_n / max(1, len(said)), 4),
        "top_sentence": top,
    }


def battery_figures(sim) -> dict:
    answers = [ask(sim, n, q) for n in sorted(sim.agents) for _, q in battery_questions(sim, n)]
    unknown = sum(1 for a in answers if DONT_KNOW.search(a))
    return {"answers": len(answers), "dont_know_rate": round(unknown / max(1, len(answers)), 4)}


def reflection_duplicates(sim) -> int:
    dupes = 0
    for agent in sim.agents.values():
        texts = [
            agent.memory.text(i)
            for i in range(len(agent.memory))
            if agent.memory.record(i).kind is MemoryKind.REFLECTION
        ]
        dupes += len(texts) - len(set(texts))
    return dupes


def raised(sim) -> dict:
    """Per public intent without an event (a campaign): how many residents heard it from
    its holder in person (a claim whose speaker is the holder, by field)."""
    out = {}
    for intent in sim.scenario.intents:
        if intent.event is not None or intent.private:
            continue
        heard = {
            name
            for name, agent in sim.agents.items()
            for i in range(len(agent.memory))
            if (f := agent.memory.record(i).fact).kind is FactKind.CLAIM
            and f.intent == intent.id
            and f.heard_from == intent.holder
        }
        out[intent.id] = len(heard)
    return out


ANSWERS = ("invited", "accepted", "maybe", "declined", "attended")


def event_figures(sim) -> dict:
    """Per event intent, by issue #12's strict attendance measure: invited, accepted,
    maybe, declined (each resident's latest answer) and who attended (present for long
    enough and doing the event's things), and how the answers match the attendance."""
    out = {}
    for intent_id, e in attendance(sim).items():
        present = {*e.attended, *e.present_not_counted}
        start, end = datetime.fromisoformat(e.start), datetime.fromisoformat(e.end)
        out[intent_id] = {
            **{k: list(getattr(e, k)) for k in ANSWERS},
            "accepted_who_came": len(set(e.accepted) & set(e.attended)),
            "declined_who_came": len(set(e.declined) & set(e.attended)),
            "declined_present": len(set(e.declined) & present),  # there, not for the event
            "talks_during": _talks(sim, start, end),
            "talks_day_before": _talks(sim, start - timedelta(days=1), end - timedelta(days=1)),
        }
    return out


def _talks(sim, start: datetime, end: datetime) -> int:
    """Conversations between residents begun in [start, end)."""
    talks = sim.log.of(EventKind.CONVERSATION)
    return sum(1 for e in talks if not e.data.get("visitor") and start <= e.time < end)


def run(seed: int, hours: float, workers: int) -> dict:
    sim = build_simulation("smallville", seed=seed, workers=workers)
    began = time.perf_counter()
    sim.run_until(sim.now + timedelta(hours=hours))
    out = {"seed": seed, **talk_figures(sim), **battery_figures(sim)}
    out["reflection_duplicates"] = reflection_duplicates(sim)
    out["events"] = event_figures(sim)
    out["raised_by_holder"] = raised(sim)
    out["wall_seconds"] = round(time.perf_counter() - began, 1)
    sim.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hours", type=float, default=48.0)
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 8, 9])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    runs = []
    for seed in args.seeds:
        r = run(seed, args.hours, args.workers)
        runs.append(r)
        print(
            f"seed {seed}: {r['conversations']} conversations, {r['pairs']} pairs, "
            f"density {r['density']}, distinct {r['distinct_ratio']}, top "
            f"{r['top_sentence_share']} ({r['top_sentence']!r}), don't know "
            f"{r['dont_know_rate']}, reflection duplicates {r['reflection_duplicates']}"
        )
        print(f"  heard in person from the holder: {r['raised_by_holder']}")
        for intent, e in r["events"].items():
            print(
                f"  {intent}: invited {len(e['invited'])}, accepted {len(e['accepted'])}, "
                f"maybe {len(e['maybe'])}, declined {len(e['declined'])}, attended "
                f"{len(e['attended'])} (accepted who came {e['accepted_who_came']}, "
                f"declined who came {e['declined_who_came']}, declined but at the place "
                f"{e['declined_present']}); conversations during it {e['talks_during']}, "
                f"same hours the day before {e['talks_day_before']}"
            )
    keys = ("distinct_ratio", "top_sentence_share", "dont_know_rate", "reflection_duplicates",
            "conversations", "pairs", "density")  # fmt: skip
    summary = {k: round(mean(r[k] for r in runs), 4) for k in keys}
    print(json.dumps({"benchmark": "dialogue", "hours": args.hours, "mean": summary, "runs": runs}))


if __name__ == "__main__":
    main()
