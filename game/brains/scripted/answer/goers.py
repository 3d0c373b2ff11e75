"""Who else is going to an event, as one knows it: the people one heard say so.

Why its own module: a resident knows who is going only from what it was told, so the
answer reads one's remembered conversations for the other side's own yes. Each
remembered line keeps the answer it gave to an event as fields (`Line.rsvp`,
`Line.event`: a new answer, or one said again as news's tail), so a yes is read by field;
nothing here is worded for a particular event or reads the words back.
"""

from __future__ import annotations

from game.brains.questions import AgentContext
from game.core.records import Event, FactKind, Rsvp

from ..util import first_name, join_and

MOST = 4  # names said before 'and others'


def _same(a: Event | None, b: Event) -> bool:
    """The same event: its place and start (as `goals.rsvp_of` matches one's own answer)."""
    return a is not None and (a.place, a.start) == (b.place, b.start)


def heard_going(ctx: AgentContext, event: Event) -> list[str]:
    """The people one heard say they are going, most recent talk first: in a remembered
    conversation, the other side's line that answered yes to the event."""
    me, out = ctx.persona.name, []
    talks = [m for m in ctx.memories if m.fact.kind is FactKind.CONVERSATION]
    for m in sorted(talks, key=lambda m: m.created, reverse=True):
        for line in m.fact.lines:
            if line.speaker in (me, event.host) or line.speaker in out:
                continue
            if line.rsvp is Rsvp.ACCEPTED and _same(line.event, event):
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
