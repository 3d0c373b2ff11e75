"""One's day: a time window (the past from one's own actions, the future from the plan),
when one got up or went to bed, meals, what is next and what one looks forward to, one's
usual day and hours of sleep, and what one is doing now.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from game.brains.dialogue.acts import Act, Aspect, Wh
from game.brains.dialogue.understand import content_stems
from game.brains.dialogue.understand import words as words_of
from game.brains.questions import AgentContext

from .. import interview as iv
from .. import interview_plans as ip
from .. import selfknow
from ..plans import remembered_events
from ..util import join_and
from ..wording import mine
from .account import at_words as _at_words
from .account import done_in as _done_in
from .events import going
from .people import _talked
from .persona import plan_work_here
from .phrasing import _LIVES, _WORK_WORDS, _clock, _day, _when_words
from .polar import _at_work, with_polarity


def plan_at(ctx: AgentContext, act: Act, seed: int) -> str:
    """A time window: the past from one's own actions, the future from the plan."""
    window = act.window
    if window is None:
        return ""
    if window.start > ctx.now and window.end - window.start >= timedelta(hours=20):
        return _day_ahead(ctx, window.start, seed)
    when = window.start
    if act.wh is Wh.WHO and act.aspect is Aspect.PAST and window.start <= ctx.now:
        return _talked(ctx, act)  # 'who did you talk to yesterday?'
    so_far = window.start <= ctx.now <= window.end and act.wh is not Wh.WHO  # 'since ...'
    if act.aspect is Aspect.PAST and so_far:  # 'so far today', not 'who did you see today?'
        done = _done_in(ctx, window.start, ctx.now) or _routine_so_far(ctx, window.start)
        if done:
            return done
    if window.start <= ctx.now < window.end:  # 'today', 'this afternoon': from now on
        items = selfknow.plan_for(ctx.memories, ctx.now.date())
        now_on = [i for i in items if i.start <= ctx.now < i.start + timedelta(minutes=i.minutes)]
        later = [i for i in items if i.start >= ctx.now and i.start < window.end]
        said = [mine(i.description, ctx.persona) for i in later[:3]]
        if now_on and window.start >= ctx.now - timedelta(minutes=30):  # 'at three', at 3 pm
            head = f"Right now I'm {mine(now_on[0].description, ctx.persona)}"
            return f"{head}; later I'm {join_and(said)}." if said else f"{head}."
        if later:
            return f"Later I'm {join_and(said)}."
        when = ctx.now
    if when < ctx.now - timedelta(hours=1) and window.end <= ctx.now:
        whole_day = window.end - window.start >= timedelta(hours=20)
        if whole_day and window.start.date() == ctx.now.date() - timedelta(days=1):
            return selfknow.yesterday(ctx, act.text, seed)  # the day by its parts, and talks
        done = _done_in(ctx, window.start, window.end)
        if window.end - window.start <= POINT and window.start.date() != ctx.now.date():
            # 'at 4 pm yesterday?': what one remembers beginning about then, else the plan
            # item under way then (the actions remembered later in the two hours began
            # later; a plan made that morning may have changed since)
            near = _done_in(ctx, window.start - NEAR_BEFORE, window.start + NEAR_AFTER)
            return near or _planned_then(ctx, window) or done or \
                selfknow.yesterday(ctx, act.text, seed)  # fmt: skip
        if done or window.start.date() != ctx.now.date():
            return done or _planned_then(ctx, window) or selfknow.yesterday(ctx, act.text, seed)
        return _routine_then(ctx, window.start)  # earlier today, with no memory of it at hand
    return (
        ip._event_at(ctx, when, seed) or ip._plan_at(ctx, when) or ip._routine_at(ctx.persona, when)
    )


