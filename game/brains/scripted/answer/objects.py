"""Things and their troubles: an object's last seen state, what is broken where one is or at
home, and what one would do if something broke (the troubles table's fix, and whom one
would turn to).
"""

from __future__ import annotations

import re

from game.brains.dialogue.acts import Act, Wh
from game.brains.questions import AgentContext
from game.core.records import FactKind, MemoryRecord
from game.world import troubles
from game.world.states import vocabulary

from .. import interview as iv
from .. import selfknow
from ..util import first_name
from .phrasing import _HERE, _housemates
from .town import plan_where_to


def _trouble_where(ctx: AgentContext, act: Act) -> str:
    here = ctx.location.split(":")[0]
    if act.place:
        return act.place
    return here if _HERE.search(act.text) and here else ctx.persona.home


_FINE = re.compile(r"\b(?:working|fine|okay|ok|all right|alright|in order|good)\b", re.I)
_NOT = re.compile(r"n't\b|\bnot\b|\bbroken\b|\bwrong\b|\bneed", re.I)


def _trouble_yes(ctx: AgentContext, act: Act) -> bool:
    """'Is anything broken?' yes if something was last seen in trouble; 'is everything
    working?' yes if nothing was."""
    bad = bool(troubles_now(ctx, _trouble_where(ctx, act)))
    return not bad if _FINE.search(act.text) and not _NOT.search(act.text) else bad


def troubles_now(ctx: AgentContext, sector: str) -> list[MemoryRecord]:
    """What one last saw in trouble in `sector`: each object's latest state, if a trouble."""
    latest: dict[str, MemoryRecord] = {}
    for m in ctx.memories:
        f = m.fact
        inside = f.kind is FactKind.OBJECT_STATE and (f.address or "").startswith(sector + ":")
        if inside and (f.address not in latest or latest[f.address].created < m.created):
            latest[f.address] = m
    return [m for m in latest.values() if iv.trouble(m.fact.state) is not None]


_THING = re.compile(r"\b(?:your|the|a|my) ((?!place\b|home\b|house\b)[a-z]+(?: [a-z]+){0,2})",
                    re.I)  # fmt: skip


def _thing_in(act: Act) -> str:
    """The thing a trouble question is about: the town's object it names, else a word
    after 'your' or 'the' that the object-state table knows as a thing ('pan', 'oven',
    'chair'); '' for none ('a blackout', 'the power')."""
    if act.obj:
        return act.obj.split(":")[-1]
    table = vocabulary()
    for found in _THING.finditer(act.text):
        said = found.group(1).lower().split()
        for n in range(1, len(said) + 1):  # 'a frying pan', 'your kitchen tap'
            if table.kind_of(said[n - 1]):
                return " ".join(said[:n])
    return ""


def plan_what_if(ctx: AgentContext, act: Act, seed: int) -> str:
    """'What would you do if your bed broke?': the fix the troubles table gives for it,
    and whom one would turn to (one's household first) if one could not do it alone. A
    question read as about trouble that names none ('when something goes wrong at home,
    who sorts it out?') gets the fix of something broken."""
    found = troubles.trouble(act.text)
    if found is None and act.label == "object.trouble":
        found = troubles.trouble("broken")
    if found is None:
        return ""
    verb, _, rest = found.fix(_thing_in(act)).partition(" ")
    base = iv.GERUND_BASE  # 'light a candle and check the fuse box', not '... and checking'
    rest = re.sub(r"\band (\w+ing)\b", lambda m: f"and {base.get(m.group(1), m.group(1))}", rest)
    fix = f"{iv.GERUND_BASE.get(verb, verb.removesuffix('ing'))} {rest}".strip()
    others = _housemates(ctx)
    helper = f"ask {first_name(others[0])} to help" if others else "call a repair person in"
    if found.importance >= 9:
        return f"I'd {fix} straight away and call for help if it spread."
    if act.wh is Wh.WHO:
        return f"I'd try to {fix} myself first; if I couldn't, I'd {helper}."
    return f"I'd {fix} myself, and if I couldn't, I'd {helper}."


def plan_object(ctx: AgentContext, act: Act, seed: int) -> str:
    if act.label == "fridge":
        return selfknow.empty_fridge(ctx, act.text, seed)
    if act.label == "object.trouble" and act.wh is Wh.WHERE:
        return plan_where_to(ctx, act, seed)  # 'where would you buy a new one?'
    if act.label == "object.trouble" and act.wh is not Wh.YESNO:
        said = plan_what_if(ctx, act, seed)
        if said:
            return said
    if act.label == "object.trouble" or (
        act.label != "object.state" and iv.trouble(act.text) is not None
    ):
        return iv._emergency(ctx, act.text, seed)
    seen = [m for m in ctx.memories if m.fact.kind is FactKind.OBJECT_STATE
            and act.obj and act.obj.lower() in (m.fact.address or "").lower()]  # fmt: skip
    if seen:
        last = max(seen, key=lambda m: m.created)
        when = iv._when(ctx.now, last.created)
        return f"Last I saw, the {act.obj} was {last.fact.state}, {when}."
    return _troubles_seen(ctx, act) if act.label == "object.state" or not act.obj else ""


def _troubles_seen(ctx: AgentContext, act: Act) -> str:
    """Anything broken? The things one last saw in trouble where asked, else an honest no."""
    where = _trouble_where(ctx, act)
    bad = troubles_now(ctx, where)
    place = "home" if where == ctx.persona.home else where
    if not bad:
        return f"Everything at {place} worked when I last used it; nothing's wrong that I've seen."
    last = max(bad, key=lambda m: m.created)
    thing = last.fact.address.split(":")[-1]
    return f"The {thing} at {place} was {last.fact.state} {iv._when(ctx.now, last.created)}."
