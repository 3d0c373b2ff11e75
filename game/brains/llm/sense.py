"""Checks of meaning for a model's answers: right-shaped nonsense, found from typed facts.

A grammar-bound server always answers in the asked shape, and a small model fills the
shape with nonsense that reads like an answer: an interview answer that repeats the
question, a plan activity that is a clock time ("12:00") or names no doing ("lunch"), an
object state no object can be in ("socialism"), a plan that puts the resident to bed
right after waking, a summary that gives the party another host, place or time than the
resident was told, a plan block whose activity names another clock time than the block's
own ("opening the cafe at 8 am" from 06:00), a meal or part of the day out of its hours
("lunch" at 09:00) or a meal twice, a block at an event when the event is not on, an
action at one kind of object that names another one on offer ("setting up tables" at a
bed). Each check here compares the answer with what the question's own fields say (the
resident's wake and sleep times, the block's start, the object's kind and its
vocabulary, the spots offered and their kinds, the events in the resident's memories)
and returns what is wrong in words for the re-ask, or None. Words are read through small
vocabularies kept as data (activity_words.json, game/world/object_states.json), never a
pattern per phrasing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache
from pathlib import Path

from game.brains.dialogue.understand import content_stems, is_yes_no, stem
from game.brains.event_words import EVENT_NOUNS, all_windows, find_date, start_readings
from game.core.records import Event, FactKind, MemoryRecord, PlanItem, Source
from game.core.text import with_article
from game.world.scenario import Resident
from game.world.states import Vocabulary

WORDS = Path(__file__).with_name("activity_words.json")
WAKE_SLACK = timedelta(minutes=90)  # a 'waking up' block starts at most this after waking
SLEEP_SLACK = timedelta(hours=2)  # a 'going to bed' block starts at most this before bed
TIME_SLACK = 30  # minutes a claimed start may differ from the known one
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# A clock time in any usual spelling: '12:00', '8 am', '8.30pm', 'noon'.
_CLOCK = re.compile(
    r"\b\d{1,2}(?:[:.h]\d{2})?\s*(?:a\.?m\.?|p\.?m\.?|o'clock|h)?(?![\w:])|\b(?:noon|midnight)\b",
    re.I,
)
_CONNECTORS = frozenset(
    ["from", "to", "until", "till", "and", "or", "at", "between", "around", "about"]
)


# -- the vocabularies ----------------------------------------------------------------------


@dataclass(frozen=True)
class ActivityWords:
    verbs: frozenset[str]  # every form: base, -s, -ed, -ing, irregular
    not_verbs: frozenset[str]
    sleep: tuple[tuple[str, ...], ...]
    wake: tuple[tuple[str, ...], ...]
    naps: frozenset[str]
    attend: frozenset[str]  # just before an event's name: the block is at the event
    prepare: frozenset[str]  # anywhere in the block: it is about the event, on any day
    times_of_day: dict[str, tuple[int, int]]  # a meal or a part of the day: its hours
    ahead: frozenset[str]  # a block with one speaks of a meal or a time, or gets ready


def _forms(base: str) -> set[str]:
    """A verb's regular forms: 'study' -> studies, studied, studying; 'bake' -> baking."""
    out = {base, base + "s", base + "ed", base + "ing", base + "es"}
    if base.endswith("e"):
        out |= {base + "d", base[:-1] + "ing"}
    if base.endswith("y") and len(base) > 2 and base[-2] not in "aeiou":
        out |= {base[:-1] + "ies", base[:-1] + "ied"}
    short = len(base) >= 3 and base[-2] in "aeiou" and base[-3] not in "aeiou"
    if short and base[-1] not in "aeiouywx":
        out |= {base + base[-1] + "ing", base + base[-1] + "ed"}  # chat -> chatting
    return out


@cache
def activity_words(path: Path = WORDS) -> ActivityWords:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        verbs = {f for v in raw["verbs"] for f in _forms(v)} | set(raw["irregular"])

        def phrases(key: str) -> tuple[tuple[str, ...], ...]:
            return tuple(tuple(p.split()) for p in raw[key])

        prepare = {f for v in raw["prepare"] for f in _forms(v)}
        hours = {k: (_hhmm(a), _hhmm(b)) for k, (a, b) in raw["times_of_day"].items()}
        ahead = {f for v in raw["ahead"] for f in _forms(v)}
        return ActivityWords(
            frozenset(verbs), frozenset(raw["not_verbs"]), phrases("sleep"), phrases("wake"),
            frozenset(raw["naps"]), frozenset(raw["attend"]), frozenset(prepare), hours,
            frozenset(ahead),
        )  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path.name}: unreadable activity words ({e})") from e


