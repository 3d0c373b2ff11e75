"""The one writer every file goes through (game/core/files.py): whole or not at all, never
through a link, one typed error naming the file and the cause."""

import contextlib
import os
import stat
import tempfile

import pytest
from disks import full_disk_fixture, read_only_fixture  # noqa: F401

import game.core.files as files
from game.core.config import write_private
from game.core.errors import FileProblem
from game.core.files import atomic_file, check_writable, write_atomic


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_write_replaces_the_file_whole(tmp_path):
    target = tmp_path / "report.json"
    target.write_text("old")
    write_atomic(target, "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert leftovers(tmp_path) == []


def test_a_full_disk_leaves_the_old_file_and_no_temp(full_disk):
    target = full_disk.folder / "report.json"
    target.write_text("the good report")
    full_disk.fill()
    with pytest.raises(FileProblem) as caught:
        write_atomic(target, "x" * 1_000_000)
    assert str(caught.value) == f"cannot write {target}: the disk is full (no space left on device)"
    assert target.read_text() == "the good report"
    assert leftovers(full_disk.folder) == []


def test_a_write_that_fails_after_a_swallowed_error_is_not_committed(full_disk):
    """pygame's image writer prints the error of a file object's write and carries on:
    the first error is kept, and the short file is never renamed into place."""
    target = full_disk.folder / "chart.png"
    target.write_bytes(b"old chart")
    full_disk.fill()
    with pytest.raises(FileProblem), atomic_file(target) as out, contextlib.suppress(OSError):
        out.write(b"y" * 1_000_000)  # the error swallowed, as pygame does
    assert target.read_bytes() == b"old chart"
    assert leftovers(full_disk.folder) == []


def test_a_missing_folder_is_named_and_not_made(tmp_path):
    target = tmp_path / "nope" / "out.jsonl"
    for attempt in (lambda: write_atomic(target, "x"), lambda: check_writable(target)):
        with pytest.raises(FileProblem, match=r"the folder .*nope does not exist"):
            attempt()
    assert not target.parent.exists()


def test_make_folder_makes_it(tmp_path):
    target = tmp_path / "a" / "b" / "config.toml"
    write_atomic(target, "x = 1\n", make_folder=True)
    assert target.read_text() == "x = 1\n"


def test_a_read_only_folder_is_one_problem_and_the_old_file_stays(read_only):
    target = read_only / "old.txt"
    for attempt in (lambda: write_atomic(target, "new"), lambda: check_writable(target)):
        with pytest.raises(FileProblem, match=r"^cannot write .*old\.txt: "):
            attempt()
    assert target.read_text() == "old"
    assert leftovers(read_only) == []


def test_a_link_planted_at_the_temp_name_receives_nothing(tmp_path, monkeypatch):
    """The temp name is mkstemp's, created with O_EXCL: a link already there is never
    opened (the name is passed over), so what it points to is untouched."""
    victim = tmp_path / "victim"
    victim.write_text("untouched")
    names = iter(["planted", "fresh"])
    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: names)
    os.symlink(victim, tmp_path / ".config.toml.planted.tmp")
    write_private(tmp_path / "config.toml", 'api_key = "sk-secret"\n')
    assert victim.read_text() == "untouched"
    assert (tmp_path / "config.toml").read_text() == 'api_key = "sk-secret"\n'


def test_links_at_the_old_fixed_temp_names_receive_nothing(tmp_path):
    """The settings writer used `.config.toml.<pid>.tmp` and the endpoint cache
    `endpoints.tmp`: links planted there got the API key and the cache."""
    from game.brains.llm.settled import EndpointMemory

    victim = tmp_path / "victim"
    victim.write_text("untouched")
    os.symlink(victim, tmp_path / f".config.toml.{os.getpid()}.tmp")
    os.symlink(victim, tmp_path / "endpoints.tmp")
    write_private(tmp_path / "config.toml", 'api_key = "sk-secret"\n')
    EndpointMemory(tmp_path / "endpoints.json").put("http://x/v1", "m", verdict="ok")
    assert victim.read_text() == "untouched"
    assert EndpointMemory(tmp_path / "endpoints.json").get("http://x/v1", "m").verdict == "ok"


