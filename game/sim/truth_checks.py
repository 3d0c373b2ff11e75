"""The claim checks: one function per kind of claim an answer may make (lives with,
lives at, works at, occupation, was at, quiet, told, and an event's host, place, day,
time, tense and who went), each reading one clause (`truth_reading.Reading`) and giving
what it found, checked against the save's truth.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta

from game.brains.event_words import start_readings
from game.core.records import Event
from game.sim.judge import claimed_source, named_times
from game.sim.measures import MIN_PRESENCE
from game.sim.results import Asked, Verdict
from game.sim.truth_reading import PAST, Claim, Found, Names, Part, Reading, day_named
from game.world.scenario import Resident
from game.world.town import split

CROWD = 3  # residents at a place together for MIN_PRESENCE: it was not quiet
TIME_SLACK = timedelta(minutes=15)  # 'at a quarter to' still names the event's start


def _persona(r: Reading, name: str) -> Resident | None:
    return r.truth.personas.get(name)


def lives_with(r: Reading) -> Iterator[Found]:
    """'I live at the dorm with Klaus and Maria', 'I live on my own'."""
    m = re.search(r"\b(?:live|lives|living)\b", r.part.tpl)
    if m is None:
        return
    who = _persona(r, r.subject_before(m.start()))
    if who is None:
        return
    rest = r.part.tpl[m.end() :]
    household = ", ".join(who.household) or "no one"
    if re.match(r"\s+(?:alone|on (?:my|his|her|their) own|by (?:my|him|her|them)sel(?:f|ves))",
                rest):  # fmt: skip
        bad = bool(who.household)
        yield r.found(Claim.LIVES_WITH, _v(bad), f"lives with {household}" if bad else "")
        return
    with_ = re.search(r"\bwith\b", rest)
    if with_ is None:
        return
    for token in re.findall(r"@r\d+(?!')", rest[with_.end() :]):
        other = r.who(token)
        if other == who.name:
            continue
        bad = other not in who.household
        why = f"{who.name} lives with {household}, not {other}" if bad else ""
        yield r.found(Claim.LIVES_WITH, _v(bad), why, value=other)


def _v(bad: bool, stale: bool = False) -> Verdict:
    if bad:
        return Verdict.CONTRADICTED
    return Verdict.STALE if stale else Verdict.BACKED


def lives_at(r: Reading) -> Iterator[Found]:
    for m in re.finditer(r"\b(?:live|lives|living)\s+(?:at|in)\s+(@p\d+|@h)", r.part.tpl):
        who = _persona(r, r.subject_before(m.start()))
        if who is None or m[1] == "@h":
            continue
        place = r.place(m[1], who.name)
        bad = place != who.home
        yield r.found(Claim.LIVES_AT, _v(bad), f"{who.name} lives at {who.home}" if bad else "",
                      value=place)  # fmt: skip


_WORK = re.compile(r"\b(?:work|works|worked|working|job|employed)\b(?:(?!@p|[,;])[^.]){0,40}?"
                   r"\b(?:at|in|for)\s+(@p\d+)")  # fmt: skip
_OWN = re.compile(r"\b(?:owner|owns|own|runs|run|running|manager|manages)\s+(?:of\s+)?(@p\d+)")


def works_at(r: Reading) -> Iterator[Found]:
    """A workplace: one's own, or (for 'work at') a place of one's routine; owning or
    running a place must be one's workplace."""
    for pattern, owns in ((_WORK, False), (_OWN, True)):
        for m in pattern.finditer(r.part.tpl):
            who = _persona(r, r.subject_before(m.start()))
            if who is None:
                continue
            place = r.place(m[1], who.name)
            routine = {split(b.place)[0] for b in who.routine} | {who.home}
            ok = place == who.workplace or (not owns and place in routine)
            why = f"{who.name} works at {who.workplace or 'no workplace'}" if not ok else ""
            yield r.found(Claim.WORKS_AT, _v(not ok), why, value=place)


def occupation(r: Reading) -> Iterator[Found]:
    """'I am a physics student', 'Klaus is a sociology student': a role the town knows."""
    if not r.names.roles:
        return
    roles = "|".join(map(re.escape, r.names.roles))
    pattern = rf"(@r\d+|\bi\b|\bhe\b|\bshe\b)\s+(?:am|is|was|works? as|working as)\s+" \
              rf"(?:a|an|the)\s+({roles})\b"  # fmt: skip
    for m in re.finditer(pattern, r.part.tpl):
        who = _persona(r, r.who(m[1]))
        if who is None:
            continue
        bad = re.search(rf"\b{re.escape(m[2])}\b", who.occupation.lower()) is None
        yield r.found(Claim.OCCUPATION, _v(bad), f"{who.name} is {who.occupation}" if bad else "",
                      value=m[2])  # fmt: skip