def _planned_then(ctx: AgentContext, window) -> str:
    """An earlier day's stretch ('at noon yesterday', 'last night') by that day's plan,
    when no memory of doing it came up: the items the stretch overlaps, where they were."""
    me = ctx.persona
    items = [i for i in selfknow.plan_for(ctx.memories, window.start.date())
             if i.start < window.end and i.start + timedelta(minutes=i.minutes) > window.start]
    if not items:
        return ""
    said = []
    for i in items[:2]:
        what, place = mine(i.description, me), i.place.split(":")[0]
        at = " at home" if place == me.home else f" at {place}"
        said.append(what if not place or place in what or at.strip() in what else what + at)
    start = window.start
    day = "yesterday" if start.date() == ctx.now.date() - timedelta(days=1) else f"on {start:%A}"
    when = f"At {_clock(start)} {day}" if window.end - start <= timedelta(hours=2) else \
        iv._when(ctx.now, start).capitalize()
    if _PART_SAID.search(window.words):  # 'last night', 'yesterday evening', as asked
        when = window.words[:1].upper() + window.words[1:]
    return f"{when}, I was {join_and(said)}."


_PART_SAID = re.compile(r"^(?:last|yesterday) (?:night|morning|afternoon|evening)$", re.I)


def _routine_then(ctx: AgentContext, when: datetime) -> str:
    me, minute = ctx.persona, when.hour * 60 + when.minute
    block = next((b for b in me.routine if b.start <= minute < b.end), None)
    if block is None:
        return ""
    return f"At {_clock(when)} I was probably {_block_words(me, block)}, as most days."


def _routine_so_far(ctx: AgentContext, since: datetime) -> str:
    """What one's day has held so far, by one's routine, when no memory of it came up."""
    me, now = ctx.persona, ctx.now.hour * 60 + ctx.now.minute
    start = max(since.hour * 60 + since.minute, me.wake) if since.date() == ctx.now.date() else 0
    blocks = [b for b in me.routine if start <= b.start < now]
    if not blocks:
        return ""
    return f"So far I've been {join_and([_block_words(me, b) for b in blocks[:3]])}."


def _day_ahead(ctx: AgentContext, day: datetime, seed: int) -> str:
    """A whole day to come: the events one goes to that day, else one's usual day."""
    me = ctx.persona
    events = [k.event for k in remembered_events(ctx.memories)
              if k.event.start.date() == day.date() and going(ctx, k.event, seed)]  # fmt: skip
    when = _day(ctx.now, day)
    if events:
        e = events[0]
        return f"{when[:1].upper()}{when[1:]} I'm going to the {e.what or 'event'} at {e.place}."
    blocks = sorted(me.routine, key=lambda b: (b.start - me.wake) % (24 * 60))[:3]
    if not blocks:
        return f"Nothing special {when}."
    said = join_and([mine(b.activity, me) for b in blocks])
    return f"{when[:1].upper()}{when[1:]} will be a usual day: {said}."


POINT = timedelta(hours=2)  # a window this short is a time of day asked of ('at four')
NEAR_BEFORE, NEAR_AFTER = timedelta(minutes=15), timedelta(minutes=30)  # 'about' that time


def plan_past(ctx: AgentContext, act: Act, seed: int) -> str:
    if act.label == "meal":
        return plan_meal(ctx, act)
    if act.wh is Wh.WHEN and (_WOKE.search(act.text) or _SLEPT.search(act.text)):
        return _woke_slept(ctx, act)
    if act.window is not None:
        return plan_at(ctx, act, seed)
    today = ctx.now.replace(hour=0, minute=0, second=0, microsecond=0)
    return (
        selfknow.yesterday(ctx, act.text, seed)
        if "yesterday" in act.text.lower()
        else (_done_in(ctx, today, ctx.now) or selfknow.yesterday(ctx, act.text, seed))
    )


_WOKE = re.compile(r"\b(?:get|got|getting) up\b(?! to\b)|\b(?:wake|woke|waking|rise|rose)\b", re.I)
_SLEPT = re.compile(r"\b(?:go|went|get|got) to (?:bed|sleep)\b|\b(?:fell|fall) asleep\b|"
                    r"\bturn(?:ed)? in\b|\bbedtime\b", re.I)  # fmt: skip


