"""What a save is: its format and version, its errors, the upgrades from older versions,
and the document a simulation becomes (`game_state`) and is restored from (`restore`).

Apart from `saves`, which keeps the folders, their locks, the atomic writes and the
reads, so the layout of a save can be read in one place. The simulation gives and takes
its own state (`Simulation.get_state`/`set_state`); only the residents' memory arrays,
stored beside the document, are laid out here.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from game.core.errors import FileProblem, SmallvilleError, clip
from game.core.text import single_line as clean_line
from game.mind.memory import MemoryStream
from game.sim.upgrade import upgrade_memory
from game.world.scenario import scenario_ref

FORMAT = "smallville-save"
VERSION = 3


class SaveError(SmallvilleError):
    def __init__(self, path: Path | str, problem: str) -> None:
        SmallvilleError.__init__(self, f"{path}: {clip(problem)}")
        self.path, self.problem = str(path), problem


class UnreadableSave(SaveError, FileProblem):
    """A save folder or file this user may not read (permissions, I/O): a problem of the
    machine, not of the save, so the command line exits 1 as for any file (FileProblem)."""

    def __init__(self, path: Path | str, exc: OSError, what: str = "") -> None:
        self.cause = exc.strerror or str(exc)
        SaveError.__init__(self, path, f"cannot read{what}: {self.cause}")


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
    state = sim.get_state()
    log = state.pop("log")  # last, as it always was: the longest part of the document
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "saved_at": datetime.now().isoformat(timespec="seconds"),
        "scenario": scenario_ref(sim.scenario.path),
        "scenario_name": sim.scenario.name,
        "seed": sim.config.seed,
        "brain": sim.mind.brain.name,
        "embedder": {"name": sim.mind.embedder.name, "dim": sim.mind.embedder.dim},
        **state,  # the clock, steps, objects and their setters, the visitor, chats, notices
        "usage": sim.usage(),
        "agents": agents,
        "log": log,
    }
    return doc, arrays


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
    saved = {a["name"]: a for a in doc["agents"]}
    if set(saved) != set(sim.agents):
        raise ValueError("the save's residents differ from its scenario's")
    sim.set_state(doc)  # the clock, steps, objects, event log, visitor, chats and notices
    for i, name in enumerate(sorted(sim.agents)):
        agent = sim.agents[name]
        agent.set_state(saved[name]["state"])
        keys = ("created", "accessed", "importance", "embeddings")
        agent.memory = MemoryStream.from_state(
            saved[name]["memory"], {k: arrays[f"a{i}_{k}"] for k in keys}
        )
    restore_usage = getattr(sim.mind.brain, "restore_usage", None)
    if callable(restore_usage):
        restore_usage(doc.get("usage", {}))