def _hhmm(text: str) -> int:
    hour, minute = text.split(":")
    return int(hour) * 60 + int(minute)


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


def is_verb(word: str, vocab: ActivityWords | None = None) -> bool:
    """A doing word: a known verb in any form, or an -ing word that is not a thing's name."""
    vocab = vocab or activity_words()
    if word in vocab.not_verbs:
        return False
    return word in vocab.verbs or (len(word) >= 5 and word.endswith("ing"))


def says(text: str, phrases: Iterable[tuple[str, ...]]) -> bool:
    """Whether the text's words hold one of the phrases, word for word."""
    seq = words(text)
    for phrase in phrases:
        n = len(phrase)
        if any(tuple(seq[i : i + n]) == phrase for i in range(len(seq) - n + 1)):
            return True
    return False


# -- activities ----------------------------------------------------------------------------


def without_times(text: str) -> str:
    return _CLOCK.sub(" ", text)


def activity_problem(text: str, key: str) -> str | None:
    """An activity must say what is done: a clock time or a bare noun ('lunch', 'Hobbs
    Cafe') is not an activity, whatever its shape."""
    rest = [w for w in words(without_times(text)) if w not in _CONNECTORS]
    if not rest:
        return f"{key!r} is a clock time, not something done; the time goes in its own field"
    if not any(is_verb(w) for w in rest):
        return f"{key!r} names no doing; start it with a verb that says what is done"
    return None


def plan_problem(
    items: Sequence[PlanItem], wake: datetime, sleep: datetime, who: str
) -> str | None:
    """A day plan must agree with the resident's own waking and sleeping times: no going
    to bed right after waking, no getting up in the afternoon (a nap is not bedtime)."""
    vocab = activity_words()
    day = f"{who} wakes at {wake:%H:%M} and goes to bed at {sleep:%H:%M}"
    for item in items:
        text = item.description
        napping = bool(set(words(text)) & vocab.naps)
        if says(text, vocab.sleep) and not napping and item.start < sleep - SLEEP_SLACK:
            return f"{day}, so a block about going to sleep cannot start at {item.start:%H:%M}"
        if says(text, vocab.wake) and item.start > wake + WAKE_SLACK:
            return f"{day}, so a block about getting up cannot start at {item.start:%H:%M}"
    return None


def block_time_problem(items: Sequence[PlanItem]) -> str | None:
    """A block's activity happens at the block's start. One whose activity names another
    time of day says two times for one doing ('opening the cafe at 8 am' in a block from
    06:00, 'goes to bed at 23:00' from 22:00), and the planner keeps only the block's, so
    the resident would open the cafe two hours early. A bare 'at 7' may be either half
    of the day; either may agree."""
    for item in items:
        start = _minute(item.start)
        for readings in start_readings(item.description):
            if all(_apart(m, start) > TIME_SLACK for m in readings):
                said = min(readings, key=lambda m: _apart(m, start))
                return (
                    f"the block that starts at {item.start:%H:%M} says its activity happens "
                    f"at {said // 60:02d}:{said % 60:02d}; an activity happens at its "
                    "block's start, so give that time its own block and leave times out "
                    "of 'activity'"
                )
    return None


