"""Heard words -> a typed `Act`: slots from the town, the label from the nearest exemplars.

Two steps, each general:
1. **Slots.** The people, places, objects and scenario intents the line names are found
   against the town's own words (`Lexicon`: residents' names, the map's sectors, arenas
   and objects, each intent's keywords and event fields) and the times against the clock.
   Nothing here knows this scenario: a new town brings its own words.
2. **Label.** The line, with its slots masked by neutral words ('someone', 'that place',
   'the event'), is embedded and compared with exemplars kept as data
   (`exemplars.json`: per label a kind, an aspect, the answer wanted and example lines
   masked the same way). The nearest labels vote, weighted by similarity; below a
   confidence floor the act is GENERAL and is answered from whatever retrieval finds.

A follow-up ('and when?', 'who's behind it?', 'why?', 'and you?') names nothing itself and
takes the topic of the conversation so far (`DialogueState.topic`).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from functools import cache
from pathlib import Path

import numpy as np

from game.brains.event_words import find_date, find_window
from game.brains.protocol import Embedder
from game.world import troubles
from game.world.scenario import Intent

from .acts import Act, ActKind, Aspect, Wh, Window
from .spelling import Speller
from .state import DialogueState
from .vectors import exemplar_vectors

EXEMPLARS = Path(__file__).with_name("exemplars.json")
MASKS = {"person": "someone", "place": "that place", "object": "that thing",
         "event": "the event", "time": "then", "thing": "something"}  # fmt: skip
FLOOR = 0.45  # below this similarity to any exemplar the label is 'general'
DEEP_FLOOR = 0.35  # the same under the sentence model, whose similarities run lower
NEIGHBOURS = 5  # exemplars that vote
_STOP = (
    "a an the is are was were be been am i to of and or in on at for it its this that he she "
    "they them his her their my me we our you your by as s do does did what who when where "
    "why how any anything some something there here about have has had will would could "
    "should can with from know tell think just so really very much ever"
)
STOP = frozenset(_STOP.split())


@dataclass(frozen=True)
class Label:
    """One exemplar group: what a line like these is, and the answer it wants."""

    name: str
    kind: ActKind
    aspect: Aspect
    wh: Wh
    follow: bool = False  # names nothing itself: takes the conversation's topic
    examples: tuple[str, ...] = ()


@cache
def labels(path: Path = EXEMPLARS) -> tuple[Label, ...]:
    """The exemplar data; a damaged file fails with its name."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return tuple(
            Label(
                name=g["label"],
                kind=ActKind(g["kind"]),
                aspect=Aspect(g.get("aspect", "general")),
                wh=Wh(g.get("wh", "")),
                follow=bool(g.get("follow", False)),
                examples=tuple(g["examples"]),
            )
            for g in raw["labels"]
        )
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path.name}: unreadable dialogue exemplars ({e})") from e


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


_REFERS = re.compile(r"\b(?:it|that|those|these|them|he|she|him|her|they|their|there|"
                     r"(?:you|u) two|the two of (?:you|u|ya))\b", re.I)  # fmt: skip
_PRONOUN_YOU = re.compile(r"^\s*(?:and|what about|how about)\s+(?:you|yourself)\b", re.I)
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
    out = text
    for form in sorted(lex.people, key=len, reverse=True):
        name = re.escape(form)
        out = re.sub(rf",\s*{name}\s*(?=[?.!]|$)", "", out, flags=re.I)
        out = re.sub(rf"^(\s*(?:\w+\s*,\s*)?){name}\s*,", r"\1", out, flags=re.I)
        hello = r"\b(?:hi|hey|hello|morning|evening|afternoon|again|oh)"
        out = re.sub(rf"({hello}\s*,?\s+){name}\b\s*,?", r"\1", out, flags=re.I)
    return out


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
    low = _AROUND.sub("at ", text.lower())
    low = _BARE_CLOCK.sub(lambda m: m.group(0) if m.group(1) else f"at {m.group(2)}", low)
    low = _HABITUAL.sub(r"\1", low)  # 'most mornings' names the time of day a habit takes
    day, rest = find_date(low, now.year, now.date())
    offset = next((d for w, d in _RELATIVE.items() if re.search(rf"\b{w}\b", low)), None)
    if day is None and offset is not None:
        day = now.date() + timedelta(days=offset)
    if day is None and _SINCE_UP.search(low):  # 'what have you done since you got up?'
        return Window(_at(now.date(), 0), now, _SINCE_UP.search(low).group(0))
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
_EVENING = re.compile(r"\b(?:tonight|this evening|in the evening|at night|last night)\b")
_AM = re.compile(r"\b(?:am|a\.m\.|in the morning)\b")
_DAY_PART = re.compile(r"\b(?:am|pm|a\.m\.|p\.m\.|morning|afternoon|evening|night|tonight|"
                       r"noon|midday|midnight|lunch|breakfast|dinner)\b")  # fmt: skip
_PAST_SAID = re.compile(r"\b(?:were|was|did|had|went|ate|earlier|ago|been)\b")


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


# -- the label ---------------------------------------------------------------------------------


