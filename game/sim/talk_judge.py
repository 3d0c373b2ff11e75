"""A judge of how residents talk, kept apart from the code that makes them answer.

The conversation benchmark (benchmarks/conversation.py) asks residents questions and
judges each answer against ground truth it reads from the persona, the plan, the current
action and the memories' typed fields. The judge here only reads text: it never imports
the brains' dialogue tables, so an improvement to how residents answer shows up as a
better verdict and cannot move the yardstick with it.

Four verdicts, in the order they are decided:

- `WRONG`: names something the truth rules out (another workplace, a housemate who lives
  elsewhere), gives the opposite yes/no, gives a clock time where the truth is another
  (up 'around 6:00 AM' for one who wakes at 4), speaks of an ended event as still to
  come, or, from a resident who does not know a fact, invents its specifics;
- `CORRECT_SPECIFIC`: names every required part (any one term of each group), does not
  deny knowing, and speaks of an ended event in the past tense;
- `NON_ANSWER`: empty, a denial with nothing required in it, or nothing on the topic;
- `VAGUE`: the rest: on the topic, or part of what was asked, but not all of it.

It also holds the pure text rules the benchmark applies to residents' own conversations:
whether a reply answers a question (`answers`) and a sentence's shape (`shape`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum


class Verdict(Enum):
    CORRECT_SPECIFIC = "correct_specific"
    VAGUE = "vague"
    NON_ANSWER = "non_answer"
    WRONG = "wrong"


@dataclass(frozen=True)
class Expectation:
    """What the truth says a correct and specific answer names, and what rules it out.

    `need`: every group must be named, by any one of its terms. `wrong`: terms the truth
    rules out. `yes`: the true answer to a yes/no question (None: not one). `past`: the
    thing asked about is over, so it must be spoken of in the past tense and never as
    upcoming. `topic`: words that show the answer is at least about the question.
    `unknown`: the resident does not know the fact: an honest denial is correct, and
    naming the need terms is inventing them.
    """

    need: tuple[tuple[str, ...], ...] = ()
    wrong: tuple[str, ...] = ()
    yes: bool | None = None
    past: bool = False
    topic: tuple[str, ...] = ()
    unknown: bool = False


_STOP_TEXT = """a an the and or but of to in on at for with from by as is are was were be been being
    it its this that these those i me my mine you your he him his she her they them their we
    our us do does did have has had will would can could should shall may might must not no
    yes so if then than there here what who whom whose which when where why how about into
    over under up down out off just also very really too some any all each every much many
    more most other such own same only well still even again around near just am i'm i've
    i'll i'd you're it's that's there's what's don't doesn't didn't won't can't isn't aren't
    oh hi hello hey say says said tell told know thing things lot bit get got go going gone
    make made day days today tonight tomorrow yesterday morning afternoon evening night time
    like one ones way back now lately recently good great nice sure thanks thank see"""
STOPWORDS = frozenset(_STOP_TEXT.split())

_WORD = re.compile(r"[a-z][a-z'-]*[a-z]|[a-z]")
_DENIAL = re.compile(
    r"\b(don'?t know|do not know|no idea|not sure|haven'?t heard|have not heard|never heard|"
    r"can'?t say|cannot say|couldn'?t tell|can'?t tell|not that i know|don'?t remember|"
    r"can'?t remember|who that is|never met|haven'?t met|no clue|nothing (?:much|special))\b"
)
_PLAIN = re.compile(
    r"^\W*(?:(yes|yeah|yep|yup|sure|of course|certainly|definitely|absolutely|indeed)|"
    r"(no|nope|not really|not at all))\b"
)
_YES = re.compile(
    r"^\W*(i do|i am|i'm going|i will|i'll be there|i did|i went|i have|i've heard|i'd love)\b"
)
_NO = re.compile(
    r"^\W*(never|i don'?t|i'm not|i am not|i won'?t|i didn'?t|i can'?t make|i haven'?t|"
    r"nothing)\b"
)
_FUTURE = re.compile(
    r"\b(will|'ll|going to|gonna|upcoming|coming up|is hosting|are hosting|is having|"
    r"is throwing|tonight|tomorrow|later today|looking forward|can'?t wait|next week|"
    r"is planning|are planning|is on\b|starts at|from \d+ ?[ap]m)\b"
)
_PAST = re.compile(
    r"\b(was|were|went|had|hosted|held|threw|did|came|enjoyed|ended|happened|yesterday|"
    r"last night|ago|over now|attended|danced|met|saw|loved|missed|took place|"
    r"have been|has been|went to)\b"
)
_SENTENCE = re.compile(r"[^.!?;]+[.!?;]*")


def norm(text: str) -> str:
    """Lower case, curly quotes straightened: what every matcher reads."""
    return text.replace("\u2019", "'").replace("\u2018", "'").lower()


def names(answer: str, term: str) -> bool:
    """The answer names `term` as whole words ('Sam' is not in 'same'); case-free."""
    t = norm(term).strip()
    if not t:
        return False
    return re.search(rf"(?<![\w]){re.escape(t)}(?![\w])", norm(answer)) is not None


def names_any(answer: str, terms: Iterable[str]) -> bool:
    return any(names(answer, t) for t in terms)


def words(text: str) -> list[str]:
    """Content words: lower case, possessives cut, stopwords and short words dropped."""
    out = []
    for w in _WORD.findall(norm(text)):
        w = w.removesuffix("'s").strip("'-")
        if len(w) >= 3 and w not in STOPWORDS:
            out.append(w)
    return out


def denies(answer: str) -> bool:
    """The answer says the speaker does not know (or has nothing to say)."""
    return _DENIAL.search(norm(answer)) is not None


def polarity(answer: str) -> bool | None:
    """Yes (True), no (False) or neither, read from how the first sentence begins; a
    denial of knowing ('I don't know') is neither, unless it opens with a plain no."""
    first = (sentences(norm(answer)) or [""])[0]
    plain = _PLAIN.search(first)
    if plain:
        return plain.group(1) is not None
    if denies(first):
        return None
    if _NO.search(first):
        return False
    return True if _YES.search(first) else None


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip(" .!?;")]


