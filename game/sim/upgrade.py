"""Memories of a version-2 save given the fields version 3 keeps beside each text.

Version 2 stored a memory's text, its kind and who said it. This reads the handful of
shapes the game itself wrote then, once, while loading; nothing after loading reads a
memory's text. What the old text cannot tell (the object's address, the plan's items,
the scenario intent) stays empty.
"""

from __future__ import annotations

from typing import Any

from game.core.codec import encode
from game.core.records import Fact, FactKind, Source


def upgrade_memory(holder: str, memory: dict[str, Any]) -> dict[str, Any]:
    out = dict(memory)
    texts = [str(t) for t in memory.get("texts", [])]
    kinds = list(memory.get("kinds", []))
    sources = list(memory.get("sources", [""] * len(texts)))
    if not (len(texts) == len(kinds) == len(sources)):
        return out  # left as it is: the loader's own checks name what is wrong
    facts = [_fact(holder, k, t, str(s)) for k, t, s in zip(kinds, texts, sources, strict=True)]
    out["facts"] = [encode(f, compact=True) for f in facts]
    out.pop("sources", None)
    return out


def _fact(holder: str, kind: str, text: str, source: str) -> Fact:
    if kind == "chat":
        return _chat(holder, text, source)
    if kind == "plan":
        return Fact(FactKind.PLAN, Source.SELF, subject=holder, predicate="plans")
    if kind == "reflection":
        own = Source.INNER_VOICE if source == "inner voice" else Source.SELF
        return Fact(FactKind.STATEMENT, own, subject=holder, object=text)
    if text.startswith(holder + " is "):
        return Fact(FactKind.DOING, Source.SELF, holder, "is", text[len(holder) + 4 :])
    return Fact(FactKind.STATEMENT, Source.SEEN, object=text)


def _chat(holder: str, text: str, source: str) -> Fact:
    if text.startswith("Conversation between "):
        return Fact(
            FactKind.CONVERSATION,
            Source.HEARD,
            subject=source,
            predicate="talked with",
            heard_from=source,
            participants=(holder, source) if source else (),
        )
    visitor = f"{source} (a visitor) said to {holder}: "
    if source and text.startswith(visitor):
        said = text[len(visitor) :].strip('"')
        return Fact(FactKind.CLAIM, Source.VISITOR, holder, "was told", said, heard_from=source)
    said = text.split(" said: ", 1)[-1]
    return Fact(FactKind.CLAIM, Source.HEARD, object=said, heard_from=source)
