"""Writing a file so that it is whole or not there, and saying in one line when it cannot be.

Every file the game writes outside the save module (reports, the battery's JSONL, charts,
screenshots, the config file, play preferences, the caches) goes through `atomic_file`:

- the bytes go to a temporary file made by `tempfile.mkstemp` in the target's own folder
  (a name nobody can guess, created with O_EXCL and O_NOFOLLOW, so a link planted in the
  folder is never written through; a fixed name such as `endpoints.tmp` could be);
- the temporary file is flushed to disk (fsync) and renamed over the target (os.replace),
  so a full disk, a kill or a crash leaves the old file or the new one, never a 0-byte or
  half file where a good one was;
- a target that is a symbolic link is refused rather than replaced, and so is one that is
  no regular file (a device, a pipe): as root, renaming over `--report /dev/null` made
  /dev/null a plain file for every program on the machine. `os.devnull` itself is taken
  to mean "keep nothing": the bytes are dropped and nothing is renamed;
- the temporary files of that same target which a killed writer left behind (only our
  own name pattern for it, only regular files, only ones older than STALE_SECONDS, so a
  writer still at work keeps its own) are removed after each commit;
- any OSError becomes a FileProblem naming the file and the cause, which the command line
  prints as one line and exits 1.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from game.core.errors import FileProblem


def _umask() -> int:
    """Read once, at import: os.umask can only be read by setting it, which is not safe
    while other threads create files."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask()
STALE_SECONDS = 15 * 60  # a temporary file this old is no writer's at work: a killed one's


def cause(exc: OSError) -> str:
    """The reason in a person's words: 'the disk is full', not '[Errno 28]'."""
    if exc.errno == errno.ENOSPC:
        return "the disk is full (no space left on device)"
    if exc.errno == errno.EDQUOT:
        return "the disk quota is used up"
    return exc.strerror or str(exc) or type(exc).__name__


def _os_write(fd: int, data: memoryview) -> int:
    """The one place bytes reach the disk (tests make it fail the way a full disk does)."""
    return os.write(fd, data)


class AtomicFile(io.RawIOBase):
    """The open temporary file: a binary, write-only file object. The first error a
    write meets is kept, so a caller that swallows it (pygame's image writer does) still
    cannot commit a short file."""

    def __init__(self, fd: int, path: str) -> None:
        super().__init__()
        self.fd = fd
        self.path = path  # the temporary file's own name, to check what was written
        self.error: OSError | None = None

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def write(self, data) -> int:  # type: ignore[override]
        view = memoryview(data).cast("B")
        done = 0
        try:
            while done < len(view):
                done += _os_write(self.fd, view[done:])
        except OSError as exc:
            self.error = self.error or exc
            raise
        return done

    def close(self) -> None:
        """Closes the descriptor once (a second close could hit a reused descriptor)."""
        if not self.closed:
            try:
                os.close(self.fd)
            finally:
                super().close()


def _refuse_non_file(target: Path) -> None:
    """A link is never written through nor replaced; a folder is no file to replace, and
    neither is a device or a pipe (renaming over one replaces it for every program)."""
    if os.path.islink(target):
        raise FileProblem(target, "it is a symbolic link; the game does not write through links")
    if os.path.isdir(target):
        raise FileProblem(target, "it is a folder")
    try:
        mode = os.stat(target, follow_symlinks=False).st_mode
    except OSError:
        return  # not there yet (or not ours to see): the write itself will say
    if not stat.S_ISREG(mode):
        raise FileProblem(target, "it is not a regular file (a device, pipe or socket)")


def discards(target: Path) -> bool:
    """Whether `target` is the system's null device: a writer asked to keep nothing."""
    try:
        return os.path.samefile(target, os.devnull)
    except OSError:
        return False


