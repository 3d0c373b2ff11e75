"""Build a simulation from names: the one place that picks brains and embedders."""

from __future__ import annotations

from game.brains.embed import CachedEmbedder, HashEmbedder
from game.brains.protocol import Embedder
from game.core.config import LLMSettings
from game.core.errors import SmallvilleError
from game.sim.simulation import INSTANT, MODEL_TIMING, ClockMode, SimConfig, Simulation, Timing
from game.world.scenario import load_world

BRAINS = ("scripted", "llm")


def make_brain(name: str, seed: int, llm: LLMSettings | None = None):
    if name == "scripted":
        from game.brains.scripted import ScriptedBrain

        return ScriptedBrain(seed)
    if name == "llm":
        from game.brains.llm import LLMBrain
        from game.core.config import load_config

        return LLMBrain(llm or load_config().llm, seed=seed)  # file < env
    raise SmallvilleError(f"unknown brain {name!r} (choose from: {', '.join(BRAINS)})")


def timing(brain: str) -> Timing:
    """How long lockstep lets jobs take: a model's calls overlap (and the next action is
    asked ahead); the scripted brain answers within the step."""
    return MODEL_TIMING if brain == "llm" else INSTANT


def build_simulation(
    scenario: str,
    seed: int = 0,
    brain: str = "scripted",
    mode: ClockMode = ClockMode.LOCKSTEP,
    workers: int = 8,
    config: SimConfig | None = None,
    llm: LLMSettings | None = None,
) -> Simulation:
    loaded, town = load_world(scenario)
    config = config or SimConfig(seed=seed, mode=mode, workers=workers, timing=timing(brain))
    chosen = make_brain(brain, seed, llm)
    return Simulation(loaded, town, chosen, make_embedder(chosen), config)


def make_embedder(brain) -> Embedder:
    """The brain's own embedder (the LLM brain probes its endpoint), else the offline one."""
    own = getattr(brain, "embedder", None)
    return own if own is not None else CachedEmbedder(HashEmbedder())
