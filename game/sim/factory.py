"""Build a simulation from names: the one place that picks brains and embedders."""

from __future__ import annotations

from game.brains.embed import CachedEmbedder, HashEmbedder
from game.core.errors import SmallvilleError
from game.sim.simulation import ClockMode, SimConfig, Simulation
from game.world.scenario import load_world

BRAINS = ("scripted",)


def make_brain(name: str, seed: int):
    if name == "scripted":
        from game.brains.scripted import ScriptedBrain

        return ScriptedBrain(seed)
    raise SmallvilleError(f"unknown brain {name!r} (choose from: {', '.join(BRAINS)})")


def build_simulation(
    scenario: str,
    seed: int = 0,
    brain: str = "scripted",
    mode: ClockMode = ClockMode.LOCKSTEP,
    workers: int = 8,
    config: SimConfig | None = None,
) -> Simulation:
    loaded, town = load_world(scenario)
    config = config or SimConfig(seed=seed, mode=mode, workers=workers)
    return Simulation(loaded, town, make_brain(brain, seed), CachedEmbedder(HashEmbedder()), config)
