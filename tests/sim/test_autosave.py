"""The incremental autosave: a base, then journal lines of only what changed; loading it
gives what a full save of the same moment gives, and a torn last line loses only itself."""

from __future__ import annotations

import json
import os
from datetime import timedelta

import numpy as np

from game.sim.autosave import AUTOSAVE, JOURNAL, Autosaver, IncrementalWriter, snapshot
from game.sim.factory import build_simulation
from game.sim.listing import list_saves
from game.sim.saves import load_game, read_save, save_game, save_path

VOLATILE = ("saved_at", "arrays")


def _same(a: tuple[dict, dict], b: tuple[dict, dict]) -> None:
    doc_a, arrays_a = a
    doc_b, arrays_b = b
    assert {k: v for k, v in doc_a.items() if k not in VOLATILE} == {
        k: v for k, v in doc_b.items() if k not in VOLATILE
    }
    assert sorted(arrays_a) == sorted(arrays_b)
    for key in arrays_a:
        assert np.array_equal(arrays_a[key], arrays_b[key]), key


def test_an_autosave_journal_loads_as_a_full_save_would(tmp_path):
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=30))
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    sizes = [writer.write(snapshot(sim))]
    for minutes in (40, 30):
        sim.run_until(sim.now + timedelta(minutes=minutes))
        sizes.append(writer.write(snapshot(sim)))
    assert [w.base for w in sizes] == [True, False, False]
    assert len((writer.folder / JOURNAL).read_text().splitlines()) == 2
    if os.name == "posix":  # the memories and chats in it are as private as the save's
        assert (writer.folder / JOURNAL).stat().st_mode & 0o077 == 0
    save_game(sim, "full", tmp_path)
    _same(read_save(AUTOSAVE, tmp_path), read_save("full", tmp_path))
    loaded = load_game(AUTOSAVE, tmp_path)
    assert loaded.now == sim.now
    assert {n: len(a.memory) for n, a in loaded.agents.items()} == {
        n: len(a.memory) for n, a in sim.agents.items()
    }
    loaded.close()
    sim.close()


def test_a_torn_journal_line_is_skipped(tmp_path):
    sim = build_simulation("three", seed=2, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=20))
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    sim.run_until(sim.now + timedelta(minutes=30))
    writer.write(snapshot(sim))
    committed = sim.now
    sim.run_until(sim.now + timedelta(minutes=30))
    writer.write(snapshot(sim))
    journal = writer.folder / JOURNAL
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join(lines[:1]) + b"\n" + lines[1][: len(lines[1]) // 2])
    doc, _ = read_save(AUTOSAVE, tmp_path)
    assert doc["clock"] == committed.isoformat()
    sim.close()


def test_the_autosaver_writes_on_its_thread_and_says_so_briefly(tmp_path):
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=6))
    saver = Autosaver(sim, 60, root=tmp_path)
    assert saver.tick() == [] and not saver.due()
    sim.run_until(sim.now + timedelta(minutes=61))
    assert saver.due()
    saver.tick()  # takes the snapshot and starts the write
    reports = saver.wait()
    assert [r.ok for r in reports] == [True]
    assert reports[0].text.startswith("Autosaved ") and str(tmp_path) not in reports[0].text
    assert (save_path(AUTOSAVE, tmp_path) / "save.json").is_file()
    saver.close()
    sim.close()


def test_the_saves_listing_shows_an_autosave_as_of_its_journal(tmp_path):
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=6))
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    base = sim.now.isoformat()
    sim.run_until(sim.now + timedelta(minutes=30))
    writer.write(snapshot(sim))
    assert [s.game_time for s in list_saves(tmp_path)] == [sim.now.isoformat()]
    line = (writer.folder / JOURNAL).read_text().splitlines()[0]
    (writer.folder / json.loads(line)["rows"]).unlink()  # loading would stop at the base
    assert [s.game_time for s in list_saves(tmp_path)] == [base]
    assert read_save(AUTOSAVE, tmp_path)[0]["clock"] == base
    sim.close()


