"""Truth checks: every interview answer `evaluate` collects, its claims checked against the
save.

The paper counted a hallucination where an answer claimed what the agent could not know,
and checked only yes-answers. Here every answer (the battery, each diffusion phrasing and
its follow-up, 'Do you know <name>?') is read for claims of a few typed kinds (`Claim`),
found by the town's own names (its residents, its places, the words of the events its
intents declare) and a small set of cue words that belong to no scenario. Each claim is
checked against what the save holds: the personas (home, household, workplace,
occupation), the event log (who was where, when), the memories' fields (who told whom)
and the clock (has the event ended?). A claim the save does not bear out is
contradicted; an ended event spoken of as still to come is stale.

The truth is fields, never memory text; only the answers, which are brain output, are
read as text. A claim this reading cannot place (a time nobody said, a place the town has
no name for, a window before the log began) is left unchecked rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import Enum
from itertools import combinations

from game.brains.dialogue.understand import STOP, Lexicon, stem
from game.brains.event_words import find_date, start_readings
from game.core.records import Event
from game.sim.events import EventKind
from game.sim.judge import claimed_source, named_times
from game.sim.measures import MIN_PRESENCE, DiffusionAnswers, know_question, records
from game.sim.results import (
    Asked,
    ClaimTally,
    Consistency,
    Diffusion,
    PairCase,
    TruthCase,
    TruthCheck,
    Verdict,
)
from game.world.scenario import Resident, denies
from game.world.town import split

METHOD = (
    "every answer evaluate collects (the battery, each phrasing and its follow-up, 'Do you "
    "know <name>?' at the end) read for typed claims by the town's own names: lives with, "
    "lives at, works at, occupation (the personas and their households); was at a place at "
    "a time, and a quiet place (the event log); told me (the memories' sources); an event's "
    "host, place, day and time, whether one went (the intents' events and the log), and "
    "its tense (the clock). Contradicted: the save says otherwise; stale: an ended event "
    "spoken of as still to come. Paraphrase consistency: of each resident's pairs of "
    "phrasings, the share whose conversations agree"
)
CROWD = 3  # residents at a place together for MIN_PRESENCE: it was not quiet
TIME_SLACK = timedelta(minutes=15)  # 'at a quarter to' still names the event's start


class Claim(Enum):
    """What an answer claims, by kind."""

    LIVES_WITH = "lives with"
    LIVES_AT = "lives at"
    WORKS_AT = "works at"
    OCCUPATION = "occupation"
    WAS_AT = "was at"
    QUIET = "quiet"
    TOLD = "told"
    WENT = "went"
    HOST = "event host"
    PLACE = "event place"
    DAY = "event day"
    TIME = "event time"
    TENSE = "tense"


@dataclass(frozen=True)
class Said:
    """One answer to check: who gave it, to which interview and question, and the intent
    the question asks about ('' when none: its words are then the only guide)."""

    resident: str
    asked: Asked
    question: str
    answer: str
    after: str = ""  # the phrasing a follow-up's answer followed
    intent: str = ""


@dataclass(frozen=True)
class Found:
    """One claim, checked. `value` is what it names (a host, a place, a day), so that two
    phrasings' answers can be compared."""

    kind: Claim
    quote: str
    verdict: Verdict
    why: str = ""
    intent: str = ""
    value: str = ""


# -- the save's truth ---------------------------------------------------------------------


@dataclass(frozen=True)
class Stay:
    """One action of the log: from its time to the next action's, at a sector."""

    start: datetime
    end: datetime
    place: str


@dataclass(frozen=True)
class Truth:
    """What the save holds that an answer may be checked against."""

    now: datetime
    since: datetime  # the log's first entry: nothing before it is known
    personas: Mapping[str, Resident]
    stays: Mapping[str, tuple[Stay, ...]]
    events: Mapping[str, Event]  # intent id -> its event, host filled in
    heard: Mapping[str, frozenset[tuple[str, str]]]  # resident -> (who told them, intent id)

    def within(self, name: str, start: datetime, end: datetime) -> list[Stay]:
        return [s for s in self.stays.get(name, ()) if s.start < end and start < s.end]

    def time_at(self, name: str, place: str, start: datetime, end: datetime) -> timedelta:
        total = timedelta()
        for s in self.within(name, start, end):
            if s.place == place:
                total += min(s.end, end) - max(s.start, start)
        return total

    def crowd(self, place: str, start: datetime, end: datetime) -> list[str]:
        return sorted(n for n in self.stays if self.time_at(n, place, start, end) >= MIN_PRESENCE)

    def told_by(self, name: str, source: str, intent: str = "") -> bool:
        return any(s == source and (not intent or i == intent) for s, i in self.heard[name])


