"""Saves round-trip exactly, survive being killed mid-write, and refuse damage clearly."""

import hashlib
import json
import random
import shutil
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from game.core.records import FactKind
from game.sim.factory import build_simulation
from game.sim.listing import list_saves
from game.sim.report import build_report, without_timing
from game.sim.saves import (
    VERSION,
    SaveError,
    load_game,
    read_save,
    save_game,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "fixtures" / "save-v1"


def report(sim, start) -> dict:
    out = without_timing(build_report(sim, start, 0.0, "scripted"))
    out["memories"] = {
        n: [a.memory.text(i) for i in range(len(a.memory))] for n, a in sim.agents.items()
    }
    return out


def test_two_hours_saved_loaded_and_two_more_equal_four_straight(tmp_path):
    straight = build_simulation("three", seed=5)
    start = straight.now
    straight.run_until(start + timedelta(hours=4))
    straight.close()
    first = build_simulation("three", seed=5)
    first.run_until(start + timedelta(hours=2))
    save_game(first, "half", tmp_path)
    first.close()
    second = load_game("half", tmp_path)
    second.run_until(start + timedelta(hours=4))
    second.close()
    assert report(second, start) == report(straight, start)


def snapshot_files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


@pytest.fixture
def saved(tmp_path):
    sim = build_simulation("three", seed=2)
    sim.run_until(sim.now + timedelta(hours=1))
    folder = save_game(sim, "good", tmp_path)
    sim.close()
    return folder


def damage_json(folder: Path, how: str) -> None:
    path = folder / "save.json"
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flipped":
        rng = random.Random(4)
        raw = bytearray(data)
        for _ in range(20):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        path.write_bytes(bytes(raw))
    elif how in ("foreign", "newer", "wrong_types", "missing_field"):
        doc = json.loads(data)
        if how == "foreign":
            doc = {"hello": "world"}
        elif how == "newer":
            doc["version"] = 99
        elif how == "wrong_types":
            doc["agents"][0]["state"]["pos"] = "here"
        else:
            del doc["clock"]
        path.write_text(json.dumps(doc))
    elif how == "no_arrays":
        for npz in folder.glob("*.npz"):
            npz.unlink()
    elif how == "bad_arrays":
        for npz in folder.glob("*.npz"):
            npz.write_bytes(npz.read_bytes()[:100])


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("truncated", "damaged"),
        ("flipped", ""),
        ("foreign", "not a Smallville save"),
        ("newer", "newer than this game"),
        ("wrong_types", "damaged"),
        ("missing_field", "damaged"),
        ("no_arrays", "missing"),
        ("bad_arrays", "damaged memory arrays"),
    ],
)
def test_damaged_saves_give_one_clear_line_and_overwrite_nothing(saved, how, message):
    damage_json(saved, how)
    before = snapshot_files(saved)
    with pytest.raises(SaveError) as info:
        load_game("good", saved.parent)
    line = str(info.value)
    assert message in line and "\n" not in line and str(saved) in line
    assert snapshot_files(saved) == before


WRITER = """
import sys
sys.path.insert(0, {root!r})
from datetime import timedelta
from game.sim.factory import build_simulation
from game.sim.saves import save_game
sim = build_simulation("smallville", seed=1)
sim.run_until(sim.now + timedelta(minutes=30))
print("ready", flush=True)
while True:
    save_game(sim, "victim", {root_saves!r})
"""


def test_a_save_killed_mid_write_leaves_the_previous_save_loadable(tmp_path):
    sim = build_simulation("three", seed=1)
    save_game(sim, "victim", tmp_path)
    sim.close()
    code = WRITER.format(root=str(ROOT), root_saves=str(tmp_path))
    rng = random.Random(8)
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 0.6))
        proc.kill()
        proc.wait()
        loaded = load_game("victim", tmp_path)  # whole: the old one or a new one
        assert loaded.agents
        loaded.close()


def test_version_one_save_is_upgraded_on_load(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "old")
    doc, _ = read_save("old", tmp_path)
    assert doc["version"] == VERSION and doc["log"] == []
    sim = load_game("old", tmp_path)
    assert str(sim.now) == "2023-02-13 07:00:00"
    assert all(isinstance(a.pos, tuple) for a in sim.agents.values())
    assert sum(len(a.memory) for a in sim.agents.values()) == 37
    sim.run_until(sim.now + timedelta(minutes=30))
    sim.close()


def test_the_listing_names_each_save_at_its_time(tmp_path):
    sim = build_simulation("three", seed=1)
    for name in ("b", "a", "c"):
        sim.run_until(sim.now + timedelta(minutes=10))
        save_game(sim, name, tmp_path)
    sim.close()
    saves = list_saves(tmp_path)
    assert [s.name for s in saves] == ["a", "b", "c"]
    assert saves[0].game_time > saves[1].game_time  # a was saved after b