def day_part_problem(items: Sequence[PlanItem], wake: datetime | None = None) -> str | None:
    """A block that names a meal or a part of the day must be when it can be, and a meal
    is had once a day. Qwen 1.5B planned Klaus 'meets Maria Lopez in the college dorm for
    lunch' at 09:00, 'writes at Hobbs Cafe in the afternoon' at 10:00, and lunch four
    times. The hours are kept as data (activity_words.json), generous at both ends: only
    a block that does not overlap them at all is refused, and a block that gets ready for
    the meal or speaks of it ('buying groceries for dinner', 'planning tomorrow
    morning's class') is not read."""
    vocab = activity_words()
    hours = vocab.times_of_day
    had: dict[str, PlanItem] = {}
    woke = _minute(wake) if wake is not None else _minute(items[0].start) if items else 0
    late = max(0, woke - LATE_RISER)
    for item in items:
        if set(words(item.description)) & vocab.ahead:
            continue  # 'buying groceries for dinner', 'telling Maria about tonight'
        start = _minute(item.start)
        span = (start, start + max(1, item.minutes))
        said = [w if w in hours else w[:-1] for w in words(item.description)]  # 'afternoons'
        for word in dict.fromkeys(w for w in said if w in hours):
            a, b = hours[word]
            if word in _OWN_DAY:  # a late riser's meals and morning come later
                a, b = (a + late) % 1440, (b + late) % 1440
            if not _meets_hours(span, (a, b)):
                return (
                    f"the block that starts at {item.start:%H:%M} names {word}, which is "
                    f"between {a // 60:02d}:{a % 60:02d} and {b // 60:02d}:{b % 60:02d}; "
                    "give each block what is done at its own time"
                )
            meal = word in ("breakfast", "brunch", "lunch", "dinner", "supper")
            if meal and word in had:
                return (
                    f"{word} is in the blocks at {had[word].start:%H:%M} and "
                    f"{item.start:%H:%M}; a meal is had once a day, so give the other "
                    "block something else to do"
                )
            if meal:
                had[word] = item
    return None


# a late riser's meals and morning follow their own day: their hours move by how much
# later than this they get up (Maria, up at 10:00, breakfasts at noon)
_OWN_DAY = frozenset({"breakfast", "brunch", "morning", "lunch", "dinner", "supper"})
LATE_RISER = 8 * 60


def _meets_hours(span: tuple[int, int], hours: tuple[int, int]) -> bool:
    """Whether the minutes after midnight `span` overlap `hours`, which may run past
    midnight ('night', 19:00 to 04:00); a span may too (a block until 01:00)."""
    a, b = hours
    windows = [(a, b)] if a < b else [(a, 24 * 60), (0, b)]
    day = 24 * 60
    return any(
        span[0] < w1 + shift and w0 + shift < span[1] for w0, w1 in windows for shift in (0, day)
    )


def _apart(a: int, b: int) -> int:
    """Minutes between two times of day, across midnight too."""
    d = abs(a - b) % (24 * 60)
    return min(d, 24 * 60 - d)


def plan_event_problem(
    items: Sequence[PlanItem], memories: Iterable[MemoryRecord], who: str
) -> str | None:
    """A plan block that names an event must agree with the event's typed fields: a day
    it names is the event's day, and a block at the event (attending, hosting: an 'at
    the party', 'hosting the party') is when the event is on. Qwen 1.5B planned Isabella
    'visiting her regulars at the party' at 07:00 on February 13, for a party on the 14th
    at 17:00. A block about the event ('shopping for the party', 'inviting friends to the
    party') may be on any day and at any place, so neither its time nor its place is read
    against the event's."""
    events = known_events(memories)
    if not events:
        return None
    for item in items:
        text = item.description
        group = _about(text, events)
        if not group:
            continue
        first, what = group[0].event, group[0].what
        day, _ = find_date(text, first.start.year, item.start.date())
        if day is not None and all(day != k.event.start.date() for k in group):
            return (
                f"the {what} is on {first.start:%B %d}, not on {day:%B %d}, as far as {who} knows"
            )
        if _at_event(text, group) and not any(_meets(item, k.event) for k in group):
            return (
                f"the {what} is on {first.start:%B %d} from {first.start:%H:%M} to "
                f"{first.end:%H:%M}, so the block on {item.start:%B %d} at "
                f"{item.start:%H:%M} cannot be at it; a block at an event starts when the "
                "event does, and any other block can only get ready for it"
            )
    return None


_DETERMINERS = frozenset(["the", "a", "an", "her", "his", "their", "my", "our", "this"])


def _at_event(text: str, group: Sequence[Known]) -> bool:
    """Whether the block is at the event: an attending word just before the event's name
    (its own words, a determiner or a possessive skipped), and no word of getting ready."""
    vocab = activity_words()
    seq = words(text)
    if set(seq) & vocab.prepare:
        return False
    keys = {s for k in group for s in k.key}
    named = {w for k in group for w in words(k.what)} | _DETERMINERS
    for i, w in enumerate(seq):
        if stem(w) not in keys:
            continue
        j = i - 1
        while j >= 0 and (seq[j] in named or seq[j].endswith("'s")):
            j -= 1
        if j >= 0 and seq[j] in vocab.attend:
            return True
    return False


def _meets(item: PlanItem, event: Event) -> bool:
    """Whether the block overlaps the event, or ends at most TIME_SLACK before it (one
    sets off for a party a little early)."""
    end = item.start + timedelta(minutes=item.minutes)
    slack = timedelta(minutes=TIME_SLACK)
    return item.start < event.end and end > event.start - slack


