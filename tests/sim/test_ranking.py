"""The believability ranking's parts (game/sim/ranking.py): the fit against ratings worked
by hand from Weng and Lin's equations, places and ranks with shared answers, Cohen's d,
the shuffled and unlabelled set-up, and the human baseline's file."""

from __future__ import annotations

import json
import math

import pytest

from game.core.errors import SmallvilleError
from game.sim.factory import build_simulation
from game.sim.ranking import (
    BETA,
    SIGMA,
    Contestant,
    Match,
    cohens_d,
    fit,
    read_human,
    setup,
    summarize,
)

FULL, NO_REFL, NO_BOTH, NO_MEM, HUMAN = (
    Contestant.FULL,
    Contestant.NO_REFLECTION,
    Contestant.NO_REFLECTION_PLANNING,
    Contestant.NO_MEMORY,
    Contestant.HUMAN,
)


def test_one_match_of_two_moves_both_by_hand_worked_amounts():
    """c^2 = 2 (sigma^2 + beta^2) = 6250/36; the winner's chance at q = itself is 1/2, so
    mu moves by sigma^2 / c * 1/2 = 5 sqrt(10) / 6 each way; sigma^2 / c^2 = 0.4, gamma =
    sqrt(0.4), delta = 1/4."""
    r = fit([{FULL: 0, NO_MEM: 1}])
    step = 5 * math.sqrt(10) / 6
    sigma = 25 / 3 * math.sqrt(1 - math.sqrt(0.4) * 0.4 / 4)
    assert r[FULL].mu == pytest.approx(25 + step, abs=1e-12)
    assert r[NO_MEM].mu == pytest.approx(25 - step, abs=1e-12)
    assert r[FULL].sigma == r[NO_MEM].sigma == pytest.approx(sigma, abs=1e-12)
    assert round(r[FULL].mu, 4) == 27.6352 and round(sigma, 4) == 8.0655


def test_two_matches_follow_the_two_player_form():
    """The second match from the first's ratings, by the two-player (Bradley-Terry) form of
    the update: p = 1 / (1 + exp(-(mu_w - mu_l) / c)), the winner gains sigma^2 / c (1 - p)."""
    r = fit([{FULL: 0, NO_MEM: 1}, {FULL: 0, NO_MEM: 1}])
    a = 5 * math.sqrt(10) / 6
    s = 25 / 3 * math.sqrt(1 - math.sqrt(0.4) * 0.4 / 4)
    c = math.sqrt(2 * (s**2 + BETA**2))
    p = 1 / (1 + math.exp(-2 * a / c))
    gain = s**2 / c * (1 - p)
    assert r[FULL].mu == pytest.approx(25 + a + gain, abs=1e-12)
    assert r[NO_MEM].mu == pytest.approx(25 - a - gain, abs=1e-12)
    sigma = s * math.sqrt(1 - (s / c) * (s**2 / c**2) * p * (1 - p))
    assert r[FULL].sigma == pytest.approx(sigma, abs=1e-12)
    assert r[FULL].mu - r[NO_MEM].mu < 4 * a  # the expected win teaches less


def test_a_tie_for_first_against_a_third_by_hand():
    """Three equal priors, two tied first: c^2 = 3 (sigma^2 + beta^2), sigma^2 / c =
    10 sqrt(15) / 9. A tied winner: (1 - 1/3) / 2 - (1/3) / 2 = 1/6 of it; the last:
    -2 (1/3) / 2 = -1/3 of it; delta 2/9 for all, gamma = sqrt(4/15)."""
    r = fit([{FULL: 0, NO_REFL: 0, HUMAN: 1}])
    unit = 10 * math.sqrt(15) / 9
    sigma = SIGMA * math.sqrt(1 - math.sqrt(4 / 15) * (4 / 15) * (2 / 9))
    assert r[FULL].mu == r[NO_REFL].mu == pytest.approx(25 + unit / 6, abs=1e-12)
    assert r[HUMAN].mu == pytest.approx(25 - unit / 3, abs=1e-12)
    assert {round(x.sigma, 12) for x in r.values()} == {round(sigma, 12)}


def test_the_fit_is_openskills_plackett_luce_without_drift():
    openskill = pytest.importorskip("openskill.models")
    model = openskill.PlackettLuce(tau=0.0)
    matches = [
        {FULL: 0, NO_REFL: 0, NO_BOTH: 1, NO_MEM: 2},
        {NO_MEM: 0, FULL: 1, HUMAN: 2},
        {FULL: 0, NO_REFL: 1, NO_BOTH: 1, NO_MEM: 1, HUMAN: 2},
    ]
    theirs = {c: model.rating() for c in Contestant}
    for places in matches:
        who = list(places)
        out = model.rate([[theirs[c]] for c in who], ranks=[places[c] for c in who])
        theirs.update({c: team[0] for c, team in zip(who, out, strict=True)})
    for c, r in fit(matches).items():
        assert (r.mu, r.sigma) == pytest.approx((theirs[c].mu, theirs[c].sigma), abs=1e-9)


def shared() -> Match:
    """Full and no reflection gave the same words ('x'); the judge put 'y' first."""
    return Match("Klaus Mueller", "q?", ("x", "y"), ((FULL, 0), (NO_REFL, 0), (NO_MEM, 1)), (1, 0))


