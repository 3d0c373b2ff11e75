"""Build a simulation from names: the one place that picks brains and embedders."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from game.brains.embed import CachedEmbedder, HashEmbedder
from game.brains.protocol import Embedder
from game.core.config import LLMSettings
from game.core.errors import SmallvilleError
from game.sim.simulation import INSTANT, MODEL_TIMING, ClockMode, SimConfig, Simulation, Timing
from game.world.scenario import load_world

BRAINS = ("scripted", "llm")


def make_brain(
    name: str,
    seed: int,
    llm: LLMSettings | None = None,
    talk: str = "",
    residents: Iterable[str] = (),
    own_talk: bool = False,
):
    """The brain a town runs on. With a model anywhere (`name` or `talk` is "llm") it is a
    TalkBrain: the town's questions to `name`, conversations to `talk` ("" = the same),
    and every conversation answer marked with who gave it. One model brain serves both
    roles when both are "llm"."""
    talk = talk or name
    base = _one_brain(name, seed, llm, talk_only=False)
    if name == talk and name != "llm":
        return base
    from game.brains.talk import TalkBrain, TalkRoutes

    other = base if talk == name else _one_brain(talk, seed, llm, talk_only=name != "llm")
    return TalkBrain(base, other, TalkRoutes(frozenset(residents), own_talk))


def _one_brain(name: str, seed: int, llm: LLMSettings | None, talk_only: bool):
    """A model that only talks keeps to the town's embedder: it is never asked for
    vectors (no embeddings probe), so it can answer any save's residents."""
    if name == "scripted":
        from game.brains.scripted import ScriptedBrain

        return ScriptedBrain(seed)
    if name == "llm":
        from game.brains.llm import LLMBrain
        from game.core.config import load_config

        settings = llm or load_config().llm  # file < env
        if talk_only:
            settings = replace(settings, embeddings=False)
        return LLMBrain(settings, seed=seed)
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
    talk: str = "",
    own_talk: bool = False,
) -> Simulation:
    """A new town; `talk` and `own_talk` say who answers its conversations (make_brain)."""
    loaded, town = load_world(scenario)
    config = config or SimConfig(seed=seed, mode=mode, workers=workers, timing=timing(brain))
    names = [r.name for r in loaded.residents]
    chosen = make_brain(brain, seed, llm, talk, names, own_talk)
    return Simulation(loaded, town, chosen, make_embedder(chosen), config)


def make_embedder(brain) -> Embedder:
    """The brain's own embedder (the LLM brain probes its endpoint), else the offline one."""
    own = getattr(brain, "embedder", None)
    return own if own is not None else CachedEmbedder(HashEmbedder())


def refused_if_unused(sim: Simulation, settings) -> Simulation:
    """The loaded town, unless model flags were given and no model answers anything in
    it (the save's brain and the talk brain decide): then closed, and one line."""
    from game.brains.talk import uses_model
    from game.core.config import refuse_unused_model_flags

    try:
        refuse_unused_model_flags(settings, uses_model(sim.mind.brain))
    except BaseException:
        sim.close()
        raise
    return sim
