"""The one hook between the game window and saved games.

Saving lives in `game.sim.saves` (save_game(sim, name) -> Path, load_game(name) ->
Simulation). Until that module exists, these functions say so plainly instead of failing,
so F5/F9 and the autosave work the day it arrives with no change here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from types import ModuleType

from game.core.errors import SmallvilleError

MISSING = "saving arrives with the saves feature"
QUICK = "quicksave"
AUTO = "autosave"


@dataclass(frozen=True)
class Outcome:
    ok: bool
    message: str
    sim: object = None  # the loaded simulation, for a load


def saves_module() -> ModuleType | None:
    """game.sim.saves if it exists in this build."""
    try:
        return importlib.import_module("game.sim.saves")
    except ImportError:
        return None


def save(sim, name: str = QUICK) -> Outcome:
    """Write a save; the autosave goes through the module's ring of autosaves if it has one."""
    module = saves_module()
    if module is None:
        return Outcome(False, MISSING)
    ring = getattr(module, "autosave", None)
    try:
        path = ring(sim) if name == AUTO and callable(ring) else module.save_game(sim, name)
    except (SmallvilleError, OSError) as exc:
        return Outcome(False, f"could not save: {exc}")
    return Outcome(True, f"saved as {name} ({path})")


def load(name: str = QUICK) -> Outcome:
    module = saves_module()
    if module is None:
        return Outcome(False, MISSING)
    try:
        sim = _load_realtime(module, name)
    except (SmallvilleError, OSError) as exc:
        return Outcome(False, f"could not load {name}: {exc}")
    return Outcome(True, f"loaded {name}", sim)


def _load_realtime(module: ModuleType, name: str):
    """A loaded game, switched to the real-time clock the window runs on (a save does not
    decide how fast the window plays it)."""
    from game.sim.simulation import ClockMode

    sim = module.load_game(name)
    if sim.config.mode is not ClockMode.REALTIME:
        sim.config = replace(sim.config, mode=ClockMode.REALTIME)
    return sim


@dataclass(frozen=True)
class Listed:
    name: str
    about: str  # 'smallville, 2023-02-13 09:30'


def list_saves() -> list[Listed]:
    """The saves on disk ([] when saving is not available or the folder is unreadable)."""
    module = saves_module()
    lister = getattr(module, "list_saves", None) if module else None
    if lister is None:
        return []
    try:
        infos = list(lister())
    except (SmallvilleError, OSError):
        return []
    return [Listed(getattr(i, "name", str(i)), _about(i)) for i in infos]


def _about(info) -> str:
    scenario = getattr(info, "scenario", "")
    when = str(getattr(info, "game_time", "")).replace("T", " ")[:16]
    return ", ".join(p for p in (scenario, when) if p and p != "?")
