"""Who else is going to an event, as one knows it: the people one heard say so.

Why its own module: a resident knows who is going only from what it was told, so the
answer reads one's remembered conversations about the event for the other side's own
yes. The scripted residents say yes in the words of their answer tables (`rsvp.py`'s
accepting lines, `hearsay.py`'s going tails), so those tables, read as patterns, are what
a yes looks like; nothing here is worded for a particular event.
"""

from __future__ import annotations

import re
from functools import cache

from game.brains.questions import AgentContext
from game.core.records import Event, FactKind, Rsvp

from .. import hearsay, rsvp
from ..util import content_words, first_name, join_and

MOST = 4  # names said before 'and others'


@cache
def _yes_lines() -> re.Pattern[str]:
    """Every accepting line the residents say, its {slots} as wildcards."""
    lines = (*rsvp.ACCEPT_FRIEND, *rsvp.ACCEPT_WITH, *rsvp.ACCEPT_LINES,
             *hearsay.GOING[Rsvp.ACCEPTED], hearsay.GOING_TOO)  # fmt: skip
    parts = [re.escape(t.strip().rstrip(".!").lower()).replace(r"\{", "{").replace(r"\}", "}")
             for t in lines]  # fmt: skip
    wild = [re.sub(r"{\w+}", ".+?", p) for p in parts]
    return re.compile("|".join(f"(?:{w})" for w in wild))


def _about(text: str, event: Event) -> bool:
    """A line names the event: its own words ('Valentine's Day party'), or its host."""
    words = set(content_words(event.what or ""))
    said = set(content_words(text))
    host = first_name(event.host).lower() if event.host else ""
    return bool(words and words <= said) or bool(host and host in text.lower())


def heard_going(ctx: AgentContext, event: Event) -> list[str]:
    """The people one heard say they are going, most recent talk first: in a remembered
    conversation about the event, the other side's line that says yes."""
    yes, me, out = _yes_lines(), ctx.persona.name, []
    talks = [m for m in ctx.memories if m.fact.kind is FactKind.CONVERSATION]
    for m in sorted(talks, key=lambda m: m.created, reverse=True):
        lines = m.fact.lines
        for i, line in enumerate(lines):
            if line.speaker == me or line.speaker == event.host or line.speaker in out:
                continue
            near = " ".join(x.text for x in lines[max(0, i - 1) : i + 1])
            if _about(near, event) and yes.search(line.text.lower()):
                out.append(line.speaker)
    return out


def goers_line(
    ctx: AgentContext, event: Event, going_myself: bool, heard: list[str] | None = None
) -> str:
    """'Who else is going?': those one heard say yes (`heard`, else looked up), and
    oneself; once it is over, those one heard would go (who was seen there is
    `interview._who_came`'s)."""
    names = [first_name(n) for n in (heard if heard is not None else heard_going(ctx, event))]
    what, over = event.what or "event", event.end <= ctx.now
    if not names:
        if over:
            return f"I couldn't tell you who else went to the {what}."
        mine = " I am, though." if going_myself else ""
        return f"I haven't heard who else is going to the {what}.{mine}"
    shown = join_and(names) if len(names) <= MOST else ", ".join(names[:MOST]) + " and others"
    verb = "said they'd go" if over else "told me they're going"
    me = ""
    if going_myself:
        me = ", and I went too" if over else ", and I'm going too"
    return f"{shown} {verb} to the {what}{me}."
