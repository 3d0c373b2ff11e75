"""Saves: one folder per save, a versioned JSON document plus an .npz of memory arrays.

Writing never leaves a half-written save: the arrays go to a new generation file, then the
JSON document (which names that file) replaces the old one with an atomic rename, the
commit point. A crash at any moment leaves either the old save or the new one, whole.
Loading never writes anything; a damaged or foreign file gives one SaveError line.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from game.core.codec import decode, encode
from game.core.config import DEFAULT_WORKERS, data_dir
from game.core.errors import SmallvilleError, clip
from game.core.mind_settings import MindSettings
from game.core.text import bounded_loads
from game.core.text import single_line as clean_line
from game.mind.memory import MemoryStream
from game.sim.archives import load_npz
from game.sim.events import Event, EventKind
from game.sim.player import Visitor
from game.sim.simulation import ClockMode, SimConfig
from game.sim.upgrade import upgrade_memory

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

FORMAT = "smallville-save"
VERSION = 3
DOCUMENT = "save.json"
_NAME = re.compile(r"^[A-Za-z0-9 _-]{1,64}$")
_ARRAYS = re.compile(r"memories-[\w.-]{1,80}\.npz")
ROWS = re.compile(r"rows-\d{4}\.npz")  # an incremental autosave's new rows
JOURNAL = "journal.jsonl"  # and the lines naming them (game/sim/autosave.py)
TMP = ".tmp-smallville-"  # our half-written files: nobody else's are ever removed
LOCK = ".lock"
MAX_DOCUMENT = 512 * 1024 * 1024  # bytes of save.json worth reading
MAX_DEPTH = 64  # nesting levels of save.json (ours need about ten)
LOCK_WAIT = 10.0  # seconds a second writer waits for the first before it is refused


class SaveError(SmallvilleError):
    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(f"{path}: {clip(problem)}")
        self.path, self.problem = str(path), problem


@dataclass(frozen=True)
class SaveInfo:
    name: str
    scenario: str
    game_time: str
    brain: str
    size_bytes: int
    saved_at: str
    visitor: str = ""  # the visitor's name in that game ('' if none)


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
    """The folder of a save name. A name is a name, never a path: anything else is refused."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or not name.strip():
        shown = clean_line(str(name), 70)
        raise SaveError(
            repr(shown), "a save name uses letters, digits, spaces, '_' or '-' (at most 64)"
        )
    return saves_root(root) / name


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
def writing(folder: Path):
    """The rules of every writer into a save folder (a save, the autosave ring, the
    incremental autosave): only into a folder of ours, under its lock, and any OSError
    (a full disk, a read-only folder) one SaveError line."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _refuse_foreign(folder)
        with _locked(folder):
            yield folder
    except OSError as exc:
        raise SaveError(folder, f"cannot write the save: {exc.strerror or exc}") from None


def _write_save(sim, folder: Path) -> Path:
    previous = arrays_named(folder / DOCUMENT)
    generation = datetime.now().strftime("%Y%m%dT%H%M%S%f")
    arrays_name = f"memories-{generation}.npz"
    doc, arrays = game_state(sim)
    doc["arrays"] = arrays_name
    write_atomic(folder / arrays_name, lambda f: np.savez(f, **arrays))
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    try:
        write_atomic(folder / DOCUMENT, lambda f: f.write(text.encode("utf-8")))
    except BaseException:
        (folder / arrays_name).unlink(missing_ok=True)  # ours, and named by nothing
        raise
    if previous and previous != arrays_name:
        (folder / previous).unlink(missing_ok=True)
    return folder


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
        except SaveError:
            doc = None
        if isinstance(doc, dict) and doc.get("format") == FORMAT:
            return
    if not all(is_ours(n) for n in entries):
        raise SaveError(folder, "this folder holds files that are not a Smallville save")


def is_ours(name: str) -> bool:
    """A file name only we write into a save folder (save.json needs its format too)."""
    return bool(
        _ARRAYS.fullmatch(name)
        or ROWS.fullmatch(name)
        or name in (JOURNAL, LOCK)
        or name.startswith(TMP)
    )


@contextmanager
def _locked(folder: Path, wait: float = LOCK_WAIT):
    """The save's own lock: one writer at a time, across processes."""
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        end = time.monotonic() + wait
        while not _try_lock(fd):
            if time.monotonic() >= end:
                raise SaveError(folder, "another game is saving under this name; try again")
            time.sleep(0.05)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


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


