"""Cheap, quiet autosave: a snapshot on the frame thread, the writing on a thread of its
own, and only what changed since the last autosave written.

Why incremental: memory streams and the event log only grow, so a full rewrite every
game hour writes the same megabytes again and again. The autosave folder holds one full
save (a base, written like any save: save.json and its arrays) and a journal beside it:
`journal.jsonl`, one line per later autosave, each naming a `rows-<n>.npz` of the new
memory rows. A line is added only after its rows file is on disk, and the journal is only
ever appended to (one write, then fsync), so the end of its last whole line is the commit
point; a torn or damaged line ends the reading, and the writer cuts its own torn line off
before the next. Rewriting it whole each time wrote the journal again at every autosave
(21 MB after 48, 558 MB in a game day). Compaction is a new base: after MAX_INCREMENTS
lines, or once the journal outweighs its base. Every line names its base and its number,
so lines of another base are never applied, and a gap ends the reading. A line holds
only what changed since the line before: the new rows, and of the town's objects and
each resident's state the keys that changed (`delta`, `patched`; a line written before
them holds the whole table, and still loads), which halved a 25-resident game hour's line
(570 KB to 270 KB, the new event log's entries most of what is left).

The writer follows the rules of every save (game/sim/saves.py `writing`): a save name,
only into a folder of ours, under the save's lock, and it removes only files it wrote (and
the orphans a crashed writer of ours left, by their exact names). The window's Autosaver
holds the folder's lock for the whole game (`claim`): a second game window finds
`autosave` taken and autosaves as `autosave-2` (and so on), and says so.

`read_save` (game/sim/saves.py) calls `apply_journal`, so loading an autosave gives the
same document and arrays a full save of that moment would have.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from game.core.clock import fmt_time
from game.core.codec import encode
from game.core.files import cause
from game.core.text import bounded_loads
from game.core.text import single_line as clean_line
from game.mind.memory import KINDS, MemoryView
from game.sim.archives import check_npz, load_npz
from game.sim.saves import (
    DOCUMENT,
    JOURNAL,
    MAX_DEPTH,
    MAX_DOCUMENT,
    ROWS,
    Claim,
    SaveError,
    arrays_named,
    claim,
    discard,
    save_path,
    sweep,
    write_atomic,
    writing,
)
from game.sim.snapshots import AgentSnap, Snapshot, snapshot

AUTOSAVE = "autosave"
MAX_WINDOWS = 9  # autosave, autosave-2 ... autosave-9: one name per game window at once
MAX_INCREMENTS = 48  # after this many journal lines, the next autosave writes a new base
ROW_KEYS = ("created", "importance", "embeddings")
NOTICE_KEYS = ("notices", "notices_read")  # game/sim/player.py `notice_state`
TABLES = ("objects", "object_setters")  # a journal line keeps only their changes
APPLIED = "journal_applied"  # lines applied, for saves.read_save to say what was not
WRITTEN = "journal_written"  # the lines of the base the journal held, damaged ones too


@dataclass
class Mark:
    """What the folder holds so far: the base's name and how much of each stream."""

    base: str
    rows: dict[str, int]
    accessed: dict[str, np.ndarray]
    states: dict[str, dict[str, Any]]  # each resident's state as its line wrote it (JSON)
    log: int
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)  # objects, setters
    increments: int = 0
    base_bytes: int = 0  # what the base weighs on disk: a journal past it is compacted


@dataclass(frozen=True)
class Written:
    """What one autosave wrote: how many bytes, and whether it was a full base."""

    folder: Path
    bytes: int
    base: bool
    clock: datetime


