"""Shared test set-up: no window, no sound card, no network, a data folder of the run's
own; the bundled map read once."""

import atexit
import copy
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# One process per core already (pytest-xdist): numpy's BLAS threads on top of them only
# fight for the cores, spinning while they wait. With both cores busy a sentence model's
# forward pass took a second instead of 15 ms. Set before numpy loads; the programs the
# tests start inherit it.
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")
# Saves and autosaves a test makes without naming a folder land here, never in the user's
# data folder, and each process of a parallel run (pytest-xdist) has its own.
_DATA = tempfile.mkdtemp(prefix="smallville-data-")
os.environ["SMALLVILLE_DATA"] = _DATA
atexit.register(shutil.rmtree, _DATA, ignore_errors=True)
# Where the environment says not to write bytecode (PYTHONDONTWRITEBYTECODE), every program
# a test starts (main.py, a study's pool workers, Ray's workers) compiled the game's modules
# from source again: about 1 s of CPU of a 2 s `main.py interview`. The run keeps their
# bytecode in a folder of its own instead, never beside the sources, and removes it at the
# end; the processes it starts (pytest-xdist's workers too) inherit the folder.
if sys.dont_write_bytecode and not os.environ.get("PYTHONPYCACHEPREFIX"):
    _PYC = tempfile.mkdtemp(prefix="smallville-pyc-")
    os.environ["PYTHONPYCACHEPREFIX"] = _PYC
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.pycache_prefix, sys.dont_write_bytecode = _PYC, False
    atexit.register(shutil.rmtree, _PYC, ignore_errors=True)
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import game.world.tmx as _tmx  # noqa: E402
from game.core.paths import MAPS  # noqa: E402

_read_town = _tmx.load_town
_towns: dict[tuple, object] = {}


def _bundled_key(path) -> tuple | None:
    """A key for a map in the bundled maps folder, changing with any file there (the map
    and its tileset); None for any other map (the tests' own, damaged or generated)."""
    try:
        resolved = Path(path).resolve()
    except (OSError, TypeError, ValueError):
        return None
    if resolved.parent != MAPS.resolve() or not resolved.is_file():
        return None
    files = sorted(MAPS.iterdir())
    return (str(path), *((f.name, f.stat().st_mtime_ns, f.stat().st_size) for f in files))


def _load_town_once(path):
    """Almost every test builds a town from the bundled map, and parsing it is most of what
    building a simulation costs; it never changes during a run, so it is parsed once and
    each caller gets its own deep copy (a town's object states are changed by the tests).
    Any other map is read afresh each time, so tests of the reader still read."""
    key = _bundled_key(path)
    if key is None:
        return _read_town(path)
    if key not in _towns:
        _towns[key] = _read_town(path)
    return copy.deepcopy(_towns[key])


_load_town_once.__wrapped__ = _read_town
_tmx.load_town = _load_town_once

# The files that take longest, longest first (per-file CPU and wall time of a 2-core run,
# pytest-xdist; 2026-12-02). With `--dist loadfile` a file is one unit of work, handed out
# in collection order; a long file handed out last keeps its worker busy while the other
# has nothing left to do.
LONG_FILES = (
    "sim/test_any_event.py",
    "sim/test_study_ray.py",  # most of it waits on a two-node Ray cluster starting
    "brains/test_llm_run.py",
    "test_faults.py",
    "test_cli.py",
    "test_hostile_endpoints.py",
    "test_cli_talk_brain.py",
    "sim/test_day_run.py",
    "test_cli_rank.py",
    "ui/test_town.py",
    "ui/test_chat.py",
    "sim/test_any_intent.py",
    "sim/test_ask_ahead.py",
    "sim/test_reactions.py",
    "test_cli_files.py",
    "ui/test_hud.py",
    "brains/test_llm_doctor.py",
)
_TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items) -> None:
    """The long files first, so the short ones fill both workers at the end (pyproject's
    `--no-loadscope-reorder` keeps this order; xdist would otherwise hand out the files
    with the most tests first, and these have few). A file's tests keep their order."""
    rank = {name: i for i, name in enumerate(LONG_FILES)}

    def place(item) -> int:
        try:
            name = Path(item.path).resolve().relative_to(_TESTS).as_posix()
        except ValueError:
            return len(rank)
        return rank.get(name, len(rank))

    items.sort(key=place)
