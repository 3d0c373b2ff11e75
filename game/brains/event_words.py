"""Events named in words: 'a party at Hobbs Cafe on February 14 from 5 pm to 7 pm'.

Memories carry the events they name as fields (`Fact.event`), so these rules read only
words nobody has put into fields yet: the visitor's speech (once, when it is heard), the
scenario's own seed sentences, and questions put to a resident. Nothing here guesses: no
place, date or time in the text, no event.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import date, datetime, timedelta

from game.core.records import Event

DEFAULT_EVENT_MINUTES = 120  # 'at 5 pm' with no end: a two-hour event

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
    "december": 12, "dec": 12,
}  # fmt: skip
HOLIDAYS = {
    "valentine's day": (2, 14), "valentines day": (2, 14), "valentine’s day": (2, 14),
    "christmas eve": (12, 24), "christmas": (12, 25), "new year's eve": (12, 31),
    "new year's day": (1, 1), "halloween": (10, 31), "st. patrick's day": (3, 17),
    "st patrick's day": (3, 17),
}  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
RELATIVE_DAYS = {"today": 0, "tonight": 0, "this evening": 0, "tomorrow": 1}
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
# A vague time of day, as (start, end) minutes: 'tomorrow evening', 'tonight'.
PARTS_OF_DAY = {
    "morning": (9 * 60, 11 * 60),
    "afternoon": (14 * 60, 16 * 60),
    "evening": (18 * 60, 20 * 60),
    "tonight": (19 * 60, 21 * 60),
    "night": (20 * 60, 22 * 60),
}
EVENT_NOUNS = (
    "party", "celebration", "exhibition", "show", "opening", "concert", "reading", "festival",
    "dinner", "fair", "rally", "debate", "meeting", "gathering", "wedding", "picnic",
    "potluck", "lecture", "performance", "screening", "open mic", "tournament", "match",
    "sale", "cook-off", "cookoff", "contest", "competition", "tasting", "quiz", "bazaar",
    "auction", "barbecue", "fundraiser", "dance", "parade", "ceremony", "recital", "game night",
)  # fmt: skip
HOST_VERBS = "hosting|holding|throwing|organi[sz]ing|planning|having|putting on|running|giving"

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_DATE_MD = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I)
_DATE_DM = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\b", re.I)
_DATE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_NUM = "|".join(NUMBER_WORDS)
_MERIDIEM = r"a\.?m\.?|p\.?m\.?|o'clock|in the morning|in the afternoon|in the evening|at night"
_TIME = rf"(?:(\d{{1,2}}|{_NUM})(?:[:.](\d{{2}}))?\s*({_MERIDIEM})?|(noon|midday|midnight))"
_RANGE_WORD = re.compile(
    rf"\b(?:from|between)\s+{_TIME}\s*(?:to|until|till|and|-|–)\s*{_TIME}", re.I
)
_RANGE_DASH = re.compile(rf"\b{_TIME}\s*(?:-|–|to)\s*{_TIME}", re.I)
_AT = re.compile(rf"\b(?:at|starting at|starts at|begins at|from)\s+{_TIME}", re.I)
_PART = re.compile(r"\b(?:this |tomorrow |in the )?(morning|afternoon|evening|tonight|night)\b")
_EVENT_NAME = re.compile(
    r"\b(?:a|an|the|her|his|their|my|our|[A-Z][a-z]+'s)\s+((?:[\w'’-]+\s+){0,4}?(?:"
    + "|".join(EVENT_NOUNS)
    + r"))\b",
    re.I,
)
_EVENT_NOUN = re.compile(r"\b(?:" + "|".join(EVENT_NOUNS) + r")\b", re.I)
_NAME = r"[A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?"
_HOST_THIRD = re.compile(rf"(?<![\w'])({_NAME}) (?:is|are|will be|was) (?:{HOST_VERBS})\b")
_HOST_FIRST = re.compile(rf"\b({_NAME}): (?:I'm|I am|I'll be|we're|we are) (?:{HOST_VERBS})\b")


def parse_event(
    text: str, places: Collection[str], year: int = 2023, today: date | None = None
) -> Event | None:
    """The event `text` speaks of, if it names a place, a day and a time; else None.

    `today` resolves 'today', 'tomorrow' and weekday names; without it they are ignored.
    """
    place = find_place(text, places)
    if place is None:
        return None
    day, rest = find_date(text, today.year if today else year, today)
    if day is None:
        return None
    window = find_window(rest)
    if window is None:
        return None
    start = datetime.combine(day, datetime.min.time()) + timedelta(minutes=window[0])
    end = datetime.combine(day, datetime.min.time()) + timedelta(minutes=window[1])
    if end <= start:
        end += timedelta(days=1)
    return Event(place, start, end, hosted_name(text, event_name(text)), event_host(text))


def hosted_name(text: str, known: str = "") -> str:
    """What the host hosts, in a sentence that dates and places it: 'stargazing evening'
    in '... is hosting a stargazing evening in Johnson Park on ...', 'quiz night' (not the
    'quiz' the known nouns give). `known` (the noun-based name) wins when this names
    nothing else or does not contain it."""
    m = _HOSTED.search(text)
    if m is None:
        return known
    found = m.group(1).strip()
    return found if not known or known.lower() in found.lower() else known


# 'hosting a stargazing evening in Johnson Park on ...': up to five words after the verb and
# an article, up to where the sentence says where, when or for whom
_HOSTED = re.compile(
    rf"\b(?:{HOST_VERBS})\s+(?:a|an|the|her|his|their|my|our)\s+"
    r"((?:[\w'’-]+\s+){0,4}?[\w'’-]+)\s+(?:at|in|on|from|this|next|tomorrow|tonight|for)\b",
    re.I,
)


def find_place(text: str, places: Collection[str]) -> str | None:
    """The place the text names: one after 'at'/'in' wins, then the one nearest the event
    noun ('a party at Hobbs Cafe', not 'after a walk in Johnson Park'), then the longest."""
    low = text.lower()
    noun = _EVENT_NOUN.search(text)
    best: tuple[int, int, int, str] | None = None
    for place in places:
        for form in _place_forms(place):
            at = low.find(form)
            if at < 0:
                continue
            after_at = low[max(0, at - 4) : at].strip() in ("at", "in", "at the", "in the")
            distance = abs(at - noun.start()) if noun else 0
            key = (int(after_at), -distance, len(form), place)
            if best is None or key > best:
                best = key
    return best[3] if best else None


def _place_forms(place: str) -> tuple[str, ...]:
    low = place.lower()
    return (low, low[4:]) if low.startswith("the ") else (low,)


def find_date(text: str, year: int, today: date | None = None) -> tuple[date | None, str]:
    """The day the text names, and the text with that date blanked out (for the times)."""
    finders = (_iso_date, _month_day, _holiday, _relative_day, _weekday)
    for finder in finders:
        found = finder(text, year, today)
        if found is not None:
            day, span = found
            return day, text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]
    return None, text


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _iso_date(text: str, year: int, today: date | None):
    m = _DATE_ISO.search(text)
    if m is None:
        return None
    day = _safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    return (day, m.span()) if day else None


def _month_day(text: str, year: int, today: date | None):
    m = _DATE_MD.search(text)
    if m is not None:
        day = _safe_date(year, MONTHS[m.group(1).lower()], int(m.group(2)))
        return (day, m.span()) if day else None
    m = _DATE_DM.search(text)
    if m is not None:
        day = _safe_date(year, MONTHS[m.group(2).lower()], int(m.group(1)))
        return (day, m.span()) if day else None
    return None


def _holiday(text: str, year: int, today: date | None):
    low = text.lower()
    for name, (month, day) in HOLIDAYS.items():
        at = low.find(name)
        if at >= 0:
            return date(year, month, day), (at, at + len(name))
    return None


def _relative_day(text: str, year: int, today: date | None):
    if today is None:
        return None
    low = text.lower()
    for word, offset in RELATIVE_DAYS.items():
        m = re.search(rf"\b{word}\b", low)
        if m is not None:
            # 'tonight' and 'this evening' also say when: leave them for the time finder.
            span = m.span() if word in ("today", "tomorrow") else (m.start(), m.start())
            return today + timedelta(days=offset), span
    return None


def _weekday(text: str, year: int, today: date | None):
    if today is None:
        return None
    m = re.search(r"\b(?:on |this |next )?(" + "|".join(WEEKDAYS) + r")\b", text.lower())
    if m is None:
        return None
    ahead = (WEEKDAYS.index(m.group(1)) - today.weekday()) % 7
    return today + timedelta(days=ahead), m.span()


def find_window(text: str) -> tuple[int, int] | None:
    """(start, end) minutes after midnight of the time window the text names, if any."""
    for pattern in (_RANGE_WORD, _RANGE_DASH):
        for m in pattern.finditer(text):
            window = _range(m.groups())
            if window is not None:
                return window
    m = _AT.search(text)
    if m is not None:
        start = _clock(*m.groups(), default_pm=True)
        if start is not None:
            return start, start + DEFAULT_EVENT_MINUTES
    m = _PART.search(text.lower())
    return PARTS_OF_DAY[m.group(1)] if m else None


def all_windows(text: str) -> list[tuple[int, int, int]]:
    """Every explicit time window the text names, in order ('from 5 to 7 pm', 'at 8'),
    each as (where in the text, start, end), start and end in minutes after midnight;
    vague parts of the day are left out. A check of what a text claims needs them all,
    and where each stands, not only the first."""
    found: list[tuple[int, int, int]] = []
    taken: list[tuple[int, int]] = []
    for pattern in (_RANGE_WORD, _RANGE_DASH):
        for m in pattern.finditer(text):
            window = _range(m.groups())
            if window is not None and not _overlaps(m.span(), taken):
                found.append((m.start(), *window))
                taken.append(m.span())
    for m in _AT.finditer(text):
        start = _clock(*m.groups(), default_pm=True)
        if start is not None and not _overlaps(m.span(), taken):
            found.append((m.start(), start, start + DEFAULT_EVENT_MINUTES))
    return sorted(found)


def start_readings(text: str) -> list[frozenset[int]]:
    """Each time of day the text says something happens at or starts from ('at 8 am',
    'from 9 to 5'), as every minute after midnight it can mean. all_windows guesses the
    evening for a bare 'at 7' (right for a party, wrong for 'wakes at 7'); a check that a
    time agrees with a known one must try both halves of the day instead."""
    out = []
    for m in _AT.finditer(text):
        hour, minute, meridiem, named = m.groups()
        exact = _clock(hour, minute, meridiem, named)
        if exact is None:
            continue
        h = exact // 60
        ambiguous = not meridiem and not named and 1 <= h <= 12
        out.append(frozenset({exact, (exact + 12 * 60) % (24 * 60)} if ambiguous else {exact}))
    return out


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(span[0] < b and a < span[1] for a, b in spans)


def _range(groups: tuple[str | None, ...]) -> tuple[int, int] | None:
    first, second = groups[:4], groups[4:]
    if first[2] is None and first[3] is None and (second[2] or second[3]):
        # 'from 5 to 7 pm': the first time shares the second's half of the day
        end = _clock(*second, default_pm=True)
        start = _clock(first[0], first[1], second[2], None, default_pm=True)
        if start is not None and end is not None and start > end:
            start = _clock(first[0], first[1], "am", None)
    else:
        start = _clock(*first, default_pm=True)
        end = _clock(*second, default_pm=True)
    if start is None or end is None:
        return None
    return start, end


def _clock(
    hour: str | None,
    minute: str | None,
    meridiem: str | None,
    named: str | None,
    default_pm: bool = False,
) -> int | None:
    """Minutes after midnight of '5 pm', '17:30', 'five in the evening', 'noon'."""
    if named:
        return 0 if named.lower() == "midnight" else 12 * 60
    if hour is None:
        return None
    h = NUMBER_WORDS.get(hour.lower()) or int(hour)
    m = int(minute) if minute else 0
    if h > 24 or m > 59:
        return None
    mer = (meridiem or "").lower().replace(".", "")
    if mer == "o'clock":  # 'four o'clock' says the hour only, not which half of the day
        mer = ""
    if mer in ("pm", "in the afternoon", "in the evening", "at night") and h < 12:
        h += 12
    elif mer in ("am", "in the morning") and h == 12:
        h = 0
    elif not mer and not minute and default_pm and 1 <= h <= 7:
        h += 12  # 'from 5 to 7': people mean the evening
    return (h % 24) * 60 + m


def event_name(text: str) -> str:
    """'Valentine's Day party' from '... hosting a Valentine's Day party at ...', or ''."""
    m = _EVENT_NAME.search(text)
    if m is not None:
        return m.group(1).strip()
    m = _EVENT_NOUN.search(text)
    return m.group(0).lower() if m else ""


def event_host(text: str) -> str:
    """Who hosts the event: 'Isabella Rodriguez is hosting ...' or 'Isabella: I'm hosting'."""
    for pattern in (_HOST_THIRD, _HOST_FIRST):
        m = pattern.search(text)
        if m is not None:
            return m.group(1)
    return ""
