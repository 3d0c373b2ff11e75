"""Small pure helpers shared by the scripted brain's modules.

Randomness is a stable hash of the question (never `hash()` or a shared generator): the
same seed and the same question give the same answer on any thread, in any call order.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

from game.core.text import with_article
from game.world.scenario import Resident

T = TypeVar("T")

_STOP_TEXT = (
    "a an the and or but of to in on at for from with by is are was were be been being it its "
    "this that these those as into about over after before than then there their his her him "
    "she he they them we you i me my our your not no yes so very just also will would can "
    "could should may might do does did has have had said who what when where why how"
)
STOPWORDS = frozenset(_STOP_TEXT.split())
NOT_PERSON_WORDS = frozenset(
    {"Cafe", "Park", "Pub", "College", "Market", "Pharmacy", "Store", "Dorm", "House", "Day",
     "Hill", "Oak", "Crown", "Conversation", "The", "Valentine", "Smallville", "Supply",
     "Hi", "Hey", "Hello", "Good", "Oh", "Yes", "No", "Thanks", "Dear", "Morning", "Evening"}
)  # fmt: skip
_WORD = re.compile(r"[a-z0-9']+")


def stable_int(*parts: object) -> int:
    """A 64-bit integer that depends only on the parts (their str forms)."""
    raw = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big")


def chance(*parts: object) -> float:
    """A stable pseudo-random number in [0, 1) keyed by the parts."""
    return stable_int(*parts) / 2**64


def pick(options: Sequence[T], *parts: object) -> T:
    """A stable choice among options keyed by the parts."""
    return options[stable_int(*parts) % len(options)]


def shuffled(options: Sequence[T], *parts: object) -> list[T]:
    """The options in a stable pseudo-random order keyed by the parts."""
    return sorted(options, key=lambda o: stable_int(*parts, o))


@lru_cache(maxsize=512)
def keyword_regex(keys: tuple[str, ...]) -> re.Pattern[str]:
    """One regex matching any key at the start of a word ('cook' matches 'cooking').

    Keys are regex fragments, so a table may say 'prepar\\w* .*party'.
    """
    return re.compile(r"\b(?:" + "|".join(keys) + ")", re.I)


def has_any(text: str, keys: tuple[str, ...]) -> bool:
    return bool(keys) and keyword_regex(keys).search(text) is not None


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


def content_words(text: str) -> set[str]:
    """The words that carry meaning: no stop words, no possessive 's, no short words."""
    out = set()
    for w in words(text):
        w = w.removesuffix("'s").strip("'")
        if len(w) > 2 and w not in STOPWORDS:
            out.add(w)
    return out


def coverage(fact: str, text: str) -> float:
    """The share of the fact's meaningful words that the text also contains."""
    need = content_words(fact)
    return len(need & content_words(text)) / len(need) if need else 0.0


def is_person(name: str) -> bool:
    """'Maria Lopez' yes; 'Hobbs Cafe', 'Hi Maria', 'Valentine Day' no."""
    return bool(name) and not any(w in NOT_PERSON_WORDS for w in name.split())


def first_name(name: str) -> str:
    return name.split()[0] if name else name


def mentions(text: str, name: str) -> bool:
    """Whether the text names the person, by full or first name (a whole word)."""
    if not name:
        return False
    return name in text or first_name(name) in _name_words(text)


@lru_cache(maxsize=8192)
def _name_words(text: str) -> frozenset[str]:
    """The words of a text as names are spelled ('Isabella's' gives 'Isabella'). Kept for
    the next call: a resident's memories are searched for one name after another, the
    same texts every time (a tenth of a scripted town's time went to reading them again)."""
    kept = "".join(c if c.isalnum() or c == "-" else " " for c in text.replace("'s", " "))
    return frozenset(kept.split())


def pronouns(persona: Resident) -> tuple[str, str, str]:
    """(subject, object, possessive) read from the seed's own pronouns; 'they' if unsure."""
    text = f" {persona.seed.lower()} "
    his = text.count(" his ") + text.count(" he ")
    her = text.count(" her ") + text.count(" she ")
    if his > her:
        return "he", "him", "his"
    if her > his:
        return "she", "her", "her"
    return "they", "them", "their"


def article(phrase: str) -> str:
    """'the owner of Hobbs Cafe', 'an actor', 'a poet' (the one rule the UI uses too)."""
    return with_article(phrase)


def join_and(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def sentence(text: str) -> str:
    """Strip and drop one trailing full stop: facts are stored without it."""
    return text.strip().rstrip(".").strip()


def clip(text: str, limit: int = 200) -> str:
    """Cut at a word boundary so a line stays short enough for a bubble."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def counts(items: Iterable[T]) -> dict[T, int]:
    out: dict[T, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out