def test_a_journal_line_keeps_only_what_changed_and_older_whole_lines_still_load(tmp_path):
    """Lines held the whole town's objects and each changed resident's whole state (75 KB
    a line for three residents, the plan nearly all of it): now only the keys that
    changed. A line written before (whole tables and states) still loads."""
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=7))
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    stove = next(a for a in sim.town.states if a.endswith("kitchen:stove"))
    sim.town.states[stove] = "burning"
    sim.run_until(sim.now + timedelta(minutes=20))
    writer.write(snapshot(sim))
    line = json.loads((writer.folder / JOURNAL).read_text())
    assert "objects" not in line and line["objects_delta"]["set"].get(stove) == "burning"
    assert len(line["objects_delta"]["set"]) < len(sim.town.states) // 4
    whole = {name: agent.get_state() for name, agent in sim.agents.items()}
    deltas = {a["name"]: a["state_delta"] for a in line["agents"] if "state_delta" in a}
    assert deltas and all(len(d["set"]) < len(whole[n]) for n, d in deltas.items())
    save_game(sim, "full", tmp_path)
    _same(read_save(AUTOSAVE, tmp_path), read_save("full", tmp_path))
    full = read_save("full", tmp_path)[0]
    line["objects"], line["object_setters"] = full["objects"], full["object_setters"]
    del line["objects_delta"], line["object_setters_delta"]
    by_name = {a["name"]: a for a in full["agents"]}
    for part in line["agents"]:
        part.pop("state_delta", None)
        part["state"] = by_name[part["name"]]["state"]
    (writer.folder / JOURNAL).write_text(json.dumps(line) + "\n")
    _same(read_save(AUTOSAVE, tmp_path), read_save("full", tmp_path))
    sim.close()


def test_a_delta_patches_back_to_the_state_it_was_taken_from():
    import random

    from game.sim.autosave import delta, patched

    rng = random.Random(5)

    def tree(depth: int) -> dict:
        out = {}
        for k in rng.sample("abcdefgh", rng.randint(0, 6)):
            roll = rng.random()
            out[k] = tree(depth - 1) if depth and roll < 0.4 else [rng.randint(0, 3)] * 2
        return out

    for _ in range(300):
        before, now = tree(4), tree(4)
        now.update({k: v for k, v in before.items() if rng.random() < 0.5})
        change = json.loads(json.dumps(delta(now, before)))  # as a line holds it
        assert patched(json.loads(json.dumps(before)), change) == now


def test_a_damaged_rows_file_is_said_when_the_autosave_loads(tmp_path, monkeypatch, capsys):
    """A truncated rows file ended loading there without a word (exit 0): the listing
    showed the last autosave's time, loading gave the base's. Now loading says so, and
    `run --load` prints it; the committed part still loads."""
    from game.cli import main

    sim = build_simulation("three", seed=2, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=20))
    root = tmp_path / "data" / "saves"
    writer = IncrementalWriter(save_path(AUTOSAVE, root))
    writer.write(snapshot(sim))
    base = sim.now
    for _ in range(2):
        sim.run_until(sim.now + timedelta(minutes=30))
        writer.write(snapshot(sim))
    sim.close()
    first = json.loads((writer.folder / JOURNAL).read_text().splitlines()[0])["rows"]
    rows = writer.folder / first
    rows.write_bytes(rows.read_bytes()[:40])
    loaded = load_game(AUTOSAVE, root)
    assert loaded.now == base
    assert "damaged" in loaded.load_note and "2 later autosaves" in loaded.load_note
    loaded.close()
    whole = IncrementalWriter(save_path("whole", root))
    fresh = build_simulation("three", seed=2, workers=2)
    fresh.run_until(fresh.now.replace(hour=6, minute=20))
    whole.write(snapshot(fresh))
    fresh.close()
    assert load_game("whole", root).load_note == ""
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "cfg" / "config.toml"))
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))
    capsys.readouterr()
    assert main(["run", "--load", AUTOSAVE, "--hours", "0.1", "--quiet"]) == 0
    assert "autosave journal is damaged" in capsys.readouterr().err


def test_a_snapshot_holds_the_state_it_was_taken_in_though_the_game_goes_on():
    """The frame thread only copies a resident's state; the writer encodes it later, as
    it was at the snapshot, whatever the game changed meanwhile."""
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=9))
    snap = snapshot(sim)
    then = {n: sim.agents[n].get_state() for n in sorted(sim.agents)}
    sim.run_until(sim.now + timedelta(minutes=45))  # they walk, see, plan and remember
    for agent in sim.agents.values():
        agent.known.add("Nowhere Street")  # and in place, the way the game changes them
        agent.path.append((0, 0))
        agent.seen["a sign"] = ("new", sim.now)
    now = {n: sim.agents[n].get_state() for n in sorted(sim.agents)}
    assert now != then
    assert {a.name: a.state for a in snap.agents} == then
    sim.close()