def _make_folder(folder: Path, target: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileProblem(target, f"cannot make its folder {folder}: {cause(exc)}") from None


def _temp_prefix(target: Path) -> str:
    return f".{target.name[:80]}."


def _open_temp(target: Path) -> tuple[int, str]:
    folder = target.parent
    try:
        return tempfile.mkstemp(dir=folder, prefix=_temp_prefix(target), suffix=".tmp")
    except FileNotFoundError:
        raise FileProblem(target, f"the folder {folder} does not exist") from None
    except OSError as exc:
        raise FileProblem(target, cause(exc)) from None


def _mode(target: Path, private: bool) -> int:
    """0600 for a private file; else the mode of the file replaced, or what a new file
    gets under the umask."""
    if private:
        return 0o600
    try:
        return stat.S_IMODE(os.stat(target, follow_symlinks=False).st_mode)
    except OSError:
        return 0o666 & ~_UMASK


def _sync_folder(folder: Path) -> None:
    """The rename reaches the disk too (best effort: not every system can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def atomic_file(
    path: str | os.PathLike[str], *, private: bool = False, make_folder: bool = False
) -> Iterator[AtomicFile]:
    """Write `path` whole or not at all: yields the temporary file, renames it over `path`
    when the block ends without an exception, removes it otherwise. `private` writes it
    0600 (a file holding a key); `make_folder` creates missing folders (the user's config
    and cache folders, never a folder a person typed). Raises FileProblem; an error of the
    caller's own inside the block keeps its type."""
    target = Path(path)
    if discards(target):
        sink = AtomicFile(os.open(os.devnull, os.O_WRONLY), os.devnull)
        try:
            yield sink
        finally:
            sink.close()
        return
    _refuse_non_file(target)
    if make_folder:
        _make_folder(target.parent, target)
    fd, tmp = _open_temp(target)
    out = AtomicFile(fd, tmp)
    done = False
    try:
        yield out
        _commit(out, tmp, target, private)
        done = True
    except OSError as exc:
        if exc is out.error:
            raise FileProblem(target, cause(exc)) from None
        raise
    finally:
        if not done:
            out.close()
            _unlink(tmp)
    _sync_folder(target.parent)
    sweep_stale(target)


def sweep_stale(target: Path, now: float | None = None) -> list[str]:
    """Remove the temporary files of `target` a killed writer left (kill -9 between
    mkstemp and the rename): our exact name pattern for that target (mkstemp's eight
    characters), regular files (never a link), older than STALE_SECONDS. Best effort:
    a file that will not go stays for the next write. Returns the names removed."""
    pattern = re.compile(re.escape(_temp_prefix(target)) + r"[a-z0-9_]{8}\.tmp")
    cutoff = (time.time() if now is None else now) - STALE_SECONDS
    gone = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return gone
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and st.st_mtime < cutoff:
                os.unlink(entry.path)
                gone.append(entry.name)
        except OSError:
            continue
    return gone


def _commit(out: AtomicFile, tmp: str, target: Path, private: bool) -> None:
    """Mode, fsync, close, rename: the temporary file becomes the target."""
    if out.error is not None:
        raise FileProblem(target, cause(out.error))
    try:
        os.fchmod(out.fd, _mode(target, private))
        os.fsync(out.fd)
        out.close()
        _refuse_non_file(target)  # planted while we wrote
        os.replace(tmp, target)
    except OSError as exc:
        raise FileProblem(target, cause(exc)) from None


def _unlink(tmp: str) -> None:
    with contextlib.suppress(OSError):  # the folder went away, or became read-only
        os.unlink(tmp)


def write_atomic(
    path: str | os.PathLike[str],
    data: str | bytes,
    *,
    private: bool = False,
    make_folder: bool = False,
) -> Path:
    """`data` (text is written as UTF-8) as the whole of `path`; see `atomic_file`."""
    with atomic_file(path, private=private, make_folder=make_folder) as out:
        out.write(data.encode("utf-8") if isinstance(data, str) else data)
    return Path(path)


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise FileProblem now if `path` could not be written at all (missing or read-only
    folder, a link), so a long command fails before its work rather than after it. A full
    disk is only found when the bytes are written."""
    target = Path(path)
    if discards(target):
        return
    _refuse_non_file(target)
    fd, tmp = _open_temp(target)
    os.close(fd)
    _unlink(tmp)


def _kind_problem(mode: int) -> str | None:
    """Why a file of this mode is none to read (None: a regular file)."""
    if stat.S_ISDIR(mode):
        return "it is a folder, not a file"
    if not stat.S_ISREG(mode):
        return "it is not a regular file (a device, pipe or socket)"
    return None


def not_a_file(path: str | os.PathLike[str]) -> str | None:
    """Why `path`, which is there, is no file to read: a folder, a device or a pipe
    (None: a regular file or a link to one, or nothing there to see, which the read
    itself says). A map or scenario that was /dev/zero, a folder or a pipe was called
    "not found" (it is there); a config file that was one was silently skipped."""
    try:
        return _kind_problem(os.stat(path).st_mode)
    except OSError:
        return None


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most `limit` + 1 bytes of a file a person named (so a caller can tell it is too
    long without reading it all): /dev/zero or an endless pipe as input once read until
    memory ran out. Only a regular file is read: it is opened without blocking and
    looked at first, since opening a pipe (`--script FIFO`) waited for a writer forever.
    OSError passes through (a folder, device or pipe as one whose strerror says so)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        problem = _kind_problem(os.fstat(fd).st_mode)
    except OSError:
        os.close(fd)
        raise
    if problem:
        os.close(fd)
        raise OSError(errno.EINVAL, problem, str(path))
    with open(fd, "rb") as f:
        chunks, size = [], 0
        while size <= limit:  # in pieces: read(limit + 1) sets aside all of it at once
            chunk = f.read(min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    return b"".join(chunks)


def read_problem(path: str | os.PathLike[str], exc: OSError, what: str = "") -> FileProblem:
    """The FileProblem of a file or folder that cannot be read."""
    return FileProblem(path, cause(exc), doing=f"read {what}".strip())