class Understander:
    """Understands heard lines for one town. Thread-safe: the exemplar matrix is built once
    under a lock, and understanding itself only reads."""

    def __init__(
        self,
        lexicon: Lexicon,
        embedder: Embedder,
        data: Path = EXEMPLARS,
        deep: Embedder | None = None,
    ) -> None:
        self.lexicon = lexicon
        self.embedder = embedder
        self.deep = deep  # the sentence model, for lines no resident said (see `_reader`)
        self._deep_matrix: np.ndarray | None = None
        self._data = data
        self._lock = threading.Lock()
        self._matrix: np.ndarray | None = None
        self._owners: list[Label] = []
        self._follows = np.zeros(0, dtype=bool)
        self._asking = np.zeros(0, dtype=bool)
        self._stems: list[set[str]] = []
        self._needs = np.zeros((0, len(SLOTS)), dtype=bool)
        self._memo: dict[tuple, Act] = {}
        self._vocab: set[str] = set()
        self._intent_vectors: dict[str, np.ndarray] = {}
        self._terms = np.zeros((0, embedder.dim), dtype=np.float32)
        self._term_ids: list[str] = []
        self._speller: Speller | None = None

    def _ready(self) -> np.ndarray:
        with self._lock:
            if self._matrix is None:
                texts, owners, needs = exemplar_texts(self._data), [], []
                for label in labels(self._data):
                    for ex in label.examples:
                        owners.append(label)
                        needs.append([("{" + slot + "}") in ex for slot in SLOTS])
                self._matrix = self.embedder.embed(texts)
                if self.deep is not None:
                    self._deep_matrix = exemplar_vectors(self.deep, texts)
                self._owners = owners
                self._follows = np.array([x.follow for x in owners], dtype=bool)
                self._asking = np.array([x.kind in ASKING for x in owners], dtype=bool)
                self._stems = [content_stems(t) for t in texts]
                self._needs = np.array(needs, dtype=bool).reshape(len(texts), len(SLOTS))
                self._vocab = {w for t in texts for w in t.split()}
                self._speller = self._make_speller()
                terms = list(self.lexicon.intents)
                if terms:
                    self._term_ids = [self.lexicon.intents[t] for t in terms]
                    self._terms = self.embedder.embed(terms)
                ids = list(self.lexicon.intent_texts)
                if ids:
                    vecs = self.embedder.embed([self.lexicon.intent_texts[i] for i in ids])
                    self._intent_vectors = dict(zip(ids, vecs, strict=True))
            return self._matrix

    def _make_speller(self) -> Speller | None:
        """A corrector for typed lines over the static embedder's vocabulary (None with the
        hashed embedder, which has none); the town's names and the exemplars' words stay."""
        model = getattr(self.embedder, "model", None)
        ranked = getattr(model, "vocab", None)
        if not ranked:
            return None
        lex = self.lexicon
        names = [w for form in [*lex.people, *lex.places, *lex.objects] for w in words(form)]
        return Speller(ranked, keep=[*names, *lex.intents, *self._vocab])

    def understand(
        self, text: str, now: datetime, state: DialogueState | None = None, speaker: str = ""
    ) -> Act:
        """The act `text` performs, heard at `now` in a conversation at `state`. The same
        line in the same moment of the same conversation is understood once (an
        evaluation asks every resident the same questions)."""
        recent = tuple((s.speaker, s.text) for s in state.said[-4:]) if state else None
        key = (text, now, speaker, recent)
        with self._lock:
            known = self._memo.get(key)
        if known is not None:
            return known
        act = self._understand(text, now, state, speaker)
        with self._lock:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            self._memo[key] = act
        return act

    def _understand(
        self, text: str, now: datetime, state: DialogueState | None, speaker: str
    ) -> Act:
        self._ready()
        if self._speller is not None and speaker.lower() not in self.lexicon.people:
            text = self._speller.fix(text)  # a player's typing: 'wat r u doing rn'
        asked_all = questions_in(text)
        if len(asked_all) >= 2 and not _REFERS.search(asked_all[-1]):
            # 'Where do you get your news? Who tells you things?': two questions that do not
            # lean on each other; the one the exemplars know better is what is asked
            last = self._read(text, now, state, speaker)
            earlier = self._read(asked_all[-2], now, state, speaker)
            if earlier.asks and earlier.confidence > last.confidence + TWO_QUESTIONS_MARGIN:
                return earlier
            return last
        if len(asked_all) >= 2:
            # 'Do you know the people who live near you? What are their names?': the last
            # points back, so the earlier one names the topic and the last says what is
            # wanted of it ('Heard of the bake sale? When is it?' wants a when)
            whole = self._read(text, now, state, speaker)
            earlier = self._read(asked_all[-2], now, state, speaker)
            wanted = _wh_by_form(asked_all[-1])
            topic = whole
            if (earlier.asks and earlier.aspect is not whole.aspect
                    and earlier.confidence > whole.confidence + TWO_QUESTIONS_MARGIN):
                topic = replace(earlier, text=text)
            return replace(topic, wh=wanted) if wanted in _EXPLICIT_WH else topic
        alone = self._without_self_lead(text, now, state, speaker) if asked_all else None
        if alone is not None:
            return alone
        embedded = _embedded_question(text) if not asked_all else ""
        if embedded:  # 'I'd love to know when your working day ends, so I don't bother you'
            asked = self._read(embedded, now, state, speaker)
            if asked.asks:
                return asked
        if _UNMARKED_END.search(text) and not _asked(text) and _may_ask(text):
            # typed chat drops the question mark, and its questions often do not open as
            # one ('tonight any plans', 'dinner time for u tonight is when'): the line is
            # read both ways, and the exemplars decide which it is nearer
            told, asked = self._read(text, now, state, speaker), self._read(
                text.rstrip() + "?", now, state, speaker)  # fmt: skip
            if asked.asks and asked.confidence > told.confidence + UNMARKED_MARGIN:
                return asked  # its text with the mark, as the planners read questions
            if asked.asks and told.label == "statement.self" and not _FIRST_PERSON.search(text):
                return asked  # 'u doing a degree or anything' tells nothing of the speaker
            return told
        return self._read(text, now, state, speaker)

    def _without_self_lead(
        self, text: str, now: datetime, state: DialogueState | None, speaker: str
    ) -> Act | None:
        """'Hello there, I'm new in town. And you are...?': a bare question leans on the
        sentence before it ('The stove's on fire! What do you do?'), unless that sentence
        is the speaker telling of themselves or greeting; then the question is asked alone.
        None when the line is not of that shape."""
        parts = [p.strip() for p in _SENTENCE.findall(text) if p.strip()]
        asked = [i for i, p in enumerate(parts) if p.endswith("?")]
        if len(asked) != 1 or asked[0] == 0 or content_stems(parts[asked[0]]):
            return None
        before = self._read(parts[asked[0] - 1], now, state, speaker)
        if before.label not in _SELF_LEADS:
            return None
        return self._read(parts[asked[0]], now, state, speaker)

    def _read(
        self, text: str, now: datetime, state: DialogueState | None, speaker: str
    ) -> Act:
        matrix = self._ready()
        whole = text
        text = unmarked(_without_vocatives(self._named_back(whole, focus(text)), self.lexicon))
        opener = _SENTENCE.findall(text)
        if not questions_in(whole) and len(opener) > 1 and len(words(opener[0])) <= 3:
            first = self.understand(opener[0].strip(), now, state, speaker)
            if first.kind in (ActKind.GREETING, ActKind.FAREWELL):
                return replace(first, text=whole)  # 'Evening! Lovely to see you.' greets
        slots = find_slots(text, self.lexicon, now, speaker)
        own_intent = slots.intent  # what the question itself names, before the rest adds
        asked = " ".join(questions_in(whole))
        if len(words(asked)) <= 3 or not content_stems(asked):  # 'Have you heard? Tom is...'
            asked = whole  # ... or 'The sink's leaking. What would you do?': the rest is it
        if asked and asked != text:  # 'Any party? Who hosts it?': the topic is in all of it
            more = find_slots(asked, self.lexicon, now, speaker)
            slots = replace(slots, person=slots.person or more.person,
                            place=slots.place or more.place, intent=slots.intent or more.intent,
                            named=slots.named or more.named,
                            window=slots.window or more.window)  # fmt: skip
        if whole != text and _REFERS.search(text) and not _names_any(slots):
            more = find_slots(whole, self.lexicon, now, speaker)  # 'There's talk of a party
            slots = replace(slots, person=more.person, place=more.place, obj=more.obj,
                            intent=more.intent, named=more.named)  # at the pub. Clued up on it?'
        query = slots.masked or text.lower()
        reader, matrix = self._reader(speaker, matrix)
        deep = reader is self.deep
        vec, raw = reader.embed([query, _plain(text)])
        sims = np.maximum(matrix @ vec, matrix @ raw)  # masked or as said: the nearer
        frame = self._framed(query)
        if not deep and self._has_frame(frame):  # ('have you got into something at all')
            sims = np.maximum(sims, matrix @ reader.embed([frame])[0])  # the static model
        if deep:
            sims = sims + LEXICAL * self._overlap(query) - self._slot_misfit(slots)
        else:  # a resident's template line: the settings its templates were written against
            sims = sims + RESIDENT_LEXICAL * self._overlap(query)
        asking = _asked(text)
        if asking and not _TAG.search(text):
            sims = np.where(self._asking, sims, -1.0)  # a question is one of the questions
        elif not asking:
            sims = np.where(self._asking, -1.0, sims)  # ... and a line that does not ask, not
        if len(leftover(query).split()) > FOLLOW_WORDS or state is None or not state.said:
            sims = np.where(self._follows, -1.0, sims)
        label, score, second = self._vote(sims, DEEP_FLOOR if deep else FLOOR, deep)
        near, word = ("", "") if slots.intent else self._near_word(text)
        if near:
            slots = replace(slots, intent=near, named=word)
        intent = slots.intent or self._intent_like(vec, slots.masked or text, label)
        kind = label.kind if label else _kind_by_form(text)
        if label is None and text.rstrip().endswith("?"):
            kind = ActKind.QUESTION
        if kind in (ActKind.QUESTION, ActKind.OPINION) and not _asked(text):
            kind = ActKind.STATEMENT  # 'These days I'm painting.' tells, it does not ask
        act = Act(
            kind=kind,
            aspect=label.aspect if label else Aspect.GENERAL,
            wh=label.wh if label else _wh_by_form(text),
            person=slots.person,
            place=slots.place,
            obj=slots.obj,
            intent=intent,
            named=slots.named,
            window=slots.window,
            confidence=round(float(score), 3),
            text=whole,
            label=label.name if label else "general",
            second=second,
            deep=deep,
        )
        if not (intent or act.person or act.place or act.obj):
            act = replace(act, event=leftover(slots.masked))
        act = _tense(act, now)
        act = replace(act, wh=_wh_of(act, text))
        act = _by_slots(act, label)
        seen_doing = _SEEN_DOING.search(_plain(text)) is not None  # 'it' is what one was doing
        if act.intent and not own_intent and act.asks and _REFERS.search(text) \
                and not (label is not None and label.follow) and not seen_doing:  # fmt: skip
            # 'Is there a mayoral race on? Who's in it?': the question asks of the event
            # the line named before it
            act = replace(act, aspect=Aspect.EVENT, label=_EVENT_BY_WH.get(act.wh, "event.know"))
        act = self._in_trouble(act, whole, now, speaker)
        if act.aspect is Aspect.DOING and act.window is not None and act.window.start > now:
            act = replace(act, aspect=Aspect.PLANS, label="plans.at")  # 'doing what tonight?'
        if (act.wh is Wh.WHERE and act.asks and act.aspect in _ONES_OWN_DAY and not act.person
                and not _YOU.search(text)):  # 'Where do people go for a drink of an evening?'
            act = replace(act, aspect=Aspect.PLACE, label="place.about")  # asks of the town
        if (act.aspect is Aspect.FEELINGS and act.window is not None and act.window.end <= now
                and not seen_doing):  # 'saw you fixing the fence; how did it go?' is feelings
            act = replace(act, aspect=Aspect.PAST, label="past")  # 'how was your evening?'
        if act.intent and not slots.intent and act.aspect not in _OF_ONESELF:
            act = replace(act, aspect=Aspect.EVENT, label="event.know")  # by meaning alone
        if _PRONOUN_YOU.search(text) or (label is not None and label.name == "follow.you"):
            act = replace(act, about_you=True)
        act = _carried_window(act, state, now)
        bare = not (act.person or act.place or act.obj or act.intent)
        refers = bare and act.asks and _REFERS.search(text) is not None and len(words(text)) <= 12
        topic = state.topic if state is not None else None
        if (
            bare
            and act.asks
            and topic is not None
            and topic.aspect is act.aspect
            and (topic.intent or topic.person or topic.place)
        ):
            refers = True  # more about the same thing: 'who's hosting?' after the party
        if (label is not None and label.follow) or act.about_you or refers:
            if (
                refers
                and label is not None
                and not label.follow
                and (label.kind is ActKind.OPINION or label.aspect is Aspect.INTERESTS)
            ):  # 'do you enjoy it?': an opinion of the topic, not a new topic
                act = replace(act, label="follow.opinion", kind=ActKind.OPINION)
            elif refers and topic is not None and label is not None and not label.follow \
                    and act.wh in _FOLLOW_WH:  # fmt: skip
                act = replace(act, label=_FOLLOW_WH[act.wh])  # 'what time does it kick off?'
            act = _follow(act, state)
            if _HE_SHE.search(text) and state is not None:
                act = _about_person(act, state)
        return act

    def _in_trouble(self, act: Act, whole: str, now: datetime, speaker: str) -> Act:
        """A trouble told, then a question about it ('The tap won't stop dripping. What's
        your plan?'): the question alone reads as about one's plans, but what it asks is
        what one would do about the trouble (the troubles table names it)."""
        told = " ".join(p for p in _SENTENCE.findall(whole) if not p.strip().endswith("?"))
        if not act.asks or troubles.trouble(told) is None:
            return act
        if act.label in TROUBLE_LABELS and act.label != "fridge":  # an empty fridge is none
            return act
        if len(leftover(" ".join(questions_in(whole))).split()) > FOLLOW_WORDS:
            return act  # 'The sink is leaking. Is Tom at home today?' asks something else
        obj = act.obj or find_slots(whole, self.lexicon, now, speaker).obj
        return replace(act, label="object.trouble", aspect=Aspect.OBJECT, obj=obj,
                       kind=ActKind.QUESTION)  # fmt: skip

    def _named_back(self, whole: str, question: str) -> str:
        """The question with the person an earlier part of the line named in place of the
        pronoun that refers to them ('Klaus... do you know them at all?' asks about Klaus)."""
        lead = whole[: max(0, whole.rfind(question))] if question != whole else ""
        if not lead.strip() or not _PERSON_BACK.search(question):
            return question
        if _longest(lead.lower(), self.lexicon.people) == "":
            return question
        if _longest(question.lower(), self.lexicon.people):
            return question
        name = _longest(lead.lower(), self.lexicon.people)
        return _PERSON_BACK.sub(name, question, count=1)

    def _reader(self, speaker: str, matrix: np.ndarray) -> tuple[Embedder, np.ndarray]:
        """The embedder a line is read with, and the exemplars' vectors under it: the
        sentence model for the visitor's and an interviewer's open-ended words, the static
        one for a resident's own line (made from this game's templates, and said dozens of
        times an hour, where a forward pass each would slow the town)."""
        resident = speaker.lower() in self.lexicon.people
        if self.deep is None or self._deep_matrix is None or resident:
            return self.embedder, matrix
        return self.deep, self._deep_matrix

    def _near_word(self, text: str) -> tuple[str, str]:
        """An intent a word names by meaning ('voting' for the election): the word whose
        vector is nearest one of the intent's own words, when near enough."""
        if not len(self._terms):
            return "", ""
        found = [w for w in words(text) if w not in STOP and len(w) > 3]
        if not found:
            return "", ""
        sims = self.embedder.embed(found) @ self._terms.T
        i, j = np.unravel_index(int(np.argmax(sims)), sims.shape)
        if sims[i, j] < WORD_NEAR:
            return "", ""
        return self._term_ids[int(j)], found[int(i)]

    def _framed(self, query: str) -> str:
        """The line with every word no exemplar uses put as 'something': what is left is
        the frame of the question, which the exemplars are made of. Only the static model
        reads frames: it knows words, not sentences, while the sentence model reads a
        player's own words better than their frame (aspect accuracy on the held-out
        questions 0.752 against 0.732 with frames)."""
        return " ".join(w if w in STOP or w in self._vocab else MASKS["thing"]
                        for w in query.split())  # fmt: skip

    def _has_frame(self, frame: str) -> bool:
        """A frame is worth matching only if some word of it is an exemplar's own (not
        only 'what's something something')."""
        masks = set(" ".join(MASKS.values()).split())
        return any(w.split("'")[0] not in STOP and w not in masks for w in frame.split())

    def _slot_misfit(self, slots: Slots) -> np.ndarray:
        """How far each exemplar's slots are from the line's: an exemplar naming someone
        ('what sort of person is {person}') fits a line that names nobody ('what sort of
        person are you?') worse, and one about oneself ('what do you do for a living') fits
        a line naming someone ('what does Giorgio do for a living?') worse."""
        has = np.array([bool(slots.person), bool(slots.place), bool(slots.obj),
                        bool(slots.intent), slots.window is not None], dtype=bool)  # fmt: skip
        missing = (self._needs & ~has).sum(axis=1)
        extra = (~self._needs[:, :2] & has[:2]).sum(axis=1)  # a person or a place unasked of
        return SLOT_MISSING * missing + SLOT_EXTRA * extra

    def _overlap(self, query: str) -> np.ndarray:
        """The share of words a line and each exemplar have in common (Jaccard of stems):
        a nudge towards the exemplar worded most like it, on top of the meaning."""
        mine = content_stems(query)
        if not mine:
            return np.zeros(len(self._stems))
        return np.array([len(mine & t) / len(mine | t) if t else 0.0 for t in self._stems])

    def _vote(
        self, sims: np.ndarray, floor: float = FLOOR, by_aspect: bool = True
    ) -> tuple[Label | None, float, str]:
        """The nearest exemplars vote in two rounds: first for what the line is about (an
        aspect: 'who do you live with' and 'do you have the place to yourself' both say
        home), then, within it, for the label. A vote weighs exp((s - best) / SHARPNESS), so
        the nearest exemplar counts most and a label with many near-misses cannot outvote
        it. Also returned: the best label of the runner-up aspect ('' if none came near), a
        second reading for an answer that finds nothing under the first. Without
        `by_aspect` (a resident's own line) each label is its own group and a vote weighs its
        similarity, as the residents' templates were tuned against."""
        top = np.argsort(-sims)[:NEIGHBOURS]
        best = float(sims[top[0]]) if len(top) else 0.0
        if best < floor:
            return None, best, ""
        groups: dict[str, float] = {}
        tally: dict[str, float] = {}
        for i in top:
            if sims[i] < best - 0.1:
                continue
            owner = self._owners[int(i)]
            weight = float(np.exp((sims[i] - best) / SHARPNESS)) if by_aspect else float(sims[i])
            group = _group(owner) if by_aspect else owner.name
            groups[group] = groups.get(group, 0.0) + weight
            tally[owner.name] = tally.get(owner.name, 0.0) + weight
        ranked = sorted(groups, key=lambda g: -groups[g])
        of = _group if by_aspect else (lambda label: label.name)
        chosen = [max((n for n in tally if of(self._label(n)) == g), key=lambda n: tally[n])
                  for g in ranked[:2]]  # fmt: skip
        return self._label(chosen[0]), best, chosen[1] if len(chosen) > 1 else ""

    def _label(self, name: str) -> Label:
        return next(x for x in self._owners if x.name == name)

    def _intent_like(self, vec: np.ndarray, text: str, label: Label | None) -> str:
        """An intent the words do not name but the meaning does ('the mayoral race'): the
        nearest intent text, when close enough and the line is about events or news."""
        if not self._intent_vectors or label is None or label.name == "event.know":
            return ""  # 'is anything happening?' asks about every event, not the nearest
        full = self.embedder.embed([_plain(text)])[0]
        scored = sorted(((float(v @ full), i) for i, v in self._intent_vectors.items()),
                        reverse=True)  # fmt: skip
        runner_up = scored[1][0] if len(scored) > 1 else 0.0
        best, score = scored[0][1], scored[0][0]
        floor = INTENT_FLOOR if label.aspect in (Aspect.EVENT, Aspect.GENERAL) else INTENT_STRONG
        return best if score >= floor and score - runner_up >= INTENT_MARGIN else ""