_THERE_WAS = re.compile(r"\bthere (?:was|were)\b")
_AT_PLACE = re.compile(r"\b(?:at|in|to|by|from|into|around)\s+(@p\d+|@h)")


def was_at(r: Reading) -> Iterator[Found]:
    """'In the afternoon I was having lunch at Hobbs Cafe': someone at a place in a past
    stretch of time, against the log."""
    if r.span is None or not PAST.search(r.part.tpl):
        return
    start, end = max(r.span.start, r.truth.since), min(r.span.end, r.truth.now)
    if start >= end:
        return
    for m in _AT_PLACE.finditer(r.part.tpl):
        name = r.subject_before(m.start(), default="")  # 'there was ... at': nobody's stay
        if not name or _THERE_WAS.search(r.part.tpl[: m.start()]):
            continue
        place = r.place(m[1], name)
        stays = r.truth.within(name, start, end)
        if not place or not stays:
            continue
        negated = re.search(r"\b(?:not|never)\b(?:\s+\S+){0,3}\s*$", r.part.tpl[: m.start()])
        there = r.truth.time_at(name, place, start, end)
        bad = there >= MIN_PRESENCE if negated else there == timedelta()
        where = ", ".join(sorted({s.place for s in stays}))
        why = f"the log has {name} at {where} then" if bad else ""
        yield r.found(Claim.WAS_AT, _v(bad), why, value=place)


_QUIET = re.compile(
    r"\b(?:quiet|empty|deserted|uneventful|(?:nobody|no one) (?:was )?"
    r"(?:there|around|came)|nothing (?:much )?(?:happened|going on))\b"
)


def quiet(r: Reading) -> Iterator[Found]:
    """'The pub was quiet last night': not when CROWD residents were there together."""
    if r.span is None or not _QUIET.search(r.part.tpl) or not PAST.search(r.part.tpl):
        return
    start, end = max(r.span.start, r.truth.since), min(r.span.end, r.truth.now)
    if start >= end:
        return
    name = r.subject_before(_QUIET.search(r.part.tpl).start())
    places = [r.place(t, name) for t in re.findall(r"@p\d+|@h", r.part.tpl)]
    places = places or sorted({s.place for s in r.truth.within(name, start, end)})
    for place in places:
        crowd = r.truth.crowd(place, start, end)
        bad = len(crowd) >= CROWD
        why = f"{len(crowd)} residents were at {place} then: {', '.join(crowd)}" if bad else ""
        yield r.found(Claim.QUIET, _v(bad), why, value=place)


def told(r: Reading) -> Iterator[Found]:
    """'Isabella told me': the memories hold something heard from her (about the event
    the clause speaks of, when it speaks of one)."""
    source = claimed_source(r.part.quote, r.truth.personas, r.said.resident)
    if not source:
        return
    about = next(iter(intents_in(r)), "")
    bad = not r.truth.told_by(r.said.resident, source, about)
    what = f" about {about}" if about else ""
    why = f"no memory of {r.said.resident}'s was heard from {source}{what}" if bad else ""
    yield r.found(Claim.TOLD, _v(bad), why, about, source)


# -- claims about an event -------------------------------------------------------------------

_HOSTS = r"hosting|hosted|hosts|throwing|threw|organi[sz]ing|organi[sz]ed|holding|held|" \
         r"putting on|put on|planning|planned|having"  # fmt: skip
# the verbs that say someone hosts an event even where its name is not said ('Isabella
# is hosting it'); 'having' and 'planning' name an event's host only beside its name
_HOSTED = r"hosting|hosted|hosts|throwing|threw|organi[sz]ing|organi[sz]ed"
_FUTURE = re.compile(r"\b(?:will|shall|gonna|(?:am|is|are) going to|wants? to|hopes?|"
                     r"hoping|plans? to|planning|is on|coming up|upcoming|tomorrow|tonight|"
                     r"later today|soon|preparing (?:for|to)|"
                     r"can not wait|looking forward|invite|inviting|getting ready|"
                     r"(?:is|are|am) (?:\w+ )?(?:hosting|throwing|having|holding|organi[sz]ing|"
                     r"putting on))\b")  # fmt: skip
