"""The town's words and the slots a line names.

A line's people, places, objects and scenario intents are found against the town's own
words (`Lexicon`: residents' names, the map's sectors, arenas and objects, each intent's
keywords and event fields), and its times against the clock (`find_time`); `find_slots`
returns them with the line masked by neutral words ('someone', 'that place', 'the event').
Nothing here knows this scenario: a new town brings its own words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from functools import cache

from game.brains.event_words import NUMBER_WORDS, find_date, find_window
from game.world.scenario import Intent

from .acts import Window

MASKS = {"person": "someone", "place": "that place", "object": "that thing",
         "event": "the event", "time": "then", "thing": "something"}  # fmt: skip

_STOP = (
    "a an the is are was were be been am i to of and or in on at for it its this that he she "
    "they them his her their my me we our you your by as s do does did what who when where "
    "why how any anything some something there here about have has had will would could "
    "should can with from know tell think just so really very much ever"
)
STOP = frozenset(_STOP.split())


def contracted(word: str) -> bool:
    """A function word said short ('shouldn't', "who's", "i've", 'won't'): it names
    nothing, though no stop list holds every contraction."""
    base, mark, rest = word.lower().partition("'")
    negated = base.endswith("n") and rest in ("t", "") and base[:-1] in _NEGATED
    return bool(mark) and (base in STOP or negated)


_NEGATED = STOP | {"ca", "wo", "must", "need", "might", "ought", "should", "would", "could"}


# -- the town's words -------------------------------------------------------------------------


def stem(word: str) -> str:
    """A crude common stem so 'parties', 'partying' and 'party' meet (no scenario words)."""
    w = word.lower().strip("'")
    for suffix, repl in (("ies", "y"), ("ying", "y"), ("ing", ""), ("ed", ""), ("es", ""),
                         ("s", ""), ("al", "")):  # fmt: skip
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            return w[: len(w) - len(suffix)] + repl
    return w


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower())


def content_stems(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in STOP and len(w) > 2}


@dataclass(frozen=True)
class Lexicon:
    """The words of one town: how its people, places, objects and intents are named.

    Each mapping goes from a lower-case form to the canonical name (a resident's full name,
    a sector, an object's name, an intent's id). Built once per town.
    """

    people: Mapping[str, str] = field(default_factory=dict)
    places: Mapping[str, str] = field(default_factory=dict)
    objects: Mapping[str, str] = field(default_factory=dict)
    intents: Mapping[str, str] = field(default_factory=dict)  # stem -> intent id
    intent_texts: Mapping[str, str] = field(default_factory=dict)  # id -> what it is about

    @staticmethod
    def of(
        residents: Iterable[str],
        sectors: Iterable[str],
        arenas: Iterable[str] = (),
        objects: Iterable[str] = (),
        intents: Iterable[Intent] = (),
    ) -> Lexicon:
        names = list(dict.fromkeys(residents))
        people: dict[str, str] = {n.lower(): n for n in names}
        firsts: dict[str, list[str]] = {}
        for n in names:
            firsts.setdefault(n.split()[0].lower(), []).append(n)
        people.update({f: ns[0] for f, ns in firsts.items() if len(ns) == 1})
        places = _place_forms(list(dict.fromkeys(sectors)), list(dict.fromkeys(arenas)))
        objs = {o.lower(): o for o in objects if len(o) > 2}
        found: dict[str, str] = {}
        about: dict[str, str] = {}
        for it in intents:
            terms = [*it.keywords]
            if it.event is not None and it.event.what:
                terms += [w for w in words(it.event.what) if w not in STOP and len(w) > 3]
            for t in terms:
                found.setdefault(stem(t), it.id)
            about[it.id] = " ".join([it.text, it.event.what if it.event else ""]).strip()
        return Lexicon(people, places, objs, found, about)


def _place_forms(sectors: list[str], arenas: list[str]) -> dict[str, str]:
    """'Hobbs Cafe', 'hobbs', 'the cafe' (when only one sector ends in 'cafe')."""
    forms: dict[str, str] = {}
    last: dict[str, list[str]] = {}
    for s in sectors:
        low = s.lower()
        forms[low] = s
        if low.startswith("the "):
            forms[low[4:]] = s
        tail = low.split()[-1]
        head = low[4:] if low.startswith("the ") else low
        if len(head.split()) >= 3:  # 'the Rose and Crown' for 'The Rose and Crown Pub'
            forms.setdefault(head.rsplit(" ", 1)[0], s)
            forms.setdefault("the " + head.rsplit(" ", 1)[0], s)
        if "'" not in low:
            last.setdefault(tail, []).append(s)
    for tail, ss in last.items():
        if len(ss) == 1 and len(tail) >= 3:  # "the pub"
            forms.setdefault(f"the {tail}", ss[0])
    for a in arenas:
        forms.setdefault(a.lower(), a)
    return forms


# -- finding slots ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Slots:
    person: str = ""
    place: str = ""
    obj: str = ""
    intent: str = ""
    window: Window | None = None
    masked: str = ""
    named: str = ""


_AROUND = re.compile(r"\b(?:around|round|about|by|near|close to)\s+(?=\d|one|two|three|four|"
                     r"five|six|seven|eight|nine|ten|eleven|twelve|noon|midnight)",
                     re.I)  # fmt: skip
_NUM_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
# a clock time said with no 'at' before it ('nine tonight', '6 pm today', 'noon today'),
# given one so the window finder reads it; group 1 is an 'at' already there
_BARE_CLOCK = re.compile(
    rf"(\b(?:at|from|to|until|till|between|and)\s+)?\b((?:\d{{1,2}}(?::\d{{2}})?|{_NUM_WORDS})"
    r"(?=\s*(?:am\b|pm\b|a\.m\.|p\.m\.|o'clock|tonight|this (?:morning|afternoon|evening)|"
    r"in the (?:morning|afternoon|evening)|today|tomorrow))|noon|midday|midnight)"
)
_RELATIVE = {"yesterday": -1, "last night": -1, "today": 0, "tonight": 0, "this morning": 0,
             "this afternoon": 0, "this evening": 0, "tomorrow": 1}  # fmt: skip


def find_slots(text: str, lex: Lexicon, now: datetime, speaker: str = "") -> Slots:
    """The people, places, objects, intents and time a line names, and the line masked."""
    low = " " + re.sub(r"[^\w'\- ]", " ", _without_vocatives(text, lex).lower()) + " "
    masked = low
    person = _longest(low, lex.people, exclude=speaker.lower())
    if person:
        masked = _mask(masked, [k for k, v in lex.people.items() if v == person], "person")
        masked = re.sub(r"\bsomeone's\b", "someone", masked)
    place = _longest(masked, lex.places)
    if place:
        masked = _mask(masked, [k for k, v in lex.places.items() if v == place], "place")
    obj = _longest(_IDIOMS.sub(" ", masked), lex.objects)
    if obj:
        masked = _mask(masked, [obj.lower()], "object")
    intent, named = "", []
    for w in words(masked):
        if w in STOP:
            continue
        hit = lex.intents.get(stem(w))
        if hit:
            intent = intent or hit
            named.append(w)
            masked = re.sub(rf"\b{re.escape(w)}\b", MASKS["event"], masked)
    masked = _SEEN_DOING.sub(lambda m: m.group(1) + MASKS["thing"] + " ", masked)
    window = find_time(text, now)
    if window is not None and window.words:
        masked = masked.replace(window.words.lower(), " " + MASKS["time"] + " ")
    masked = re.sub(r"\b(the event(?: )?)+", "the event ", masked)
    return Slots(person, place, obj, intent, window, " ".join(masked.split()), " ".join(named))


# 'I saw you chatting with customers earlier': what one was seen doing is the thing the
# line asks about, not its topic ('chatting' does not make it a question about talk)
_SEEN_DOING = re.compile(
    r"\b((?:saw|seen|see|noticed|watched|spotted|heard) you (?:were |was )?)"
    r"\w+ing\b(?:\s+(?!earlier\b|today\b|yesterday\b|this\b|last\b|just\b|then\b)[\w'-]+){0,6}?"
    r"(?=\s+(?:earlier|today|yesterday|this|last|just|then)\b|\s*$)"
)


def _names_any(slots: Slots) -> bool:
    return bool(slots.person or slots.place or slots.obj or slots.intent)


def _without_vocatives(text: str, lex: Lexicon) -> str:
    """'Do you know much about piano, Tom?': a name set off by commas at a line's edge
    addresses the listener; it is not what the line is about."""
    at_end, at_start, after_hello = _vocatives(tuple(sorted(lex.people, key=len, reverse=True)))
    out = at_end.sub("", text)
    if not _POINTS_BACK.search(text):  # 'Giorgio, wat r they like as a person'
        out = at_start.sub(r"\1", out)
    return after_hello.sub(r"\1", out)


@cache
def _vocatives(forms: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The three places a name addresses the listener, each one pattern for every name
    (longest first): compiled once a town, not once a line and name (a hundred residents'
    names overflow the regex cache and recompile every line)."""
    names = "|".join(re.escape(f) for f in forms) or "(?!)"
    hello = r"\b(?:hi|hey|hello|morning|evening|afternoon|again|oh)"
    return (re.compile(rf",\s*(?:{names})\s*(?=[?.!]|$)", re.I),
            re.compile(rf"^(\s*(?:\w+\s*,\s*)?)(?:{names})\s*,", re.I),  # 'Tom - ...' is a topic
            re.compile(rf"({hello}\s*,?\s+)(?:{names})\b\s*,?", re.I))  # fmt: skip