# a line that refers back ('what time does it kick off?') asks its wh of the topic
_FOLLOW_WH = {Wh.WHEN: "follow.when", Wh.WHERE: "follow.where", Wh.WHO: "follow.who",
              Wh.WHY: "follow.why"}  # fmt: skip


def _group(label: Label) -> str:
    """What a label is about, for the first round of the vote: its aspect, or, for the
    labels about nothing in particular (greetings, follow-ups), the label itself."""
    return label.aspect.value if label.aspect is not Aspect.GENERAL else "=" + label.name


MEMO_SIZE = 20_000  # understood lines kept (cleared whole when full)
SLOTS = ("person", "place", "object", "event", "time")  # the slots an exemplar may name
SLOT_MISSING = 0.15  # an exemplar's slot the line does not fill
SLOT_EXTRA = 0.12  # a person or place the line names and the exemplar does not
SHARPNESS = 0.1  # a neighbour this much less similar than the nearest weighs 1/e of it
LEXICAL = 0.15  # weight of shared words beside the embedding's similarity
RESIDENT_LEXICAL = 0.3  # ... for a resident's own line
ASKING = (ActKind.QUESTION, ActKind.OPINION, ActKind.INVITATION, ActKind.REQUEST)
_TAG = re.compile(r"(?:,|\b)\s*(?:isn't it|aren't you|haven't we|have we|won't you|don't you"
                  r"(?: think)?|right|had you heard|can you believe it|who'd have thought)\?\s*$"
                  r"|,\s*(?:are|will|do|did|can|have) you(?: too)?\?\s*$", re.I)  # fmt: skip