def game_state(sim) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The document and the arrays. Decisions still in flight are dropped: the agents
    simply ask again after loading (lockstep runs have none between steps)."""
    sim.settle_memories()
    arrays: dict[str, np.ndarray] = {}
    agents = []
    for i, name in enumerate(sorted(sim.agents)):
        agent = sim.agents[name]
        memory_doc, memory_arrays = agent.memory.get_state()
        for key, value in memory_arrays.items():
            arrays[f"a{i}_{key}"] = value
        agents.append({"name": name, "state": agent.get_state(), "memory": memory_doc})
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "saved_at": datetime.now().isoformat(timespec="seconds"),
        "scenario": sim.scenario.path,
        "scenario_name": sim.scenario.name,
        "seed": sim.config.seed,
        "brain": sim.mind.brain.name,
        "embedder": {"name": sim.mind.embedder.name, "dim": sim.mind.embedder.dim},
        "clock": sim.now.isoformat(),
        "steps": sim.steps,
        "objects": dict(sim.town.states),
        "object_setters": dict(sim.state_by),
        "visitor": encode(sim.visitor),
        "chats": encode(sim.chats),
        **sim.player.notice_state(),
        "usage": sim.usage(),
        "agents": agents,
        "log": [e.to_dict() for e in sim.log.events],
    }
    return doc, arrays


# -- reading ---------------------------------------------------------------------------


def read_save(name: str, root: Path | str | None = None) -> tuple[dict, dict[str, np.ndarray]]:
    """The checked, upgraded document and its arrays; never writes."""
    folder = save_path(name, root)
    path = folder / DOCUMENT
    if not path.is_file():
        raise SaveError(folder, "no save here (save.json is missing)")
    doc = _read_document(path)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(path, "not a Smallville save")
    try:
        doc = upgrade(doc, path)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SaveError(path, f"damaged: cannot upgrade ({type(exc).__name__}: {exc})") from exc
    arrays = _read_arrays(folder, doc, path)
    from game.sim.autosave import apply_journal

    try:  # an autosave's journal: the changes written after its base (game/sim/autosave.py)
        return apply_journal(folder, doc, arrays)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as exc:
        raise SaveError(path, f"damaged journal ({type(exc).__name__}: {exc})") from exc


def _read_document(path: Path) -> Any:
    """save.json parsed with limits on size and depth: past them it counts as damaged."""
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT:
            raise SaveError(path, f"damaged: {size} bytes is more than a save can be")
        return bounded_loads(path.read_text(encoding="utf-8"), MAX_DEPTH)
    except OSError as exc:
        raise SaveError(path, f"cannot read: {exc.strerror or exc}") from None
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
    except (OSError, ValueError, MemoryError) as exc:
        raise SaveError(folder / name, f"damaged memory arrays ({exc})") from exc


def upgrade(doc: dict, path: Path) -> dict:
    """Bring an older save up to the current version, one step at a time."""
    version = doc.get("version")
    if not isinstance(version, int) or version < 1:
        raise SaveError(path, f"unknown save version {version!r}")
    if version > VERSION:
        raise SaveError(path, f"save version {version} is newer than this game ({VERSION})")
    while doc["version"] < VERSION:
        doc = UPGRADES[doc["version"]](doc)
    return doc


def _v1_to_v2(doc: dict) -> dict:
    """Version 1 kept positions as {"x", "y"} and had no event log, visitor or chats."""
    out = dict(doc)
    for agent in out.get("agents", []):
        state = agent.get("state", {})
        if isinstance(state.get("pos"), dict):
            state["pos"] = [state["pos"]["x"], state["pos"]["y"]]
    out.setdefault("log", [])
    out.setdefault("visitor", None)
    out.setdefault("chats", {})
    out.setdefault("object_setters", {})
    out["version"] = 2
    return out


def _v2_to_v3(doc: dict) -> dict:
    """Version 2 kept a memory's text and who said it; version 3 keeps its fields."""
    out = dict(doc)
    for agent in out.get("agents", []):
        memory = agent.get("memory")
        if isinstance(memory, dict) and "facts" not in memory:
            agent["memory"] = upgrade_memory(agent.get("name", ""), memory)
    out["version"] = 3
    return out


UPGRADES: dict[int, Callable[[dict], dict]] = {1: _v1_to_v2, 2: _v2_to_v3}


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
        sim = build_simulation(doc["scenario"], seed=seed, brain=chosen, config=config, **options)
        restore(sim, doc, arrays, path)
    except SaveError:
        raise
    except SmallvilleError as exc:
        raise SaveError(path, str(exc)) from exc
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SaveError(path, f"damaged: {type(exc).__name__}: {exc}") from exc
    return sim


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


