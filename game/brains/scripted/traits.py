"""How a persona's innate traits and relationships colour its choices.

Sociable people talk more and rarely skip a party; reserved or gruff people the opposite.
Dislike is read from the persona's own words (its relationships and seed), never invented.
"""

from __future__ import annotations

import re
from functools import lru_cache

from game.world.scenario import Resident

from .util import chance, first_name, has_any

# Multipliers on the chance to start a conversation.
SOCIABLE_TRAITS: dict[str, float] = {
    "outgoing": 1.4, "friendly": 1.3, "hospitable": 1.3, "energetic": 1.15, "warm": 1.15,
    "humorous": 1.15, "cheerful": 1.15, "loud": 1.1, "generous": 1.1, "helpful": 1.1,
    "curious": 1.05, "inquisitive": 1.05, "kind": 1.05,
}  # fmt: skip
RESERVED_TRAITS: dict[str, float] = {
    "reserved": 0.7, "shy": 0.6, "introverted": 0.6, "independent": 0.8, "gruff": 0.75,
    "reflective": 0.85, "analytical": 0.85, "hardworking": 0.85, "dedicated": 0.9,
    "driven": 0.85, "organized": 0.95, "thoughtful": 0.9,
}  # fmt: skip

# Turning down an invitation: a low base, nudged by traits, never above the cap.
DECLINE_BASE = 0.08
DECLINE_CAP = 0.20
DECLINE_TRAITS: dict[str, float] = {
    "independent": 0.06, "reserved": 0.08, "shy": 0.08, "introverted": 0.08, "gruff": 0.10,
    "analytical": 0.04, "hardworking": 0.05, "driven": 0.05, "dedicated": 0.04,
    "friendly": -0.05, "outgoing": -0.06, "hospitable": -0.05, "energetic": -0.03,
    "cheerful": -0.03, "warm": -0.03, "curious": -0.02,
}  # fmt: skip
BLUNT_TRAITS = ("gruff", "blunt", "loud")
WARM_TRAITS = ("friendly", "warm", "hospitable", "kind", "cheerful", "nurturing", "outgoing")

_DISLIKE = re.compile(
    r"\b(?:he|she|they|i) (?:does not|doesn't|do not|don't) (?:like|trust)\b"
    r"|\b(?:he|she|they) (?:dislikes?|distrusts?|can't stand)\b",
    re.I,
)


def sociability(persona: Resident) -> float:
    """A multiplier on the chance to chat: above 1 for sociable people."""
    factor = 1.0
    for trait in persona.traits:
        t = trait.lower()
        factor *= SOCIABLE_TRAITS.get(t, 1.0) * RESERVED_TRAITS.get(t, 1.0)
    return factor


def decline_chance(persona: Resident) -> float:
    p = DECLINE_BASE + sum(DECLINE_TRAITS.get(t.lower(), 0.0) for t in persona.traits)
    return max(0.02, min(DECLINE_CAP, p))


def declines(persona: Resident, event_key: str, seed: int) -> bool:
    """Whether the persona turns this invitation down (stable for the same event)."""
    return chance(seed, persona.name, "decline", event_key) < decline_chance(persona)


def dislikes(persona: Resident, other: str) -> bool:
    """The persona's own words say it does not like the other person."""
    relation = persona.relation_to(other) or ""
    if _DISLIKE.search(relation):
        return True
    return _says_dislike(first_name(persona.name), first_name(other), persona.seed)


@lru_cache(maxsize=1 << 16)
def _says_dislike(first: str, other_first: str, seed: str) -> bool:
    """'Tom ... doesn't like Yuriko' in the seed. Remembered by its words: the pattern is
    made per pair, and a town of 100 asks of thousands of pairs an hour, more than re's
    own cache of 512 patterns keeps (each was compiled again). The pattern ends in the
    words 'does not like Yuriko' or 'doesn't like Yuriko', so a seed holding neither
    cannot match it: in a town of 500 nearly every pair is one, and is not compiled."""
    if f"doesn't like {other_first}" not in seed and f"does not like {other_first}" not in seed:
        return False
    pattern = rf"\b{re.escape(first)}\b.{{0,25}}(?:does not|doesn't) like {re.escape(other_first)}"
    return re.search(pattern, seed) is not None


def tension(persona: Resident, other: str) -> bool:
    """Dislike in either direction as the persona sees it ('a grocer who seems to dislike him')."""
    relation = persona.relation_to(other) or ""
    return dislikes(persona, other) or has_any(relation, ("dislike", "does not like", "hostile"))


def has_trait(persona: Resident, traits: tuple[str, ...]) -> bool:
    return any(t.lower() in traits for t in persona.traits)
