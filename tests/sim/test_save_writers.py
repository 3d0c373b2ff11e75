"""Every writer into a save folder keeps the rules of `save_game`: the incremental
autosave writes only into folders of ours, under the save's lock, deletes only files a
save wrote, and leaves the journal its committed lines. (The old autosave ring, which
renamed autosave to autosave-1 and autosave-2, the names of other game windows'
autosaves, is gone: the window's autosave is game/sim/autosave.py's alone.)"""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
from datetime import timedelta

import pytest

from game.sim import autosave as autosave_module
from game.sim.autosave import AUTOSAVE, JOURNAL, IncrementalWriter, snapshot
from game.sim.factory import build_simulation
from game.sim.saves import LOCK, SaveError, read_save, save_game, save_path

THEIRS = {"notes.txt": b"keep me", "memories-someone-elses.npz": b"x", ".tmp-other": b"y"}


@pytest.fixture
def sim():
    sim = build_simulation("three", seed=1, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=20))
    yield sim
    sim.close()


def _files(folder) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def test_the_incremental_writer_refuses_a_folder_that_is_not_a_save(tmp_path, sim):
    folder = save_path(AUTOSAVE, tmp_path)
    folder.mkdir(parents=True)
    (folder / "save.json").write_text('{"mine": true}')
    (folder / "notes.txt").write_text("keep me")
    before = _files(folder)
    with pytest.raises(SaveError, match="not a Smallville save"):
        IncrementalWriter(folder).write(snapshot(sim))
    assert _files(folder) == before


def test_the_incremental_writer_removes_only_files_it_wrote(tmp_path, sim):
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    for name, data in THEIRS.items():
        if name != "notes.txt":  # a folder of ours may hold strays named like ours
            (writer.folder / name).write_bytes(data)
    for _ in range(2):
        sim.run_until(sim.now + timedelta(minutes=20))
        writer.write(snapshot(sim))
    writer.mark = None  # the next write is a new base: the old base and rows go
    sim.run_until(sim.now + timedelta(minutes=20))
    writer.write(snapshot(sim))
    names = {p.name for p in writer.folder.iterdir()}
    assert {"memories-someone-elses.npz", ".tmp-other"} <= names
    assert not any(n.startswith("rows-") for n in names) and JOURNAL not in names
    assert read_save(AUTOSAVE, tmp_path)[0]["clock"] == sim.now.isoformat()