def truth_of(sim) -> Truth:
    """The save's truth: personas, the log's stays, the events, who heard what from whom."""
    actions = sorted(sim.log.of(EventKind.ACTION), key=lambda e: e.time)
    stays: dict[str, list[Stay]] = {}
    for name in sim.agents:
        mine = [(e.time, e.data.get("address", "")) for e in actions if e.agent == name]
        ends = [t for t, _ in mine[1:]] + [sim.now] if mine else []
        stays[name] = [Stay(t, end, split(a)[0]) for (t, a), end in zip(mine, ends, strict=True)
                       if a]  # fmt: skip
    events = {i.id: _hosted(i.event, i.holder) for i in sim.scenario.intents if i.event}
    return Truth(
        sim.now,
        actions[0].time if actions else sim.now,
        {n: a.persona for n, a in sim.agents.items()},
        {n: tuple(s) for n, s in stays.items()},
        events,
        {n: _heard(sim, n) for n in sim.agents},
    )


def _hosted(event: Event, holder: str) -> Event:
    return event if event.host else Event(event.place, event.start, event.end, event.what, holder)


def _heard(sim, name: str) -> frozenset[tuple[str, str]]:
    """Who told the resident something (by memory field), and about which intent; a
    conversation in the log counts as having been told something, of no intent."""
    out = {(r.fact.heard_from, r.fact.intent) for r in records(sim.agents[name])
           if r.fact.heard_from}  # fmt: skip
    for e in sim.log.of(EventKind.CONVERSATION):
        people = e.data.get("participants", [])
        if name in people:
            out |= {(p, "") for p in people if p != name}
    return frozenset(out)


# -- the town's names ---------------------------------------------------------------------


@dataclass(frozen=True)
class Names:
    """How the town names its people, places, occupations and events."""

    lexicon: Lexicon
    roles: tuple[str, ...]  # 'sociology student', 'owner', 'grocer': the town's occupations
    terms: Mapping[str, frozenset[str]]  # intent id -> stems of the words naming its event
    order: tuple[str, ...]  # the intents with an event, in the scenario's order


def names_of(sim) -> Names:
    residents = [a.persona for a in sim.agents.values()]
    lexicon = Lexicon.of([r.name for r in residents], [a.name for a in sim.town.sectors()])
    roles = sorted({r for p in residents for r in roles_of(p.occupation)}, key=len, reverse=True)
    terms = {i.id: event_terms(i.keywords, i.event.what) for i in sim.scenario.intents if i.event}
    return Names(lexicon, tuple(roles), terms, tuple(terms))


_ROLE_END = re.compile(r"\s+(?:at|of|for|in|who|that|with|on|from)\b.*|\s+\w+ing\b.*")


def roles_of(occupation: str) -> list[str]:
    """The roles an occupation names: 'bartender and owner of The Rose and Crown Pub' ->
    'bartender', 'owner'. Any resident's role is a word the town uses for a job."""
    out = []
    for piece in re.split(r",\s*|\s+and\s+", occupation.lower()):
        role = _ROLE_END.sub("", piece.strip()).strip()
        role = re.sub(r"^(?:a|an|the)\s+", "", role)
        if len(role) > 3:
            out.append(role)
    return out


def event_terms(keywords: Sequence[str], what: str) -> frozenset[str]:
    """The words that say a clause speaks of an event: its keywords, each by its last
    word ('book launch' -> 'launch'), and the last word of its name; not every word of
    the name, or 'book' would make every author's talk of books the event."""
    heads = [k.split()[-1] for k in keywords if k.split()] + what.lower().split()[-1:]
    return frozenset(_stem(w) for w in heads if w not in STOP and len(w) > 3)


