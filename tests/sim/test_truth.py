"""The truth check (issue 23, item 2): every answer `evaluate` collects, its claims checked
against the save.

A hand-made save of 'three' with a known past: Isabella keeps the cafe all day on the
14th and hosts the evening event there (17:00-19:00); Klaus sits at the cafe from 13:00
and leaves at 16:10, before it; Maria is at the cafe from 14:00 to 19:30. Klaus heard of
the event from Isabella. Answers with known faults (one each, as the issue's authors found
them: a housemate who is not one, a quiet cafe that was full, an ended event spoken of as
to come, ...) must be flagged, quoted, with what the save holds instead; the same answers
told true must give nothing.
"""

from dataclasses import replace
from datetime import datetime

import numpy as np
import pytest

from game.core.records import MemoryKind, Source
from game.mind import facts
from game.sim import evaluation, measures, truth
from game.sim.events import EventKind
from game.sim.factory import build_simulation
from game.sim.measures import Answered
from game.sim.results import Asked, Verdict
from game.sim.truth import Claim, Said

ISABELLA, KLAUS, MARIA = "Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"
CAFE = "Hobbs Cafe:cafe:cafe customer seating"
DORM = "Oak Hill College Dorm:common room"
BAD, STALE, OK = Verdict.CONTRADICTED, Verdict.STALE, Verdict.BACKED


def remember(sim, name, fact, when, kind=MemoryKind.CHAT):
    vec = np.zeros(sim.mind.embedder.dim, dtype=np.float32)
    sim.agents[name].memory.add(kind, facts.render(fact), when, 5, vec, fact)


def act(sim, name, when, address):
    sim.log.add(when, EventKind.ACTION, name, "doing something", address=address)


def at(day, hour, minute=0):
    return datetime(2023, 2, day, hour, minute)


@pytest.fixture(scope="module")
def town():
    sim = build_simulation("three", seed=0)
    event = sim.scenario.intent("party")
    heard = facts.claim(ISABELLA, "come at 5 pm", None, event)
    remember(sim, KLAUS, replace(heard, invited=True), at(13, 12))
    act(sim, ISABELLA, at(13, 4), "Isabella Rodriguez's apartment:main room")
    act(sim, KLAUS, at(13, 4), DORM)
    act(sim, MARIA, at(13, 4), DORM)
    act(sim, ISABELLA, at(14, 8), "Hobbs Cafe:cafe:cafe counter")
    act(sim, ISABELLA, at(14, 20), "Isabella Rodriguez's apartment:main room")
    act(sim, KLAUS, at(14, 13), CAFE)
    act(sim, KLAUS, at(14, 16, 10), DORM)
    act(sim, MARIA, at(14, 14), CAFE)
    party = facts.doing(MARIA, "at the party", Source.SELF, "the party", "party")
    remember(sim, MARIA, party, at(14, 17, 30), MemoryKind.OBSERVATION)  # she went
    act(sim, MARIA, at(14, 19, 30), DORM)
    sim.clock.now = at(15, 4)
    yield sim
    sim.close()


LIVE, YESTERDAY = "Who do you live with?", "What did you do yesterday?"
NEWS, FOLLOW = "Do you know of any party happening in town?", "Who's behind it, and when is it?"

