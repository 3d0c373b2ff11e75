"""Full disks and read-only folders for the tests of the file writers.

A full disk is a real small tmpfs, filled, when the tests run as root and `mount` works;
otherwise it is simulated at the one seam where the game's writer hands bytes to the
system (game.core.files._os_write), which then fails as a full disk does: a few bytes
written, then ENOSPC. A read-only folder is a tmpfs remounted read-only as root (root
ignores file modes), else a folder chmod 0555; with neither, the test is skipped.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import game.core.files as files


def _mount(folder: Path, *options: str) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", ",".join(("size=256k", *options)), "tmpfs", str(folder)],
        capture_output=True,
    )
    return done.returncode == 0


def _unmount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


class FullDisk:
    """A folder whose disk fills up when `fill()` is called (after the old files are put
    in place). `real` says whether it is a real tmpfs."""

    def __init__(self, folder: Path, real: bool, monkeypatch) -> None:
        self.folder = folder
        self.real = real
        self._monkeypatch = monkeypatch

    def fill(self) -> None:
        if self.real:
            fd = os.open(self.folder / "ballast", os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                while os.write(fd, b"\0" * 4096):
                    pass
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
            finally:
                os.close(fd)
            return
        real_write = files._os_write

        def full(fd: int, data: memoryview) -> int:
            if len(data) > 8:
                return real_write(fd, data[:8])  # a little, then the disk is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        self._monkeypatch.setattr(files, "_os_write", full)


@pytest.fixture(name="full_disk")
def full_disk_fixture(tmp_path, monkeypatch) -> Iterator[FullDisk]:
    folder = tmp_path / "disk"
    real = _mount(folder)
    folder.mkdir(exist_ok=True)
    try:
        yield FullDisk(folder, real, monkeypatch)
    finally:
        if real:
            _unmount(folder)


@pytest.fixture(name="read_only")
def read_only_fixture(tmp_path) -> Iterator[Path]:
    """A folder holding `old.txt` ('old') that nothing may be written into."""
    folder = tmp_path / "ro"
    mounted = _mount(folder)
    folder.mkdir(exist_ok=True)
    (folder / "old.txt").write_text("old")
    if mounted:
        done = subprocess.run(["mount", "-o", "remount,ro", str(folder)], capture_output=True)
        if done.returncode != 0:
            _unmount(folder)
            pytest.skip("cannot remount a tmpfs read-only here")
    elif os.geteuid() == 0:
        pytest.skip("root ignores file modes, and mount is not available")
    else:
        folder.chmod(0o555)
    try:
        yield folder
    finally:
        if mounted:
            _unmount(folder)
        else:
            folder.chmod(0o755)