def speaks_as_upcoming(answer: str, terms: Sequence[str]) -> bool:
    """A sentence that names one of `terms` says it is still to come, with no past tense."""
    for s in sentences(norm(answer)):
        if names_any(s, terms) and _FUTURE.search(s) and not _PAST.search(s):
            return True
    return False


def speaks_in_past(answer: str) -> bool:
    return _PAST.search(norm(answer)) is not None


def _named_groups(answer: str, need: Sequence[Sequence[str]]) -> int:
    return sum(1 for group in need if names_any(answer, group))


def _partial(answer: str, exp: Expectation) -> bool:
    """On the topic, or one content word of a required term: more than nothing."""
    said = set(words(answer))
    pool = {w for group in exp.need for t in group for w in words(t)}
    return bool(said & (pool | {w for t in exp.topic for w in words(t)}))


def _all_terms(exp: Expectation) -> list[str]:
    return [t for group in exp.need for t in group]


# -- clock times ---------------------------------------------------------------------------

CLOCK_SLACK = 30  # minutes a said time may be from the true one and not contradict it
_HOURS_TEXT = "one two three four five six seven eight nine ten eleven twelve"
_HOUR_WORDS = _HOURS_TEXT.split()
_HOUR = r"\d{1,2}|" + "|".join(_HOUR_WORDS)
_MERIDIEM = r"a\.?m\.?|p\.?m\.?|o'clock"
# '4 am', '4:30pm', '16:00', 'four o'clock', and a bare hour ranged to one ('5 to 7 pm')
_CLOCK_TIME = re.compile(
    rf"(?<![\w:])(?P<hour>{_HOUR})(?::(?P<min>\d{{2}}))?(?:\s*(?P<half>{_MERIDIEM})|"
    rf"(?=\s*(?:-|to|until|till)\s*(?:{_HOUR})(?::\d{{2}})?\s*(?P<ranged>{_MERIDIEM})))?"
    r"(?![\w:])|\b(?P<named>noon|midnight)\b"
)


def clock_times(text: str) -> list[frozenset[int]]:
    """Each clock time the text says, as the minutes of the day it may mean: '4 am' one,
    '6:00' or 'six o'clock' two (morning or evening); a bare hour only when a range gives
    it its half of the day ('from 5 to 7 pm'). Numbers that are not times are left out."""
    out: list[frozenset[int]] = []
    for m in _CLOCK_TIME.finditer(norm(text)):
        if m["named"]:
            out.append(frozenset({720 if m["named"] == "noon" else 0}))
            continue
        half = (m["half"] or m["ranged"] or "").replace(".", "")
        if not (m["min"] or half):
            continue  # '2 kids', 'by 6': not said as a time
        word = m["hour"]
        hour = int(word) if word.isdigit() else _HOUR_WORDS.index(word) + 1
        minute = int(m["min"] or 0)
        if hour > 23 or minute > 59:
            continue
        if half in ("am", "pm"):
            if 1 <= hour <= 12:
                out.append(frozenset({hour % 12 * 60 + minute + (720 if half == "pm" else 0)}))
        elif hour == 0 or hour > 12:
            out.append(frozenset({hour * 60 + minute}))
        else:  # '6:00', 'six o'clock': morning or evening
            out.append(frozenset({hour % 12 * 60 + minute, (hour % 12 + 12) * 60 + minute}))
    return out


