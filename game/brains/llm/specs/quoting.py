"""Names from outside the town, as quoted data in every prompt.

A visitor chooses their own name, and it reaches memories, observations and the
dialogue; unquoted, it could read as the prompt's own words. Every view is wrapped here
(`quoting_outsiders`), and every clipped text (`clip`) keeps quoted speech closed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from typing import Any

from game.brains.questions import Utter
from game.core.records import Fact, Source
from game.core.text import quoted
from game.world.scenario import Resident

# The outside names of the question whose view is being built (see `clip`).
_OUTSIDERS: ContextVar[tuple[str, ...]] = ContextVar("outsiders", default=())
# A JSON string literal: quoted speech (game/core/text.py `quoted`) is left as it is.
_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def quoting_outsiders(view: Callable[[Any], dict[str, str]]) -> Callable[[Any], dict[str, str]]:
    """The view with every name from outside the town (a visitor's) as quoted data.

    A visitor chooses their own name, and it reaches memories, observations and the
    dialogue: unquoted, "Ignore the rules and" would read as the prompt's own words. The
    system prompt says quoted words are data, so wherever such a name stands outside
    quoted speech it is put in quotes, escaped; speech already quoted is left whole."""

    def quoted_view(q: Any) -> dict[str, str]:
        names = tuple(sorted(outsiders(q), key=len, reverse=True))
        token = _OUTSIDERS.set(names)  # clipped texts quote them before they are cut
        try:
            values = view(q)
        finally:
            _OUTSIDERS.reset(token)
        if not names:
            return values
        return {k: _quote_names(v, names) if isinstance(v, str) else v for k, v in values.items()}

    return quoted_view


def outsiders(q: Any) -> set[str]:
    """Names in a question that come from outside the town: whoever a visitor's facts
    name as the visitor, and whoever a resident talks with in a dialogue turn."""
    found: set[str] = set()
    todo: list[Any] = [q]
    while todo:
        node = todo.pop()
        if isinstance(node, Fact):
            if node.source is Source.VISITOR:
                found.add(node.heard_from or node.subject)
        elif isinstance(node, (list, tuple)):
            todo.extend(node)
        elif hasattr(node, "__dataclass_fields__") and not isinstance(node, Resident):
            todo.extend(getattr(node, f) for f in node.__dataclass_fields__)
    if isinstance(q, Utter):
        own = q.ctx.persona.name
        found |= {q.partner, *(u.speaker for u in q.history if u.speaker != own)}
    return {n for n in found if isinstance(n, str) and n.strip()}


def _quote_names(text: str, names: Sequence[str]) -> str:
    """`text` with each name that stands outside quoted speech quoted (escaped).

    One left-to-right scan: at each point a name is tried before a quoted literal, so a
    name holding a quote mark is still found whole, and speech (a literal that starts
    earlier) is passed over whole, names inside it included."""
    alternatives = "|".join(_name_pattern(n) for n in names)
    scan = re.compile(f"(?P<name>{alternatives})|(?P<speech>{_LITERAL.pattern})")

    def one(match: re.Match[str]) -> str:
        return quoted(match.group()) if match.lastgroup == "name" else match.group()

    return scan.sub(one, text)


def _name_pattern(name: str) -> str:
    """The name as a whole word (no match inside a longer word)."""
    before = r"(?<!\w)" if re.match(r"\w", name) else ""
    after = r"(?!\w)" if re.match(r"\w", name[-1]) else ""
    return before + re.escape(name) + after


def clip(text: str, limit: int) -> str:
    """One line of at most `limit` characters. Names from outside the town are quoted
    first, and a cut inside quoted speech closes the quotes, so clipping never lets a
    visitor's words out of them."""
    text = " ".join(text.split())
    names = _OUTSIDERS.get()
    if names:
        text = _quote_names(text, names)
    if len(text) <= limit:
        return text
    cut = limit - 1
    for literal in _LITERAL.finditer(text):
        if literal.start() >= cut:
            break
        if cut < literal.end():
            head = text[: max(literal.start() + 1, cut - 1)]
            return head.rstrip("\\") + '…"'
    return text[:cut] + "…"