def test_a_shared_answer_shares_its_place_and_the_mean_rank():
    m = shared()
    assert m.judged and m.places() == {NO_MEM: 0, FULL: 1, NO_REFL: 1}
    assert m.ranks() == {NO_MEM: 1.0, FULL: 2.5, NO_REFL: 2.5}


def test_cohens_d_by_hand():
    """Means 4/3 and 8/3, each sum of squares 2/3, pooled sd sqrt((4/3) / 4)."""
    assert cohens_d([1, 2, 1], [2, 3, 3]) == pytest.approx(4 / 3 / math.sqrt(1 / 3))
    assert cohens_d([1, 1], [2, 2]) is None and cohens_d([1], [2, 3]) is None


def test_summary_leaves_out_the_alike_and_the_unjudged():
    alike = Match("Klaus Mueller", "a?", ("same",), ((FULL, 0), (NO_MEM, 0)))
    unjudged = Match("Klaus Mueller", "b?", ("x", "y"), ((FULL, 0), (NO_MEM, 1)))
    b = summarize([shared(), alike, unjudged, shared()])
    assert (b.judged, b.alike, b.no_verdict) == (2, 1, 1)
    assert [s.contestant for s in b.standings][0] is NO_MEM
    by = {s.contestant: s for s in b.standings}
    assert by[NO_MEM].mean_rank == 1 and by[FULL].matches == 2
    assert by[FULL].rating == fit([shared().places()] * 2)[FULL]
    effect = next(e for e in b.effects if (e.a, e.b) == (NO_MEM, FULL))  # higher rated first
    assert effect.matches == 2 and effect.d is None  # the same ranks twice: no spread


def test_setup_shows_each_distinct_answer_once_shuffled_by_the_seed():
    answers = {FULL: "I run  the cafe.", NO_REFL: "I run the cafe.", NO_BOTH: "Hm.", NO_MEM: "No."}
    m = setup(7, "Klaus Mueller", "What do you do?", answers)
    assert sorted(m.shown) == ["Hm.", "I run the cafe.", "No."]
    who = dict(m.entrants)
    assert who[FULL] == who[NO_REFL] and m.order == ()
    assert setup(7, "Klaus Mueller", "What do you do?", answers) == m
    orders = {setup(s, "Klaus Mueller", "What do you do?", answers).shown for s in range(12)}
    assert len(orders) > 1  # the position tells nothing of who answered


@pytest.fixture(scope="module")
def town():
    sim = build_simulation("three", seed=0)
    yield sim
    sim.close()


def test_human_answers_are_read_by_resident_and_question(town, tmp_path):
    path = tmp_path / "human.jsonl"
    rows = [
        {"agent": "Klaus Mueller", "question": "What is your occupation?", "answer": "A student."},
        {"agent": "Maria Lopez", "question": "Who is Klaus Mueller?", "answer": "A friend.",
         "group": "memory"},
    ]  # fmt: skip
    path.write_text("# by hand\n\n" + "\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    assert read_human(path, town) == {
        ("Klaus Mueller", "What is your occupation?"): "A student.",
        ("Maria Lopez", "Who is Klaus Mueller?"): "A friend.",
    }


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("{not json", "line 1: not JSON"),
        ('{"agent": "Klaus Mueller", "question": "What is your occupation?"}', "needs"),
        ('{"agent": "Nobody", "question": "Hi?", "answer": "x"}', "no resident named 'Nobody'"),
        ('{"agent": "Klaus Mueller", "question": "Hi?", "answer": "x"}', "not a battery question"),
    ],
)
def test_a_wrong_human_line_is_one_error_naming_it(town, tmp_path, line, says):
    path = tmp_path / "human.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(SmallvilleError, match=says):
        read_human(path, town)


def test_a_second_human_answer_to_one_question_is_an_error(town, tmp_path):
    row = {"agent": "Klaus Mueller", "question": "What is your occupation?", "answer": "x"}
    path = tmp_path / "human.jsonl"
    path.write_text(f"{json.dumps(row)}\n{json.dumps(row)}\n", encoding="utf-8")
    with pytest.raises(SmallvilleError, match="line 2: a second answer"):
        read_human(path, town)


def test_a_human_file_with_no_end_or_not_text_is_one_error(town, tmp_path):
    """`--human /dev/zero` read until memory ran out; bytes not UTF-8 were a traceback."""
    import os
    from pathlib import Path

    bad = tmp_path / "human.jsonl"
    bad.write_bytes(b'{"agent": "\xff"}\n')
    with pytest.raises(SmallvilleError, match="not UTF-8 text"):
        read_human(bad, town)
    from game.sim.ranking import MAX_HUMAN

    with bad.open("wb") as f:
        f.truncate(MAX_HUMAN + 10)  # sparse: no disk spent
    with pytest.raises(SmallvilleError, match="larger than such a file may be"):
        read_human(bad, town)
    if os.path.exists("/dev/zero"):  # a device is refused unread
        with pytest.raises(SmallvilleError, match="/dev/zero: it is not a regular file"):
            read_human(Path("/dev/zero"), town)