def test_fork_a_loaded_game_under_a_new_name(saved):
    sim = load_game("good", saved.parent)
    save_game(sim, "fork", saved.parent)
    sim.close()
    assert {s.name for s in list_saves(saved.parent)} == {"good", "fork"}


def test_bad_save_names_are_refused(tmp_path):
    with pytest.raises(SaveError, match="save name"):
        save_game(None, "bad*name?", tmp_path)


def test_version_two_memories_gain_their_fields_on_load(tmp_path):
    """A save from before memories kept fields: texts stay, and the fields the old text
    and its speaker can tell are filled (who said it, a conversation's partner, one's own
    doings); then the run goes on."""
    shutil.copytree(FIXTURE.parent / "save-v2", tmp_path / "old")
    before = json.loads((tmp_path / "old" / "save.json").read_text(encoding="utf-8"))
    assert before["version"] == 2
    sim = load_game("old", tmp_path)
    for saved in before["agents"]:
        memory = sim.agents[saved["name"]].memory
        records = memory.records(range(len(memory)))
        assert [r.text for r in records] == saved["memory"]["texts"]
        for record, source in zip(records, saved["memory"]["sources"], strict=True):
            assert record.heard_from == ("" if source == "inner voice" else source)
        kinds = {r.fact.kind for r in records}
        assert {FactKind.CONVERSATION, FactKind.DOING, FactKind.PLAN} <= kinds
        talks = [r.fact for r in records if r.fact.kind is FactKind.CONVERSATION]
        assert all(saved["name"] in t.participants and t.heard_from for t in talks)
    sim.run_until(sim.now + timedelta(hours=1))
    sim.close()


@pytest.mark.parametrize(
    "name", ["../../escape", "a/b", "..", "x" * 65, "", "   ", "dot.name", "nul\x00", "tab\tname"]
)
def test_a_save_name_is_a_name_never_a_path(tmp_path, name):
    root = tmp_path / "data" / "saves"
    with pytest.raises(SaveError, match="save name") as info:
        save_game(None, name, root)
    assert "\n" not in str(info.value)
    assert not any(tmp_path.rglob("*.json")) and not (tmp_path / "escape").exists()


@pytest.mark.parametrize(
    ("name", "said"),
    [("caf\u00e9", "'\u00e9' (U+00E9)"), ("zero\u200bwidth", "U+200B"), ("rtl\u202eevil", "U+202E"),
     ("x" * 70, "70 characters long")],
)  # fmt: skip
def test_a_refused_save_name_says_what_in_it_is_refused(tmp_path, name, said):
    """'café' and a name with a zero-width space in it look fine on screen: the message
    names the character (never printing a mark raw) and says names are ASCII."""
    with pytest.raises(SaveError, match="ASCII") as info:
        save_game(None, name, tmp_path)
    assert said in str(info.value), str(info.value)
    assert "\u200b" not in str(info.value) and "\u202e" not in str(info.value)


@pytest.mark.parametrize(
    ("name", "why"),
    [("CON", "device"), ("nul", "device"), ("Com1", "device"), ("LPT9", "device"),
     ("aux", "device"), ("name ", "space"), (" name", "space")],
)  # fmt: skip
def test_a_name_no_folder_on_windows_can_have_is_refused(tmp_path, name, why):
    with pytest.raises(SaveError, match=why):
        save_game(None, name, tmp_path)
    assert not any(tmp_path.iterdir())


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    """A save of the three-resident town as it starts (one for the module)."""
    sim = build_simulation("three", seed=2)
    folder = save_game(sim, "fresh", tmp_path_factory.mktemp("saves"))
    sim.close()
    return folder


@pytest.mark.parametrize(
    ("clock", "why"),
    [("9999-12-31T23:59:00", "year 9999 is outside"), ("0001-01-01T00:00:00", "year 1 is"),
     (5, "not a date"), ("tomorrow", "not a date"), ("2023-02-13T07:00:00+05:00", "time zone")],
)  # fmt: skip
def test_a_save_whose_clock_the_game_cannot_run_from_is_one_line(fresh, tmp_path, clock, why):
    """An edited clock of 9999-12-31 loaded, then `run --load` died with an OverflowError."""
    shutil.copytree(fresh, tmp_path / "edited")
    path = tmp_path / "edited" / "save.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**doc, "clock": clock}), encoding="utf-8")
    with pytest.raises(SaveError, match=why) as info:
        load_game("edited", tmp_path)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("seed", ["1e999", "-1e999", "NaN", "1e400"])
def test_a_save_whose_seed_is_no_integer_is_damaged_not_a_traceback(fresh, tmp_path, seed):
    """A seed edited to 1e999 (JSON that Python reads as Infinity) gave `run --load` an
    OverflowError traceback at int(); NaN a ValueError. Each is one SaveError line."""
    shutil.copytree(fresh, tmp_path / "edited")
    path = tmp_path / "edited" / "save.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**doc, "seed": "SEED"}).replace('"SEED"', seed), encoding="utf-8")
    with pytest.raises(SaveError, match="damaged") as info:
        load_game("edited", tmp_path)
    assert "\n" not in str(info.value)