def _damage(folder, case: str) -> None:
    """One way an autosave folder is really damaged on disk."""
    lines = (folder / JOURNAL).read_text().split("\n")
    rows = [folder / json.loads(x)["rows"] for x in lines if x]
    if case == "truncated rows":
        rows[2].write_bytes(rows[2].read_bytes()[:1000])
    elif case == "scribbled rows":  # the zip's directory still whole, a member's bytes not
        data = bytearray(rows[1].read_bytes())
        data[200:1200] = b"A" * 1000
        rows[1].write_bytes(bytes(data))
    elif case == "garbage line":
        lines[1] = "garbage {{{ not json"
    elif case in ("wrong types", "clock 9999"):
        line = json.loads(lines[2])
        line.update({"agents": 5} if case == "wrong types" else {"clock": "9999-12-31T23:00:00"})
        lines[2] = json.dumps(line)
    elif case == "no base arrays":
        next(folder.glob("memories-*.npz")).unlink()
    (folder / JOURNAL).write_text("\n".join(lines))


def test_the_saves_listing_shows_what_loading_a_damaged_autosave_gives(
    tmp_path, capsys, monkeypatch
):
    """The listing checked only that each journal line's rows file was there: a truncated
    or scribbled rows file, a line of the wrong types or a clock of 9999 was listed at the
    journal's last time, while loading gave an earlier one (or failed whole). Now each
    case lists the time loading gives and why the rest is lost, or why it will not load."""
    import shutil

    from game.cli import main
    from game.sim.saves import SaveError

    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=30))
    pristine = tmp_path / "pristine"
    writer = IncrementalWriter(pristine)
    writer.write(snapshot(sim))
    for _ in range(3):
        sim.run_until(sim.now + timedelta(minutes=30))
        writer.write(snapshot(sim))
    sim.close()
    expected = {"truncated rows": (7, 30), "scribbled rows": (7, 0), "garbage line": (7, 0),
                "wrong types": (7, 30), "clock 9999": (7, 30)}  # fmt: skip
    for case in (*expected, "no base arrays"):
        root = tmp_path / case.replace(" ", "-") / "saves"
        shutil.copytree(pristine, save_path(AUTOSAVE, root))
        _damage(save_path(AUTOSAVE, root), case)
        [info] = list_saves(root)
        if case not in expected:
            assert info.scenario == "(damaged)" and "missing" in info.note
            try:
                load_game(AUTOSAVE, root)
            except SaveError as exc:
                assert "missing" in str(exc)
            else:
                raise AssertionError("a save without its arrays loaded")
            continue
        loaded = load_game(AUTOSAVE, root)
        hour, minute = expected[case]
        assert loaded.now == loaded.now.replace(hour=hour, minute=minute), case
        assert info.game_time == loaded.now.isoformat(), case
        assert "journal is damaged" in info.note and "could not be read" in loaded.load_note
        loaded.close()
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "truncated-rows"))
    assert main(["saves"]) == 0
    out = capsys.readouterr().out
    assert "07:30:00" in out and "08:00" not in out and "rows-" in out and "damaged" in out


def test_a_line_that_fails_midway_loads_the_lines_before_it(tmp_path):
    """A line whose checks pass and whose rows point past the memories (an access time
    of row 99999) stops the reading there, with the lines before it applied: it was a
    'damaged journal' for the whole save."""
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=30))
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    times = []
    for _ in range(2):
        sim.run_until(sim.now + timedelta(minutes=30))
        writer.write(snapshot(sim))
        times.append(sim.now)
    sim.close()
    second = json.loads((writer.folder / JOURNAL).read_text().splitlines()[1])["rows"]
    rows = dict(np.load(writer.folder / second))
    rows["a0_touched"], rows["a0_touched_at"] = np.array([99999]), np.array([1.0])
    np.savez_compressed(writer.folder / second, **rows)
    loaded = load_game(AUTOSAVE, tmp_path)
    assert loaded.now == times[0] and "1 later autosave could not be read" in loaded.load_note
    loaded.close()


def test_a_rows_file_we_may_not_read_is_said_as_such(tmp_path):
    """An unreadable rows file ends the reading as a damaged one does, and the listing
    and loading say it cannot be read (Permission denied), not that it is damaged."""
    import stat

    import pytest

    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=30))
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    base = sim.now
    sim.run_until(sim.now + timedelta(minutes=30))
    writer.write(snapshot(sim))
    sim.close()
    rows = writer.folder / json.loads((writer.folder / JOURNAL).read_text())["rows"]
    rows.chmod(0)
    try:
        if os.access(rows, os.R_OK):
            pytest.skip("this user reads any file (root with its capabilities)")
        [info] = list_saves(tmp_path)
        loaded = load_game(AUTOSAVE, tmp_path)
        assert loaded.now == base and info.game_time == base.isoformat()
        for note in (info.note, loaded.load_note):
            assert "cannot be read (Permission denied)" in note
        loaded.close()
    finally:
        rows.chmod(stat.S_IRUSR | stat.S_IWUSR)
