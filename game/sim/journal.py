"""Reading an autosave's journal: which of its lines fit their base and can be applied,
and applying them to the base's document and arrays (the writer is game/sim/autosave.py).

Kept apart from the writer because loading and the saves listing need only this side,
and both must make the same checks: `apply_journal` builds the arrays, `journal_end`
reads each rows file through against its checksums and builds none, so what the listing
shows is what `--load` gives.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from game.core.files import cause
from game.core.text import bounded_loads
from game.core.text import single_line as clean_line
from game.sim.archives import check_npz, load_npz
from game.sim.saves import JOURNAL, MAX_DEPTH, MAX_DOCUMENT, ROWS

ROW_KEYS = ("created", "importance", "embeddings")
NOTICE_KEYS = ("notices", "notices_read")  # game/sim/player.py `notice_state`
TABLES = ("objects", "object_setters")  # a journal line keeps only their changes
APPLIED = "journal_applied"  # lines applied, for saves.read_save to say what was not
WRITTEN = "journal_written"  # the lines of the base the journal held, damaged ones too


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
