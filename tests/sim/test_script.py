"""Scripts of interventions: every bad line is one error naming its file and line, checked
before anything happens; good lines land at their game minute through the player's own
commands."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from game.core.records import FactKind, MemoryKind, Source
from game.sim.factory import build_simulation
from game.sim.script import Do, Script, ScriptError, Stage, parse_script

STOVE = "Isabella Rodriguez's apartment:kitchen:stove"
GOOD = {"at": "2023-02-13 09:00", "do": "announce", "text": "Bake sale at Hobbs Cafe"}


@pytest.fixture(scope="module")
def stage():
    sim = build_simulation("three", seed=0)
    yield Stage(sim.town, frozenset(sim.agents), sim.now)
    sim.close()


def lines(*docs) -> str:
    return "\n".join(d if isinstance(d, str) else json.dumps(d) for d in docs)


BAD_THIRD_LINES = [
    ('{"at": "2023-02-13 09:00", "do": "say"', "not a JSON object"),
    ('["say"]', "not a JSON object"),
    ({"at": "2023-02-13 09:00", "do": "dance", "text": "x"}, 'unknown "do"'),
    ({"at": "2023-02-13 09:00", "text": "x"}, 'missing "do"'),
    ({"at": "2023-02-13 09:00", "do": "say", "to": "Klaus Mueller"}, 'missing "text"'),
    ({"do": "announce", "text": "x"}, 'missing "at"'),
    ({"at": "2023-02-13 09:00", "do": "say", "to": "Klaus", "text": "hi"}, "no resident"),
    ({"at": "2023-02-13 09:00", "do": "inner_voice", "agent": "Sam Moore", "text": "x"}, "Sam"),
    ({"at": "2023-02-13 09:00", "do": "set_state", "object": "moon", "state": "lit"}, "no object"),
    ({"at": "9:30 tomorrow", "do": "announce", "text": "x"}, "is not a time"),
    ({"at": "2023-02-12 09:00", "do": "announce", "text": "x"}, "before the run starts"),
    ({"at": "2023-02-13 09:00", "do": "announce", "text": "   "}, "is empty"),
    ({"at": "2023-02-13 09:00", "do": "announce", "text": 7}, "must be a string"),
    ({"at": "2023-02-13 09:00", "do": "announce", "text": "x", "to": "y"}, '"to"'),
    ({"at": "2023-02-13 09:00", "do": "announce", "text": "x" * 501}, "at most 500"),
]


@pytest.mark.parametrize(("third", "problem"), BAD_THIRD_LINES)
def test_a_bad_third_line_names_the_file_and_line_3(stage, third, problem):
    text = lines(GOOD, "", third, GOOD)
    with pytest.raises(ScriptError) as caught:
        parse_script(text, "plan.jsonl", stage)
    message = str(caught.value)
    assert message.startswith("plan.jsonl, line 3: ") and problem in message
    assert caught.value.line == 3


def test_a_misspelt_name_gets_a_suggestion(stage):
    bad = {"at": "2023-02-13 09:00", "do": "say", "to": "Klaus Muller", "text": "hi"}
    with pytest.raises(ScriptError, match="did you mean 'Klaus Mueller'"):
        parse_script(lines(bad), "s", stage)


def test_interventions_come_in_time_order_and_objects_resolve(stage):
    late = {"at": "2023-02-13T10:00", "do": "set_state", "object": STOVE.upper(), "state": "on"}
    early = {"at": "2023-02-13 08:00", "do": "inner_voice", "agent": "Maria Lopez", "text": "t"}
    steps = parse_script(lines("# comments and blank lines are skipped", late, early), "s", stage)
    assert [s.do for s in steps] == [Do.INNER_VOICE, Do.SET_STATE]
    assert [s.line for s in steps] == [3, 2]
    assert steps[1].address == STOVE  # as the town spells it


def test_a_bad_file_changes_nothing(tmp_path):
    sim = build_simulation("three", seed=0)
    path = tmp_path / "bad.jsonl"
    set_stove = {"at": "2023-02-13 04:00", "do": "set_state", "object": STOVE, "state": "burning"}
    path.write_text(lines(set_stove, "{oops}") + "\n")
    with pytest.raises(ScriptError, match=r"bad.jsonl, line 2"):
        Script.load(path, sim)
    assert sim.on_tick == [] and sim.town.state(STOVE) == "idle"
    sim.close()


def run_with(tmp_path, *docs, hours: float = 0.5, seed: int = 0, until=None):
    sim = build_simulation("three", seed=seed)
    path = tmp_path / "script.jsonl"
    path.write_text(lines(*docs) + "\n")
    script = Script.load(path, sim)
    script.attach(sim)
    sim.run_until(until or sim.now + timedelta(hours=hours))
    return sim, script


def test_set_state_changes_the_state_at_that_minute(tmp_path):
    at = datetime(2023, 2, 13, 4, 30)
    doc = {"at": "2023-02-13 04:30", "do": "set_state", "object": STOVE, "state": "burning"}
    sim, script = run_with(tmp_path, doc, until=at - timedelta(seconds=10))
    assert sim.town.state(STOVE) == "idle" and script.applied == []
    sim.step()
    assert sim.now == at and sim.town.state(STOVE) == "burning"
    assert sim.object_state(STOVE).by_player
    assert [a.done_at for a in script.applied] == [at]
    sim.close()


def test_a_scripted_say_reaches_the_resident_as_a_claim_from_the_visitor(tmp_path):
    said = "The library is giving away old books at Oak Hill College tomorrow at 10 am."
    doc = {"at": "2023-02-13 09:00", "do": "say", "to": "Klaus Mueller", "text": said}
    sim, script = run_with(tmp_path, doc, until=datetime(2023, 2, 13, 9, 10), seed=3)
    klaus = sim.agents["Klaus Mueller"]
    records = [klaus.memory.record(i) for i in range(len(klaus.memory))]
    claims = [r for r in records if r.fact.source is Source.VISITOR and r.fact.object == said]
    assert len(claims) == 1
    claim = claims[0]
    assert claim.kind is MemoryKind.CHAT and claim.fact.kind is FactKind.CLAIM
    assert claim.fact.heard_from == sim.visitor.name
    assert claim.fact.event is not None and claim.fact.event.place == "Oak Hill College"
    chat = sim.chats["Klaus Mueller"]
    assert chat[0].text == said and chat[1].speaker == "Klaus Mueller"  # he answered
    beside = max(abs(a - b) for a, b in zip(sim.visitor.pos, klaus.pos, strict=True))
    assert beside <= 4
    assert script.report()["applied"][0]["do"] == "say"
    sim.close()


def test_a_scripted_inner_voice_becomes_the_residents_thought(tmp_path):
    thought = "I want to spend the afternoon at Johnson Park."
    doc = {"at": "2023-02-13 08:00", "do": "inner_voice", "agent": "Maria Lopez", "text": thought}
    sim, _ = run_with(tmp_path, doc, until=datetime(2023, 2, 13, 8, 5), seed=1)
    maria = sim.agents["Maria Lopez"]
    records = [maria.memory.record(i) for i in range(len(maria.memory))]
    assert any(r.fact.source is Source.INNER_VOICE and r.text == thought for r in records)
    sim.close()


def test_what_the_run_ends_before_is_reported_not_done(tmp_path):
    doc = {"at": "2023-02-14 09:00", "do": "announce", "text": "Tomorrow"}
    sim, script = run_with(tmp_path, doc, hours=0.2)
    assert script.report()["not_reached"] == [
        {"line": 1, "do": "announce", "at": "2023-02-14 09:00:00"}
    ]
    assert sim.player.notices == []
    sim.close()


def test_a_script_with_no_end_is_refused_after_its_bound_not_read_whole(stage, tmp_path):
    """`--script /dev/zero` read until memory ran out (MemoryError traceback): a device
    is refused unread, and a file larger than a script is refused at its bound."""
    import os

    from game.core.errors import FileProblem
    from game.sim.script import MAX_BYTES, read_script

    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as f:
        f.truncate(MAX_BYTES + 10)  # sparse: no disk spent
    with pytest.raises(ScriptError, match=f"larger than a script may be \\({MAX_BYTES}"):
        read_script(huge, stage)
    if os.path.exists("/dev/zero"):
        with pytest.raises(FileProblem, match="/dev/zero: it is not a regular file"):
            read_script("/dev/zero", stage)
