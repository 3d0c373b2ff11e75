"""Build a simulation from names: the one place that picks brains and embedders."""

from __future__ import annotations

from game.brains.embed import CachedEmbedder, HashEmbedder
from game.brains.protocol import Embedder
from game.core.config import LLMSettings
from game.core.errors import SmallvilleError
from game.sim.simulation import ClockMode, SimConfig, Simulation
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


def decision_delay(brain: str) -> int:
    """Steps a lockstep run lets a decision take: a model's calls overlap for a game
    minute (6 steps); the scripted brain answers at once."""
    return 6 if brain == "llm" else 1


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
    config = config or SimConfig(
        seed=seed, mode=mode, workers=workers, decision_delay_steps=decision_delay(brain)
    )
    chosen = make_brain(brain, seed, llm)
    return Simulation(loaded, town, chosen, make_embedder(chosen), config)


def make_embedder(brain) -> Embedder:
    """The brain's own embedder (the LLM brain probes its endpoint), else the offline one."""
    own = getattr(brain, "embedder", None)
    return own if own is not None else CachedEmbedder(HashEmbedder())