def test_the_incremental_writer_waits_for_the_save_lock(tmp_path, sim):
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    sim.run_until(sim.now + timedelta(minutes=20))
    fd = os.open(writer.folder / LOCK, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another game saving under this name
    before = _files(writer.folder)
    done = threading.Event()
    thread = threading.Thread(target=lambda: (writer.write(snapshot(sim)), done.set()))
    thread.start()
    try:
        assert not done.wait(0.5)
        assert _files(writer.folder) == before  # nothing written while the other holds it
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    thread.join(15)
    assert done.is_set() and JOURNAL in {p.name for p in writer.folder.iterdir()}


def test_a_journal_write_that_fails_halfway_leaves_the_journal_as_it_was(
    tmp_path, sim, monkeypatch
):
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    sim.run_until(sim.now + timedelta(minutes=20))
    writer.write(snapshot(sim))
    committed = read_save(AUTOSAVE, tmp_path)[0]["clock"]
    journal = (writer.folder / JOURNAL).read_bytes()
    real = autosave_module.write_all

    def half_then_full(fd: int, data: bytes) -> None:
        real(fd, data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(autosave_module, "write_all", half_then_full)
    sim.run_until(sim.now + timedelta(minutes=20))
    with pytest.raises(SaveError, match="the disk is full"):
        writer.write(snapshot(sim))
    assert (writer.folder / JOURNAL).read_bytes() == journal  # the torn half cut off
    assert read_save(AUTOSAVE, tmp_path)[0]["clock"] == committed
    names = {p.name for p in writer.folder.iterdir()}
    assert not any(n.startswith(".tmp-") or n.endswith("-0002.npz") for n in names)
    monkeypatch.undo()
    writer.write(snapshot(sim))  # the disk has room again: a new base, whole
    assert read_save(AUTOSAVE, tmp_path)[0]["clock"] == sim.now.isoformat()


def test_a_save_over_a_save_deletes_only_files_of_a_save(tmp_path, sim):
    folder = save_game(sim, "mine", tmp_path)
    for name, data in THEIRS.items():
        (folder / name).write_bytes(data)
    sim.run_until(sim.now + timedelta(minutes=10))
    save_game(sim, "mine", tmp_path)
    assert {n: (folder / n).read_bytes() for n in THEIRS} == THEIRS
    assert read_save("mine", tmp_path)[0]["clock"] == sim.now.isoformat()


def test_a_save_will_not_write_into_a_folder_that_is_not_a_save(tmp_path, sim):
    foreign = save_path("autosave-2", tmp_path)
    foreign.mkdir(parents=True)
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(SaveError, match="not a Smallville save"):
        save_game(sim, "autosave-2", tmp_path)
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]


def test_a_pipe_planted_at_the_journal_never_hangs_the_autosave(tmp_path, sim):
    """Opening a pipe with no reader to append waited forever on the writer's thread
    (and the window waits for that thread when it closes)."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))  # a base, no journal yet
    os.mkfifo(writer.folder / JOURNAL)
    sim.run_until(sim.now + timedelta(minutes=20))
    done = threading.Event()
    outcome: list = []

    def write() -> None:
        try:
            outcome.append(writer.write(snapshot(sim)))
        except SaveError as exc:
            outcome.append(exc)
        done.set()

    threading.Thread(target=write, daemon=True).start()
    assert done.wait(20), "the autosave hung on the pipe"
    assert isinstance(outcome[0], SaveError)
    writer.write(snapshot(sim))  # the next is a new base, which takes the pipe away
    assert read_save(AUTOSAVE, tmp_path)[0]["clock"] == sim.now.isoformat()


@pytest.mark.parametrize("writer", ["save", "claim"])
def test_a_lock_planted_as_a_link_is_refused_and_not_followed(tmp_path, sim, writer):
    """`.lock` linked to a path outside: the lock's O_CREAT made an empty file there."""
    from game.sim.saves import check_save_folder, claim

    save_game(sim, "s", tmp_path)
    folder = save_path("s", tmp_path)
    target = tmp_path / "outside" / "planted"
    target.parent.mkdir()
    (folder / LOCK).unlink()
    os.symlink(target, folder / LOCK)
    before = (folder / "save.json").read_bytes()
    with pytest.raises(SaveError, match="link"):
        save_game(sim, "s", tmp_path) if writer == "save" else claim(folder, wait=0.0)
    with pytest.raises(SaveError, match="lock file"):
        check_save_folder(folder)  # `run --save` says so before the run
    assert not target.exists()
    assert (folder / "save.json").read_bytes() == before


def test_a_lock_one_may_not_write_is_said_before_the_run(tmp_path, sim, monkeypatch):
    """Another user's `.lock` (root's, 0644): `run --save` ran the whole run, then said
    'cannot write the save: Permission denied' of a folder the user may write."""
    from game.core.errors import FileProblem
    from game.sim import saves
    from game.sim.saves import cannot_write, check_save_folder

    save_game(sim, "s", tmp_path)
    folder = save_path("s", tmp_path)
    (folder / LOCK).chmod(0o444)
    if os.geteuid() == 0:  # root may write anything: the check is told what a user is told
        real = os.access
        monkeypatch.setattr(
            saves.os, "access", lambda p, mode: False if str(p).endswith(LOCK) else real(p, mode)
        )
    with pytest.raises(FileProblem, match=r"\.lock: Permission denied"):
        check_save_folder(folder)
    said = cannot_write(folder, PermissionError(13, "Permission denied", str(folder / LOCK)))
    assert str(said).endswith("cannot write the save: .lock: Permission denied")