def test_a_folder_that_holds_no_save_of_ours_is_refused_and_untouched(tmp_path):
    folder = tmp_path / "theirs"
    folder.mkdir()
    (folder / "save.json").write_text('{"mine": true}')
    (folder / "notes.txt").write_text("keep me")
    before = snapshot_files(folder)
    sim = build_simulation("three", seed=1)
    with pytest.raises(SaveError, match="not a Smallville save"):
        save_game(sim, "theirs", tmp_path)
    sim.close()
    assert snapshot_files(folder) == before


def test_a_save_removes_only_the_files_it_wrote(tmp_path):
    sim = build_simulation("three", seed=1)
    folder = save_game(sim, "mine", tmp_path)
    (folder / "memories-someone-elses.npz").write_bytes(b"not ours to delete")
    (folder / ".tmp-other").write_bytes(b"nor this")
    first = json.loads((folder / "save.json").read_text())["arrays"]
    sim.run_until(sim.now + timedelta(minutes=10))
    save_game(sim, "mine", tmp_path)
    sim.close()
    names = {p.name for p in folder.iterdir()}
    assert first not in names  # the previous save's arrays, replaced
    assert {"memories-someone-elses.npz", ".tmp-other"} <= names


def test_two_writers_under_one_name_never_break_the_save(tmp_path):
    """Threads of one process take the same file lock two processes would."""
    sims = [build_simulation("three", seed=s) for s in (1, 2)]
    errors: list[Exception] = []

    def write(sim) -> None:
        for _ in range(5):
            try:
                save_game(sim, "shared", tmp_path)
            except SaveError as exc:  # refused after waiting: allowed, never broken
                errors.append(exc)

    import threading

    threads = [threading.Thread(target=write, args=(s,)) for s in sims]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    doc, arrays = read_save("shared", tmp_path)
    assert arrays and doc["seed"] in (1, 2)
    assert len(list((tmp_path / "shared").glob("memories-*.npz"))) == 1
    for sim in sims:
        sim.close()


def test_a_failed_write_is_one_line_and_the_previous_save_stays_whole(tmp_path, monkeypatch):
    import errno

    import numpy as np

    sim = build_simulation("three", seed=1)
    folder = save_game(sim, "full", tmp_path)
    before = snapshot_files(folder)

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(np, "savez", no_space)
    with pytest.raises(SaveError, match="the disk is full") as info:
        save_game(sim, "full", tmp_path)
    sim.close()
    assert "\n" not in str(info.value)
    assert {k: v for k, v in snapshot_files(folder).items() if k != ".lock"} == {
        k: v for k, v in before.items() if k != ".lock"
    }
    load_game("full", tmp_path).close()


@pytest.mark.parametrize(
    "content", ["[" * 100_000 + "]" * 100_000, '{"a":' * 5000 + "1" + "}" * 5000]
)
def test_a_deeply_nested_save_is_damaged_everywhere_it_is_read(tmp_path, content, capsys):
    folder = tmp_path / "deep"
    folder.mkdir()
    (folder / "save.json").write_text(content)
    with pytest.raises(SaveError, match="damaged"):
        read_save("deep", tmp_path)
    with pytest.raises(SaveError, match="damaged"):
        load_game(str(folder))
    assert [s.scenario for s in list_saves(tmp_path)] == ["(damaged)"]


def test_a_file_where_the_saves_folder_should_be_is_said_not_listed_as_empty(tmp_path):
    """`saves` with the data folder (or its saves folder) a file said "no saves yet"."""
    assert list_saves(tmp_path / "missing") == []  # no folder yet: no saves, rightly
    (tmp_path / "file").write_text("not a folder")
    for root in (tmp_path / "file", tmp_path / "file" / "below"):
        with pytest.raises(SaveError, match="cannot read the saves folder: Not a directory"):
            list_saves(root)


def test_a_bundled_scenario_is_saved_by_name_and_an_old_save_from_another_folder_loads(
    saved, tmp_path
):
    """A save named its bundled scenario by the path of the checkout it was made in, so it
    no longer loaded once the game was installed or cloned elsewhere."""
    path = saved / "save.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["scenario"] == "three"
    moved = tmp_path / "gone" / "saves" / "scenarios" / "three.json"
    path.write_text(json.dumps({**doc, "scenario": str(moved)}), encoding="utf-8")
    sim = load_game("good", saved.parent)
    assert sim.scenario.name == doc["scenario_name"]
    sim.close()
    elsewhere = tmp_path / "mine" / "three.json"  # one's own scenario, gone: said, not guessed
    path.write_text(json.dumps({**doc, "scenario": str(elsewhere)}), encoding="utf-8")
    with pytest.raises(SaveError, match="no such scenario file"):
        load_game("good", saved.parent)