def _stem(word: str) -> str:
    return stem(word.lower().removesuffix("'s").removesuffix("’s"))


# -- an answer's parts, with the names masked ------------------------------------------------

_CONTRACTIONS = (("’", "'"), ("can't", "can not"), ("won't", "will not"), ("n't", " not"),
                 ("i'm", "i am"), ("'ll", " will"), ("'ve", " have"), ("'re", " are"),
                 ("it's", "it is"), ("he's", "he is"), ("she's", "she is"),
                 ("there's", "there is"), ("that's", "that is"), ("i'd", "i would"),
                 ("was going to", "went to"), ("were going to", "went to"))  # fmt: skip


def plain(text: str) -> str:
    """Lower case, contractions spelt out ('I'm' -> 'i am'), so a cue is one spelling."""
    low = text.lower()
    for a, b in _CONTRACTIONS:
        low = low.replace(a, b)
    return low


@dataclass(frozen=True)
class Part:
    """A clause of an answer: its words, and a template with the town's names replaced by
    tokens (@r<i> a resident, @p<i> a place, @h 'home', @e<k> a word of intent k's event)."""

    quote: str
    plain: str
    tpl: str
    people: tuple[str, ...]
    places: tuple[str, ...]


def _forms_pattern(forms: Mapping[str, str]) -> re.Pattern[str]:
    ordered = sorted(forms, key=len, reverse=True)
    alternatives = "|".join(map(re.escape, ordered)) or "(?!)"
    return re.compile(rf"(?<![\w'@])({alternatives})(?![\w])")


def mask(quote: str, names: Names) -> Part:
    low = plain(quote)
    places: list[str] = []
    people: list[str] = []

    def token(kind: str, found: list[str], name: str) -> str:
        found.append(name)
        return f"@{kind}{len(found) - 1}"

    lex = names.lexicon
    tpl = _forms_pattern(lex.places).sub(lambda m: token("p", places, lex.places[m[1]]), low)
    tpl = _forms_pattern(lex.people).sub(lambda m: token("r", people, lex.people[m[1]]), tpl)
    tpl = re.sub(r"\b(at|from|to) home\b", r"\1 @h", tpl)
    for k, intent in enumerate(names.order):
        terms = names.terms[intent]
        tpl = _WORD.sub(lambda m, k=k, t=terms: f"@e{k}" if _stem(m[0]) in t else m[0], tpl)
    return Part(quote, low, tpl, tuple(people), tuple(places))


_WORD = re.compile(r"(?<![@\w])[a-z]+(?:'[a-z]+)?")


