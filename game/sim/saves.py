"""Saves: one folder per save, a versioned JSON document plus an .npz of memory arrays.

Writing never leaves a half-written save: the arrays go to a new generation file, then the
JSON document (which names that file) replaces the old one with an atomic rename, the
commit point. A crash at any moment leaves either the old save or the new one, whole, and
the files such a crash leaves behind (a temporary, arrays nothing names) go at the next save.

Across processes: every writer takes the folder's lock (`.lock`) for its write, and a game
that autosaves into a folder holds that lock for the whole game (`claim`), so a second game
window cannot write there and autosaves under a name of its own (game/sim/autosave.py).
Readers take no lock: a writer may replace the save while they read it, so a read checks
that `save.json` is still the one it began with and reads again when it is not.
Loading never writes anything; a damaged, foreign or unreadable file gives one SaveError line.
What a save holds, its version and the upgrades from older ones: game/sim/save_format.py.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from game.core.config import DEFAULT_WORKERS, data_dir
from game.core.errors import FileProblem, SettingsError, SmallvilleError
from game.core.mind_settings import MindSettings
from game.core.names import save_name_problem
from game.core.text import bounded_loads
from game.core.text import single_line as clean_line
from game.sim.archives import load_npz
from game.sim.config import ClockMode, SimConfig
from game.sim.save_format import FORMAT, SaveError, UnreadableSave, game_state, restore, upgrade
from game.sim.save_format import VERSION as VERSION  # as callers have always imported it
from game.world.scenario import saved_scenario

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

DOCUMENT = "save.json"
_NAME = re.compile(r"^[A-Za-z0-9 _-]{1,64}$")
_ARRAYS = re.compile(r"memories-[\w.-]{1,80}\.npz")
# the exact names our writers give their files: only these are swept as orphans (a stray
# merely named like ours, memories-someone-elses.npz, stays)
_GENERATION = re.compile(r"memories-\d{8}T\d{12}\.npz")
_TEMPORARY = re.compile(r"\.tmp-smallville-[A-Za-z0-9_]{8}")
# an incremental autosave's new rows: rows-<its base's generation>-<n>.npz, unique to
# the base, so a reader of an old base never takes a newer base's rows for its own
# (rows-<n>.npz: journals written before that)
ROWS = re.compile(r"rows-(?:\d{8}T\d{12}-)?\d{4}\.npz")
JOURNAL = "journal.jsonl"  # and the lines naming them (game/sim/autosave.py)
TMP = ".tmp-smallville-"  # our half-written files: nobody else's are ever removed
LOCK = ".lock"
MAX_DOCUMENT = 512 * 1024 * 1024  # bytes of save.json worth reading
MAX_DEPTH = 64  # nesting levels of save.json (ours need about ten)
LOCK_WAIT = 10.0  # seconds a second writer waits for the first before it is refused
READ_TRIES = 20  # a writer saving back to back may overtake a read a few times running


# What reading a save's fields can raise when an edit or damage gave them values of the
# wrong type or size: each is "damaged", never a traceback. ArithmeticError: a seed of
# 1e999 (Infinity) gave an OverflowError traceback at int(); RecursionError: nesting.
DAMAGE = (
    KeyError,
    TypeError,
    ValueError,
    IndexError,
    AttributeError,
    ArithmeticError,
    RecursionError,
)


def saves_root(root: Path | str | None = None) -> Path:
    """The saves folder in the user data folder (SMALLVILLE_DATA overrides it, as it does
    for every file the game keeps there)."""
    if root is not None:
        return Path(root)
    return data_dir() / "saves"


def save_path(name: str, root: Path | str | None = None) -> Path:
    """The folder to read a save from: a save name, or (reading only) a folder path."""
    if "/" in name or "\\" in name or name.endswith(".json"):
        path = Path(name)
        return path.parent if path.name == DOCUMENT else path
    return name_folder(name, root)


def name_folder(name: str, root: Path | str | None = None) -> Path:
    """The folder of a save name. A name is a name, never a path: anything else is
    refused. So is a name Windows keeps for a device (CON, NUL, COM1: no folder there
    can have it) and one that begins or ends with a space (Windows drops a trailing
    one: two names, one folder)."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or not name.strip():
        shown = clean_line(str(name), 70)
        raise SaveError(repr(shown), f"{save_name_problem(str(name))}a save name uses ASCII "
                        "letters, digits, spaces, '_' or '-' (at most 64)")  # fmt: skip
    if name != name.strip():
        raise SaveError(repr(name), "a save name does not begin or end with a space")
    if _DEVICE.fullmatch(name):
        raise SaveError(repr(name), "Windows keeps that name for a device; choose another")
    return saves_root(root) / name