INTENT_FLOOR = 0.42  # the meaning is near enough an intent's text ...
INTENT_MARGIN = 0.08  # ... and clearly nearer it than any other intent ...
INTENT_STRONG = 0.55  # ... or, for a line that seems about something else, very near it
WORD_NEAR = 0.5  # a word this near one of an intent's own words names the intent
_YESNO_START = re.compile(r"^\s*(?:are|do|does|did|is|was|were|have|has|can|could|will|would|"
                          r"any chance|anything|any|busy|still|had you|you|got|ever|should|am|"
                          r"seen|heard|know|noticed|spot|spotted|fancy|reckon|"
                          r"isn't|aren't|don't|doesn't|didn't|won't|can't|haven't|hasn't|"
                          r"wasn't|weren't)\b", re.I)  # fmt: skip
FOLLOW_WORDS = 2  # a line naming more than this is not a bare follow-up
TROUBLE_LABELS = frozenset({"object.trouble", "object.state", "fridge"})  # asked of trouble


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w'\- ]", " ", text.lower()).split())


def leftover(masked: str) -> str:
    """The content words a masked line names beyond its slots ('bake sale'): what
    retrieval should match when no field of the town names the topic."""
    masks = " ".join(MASKS.values()).split()
    return " ".join(w for w in words(masked)
                    if w not in STOP and w not in _ASKING and w not in masks and len(w) > 2)