def sentences(answer: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", answer.strip()) if s.strip()]


def clauses(sentence: str) -> list[str]:
    return [c for c in re.split(r"\s*[;:]\s+", sentence) if c.strip()]


# -- when a clause speaks of ---------------------------------------------------------------

# broad parts of the day, in minutes after midnight (past 24:00 is the next day's small
# hours): broad so that a summary's 'in the afternoon' is never read narrower than meant
DAY_PARTS = (("last night", 18, 30), ("tonight", 18, 30), ("morning", 4, 13),
             ("afternoon", 11, 19), ("evening", 16, 28), ("night", 18, 30),
             ("breakfast", 5, 11), ("lunch", 11, 15), ("dinner", 16, 23))  # fmt: skip
_WEEKDAY = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b")
_FUTURE_DAYS = re.compile(r"\b(?:today|tonight|this evening|tomorrow|later)\b")


@dataclass(frozen=True)
class Span:
    start: datetime
    end: datetime
    day: date
    ahead: bool = False  # named by a word that looks forward ('tonight', 'tomorrow')


def day_named(low: str, now: datetime, past: bool) -> tuple[date | None, bool]:
    """The day a clause names, and whether by a forward-looking word; a weekday in the
    past tense is the last one, not the next."""
    if re.search(r"\b(?:yesterday|last night)\b", low):
        return now.date() - timedelta(days=1), False
    day, _ = find_date(low, now.year, now.date())
    if day is not None and past and day > now.date() and _WEEKDAY.search(low):
        day -= timedelta(days=7)
    return day, day is not None and bool(_FUTURE_DAYS.search(low))


def span_of(part: Part, now: datetime, day: date | None, past: bool) -> Span | None:
    """The stretch of time a clause speaks of: its own day or the one inherited from the
    answer or question, narrowed by a part of the day or a clock time it names."""
    own, ahead = day_named(part.plain, now, past)
    day = own or day
    readings = {m for r in start_readings(part.plain) for m in r}
    clocks = sorted(readings | set(named_times(part.plain)))
    dayparts = [(a, b) for w, a, b in DAY_PARTS if re.search(rf"\b{w}\b", part.plain)]
    if own is None and not (clocks or dayparts):
        return None  # it names no time: the clause before it, or the question, says when
    if day is None:
        if not past:
            return None
        day = now.date()
    base = datetime.combine(day, datetime.min.time())
    if clocks:
        lo, hi = base + timedelta(minutes=clocks[0] - 30), base + timedelta(minutes=clocks[-1] + 90)
    elif dayparts:
        lo, hi = base + timedelta(hours=dayparts[0][0]), base + timedelta(hours=dayparts[0][1])
    else:
        lo, hi = base, base + timedelta(days=1)
    if own is None and past and lo > now:  # 'in the evening I was ...', asked at dawn
        lo, hi, day = lo - timedelta(days=1), hi - timedelta(days=1), day - timedelta(days=1)
    return Span(lo, hi, day, ahead)


# -- reading one answer --------------------------------------------------------------------

_SUBJECT = re.compile(r"@r\d+(?!')|\b(?:i|we|he|she|they|who)\b")
_OBJECT_CUES = frozenset(("with", "to", "at", "for", "about", "from", "saw", "see", "seen",
                          "met", "meet", "invited", "told", "tell", "asked", "ask", "by", "of",
                          "like"))  # fmt: skip
_PAST = re.compile(r"\b(?:was|were|went|spent|visited|stopped by|dropped by|had|ate|came|met|"
                   r"been|did|yesterday|last night)\b")  # fmt: skip


@dataclass(frozen=True)
class Reading:
    """Everything a clause's checks need: who answered, the truth, the names, the clause,
    the person the question is about, and the time the clause speaks of."""

    said: Said
    truth: Truth
    names: Names
    part: Part
    topic: str
    span: Span | None
    carried: tuple[str, ...] = ()  # the intents the clause before spoke of

    def who(self, token: str, before: str = "") -> str:
        if token.startswith("@r"):
            return self.part.people[int(token[2:])]
        if token in ("i", "we"):
            return self.said.resident
        if token in ("he", "she", "they"):
            return self.topic
        return ""

    def subject_before(self, pos: int, default: str | None = None) -> str:
        """The resident doing what the words at `pos` say: the nearest subject before them
        (a name after 'with' or 'told' is an object; 'who' is the name before it); with
        none, `default` (the speaker unless given)."""
        tpl = self.part.tpl
        found = self.said.resident if default is None else default
        names = list(re.finditer(r"@r\d+", tpl[:pos]))
        for m in _SUBJECT.finditer(tpl[:pos]):
            word = m[0]
            prev = tpl[: m.start()].split()[-1:]
            if word == "who":
                earlier = [n for n in names if n.end() <= m.start()]
                found = self.who(earlier[-1][0]) if earlier else found
            elif not (word.startswith("@r") and prev and prev[0].strip(",") in _OBJECT_CUES):
                found = self.who(word)
        return found

    def place(self, token: str, subject: str) -> str:
        if token == "@h":
            persona = self.truth.personas.get(subject)
            return persona.home if persona else ""
        return self.part.places[int(token[2:])]

    def found(self, kind: Claim, verdict: Verdict, why: str = "", intent: str = "",
              value: str = "") -> Found:  # fmt: skip
        return Found(kind, self.part.quote, verdict, why, intent, value)


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
    if r.span is None or not _PAST.search(r.part.tpl):
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
    if r.span is None or not _QUIET.search(r.part.tpl) or not _PAST.search(r.part.tpl):
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
    about = next(iter(_intents_in(r)), "")
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
                     r"later today|soon|"
                     r"can not wait|looking forward|invite|inviting|getting ready|preparing|"
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


def _intents_in(r: Reading) -> list[str]:
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
    for intent in _intents_in(r):
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
    """'Maria and Klaus came', 'but I did not go': presence at the venue, from the log."""
    if r.truth.now < event.start or event.start < r.truth.since:
        return
    end = min(event.end, r.truth.now)
    for m in _WENT.finditer(r.part.tpl):
        negated = m[2].startswith(("did not", "could not", "was not", "missed", "skipped"))
        for token in re.findall(r"@r\d+|\bi\b|\bwe\b", m[1]):
            name = r.who(token)
            there = r.truth.time_at(name, event.place, event.start, end)
            bad = there >= MIN_PRESENCE if negated else there == timedelta()
            minutes = int(there.total_seconds() // 60)
            why = f"{name} was at {event.place} for {minutes} minutes of it" if bad else ""
            yield r.found(Claim.WENT, _v(bad), why, intent, "no" if negated else "yes")


ABOUT_EVENTS = frozenset((Claim.HOST, Claim.PLACE, Claim.DAY, Claim.TIME, Claim.WENT))
CHECKS = (lives_with, lives_at, works_at, occupation, was_at, quiet, told, event_claims)


# -- checking every answer ---------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """One answer and the claims found in it; `speaks_of` the intents whose events it
    names without denying them, `ended` whether any of those has ended."""

    said: Said
    found: tuple[Found, ...]
    speaks_of: frozenset[str]
    ended: bool


def check_answer(said: Said, truth: Truth, names: Names) -> Checked:
    """Every claim of one answer, each checked; the time a clause speaks of carries on to
    the next clauses that name none ('Yesterday, in the morning ...; in the evening ...')."""
    question = mask(said.question, names)
    topic = next((p for p in question.people if p != said.resident), "")
    past = bool(_PAST.search(question.tpl))
    asked = span_of(question, truth.now, None, past)
    day = asked.day if asked else None
    found: list[Found] = []
    speaks: set[str] = set()
    carried: tuple[str, ...] = ()
    last = asked
    for sentence in sentences(said.answer):
        for quote in clauses(sentence):
            part = mask(quote, names)
            tense_past = past or bool(_PAST.search(part.tpl))
            span = span_of(part, truth.now, day, tense_past)
            if span is not None and day_named(part.plain, truth.now, tense_past)[0]:
                day = span.day
            last = span or last
            reading = Reading(said, truth, names, part, topic, span or last, carried)
            claims = [f for check in CHECKS for f in check(reading)]
            found += claims
            carried = tuple(_intents_in(reading))
            if not denies(quote):
                speaks |= set(named_intents(part, names))
                speaks |= {f.intent for f in claims if f.intent and f.kind in ABOUT_EVENTS}
    ended = any(truth.now >= truth.events[i].end for i in speaks)
    return Checked(said, tuple(found), frozenset(speaks), ended)


def collected(
    sim,
    battery: Sequence[tuple[str, str, str]],
    diffusion: DiffusionAnswers,
    acquainted: Mapping[tuple[str, str], str],
) -> list[Said]:
    """Every answer `evaluate` collected, as rows to check: the battery's (resident,
    question, answer), each phrasing's answer and its follow-up's, 'Do you know <name>?'."""
    asks = {q: i.id for i in sim.scenario.intents for q in (*i.questions, i.follow_up) if q}
    rows = [Said(n, Asked.BATTERY, q, a, intent=asks.get(q, "")) for n, q, a in battery]
    for intent_id, phrasings in diffusion.items():
        follow_up = sim.scenario.intent(intent_id).follow_up
        for question, answers in phrasings.items():
            for name, said in sorted(answers.items()):
                rows.append(Said(name, Asked.DIFFUSION, question, said.answer, "", intent_id))
                if follow_up and said.follow_up:
                    rows.append(Said(name, Asked.FOLLOW_UP, follow_up, said.follow_up,
                                     question, intent_id))  # fmt: skip
    for (name, other), answer in sorted(acquainted.items()):
        rows.append(Said(name, Asked.ACQUAINTANCE, know_question(other), answer))
    return rows


def check(sim, rows: Sequence[Said], spread: Mapping[str, Diffusion] | None = None) -> TruthCheck:
    """The truth check of every row, with the paraphrase consistency of the diffusion
    conversations (`spread`, the judged diffusion) beside it."""
    truth, names = truth_of(sim), names_of(sim)
    checked = [check_answer(row, truth, names) for row in rows]
    return summed(checked, consistency(checked, spread or {}))


def summed(checked: Sequence[Checked], agree: Mapping[str, Consistency]) -> TruthCheck:
    cases, tallies = [], {}
    for c in checked:
        for f in c.found:
            n, bad, stale = tallies.get(f.kind, (0, 0, 0))
            tallies[f.kind] = (n + 1, bad + (f.verdict is Verdict.CONTRADICTED),
                               stale + (f.verdict is Verdict.STALE))  # fmt: skip
            if f.verdict is not Verdict.BACKED:
                s = c.said
                cases.append(TruthCase(s.resident, s.asked, s.question, s.answer, f.kind.value,
                                       f.quote, f.verdict, f.why, s.after))  # fmt: skip
    by_asked: dict[str, int] = {}
    for c in checked:
        by_asked[c.said.asked.value] = by_asked.get(c.said.asked.value, 0) + 1
    return TruthCheck(
        METHOD,
        len(checked),
        by_asked,
        sum(c.ended for c in checked),
        tuple(ClaimTally(k.value, *tallies[k]) for k in Claim if k in tallies),
        tuple(cases),
        dict(agree),
    )


# -- paraphrase consistency -----------------------------------------------------------------

_COMPARED = (Claim.HOST, Claim.PLACE, Claim.DAY)


@dataclass(frozen=True)
class Conversation:
    """What one resident said under one phrasing (and its follow-up), for comparing."""

    question: str
    said: str
    knows: bool
    values: Mapping[Claim, frozenset[str]]


def consistency(
    checked: Sequence[Checked], spread: Mapping[str, Diffusion]
) -> dict[str, Consistency]:
    """Per intent: each resident's pairs of phrasings, compatible when both conversations
    show the resident knows the intent or neither does, and no host, place or day one
    names is contradicted by a different one the other names."""
    out = {}
    for intent_id, d in spread.items():
        talks: dict[str, list[Conversation]] = {}
        for p in d.phrasings:
            for reply in p.replies:
                mine = [c for c in checked if c.said.resident == reply.resident
                        and c.said.intent == intent_id
                        and p.question in (c.said.question, c.said.after)]  # fmt: skip
                talks.setdefault(reply.resident, []).append(
                    conversation(p.question, reply.carries, intent_id, mine)
                )
        pairs, same, cases = 0, 0, []
        for name, convs in sorted(talks.items()):
            for a, b in combinations(convs, 2):
                pairs += 1
                why = disagreement(a, b)
                same += not why
                if why:
                    cases.append(PairCase(name, a.question, a.said, b.question, b.said, why))
        out[intent_id] = Consistency(intent_id, pairs, same, tuple(cases))
    return out


def conversation(
    question: str, carries: bool, intent: str, mine: Sequence[Checked]
) -> Conversation:
    said = " / ".join(c.said.answer for c in mine)
    knows = carries or any(intent in c.speaks_of for c in mine)
    values = {k: frozenset(f.value for c in mine for f in c.found
                           if f.kind is k and f.intent == intent and f.value)
              for k in _COMPARED}  # fmt: skip
    return Conversation(question, said, knows, values)


def disagreement(a: Conversation, b: Conversation) -> str:
    """Why two conversations do not agree ('' when they do)."""
    if a.knows != b.knows:
        return "knows of it under one phrasing and not under the other"
    for kind in _COMPARED:
        x, y = a.values[kind], b.values[kind]
        if x and y and not x & y:
            return f"{kind.value}: {', '.join(sorted(x))} against {', '.join(sorted(y))}"
    return ""
