"""Saves across real processes (issue 24): a game holds its autosave folder for the whole
game, so a second game autosaves under a name of its own and says so; a reader in another
process never fails while a writer replaces the save; journal lines of another base are
never applied; a crashed writer's orphans go at the next save; the journal is appended to,
never rewritten, and compacted into a new base before it outgrows one.

The other processes are `python -c` programs that import only the save code (no town is
built in them), so each test takes a second or two."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from game.sim import autosave as autosave_module
from game.sim import saves as saves_module
from game.sim.autosave import (
    AUTOSAVE,
    JOURNAL,
    Autosaver,
    IncrementalWriter,
    another_game,
    claim_autosave,
    snapshot,
)
from game.sim.factory import build_simulation
from game.sim.saves import DOCUMENT, SaveError, read_save, save_game, save_path

ROOT = Path(__file__).resolve().parents[2]

HOLDER = """
import sys
from game.sim.autosave import claim_autosave
held = claim_autosave(sys.argv[1])
print(held.folder.name, flush=True)
sys.stdin.read()  # a game running: the folder stays held until our stdin closes
"""

READER = """
import json, sys, time
from game.sim.saves import SaveError, read_save
root, names, seconds = sys.argv[1], sys.argv[2].split(","), float(sys.argv[3])
reads, failures = 0, []
print("reading", flush=True)
end = time.monotonic() + seconds
while time.monotonic() < end:
    for name in names:
        try:
            doc, arrays = read_save(name, root)
            assert arrays and doc["agents"], name
            reads += 1
        except SaveError as exc:
            failures.append(str(exc))
print(json.dumps({"reads": reads, "failures": failures}))
"""

APPENDER = """
import sys
with open(sys.argv[1], "ab") as journal:  # another game's lines, added at the end
    journal.write(sys.stdin.buffer.read())
"""

CRASHER = """
import os, sys
from pathlib import Path
from game.sim import saves
folder = Path(sys.argv[1])
doc, arrays = saves.read_save(str(folder))
real = os.replace
def killed(src, dst):
    if Path(dst).name == "save.json":
        os._exit(9)  # the power goes: the new arrays are on disk, the document is not
    real(src, dst)
os.replace = killed
with saves.writing(folder):
    saves.write_document(folder, doc, arrays)
"""

WATCHER = """
import json, os, sys
path = sys.argv[1]
fd = os.open(path, os.O_RDONLY)  # a reader that opened the journal before the appends
print("open", flush=True)
sys.stdin.readline()
data = b""
while chunk := os.read(fd, 1 << 20):
    data += chunk