def test_a_target_that_is_a_link_is_refused(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("untouched")
    os.symlink(victim, tmp_path / "report.json")
    with pytest.raises(FileProblem, match="symbolic link"):
        write_atomic(tmp_path / "report.json", "new")
    assert victim.read_text() == "untouched"
    assert os.path.islink(tmp_path / "report.json")


def test_a_private_file_is_owner_only_and_others_keep_their_mode(tmp_path):
    key = tmp_path / "config.toml"
    key.write_text("old")
    key.chmod(0o644)
    write_private(key, "api_key = 'k'\n")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    shared = tmp_path / "report.json"
    shared.write_text("old")
    shared.chmod(0o640)
    write_atomic(shared, "new")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o640


def test_an_error_of_the_callers_own_keeps_its_type_and_leaves_nothing(tmp_path):
    target = tmp_path / "battery.jsonl"
    target.write_text("old")
    with pytest.raises(KeyError), atomic_file(target) as out:
        out.write(b"half")
        raise KeyError("a question failed")
    with pytest.raises(FileNotFoundError), atomic_file(target) as out:
        open(tmp_path / "missing-save.json")  # noqa: SIM115  (an OSError not of this file)
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_a_short_write_is_continued(tmp_path, monkeypatch):
    """os.write may take fewer bytes than given; the rest is written, not dropped."""
    real = files._os_write
    monkeypatch.setattr(files, "_os_write", lambda fd, data: real(fd, data[:3]))
    write_atomic(tmp_path / "a.txt", "0123456789")
    assert (tmp_path / "a.txt").read_text() == "0123456789"


def test_a_folder_at_the_name_is_refused_before_anything_is_written(tmp_path):
    (tmp_path / "out.jsonl").mkdir()
    with pytest.raises(FileProblem, match="it is a folder"):
        check_writable(tmp_path / "out.jsonl")
    assert leftovers(tmp_path) == []


def test_recording_on_a_full_disk_stops_recording_and_says_so(full_disk, caplog):
    """SQLite's 'database or disk is full' used to escape from the question being asked."""
    from game.brains.llm.recording import ReplayCache

    if not full_disk.real:
        pytest.skip("SQLite writes past the writer's seam: only a real full disk fills it")
    cache = ReplayCache(full_disk.folder / "llm.sqlite3")
    cache.put("first", "chat", "m", {"content": "kept"})
    full_disk.fill()
    for n in range(200):
        cache.put(f"k{n}", "chat", "m", {"content": "x" * 4000})
    assert "disk is full" in cache.unwritable
    assert [r.getMessage() for r in caplog.records] == [cache.unwritable]
    assert cache.get("first") == {"content": "kept"}
    cache.close()


def test_the_null_device_is_written_to_as_nothing_and_stays_a_device():
    """As root, `run --report /dev/null` renamed a plain file over /dev/null."""
    if not stat.S_ISCHR(os.stat(os.devnull).st_mode):
        pytest.skip("no null device here")
    write_atomic(os.devnull, "a report")
    check_writable(os.devnull)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_pipe_at_the_name_is_refused_and_stays_a_pipe(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    target = tmp_path / "report.json"
    os.mkfifo(target)
    with pytest.raises(FileProblem, match="not a regular file"):
        write_atomic(target, "{}")
    assert stat.S_ISFIFO(os.stat(target).st_mode)
    assert leftovers(tmp_path) == []


KILLED_WRITER = """
import os, sys, time
from game.core.files import atomic_file
with atomic_file(sys.argv[1]) as out:
    out.write(b"half")
    print(out.path, flush=True)
    time.sleep(60)
"""


def test_a_temp_left_by_a_killed_writer_is_swept_by_the_next_write(tmp_path):
    """A real process killed (SIGKILL) inside its write leaves its temp; the next write of
    that file removes it once it is stale, and only temps of that file, by our pattern."""
    import subprocess
    import sys
    import time

    target = tmp_path / "report.json"
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(target)], stdout=subprocess.PIPE, text=True
    )
    temp = writer.stdout.readline().strip()
    writer.kill()
    writer.wait()
    writer.stdout.close()
    assert os.path.basename(temp) in leftovers(tmp_path) and not target.exists()
    fresh = tmp_path / ".report.json.freshone.tmp"
    other = tmp_path / ".notes.json.abcdefgh.tmp"
    for path in (fresh, other):
        path.write_text("someone's")
    old = time.time() - files.STALE_SECONDS - 60
    for path in (temp, other):
        os.utime(path, (old, old))
    write_atomic(target, "{}")
    assert leftovers(tmp_path) == sorted([fresh.name, other.name])  # a writer may be at work
    assert target.read_text() == "{}"