_PAST_EVENT = re.compile(r"\b(?:went|hosted|threw|held|attended|came|enjoyed|yesterday|"
                         r"last night|ago|there (?:was|were)|(?:was|were) (?:there|great|fun|"
                         r"lovely|nice|wonderful|a success|over)|is over)\b")  # fmt: skip
_WENT = re.compile(r"((?:(?:@r\d+|\bi\b|\bwe\b)(?:\s*,\s*|\s+and\s+))*(?:@r\d+(?!')|\bi\b|\bwe\b))"
                   r"\s+(?:also\s+)?(did not go|did not make it|could not (?:go|come|make it)|"
                   r"was not there|missed it|skipped it|went|came|attended|was there|"
                   r"were there|showed up|made it|dropped by|stopped by)\b")  # fmt: skip


def named_intents(part: Part, names: Names) -> list[str]:
    return [i for k, i in enumerate(names.order) if f"@e{k}" in part.tpl]


def intents_in(r: Reading) -> list[str]:
    """The intents whose event the clause speaks of: by the event's words, or by 'it', a
    host's verb or a going-there verb after a clause that named one ('I hosted the book
    launch. Maria and Klaus came.') or in an answer to a question about one. A bare 'it'
    counts only after such a clause or in a follow-up's answer, whose 'it' is the event
    asked of ('I'm glad of it' after a phrasing is about anything)."""
    named = named_intents(r.part, r.names)
    if named:
        return named
    asked = tuple(i for i in (r.said.intent,) if i in r.truth.events)
    around = r.carried or asked
    its = r.carried or r.said.asked is Asked.FOLLOW_UP
    cue = rf"\b(?:{_HOSTED})\b|\bbehind\b" + (r"|\bit\b" if its else "")
    return list(around) if re.search(cue, r.part.tpl) or _WENT.search(r.part.tpl) else []


def _ref(r: Reading, intent: str) -> str:
    k = r.names.order.index(intent)
    return rf"(?:@e{k}|\bit\b)"


def event_claims(r: Reading) -> Iterator[Found]:
    for intent in intents_in(r):
        event = r.truth.events[intent]
        for check in (host, event_place, event_day, event_time, tense, went):
            yield from check(r, intent, event)


def host(r: Reading, intent: str, event: Event) -> Iterator[Found]:
    ref, tpl = _ref(r, intent), r.part.tpl
    found = [m[1] for m in re.finditer(rf"(@r\d+)'s\s+(?:[\w'@-]+\s+){{0,3}}?{ref}", tpl)]
    found += [m[1] for m in re.finditer(
        rf"(@r\d+|\bi\b|\bwe\b)\s+(?:(?:am|is|are|was|were|will be|will|has been|also)\s+)*"
        rf"(?:{_HOSTS})\s+(?:[\w'@-]+\s+){{0,4}}?{ref}", tpl)]  # fmt: skip
    found += [m[1] for m in re.finditer(
        rf"{ref}(?:\s+[\w'@-]+){{0,4}}?\s+(?:hosted|organi[sz]ed|thrown|held|put on|run)\s+by\s+"
        rf"(@r\d+)", tpl)]  # fmt: skip
    found += [m[1] for m in re.finditer(r"(@r\d+)\s+(?:is|was)\s+behind\b", tpl)]
    for name in dict.fromkeys(r.who(t) for t in found):
        bad = name != event.host
        yield r.found(Claim.HOST, _v(bad), f"the host is {event.host}" if bad else "", intent,
                      name)  # fmt: skip


def event_place(r: Reading, intent: str, event: Event) -> Iterator[Found]:
    ref = rf"(?:{_ref(r, intent)}|\b(?:{_HOSTED})\b)"
    pattern = rf"{ref}(?:\s+[\w'@-]+){{0,3}}?\s+(?:at|in)\s+(@p\d+)"
    for place in dict.fromkeys(r.part.places[int(m[1][2:])]
                               for m in re.finditer(pattern, r.part.tpl)):  # fmt: skip
        bad = place != event.place
        yield r.found(Claim.PLACE, _v(bad), f"it is at {event.place}" if bad else "", intent,
                      place)  # fmt: skip


