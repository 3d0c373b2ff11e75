"""Any intent, any town (issue 23): evaluate, study's table and the chart take their
intents, events and names from the scenario.

fixtures/booklaunch.json is six residents of the bundled town with neither the party nor
the candidacy: Tamara Taylor launches her picture book at The Rose and Crown Pub on the
evening of February 13 (another host, place, day and time), and Carmen Ortiz collects
signatures for a community garden (a public intent that is not an election). One short
run, to the end of the launch, is evaluated once for the whole module.
"""

import json
from pathlib import Path

import pytest

from game.sim.evaluation import measure
from game.sim.factory import build_simulation
from game.sim.study import summarize, table

BOOKLAUNCH = Path(__file__).parent / "fixtures" / "booklaunch.json"
TAMARA, PUB = "Tamara Taylor", "The Rose and Crown Pub"
NOT_HERE = ("party", "election", "valentine", "mayor")  # the bundled town's intents


@pytest.fixture(scope="module")
def evaluated():
    sim = build_simulation(str(BOOKLAUNCH), seed=7, workers=1)
    try:
        sim.run_until(sim.scenario.intent("launch").event.end)
        yield sim, measure(sim, ablations=False)
    finally:
        sim.close()


def test_the_host_invites_guests_answer_and_come(evaluated):
    _, ev = evaluated
    launch = ev.attendance["launch"]
    print("launch:", launch.to_json())
    assert (launch.host, launch.place, launch.happened) == (TAMARA, PUB, True)
    assert launch.invited_by_host and launch.accepted  # invitations, and answers to them
    assert len(launch.attended) >= 2 and TAMARA not in launch.attended
    assert set(ev.attendance) == {"launch"}  # the petition has no time and place


def test_diffusion_is_measured_per_intent_and_phrasing(evaluated):
    sim, ev = evaluated
    assert set(ev.diffusion) == {"launch", "petition"}
    for key, d in ev.diffusion.items():
        intent = sim.scenario.intent(key)
        assert tuple(p.question for p in d.phrasings) == intent.questions
        assert all(len(p.replies) == len(sim.agents) for p in d.phrasings)
        assert d.spread[0] <= d.end <= d.spread[1]
        assert all(r.follow_up for p in d.phrasings for r in p.replies)  # both were asked
    launch = ev.diffusion["launch"]
    print("launch by phrasing:", launch.counts, "petition:", ev.diffusion["petition"].counts)
    assert launch.start == 1 and launch.end >= 3  # the host and those she told
    assert len(ev.knowledge["petition"].who) >= 2  # the petition travelled too
    assert max(ev.diffusion["petition"].counts) >= 1


def test_the_report_is_keyed_by_the_scenarios_ids(evaluated):
    _, ev = evaluated
    doc = ev.to_json()
    assert set(doc["diffusion"]) == {"launch", "petition"} and set(doc["attendance"]) == {"launch"}
    assert set(doc["attendance"]["launch"]) >= {"invited", "accepted", "attended"}
    launch = doc["diffusion"]["launch"]
    assert [p["count"] for p in launch["phrasings"]] == list(ev.diffusion["launch"].counts)
    assert set(launch) >= {"start", "end", "spread", "flagged", "phrasings"}
    # the report's own words (what residents answered is theirs) name none of the bundled
    # town's intents
    for d in doc["diffusion"].values():
        for phrasing in d["phrasings"]:
            phrasing.pop("answers")
    words = json.dumps(doc).lower()
    assert not [w for w in NOT_HERE if w in words]


def test_studys_table_and_the_chart(evaluated, tmp_path):
    from game.ui.chart import _measure_lines, draw_chart

    sim, ev = evaluated
    rows = {r.measure: r for r in summarize([ev])}
    assert rows["diffusion.launch"].values == (ev.diffusion["launch"].end,)
    assert rows["attendance.launch attended"].values == (len(ev.attendance["launch"].attended),)
    assert "diffusion.petition" in rows and "attendance.petition invited" not in rows
    text = table(list(rows.values())) + "\n".join(_measure_lines(ev))
    assert "launch" in text and not [w for w in NOT_HERE if w in text.lower()]
    truth = [line for line in _measure_lines(ev) if line.startswith("truth:")]
    assert ev.truth is not None and truth == [  # the chart shows the truth check's figures
        f"truth: {ev.truth.contradicted} of {ev.truth.answers} contradicted, {ev.truth.stale} "
        f"stale; paraphrases agree {ev.truth.paraphrase_consistency or 'n/a'}"]
    path = draw_chart(tmp_path / "chart.png", ev, sorted(sim.agents), (sim.scenario.start, sim.now))
    assert path.stat().st_size > 10_000
