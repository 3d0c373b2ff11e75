"""The truth an answer is checked against, and how an answer is read: the save's truth
(personas, stays, events, who heard what), the town's names, an answer's clauses with
those names masked, the time a clause speaks of, and the `Reading` every check takes.

Apart from the checks (`truth_checks`) and the report (`truth`) so each can be read, and
changed, on its own; all three are one method, described in `truth`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import Enum

from game.brains.dialogue.understand import STOP, Lexicon, stem
from game.brains.event_words import find_date, start_readings
from game.core.records import Event
from game.sim.events import EventKind
from game.sim.judge import named_times
from game.sim.measures import MIN_PRESENCE, attendance, records
from game.sim.results import Asked, Verdict
from game.world.scenario import Resident
from game.world.town import split


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
    # intent id -> who attended its event as `measures.attendance` counts it (there 30+
    # minutes, doing the event's things): a student in class at the college while a reading
    # is held there was there, yet did not go to it
    attended: Mapping[str, frozenset[str]] = field(default_factory=dict)

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
        {i: frozenset(a.attended) for i, a in attendance(sim).items()},
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
    phrases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # ... named whole


def names_of(sim) -> Names:
    residents = [a.persona for a in sim.agents.values()]
    lexicon = Lexicon.of([r.name for r in residents], [a.name for a in sim.town.sectors()])
    roles = sorted({r for p in residents for r in roles_of(p.occupation)}, key=len, reverse=True)
    everyday = everyday_stems(residents)
    events = [i for i in sim.scenario.intents if i.event]
    terms = {i.id: event_terms(i.keywords, i.event.what, everyday) for i in events}
    phrases = {i.id: event_phrases(i.keywords, i.event.what, everyday) for i in events}
    return Names(lexicon, tuple(roles), terms, tuple(terms), phrases)


def everyday_stems(residents) -> frozenset[str]:
    """The words of the residents' own routines ('writing late into the night'): a word
    the town says of an ordinary day names no event by itself."""
    return frozenset(_stem(w) for p in residents for b in p.routine
                     for w in _WORD.findall(plain(b.activity)))  # fmt: skip


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


def event_terms(
    keywords: Sequence[str], what: str, everyday: frozenset[str] = frozenset()
) -> frozenset[str]:
    """The words that say a clause speaks of an event: its keywords, each by its last
    word ('book launch' -> 'launch'), and the last word of its name; not every word of
    the name, or 'book' would make every author's talk of books the event. A head the
    town's routines use ('night' of 'poetry night') is no such word: see `event_phrases`."""
    heads = [k.split()[-1] for k in keywords if k.split()] + what.lower().split()[-1:]
    stems = (_stem(w) for w in heads if w not in STOP and len(w) > 3)
    return frozenset(s for s in stems if s not in everyday)


def event_phrases(
    keywords: Sequence[str], what: str, everyday: frozenset[str]
) -> tuple[str, ...]:
    """The names said whole that speak of an event when their last word alone does not
    ('poetry night', not 'late into the night'), longest first."""
    named = {plain(k) for k in (*keywords, what) if len(k.split()) > 1}
    whole = [n for n in named if _stem(n.split()[-1]) in everyday]
    return tuple(sorted(whole, key=len, reverse=True))


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
        for phrase in names.phrases.get(intent, ()):
            tpl = re.sub(rf"(?<![@\w]){re.escape(phrase)}(?!\w)", f"@e{k}", tpl)
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
PAST = re.compile(r"\b(?:was|were|went|spent|visited|stopped by|dropped by|had|ate|came|met|"
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