def _woke_slept(ctx: AgentContext, act: Act) -> str:
    """'When did you get up today?' 'When did you go to bed last night?': one's hours, in
    the tense the day asked of takes."""
    me = ctx.persona
    day = act.window.start.date() if act.window is not None else ctx.now.date()
    if _WOKE.search(act.text):
        woke = datetime.combine(day, datetime.min.time()) + timedelta(minutes=me.wake)
        verb = "I got up" if woke <= ctx.now else "I'll be up"
        return f"{verb} around {selfknow.clock(me.wake)} {_day(ctx.now, woke)}."
    slept = datetime.combine(day, datetime.min.time()) + timedelta(minutes=me.sleep)
    if me.sleep < me.wake:
        slept += timedelta(days=1)  # bed after midnight belongs to the night before
    verb = "I went to bed" if slept <= ctx.now else "I'll go to bed"
    return f"{verb} around {selfknow.clock(me.sleep)} {_day(ctx.now, slept)}."


# a meal by its name, or by the time of day a line names instead ('where do you eat at
# midday?'); with the usual hour of each, for a day whose plan names no meal
MEALS = {"breakfast": "breakfast", "brunch": "breakfast", "lunch": "lunch", "dinner": "dinner",
         "supper": "dinner", "midday": "lunch", "noon": "lunch",
         "lunchtime": "lunch", "dinnertime": "dinner"}  # fmt: skip
MEAL_HOURS = {"breakfast": 8, "lunch": 12, "dinner": 19}


def meal_asked(act: Act) -> str:
    """Which meal a question asks of: the one it names, else the one its time of day holds,
    else '' (any meal)."""
    said = [*words_of(act.text), *words_of(act.event)]  # a follow-up's event: the topic's words
    found = next((MEALS[w] for w in said if w in MEALS), "")
    if found or act.window is None:
        return found
    hour = act.window.start.hour
    return "breakfast" if hour < 11 else "lunch" if hour < 16 else "dinner"


def plan_meal(ctx: AgentContext, act: Act) -> str:
    """A meal: on the day asked of (today by default), from that day's plan, where and when,
    in the tense its time takes; else from one's routine; else what one is usually doing at
    that meal's hour (everybody eats; the resident says where it happens)."""
    me, meal = ctx.persona, meal_asked(act)
    day = act.window.start.date() if act.window is not None else ctx.now.date()
    keys = (meal,) if meal else tuple(MEAL_HOURS)
    items = [i for i in selfknow.plan_for(ctx.memories, day)
             if any(k in i.description.lower() for k in keys)]  # fmt: skip
    if items:
        item = min(items, key=lambda i: abs(i.start.hour - MEAL_HOURS.get(meal, i.start.hour)))
        return _item_line(ctx, item)
    usual = next((b for b in me.routine if any(k in b.activity.lower() for k in keys)), None)
    if usual is not None:
        where = " " + _at_words(me, usual.place) if usual.place else ""
        where = "" if where and where.strip() in usual.activity else where
        at = selfknow.clock(usual.start)
        return f"Usually I'm {mine(usual.activity, me)}{where} around {at}."
    hour = MEAL_HOURS.get(meal or "lunch", 12) * 60
    block = next((b for b in me.routine if b.start <= hour < b.end), None)
    if block is None:
        return ""
    return f"I usually grab a bite around {selfknow.clock(hour)}, while {_block_words(me, block)}."


def _item_line(ctx: AgentContext, item) -> str:
    """One plan item, in the past if it has begun, else to come."""
    me = ctx.persona
    what = mine(item.description, me)
    where = " " + _at_words(me, item.place) if item.place else ""
    if where and where.strip() in what:  # 'having lunch at home', not '... at home at home'
        where = ""
    when = _day(ctx.now, item.start)
    clock = _clock(item.start)
    if item.start <= ctx.now:
        return f"{when[:1].upper()}{when[1:]} I was {what}{where}, around {clock}."
    return f"{when[:1].upper()}{when[1:]} I'll be {what}{where}, around {clock}."