def event_day(r: Reading, intent: str, event: Event) -> Iterator[Found]:
    """The day named (a date, a weekday, 'yesterday'); a forward word for an ended event
    is the tense check's, not a wrong day."""
    past = bool(_PAST_EVENT.search(r.part.tpl))
    day, ahead = day_named(r.part.plain, r.truth.now, past)
    if day is None or (ahead and r.truth.now >= event.end):
        return
    days = {event.start.date(), (event.end - timedelta(minutes=1)).date()}
    bad = day not in days
    why = f"it is on {event.start:%B} {event.start.day}" if bad else ""
    yield r.found(Claim.DAY, _v(bad), why, intent, day.isoformat())


def event_time(r: Reading, intent: str, event: Event) -> Iterator[Found]:
    readings = [set(x) for x in start_readings(r.part.plain)]
    readings += [{t} for t in named_times(r.part.plain) if not any(t in x for x in readings)]
    for minutes in readings:
        bad = not any(_during(event, m) for m in minutes)
        why = f"it is from {_clock(event.start)} to {_clock(event.end)}" if bad else ""
        yield r.found(Claim.TIME, _v(bad), why, intent, _clock_of(min(minutes)))


def _during(event: Event, minute: int) -> bool:
    for day in {event.start.date(), event.end.date()}:
        at = datetime.combine(day, datetime.min.time()) + timedelta(minutes=minute)
        if event.start - TIME_SLACK <= at <= event.end:
            return True
    return False


def _clock(when: datetime) -> str:
    return _clock_of(when.hour * 60 + when.minute)


def _clock_of(minute: int) -> str:
    hour, rest = divmod(minute, 60)
    return f"{(hour - 1) % 12 + 1}{f':{rest:02d}' if rest else ''} {'am' if hour < 12 else 'pm'}"


def tense(r: Reading, intent: str, event: Event) -> Iterator[Found]:
    """Ahead or behind, by the tense cue nearest the event's words: an ended event spoken
    of as to come is stale; one yet to come spoken of as over is contradicted."""
    tpl, k = r.part.tpl, r.names.order.index(intent)
    refs = [m.start() for m in re.finditer(rf"@e{k}|\bit\b", tpl)] or [0]
    cues = [(m.start(), True) for m in _FUTURE.finditer(tpl)]
    cues += [(m.start(), False) for m in _PAST_EVENT.finditer(tpl)]
    if not cues:
        return
    _, ahead = min(cues, key=lambda c: min(abs(c[0] - p) for p in refs))
    now = r.truth.now
    if ahead and now >= event.end:
        yield r.found(Claim.TENSE, Verdict.STALE, f"it ended {_when(event.end)}", intent, "ahead")
    elif not ahead and now < event.start:
        why = f"it is still to come, {_when(event.start)}"
        yield r.found(Claim.TENSE, Verdict.CONTRADICTED, why, intent, "over")
    else:
        yield r.found(Claim.TENSE, Verdict.BACKED, "", intent, "ahead" if ahead else "over")


def _when(t: datetime) -> str:
    return f"{t:%B} {t.day} at {_clock(t)}"


def went(r: Reading, intent: str, event: Event) -> Iterator[Found]:
    """'Maria and Klaus came', 'but I did not go': against the log. A yes is contradicted
    by no presence at the venue; a no only by attending as `measures.attendance` counts it
    (declined, then in class in the same building, one did not go)."""
    if r.truth.now < event.start or event.start < r.truth.since:
        return
    end = min(event.end, r.truth.now)
    for m in _WENT.finditer(r.part.tpl):
        negated = m[2].startswith(("did not", "could not", "was not", "missed", "skipped"))
        for token in re.findall(r"@r\d+|\bi\b|\bwe\b", m[1]):
            name = r.who(token)
            there = r.truth.time_at(name, event.place, event.start, end)
            came = name in r.truth.attended.get(intent, ())
            bad = came if negated else there == timedelta()
            minutes = int(there.total_seconds() // 60)
            why = f"{name} was at {event.place} for {minutes} minutes of it" if bad else ""
            why += ", doing the event's things" if bad and negated else ""
            yield r.found(Claim.WENT, _v(bad), why, intent, "no" if negated else "yes")


ABOUT_EVENTS = frozenset((Claim.HOST, Claim.PLACE, Claim.DAY, Claim.TIME, Claim.WENT))
CHECKS = (lives_with, lives_at, works_at, occupation, was_at, quiet, told, event_claims)