# the words of asking and hearing, which say how a topic is asked about, never what it is
# ('Have you heard of the bake sale?' is about a bake sale)
_ASKING_WORDS = ("hear heard hearing know knew known told tells telling say said saying "
                 "wonder wondering wondered remember recall")
_ASKING = frozenset(_ASKING_WORDS.split())


def exemplar_texts(path: Path = EXEMPLARS) -> list[str]:
    """Every exemplar line as it is compared: masked, lower case, in the data's order."""
    return [_masked_example(ex) for label in labels(path) for ex in label.examples]


def _masked_example(example: str) -> str:
    out = example
    for slot, word in MASKS.items():
        out = out.replace("{" + slot + "}", word)
    return " ".join(re.sub(r"[^\w'\- ]", " ", out.lower()).split())


def _by_slots(act: Act, label: Label | None) -> Act:
    """A line whose label is about nothing in particular takes its aspect from what it
    names: 'tell me about Hobbs Cafe' is about a place, '... Sam's campaign' an event."""
    if act.aspect is Aspect.PERSON and not act.person:
        act = replace(act, aspect=Aspect.GENERAL)
    if act.person and act.aspect in _OF_SOMEONE:  # 'how would you describe Klaus?'; 'Tom?
        return replace(act, aspect=Aspect.PERSON, label="person.about")  # do you two know?'
    if act.aspect not in (Aspect.GENERAL, Aspect.NEWS):
        return act
    general = label is not None and label.aspect is Aspect.GENERAL and not label.follow \
        and act.asks and label.name not in _KEEP_GENERAL  # fmt: skip
    if act.intent:
        return replace(act, aspect=Aspect.EVENT, label="event.know" if general else act.label)
    if act.person:
        return replace(act, aspect=Aspect.PERSON, label="person.about" if general else act.label)
    if act.obj:
        return replace(act, aspect=Aspect.OBJECT, label="object.state" if general else act.label)
    if act.place and act.aspect is Aspect.GENERAL:
        return replace(act, aspect=Aspect.PLACE, label="place.about" if general else act.label)
    return act