def plan_plans(ctx: AgentContext, act: Act, seed: int) -> str:
    if act.wh is Wh.WHEN and (_WOKE.search(act.text) or _SLEPT.search(act.text)):
        return _woke_slept(ctx, act)
    if act.window is not None and act.label != "ahead":
        return plan_at(ctx, act, seed)
    if act.label == "ahead":
        return _ahead(ctx, seed)
    if _NEXT.search(act.text):
        later = [i for i in selfknow.plan_for(ctx.memories, ctx.now.date()) if i.start > ctx.now]
        if later:  # 'what are you doing after this?': the next thing in the plan
            nxt = later[0]
            return f"After this I'm {mine(nxt.description, ctx.persona)}, from " \
                   f"{selfknow.clock(nxt.start.hour * 60 + nxt.start.minute)}."  # fmt: skip
    return selfknow.today(ctx, act.text, seed)


_NEXT = re.compile(r"\b(?:after this|after that|afterwards|next)\b", re.I)


def _ahead(ctx: AgentContext, seed: int) -> str:
    """What one looks forward to: an event one is going to (one's own answer counts), else
    one's work, else the rest of the day."""
    coming = sorted((k.event for k in remembered_events(ctx.memories) if k.event.end > ctx.now),
                    key=lambda e: e.start)  # fmt: skip
    for event in coming:
        if going(ctx, event, seed):
            return (
                f"I'm looking forward to the {event.what or 'event'} at {event.place} "
                f"{_when_words(ctx.now, event)}."
            )
    return ip._ahead(ctx, "", seed) if not coming else _work_ahead(ctx, seed)


def _work_ahead(ctx: AgentContext, seed: int) -> str:
    project = selfknow.own_project(ctx.persona, ctx.now, ctx.memories)
    if project:
        return f"Getting on with my work, mostly. {project.rstrip('.')}."
    return "A quiet few days, mostly, and that suits me."


def sleep_words(me) -> str:
    """When one gets up and goes to bed, and so how long one sleeps."""
    hours = round(((me.wake - me.sleep) % (24 * 60)) / 60)
    return (f"I'm up around {selfknow.clock(me.wake)} and in bed by {selfknow.clock(me.sleep)}, "
            f"so about {hours} hours of sleep.")  # fmt: skip


_SLEEP_WORDS = frozenset(content_stems("sleep bed wake up rise get turn asleep hours night "
                                       "shut-eye kip snooze slumber"))  # fmt: skip
# the first of one's day: 'first thing', 'what do you do first when you wake up?', 'right
# after you get up'; the last: 'last thing', 'your last habit before your head hits the
# pillow', 'before sleeping'
_FIRST = re.compile(r"\b(?:first|1st)\b(?=.*\b(?:wake|woke|waking|up|morning|day|thing|things)\b)|"
                    r"\b(?:first|1st) (?:thing|things|hour|hours|bit|part)\b|"
                    r"\bstart (?:of )?your day\b|\b(?:right |just )?after (?:you )?(?:wake|get up|"
                    r"waking|getting up)\b", re.I)  # fmt: skip
_SLEEP_TIME = (r"(?:bed|sleep\w*|lights out|(?:your )?head hits the pillow|the pillow|"
               r"turn(?:ing)? in|hit(?:ting)? the (?:hay|sack))")
_LAST = re.compile(rf"\blast (?:\w+ ){{0,2}}(?:thing|things|habit|habits|ritual|bit|job|task)s?\b|"
                   r"\bend (?:of )?(?:your|the) (?:day|evening)\b|"
                   r"\b(?:just |right )?before (?:you |your |going |heading |getting )?"
                   rf"(?:go |get )?(?:to |in )?{_SLEEP_TIME}|\bwind(?:ing)? down\b|"
                   r"\bbedtime (?:ritual|routine|habits?)\b|"
                   r"\b(?:round|wrap|finish|close) (?:off |up |out )?(?:your|the) "
                   r"(?:day|evening)\b",
                   re.I)  # fmt: skip
