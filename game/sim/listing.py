"""The saves listing: each save in the saves folder with what `--load` would give of it
(its game time, or why it would not load), told without building its arrays.

Kept apart from saves.py (writing and loading) because it only reads, and reads every
save: the checks are loading's own (`journal.journal_end`, the base arrays' directory
and headers), so the listing never shows a time loading does not reach.
"""

from __future__ import annotations

import stat
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from game.core.text import single_line as clean_line
from game.sim.save_format import FORMAT, VERSION, SaveError, UnreadableSave
from game.sim.saves import (
    _ARRAYS,
    DOCUMENT,
    READ_TRIES,
    _check_clock,
    _read_document,
    _version,
    journal_note,
    saves_root,
)


@dataclass(frozen=True)
class SaveInfo:
    name: str
    scenario: str
    game_time: str
    brain: str
    size_bytes: int
    saved_at: str
    visitor: str = ""  # the visitor's name in that game ('' if none)
    problem: str = ""  # why the folder could not be read ('' when it could): listed apart
    note: str = ""  # why it will not load, or what of it a damaged autosave journal loses


def list_saves(root: Path | str | None = None) -> list[SaveInfo]:
    """Every save in the saves folder; one whose folder cannot be read is listed with its
    `problem` (the listing goes on). An unreadable saves folder is one SaveError."""
    base = saves_root(root)
    try:  # none yet when missing; a file where the folder (or one above it) should be is said
        folders = sorted(base.iterdir())
    except FileNotFoundError:
        folders = []
    except OSError as exc:
        raise UnreadableSave(base, exc, " the saves folder") from None
    out = []
    for folder in folders:
        try:
            info = _info(folder)
        except OSError as exc:
            problem = f"cannot read: {exc.strerror or exc}"
            info = SaveInfo(folder.name, "(unreadable)", "?", "?", 0, "?", problem=problem)
        if info is not None:
            out.append(info)
    return out


def _info(folder: Path) -> SaveInfo | None:
    """A save's line in the listing; None for a folder holding no save.json. An OSError
    (a folder or save.json we may not read) goes to the caller: unreadable, not damaged."""
    path = folder / DOCUMENT
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return None
    except (FileNotFoundError, NotADirectoryError):
        return None
    size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    with path.open("rb"):
        pass  # readable (its contents are checked below)
    try:
        doc, note = _listed_whole(folder, path)
    except (ValueError, SaveError) as exc:
        why = exc.problem if isinstance(exc, SaveError) else str(exc)
        return SaveInfo(folder.name, "(damaged)", "?", "?", size, "?", note=clean_line(why, 200))
    return SaveInfo(
        folder.name,
        clean_line(str(doc.get("scenario_name", "?")), 60),
        clean_line(str(doc.get("clock", "?")), 60),
        clean_line(str(doc.get("brain", "?")), 60),
        size,
        clean_line(str(doc.get("saved_at", "?")), 60),
        clean_line(_visitor_name(doc), 60),
        note=note,
    )


def _listed_whole(folder: Path, path: Path) -> tuple[dict, str]:
    """`_listed` of one save.json: a writer that replaced the save as we looked (a new
    autosave base removes the old journal's rows files) is looked at again, as read_save
    reads again, so the listing never calls a save damaged that was only being replaced."""
    for _ in range(READ_TRIES - 1):
        before = _version(folder)
        try:
            result = _listed(folder, path)
        except (ValueError, SaveError):
            if _version(folder) == before:
                raise
        else:
            if _version(folder) == before:
                return result
        time.sleep(0.01)
    return _listed(folder, path)


def _listed(folder: Path, path: Path) -> tuple[dict, str]:
    """What `--load` would give of a save, as far as it can be told without building
    it: the document as of the journal's last line loading applies (and a note when
    the journal is damaged), or SaveError saying why it would not load. The arrays are
    checked by their directory and headers, the journal's rows files read through."""
    from game.sim.journal import journal_end

    doc = _read_document(path)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(path, "not a Smallville save")
    version = doc.get("version")
    if not isinstance(version, int) or not 1 <= version <= VERSION:
        shown = clean_line(str(version), 20)
        raise SaveError(path, f"a save version this game cannot load ({shown})")
    _check_base_arrays(folder, doc, path)
    end = journal_end(folder, doc)
    if end.line is not None:
        doc = {**doc, **{k: end.line[k] for k in ("clock", "saved_at", "visitor")}}
    _check_clock(doc.get("clock"), path)
    if not end.dropped:
        return doc, ""
    when = datetime.fromisoformat(doc["clock"])
    return doc, journal_note(folder.name, when, end.dropped, end.problem)


def _check_base_arrays(folder: Path, doc: dict, path: Path) -> None:
    """The base's arrays are there and whole as far as their directory and headers tell."""
    from game.sim.archives import check_npz

    name = doc.get("arrays")
    if not isinstance(name, str) or not _ARRAYS.fullmatch(name):
        raise SaveError(path, "damaged: does not name its memory arrays")
    try:
        check_npz(folder / name, checksums=False)
    except FileNotFoundError:
        raise SaveError(folder / name, "missing: the memory arrays of this save") from None
    except OSError as exc:
        raise UnreadableSave(folder / name, exc) from None
    except (ValueError, MemoryError) as exc:
        raise SaveError(folder / name, f"damaged memory arrays ({exc})") from None


def _visitor_name(doc: dict) -> str:
    visitor = doc.get("visitor")
    return str(visitor.get("name", "")) if isinstance(visitor, dict) else ""
