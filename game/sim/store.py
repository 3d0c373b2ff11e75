"""The results store: every run of every study in one SQLite file.

SQLite because it is in the standard library (no dependency for a few hundred rows),
one file a researcher can copy or open in any tool, and transactional: each run is
committed the moment it is in, so a study stopped by Ctrl+C, a dead node or a full disk
keeps every run it finished, and the next study resumes from there. WAL journaling lets
`results` read while a study is still writing. DuckDB would read faster over millions of
rows, but a study has hundreds, and it would add a 30 MB dependency.

Tables: `runs` (one row per run: its condition, seed, status, error, attempts, wall time,
the project's version and git commit), `measures` (one row per run and measure),
`evaluations` (each run's whole evaluation JSON, compressed, for `--report`), and the
view `rows` (one row per run and measure with every column of its run: what `--csv
--raw` exports).
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from game.core.errors import FileProblem, SmallvilleError
from game.sim.runs import Measure, RunResult, RunSpec, Setup

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY, condition TEXT NOT NULL, scenario TEXT NOT NULL,
    brain TEXT NOT NULL, hours REAL NOT NULL, ablate TEXT NOT NULL, seed INTEGER NOT NULL,
    repeat INTEGER NOT NULL, status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error TEXT NOT NULL, attempts INTEGER NOT NULL, wall_seconds REAL NOT NULL,
    version TEXT NOT NULL, git_commit TEXT, engine TEXT NOT NULL, finished_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS measures (
    run_key TEXT NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
    position INTEGER NOT NULL, measure TEXT NOT NULL, method TEXT NOT NULL, paper REAL,
    value REAL NOT NULL, PRIMARY KEY (run_key, measure)
);
CREATE TABLE IF NOT EXISTS evaluations (
    run_key TEXT PRIMARY KEY REFERENCES runs (key) ON DELETE CASCADE, json BLOB NOT NULL
);
CREATE VIEW IF NOT EXISTS rows AS
    SELECT r.condition, r.scenario, r.brain, r.hours, r.ablate, r.seed, r.repeat,
           m.measure, m.value, m.paper, m.method, r.wall_seconds, r.version, r.git_commit,
           r.engine, r.finished_at, r.key AS run_key
    FROM runs r JOIN measures m ON m.run_key = r.key
    ORDER BY r.key, m.position;
"""


@dataclass(frozen=True)
class Provenance:
    """What made a run: the project's version, its git commit when known, the engine."""

    version: str
    git_commit: str | None
    engine: str


@dataclass(frozen=True)
class StoredRun:
    """A run as the store holds it."""

    spec: RunSpec
    ok: bool
    error: str
    attempts: int
    wall_seconds: float
    measures: tuple[Measure, ...]

    @property
    def setup(self) -> Setup:
        return self.spec.setup

    @property
    def seed(self) -> int:
        return self.spec.seed