class IncrementalWriter:
    """Writes snapshots into one autosave folder: a base, then journal lines.

    With a `claim` (the Autosaver's), the folder's lock is already held for the game."""

    def __init__(self, folder: Path, claim: Claim | None = None) -> None:
        self.folder = folder
        self.claim = claim
        self.mark: Mark | None = None  # None: the next write is a new base
        self._journal_size = 0  # bytes of the journal's committed lines (all of them ours)

    def write(self, snap: Snapshot) -> Written:
        """One autosave, under the save's lock (SaveError when refused or on a full disk)."""
        try:
            with writing(self.folder, self.claim):
                if self._compact():
                    return self._write_base(snap)
                return self._write_increment(snap)
        except BaseException:
            self.mark = None  # what the folder holds is uncertain: the next write is a base
            raise

    def _compact(self) -> bool:
        """Whether the next write is a new base: the first, after MAX_INCREMENTS lines,
        once the journal outweighs the base, or when the journal is not the one we wrote."""
        mark = self.mark
        if mark is None or mark.increments >= MAX_INCREMENTS:
            return True
        if self._journal_size > mark.base_bytes:
            return True
        try:
            size = (self.folder / JOURNAL).stat().st_size
        except FileNotFoundError:
            size = 0
        return size != self._journal_size

    # -- a full base ----------------------------------------------------------------------
    def _write_base(self, snap: Snapshot) -> Written:
        generation = datetime.now().strftime("%Y%m%dT%H%M%S%f")
        arrays_name = f"memories-{generation}.npz"
        arrays: dict[str, np.ndarray] = {}
        agents = []
        for i, a in enumerate(snap.agents):
            view = a.memory
            for key in (*ROW_KEYS, "accessed"):
                arrays[f"a{i}_{key}"] = np.array(column(view, key))
            memory = {"dim": view.dim, **_rows_doc(view, 0)}
            agents.append({"name": a.name, "state": a.state, "memory": memory})
        doc = {
            **snap.header,
            **_top(snap),
            "agents": agents,
            "log": [e.to_dict() for e in snap.log],
            "arrays": arrays_name,
        }
        stale = [arrays_named(self.folder / DOCUMENT), *journal_rows(self.folder)]
        size = write_atomic(self.folder / arrays_name, lambda f: np.savez(f, **arrays))
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        try:
            size += write_atomic(self.folder / DOCUMENT, lambda f: f.write(text))
        except BaseException:
            (self.folder / arrays_name).unlink(missing_ok=True)  # ours, and named by nothing
            raise
        self._clean(stale, keep=arrays_name)
        self.mark = Mark(
            arrays_name,
            {a.name: len(a.memory) for a in snap.agents},
            {a.name: np.array(a.memory.accessed) for a in snap.agents},
            {a.name: as_json(a.state) for a in snap.agents},
            len(snap.log),
            _tables(snap),
            base_bytes=size,
        )
        return Written(self.folder, size, True, snap.clock)

    def _clean(self, stale: list[str], keep: str) -> None:
        """After a new base: the journal and the files the old save named go, and the
        orphans of a crashed writer of ours; nothing else in the folder is touched."""
        discard(self.folder / JOURNAL)  # one that will not go: lines of another base
        self._journal_size = 0
        for name in stale:
            if name and name != keep:
                discard(self.folder / name)
        sweep(self.folder, {keep})

    # -- a journal line -------------------------------------------------------------------
    def _write_increment(self, snap: Snapshot) -> Written:
        mark = self.mark
        assert mark is not None
        number = mark.increments + 1
        rows_name = rows_file(mark.base, number)
        arrays: dict[str, np.ndarray] = {}
        agents = []
        for i, a in enumerate(snap.agents):
            start = mark.rows.get(a.name, 0)
            agents.append(self._agent_line(i, a, start, arrays))
        top = _top(snap)
        for key in TABLES:  # only what changed: the town's objects are the same all day
            top[f"{key}_delta"] = delta(as_json(top.pop(key)), mark.tables.get(key, {}))
        line = {
            "base": mark.base,
            "increment": number,
            **top,
            "agents": agents,
            "log_from": mark.log,
            "log": [e.to_dict() for e in snap.log[mark.log :]],
            "rows": rows_name,
        }
        size = write_atomic(self.folder / rows_name, lambda f: np.savez_compressed(f, **arrays))
        text = json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
        data = text.encode("utf-8")
        try:
            self._append(data)
        except BaseException:
            (self.folder / rows_name).unlink(missing_ok=True)  # named by no committed line
            raise
        size += len(data)
        mark.increments = number
        mark.log = len(snap.log)
        mark.tables = _tables(snap)
        sweep(self.folder, {mark.base, *(rows_file(mark.base, n) for n in range(1, number + 1))})
        return Written(self.folder, size, False, snap.clock)

    def _append(self, data: bytes) -> None:
        """Add one line at the journal's end, durably; a write that fails midway (a full
        disk) is cut off again, so the journal stays its committed lines."""
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
        flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)  # a pipe: no wait
        fd = os.open(self.folder / JOURNAL, flags, 0o600)  # as private as the save itself
        try:
            try:
                write_all(fd, data)
                os.fsync(fd)
            except BaseException:
                with contextlib.suppress(OSError):  # else the torn line ends the reading
                    os.ftruncate(fd, self._journal_size)
                raise
        finally:
            os.close(fd)
        self._journal_size += len(data)

    def _agent_line(self, i: int, a: AgentSnap, start: int, arrays: dict) -> dict[str, Any]:
        """One resident's new rows, its changed access times, and its state if changed."""
        mark = self.mark
        assert mark is not None
        view = a.memory
        n = len(view)
        for key in ROW_KEYS:
            arrays[f"a{i}_{key}"] = np.array(column(view, key)[start:n])
        accessed = np.array(view.accessed)
        before = mark.accessed.get(a.name, np.zeros(0))
        upto = min(start, len(before))
        touched = np.flatnonzero(accessed[:upto] != before[:upto])
        arrays[f"a{i}_touched"] = touched.astype(np.int64)
        arrays[f"a{i}_touched_at"] = accessed[touched]
        arrays[f"a{i}_accessed"] = accessed[start:n]
        out: dict[str, Any] = {"name": a.name, "from": start, **_rows_doc(view, start)}
        state = as_json(a.state)
        before = mark.states.get(a.name)
        if before is None:
            out["state"] = state
        elif state != before:  # what changed: the plan gains an hour, the rest stays
            out["state_delta"] = delta(state, before)
        mark.states[a.name] = state
        mark.rows[a.name] = n
        mark.accessed[a.name] = accessed
        return out