# (who, question, the faulty answer, the same told true, what the fault must be found as)
CASES = [
    (ISABELLA, LIVE, "I live with Klaus.", "I live on my own, at my apartment.",
     {(Claim.LIVES_WITH, BAD)}),
    (MARIA, LIVE, "I live at Oak Hill College Dorm with Klaus and Isabella.",
     "I live at Oak Hill College Dorm with Klaus, a classmate.", {(Claim.LIVES_WITH, BAD)}),
    (KLAUS, "Do you know Isabella Rodriguez?", "Yes, she lives at Oak Hill College Dorm.",
     "Yes, she lives at Isabella Rodriguez's apartment.", {(Claim.LIVES_AT, BAD)}),
    (KLAUS, "What is your occupation?", "I'm a physics student at Oak Hill College.",
     "I'm a sociology student at Oak Hill College.", {(Claim.OCCUPATION, BAD)}),
    (MARIA, "What is your occupation?", "I work at The Willows Market and Pharmacy.",
     "I work at Oak Hill College.", {(Claim.WORKS_AT, BAD)}),
    (MARIA, YESTERDAY, "Yesterday afternoon I was at Johnson Park.",
     "Yesterday afternoon I was at Hobbs Cafe.", {(Claim.WAS_AT, BAD)}),
    (KLAUS, YESTERDAY, "In the afternoon I went to Hobbs Cafe. It was quiet.",
     "In the evening I was at Oak Hill College Dorm. It was quiet.",
     {(Claim.QUIET, BAD)}),
    (KLAUS, NEWS, "Yes! Maria told me about the party.",
     "Yes! Isabella told me about the party.", {(Claim.TOLD, BAD)}),
    (MARIA, NEWS, "Yes, Isabella is hosting a Valentine's Day party at Hobbs Cafe tonight.",
     "Yes, Isabella hosted a Valentine's Day party at Hobbs Cafe yesterday.",
     {(Claim.TENSE, STALE)}),
    (KLAUS, "What inspires you in life the most right now, and why?",
     "I can't wait for the party!", "I enjoyed the party.", {(Claim.TENSE, STALE)}),
    (KLAUS, FOLLOW, "Maria threw it at Hobbs Cafe on February 14.",
     "Isabella threw it at Hobbs Cafe on February 14.", {(Claim.HOST, BAD)}),
    (MARIA, NEWS, "Yes, Isabella's party was at Johnson Park.",
     "Yes, Isabella's party was at Hobbs Cafe.", {(Claim.PLACE, BAD)}),
    (MARIA, FOLLOW, "Isabella; the party started at 9 pm.",
     "Isabella; the party started at 5 pm.", {(Claim.TIME, BAD)}),
    (MARIA, FOLLOW, "Isabella's party was on February 16.",
     "Isabella's party was on February 14.", {(Claim.DAY, BAD)}),
    (MARIA, NEWS, "There was a party at Hobbs Cafe, but I didn't go.",
     "There was a party at Hobbs Cafe, and I went.", {(Claim.WENT, BAD)}),
    (ISABELLA, NEWS, "I hosted the party at Hobbs Cafe. Maria and Klaus came.",
     "I hosted the party at Hobbs Cafe. Maria came.", {(Claim.WENT, BAD)}),
]  # fmt: skip


def said(who, question, answer):
    asked = Asked.FOLLOW_UP if question == FOLLOW else Asked.BATTERY
    intent = "party" if question in (NEWS, FOLLOW) else ""
    return Said(who, asked, question, answer, NEWS if question == FOLLOW else "", intent)


def faults(sim, rows):
    t, names = truth.truth_of(sim), truth.names_of(sim)
    return [truth.check_answer(row, t, names) for row in rows]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0].split()[0]}: {c[2]}")
def test_a_known_fault_is_found_and_quoted(town, case):
    who, question, wrong, _, expected = case
    checked = faults(town, [said(who, question, wrong)])[0]
    for f in checked.found:
        print(f.kind.value, f.verdict.value, repr(f.quote), f.why)
    flagged = {(f.kind, f.verdict) for f in checked.found if f.verdict is not OK}
    assert flagged == expected
    for f in checked.found:
        assert f.quote and f.quote in wrong  # quoted from the answer itself
        assert (f.verdict is OK) == (not f.why)  # a flagged claim says what the save holds


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0].split()[0]}: {c[3]}")
def test_the_same_answer_told_true_is_backed(town, case):
    who, question, _, right, expected = case
    checked = faults(town, [said(who, question, right)])[0]
    for f in checked.found:
        print(f.kind.value, f.verdict.value, repr(f.quote), f.why)
    assert checked.found, "the true answer makes a claim too"
    assert all(f.verdict is OK for f in checked.found)
    assert {k for k, _ in expected} & {f.kind for f in checked.found}  # the same claim, backed


# answers the scripted brain gave on a real run, true of this save too, that earlier
# readings flagged: 'and going to' is not the future, 'having dinner at' is not where the
# event was, 'there was ... at' is no one's stay, and breakfast is not the event
TRUE_AS_SAID = [
    (MARIA, YESTERDAY, "Yesterday, in the morning I was having breakfast; in the evening I "
     "was cooking dinner and going to Isabella's Valentine's Day party at Hobbs Cafe."),
    (MARIA, YESTERDAY, "In the evening I was going to Isabella's party at Hobbs Cafe and "
     "having dinner at Oak Hill College Dorm."),
    (KLAUS, NEWS, "Yes, there was Isabella's Valentine's Day party at Hobbs Cafe yesterday "
     "from 5 pm to 7 pm, but I didn't go."),
    (MARIA, YESTERDAY, "Yesterday, in the afternoon I was having lunch, preparing the "
     "shelves and going to Isabella's Valentine's Day party at Hobbs Cafe."),
    (MARIA, NEWS, "Later today I'm having breakfast, and I'm glad of it."),
    (KLAUS, NEWS, "I'm planning to finish my paper."),
]  # fmt: skip