# aspects of oneself that, naming someone else, ask of that someone and oneself
_OF_SOMEONE = frozenset({Aspect.IDENTITY, Aspect.FAMILY, Aspect.FRIENDS})
# labels about nothing in particular that stay themselves whatever the line names (a
# message to pass on names its person)
_KEEP_GENERAL = frozenset({"request"})
_EVENT_BY_WH = {Wh.WHO: "event.who", Wh.WHEN: "event.when", Wh.WHERE: "event.where"}


def _follow(act: Act, state: DialogueState | None) -> Act:
    """A follow-up takes the conversation's topic: its aspect and slots, its own wh."""
    topic = state.topic if state is not None else None
    if topic is None:
        return act
    if act.aspect is Aspect.GENERAL and not act.label.startswith("follow") and not act.about_you:
        wh = _wh_by_form(act.text)  # 'what time does it start?' asks when of the topic
        act = replace(act, label=_FOLLOW_BY_WH.get(wh, "follow.more"), wh=wh)
    act = _facet(act, topic)
    return replace(
        act,
        aspect=act.aspect if act.aspect is Aspect.PERSON else topic.aspect,
        person=act.person or topic.person,
        place=act.place or topic.place,
        obj=act.obj or topic.obj,
        intent=act.intent or topic.intent,
        event=act.event or topic.event,
        window=act.window or topic.window,
        follow_up=True,
        label=topic.label if act.about_you else act.label,
        wh=topic.wh if act.about_you else act.wh,
        kind=topic.kind if act.about_you else act.kind,
    )


def _facet(act: Act, topic: Act) -> Act:
    """Which part of a topic of people a follow-up asks for: 'how did that start?' or
    'what's she like?' after one's friends or someone, once an answer named one, asks of
    that person; 'how many live there?' after one's home wants the people ('how many' of
    people is who); 'how do you find sharing with them?' asks how one finds it."""
    if act.about_you or topic.aspect not in (*_OF_PEOPLE, Aspect.PERSON):
        return act
    said = _wh_by_form(act.text)  # the line's own wh-word, over its label's usual one
    if topic.person and topic.aspect is not Aspect.HOME and said in (Wh.HOW, Wh.WHAT):
        return replace(act, aspect=Aspect.PERSON, label="person.about", person=topic.person,
                       wh=said)  # fmt: skip
    if topic.aspect is Aspect.PERSON:
        return act
    if _HOW_MANY.search(act.text):
        return replace(act, wh=Wh.WHO, label="follow.who")
    if said is Wh.HOW and not _WHEN_PHRASE.search(act.text):
        return replace(act, kind=ActKind.OPINION, label="follow.opinion", wh=Wh.HOW)
    return act


_OF_PEOPLE = frozenset({Aspect.HOME, Aspect.FAMILY, Aspect.FRIENDS})
_HOW_MANY = re.compile(r"\bhow many\b", re.I)


def _carried_window(act: Act, state: DialogueState | None, now: datetime) -> Act:
    """A short question about one's day that names no time keeps the time the talk was
    about: 'See anyone?' after 'How was your day yesterday?' asks of yesterday."""
    topic = state.topic if state is not None else None
    if (not act.asks or act.window is not None or topic is None or topic.window is None
            or topic.aspect not in _ONES_OWN_DAY
            or act.aspect not in (*_ONES_OWN_DAY, Aspect.GENERAL)
            or act.person or act.place or act.obj or act.intent
            or len(words(act.text)) > CARRY_WORDS):  # fmt: skip
        return act
    act = _tense(replace(act, window=topic.window, follow_up=True), now)
    if act.aspect in (Aspect.DOING, Aspect.GENERAL) and topic.window.end <= now:
        act = replace(act, aspect=Aspect.PAST, label="past")  # 'see anyone?' of yesterday
    return act


CARRY_WORDS = 6  # a question longer than this says what it asks of itself


_SENTENCE = re.compile(r"[^.!?;]+[.!?;]*")
_UNMARKED_END = re.compile(r"[\w'\"]\s*$")  # a line ending without . ! ? (typed chat)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'll|i'd|me|my|mine|myself|im|ive)\b", re.I)
UNMARKED_MARGIN = 0.05  # how much nearer a question an unmarked line must be to be one
TWO_QUESTIONS_MARGIN = 0.1  # how much surer the earlier of two questions must be read
_SELF_LEADS = frozenset({"statement.self", "greeting"})  # a lead no bare question leans on
# where one spends one's own day: a where-question of it that says no 'you' asks of the town
_ONES_OWN_DAY = frozenset({Aspect.PLANS, Aspect.PAST, Aspect.ROUTINE, Aspect.DOING})
_YOU = re.compile(r"\b(?:you|your|yours|yourself|u|ur|ya|yer|thee|we|we're|us)\b",
                  re.I)  # ('where are we right now?' asks of here, with the listener in it)
_ASK_CUE = frozenset(words("what who whom whose where when why how which any anything anyone "
                           "anybody anywhere what's who's where's when's how's"))  # fmt: skip
# a clause whose own subject comes before its wh-word tells ('I'll see you when it starts')
_SUBJECTS = frozenset(words("i i'm i'll i've i'd we we're they they're he she it it's that's "
                            "there's here's"))  # fmt: skip


_EMBEDDED = re.compile(
    r"\b(?:(?:like|love|want|wanted|need|needed|keen|dying|interested|curious|glad|happy)\s+"
    r"(?:to\s+)?(?:know|hear|find out|learn|ask)|wonder|wondering|wondered|curious|"
    r"tell me|let me know|ask you|asking you|asking)\s+"
    r"(?:about\s+)?(what|who|whom|whose|where|when|why|how|which|whether|if)\b([^.!;,]*)",
    re.I,
)


def _embedded_question(text: str) -> str:
    """The question a line asks inside a statement ('I was wondering where you work.',
    'I'd love to know when your day ends, so I don't bother you'), as a question; '' if it
    asks none. 'Whether' and 'if' ask yes or no: 'if you're going' -> 'you're going?'."""
    m = _EMBEDDED.search(text)
    if m is None or not content_stems(m.group(2)):
        return ""
    wh = m.group(1).lower()
    rest = m.group(2).strip()
    return f"{rest}?" if wh in ("whether", "if") else f"{wh} {rest}?"


