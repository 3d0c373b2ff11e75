"""Interview answers about time to come: what one looks forward to (the next event one
means to go to, else one's work, else the rest of the day), and what one will be doing at
a time the question names (an event then, else the plan, else the routine).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from game.brains.event_words import find_date, find_window
from game.brains.questions import AgentContext
from game.core.records import Event, FactKind
from game.world.scenario import Resident

from . import selfknow
from .plans import attends, event_text, remembered_events, sleep_time
from .util import has_any, join_and
from .wording import mine


def _event_when(now: datetime, event: Event) -> str:
    """'today at 5 pm', 'on Tuesday at 5 pm'."""
    day = "today" if event.start.date() == now.date() else f"on {event.start:%A}"
    return f"{day} at {selfknow.clock(event.start.hour * 60 + event.start.minute)}"


def _ahead(ctx: AgentContext, question: str, seed: int) -> str:
    """What one looks forward to: the next event one means to go to, else the work one
    cares about, else what is left of the day, with an event just over said as past.
    Never "I don't know": everyone has something ahead of them."""
    ahead = _looking_ahead(ctx, seed)
    just_over = _just_over(ctx)
    if not just_over or ahead.startswith("I'm looking forward"):
        return ahead
    return f"{ahead} Mind you, {just_over[:1].lower()}{just_over[1:]}"


JUST_OVER = timedelta(hours=36)  # an event over for less than this is still spoken of


def _just_over(ctx: AgentContext) -> str:
    """The latest event one knows of that ended lately, in the past ('There was Giorgio's
    stargazing evening at Johnson Park yesterday ...'): asked what is coming the morning
    after, people say what just was, and knowing of it shows."""
    from game.brains.dialogue.acts import Wh

    from .answer.events import event_line

    over = [
        k for k in remembered_events(ctx.memories)
        if ctx.now - JUST_OVER <= k.event.end <= ctx.now
    ]  # fmt: skip
    if not over:
        return ""
    last = max(over, key=lambda k: k.event.end)
    return event_line(ctx, last.event, "", "", last.intent, Wh.NONE)


def _looking_ahead(ctx: AgentContext, seed: int) -> str:
    me = ctx.persona
    coming = sorted(
        (k.event for k in remembered_events(ctx.memories) if k.event.end > ctx.now),
        key=lambda e: e.start,
    )
    for event in coming:
        if attends(me, event, seed):
            when = _event_when(ctx.now, event)
            return f"I'm looking forward to {event_text(me, event)} {when}."
    project = selfknow.own_project(me, ctx.now, ctx.memories)
    over = [
        k.event.what for k in remembered_events(ctx.memories)
        if k.event.host == me.name and k.event.end <= ctx.now and k.event.what
    ]  # fmt: skip
    # a project that is one's own event, come and gone, is no longer ahead
    if project and not has_any(project, tuple(re.escape(w) for w in over)):
        return f"Getting on with my work, mostly. {project.rstrip('.')}."
    later = [i for i in selfknow.plan_for(ctx.memories, ctx.now.date()) if i.start > ctx.now]
    if later:
        return f"Later today I'm {mine(later[0].description, me)}, and I'm glad of it."
    if me.interests:
        liked = join_and([mine(i, me) for i in me.interests[:2]])
        return f"Nothing in particular on the calendar. I always enjoy {liked}."
    return "A quiet day, mostly. Nothing special is planned, and that suits me."


def _plans(ctx: AgentContext, question: str, seed: int) -> str:
    window = find_window(question)
    if window is None:
        return ""
    day = find_date(question, ctx.now.year, ctx.now.date())[0] or ctx.now.date()
    when = datetime.combine(day, datetime.min.time()) + timedelta(minutes=window[0])
    return _event_at(ctx, when, seed) or _plan_at(ctx, when) or _routine_at(ctx.persona, when)


def _event_at(ctx: AgentContext, when: datetime, seed: int) -> str:
    """An event the memories name (by field) that is on at that time."""
    for known in remembered_events(ctx.memories):
        event = known.event
        if event.start <= when < event.end:
            if attends(ctx.persona, event, seed):
                return f"I'll be {event_text(ctx.persona, event)}."
            return f"There's the {event.what or 'event'} at {event.place}, but I'll give it a miss."
    return ""


def _plan_at(ctx: AgentContext, when: datetime) -> str:
    """What the plan memory for that day has at that time."""
    for m in ctx.memories:
        for item in m.fact.plan if m.fact.kind is FactKind.PLAN else ():
            if item.covers(when):
                me = ctx.persona
                place = item.place.split(":")[0]
                at = " at home" if place == me.home else f" at {place}" if place else ""
                if place and place in item.description or at.strip() in item.description:
                    at = ""
                span = f"{_clock_of(item.start)} to {_clock_of(item.end)}"
                return f"According to my plan, I'll be {mine(item.description, me)}{at}, {span}."
    return ""


def _clock_of(when: datetime) -> str:
    return selfknow.clock(when.hour * 60 + when.minute)


def _routine_at(me: Resident, when: datetime) -> str:
    wake = datetime.combine(when.date(), datetime.min.time()) + timedelta(minutes=me.wake)
    if when < wake or when >= sleep_time(me, wake):
        return "I'll most likely be asleep at that hour."
    minute = when.hour * 60 + when.minute
    for block in me.routine:
        end = block.end if block.end > block.start else block.end + 24 * 60
        if block.start <= minute < end:
            place = block.place.split(":")[0]
            at = "at home" if place == me.home else f"at {place}"
            return f"Probably {mine(block.activity, me)} {at}, like most days."
    return "I haven't planned that far ahead yet."