def test_there_without_doing_the_events_things_one_did_not_go(town):
    """Declined, then in class in the building the event is in: 'I didn't go' is true, as
    `measures.attendance` counts it; with the event's things done, it is contradicted."""
    no = said(MARIA, NEWS, "There was a party at Hobbs Cafe, but I didn't go.")
    t, names = truth.truth_of(town), truth.names_of(town)
    assert MARIA in t.attended["party"]
    flagged = [f for f in truth.check_answer(no, t, names).found if f.verdict is not OK]
    assert [(f.kind, f.verdict) for f in flagged] == [(Claim.WENT, BAD)], flagged
    assert "doing the event's things" in flagged[0].why
    elsewhere = replace(t, attended={"party": frozenset()})
    assert all(f.verdict is OK for f in truth.check_answer(no, elsewhere, names).found)


@pytest.mark.parametrize("case", TRUE_AS_SAID, ids=lambda c: c[2][:40])
def test_true_answers_as_the_brain_says_them_are_not_flagged(town, case):
    checked = faults(town, [said(*case)])[0]
    for f in checked.found:
        print(f.kind.value, f.verdict.value, repr(f.quote), f.why)
    assert all(f.verdict is OK for f in checked.found)


def test_a_resident_with_nothing_in_the_log_is_not_checked_by_it(town, monkeypatch):
    """A short run where one resident has not yet done anything: no stays, so a claim of
    where she was is left unchecked, and the rest is checked as before."""
    monkeypatch.setattr(town.log, "events", [e for e in town.log.events if e.agent != MARIA])
    t = truth.truth_of(town)
    assert t.stays[MARIA] == () and t.stays[KLAUS]
    checked = faults(town, [said(MARIA, YESTERDAY, "Yesterday afternoon I was at Johnson Park.")])
    assert not [f for f in checked[0].found if f.kind is Claim.WAS_AT]


def test_the_whys_say_what_the_save_holds(town):
    by_fault = {c[2]: c for c in CASES}
    checked = faults(town, [said(*by_fault[w][:2], w) for w in (
        "I live with Klaus.", "In the afternoon I went to Hobbs Cafe. It was quiet.",
        "Yes, Isabella is hosting a Valentine's Day party at Hobbs Cafe tonight.",
        "I hosted the party at Hobbs Cafe. Maria and Klaus came.")])  # fmt: skip
    whys = [f.why for c in checked for f in c.found if f.verdict is not OK]
    assert whys == [
        f"{ISABELLA} lives with no one, not {KLAUS}",
        f"3 residents were at Hobbs Cafe then: {ISABELLA}, {KLAUS}, {MARIA}",
        "it ended February 14 at 7 pm",
        f"{KLAUS} was at Hobbs Cafe for 0 minutes of it",
    ]


def test_an_event_yet_to_come_spoken_of_as_over(town):
    before = replace(truth.truth_of(town), now=at(13, 12))
    row = said(KLAUS, NEWS, "Yes, Isabella hosted a party at Hobbs Cafe yesterday.")
    checked = truth.check_answer(row, before, truth.names_of(town))
    flagged = {(f.kind, f.verdict) for f in checked.found if f.verdict is not OK}
    assert flagged == {(Claim.TENSE, BAD), (Claim.DAY, BAD)}
    ahead = said(KLAUS, NEWS, "Yes, Isabella is hosting a party at Hobbs Cafe tomorrow.")
    checked = truth.check_answer(ahead, replace(before, now=at(13, 12)), truth.names_of(town))
    assert checked.found and all(f.verdict is OK for f in checked.found)


def test_the_rates_count_answers_not_claims(town):
    rows = [said(w, q, a) for w, q, a, _, _ in CASES] + [said(w, q, r) for w, q, _, r, _ in CASES]
    result = truth.summed(faults(town, rows), {})
    stale = sum(Claim.TENSE in {k for k, _ in e} for *_, e in CASES)
    assert result.answers == 2 * len(CASES)
    assert (result.contradicted, result.stale) == (len(CASES) - stale, stale)
    assert result.contradicted_rate == round((len(CASES) - stale) / result.answers, 4)
    assert {c.answer for c in result.cases} == {a for _, _, a, _, _ in CASES}
    doc = result.to_json()
    assert doc["cases"][0]["quote"] and doc["cases"][0]["why"]
    assert doc["claims"]["lives with"]["contradicted"] == 2
    head, *shown = result.lines(shown=1)  # what evaluate prints: the figures, then cases
    assert head.split(":", 1)[1].startswith(f" {len(CASES) - stale} of {2 * len(CASES)} answers")
    assert shown[0].startswith("    contradicted: ") and repr(result.cases[0].quote) in shown[0]
    more = len(CASES) - stale - 1
    assert shown[1] == f"    ... and {more} more contradicted claims in the report"


