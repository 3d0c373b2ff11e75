"""A line's form: the sentences that ask, the words it opens with, the answer its wording
wants.

Read from the words alone, with no exemplar and no town: the questions a line asks
(`questions_in`, `focus`), the spoken markers and joining words it may open with
(`unmarked`, `joined_off`), whether it asks by its form though typed without a question
mark (`_asked`, `_may_ask`) or inside a statement (`_embedded_question`), whether it wants
a yes or a no (`is_yes_no`), and the wh-word it asks by (`_wh_by_form`, `main_clause`).
"""

from __future__ import annotations

import re

from .acts import ActKind, Wh
from .slots import MASKS, STOP, content_stems, words

_REFERS = re.compile(r"\b(?:it|that|those|these|them|he|she|him|her|they|their|there|"
                     r"(?:you|u) two|the two of (?:you|u|ya))\b", re.I)  # fmt: skip

_TAG = re.compile(r"(?:,|\b)\s*(?:isn't it|aren't you|haven't we|have we|won't you|don't you"
                  r"(?: think)?|right|had you heard|can you believe it|who'd have thought)\?\s*$"
                  r"|,\s*(?:are|will|do|did|can|have) you(?: too)?\?\s*$", re.I)  # fmt: skip

_YESNO_START = re.compile(r"^\s*(?:are|do|does|did|is|was|were|have|has|can|could|will|would|"
                          r"any chance|anything|any|busy|still|had you|you|got|ever|should|am|"
                          r"seen|heard|know|noticed|spot|spotted|fancy|reckon|"
                          r"isn't|aren't|don't|doesn't|didn't|won't|can't|haven't|hasn't|"
                          r"wasn't|weren't|this|that|these|those|someone|somebody|anyone|"
                          r"anybody|something|everything|everyone|everybody)\b", re.I)  # fmt: skip


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

_SENTENCE = re.compile(r"[^.!?;]+[.!?;]*")

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
    said = set(words(text.lower()))
    if said & _LISTENER and not said & _FIRST and not _TELLS_OF_YOU.search(text):
        return True  # 'ur average day, start to end'
    return bool(_EITHER_WAY.search(text))  # 'got a hobby or not', 'free tonight or nah'


# a line put to the listener that says nothing of the speaker ('ur colleagues r they sound
# or a pain', 'tmrw lunchtime u busy') asks, where 'I like your hat' tells
_LISTENER = frozenset(words("you your yours yourself you're you've you'll you'd"))
_FIRST = frozenset(words("i i'm i'll i've i'd im ive me my mine myself we we're our us"))
# ... but 'your garden is lovely' and 'you look tired' tell ('are they' would ask)
_TELLS_OF_YOU = re.compile(r"\b(?:you|your(?:\s+\w+){1,2})\s+(?:is|are|was|were|look|looks|"
                           r"looked|seem|seems|sound|sounds|must|should|have|has|had)\b"
                           r"(?!\s+(?:you|they|it|he|she|we)\b)|\byou're\b", re.I)
_EITHER_WAY = re.compile(r"\bor (?:not|nah|no|nope)\b", re.I)


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
    last = unmarked(_QUOTED.split(asked[-1])[-1].strip()) if asked else ""
    return bool(last) and bool(_YESNO_START.match(last) or _TAG.search(last))


# where a quotation opens: 'Tamara told me a visitor said: "Have you heard?' asks as its
# quoted question does
_QUOTED = re.compile(r"[\"“”«]|:\s")


_MARKER = re.compile(r"^\s*(?:(?:well|oh|so|now|say|anyway|honestly|mind you|you know|right|"
                     r"ha|hey|hm+|ah)\s*,?\s+)+", re.I)  # fmt: skip
# a line's first words that join it to the talk before and say nothing of what it asks
_JOINING = re.compile(r"^\s*(?:(?:and|but|then|ok|okay|alright|also|plus|um+)\s*,?\s+)+", re.I)


_LEAD = re.compile(r"^\s*(?P<lead>[^,;:?.!]{1,30}?)\s*,\s+(?P<rest>.+)$", re.S)
LEAD_WORDS = 3  # an opener this short before a question says how, not what, is asked


def spoken_lead(text: str) -> tuple[str, str]:
    """('ooh', 'and where's it being put on?'): a short opener before a comma and the
    question that follows it, which opens as one once its joining words are off ('Go on
    then, what are they like?', 'aww, how did you two meet?'); ('', text) for any other
    line. Whether the opener names something is the reader's to check."""
    m = _LEAD.match(text)
    if m is None or len(words(m["lead"])) > LEAD_WORDS or _opens_as_question(m["lead"]):
        return "", text  # 'When is it, do you know?' asks in its opener
    rest = m["rest"]
    if not rest.rstrip().endswith("?") or not _opens_as_question(joined_off(rest), _CLAUSE_STARTS):
        return "", text
    return m["lead"], rest


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
    if _IF_THEN_ASKS.search(text) or _WANTS_YOURS.search(text):
        return True  # 'if the cafe burns what you do first', 'I need your full name'
    # a later clause that opens as a question does ('say the cafe went up in flames, what
    # would u do'; 'the cafe is a mystery to me, fill me in')
    return any(_opens_as_question(c, _CLAUSE_STARTS) for c in _CLAUSE_BREAK.split(text)[1:])