# -- where an action is done ---------------------------------------------------------------


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _thing_stems(text: str) -> set[str]:
    """A text's words as stems of their singular ('tables' and 'table' alike)."""
    return {stem(_singular(w)) for w in words(text) if len(w) > 2}


def spot_problem(action: str, chosen: str, kinds: Mapping[str, str]) -> str | None:
    """An action that names a kind of object one of the offered spots has is done at that
    kind: 'setting up tables' at a bed, with a table on offer, is at the wrong spot. The
    spots' kinds are typed (the map's role, or the object's name read by the object-state
    table); the action's words are matched only against the kinds on offer, never a
    list of phrasings. An action that names the chosen spot's own kind, or a word of its
    object's name, is at it ('wiping the counter next to the tables' at the counter)."""
    said = _thing_stems(action)
    mine = kinds.get(chosen, "")
    thing = chosen.split(":")[-1]
    if not chosen or _thing_stems(f"{thing} {mine}") & said:
        return None
    here = with_article((mine or thing).strip())
    for label, kind in kinds.items():
        stems = _thing_stems(kind)
        if kind and kind != mine and stems and stems <= said:
            there = with_article(kind)
            return (
                f"the action is done at {there}, not at {here}; choose a spot with {there} "
                f"(such as {label!r}) or an action done at {here}"
            )
    return None


# -- echoes --------------------------------------------------------------------------------


# Words an answer adds that content_stems leaves out (too short, or counted apart): a
# number or a clock time says when or how many, a 'no' or a 'not' answers a yes/no
# question. Everything else an answer adds is a content word.
_NUMBERS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty half "
    "quarter noon midnight am pm"
)
_NUMBER_WORDS = frozenset(_NUMBERS.split())
_YES_NO = "yes yeah yep no nope not never none nobody nothing"
_POLARITY = frozenset(_YES_NO.split())


def added(answer: str, question: str) -> set[str]:
    """What the answer says beyond the question: its content words (names included, as
    stems) that the question lacks, and any number, clock time, 'yes', 'no' or 'not' the
    question does not say. 'I usually get up at 4 AM' adds '4' and 'am' to 'What time do
    you usually get up?'."""
    asked_words = set(words(question))
    out = content_stems(answer) - content_stems(question)
    for w in words(answer):
        if w in asked_words:
            continue
        number = any(c.isdigit() for c in w) or w in _NUMBER_WORDS
        if number or w in _POLARITY or w.endswith("n't"):
            out.add(w)
    return out


def echoes(answer: str, question: str) -> bool:
    """Whether the answer only repeats the question: it adds no content word, number,
    name or yes/no of its own (see `added`), and carries at least half of the question's
    content words. Sharing the question's words is no echo when the answer adds the fact
    ('I usually get up at 4 AM'), nor when it states what a yes/no question asks ('Do you
    like painting?' 'I like painting.'): that is a yes."""
    said, asked = content_stems(answer), content_stems(question)
    if not said or not asked or added(answer, question):
        return False
    if is_yes_no(question) and not _asks(answer):
        return False
    return len(said & asked) >= 0.5 * len(asked)


def _asks(text: str) -> bool:
    """Whether the text is itself a question, by its mark or by its form."""
    text = text.strip()
    return text.endswith("?") or is_yes_no(text.rstrip(".!") + "?")


def copies(answer: str, example: str) -> bool:
    """Whether the answer is the prompt's example, word for word."""
    return bool(example.strip()) and words(answer) == words(example)


# -- whose facts ---------------------------------------------------------------------------

_JOB_ENDS = frozenset(["at", "and", "in", "for", "of", "with", "who", "from"])


def _job_words(occupation: str) -> tuple[str, ...]:
    """An occupation's own words, before where or for whom: 'physics student at Oak Hill
    College and game streamer' -> ('physics', 'student')."""
    out: list[str] = []
    for w in words(occupation):
        if w in _JOB_ENDS:
            break
        if w not in ("a", "an", "the"):
            out.append(w)
    return tuple(out)


