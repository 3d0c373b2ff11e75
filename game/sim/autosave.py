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
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from game.core.clock import fmt_time
from game.core.codec import encode
from game.mind.memory import KINDS, MemoryView
from game.sim.journal import (  # noqa: F401 - the reading side, named here as before
    APPLIED,
    LINE_KEYS,
    MAX_LINES,
    NOTICE_KEYS,
    ROW_KEYS,
    STOPPED,
    TABLES,
    WRITTEN,
    Journal,
    JournalEnd,
    LineDamaged,
    apply_journal,
    journal_end,
    journal_rows,
    line_problem,
    patched,
    read_journal,
)
from game.sim.saves import (
    DOCUMENT,
    JOURNAL,
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


_MISSING = object()


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