_HOW_MANY = re.compile(r"\bhow (?:many|much|long)\b", re.I)


def _block_words(me, block) -> str:
    place = block.place.split(":")[0]
    at = " at home" if place == me.home else f" at {place}" if place else ""
    return f"{mine(block.activity, me)}{at} from {selfknow.clock(block.start)}"


def plan_routine(ctx: AgentContext, act: Act, seed: int) -> str:
    """A usual day: asked of a part of the day, what one usually does then; else the
    day from waking to bed."""
    me = ctx.persona
    if act.wh is Wh.WHEN and act.window and (_WOKE.search(act.text) or _SLEPT.search(act.text)):
        return _woke_slept(ctx, act)  # 'when did you get up this morning?': that day's
    hours = sleep_words(me)
    sleep = bool(content_stems(act.text) & _SLEEP_WORDS)
    if _FIRST.search(act.text) and me.routine and not act.window:  # 'first thing you do?'
        first = [_block_words(me, b) for b in me.routine[:2]]
        return f"I'm up around {selfknow.clock(me.wake)}; first I'm {join_and(first)}."
    if _LAST.search(act.text) and me.routine:  # 'the last thing before bed?'
        last = _block_words(me, me.routine[-1])
        return f"Last thing, I'm {last}, and I'm in bed by {selfknow.clock(me.sleep)}."
    if (
        act.label in ("routine.early", "routine.late")
        and act.wh is Wh.YESNO
        or (act.wh is Wh.WHEN and not act.window and sleep)
        or (sleep and _HOW_MANY.search(act.text))
    ):
        return hours
    if act.window is not None:
        start = act.window.start.hour * 60 + act.window.start.minute
        end = start + max(4 * 60, int((act.window.end - act.window.start).total_seconds() // 60))
        if start < 12 * 60:
            start = min(start, me.wake)  # one's morning starts when one gets up
        within = [b for b in me.routine if start <= b.start < end]  # a habit: 4 hours of it
        covering = [b for b in me.routine if b.start < start < b.end]  # '3 pm': under way then
        blocks = covering + within
        if blocks:
            said = [_block_words(me, b) for b in blocks[:3]]
            return f"Usually I'm {join_and(said)}. {hours}"
    return selfknow.weekday(ctx, act.text, seed) or hours


def plan_doing(ctx: AgentContext, act: Act, seed: int) -> str:
    """Where one is and what one is doing, from the current action and place; asked
    'busy painting?', yes or no by whether the words are one's action's."""
    if _NEXT.search(act.text) and act.wh is not Wh.YESNO:
        return plan_plans(ctx, act, seed)  # 'what are you doing after this?'
    where = iv._where(ctx, act.text, seed)
    if act.wh in (Wh.WHEN, Wh.HOW):
        item = next((i for i in selfknow.plan_for(ctx.memories, ctx.now.date())
                     if i.covers(ctx.now)), None)  # fmt: skip
        if item is not None:
            return f"{where.rstrip('.')}, until about {_clock(item.end)}."
    if act.wh is not Wh.YESNO or not act.event:
        return where
    doing = content_stems(ctx.status) | content_stems(ctx.location.replace(":", " "))
    if ctx.location.split(":")[0] == ctx.persona.home:
        doing |= _LIVES  # 'are you at home?' at one's own house
    asked = content_stems(act.event) - {"busy", "still", "right", "now", "moment"}
    if asked and asked <= _WORK_WORDS:  # 'are you at work now?'
        return with_polarity(plan_work_here(ctx, act, seed), _at_work(ctx, act, seed))
    if not asked:
        return where
    return f"Yes! {where}" if asked & doing else f"Not really. {where}"