class Store:
    """One SQLite file of runs. Open with `Store.open(path)`; close when done."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db

    @classmethod
    def open(cls, path: str | Path, create: bool = True) -> Store:
        """The store at `path` (made when missing and `create`); a file that is not a
        store, or one from a newer version, is one clear line."""
        path = Path(path)
        if not create and not path.is_file():
            raise SmallvilleError(f"no results store at {path}")
        try:
            db = sqlite3.connect(path, timeout=30, isolation_level=None)
            store = cls(path, db)
            store._prepare()
        except sqlite3.DatabaseError as exc:
            raise _problem(path, exc) from None
        return store

    def _prepare(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise SmallvilleError(
                f"{self.path} is a results store of a newer version ({version}): "
                "update the game to read it"
            )
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        script = f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;"
        self.db.executescript(script)  # its own transaction: executescript commits first

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _transaction(self):
        """BEGIN ... COMMIT (or ROLLBACK on any error), since autocommit is on."""
        return _Transaction(self.db)

    def held(self) -> set[str]:
        """The keys of the runs this store holds that succeeded."""
        rows = self.db.execute("SELECT key FROM runs WHERE status = 'ok'")
        return {key for (key,) in rows}

    def put(self, result: RunResult, made: Provenance) -> None:
        """One run, committed at once: it replaces whatever the store held for its key."""
        s = result.spec
        now = datetime.now(UTC).isoformat(timespec="seconds")
        row = (s.key, s.setup.label, s.setup.scenario, s.setup.brain, s.setup.hours,
               s.setup.ablate, s.seed, s.repeat, "ok" if result.ok else "failed",
               result.error, result.attempts, round(result.wall_seconds, 3), made.version,
               made.git_commit, made.engine, now)  # fmt: skip
        try:
            with self._transaction():
                self.db.execute("DELETE FROM runs WHERE key = ?", (s.key,))
                self.db.execute(f"INSERT INTO runs VALUES ({', '.join('?' * len(row))})", row)
                self.db.executemany(
                    "INSERT INTO measures VALUES (?, ?, ?, ?, ?, ?)",
                    [(s.key, i, m.name, m.method, m.paper, m.value)
                     for i, m in enumerate(result.measures)],
                )  # fmt: skip
                if result.evaluation is not None:
                    blob = zlib.compress(json.dumps(result.evaluation).encode())
                    self.db.execute("INSERT INTO evaluations VALUES (?, ?)", (s.key, blob))
        except sqlite3.DatabaseError as exc:
            raise _problem(self.path, exc) from None

    def runs(self, keys: Iterable[str] | None = None) -> list[StoredRun]:
        """The runs held (only `keys`, when given), sorted by key."""
        wanted = None if keys is None else set(keys)
        measures = self._measures()
        out = []
        for row in self.db.execute(
            "SELECT key, scenario, brain, hours, ablate, seed, repeat, status, error, "
            "attempts, wall_seconds FROM runs ORDER BY key"
        ):
            if wanted is not None and row[0] not in wanted:
                continue
            spec = RunSpec(Setup(row[1], row[2], row[3], row[4]), row[5], row[6])
            out.append(StoredRun(spec, row[7] == "ok", row[8], row[9], row[10],
                                 tuple(measures.get(row[0], ()))))  # fmt: skip
        return out

    def _measures(self) -> dict[str, list[Measure]]:
        out: dict[str, list[Measure]] = {}
        for key, name, method, paper, value in self.db.execute(
            "SELECT run_key, measure, method, paper, value FROM measures "
            "ORDER BY run_key, position"
        ):
            out.setdefault(key, []).append(Measure(name, method, paper, value))
        return out

    def evaluation(self, key: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT json FROM evaluations WHERE run_key = ?", (key,))
        found = row.fetchone()
        return None if found is None else json.loads(zlib.decompress(found[0]))

    def raw_rows(self) -> tuple[list[str], Iterator[tuple]]:
        """The `rows` view: its column names and its rows."""
        cursor = self.db.execute("SELECT * FROM rows")
        return [d[0] for d in cursor.description], iter(cursor)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, exc, tb) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _problem(path: Path, exc: sqlite3.DatabaseError) -> SmallvilleError:
    """A store that cannot be used, in one line: a full disk or locked folder is a file
    problem (exit 1); a file that is not SQLite says so."""
    text = str(exc)
    if "full" in text:
        return FileProblem(path, "the disk is full (no space left on device)")
    if "not a database" in text or "malformed" in text:
        return SmallvilleError(f"{path} is not a results store ({text})")
    return FileProblem(path, text)


def provenance(engine: str) -> Provenance:
    """This checkout's version and git commit (None outside a git checkout)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("smallville")
    except PackageNotFoundError:
        ours = "unknown"
    return Provenance(ours, git_commit(), engine)


def git_commit() -> str | None:
    """HEAD of the git checkout this code is in (None when it is not in one)."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return head or None
