"""How a simulation runs: its seed, step, clock mode, workers and job timing.

Apart from `simulation` so every collaborator (decisions, appliers, saves, the factory)
reads the same settings without importing the class that holds them all.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import Enum

from game.core.mind_settings import MindSettings


class ClockMode(Enum):
    LOCKSTEP = "lockstep"  # wait for every decision each step: deterministic
    REALTIME = "realtime"  # never wait: the window keeps its frame rate


@dataclass(frozen=True)
class Timing:
    """How many steps lockstep lets each kind of job take, and whether decisions are asked
    ahead. Why it matters: lockstep stops the clock for a job that is due and not done, so
    a model's seconds become wall time unless many calls overlap. A longer allowance lets
    them overlap; asking the next decision while the current action runs hides it.

    - `decision_steps`: a decision the agent stands still for (waking, the next action
      when none was asked ahead), and the player's jobs;
    - `talk_steps`: the lines of a conversation, while the two greet each other;
    - `thought_steps`: perceiving and deciding whether to react, which happen while the
      agent goes on with what it does (a sight out of the ordinary, like a stove left
      burning, gets `decision_steps`); reflecting, which nothing waits for, gets twice
      as long;
    - `ask_ahead`: ask the next action while the current one runs (and waking up during
      the night), used if the plan has not changed by then;
    - `ahead_steps`: with `ask_ahead`, the next action is asked this many steps before
      the current action ends (at its start when it is shorter; 0: always at its start).
      Why not at the start: a conversation or a reaction that begins meanwhile throws the
      answer away, and it was a request paid for nothing (about one in fifteen asked);
    - `apart_steps`: in a headless lockstep run, residents who cannot affect each other
      step apart (game.sim.apart), none more than this many steps ahead of the last, and
      what they read of the others out of reach is as it was this many steps back; 0 or
      1 keeps the whole town in one lockstep.
    """

    decision_steps: int = 1
    thought_steps: int = 1
    talk_steps: int = 1
    ask_ahead: bool = False
    ahead_steps: int = 0
    apart_steps: int = 0


INSTANT = Timing()  # the scripted brain answers within the step
# A model: a game minute for a decision, three to start a conversation, ten for a
# thought (10-second steps); the next action asked twenty minutes before it is due;
# residents step apart up to ten game minutes ahead of the last.
MODEL_TIMING = Timing(
    decision_steps=6,
    thought_steps=60,
    talk_steps=18,
    ask_ahead=True,
    ahead_steps=120,
    apart_steps=60,
)
# Asking ahead needs at least this many steps before the action ends to be worth it.
MIN_AHEAD_STEPS = 6
# Waking up is asked this close to it (two game hours), not at bedtime: the night's
# last hours are when the player might still whisper to a sleeper, and a run that ends
# at midnight does not pay for the next morning.
WAKE_AHEAD_STEPS = 720


@dataclass(frozen=True)
class SimConfig:
    seed: int = 0
    step_seconds: int = 10
    mode: ClockMode = ClockMode.LOCKSTEP
    workers: int = 8
    mind: MindSettings = field(default_factory=MindSettings)
    timing: Timing = field(default_factory=lambda: INSTANT)


def stable_index(key: str, n: int) -> int:
    """A deterministic choice among n (Python's hash() is salted per process)."""
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % max(1, n)