SAID = {  # resident -> one answer per phrasing of 'three's intent, in order
    KLAUS: ["Isabella is hosting it at Hobbs Cafe.", "Maria is hosting it at Hobbs Cafe.",
            *["I haven't heard of anything like that."] * 4],
    MARIA: ["Isabella's party was at Hobbs Cafe on February 14."] * 6,
}  # fmt: skip


def test_paraphrase_consistency_by_hand(town):
    """Klaus: the host differs between his first two phrasings, and he knows nothing under
    the other four: of 15 pairs only the 6 among those four agree. Maria says the same
    under all six: 15 of 15."""
    intent = town.scenario.intent("party")
    answers = {"party": {q: {n: Answered(said[k], "") for n, said in SAID.items()}
                         for k, q in enumerate(intent.questions)}}  # fmt: skip
    spread = measures.diffusion(town, answers)
    rows = truth.collected(town, [], answers, {})
    agree = truth.consistency(faults(town, rows), spread)["party"]
    assert (agree.pairs, agree.compatible) == (30, 21)
    mine = {(c.first, c.second): c.why for c in agree.cases if c.resident == KLAUS}
    assert len(mine) == 9 and all(c.resident == KLAUS for c in agree.cases)
    first, second = intent.questions[:2]
    assert mine[(first, second)] == f"event host: {ISABELLA} against {MARIA}"


def test_evaluate_reports_the_truth_check(town, monkeypatch):
    """measure() checks the battery, the diffusion conversations and the acquaintance
    answers it collected, and the report and its JSON carry the figures."""
    intent = town.scenario.intent("party")
    talk = {"party": {q: {MARIA: Answered("Isabella is hosting a party tonight.", "Isabella.")}
                      for q in intent.questions}}  # fmt: skip
    battery = [(ISABELLA, LIVE, "I live with Klaus."), (KLAUS, LIVE, "I live with Maria.")]
    know = {(KLAUS, MARIA): "Yes, she lives at Oak Hill College Dorm."}
    monkeypatch.setattr(evaluation, "diffusion_answers", lambda sim: talk)
    monkeypatch.setattr(evaluation, "battery_answers", lambda sim: battery)
    monkeypatch.setattr(evaluation, "start_snapshots", lambda sim: {})
    monkeypatch.setattr(evaluation, "acquaintance_answers", lambda mind, snaps, town: know)
    doc = evaluation.measure(town, ablations=False).to_json()["truth"]
    six = len(intent.questions)
    assert doc["answers"] == 2 + 2 * six + 1
    assert doc["by_asked"] == {"battery": 2, "diffusion": six, "follow-up": six,
                               "acquaintance": 1}  # fmt: skip
    assert (doc["contradicted"], doc["stale"]) == (1, six)
    assert doc["stale_rate"] == round(six / doc["answers"], 4)
    assert doc["paraphrase_consistency"] == 1.0  # the same answer under every phrasing
    assert {c["resident"] for c in doc["cases"]} == {ISABELLA, MARIA}


def test_a_word_of_the_towns_routines_names_an_event_only_in_its_whole_name(town):
    """'Poetry night' is an event; 'writing late into the night', a routine, is not about
    it (the poetry-night town's schedules were flagged as contradicting its hours)."""
    from game.sim import truth_reading as reading

    everyday = reading.everyday_stems([a.persona for a in town.agents.values()])
    everyday |= {reading._stem("night")}
    assert reading.event_terms(["poetry night"], "poetry night", everyday) == frozenset()
    assert reading.event_phrases(["poetry night"], "poetry night", everyday) == ("poetry night",)
    assert reading.event_terms(["book launch"], "book launch", everyday) == {"launch"}
    base = truth.names_of(town)
    names = replace(base, terms={"poetry": frozenset()}, order=("poetry",),
                    phrases={"poetry": ("poetry night",)})  # fmt: skip
    assert "@e0" not in reading.mask("From 10 pm I'm writing late into the night.", names).tpl
    assert "@e0" in reading.mask("Klaus is hosting a poetry night tonight.", names).tpl