# the words that point at a person already named ('what are they like?', 'know this person?'):
# one pattern for a line's own earlier name, the talk's topic and the vocative check below
PERSON_BACK = re.compile(r"\b(?:he|she|him|her|they|them|em|this person|that person)\b", re.I)
# a line that points back at someone is about the name it opens with, not addressed to it
_POINTS_BACK = re.compile(rf"{PERSON_BACK.pattern}|\b(?:his|their|theirs|the name|this name|"
                          r"that name|this guy|that guy)\b", re.I)


def _longest(text: str, forms: Mapping[str, str], exclude: str = "") -> str:
    """The longest form the text names (one compiled pattern per set of forms)."""
    found = [m.group(1) for m in _pattern(tuple(forms)).finditer(text)]
    found = [f for f in found if not (exclude and forms[f].lower() == exclude)]
    return forms[max(found, key=len)] if found else ""


@cache
def _pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    ordered = sorted(forms, key=len, reverse=True)
    alternatives = "|".join(re.escape(f) for f in ordered) or "(?!)"
    return re.compile(rf"(?<![\w'])(?=({alternatives})(?![\w]))")


def _mask(text: str, forms: Sequence[str], slot: str) -> str:
    for form in sorted(forms, key=len, reverse=True):
        text = re.sub(rf"(?<![\w']){re.escape(form)}(?![\w])", MASKS[slot], text)
    return text


