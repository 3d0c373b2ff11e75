"""The states each kind of object can be in: a vocabulary kept as data (object_states.json).

Why a table: a model that is asked what a stove is doing while someone cooks can answer
"socialism" in the right shape. The vocabulary says what a stove (or any other kind of
thing) can be, so an answer is checked against the world's own words, and prompts can show
a concrete everyday example drawn from the same table. A kind is the object's map role
(docs/MAP.md) or, for objects without one, its own name; `kind_of` finds it from either.
How a state outside the list may still be accepted is the brain's business
(game/brains/llm/sense.py), since only it knows the action that produced the state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from game.world.roles import Role

TABLE = Path(__file__).with_name("object_states.json")


@dataclass(frozen=True)
class UseExample:
    """One everyday use of a kind of object: what someone does, the state, the bubble."""

    kind: str
    action: str
    state: str
    emoji: str


@dataclass(frozen=True)
class Vocabulary:
    """Every kind's states, the states any object can be in, and the name aliases."""

    common: tuple[str, ...]
    kinds: dict[str, tuple[str, ...]]
    examples: dict[str, UseExample]
    aliases: dict[str, str]

    def states(self, kind: str) -> tuple[str, ...]:
        """What an object of `kind` can be in: its own states, then the common ones."""
        return (*self.kinds.get(kind, ()), *self.common)

    def knows(self, state: str, kind: str) -> bool:
        return _norm(state) in {_norm(s) for s in self.states(kind)}

    def kind_of(self, name: str, role: Role | None = None) -> str:
        """The kind of an object: its role when the table has it, else the kind (or alias)
        named last in its name ('garden bench' is a bench, 'dorm kitchen counter' a
        kitchen counter); '' when the table names none."""
        if role is not None and role.value in self.kinds:
            return role.value
        words = [_singular(w) for w in _norm(name.split(":")[-1]).split()]
        best: tuple[int, int, str] | None = None
        for key in (*self.kinds, *self.aliases):
            key_words = [_singular(w) for w in key.split()]
            end = _ends_at(words, key_words)
            if end is not None and (best is None or (end, len(key_words)) > best[:2]):
                best = (end, len(key_words), self.aliases.get(key, key))
        return best[2] if best else ""

    def example(self, other_than: str = "") -> UseExample:
        """A concrete everyday use of some kind other than `other_than` (the one asked
        about), so a prompt's example never answers its own question."""
        for kind, found in self.examples.items():
            if kind != other_than:
                return found
        raise LookupError("the object-state table has no examples")


def _ends_at(words: list[str], key: list[str]) -> int | None:
    """The index just past the last place `key` occurs in `words`, or None."""
    n = len(key)
    for i in range(len(words) - n, -1, -1):
        if words[i : i + n] == key:
            return i + n
    return None


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


@cache
def vocabulary(path: Path = TABLE) -> Vocabulary:
    """The table, read once; a damaged file fails with its name."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        kinds = {k: tuple(v["states"]) for k, v in raw["kinds"].items()}
        examples = {
            k: UseExample(k, *v["example"]) for k, v in raw["kinds"].items() if "example" in v
        }
        return Vocabulary(tuple(raw["any"]), kinds, examples, dict(raw.get("aliases", {})))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path.name}: unreadable object-state table ({e})") from e