print(json.dumps({"bytes": len(data), "same_file": os.fstat(fd).st_ino == os.stat(path).st_ino}))
"""


def _start(program: str, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", program, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )


def _run(program: str, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", program, *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


@pytest.fixture(scope="module")
def sim():
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=20))
    yield sim
    sim.close()


def _later(sim, minutes: int = 10):
    sim.run_until(sim.now + timedelta(minutes=minutes))
    return snapshot(sim)


def test_a_second_game_autosaves_under_its_own_name_and_says_so(tmp_path, sim, monkeypatch):
    first = _start(HOLDER, str(tmp_path))  # a game window autosaving into `autosave`
    try:
        assert first.stdout.readline().strip() == AUTOSAVE, first.stderr.read()
        second = Autosaver(sim, 60, root=tmp_path)
        sim.run_until(sim.now + timedelta(minutes=61))
        second.tick()
        reports = second.wait()
        assert [r.text for r in reports][0] == another_game("autosave-2")
        assert not reports[0].brief and reports[1].brief  # the name stays up; the time not
        assert reports[1].text.endswith(" as autosave-2") and all(r.ok for r in reports)
        assert not (save_path(AUTOSAVE, tmp_path) / DOCUMENT).exists()  # theirs, untouched
        assert read_save("autosave-2", tmp_path)[0]["clock"] == sim.now.isoformat()
        monkeypatch.setattr(saves_module, "LOCK_WAIT", 0.2)
        with pytest.raises(SaveError, match="another game is saving or autosaving"):
            save_game(sim, AUTOSAVE, tmp_path)  # nobody else writes where a game autosaves
        second.close()
    finally:
        first.kill()
        first.wait(10)
    held = claim_autosave(tmp_path)  # the first game is gone, and its lock with it
    assert held.folder.name == AUTOSAVE
    held.release()


def test_a_reader_in_another_process_never_fails_while_a_writer_saves(tmp_path, sim):
    save_game(sim, "full", tmp_path)
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    snap = _later(sim)
    reader = _start(READER, str(tmp_path), f"full,{AUTOSAVE}", "2.5")
    assert reader.stdout.readline().strip() == "reading", reader.stderr.read()
    writes = 0
    while reader.poll() is None:
        save_game(sim, "full", tmp_path)  # a new arrays file each time, the old one deleted
        if writes % 3 == 0:
            writer.mark = None  # a new base: the old base's arrays and rows go
        writer.write(snap)
        writes += 1
    out, err = reader.communicate(timeout=30)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["failures"] == [] and result["reads"] >= 10, err
    assert writes >= 10


def test_journal_lines_of_another_base_are_never_applied(tmp_path, sim):
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    for _ in range(2):
        writer.write(_later(sim))
    old_lines = (writer.folder / JOURNAL).read_bytes()
    writer.mark = None
    writer.write(_later(sim))  # a new base, then one line of it
    writer.write(_later(sim))
    ours = read_save(AUTOSAVE, tmp_path)[0]
    assert ours["clock"] == sim.now.isoformat()
    foreign = json.loads(old_lines.splitlines()[0])
    foreign.update(base="memories-20230213T000000000000.npz", increment=2)
    extra = old_lines + json.dumps(foreign).encode() + b"\n"
    done = _run(APPENDER, str(writer.folder / JOURNAL), stdin=extra)
    assert done.returncode == 0, done.stderr
    assert read_save(AUTOSAVE, tmp_path)[0] == ours
    assert writer.write(_later(sim)).base  # not the journal it wrote: a new base, not a line
    assert read_save(AUTOSAVE, tmp_path)[0]["clock"] == sim.now.isoformat()


def test_a_crashed_writers_orphans_go_at_the_next_save(tmp_path, sim):
    full = save_game(sim, "full", tmp_path)
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    strays = {"memories-someone-elses.npz": b"x", ".tmp-other": b"y"}  # named like ours
    for folder in (full, writer.folder):
        for name, data in strays.items():
            (folder / name).write_bytes(data)
        before = read_save(str(folder))[0]
        crashed = _run(CRASHER, str(folder))
        assert crashed.returncode == 9, crashed.stderr
        orphans = {p.name for p in folder.iterdir()} - {p for p in strays}
        assert any(n.startswith(".tmp-smallville-") for n in orphans)
        assert len([n for n in orphans if n.startswith("memories-")]) == 2  # old and orphan
        assert read_save(str(folder))[0] == before  # the crash lost only itself
    save_game(sim, "full", tmp_path)
    writer.write(_later(sim))  # a journal line: the sweep comes with it too
    for folder in (full, writer.folder):
        names = {p.name for p in folder.iterdir()}
        assert not any(n.startswith(".tmp-smallville-") for n in names), names
        assert len([n for n in names if n.startswith("memories-2")]) == 1, names
        assert set(strays) <= names


def test_the_journal_grows_by_appends_and_is_compacted_into_a_new_base(tmp_path, sim, monkeypatch):
    monkeypatch.setattr(autosave_module, "MAX_INCREMENTS", 4)
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    journal = writer.folder / JOURNAL
    written = [writer.write(snapshot(sim)), writer.write(_later(sim))]
    watcher = _start(WATCHER, str(journal))  # holds the journal open from another process
    assert watcher.stdout.readline().strip() == "open", watcher.stderr.read()
    sizes = [journal.stat().st_size]
    for _ in range(3):
        before = journal.read_bytes()
        written.append(writer.write(_later(sim)))
        assert journal.read_bytes().startswith(before)  # appended to, never rewritten
        sizes.append(journal.stat().st_size)
    out, err = watcher.communicate("go\n", timeout=30)
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen == {"bytes": sizes[-1], "same_file": True}, err  # its open file saw it all
    written.append(writer.write(_later(sim)))
    assert [w.base for w in written] == [True, False, False, False, False, True]
    assert not journal.exists()  # a new base: the journal starts again
    assert not writer.write(_later(sim)).base
    assert journal.read_bytes().count(b"\n") == 1  # one line of the new base
    assert writer.mark is not None
    writer.mark.base_bytes = 1  # the journal now outweighs its base
    assert writer.write(_later(sim)).base
    assert read_save(AUTOSAVE, tmp_path)[0]["clock"] == sim.now.isoformat()


def test_a_claim_is_one_per_folder_within_a_process_too(tmp_path):
    first = claim_autosave(tmp_path)
    second = claim_autosave(tmp_path)
    try:
        assert (first.folder.name, second.folder.name) == (AUTOSAVE, "autosave-2")
    finally:
        second.release()
        first.release()
    started = time.monotonic()
    again = claim_autosave(tmp_path)
    assert again.folder.name == AUTOSAVE and time.monotonic() - started < 1
    again.release()


LISTER = """
import json, sys, time
from game.sim.listing import list_saves
from game.sim.saves import DROPPED, read_save
root, seconds = sys.argv[1], float(sys.argv[2])
looks, damaged = 0, []
print("listing", flush=True)
end = time.monotonic() + seconds
while time.monotonic() < end:
    for info in list_saves(root):
        looks += 1
        if info.note or info.scenario == "(damaged)":
            damaged.append(info.note)
    doc, _ = read_save("autosave", root)
    looks += 1
    if DROPPED in doc:
        damaged.append(str(doc[DROPPED]))
print(json.dumps({"looks": looks, "damaged": damaged}))
"""


def test_the_listing_and_a_load_beside_a_game_autosaving_never_call_it_damaged(tmp_path, sim):
    """The listing and loading each read the journal twice (the lines to apply, then
    the lines written): a line a game appended in between counted as written and not
    applied, so 6 of 764 listings beside a game autosaving said 'its autosave journal
    is damaged ... 1 later autosave could not be read'."""
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    snap = _later(sim)
    lister = _start(LISTER, str(tmp_path), "2.5")
    assert lister.stdout.readline().strip() == "listing", lister.stderr.read()
    writes = 0
    while lister.poll() is None:
        if writes % 8 == 7:
            writer.mark = None  # now and then a new base: the old journal and rows go
        writer.write(snap)
        writes += 1
    out, err = lister.communicate(timeout=30)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["damaged"] == [] and result["looks"] >= 10, err
    assert writes >= 10