def find_time(text: str, now: datetime) -> Window | None:
    """The stretch of time a line names, resolved against the clock."""
    low = _quarters(_AROUND.sub("at ", text.lower()))
    low = _BARE_CLOCK.sub(lambda m: m.group(0) if m.group(1) else f"at {m.group(2)}", low)
    low = _HABITUAL.sub(r"\1", low)  # 'most mornings' names the time of day a habit takes
    day, rest = find_date(low, now.year, now.date())
    if day is not None and day > now.date() and _PAST_SAID.search(low) and _WEEKDAY.search(low):
        day -= timedelta(days=7)  # 'what did you do on Tuesday night?': the Tuesday gone by
    since = _SINCE_UP.search(low)
    if day is None and since:  # 'what have you done since you got up?', '... this morning?'
        return Window(_at(now.date(), 0), now, since.group(0))
    offset = next((d for w, d in _RELATIVE.items() if re.search(rf"\b{w}\b", low)), None)
    if day is None and offset is not None:
        day = now.date() + timedelta(days=offset)
    window = _related_window(rest) or find_window(rest)
    spoken = _spoken(text)
    if window is None and day is None:
        return None
    base = day or now.date()
    if window is not None and window[0] < 12 * 60 and _EVENING.search(low) and not _AM.search(low):
        window = (window[0] + 12 * 60, window[1] + 12 * 60)
    if window is None:
        return Window(_at(base, 0), _at(base, 24 * 60), spoken)
    today = day is None or day == now.date()
    if today and 60 <= window[0] < 12 * 60 and not _DAY_PART.search(low):
        # a bare hour ('and later on, at ten?') is the next one, or the last one when
        # the line speaks of the past ('what were you doing at ten?')
        minute = now.hour * 60 + now.minute
        later = window[0] + 12 * 60
        if not _PAST_SAID.search(low) and window[0] < minute <= later:
            window = (later, window[1] + 12 * 60)
        elif _PAST_SAID.search(low) and minute < window[0]:  # 'at ten?', asked at nine:
            window, base = (later, window[1] + 12 * 60), base - timedelta(days=1)  # last night
    if day is None and _PAST_SAID.search(low) and _at(base, window[0]) > now:
        base -= timedelta(days=1)  # 'what were you doing at noon?', asked at nine: yesterday's
    return Window(_at(base, window[0]), _at(base, window[1]), spoken)


# phrases that name a thing's word but no thing: 'go to bed' is about sleep, not a bed
_IDIOMS = re.compile(r"\b(?:(?:go|went|going|get|got|put) (?:to|out of) bed|in bed|bedtime)\b")
_HABITUAL = re.compile(r"\b(morning|afternoon|evening|night)s\b")
_EVENING = re.compile(r"\b(?:tonight|(?:this|in the|yesterday|tomorrow) (?:afternoon|evening)|"
                      r"at night|last night)\b")  # an hour said with these is after noon