def _time_groups(exp: Expectation) -> list[tuple[str, ...]]:
    """The need groups that are clock times: most of their terms say one."""
    return [g for g in exp.need if g and 2 * sum(1 for t in g if clock_times(t)) >= len(g)]


def _meant(group: Sequence[str]) -> set[int]:
    """The minutes a group of spellings of one time means: what all its readings share
    ('4:00 am' and '4:00' mean 04:00, not 16:00); all of them if they share none."""
    readings = [times for t in group for times in clock_times(t)]
    if not readings:
        return set()
    shared = set.intersection(*(set(r) for r in readings))
    return shared or set().union(*readings)


def _near(a: int, b: int) -> bool:
    return min((a - b) % 1440, (b - a) % 1440) <= CLOCK_SLACK


def contradicts_time(answer: str, exp: Expectation) -> bool:
    """The truth is a clock time, the answer names none of its terms, and every clock time
    the answer says is more than CLOCK_SLACK from it."""
    said = clock_times(answer)
    if not said:
        return False
    for group in _time_groups(exp):
        if names_any(answer, group):
            continue
        true = _meant(group)
        if not any(_near(s, t) for times in said for s in times for t in true):
            return True
    return False


def _ruled_out(answer: str, exp: Expectation) -> bool:
    right = _all_terms(exp)
    for term in exp.wrong:
        if names(answer, term) and not any(names(term, r) or names(r, term) for r in right):
            return True
    return False


def judge_unknowing(answer: str, exp: Expectation) -> Verdict:
    """A resident who does not know: saying so is right; naming every specific is made up."""
    if not answer.strip():
        return Verdict.NON_ANSWER
    if exp.need and _named_groups(answer, exp.need) == len(exp.need) and not denies(answer):
        return Verdict.WRONG
    if denies(answer) or polarity(answer) is False:
        return Verdict.CORRECT_SPECIFIC
    return Verdict.VAGUE if _partial(answer, exp) else Verdict.NON_ANSWER


def judge(answer: str, exp: Expectation) -> Verdict:
    """The verdict on one answer (see the module docstring for the order of the rules)."""
    if exp.unknown:
        return judge_unknowing(answer, exp)
    if not answer.strip():
        return Verdict.NON_ANSWER
    said = polarity(answer)
    if _ruled_out(answer, exp) or (exp.yes is not None and said is not None and said != exp.yes):
        return Verdict.WRONG
    if contradicts_time(answer, exp):
        return Verdict.WRONG
    if exp.past and speaks_as_upcoming(answer, _all_terms(exp) + list(exp.topic)):
        return Verdict.WRONG
    named = _named_groups(answer, exp.need)
    # a yes/no question that names what it asks about may be answered by the fact itself
    # ('Do you get up early?' 'Around 8 am.'); one without needs wants the yes or the no
    agrees = exp.yes is None or said == exp.yes or (said is None and bool(exp.need))
    complete = named == len(exp.need) and agrees
    if complete and not denies(answer) and (not exp.past or speaks_in_past(answer)):
        return Verdict.CORRECT_SPECIFIC
    if denies(answer) and named == 0:
        return Verdict.NON_ANSWER
    return (
        Verdict.VAGUE
        if named or said is not None or _partial(answer, exp)
        else (Verdict.NON_ANSWER)
    )


# -- residents' own conversations ----------------------------------------------------------