# a supposition, then what the listener would do, with no comma or mark between them
_IF_THEN_ASKS = re.compile(r"^\s*(?:if|say|suppose|supposing|imagine)\b.*\b(?:what|who|where|how) "
                           r"(?:would |will |do |did |could )?(?:you|u|ya)\b", re.I)  # fmt: skip


# a want of something of the listener's, said as a statement, asks for it
_WANTS_YOURS = re.compile(r"\b(?:i need|i'd need|i'd like|i would like|i want|i'm after|"
                          r"i'll need) (?:to (?:know|have|get|take|note) )?(?:your|ur)\b",
                          re.I)  # fmt: skip


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


def _kind_by_form(text: str) -> ActKind:
    return ActKind.QUESTION if text.rstrip().endswith("?") else ActKind.STATEMENT


_WH_WORDS = {"who": Wh.WHO, "whom": Wh.WHO, "when": Wh.WHEN, "where": Wh.WHERE, "why": Wh.WHY,
             "how": Wh.HOW, "what": Wh.WHAT, "which": Wh.WHAT}  # fmt: skip


_EXPLICIT_WH = frozenset({Wh.WHO, Wh.WHEN, Wh.WHERE, Wh.WHY})

_WHEN_PHRASE = re.compile(r"\b(?:what time|what day|how soon|how long|how much longer|"
                          r"how early|how late|till when|until when|what hour)\b|"
                          # how long something lasts: 'will it take you a while?', 'be long?'
                          r"\btake (?:you |u |ya )?(?:a while|long|ages|much longer)\b|"
                          r"\b(?:be|being) (?:long|much longer|a while)\b|"
                          r"\bwrap (?:it |this )?up\b|"
                          r"\b(?:be |get )?(?:done|finished|through) (?:with|by)\b",
                          re.I)  # fmt: skip
_HOW_LONG = re.compile(r"\bhow (?:long|much longer)\b|\btake (?:you |u |ya )?(?:a while|long|"
                       r"ages|much longer)\b|\b(?:be|being) (?:long|much longer|a while)\b|"
                       r"\bwrap (?:it |this |that )?up\b|\b(?:be |get )?(?:done|finished|through) "
                       r"(?:with|by)\b", re.I)  # fmt: skip


def asks_how_long(text: str) -> bool:
    """'Will you be long?', 'gonna take you a while?', 'when will you wrap up?': a question
    of how long something lasts, which one answers with when it ends."""
    return _HOW_LONG.search(text) is not None


_WHERE_PHRASE = re.compile(r"\b(?:which|what) (?:part|side|end|corner|bit) of (?:town|the town)\b|"
                           r"\bwhereabouts\b|\b(?:which|what) street\b", re.I)  # fmt: skip


# 'which faces would I see there?', 'what people go?': asks who
_WHO_PHRASE = re.compile(r"\b(?:which|what) (?:faces|people|folks|persons?|ones|regulars|names|"
                         r"guys|kids|neighbours|neighbors)\b", re.I)  # fmt: skip


def _wh_by_form(text: str) -> Wh:
    """The answer a question's form wants: its wh-word ('when'll' is 'when'), or, after an
    opening clause ('When you get home, is anyone there?'), the main clause's."""
    if _WHEN_PHRASE.search(text):
        return Wh.WHEN
    if _WHERE_PHRASE.search(text):
        return Wh.WHERE
    if _WHO_PHRASE.search(text):
        return Wh.WHO
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
    if main is None:
        return text
    first = next(iter(words(text)), "")
    if first in _CLAUSE_OPENERS:
        return main.group(1)
    # 'Walking in your front door after dark, is there anyone home?', 'Hang on - is this
    # where you live?': a lead that does not ask, before the clause that does
    leads = not _opens_as_question(joined_off(text))
    return main.group(1) if leads and _opens_as_question(main.group(1), _CLAUSE_STARTS) else text


_CONTRACTED = re.compile(r"'(?:ll|s|d|re|ve)$")
# 'When you get home, is anyone there?', 'Hang on - is this your place?'
_CLAUSE = re.compile(r"^[^,?]{3,}(?:,|\s+-\s+|:)\s*([^,]+\?)\s*$")
_CLAUSE_OPENERS = frozenset({"when", "if", "after", "before", "once", "whenever", "while"})