_DEVICE = re.compile(r"(?i)(?:CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])")


# -- writing ---------------------------------------------------------------------------


def save_game(sim, name: str, root: Path | str | None = None) -> Path:
    """Write the whole game under a save name; returns the save folder.

    Only into a folder that is empty or holds one of our saves; under the save's lock (a
    second writer waits, then is refused); only the files this save wrote are removed.
    A full disk or a read-only folder is one SaveError line and the old save stays whole."""
    folder = name_folder(name, root)
    with writing(folder):
        return _write_save(sim, folder)


@contextmanager
def writing(folder: Path, claim: Claim | None = None):
    """The rules of every writer into a save folder (a save, the window's incremental
    autosave): only into a folder of ours, under its lock (already held when
    the writer's `claim` is on this folder), and any OSError (a full disk, a read-only
    folder) one SaveError line."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _refuse_foreign(folder)
        if claim is not None and claim.holds(folder):
            yield folder
        else:
            with _locked(folder):
                yield folder
    except OSError as exc:
        raise cannot_write(folder, exc) from None


def cannot_write(folder: Path, exc: OSError) -> SaveError:
    """The SaveError of a writer that met an OSError: the cause as every file says it
    ('the disk is full', not 'No space left on device')."""
    from game.core.files import cause

    name = Path(exc.filename).name if isinstance(exc.filename, str) else ""
    which = f"{name}: " if name and Path(exc.filename).parent == folder else ""
    return SaveError(folder, f"cannot write the save: {which}{cause(exc)}")


class Claim:
    """A save folder this process writes into for the whole game (the window's autosave):
    its lock stays held until `release`, so no other process writes there meanwhile, and
    one that tries waits, then is refused. The OS drops the lock if the process dies."""

    def __init__(self, folder: Path, fd: int) -> None:
        self.folder = folder
        self._fd: int | None = fd

    def holds(self, folder: Path) -> bool:
        return self._fd is not None and folder == self.folder

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                _unlock(fd)
            finally:
                os.close(fd)


def claim(folder: Path, wait: float = 1.0) -> Claim | None:
    """Take a save folder's lock for the whole game; None when another game holds it.

    `wait` covers a save of a moment (`run --save`) under that name; a game that holds
    the folder keeps it longer than that, and the caller then picks another name."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _refuse_foreign(folder)
        fd = _open_lock(folder)
    except OSError as exc:
        raise cannot_write(folder, exc) from None
    if _wait_for_lock(fd, wait):
        return Claim(folder, fd)
    os.close(fd)
    return None


def _write_save(sim, folder: Path) -> Path:
    return write_document(folder, *game_state(sim))


def write_document(folder: Path, doc: dict[str, Any], arrays: dict[str, np.ndarray]) -> Path:
    """A whole save from its document and arrays, into a folder the caller holds
    (`writing`): the arrays under a new generation's name, then save.json naming them;
    then the previous arrays, a journal of the old base and any orphans go."""
    previous = arrays_named(folder / DOCUMENT)
    generation = datetime.now().strftime("%Y%m%dT%H%M%S%f")
    arrays_name = f"memories-{generation}.npz"
    doc = {**doc, "arrays": arrays_name}
    write_atomic(folder / arrays_name, lambda f: np.savez(f, **arrays))
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    try:
        write_atomic(folder / DOCUMENT, lambda f: f.write(text.encode("utf-8")))
    except BaseException:
        (folder / arrays_name).unlink(missing_ok=True)  # ours, and named by nothing
        raise
    if previous and previous != arrays_name:
        discard(folder / previous)
    discard(folder / JOURNAL)  # an autosave's, of a base now replaced
    sweep(folder, {arrays_name})
    return folder


def discard(path: Path) -> None:
    """Remove a file the save in place no longer names. The save is already committed, so
    a file that will not go (open in a reader on Windows) stays for the next sweep."""
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def sweep(folder: Path, keep: set[str]) -> list[str]:
    """Remove what a crashed or refused writer of ours left in the folder: temporaries,
    arrays and rows files by the exact names our writers give them, except `keep` (what
    the save in place names). Called under the folder's lock, after the commit, so no
    writer of ours is midway; a stray merely named like ours stays. Returns the names."""
    gone = []
    for path in folder.iterdir():
        name = path.name
        orphan = _GENERATION.fullmatch(name) or ROWS.fullmatch(name) or _TEMPORARY.fullmatch(name)
        if orphan and name not in keep and not path.is_symlink() and path.is_file():
            discard(path)
            gone.append(name)
    return gone


def arrays_named(document: Path) -> str:
    """The arrays file the save now in place names ('' when there is none we trust)."""
    try:
        doc = _read_document(document)
    except (SaveError, OSError):
        return ""
    name = doc.get("arrays") if isinstance(doc, dict) else None
    return name if isinstance(name, str) and _ARRAYS.fullmatch(name) else ""


def _refuse_foreign(folder: Path) -> None:
    """A folder with files in it must hold a save of ours: never write over anything else."""
    entries = [p.name for p in folder.iterdir()]
    if not entries:
        return
    if DOCUMENT in entries:
        try:
            doc = _read_document(folder / DOCUMENT)
        except UnreadableSave:  # no permission: said as such, not as someone else's files
            raise
        except SaveError:
            doc = None
        if isinstance(doc, dict) and doc.get("format") == FORMAT:
            return
    if not all(is_ours(n) for n in entries):
        raise SaveError(folder, "this folder holds files that are not a Smallville save")


def check_save_folder(folder: Path) -> None:
    """Refuse now what save_game would refuse later in a folder that is there (files
    that are not a save of ours), so `run --save` says so before the run, not after it."""
    if folder.is_dir():
        _refuse_foreign(folder)
        lock = folder / LOCK
        if lock.is_symlink() or (lock.exists() and not lock.is_file()):
            raise SaveError(folder, f"{LOCK} is not the save's lock file (a link or no file)")
        if lock.exists() and not os.access(lock, os.R_OK | os.W_OK):  # another user's
            raise FileProblem(lock, "Permission denied (another user's lock file)", "save to")


def is_ours(name: str) -> bool:
    """A file name only we write into a save folder (save.json needs its format too)."""
    return bool(
        _ARRAYS.fullmatch(name)
        or ROWS.fullmatch(name)
        or name in (JOURNAL, LOCK)
        or name.startswith(TMP)
    )


@contextmanager
def _locked(folder: Path, wait: float | None = None):
    """The save's own lock: one writer at a time, across processes (LOCK_WAIT unless
    `wait` says otherwise)."""
    fd = _open_lock(folder)
    try:
        if not _wait_for_lock(fd, LOCK_WAIT if wait is None else wait):
            raise SaveError(
                folder, "another game is saving or autosaving under this name; try again"
            )
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


def _open_lock(folder: Path) -> int:
    """The save's lock file, never through a link: a `.lock` planted as a link made the
    lock's O_CREAT make an empty file wherever it pointed (as its owner, root perhaps)."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(folder / LOCK, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, f"{LOCK} is a link, not the save's lock file") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a pipe or a device put there
        os.close(fd)
        raise OSError(errno.EINVAL, f"{LOCK} is not a regular file")
    return fd


def _wait_for_lock(fd: int, wait: float) -> bool:
    end = time.monotonic() + wait
    while not _try_lock(fd):
        if time.monotonic() >= end:
            return False
        time.sleep(0.05)
    return True


def _try_lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    else:  # pragma: no cover - Windows
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def write_atomic(path: Path, write: Callable[[Any], Any]) -> int:
    """Write a file whole or not at all (a temporary of ours, then a rename); its size."""
    fd, tmp = tempfile.mkstemp(prefix=TMP, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
            size = f.tell()
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
    return size


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- reading ---------------------------------------------------------------------------


def read_save(name: str, root: Path | str | None = None) -> tuple[dict, dict[str, np.ndarray]]:
    """The checked, upgraded document and its arrays; never writes.

    A writer in another process may replace the save while we read it (and delete the
    arrays the old document names): a read that failed while `save.json` changed is read
    again, and so is one that succeeded, to give the newest. Whatever succeeds is whole:
    the arrays and each journal line's rows are files named for that one base, so a
    read that the writer kept overtaking gives the save as it was when the read began."""
    folder = save_path(name, root)
    whole: tuple[dict, dict[str, np.ndarray]] | None = None
    for attempt in range(1, READ_TRIES + 1):
        before = _version(folder)
        try:
            result = _read_once(folder)
        except SaveError:
            if _version(folder) == before:
                raise  # damaged as it stands, not replaced midway
            if attempt == READ_TRIES and whole is None:
                raise
        else:
            if _version(folder) == before:
                return result
            whole = result
        time.sleep(min(0.05, 0.01 * attempt))
    assert whole is not None
    return whole


def _version(folder: Path) -> tuple[int, int, int] | None:
    """Which save.json is in place: a writer's rename gives it a new inode (and time)."""
    try:
        st = (folder / DOCUMENT).stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def _read_once(folder: Path) -> tuple[dict, dict[str, np.ndarray]]:
    try:
        return _read_folder(folder)
    except OSError as exc:  # an unreadable folder or journal (permissions, I/O)
        raise UnreadableSave(folder, exc) from None


def _read_folder(folder: Path) -> tuple[dict, dict[str, np.ndarray]]:
    from game.sim.journal import APPLIED, STOPPED, WRITTEN, LineDamaged, apply_journal

    doc, arrays, path = _read_base(folder)
    try:  # an autosave's journal: the changes written after its base (game/sim/autosave.py)
        doc, arrays = apply_journal(folder, doc, arrays)
    except LineDamaged as exc:  # failed midway through a line: the base again, up to it
        doc, arrays, path = _read_base(folder)
        doc, arrays = apply_journal(folder, doc, arrays, limit=exc.applied)
        doc[STOPPED] = exc.problem
    except DAMAGE as exc:
        raise SaveError(path, f"damaged journal ({type(exc).__name__}: {exc})") from exc
    dropped = doc.pop(WRITTEN, 0) - doc.pop(APPLIED, 0)
    stopped = doc.pop(STOPPED, "")
    return ({**doc, DROPPED: (dropped, stopped)} if dropped > 0 else doc), arrays


def _read_base(folder: Path) -> tuple[dict, dict[str, np.ndarray], Path]:
    """A save's document and arrays as written, before any journal line."""
    path = folder / DOCUMENT
    try:  # a stat, so that a folder we may not read is said as such (OSError)
        missing = not stat.S_ISREG(path.stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        missing = True
    if missing:
        raise SaveError(folder, "no save here (save.json is missing)")
    doc = _read_document(path)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(path, "not a Smallville save")
    try:
        doc = upgrade(doc, path)
    except DAMAGE as exc:
        raise SaveError(path, f"damaged: cannot upgrade ({type(exc).__name__}: {exc})") from exc
    return doc, _read_arrays(folder, doc, path), path


DROPPED = "journal_dropped"  # later autosaves a damaged journal left unread, and why


def journal_note(name: str, clock: Any, dropped: int, why: str) -> str:
    """What loading and the listing say of an autosave whose journal is damaged."""
    when = clock.strftime("%Y-%m-%d %H:%M") if isinstance(clock, datetime) else str(clock)
    why = why or "a line of it is not whole"
    return clean_line(f"{name}: its autosave journal is damaged, so it loads as of {when}; "
                      f"{dropped} later autosave{'s' if dropped > 1 else ''} could not be "
                      f"read ({why})", 300)  # fmt: skip


def _read_document(path: Path) -> Any:
    """save.json parsed with limits on size and depth: past them it counts as damaged."""
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT:
            raise SaveError(path, f"damaged: {size} bytes is more than a save can be")
        return bounded_loads(path.read_text(encoding="utf-8"), MAX_DEPTH)
    except OSError as exc:
        raise UnreadableSave(path, exc) from None
    except (UnicodeDecodeError, ValueError, MemoryError) as exc:
        raise SaveError(path, f"damaged: not valid JSON ({clean_line(str(exc), 120)})") from None


def _read_arrays(folder: Path, doc: dict, path: Path) -> dict[str, np.ndarray]:
    name = doc.get("arrays")
    if not isinstance(name, str) or not _ARRAYS.fullmatch(name):
        raise SaveError(path, "damaged: does not name its memory arrays")
    try:
        return load_npz(folder / name)
    except FileNotFoundError as exc:
        raise SaveError(folder / name, "missing: the memory arrays of this save") from exc
    except OSError as exc:
        raise UnreadableSave(folder / name, exc) from None
    except (ValueError, MemoryError) as exc:
        raise SaveError(folder / name, f"damaged memory arrays ({exc})") from exc


def load_game(
    name: str,
    root: Path | str | None = None,
    brain: str | None = None,
    mind: MindSettings | None = None,
    mode: ClockMode = ClockMode.LOCKSTEP,
    workers: int = DEFAULT_WORKERS,
    **options: Any,
):
    """A Simulation restored from a save. A damaged save raises SaveError and writes nothing.

    `mind` carries ablations for interviews and runs; `options` go to build_simulation
    (the language-model settings)."""
    from game.sim.factory import build_simulation, timing

    doc, arrays = read_save(name, root)
    path = save_path(name, root) / DOCUMENT
    dropped, why = doc.pop(DROPPED, (0, ""))
    _check_clock(doc.get("clock"), path)
    saved = clean_line(str(doc.get("brain")), 20)
    if brain is not None and brain != doc.get("brain"):
        raise SaveError(
            path,
            f"made by the {saved} brain, but these settings ask for the {brain} brain "
            f"(--brain): load it with --brain {saved}, or leave --brain out "
            "(--talk-brain llm lets a model answer any save's conversations)",
        )
    try:
        seed = int(doc["seed"])
        chosen = brain or doc["brain"]
        config = SimConfig(
            seed=seed,
            mode=mode,
            workers=workers,
            mind=mind or MindSettings(),
            timing=timing(chosen),
        )
        scenario = saved_scenario(str(doc["scenario"]))
        sim = build_simulation(scenario, seed=seed, brain=chosen, config=config, **options)
        restore(sim, doc, arrays, path)
        if dropped:  # said by whoever loads it (run, interview, the window), never silent
            sim.load_note = journal_note(path.parent.name, sim.now, dropped, why)
    except (SaveError, SettingsError, FileProblem):
        raise  # a malformed base URL, an unusable cache: not the save's fault
    except SmallvilleError as exc:
        raise SaveError(path, str(exc)) from exc
    except DAMAGE as exc:
        raise SaveError(path, f"damaged: {type(exc).__name__}: {exc}") from exc
    return sim


def _check_clock(clock: Any, path: Path) -> None:
    """A save's clock is a local time in the years a scenario may start in: an edited
    9999-12-31 gave an OverflowError traceback at the run's first day past it."""
    problem = clock_problem(clock)
    if problem:
        raise SaveError(path, f"damaged: {problem}")


def clock_problem(clock: Any) -> str:
    """Why a save's (or a journal line's) clock is no game time ('' when it is one)."""
    from game.world.scenario import FIRST_YEAR, LAST_YEAR

    shown = clean_line(str(clock), 40)
    try:
        when = datetime.fromisoformat(clock) if isinstance(clock, str) else None
    except ValueError:
        when = None
    if when is None:
        return f"the clock {shown!r} is not a date and time"
    if when.tzinfo is not None:
        return f"the clock {shown!r} has a time zone (it is local time)"
    if not FIRST_YEAR <= when.year <= LAST_YEAR:
        return f"the clock's year {when.year} is outside {FIRST_YEAR}..{LAST_YEAR}"
    return ""


class LoadSettings(Protocol):
    """What every path that loads a save takes from the command line and settings: the
    language-model settings (endpoint, model, caps, budget) and the cognition threads.
    `Config` (game/core/config.py) and the window's `Options` both carry them; a Config
    whose brain came from --brain must also match the save's brain."""

    llm: Any
    workers: int


def load_with(
    name: str,
    settings: LoadSettings,
    *,
    root: Path | str | None = None,
    mind: MindSettings | None = None,
    mode: ClockMode = ClockMode.LOCKSTEP,
):
    """A save, loaded with the settings `run` uses. Every path that loads a save (`run
    --load`, `play --load`, F9, `replay`, `interview`, `evaluate`) comes through here, so
    none of them can fall back to the default endpoint with the key."""
    llm = getattr(settings, "llm", None)
    workers = int(getattr(settings, "workers", DEFAULT_WORKERS) or DEFAULT_WORKERS)
    sources = getattr(settings, "sources", {}) or {}
    brain = getattr(settings, "brain", None) if sources.get("brain") == "flag" else None
    talk = {"talk": getattr(settings, "talk_brain", ""),  # any save: who answers its talk
            "own_talk": bool(getattr(settings, "talk_residents", False))}  # fmt: skip
    return load_game(name, root, brain, mind=mind, mode=mode, workers=workers, llm=llm, **talk)