def _may_ask(text: str) -> bool:
    """Whether an unmarked line could be a question by its words: one of its clauses opens
    with 'you' ('you going to the party') or has a word that asks with no subject of its
    own before it ('tonight any plans', 'dinner time for you tonight is when'), where 'my
    name is jo' and 'that's how it goes' tell."""
    for clause in re.split(r"[,;:]|\s-\s|\band\b|\bbut\b", text.lower()):
        said = words(clause)
        if said[:1] == ["you"]:
            return True
        cue = next((i for i, w in enumerate(said) if w in _ASK_CUE), None)
        before = said[:cue] if cue is not None else []
        pairs = {f"{a} {b}" for a, b in zip(before, before[1:], strict=False)}
        if cue is not None and not (_SUBJECTS & set(before)) and not (_SUBJECT_PAIRS & pairs):
            return True
    return False


_SUBJECT_PAIRS = frozenset({"this is", "that is", "it is", "there is", "here is"})
_QUESTION_WORDS = (
    "what who whom when where why how which do does did are is was were can could would will "
    "have has any anything tell shall should may describe explain name list give introduce share "
    "walk show run paint fill talk state spell remind confirm catch update bring"
)
_QUESTION_STARTS = frozenset(_QUESTION_WORDS.split())


def focus(text: str) -> str:
    """The sentence of a line that carries its act: the question, if it asks one ('Hi,
    Maria! Are you going to the party?'), else the line as it is."""
    parts = [p.strip() for p in _SENTENCE.findall(text) if p.strip()]
    asked = [i for i, p in enumerate(parts) if p.endswith("?")]
    if not asked:  # 'Nice to meet you! Tell me about yourself.': a later line that asks
        asked = [i for i, p in enumerate(parts) if i > 0 and _asked(unmarked(p))]
    if not asked:
        return text
    question = parts[asked[-1]]
    if not content_stems(question) and asked[-1] > 0:  # 'The stove's on fire! What do you do?'
        leans = parts[asked[-1] - 1 : asked[-1] + 1]  # on the sentence just before it
        return " ".join(_GREETING_LEAD.sub("", p, count=1) for p in leans)
    rest = _GREETING_LEAD.sub("", question, count=1)
    return rest if len(words(rest)) >= 2 else question  # 'Hi, Sam, still reading?' asks


_GREETING_LEAD = re.compile(
    r"^\s*(?:oh,\s*)?(?:hi|hello|hey|howdy|good (?:morning|afternoon|evening)|morning|evening)"
    r"(?: again| there)?\s*,\s*(?:(?:dear|love|dad|mum|mom)\s*,\s*)?",
    re.I,
)


def is_yes_no(text: str) -> bool:
    """Whether a line's question wants a yes or a no ('Had you heard?', 'Are you going?',
    'Interesting, isn't it?'), by its form."""
    asked = questions_in(text)
    last = unmarked(asked[-1]) if asked else ""
    return bool(last) and bool(_YESNO_START.match(last) or _TAG.search(last))


_MARKER = re.compile(r"^\s*(?:(?:well|oh|so|now|say|anyway|honestly|mind you|you know|right|"
                     r"ha|hey|hm+|ah)\s*,?\s+)+", re.I)  # fmt: skip
# a line's first words that join it to the talk before and say nothing of what it asks
_JOINING = re.compile(r"^\s*(?:(?:and|but|then|ok|okay|alright|also|plus|um+)\s*,?\s+)+", re.I)


def joined_off(text: str) -> str:
    """A line without the words that join it to the talk before ('And when do you knock
    off?' asks as 'When do you knock off?' does); kept apart from `unmarked`, since 'And
    you?' and 'And you are...?' lean on their 'and'."""
    return _JOINING.sub("", unmarked(text))


def unmarked(text: str) -> str:
    """Without the spoken markers a line may open with ('Well, ...', 'Now, ...')."""
    out = _MARKER.sub("", text)
    return out[:1].upper() + out[1:] if out else text


def questions_in(text: str) -> list[str]:
    return [p.strip() for p in _SENTENCE.findall(text) if p.strip().endswith("?")]


def _asked(text: str) -> bool:
    """A question by its form: a question mark, or opening as a question does (typed chat
    often drops the mark)."""
    if text.rstrip().endswith("?") or _opens_as_question(joined_off(text)):
        return True
    # a later clause that opens as a question does ('say the cafe went up in flames, what
    # would u do'; 'the cafe is a mystery to me, fill me in')
    return any(_opens_as_question(c, _CLAUSE_STARTS) for c in _CLAUSE_BREAK.split(text)[1:])


def _opens_as_question(clause: str, starts: frozenset[str] | None = None) -> bool:
    said = [_CONTRACTED.sub("", w) for w in words(clause)[:2]]  # 'how'd', 'who's'
    if not said or said[0] not in (starts or _QUESTION_STARTS):
        return False
    exclaims = said[0] in ("what", "how") and len(said) > 1 and said[1] in _EXCLAIMED
    return not exclaims  # not 'what a day', 'how lovely', but 'give an introduction'


# what may open a question after a comma: a wh-word, an auxiliary or an asking verb; not
# any imperative ('Right, I'm off, catch you tomorrow' says goodbye)
_CLAUSE_STARTS = frozenset(words("what who whom when where why how which do does did are is "
                                 "was were can could would will have has tell describe "
                                 "explain"))  # fmt: skip
_CLAUSE_BREAK = re.compile(r"[,;:]\s*|\s+-\s+")
_EXCLAIMED = frozenset(words("a an nice lovely great wonderful good fun lucky kind sweet "
                             "awful terrible sad funny strange odd weird beautiful"))


_PERSON_BACK = re.compile(r"\b(?:him|her|them|he|she|they)\b", re.I)
_HE_SHE = re.compile(r"\b(?:he|she|him|his|hers|their|(?:you|u) two|the two of (?:you|u|ya))\b",
                     re.I)  # fmt: skip


