"""Typed chat, spelled the way the exemplars are: 'wat r u doing rn' -> 'what are you doing
right now', 'Where's the shop for taht?' -> '... for that?'.

Why: understanding compares a line with exemplars in embedding space, and both embedders
know words, not keystrokes. A player's shorthand or typo lands on word pieces that mean
nothing ('taht' -> 'ta', '##ht'), so the line's frame is lost and it is read as a greeting.
Two mechanisms, both data-driven and knowing nothing of this town:

- chat shorthand and apostrophe-less contractions, a table of whole typed words
  (`chat_words.json`);
- any other word the embedder's vocabulary lacks is replaced by the most frequent
  vocabulary word one edit away (a deletion, insertion, substitution or swap of letters:
  Norvig's corrector), when there is one. The vocabulary is the static embedder's, whose
  order is the order of frequency its WordPiece vocabulary was built in.

The town's own names are never corrected, and a word of three letters or fewer only by the
table (short words have too many neighbours one edit away).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

CHAT_WORDS = Path(__file__).with_name("chat_words.json")
MIN_LENGTH = 4  # shorter words are corrected only by the table
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# endings that make one word of another ('baked', 'baker', 'bakes' of 'bake')
_ENDINGS = ("s", "es", "d", "ed", "r", "er", "ers", "ing", "ly")
_CLITIC = re.compile(r"^(.*?)('(?:s|ll|re|d|ve|m))?$")
# a typed word, digits and all: '2moro' and 'b4' are words of the chat table, and a word
# with a digit is otherwise left as typed ('5pm', '9:30')
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'/-]*[A-Za-z0-9]|[A-Za-z]")


@cache
def chat_words(path: Path = CHAT_WORDS) -> Mapping[str, str]:
    return dict(json.loads(path.read_text(encoding="utf-8"))["words"])


class Speller:
    """Corrects typed lines against a ranked vocabulary (most frequent first) and the words
    that must stay as they are (the town's names, the exemplars' own words)."""

    def __init__(self, ranked: Iterable[str], keep: Iterable[str] = ()) -> None:
        self._rank: dict[str, int] = {}
        for i, word in enumerate(ranked):
            if word.isalpha() and word not in self._rank:
                self._rank[word] = i
        self._keep = {w.lower() for w in keep}
        self._table = chat_words()
        self._memo: dict[str, str] = {}

    def fix(self, text: str) -> str:
        """The line with shorthand spelled out and typos corrected; the rest untouched."""
        return _WORD.sub(lambda m: self._word(m.group(0)), text)

    def _word(self, typed: str) -> str:
        low = typed.lower()
        spelled = self._table.get(low)
        if spelled is not None:
            return spelled
        stem, tail = _CLITIC.match(low).groups()  # "wat's" is "what's"
        if tail and stem in self._table:
            return self._table[stem] + tail
        if low in self._keep or len(low) < MIN_LENGTH or not low.isalpha() or self._known(low):
            return typed
        fixed = self._memo.get(low)
        if fixed is None:
            fixed = self._nearest(low) or low
            if len(self._memo) > 4096:
                self._memo.clear()
            self._memo[low] = fixed
        if fixed == low:
            return typed
        return fixed.capitalize() if typed[:1].isupper() else fixed

    def _known(self, word: str) -> bool:
        """A word of the vocabulary, or one formed from its words: a form of a word it
        has ('bake' of 'baked', 'plumber' of 'plumbing'), or two of its words run together
        ('screwdriver'). A 22,000-word vocabulary lacks many real words, and correcting
        'bake' to 'make' loses what the visitor said."""
        rank = self._rank
        if word in rank or any(word + end in rank for end in _ENDINGS):
            return True
        for end in _ENDINGS:
            stem = word[: -len(end)]
            if not word.endswith(end) or len(stem) < MIN_LENGTH:
                continue
            doubled = stem[:-1] if stem[-1] == stem[-2] and len(stem) > MIN_LENGTH else ""
            if (stem in rank or stem + "e" in rank or doubled in rank
                    or any(stem + other in rank for other in _ENDINGS if other != end)):
                return True
        return any(word[:i] in rank and word[i:] in rank
                   for i in range(MIN_LENGTH, len(word) - MIN_LENGTH + 1))  # fmt: skip

    def _nearest(self, word: str) -> str:
        found = [w for w in _one_edit(word) if w in self._rank or w in self._keep]
        if not found:
            return ""
        return min(found, key=lambda w: (w not in self._keep, self._rank.get(w, 0), w))


def _one_edit(word: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = [a + b[1:] for a, b in splits if b]
    swaps = [a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1]
    replaces = [a + c + b[1:] for a, b in splits if b for c in _LETTERS]
    inserts = [a + c + b for a, b in splits for c in _LETTERS]
    return set(deletes + swaps + replaces + inserts) - {word}