def _predicated(seq: Sequence[str], job: tuple[str, ...]) -> bool:
    """Whether the words say someone *is* the job: 'is a physics student', 'works as the
    owner', not 'chats with the owner'."""
    n = len(job)
    for i in range(len(seq) - n + 1):
        if tuple(seq[i : i + n]) != job:
            continue
        before = seq[max(0, i - 2) : i]
        if before[-1:] and before[-1] in ("a", "an", "the"):
            before = before[:-1]
        if before[-1:] and before[-1] in ("is", "was", "as", "she's", "he's"):
            return True
    return False


def borrowed_occupation(text: str, p: Resident) -> str | None:
    """A summary about the resident that gives it the occupation of someone it knows: a
    sentence about the resident (by name or as 'she', 'he', 'they') says it is the
    acquaintance's occupation, the acquaintance is not named, and the resident's own
    occupation is another ('Isabella Rodriguez is a physics student at Oak Hill College',
    Maria Lopez's seed memory with Isabella's name in it). From the persona's typed
    acquaintances, not from the words of one example."""
    own = set(words(p.occupation))
    me = set(words(p.name)) | {"she", "he", "they", "she's", "he's"}
    for sentence in _sentences(text):
        seq = words(sentence)
        if not me & set(seq):
            continue
        for k in p.acquainted:
            job = _job_words(k.occupation)
            if not job or set(job) <= own or set(words(k.name)) & set(seq):
                continue
            if _predicated(seq, job):
                return (
                    f"{p.name} is {with_article(p.occupation)}; {' '.join(job)} is what "
                    f"{k.name} is, so say it of {k.name} by name or leave it out"
                )
    return None


# -- object states -------------------------------------------------------------------------


def state_problem(state: str, kind: str, action: str, name: str, vocab: Vocabulary) -> str | None:
    """A state must be one the object's kind can be in (the vocabulary), or a new one that
    passes this check: it is a participle ('boiling pasta', 'being polished') tied to the
    object, sharing a word with the kind's own states (not the ones every object has),
    with the object's own name, or with an action done to or at it (one that names it:
    'polishing the desk'). 'socialism' names no state; 'dancing' for a stove while
    someone cooks is tied to nothing, and so is a bed 'being dressed' while someone gets
    ready, or a sofa 'opening door' while someone opens the door: the action's words make
    a state only of what it is done to."""
    if vocab.knows(state, kind):
        return None
    parts = words(state)
    head = parts[1] if parts[:1] == ["being"] and len(parts) > 1 else (parts[0] if parts else "")
    participle = len(head) >= 4 and (head.endswith("ing") or head.endswith("ed"))
    thing = name.split(":")[-1].strip()
    own = content_stems(f"{thing} {kind}")
    # 'being' is no tie: a bed's own 'being slept in' would ground 'being dressed'
    # the kind's own states, not those every object has ('empty' tied 'emptying coffee')
    ties = content_stems(" ".join(vocab.kinds.get(kind, ())) + " " + thing)
    if content_stems(action) & own:  # the action is done to or at this object
        ties |= content_stems(action)
    said = {stem(w) for w in parts if len(w) > 2 and w != "being"}
    if participle and said & (ties - {"being"}):
        return None
    listed = ", ".join(vocab.states(kind)[:8])
    return f"'state' must be something a {thing or 'object'} can be, such as: {listed}"


# -- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Known:
    """One event as a memory's fields give it, and whom they say hosts it."""

    key: frozenset[str]  # the event's nouns and intent id, as stems
    what: str
    event: Event
    host: str


def _event_stems(what: str, intent: str) -> frozenset[str]:
    nouns = {stem(n) for n in EVENT_NOUNS if " " not in n}
    found = {stem(w) for w in words(what)} & nouns
    return frozenset(found | ({stem(intent)} if intent else set()))


def known_events(memories: Iterable[MemoryRecord]) -> list[Known]:
    """Every event the memories name by field, with its host: the event's own, or the
    subject of a fact tied to an intent (the holder's seed, a claim passed on about it)."""
    out = []
    for m in memories:
        f, e = m.fact, m.fact.event
        if e is None:
            continue
        host = e.host
        if not host and f.intent and f.kind in (FactKind.STATEMENT, FactKind.CLAIM):
            host = f.subject if f.first_source not in (Source.VISITOR, Source.NOTICE) else ""
        key = _event_stems(e.what, f.intent)
        if key:
            out.append(Known(key, e.what or f.intent, e, host))
    return out