_YES_NO_Q = re.compile(
    r"^\W*(?:[\w']+,\s*){0,3}(do|does|did|is|are|was|were|have|has|had|can|could|will|would|"
    r"should|shall|may|might|am|any)\b"
)
_TIME = re.compile(
    r"\b(\d{1,2}(:\d\d)? ?(am|pm)|\d{1,2}:\d\d|noon|midnight|morning|afternoon|evening|"
    r"tonight|tomorrow|today|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|week|o'clock|february|later|soon|now)\b"
)
_ANSWERISH = re.compile(
    r"^\W*(?:(?:oh|well|ah|hmm|um|so|now|say|mind you|you know|honestly)\W+)?"
    r"(yes|yeah|yep|no|nope|sure|of course|not really|maybe|perhaps)\b"
)
# a statement with a question tag wants a yes or a no ('You'll come, won't you, Klaus?')
_TAG_Q = re.compile(
    r",\s*(?:won't|will|aren't|are|isn't|is|don't|do|didn't|did|haven't|have|can't|can|"
    r"wouldn't|right)(?: you| it| we| they)?\b[^,?]*(?:,\s*[\w' ]+)?\?\s*$"
)
# a question after one's well-being or how something went, and the answers to it
_HOW_ARE = re.compile(
    r"\bhow(?:'s| is| are| has| have| did| was)\b.*\b(?:been|going|doing|go|things|you|day)\b|"
    r"\b(?:everything|all) (?:all right|alright|ok|okay|well)\b"
)
_WELL = re.compile(
    r"\b(?:not bad|can't complain|doing well|pretty good|very well|(?:good|well|fine|great),? "
    r"thanks|(?:has|have|'s) been (?:good|great|fine|lovely|busy|quiet)|so far|it went \w+|"
    r"(?:going|went) (?:well|fine|nicely|slowly)|all good|i'm (?:good|well|fine))\b"
)


@dataclass(frozen=True)
class Lexicon:
    """The town's proper nouns, for reading residents' lines: residents' full and first
    names, place names (sectors and arenas) and topic words (intent keywords, interests)."""

    people: tuple[str, ...]
    places: tuple[str, ...]
    topics: tuple[str, ...]


def question_kind(question: str) -> str:
    """'when', 'where', 'who', 'yesno' or 'open', from the question's first words."""
    q = norm(question)
    for wh in ("when", "where", "who"):
        if re.search(rf"\b{wh}\b", q) and (wh != "when" or "what time" not in q):
            return wh
    if "what time" in q:
        return "when"
    last = sentences(q)[-1] if sentences(q) else q
    return "yesno" if _YES_NO_Q.search(last) or _TAG_Q.search(last) else "open"


def answers(question: str, reply: str, lex: Lexicon) -> bool:
    """Whether `reply` answers `question` (the last sentence ending in '?' of a line).

    The rule: a reply that only denies knowing, or is itself only a question, answers
    nothing. A yes/no question is answered by a yes/no word at the reply's start; a
    when-question by a time or day; a where-question by a place name or 'at/in the';
    a who-question by a resident's name; a question after one's well-being or how
    something went ('How's your morning been?') by a well-being phrase in the reply's first
    two sentences ('Not bad, thanks'). A yes or a no may follow an interjection ('Oh, yes').
    Any question is also answered by a reply that shares a content word (names excluded)
    with it.
    """
    r = norm(reply)
    if not r.strip() or denies(r) or r.strip().endswith("?") and len(sentences(r)) == 1:
        return False
    kind = question_kind(question)
    if kind == "yesno" and (_ANSWERISH.search(r) or polarity(r) is not None):
        return True
    if _HOW_ARE.search(norm(question)) and _WELL.search(" ".join(sentences(r)[:2])):
        return True  # 'How's your morning been?' 'Not bad, thanks.
    if kind == "when" and _TIME.search(r):
        return True
    if kind == "where" and (names_any(r, lex.places) or re.search(r"\b(at|in) the\b", r)):
        return True
    if kind == "who" and names_any(r, lex.people):
        return True
    people = {w for p in lex.people for w in words(p)}
    return bool((set(words(question)) - people) & set(words(r)))


def last_question(line: str) -> str:
    """The last sentence of a line that ends with '?' ('' if none)."""
    asked = [s for s in sentences(line) if s.endswith("?")]
    return asked[-1] if asked else ""


_NUMBER = re.compile(r"\b\d+(?::\d\d)?(?: ?[ap]m)?\b|\b(?:noon|midnight)\b")


def _sub_terms(text: str, terms: Iterable[str], mark: str) -> str:
    for term in sorted({norm(t) for t in terms if t.strip()}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w<]){re.escape(term)}(?![\w>])", mark, text)
    return text


def shape(sentence: str, lex: Lexicon) -> str:
    """A sentence with names, places, numbers and topic words made placeholders, so two
    sentences that differ only in what they fill in count as one shape."""
    text = norm(sentence).strip()
    text = _sub_terms(text, lex.places, "<place>")
    text = _sub_terms(text, lex.people, "<name>")
    text = _NUMBER.sub("<num>", text)
    text = _sub_terms(text, lex.topics, "<topic>")
    return " ".join(text.split()).strip(" .!?;,")