# 'half past six', 'quarter to nine': the clock as said aloud, made digits the finder reads
_QUARTERS = re.compile(rf"\b(half|quarter|twenty|ten|five) (past|to) (\d{{1,2}}|{_NUM_WORDS})\b")
_PAST_MINUTES = {"half": 30, "quarter": 15, "twenty": 20, "ten": 10, "five": 5}


def _quarters(text: str) -> str:
    def said(m: re.Match[str]) -> str:
        hour = NUMBER_WORDS.get(m.group(3)) or int(m.group(3))
        minutes = _PAST_MINUTES[m.group(1)]
        if m.group(2) == "to":
            hour, minutes = (hour - 2) % 12 + 1, 60 - minutes
        return f"{hour}:{minutes:02d}"

    return _QUARTERS.sub(said, text)
_AM = re.compile(r"\b(?:am|a\.m\.|in the morning)\b")
_DAY_PART = re.compile(r"\b(?:am|pm|a\.m\.|p\.m\.|morning|afternoon|evening|night|tonight|"
                       r"noon|midday|midnight|lunch|breakfast|dinner)\b")  # fmt: skip
_WEEKDAY = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b")
_PAST_SAID = re.compile(r"\b(?:were|was|did|had|went|ate|earlier|ago|been)\b")


def said_in_past(text: str) -> bool:
    """Whether a line speaks of a time gone by by its verbs ('was there', 'did you go')."""
    return _PAST_SAID.search(text.lower()) is not None


# the day's landmarks a time may be told by ('before noon', 'between lunch and dinner')
_LANDMARKS = {"breakfast": (7 * 60, 8 * 60), "lunch": (12 * 60, 13 * 60),
              "lunchtime": (12 * 60, 13 * 60), "noon": (12 * 60, 12 * 60), "midday": (12 * 60,
              12 * 60), "dinner": (18 * 60, 19 * 60), "supper": (18 * 60, 19 * 60),
              "dinnertime": (18 * 60, 19 * 60), "work": (17 * 60, 17 * 60)}  # fmt: skip
_POINT = (r"(breakfast|lunch|lunchtime|noon|midday|dinner|supper|dinnertime|work|"
          r"\d{1,2}(?::\d{2})?(?:\s*(?:am|pm))?)")  # fmt: skip
_BETWEEN = re.compile(rf"\bbetween (?:at )?{_POINT} and (?:at )?{_POINT}")
_BEFORE_AFTER = re.compile(rf"\b(before|after|until|till|by) (?:at )?{_POINT}\b")
RELATED_HOURS = 4  # how long 'before noon' or 'after lunch' reaches
_SINCE_UP = re.compile(r"\bsince (?:you (?:got|get) up|you woke(?: up)?|getting up|"
                       r"waking(?: up)?|you rolled out of bed|first thing|this morning|"
                       r"the morning)\b")  # fmt: skip


def _landmark(word: str) -> tuple[int, int] | None:
    if word in _LANDMARKS:
        return _LANDMARKS[word]
    return find_window(f"at {word}")


def _related_window(text: str) -> tuple[int, int] | None:
    """A window told by its relation to a landmark of the day or a clock time: 'between
    lunch and dinner' (1 pm to 6 pm), 'before noon' (8 am to noon), 'after work'."""
    m = _BETWEEN.search(text)
    if m is not None:
        a, b = _landmark(m.group(1)), _landmark(m.group(2))
        if a is not None and b is not None and a[1] < b[0]:
            return a[1], b[0]
    m = _BEFORE_AFTER.search(text)
    if m is None:
        return None
    point = _landmark(m.group(2))
    if point is None:
        return None
    if m.group(1) == "after":
        return point[1], point[1] + RELATED_HOURS * 60
    return max(0, point[0] - RELATED_HOURS * 60), point[0]


def _at(day: date, minute: int) -> datetime:
    return datetime.combine(day, time()) + timedelta(minutes=minute)


_SPOKEN = re.compile(
    r"\b(?:(?:around|about|at|by|from)\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?"
    r"|noon|midnight)(?:\s+(?:tonight|today|tomorrow|in the \w+))?"
    r"|\b(?:yesterday|tomorrow|tonight|today|last night)(?:\s+(?:morning|afternoon|evening))?"
    r"|\bthis (?:morning|afternoon|evening|week|weekend)\b|\bon (?:monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)\b|\b(?:morning|afternoon|evening|tonight)\b",
    re.I,
)


def _spoken(text: str) -> str:
    m = _SPOKEN.search(text)
    return m.group(0).strip() if m else ""