_TITLE = r"(?:(?:Mr|Mrs|Ms|Miss|Dr|Professor)\.? )?"
_NAME = _TITLE + r"[A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?"
_HOSTED_BY = re.compile(rf"\b(?:hosted|thrown|organi[sz]ed|held|run|put on) by ({_NAME})")
_HOSTING = re.compile(
    rf"(?<![\w'])({_NAME}|I|I'm|I am) (?:is |are |was |will be |'s |am )?"
    r"(?:hosting|holding|throwing|organi[sz]ing|putting on|giving)\b"
)
_TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "professor"})


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;])\s+", text) if s.strip()]


def _about(sentence: str, events: Sequence[Known]) -> list[Known]:
    stems = {stem(w) for w in words(sentence)}
    return [k for k in events if k.key & stems]


def _hosts_named(sentence: str, speaker: str, what: str) -> list[str]:
    """Whom the sentence names as an event's host ('hosted by X', 'X is throwing')."""
    found = [m.group(1) for m in _HOSTED_BY.finditer(sentence)]
    for m in _HOSTING.finditer(sentence):
        name = m.group(1)
        if name in ("I", "I'm", "I am"):
            name = speaker
        found.append(name)
    skip = {w for w in words(what)}
    return [n for n in found if n and not ({w for w in words(n)} <= skip)]


def _same_person(named: str, host: str) -> bool:
    mine = {w.removesuffix("'s") for w in words(named) if w not in _TITLES}
    return bool(mine & set(words(host)))


def event_problems(
    text: str,
    memories: Iterable[MemoryRecord],
    places: Iterable[str],
    who: str,
    speaker: str = "",
    today: date | None = None,
) -> str | None:
    """What the text says of an event that everything the memories hold contradicts: its
    host, its place, its day or its time (or a time that ends before it starts). A claim
    any memory supports (a visitor's included) is not a contradiction."""
    events = known_events(memories)
    if not events:
        return None
    for sentence in _sentences(text):
        group = _about(sentence, events)
        if not group:
            continue
        problem = (
            _host_problem(sentence, group, speaker)
            or _place_problem(sentence, group, places)
            or _time_problem(sentence, group, today)
        )
        if problem:
            return f"{problem}, as far as {who} knows; say only what {who}'s memories hold"
    return None


def _host_problem(sentence: str, group: Sequence[Known], speaker: str) -> str | None:
    hosts = [k.host for k in group if k.host]
    if not hosts:
        return None
    for named in _hosts_named(sentence, speaker, group[0].what):
        if not any(_same_person(named, h) for h in hosts):
            return f"the {group[0].what} is hosted by {hosts[0]}, not by someone else"
    return None


def _place_problem(sentence: str, group: Sequence[Known], places: Iterable[str]) -> str | None:
    low = sentence.lower()
    nouns = "|".join(sorted({re.escape(w) for k in group for w in words(k.what)}, key=len))
    near = rf"\b(?:{nouns})\b[^.;,]{{0,40}}?\b(?:at|in) (?:the )?"
    candidates = {*places, *(k.event.place for k in group)}
    at = [p for p in candidates if p and re.search(near + re.escape(p.lower()), low)]
    right = {k.event.place for k in group}
    if at and not right & set(at):
        return f"the {group[0].what} is at {sorted(right)[0]}, not at another place"
    return None


def _time_problem(sentence: str, group: Sequence[Known], today: date | None) -> str | None:
    """Only the words after the event is first named are its day and time: 'runs the
    cafe from 8 am to 8 pm and plans a party' gives the cafe's hours, not the party's."""
    first = group[0].event
    after = sentence[_first_mention(sentence, group) :]
    day, rest = find_date(after, first.start.year, today)
    if day is not None and all(day != k.event.start.date() for k in group):
        return f"the {group[0].what} is on {first.start:%B %d}, not on another day"
    known = [m for k in group for m in (_minute(k.event.start), _minute(k.event.end))]
    for _, start, end in all_windows(rest):
        if end < start and start - end < 12 * 60:
            return f"the {group[0].what} cannot end before it starts"
        if all(abs(start - m) > TIME_SLACK for m in known):
            return (
                f"the {group[0].what} starts at {first.start:%H:%M} and ends at "
                f"{first.end:%H:%M}, not at another time"
            )
    return None


def _minute(when: datetime) -> int:
    return when.hour * 60 + when.minute


def _first_mention(sentence: str, group: Sequence[Known]) -> int:
    stems = {s for k in group for s in k.key}
    for m in re.finditer(r"[A-Za-z']+", sentence):
        if stem(m.group().lower()) in stems:
            return m.start()
    return 0