def restore(sim, doc: dict, arrays: dict[str, np.ndarray], path: Path | str = "save") -> None:
    embedder = doc["embedder"]
    if embedder != {"name": sim.mind.embedder.name, "dim": sim.mind.embedder.dim}:
        raise SaveError(
            path,
            f"made by the {clean_line(str(doc.get('brain')), 20)} brain with embedder "
            f"{clean_line(str(embedder), 80)}; these settings give the {sim.mind.brain.name} "
            f"brain with embedder {sim.mind.embedder.name} ({sim.mind.embedder.dim}): "
            "memories of two embedders cannot be mixed (check --base-url and --embed-model)",
        )
    sim.clock.now = datetime.fromisoformat(doc["clock"])
    sim.steps = int(doc["steps"])
    sim.scheduler.step = sim.steps
    for address, state in doc["objects"].items():
        if address in sim.town.states:
            sim.town.states[address] = str(state)
    sim.state_by = {str(k): str(v) for k, v in doc.get("object_setters", {}).items()}
    saved = {a["name"]: a for a in doc["agents"]}
    if set(saved) != set(sim.agents):
        raise ValueError("the save's residents differ from its scenario's")
    for i, name in enumerate(sorted(sim.agents)):
        agent = sim.agents[name]
        agent.set_state(saved[name]["state"])
        keys = ("created", "accessed", "importance", "embeddings")
        agent.memory = MemoryStream.from_state(
            saved[name]["memory"], {k: arrays[f"a{i}_{k}"] for k in keys}
        )
    sim.visitor = decode(Visitor | None, doc.get("visitor"))
    from game.core.records import Utterance

    sim.chats = decode(dict[str, list[Utterance]], doc.get("chats", {}))
    sim.player.restore_notices(doc)
    sim.log.events = [_event(e) for e in doc.get("log", [])]
    restore_usage = getattr(sim.mind.brain, "restore_usage", None)
    if callable(restore_usage):
        restore_usage(doc.get("usage", {}))


def _event(raw: dict) -> Event:
    return Event(
        datetime.fromisoformat(raw["time"]),
        EventKind(raw["kind"]),
        str(raw["agent"]),
        str(raw["text"]),
        dict(raw.get("data", {})),
    )


# -- listing, autosave -------------------------------------------------------------------


def list_saves(root: Path | str | None = None) -> list[SaveInfo]:
    base = saves_root(root)
    out = []
    for folder in sorted(base.iterdir() if base.is_dir() else []):
        path = folder / DOCUMENT
        if not path.is_file():
            continue
        try:
            size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
            doc = _read_document(path)
            if not isinstance(doc, dict):
                raise ValueError("not a save")
            info = SaveInfo(
                folder.name,
                clean_line(str(doc.get("scenario_name", "?")), 60),
                clean_line(str(doc.get("clock", "?")), 60),
                clean_line(str(doc.get("brain", "?")), 60),
                size,
                clean_line(str(doc.get("saved_at", "?")), 60),
                clean_line(_visitor_name(doc), 60),
            )
        except (OSError, ValueError, SaveError):
            info = SaveInfo(folder.name, "(damaged)", "?", "?", 0, "?")
        out.append(info)
    return out


def _visitor_name(doc: dict) -> str:
    visitor = doc.get("visitor")
    return str(visitor.get("name", "")) if isinstance(visitor, dict) else ""


def autosave(sim, root: Path | str | None = None, keep: int = 3) -> Path:
    """A small ring: autosave is the newest, autosave-1 the one before, and so on.

    Folders move only when they hold one of our saves, under their lock; the oldest goes
    file by file, and only the files a save writes (anything else stays, and so does the
    folder)."""
    folders = [name_folder("autosave" if i == 0 else f"autosave-{i}", root) for i in range(keep)]
    remove_save(folders[-1])
    for src, dst in zip(reversed(folders[:-1]), reversed(folders[1:]), strict=True):
        if src.is_dir() and not dst.exists():
            with writing(src):
                src.rename(dst)
    return save_game(sim, "autosave", root)


def remove_save(folder: Path) -> None:
    """Delete a save of ours: the files it names (its arrays, an autosave's journal and
    rows), then the folder if nothing else is left. Strays stay, even named like ours."""
    from game.sim.autosave import journal_rows

    if not folder.is_dir():
        return
    with writing(folder):
        named = [arrays_named(folder / DOCUMENT), *journal_rows(folder), JOURNAL, DOCUMENT]
        for name in filter(None, named):
            (folder / name).unlink(missing_ok=True)
    try:
        (folder / LOCK).unlink(missing_ok=True)
        folder.rmdir()
    except OSError:
        pass  # someone else's files are still there: they stay