def rows_file(base: str, number: int) -> str:
    """The rows file of a base's `number`th journal line (the base's generation in it)."""
    return f"rows-{base.removeprefix('memories-').removesuffix('.npz')}-{number:04d}.npz"


def write_all(fd: int, data: bytes) -> None:
    """os.write until every byte is out (a write may take only part of them)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def column(view: MemoryView, key: str) -> np.ndarray:
    """A column of a memory view by name (the keys a save's arrays use)."""
    return {
        "created": view.created,
        "importance": view.importance,
        "embeddings": view.embeddings,
        "accessed": view.accessed,
    }[key]


def _rows_doc(view: MemoryView, start: int) -> dict[str, list]:
    n = len(view)
    return {
        "kinds": [KINDS[int(c)].value for c in view.kinds[start:n]],
        "texts": list(view.texts[start:n]),
        "facts": [encode(f, compact=True) for f in view.facts[start:n]],
        "evidence": [list(ev) for ev in view.evidence[start:n]],
    }


def _top(snap: Snapshot) -> dict[str, Any]:
    return {
        "saved_at": datetime.now().isoformat(timespec="seconds"),
        "clock": snap.clock.isoformat(),
        "steps": snap.steps,
        "objects": snap.objects,
        "object_setters": snap.object_setters,
        "visitor": snap.visitor,
        "chats": snap.chats,
        "usage": snap.usage,
        **snap.notices,
    }


def as_json(value: dict[str, Any]) -> dict[str, Any]:
    """A copy as JSON holds it (tuples as lists): what a line writes, and a `before` that
    the live game cannot change under the writer, as it could a shared list."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


def _tables(snap: Snapshot) -> dict[str, dict[str, Any]]:
    return {"objects": as_json(snap.objects), "object_setters": as_json(snap.object_setters)}


def delta(now: dict[str, Any], before: dict[str, Any], depth: int = 3) -> dict[str, Any]:
    """What a journal line keeps of a table or a state: the keys set since `before`, the
    keys gone, and for a table inside that changed, its own delta (`patch`, `depth`
    tables down). Whole, the town's objects and each resident's plan made a line of
    550 KB for 25 residents, nearly all of it unchanged since the line before."""
    out: dict[str, Any] = {"set": {}, "gone": [k for k in before if k not in now]}
    patch = {}
    for key, value in now.items():
        old = before.get(key, _MISSING)
        if value == old:
            continue
        if depth > 0 and isinstance(value, dict) and isinstance(old, dict):
            patch[key] = delta(value, old, depth - 1)
        else:
            out["set"][key] = value
    if patch:
        out["patch"] = patch
    return out


_MISSING = object()


def patched(table: dict[str, Any], change: Any) -> dict[str, Any]:
    """A table or state with a line's delta applied (ValueError for a damaged one)."""
    if not isinstance(change, dict) or not isinstance(change.get("set"), dict):
        raise ValueError("a journal line's changes are not a table")
    gone = set(change.get("gone") or ())
    out = {**{k: v for k, v in table.items() if k not in gone}, **change["set"]}
    for key, sub in (change.get("patch") or {}).items():
        inner = out.get(key)
        out[key] = patched(inner if isinstance(inner, dict) else {}, sub)
    return out


# -- loading ------------------------------------------------------------------------------
LINE_KEYS = ("saved_at", "clock", "steps", "visitor", "chats", "usage")
PART_KEYS = ("kinds", "texts", "facts", "evidence")
STOPPED = "journal_stopped"  # why the reading ended before the journal's last whole line


class LineDamaged(ValueError):
    """A journal line that passed its checks and still failed midway through applying
    (the document is then half changed: the caller reads the base again)."""

    def __init__(self, applied: int, problem: str) -> None:
        super().__init__(problem)
        self.applied, self.problem = applied, problem


@dataclass(frozen=True)
class JournalEnd:
    """How far loading an autosave gets through its journal, told without loading it."""

    line: dict[str, Any] | None  # the last line loading applies (None: the base alone)
    applied: int
    written: int  # the autosaves the journal holds for this base (damaged lines included)
    problem: str = ""  # why it stops before the journal's last line ('' if it does not)

    @property
    def dropped(self) -> int:
        """The later autosaves loading cannot read."""
        return max(0, self.written - self.applied)


def apply_journal(
    folder: Path, doc: dict[str, Any], arrays: dict[str, np.ndarray], limit: int | None = None
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The base document and arrays brought up to the journal's last whole line that
    can be applied (at most `limit` lines).

    Lines of another base are skipped, never applied (a game that wrote into a folder it
    did not hold); a torn line, a gap in the numbers of this base's lines, a line that
    does not fit the base (`line_problem`) or whose rows file is missing or damaged ends
    the reading: what was committed before it is the save (the lines applied:
    `doc[APPLIED]`, and why it stopped: `doc[STOPPED]`). `journal_end` makes the same
    checks without the arrays, so the saves listing shows what this gives."""
    doc[APPLIED] = 0
    residents = _residents(doc)
    journal = read_journal(folder)
    doc[WRITTEN] = journal.written(doc.get("arrays"))
    doc[STOPPED] = journal.excess
    for line in journal.lines(doc.get("arrays")):
        if limit is not None and doc[APPLIED] >= limit:
            break
        rows, problem = _line_rows(folder, line, residents, _loaded_shapes)
        if problem:
            doc[STOPPED] = problem
            break
        try:
            _apply_line(doc, arrays, line, rows)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise LineDamaged(doc[APPLIED], _line_name(line, f"{type(exc).__name__}")) from exc
        doc[APPLIED] += 1
    return doc, arrays


def journal_end(folder: Path, doc: dict[str, Any]) -> JournalEnd:
    """How far loading would get through the journal of the base `doc`, making the
    checks `apply_journal` makes (each rows file read through against its checksums),
    but building no array: what the saves listing shows of an autosave (its clock, and
    what a damaged journal loses). It only checked that each rows file was there, so a
    truncated one was listed at a time loading never reached."""
    last, applied = None, 0
    residents = _residents(doc)
    journal = read_journal(folder)
    written = journal.written(doc.get("arrays"))
    for line in journal.lines(doc.get("arrays")):
        _, problem = _line_rows(folder, line, residents, _checked_shapes)
        if problem:
            return JournalEnd(last, applied, written, problem)
        last, applied = line, applied + 1
    return JournalEnd(last, applied, written, journal.excess)


def _residents(doc: dict[str, Any]) -> dict[str, tuple[int, Any]]:
    """Each resident of the base by name: its place in the arrays and its embeddings' width."""
    agents = doc.get("agents")
    out = {}
    for i, agent in enumerate(agents if isinstance(agents, list) else ()):
        if isinstance(agent, dict) and isinstance(agent.get("name"), str):
            memory = agent.get("memory")
            out[agent["name"]] = (i, memory.get("dim") if isinstance(memory, dict) else None)
    return out


def _loaded_shapes(path: Path) -> tuple[dict[str, np.ndarray], dict[str, tuple[int, ...]]]:
    rows = load_npz(path)
    return rows, {k: v.shape for k, v in rows.items()}


def _checked_shapes(path: Path) -> tuple[None, dict[str, tuple[int, ...]]]:
    return None, check_npz(path)


def _line_rows(folder: Path, line: dict, residents: dict, read) -> tuple[Any, str]:
    """A line's rows (as `read` gives them) and why the line cannot be applied ('')."""
    name = line.get("rows")
    if not isinstance(name, str) or not ROWS.fullmatch(name):
        return None, _line_name(line, "it names no rows file of ours")
    try:
        rows, shapes = read(folder / name)
    except FileNotFoundError:
        return None, _line_name(line, f"its rows file {name} is missing")
    except OSError as exc:  # no permission, an I/O error: what was before it still loads
        return None, _line_name(line, f"its rows file {name} cannot be read ({cause(exc)})")
    except (ValueError, MemoryError) as exc:
        return None, _line_name(line, f"its rows file {name} is damaged ({exc})")
    return rows, _line_name(line, line_problem(line, residents, shapes))


def _line_name(line: dict, problem: str) -> str:
    return f"autosave {line.get('increment')} of the journal: {problem}" if problem else ""


def line_problem(line: dict, residents: dict, shapes: dict[str, tuple[int, ...]]) -> str:
    """Why a journal line does not fit its base ('' when it does): its keys and their
    types, its clock, and for each resident in it, the rows its file holds. Valid JSON
    of the wrong types (`"agents": 5`) made loading fail whole, while the listing
    showed the line's time."""
    from game.sim.saves import clock_problem

    missing = [k for k in (*LINE_KEYS, "agents", "log_from", "log") if k not in line]
    if missing:
        return f"it lacks {', '.join(missing)}"
    problem = clock_problem(line["clock"])
    if problem:
        return problem
    for key in TABLES:
        if key not in line and not _delta_ok(line.get(f"{key}_delta")):
            return f"its {key} are not a table"
    if not _index(line["log_from"]) or not isinstance(line["log"], list):
        return "its event log is not a list"
    if not isinstance(line["agents"], list):
        return "its residents are not a list"
    for part in line["agents"]:
        problem = _part_problem(part, residents, shapes)
        if problem:
            return problem
    return ""


def _part_problem(part: Any, residents: dict, shapes: dict[str, tuple[int, ...]]) -> str:
    """Why one resident's part of a line does not fit ('' when it does)."""
    name = part.get("name") if isinstance(part, dict) else None
    if not isinstance(name, str) or name not in residents:
        return "it names a resident the save does not have"
    shown = clean_line(name, 64)
    if not _index(part.get("from")) or any(not isinstance(part.get(k), list) for k in PART_KEYS):
        return f"{shown}'s new memories are not lists from a row"
    if "state" in part and not isinstance(part["state"], dict):
        return f"{shown}'s state is not a table"
    if "state_delta" in part and not _delta_ok(part["state_delta"]):
        return f"{shown}'s state change is not a table"
    n = len(part["texts"])
    i, dim = residents[name]
    if any(len(part[k]) != n for k in PART_KEYS):
        return f"{shown}'s new memories differ in length"
    for key in (*ROW_KEYS, "accessed"):
        shape = shapes.get(f"a{i}_{key}")
        if shape is None or shape[:1] != (n,):
            return f"its rows file does not hold {shown}'s {n} new {key} rows"
    embeddings = shapes[f"a{i}_embeddings"]
    if isinstance(dim, int) and (len(embeddings) != 2 or embeddings[1] != dim):
        return f"{shown}'s new embeddings are not {dim} wide"
    touched, at = shapes.get(f"a{i}_touched"), shapes.get(f"a{i}_touched_at")
    if touched is None or at is None or len(touched) != 1 or touched != at:
        return f"its rows file does not hold {shown}'s access times"
    return ""


def _index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _delta_ok(change: Any, depth: int = 4) -> bool:
    """Whether `patched` can apply a line's change (`delta` nests three tables down)."""
    if not isinstance(change, dict) or not isinstance(change.get("set"), dict):
        return False
    gone, patch = change.get("gone") or [], change.get("patch") or {}
    if not isinstance(gone, list) or not all(isinstance(k, str) for k in gone):
        return False
    if not isinstance(patch, dict) or (patch and depth == 0):
        return False
    return all(_delta_ok(sub, depth - 1) for sub in patch.values())


MAX_LINES = 1000  # journal lines worth reading: a base gets at most MAX_INCREMENTS of ours


@dataclass(frozen=True)
class Journal:
    """The journal as it was at one read: its first MAX_LINES whole lines, each parsed
    once (None: a damaged line), and how many whole lines it held. What is applied and
    what is counted as written come from the same read: read twice, a line a game
    appended in between was counted as written and not applied ('its autosave journal
    is damaged' in 6 of 764 listings beside a game autosaving). Lines past MAX_LINES
    are not parsed: 1.5 million planted one-line entries made `saves` take 21 s."""

    entries: tuple[dict[str, Any] | None, ...]
    total: int

    def lines(self, base: Any):
        """The lines of `base`, numbered 1, 2, ... in order, up to a gap or a damaged
        line; lines of any other base are passed over."""
        expected = 1
        for line in self.entries:
            if line is None:
                return
            if line.get("base") != base:
                continue
            if line.get("increment") != expected:
                return
            yield line
            expected += 1

    def written(self, base: Any) -> int:
        """How many autosaves it holds for `base`: its lines of that base and any damaged
        line (whose base cannot be told); a last line mid-append is none."""
        past = self.total - len(self.entries)
        return past + sum(x is None or x.get("base") == base for x in self.entries)

    @property
    def excess(self) -> str:
        """Why lines past the first MAX_LINES are not read ('' when there are none)."""
        if self.total <= MAX_LINES:
            return ""
        return f"the journal holds {self.total} lines, more than autosaves write ({MAX_LINES})"


def read_journal(folder: Path) -> Journal:
    """The journal now (an empty one when there is none). A journal larger than a save
    may be, or no file, is damaged (ValueError); OSError passes through."""
    path = folder / JOURNAL
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a link to /dev/zero, a pipe: no end
            raise ValueError("the journal is not a file (a device, a pipe or a folder)")
        if st.st_size > MAX_DOCUMENT:  # said without reading it
            raise ValueError(f"the journal is larger than a save can be ({MAX_DOCUMENT} bytes)")
        with path.open("rb") as f:
            data = f.read(st.st_size)  # what it held then; a line added since is for later
    except FileNotFoundError:  # none, or removed by a new base as we read
        return Journal((), 0)
    raw = data.split(b"\n")[:-1]  # whole lines only: the last may be mid-append
    return Journal(tuple(_line(x) for x in raw[:MAX_LINES]), len(raw))


def journal_rows(folder: Path) -> list[str]:
    """The rows files the journal names (ours to remove when a new base replaces them)."""
    try:
        entries = read_journal(folder).entries
    except (OSError, ValueError):
        return []
    names = []
    for line in entries:  # up to the first damaged line, as loading reads them
        if line is None:
            break
        names.append(str(line.get("rows", "")))
    return [n for n in names if ROWS.fullmatch(n)]


def _line(raw: bytes) -> dict[str, Any] | None:
    if not raw.strip():
        return None
    try:
        line = bounded_loads(raw.decode("utf-8"), MAX_DEPTH)
    except (UnicodeDecodeError, ValueError):
        return None
    return line if isinstance(line, dict) else None


def _apply_line(doc: dict, arrays: dict[str, np.ndarray], line: dict, rows: dict) -> None:
    for key in ("saved_at", "clock", "steps", "visitor", "chats", "usage"):
        doc[key] = line[key]
    for key in TABLES:  # a line before deltas held the whole table
        doc[key] = line[key] if key in line else patched(doc.get(key, {}), line[f"{key}_delta"])
    for key in NOTICE_KEYS:  # absent from lines written before there were notices
        if key in line:
            doc[key] = line[key]
    by_name = {a["name"]: (i, a) for i, a in enumerate(doc["agents"])}
    for part in line["agents"]:
        i, agent = by_name[part["name"]]
        start = int(part["from"])
        if "state" in part:
            agent["state"] = part["state"]
        elif "state_delta" in part:
            agent["state"] = patched(agent["state"], part["state_delta"])
        memory = agent["memory"]
        for key in ("kinds", "texts", "facts", "evidence"):
            memory[key] = memory[key][:start] + part[key]
        for key in ROW_KEYS:
            arrays[f"a{i}_{key}"] = np.concatenate(
                [arrays[f"a{i}_{key}"][:start], rows[f"a{i}_{key}"]]
            )
        accessed = np.array(arrays[f"a{i}_accessed"][:start])
        accessed[rows[f"a{i}_touched"]] = rows[f"a{i}_touched_at"]
        arrays[f"a{i}_accessed"] = np.concatenate([accessed, rows[f"a{i}_accessed"]])
    doc["log"] = doc["log"][: int(line["log_from"])] + line["log"]


# -- the autosaver the window runs --------------------------------------------------------
@dataclass(frozen=True)
class Report:
    """What the toast says about one autosave (`brief`: routine, gone in a moment)."""

    text: str
    ok: bool
    brief: bool = True


def autosave_names(count: int = MAX_WINDOWS) -> list[str]:
    """The names the game windows autosave under, in the order they are taken."""
    return [AUTOSAVE, *(f"{AUTOSAVE}-{n}" for n in range(2, count + 1))]


def claim_autosave(root: Path | str | None = None) -> Claim:
    """The first autosave folder no other game holds, held for this game. SaveError when
    every name is taken (or the first free one is not a folder of ours)."""
    for name in autosave_names():
        held = claim(save_path(name, root))
        if held is not None:
            return held
    folder = save_path(AUTOSAVE, root).parent
    raise SaveError(folder, "every autosave name is in use by other games")


class Autosaver:
    """Every `minutes` of game time: a snapshot now, the writing on a background thread.

    At most one write is in flight; a due autosave waits for the previous one to finish
    (it is then taken from the newer state), so a slow disk never queues up work. The
    folder is taken at the first tick with autosave on (on the writer's thread: a name
    another game holds costs a second's wait) and held until `close`, so a second window
    learns at once that it autosaves under another name."""

    def __init__(self, sim, minutes: int, root: Path | str | None = None) -> None:
        self.sim, self.minutes = sim, minutes
        self.last = sim.now
        self._root = root
        self._writer: IncrementalWriter | None = None
        self._claim: Claim | None = None  # the autosave folder this game holds
        self._pool: ThreadPoolExecutor | None = None
        self._taking: Future | None = None  # the folder being taken
        self._future: Future | None = None  # the write in flight
        self.written: list[Written] = []
        self.snapshot_ms: list[float] = []

    @property
    def enabled(self) -> bool:
        return self.minutes > 0 and not self.sim.recorded

    @property
    def name(self) -> str:
        """The save this game autosaves under ('' until it has taken one)."""
        return self._claim.folder.name if self._claim is not None else ""

    def holds(self, folder: Path) -> bool:
        """Whether `folder` is the autosave folder this game holds (its lock is ours for
        the game, so any other writer there, this game's F5 included, would wait on it)."""
        return self._claim is not None and self._claim.holds(folder)

    def now(self) -> bool:
        """An autosave at once (F5 into this game's own autosave folder); False while one
        is still being written, whose report comes as usual."""
        if not self.enabled or self._future is not None:
            return False
        self.start()
        return True

    def due(self) -> bool:
        elapsed = (self.sim.now - self.last).total_seconds()
        return self.enabled and elapsed >= self.minutes * 60

    def tick(self) -> list[Report]:
        """Called once a frame: the reports of finished work, and a new write if due."""
        reports = self._taken() + self._finished()
        if self.enabled and self._pool is None:
            self._begin()
        if self.due() and self._future is None:
            self.start()
        return reports

    def start(self) -> None:
        """Take the snapshot now (on this thread) and write it on the writer's thread."""
        import time

        began = time.perf_counter()
        snap = snapshot(self.sim)
        self.snapshot_ms.append((time.perf_counter() - began) * 1000)
        self.last = self.sim.now
        if self._pool is None:
            self._begin()
        assert self._pool is not None
        self._future = self._pool.submit(self._write, snap)

    def _begin(self) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="autosave")
        self._taking = self._pool.submit(self._take)

    def _take(self) -> None:
        """On the writer's thread: the first autosave name no other game holds (SaveError
        when none is free; the next write tries again and says so)."""
        if self._writer is None:
            self._claim = claim_autosave(self._root)
            self._writer = IncrementalWriter(self._claim.folder, self._claim)

    def _write(self, snap: Snapshot) -> Written:
        self._take()
        assert self._writer is not None
        return self._writer.write(snap)

    def _taken(self) -> list[Report]:
        """Once the folder is taken: a notice that stays, if it is not `autosave`."""
        future = self._taking
        if future is None or not future.done():
            return []
        self._taking = None
        if future.exception() is not None or self.name in ("", AUTOSAVE):
            return []  # a failure is said by the write that needs the folder
        return [Report(another_game(self.name), True, brief=False)]

    def _finished(self) -> list[Report]:
        future = self._future
        if future is None or not future.done():
            return []
        self._future = None
        exc = future.exception()
        if exc is not None:
            if self._writer is not None:
                self._writer.mark = None  # the next autosave starts again from a base
            return [Report(f"Autosave failed: {exc}", False)]
        written: Written = future.result()
        self.written.append(written)
        shown = "" if self.name == AUTOSAVE else f" as {self.name}"
        return [Report(f"Autosaved {fmt_time(written.clock)}{shown}", True)]

    def wait(self) -> list[Report]:
        """Finish the work in flight (tests, the benchmark, closing the window)."""
        for future in (self._taking, self._future):
            if future is not None:
                future.exception()
        return self._taken() + self._finished()

    def close(self) -> None:
        """Finish the write in flight and let go of the folder (another game may take it)."""
        self.wait()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._claim is not None:
            self._claim.release()


def another_game(name: str) -> str:
    """What a window says when another game already autosaves under `autosave`."""
    return f"Another game is autosaving as {AUTOSAVE}: this one autosaves as {name}."