def _tense(act: Act, now: datetime) -> Act:
    """A window already over makes a question about plans one about the past, and the
    other way round ('what were you up to yesterday afternoon?')."""
    if act.window is None:
        return act
    bare = not (act.place or act.person or act.intent or act.obj)
    if bare and act.asks and act.aspect in (Aspect.GENERAL, Aspect.PLACE) and act.window.end > now:
        return replace(act, aspect=Aspect.PLANS, label="plans.at")  # 'where can I find you at 7?'
    if act.aspect is Aspect.PLANS and act.window.end <= now:
        return replace(act, aspect=Aspect.PAST, label="past")
    if act.aspect is Aspect.PLANS and act.window.end - act.window.start < timedelta(hours=12):
        return replace(act, label="plans.at")  # 'any plans for tonight?' asks of tonight only
    if act.aspect is Aspect.PAST and act.window.start > now:
        return replace(act, aspect=Aspect.PLANS, label="plans.at")
    return act


def _about_person(act: Act, state: DialogueState) -> Act:
    """'What is he up to?': the last person the conversation named."""
    for s in reversed(state.said):
        if s.act.person:
            return replace(
                act,
                aspect=Aspect.PERSON,
                person=s.act.person,
                intent="",
                event="",
                label="person.about" if act.label.startswith("follow") else act.label,
            )
    return act


# aspects whose words are about oneself or a named thing: a nearby intent does not take them
_OF_ONESELF = frozenset({Aspect.EVENT, Aspect.PERSON, Aspect.PLACE, Aspect.HOME, Aspect.WORK,
                         Aspect.ROUTINE, Aspect.FAMILY, Aspect.IDENTITY})  # fmt: skip
_CHOICE = re.compile(r"\w(?:,\s*|\s)or\s+[^?]*\?\s*$", re.I)
# 'Do you know when it is?' asks when; 'Is anyone in when you get back?' asks yes or no
_EMBEDDED_WH = re.compile(r"\b(?:know|tell|remember|sure|recall|say|guess|idea|heard|hear|"
                          r"find out|wonder)\b[^?]*?\b(who|when|where|what time)\b", re.I)


def _wh_of(act: Act, text: str) -> Wh:
    """The answer wanted: the question's own wh-word first ('When do you start work?' asks
    when, of work), then a yes/no form ('Were you at the party?'; 'Do you know when it
    is?' still asks when), then what the label usually wants."""
    if not act.asks:
        return act.wh
    said = _wh_by_form(text)
    if said in _EXPLICIT_WH:
        return said
    if _CHOICE.search(text):
        return Wh.WHAT  # 'an early riser or a night owl?' wants one of the two, not a yes
    core = main_clause(text)
    embedded = _EMBEDDED_WH.search(core)
    if embedded:  # 'Can you tell me where Hobbs Cafe is?' asks where
        return Wh.WHEN if embedded.group(1).lower() == "what time" else _WH_WORDS[
            embedded.group(1).lower()]  # fmt: skip
    if _YESNO_START.match(core):
        return Wh.YESNO
    if act.wh is Wh.YESNO:  # a label that is usually asked yes or no, asked otherwise
        return said if said is not Wh.YESNO else Wh.WHAT
    return act.wh


def _kind_by_form(text: str) -> ActKind:
    return ActKind.QUESTION if text.rstrip().endswith("?") else ActKind.STATEMENT


_WH_WORDS = {"who": Wh.WHO, "whom": Wh.WHO, "when": Wh.WHEN, "where": Wh.WHERE, "why": Wh.WHY,
             "how": Wh.HOW, "what": Wh.WHAT, "which": Wh.WHAT}  # fmt: skip


_EXPLICIT_WH = frozenset({Wh.WHO, Wh.WHEN, Wh.WHERE, Wh.WHY})
_FOLLOW_BY_WH = {Wh.WHO: "follow.who", Wh.WHEN: "follow.when", Wh.WHERE: "follow.where",
                 Wh.WHY: "follow.why", Wh.YESNO: "follow.going"}  # fmt: skip


_WHEN_PHRASE = re.compile(r"\b(?:what time|what day|how soon|how long|how much longer|"
                          r"how early|how late|till when|until when|what hour)\b", re.I)


def _wh_by_form(text: str) -> Wh:
    """The answer a question's form wants: its wh-word ('when'll' is 'when'), or, after an
    opening clause ('When you get home, is anyone there?'), the main clause's."""
    if _WHEN_PHRASE.search(text):
        return Wh.WHEN
    text = joined_off(text)  # 'And when do you knock off?' asks when
    core = main_clause(text)
    if core != text:
        return _wh_by_form(core)
    first = _CONTRACTED.sub("", next(iter(words(text)), ""))
    if first in _WH_WORDS:
        return _WH_WORDS[first]
    if text.rstrip().endswith("?"):
        return Wh.YESNO
    later = next((c for c in _CLAUSE_BREAK.split(text)[1:]
                  if _opens_as_question(c, _CLAUSE_STARTS)), "")
    return _wh_by_form(later) if later else Wh.NONE  # 'Hobbs Cafe, when do u usually go'



def main_clause(text: str) -> str:
    """A question without its opening clause ('is anyone there?' of 'When you get home,
    is anyone there?'), or the question as it is."""
    main = _CLAUSE.match(text)
    first = next(iter(words(text)), "")
    return main.group(1) if main and first in _CLAUSE_OPENERS else text


_CONTRACTED = re.compile(r"'(?:ll|s|d|re|ve)$")
_CLAUSE = re.compile(r"^[^,?]{3,},\s*([^,]+\?)\s*$")  # 'When you get home, is anyone there?'
_CLAUSE_OPENERS = frozenset({"when", "if", "after", "before", "once", "whenever", "while"})


@cache
def sentence_embedder() -> Embedder | None:
    """The whole sentence model (`game/brains/sentence.py`) when its weights ship with the
    game; None leaves the static embedder to read every line."""
    try:
        from game.brains.sentence import SentenceEmbedder

        embedder = SentenceEmbedder()
        embedder.embed(["hello"])
        return embedder
    except Exception:  # noqa: BLE001 - a missing or damaged asset: the static model reads
        return None


@cache
def dialogue_embedder() -> Embedder:
    """The local sentence embedder understanding uses: the distilled MiniLM when its asset
    ships with the game, else the hashed one (which knows words, not meanings)."""
    try:
        from game.brains.static_embed import StaticEmbedder

        embedder = StaticEmbedder()
        embedder.embed(["hello"])
        return embedder
    except Exception:  # noqa: BLE001 - a missing asset leaves the hashed embedder
        from game.brains.embed import HashEmbedder

        return HashEmbedder()
