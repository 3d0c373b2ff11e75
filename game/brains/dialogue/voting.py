"""A heard line against the exemplars: their word overlap with it, and the neighbours' vote.

Why its own module: the Understander read every line against each of its ~2,500 exemplars
in Python, a set intersection and union per exemplar for the word overlap, and a scan of
all exemplars for each label the vote named (5 ms and more a line; residents' template
lines are read thousands of times a day in a town of 100). The overlap now comes from an
inverted index of the exemplars' stems (one count per exemplar in numpy, the same
integers, so the same Jaccard shares), and labels are found by name in a table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .acts import Aspect


class StemIndex:
    """The exemplars' content stems, by stem: which exemplars use each."""

    def __init__(self, stems: Sequence[set[str]]) -> None:
        self.size = len(stems)
        self.sizes = np.array([len(t) for t in stems], dtype=np.int64)
        postings: dict[str, list[int]] = {}
        for i, found in enumerate(stems):
            for s in found:
                postings.setdefault(s, []).append(i)
        self._postings = {s: np.array(ix, dtype=np.intp) for s, ix in postings.items()}
        self.vocab = frozenset(postings)  # every stem some exemplar uses

    def overlap(self, mine: set[str]) -> np.ndarray:
        """The Jaccard share of stems between `mine` and each exemplar (0 for an exemplar
        of no content word): len(mine & t) / len(mine | t), as integers divided."""
        if not mine:
            return np.zeros(self.size)
        hits = [self._postings[s] for s in mine if s in self._postings]
        if not hits:
            return np.zeros(self.size)
        inter = np.bincount(np.concatenate(hits), minlength=self.size)
        union = len(mine) + self.sizes - inter
        shares = inter / np.maximum(union, 1)
        return np.where(self.sizes > 0, shares, 0.0)


def vote(
    sims: np.ndarray,
    owners: Sequence[Any],
    by_name: Mapping[str, Any],
    floor: float,
    by_aspect: bool,
    neighbours: int,
    sharpness: float,
) -> tuple[Any | None, float, str]:
    """The nearest exemplars vote in two rounds: first for what the line is about (an
    aspect: 'who do you live with' and 'do you have the place to yourself' both say home),
    then, within it, for the label. A vote weighs exp((s - best) / sharpness), so the
    nearest exemplar counts most and a label with many near-misses cannot outvote it.
    Also returned: the best label of the runner-up aspect ('' if none came near), a second
    reading for an answer that finds nothing under the first. Without `by_aspect` (a
    resident's own line) each label is its own group and a vote weighs its similarity, as
    the residents' templates were tuned against. `owners` is each exemplar's label,
    `by_name` the first label of each name."""
    top = np.argsort(-sims)[:neighbours]
    best = float(sims[top[0]]) if len(top) else 0.0
    if best < floor:
        return None, best, ""
    groups: dict[str, float] = {}
    tally: dict[str, float] = {}
    for i in top:
        if sims[i] < best - 0.1:
            continue
        owner = owners[int(i)]
        weight = float(np.exp((sims[i] - best) / sharpness)) if by_aspect else float(sims[i])
        group = group_of(owner) if by_aspect else owner.name
        groups[group] = groups.get(group, 0.0) + weight
        tally[owner.name] = tally.get(owner.name, 0.0) + weight
    ranked = sorted(groups, key=lambda g: -groups[g])
    of = group_of if by_aspect else (lambda label: label.name)
    chosen = [max((n for n in tally if of(by_name[n]) == g), key=lambda n: tally[n])
              for g in ranked[:2]]  # fmt: skip
    return by_name[chosen[0]], best, chosen[1] if len(chosen) > 1 else ""


def group_of(label: Any) -> str:
    """What a label is about, for the first round of the vote: its aspect, or, for the
    labels about nothing in particular (greetings, follow-ups), the label itself."""
    return label.aspect.value if label.aspect is not Aspect.GENERAL else "=" + label.name
