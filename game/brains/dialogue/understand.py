"""Heard words -> a typed `Act`: slots from the town, the label from the nearest exemplars.

Two steps, each general:
1. **Slots.** The people, places, objects and scenario intents the line names are found
   against the town's own words (`Lexicon`: residents' names, the map's sectors, arenas
   and objects, each intent's keywords and event fields) and the times against the clock
   (`slots.py`). Nothing here knows this scenario: a new town brings its own words.
2. **Label.** The line, with its slots masked by neutral words ('someone', 'that place',
   'the event'), is embedded and compared with exemplars kept as data
   (`exemplars.json`: per label a kind, an aspect, the answer wanted and example lines
   masked the same way). The nearest labels vote, weighted by similarity; below a
   confidence floor the act is GENERAL and is answered from whatever retrieval finds.

What a line's form says (its questions, its opening words, the wh-word it asks by) is read
in `form.py`. A follow-up ('and when?', 'who's behind it?', 'why?', 'and you?') names
nothing itself and takes the topic of the conversation so far (`DialogueState.topic`;
`context.py`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import replace
from datetime import datetime
from functools import cache
from pathlib import Path

import numpy as np

from game.brains.protocol import Embedder
from game.world import troubles

from .acts import Act, ActKind, Aspect, Wh
from .context import (
    _EVENT_BY_WH,
    _by_slots,
    _by_what_it_says,
    _in_conversation,
    _tense,
    _wh_of,
    referent,
)
from .exemplars import DEEP_FLOOR, EXEMPLARS, FLOOR, Exemplars
from .exemplars import Label as Label
from .exemplars import exemplar_texts as exemplar_texts
from .exemplars import frame_stems as frame_stems
from .exemplars import labels as labels
from .form import (
    _EXPLICIT_WH,
    _REFERS,
    _SENTENCE,
    _TAG,
    _asked,
    _embedded_question,
    _kind_by_form,
    _may_ask,
    _plain,
    _wh_by_form,
    focus,
    leftover,
    questions_in,
    spoken_lead,
    unmarked,
)
from .form import is_yes_no as is_yes_no
from .form import joined_off as joined_off
from .form import main_clause as main_clause
from .slots import (
    _SEEN_DOING,
    PERSON_BACK,
    Lexicon,
    Slots,
    _longest,
    _names_any,
    _without_vocatives,
    content_stems,
    find_slots,
    words,
)
from .slots import STOP as STOP
from .slots import find_time as find_time
from .slots import stem as stem
from .state import DialogueState

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
        self.deep = deep  # the sentence model, for lines no resident said
        self._data = data
        self._lock = threading.Lock()
        self._exemplars: Exemplars | None = None
        self._memo: dict[tuple, Act] = {}

    def _ready(self) -> Exemplars:
        with self._lock:
            if self._exemplars is None:
                self._exemplars = Exemplars(self.lexicon, self.embedder, self._data, self.deep)
            return self._exemplars

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
        speller = self._ready().speller
        if speller is not None and speaker.lower() not in self.lexicon.people:
            text = speller.fix(text)  # a player's typing: 'wat r u doing rn'
        asked_all = questions_in(text)
        if len(asked_all) >= 2 and len(words(asked_all[-1])) <= ELLIPTICAL_WORDS:
            # 'Anybody you talked to yesterday? Names?': a last question of a word or two
            # only says what is wanted of the one before it ('... Who? When?')
            earlier = self._read(asked_all[-2], now, state, speaker)
            if earlier.asks:
                wanted = _wh_by_form(asked_all[-1])
                earlier = replace(earlier, text=text)
                return replace(earlier, wh=wanted) if wanted in _EXPLICIT_WH else earlier
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
        lead = parts[asked[0] - 1]
        if troubles.trouble(lead) is not None:  # 'A pipe bursts at two in the morning.' is
            return None  # a trouble told, not a greeting, whatever 'morning' seems
        before = self._read(lead, now, state, speaker)
        says_more = before.label == "greeting" and len(words(lead)) > GREETING_WORDS
        margin = LEAD_MARGIN
        if before.label in _SELF_LEADS:
            alone = self._read(parts[asked[0]], now, state, speaker)
            if not says_more:
                return alone
            margin = 0.0  # the bare question alone points at nothing: any surer reading
        else:
            alone = self._read(text, now, state, speaker)
        # 'Hiya, I never actually got your name. What is it?': the bare question asks what
        # the sentence before it says is wanted, so that sentence, read as the question, is
        # the reading when the exemplars know it much better than the line's other reading
        as_asked = self._read(lead.rstrip(".!;, ") + "?", now, state, speaker)
        if not as_asked.asks or as_asked.confidence <= alone.confidence + margin:
            return alone
        wanted = _wh_by_form(parts[asked[0]])
        as_asked = replace(as_asked, text=text)
        return replace(as_asked, wh=wanted) if wanted in _EXPLICIT_WH else as_asked

    def _read(
        self, text: str, now: datetime, state: DialogueState | None, speaker: str
    ) -> Act:
        ex = self._ready()
        whole = text
        text = unmarked(_without_vocatives(self._named_back(whole, focus(text)), self.lexicon))
        lead, rest = spoken_lead(text)
        if lead and self._says_nothing(lead, now, speaker):
            text = rest  # 'ooh, and where's it on?' asks as 'and where's it on?' does
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
        reader, matrix = ex.reader(speaker)
        deep = reader is self.deep
        vec, raw = reader.embed([query, _plain(text)])
        sims = np.maximum(matrix @ vec, matrix @ raw)  # masked or as said: the nearer
        core = main_clause(text)
        if deep and core != text:  # 'Hang on - is this where you live?': the asking clause
            alone = find_slots(core, self.lexicon, now, speaker).masked or core.lower()
            sims = np.maximum(sims, matrix @ reader.embed([alone])[0])  # read by itself too
        frame = ex.framed(query)
        if not deep and ex.has_frame(frame):  # ('have you got into something at all')
            sims = np.maximum(sims, matrix @ reader.embed([frame])[0])  # the static model
        if deep:
            sims = sims + LEXICAL * ex.overlap(query) - ex.slot_misfit(slots, query)
        else:  # a resident's template line: the settings its templates were written against
            sims = sims + RESIDENT_LEXICAL * ex.overlap(query)
        asking = _asked(text)
        if asking and not _TAG.search(text):
            sims = np.where(ex.asking, sims, -1.0)  # a question is one of the questions
        elif not asking:
            sims = np.where(ex.asking, -1.0, sims)  # ... and a line that does not ask, not
        if len(leftover(query).split()) > FOLLOW_WORDS or state is None or not state.said:
            sims = np.where(ex.follows, -1.0, sims)
        pointed = deep and not _names_any(slots) and state is not None
        if pointed:
            sims, slots = self._in_topic(sims, query, reader, matrix, state, slots)
            pointed = _names_any(slots)  # it points at the talk's subject: a follow-up
        label, score, second = ex.vote(sims, DEEP_FLOOR if deep else FLOOR, deep)
        if label is not None and label.name in SMALL_TALK and _names_any(slots):
            # 'I need the party in my diary. Day and hour, please?' asks of the party, not
            # the time of day: small talk names nothing
            sims = np.where([o.name in SMALL_TALK for o in ex.owners], -1.0, sims)
            label, score, second = ex.vote(sims, DEEP_FLOOR if deep else FLOOR, deep)
        if label is not None and label.kind is ActKind.GREETING and slots.window is not None \
                and slots.window.start.date() != now.date():  # fmt: skip
            # 'yesterday good day or bad?' asks of a day gone by; 'good morning' greets
            sims = np.where([o.kind is ActKind.GREETING for o in ex.owners], -1.0, sims)
            label, score, second = ex.vote(sims, DEEP_FLOOR if deep else FLOOR, deep)
        if label is not None and label.name in TROUBLE_LABELS and _off_work(text, slots):
            sims = np.where([o.name in TROUBLE_LABELS for o in ex.owners], -1.0, sims)
            label, score, second = ex.vote(sims, DEEP_FLOOR if deep else FLOOR, deep)
        near, word = ("", "") if slots.intent else ex.near_word(text)
        if near:
            slots = replace(slots, intent=near, named=word)
        intent = slots.intent or ex.intent_like(vec, slots.masked or text, label)
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
        if act.aspect is Aspect.PLACE and not act.place and whole != text:
            # 'I walk past Hobbs Cafe every day. What happens inside?': the place is the one
            # the line named before its question
            place = find_slots(whole, self.lexicon, now, speaker).place
            act = replace(act, place=place, event="" if place else act.event)
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
        act = _by_what_it_says(act, text, label, slots, seen_doing, now)
        act = _in_conversation(act, text, label, state, now)
        return replace(act, follow_up=True) if pointed else act

    def _in_topic(
        self, sims: np.ndarray, query: str, reader: Embedder, matrix: np.ndarray,
        state: DialogueState, slots: Slots,
    ) -> tuple[np.ndarray, Slots]:
        """A line that names nothing but points at someone or something the talk is about
        is read with its pointing word put as that kind of thing (after Giorgio, 'what are
        they like to deal with?' as 'what is someone like to deal with?'; after the party,
        'whose idea was the whole thing?' as '... the event'), leans towards the questions
        asked of such things, and asks of what it points at."""
        found = referent(state, query)
        if found is None:
            return sims, slots
        aspect, name, resolved = found
        sims = np.maximum(sims, matrix @ reader.embed([resolved])[0])
        inside = np.array([o.aspect is aspect for o in self._ready().owners])
        sims = np.where(inside & (sims > 0), sims + IN_TOPIC, sims)
        field = "person" if aspect is Aspect.PERSON else "intent"
        return sims, replace(slots, **{field: name})

    def _in_trouble(self, act: Act, whole: str, now: datetime, speaker: str) -> Act:
        """A trouble told, then a question about it ('The tap won't stop dripping. What's
        your plan?'): the question alone reads as about one's plans, but what it asks is
        what one would do about the trouble (the troubles table names it)."""
        told = " ".join(p for p in _SENTENCE.findall(whole) if not p.strip().endswith("?"))
        told = _PERSON_NOT_WORKING.sub(" ", told)  # 'when you're not working' is off work
        if not act.asks or troubles.trouble(told) is None:
            return act
        if act.label in TROUBLE_LABELS and act.label != "fridge":  # an empty fridge is none
            return act
        asked = " ".join(questions_in(whole))
        asks_more = len(leftover(asked).split()) > FOLLOW_WORDS
        ones_move = act.aspect in _ONES_DOING or (act.aspect is Aspect.WORK
                                                  and not content_stems(asked))
        if asks_more and not (ones_move and not (act.person or act.place)):
            return act  # 'The sink is leaking. Is Tom at home today?' asks something else,
            # while 'Your toast catches fire. What's the first thing you do?' asks one's move,
            # and so does a bare 'What do you do?' (read alone, it asks one's work)
        obj = act.obj or find_slots(whole, self.lexicon, now, speaker).obj
        said = _wh_by_form(asked) if asked else Wh.NONE  # 'Who would you call?' asks who;
        wh = said if said in _EXPLICIT_WH else Wh.WHAT  # 'What then?' what one would do
        return replace(act, label="object.trouble", aspect=Aspect.OBJECT, obj=obj, wh=wh,
                       kind=ActKind.QUESTION)  # fmt: skip

    def _named_back(self, whole: str, question: str) -> str:
        """The question with the person an earlier part of the line named in place of the
        pronoun that refers to them ('Klaus... do you know them at all?' asks about Klaus)."""
        lead = whole[: max(0, whole.rfind(question))] if question != whole else ""
        if not lead.strip() or not PERSON_BACK.search(question):
            return question
        if _longest(lead.lower(), self.lexicon.people) == "":
            return question
        if _longest(question.lower(), self.lexicon.people):
            return question
        name = _longest(lead.lower(), self.lexicon.people)
        return PERSON_BACK.sub(name, question, count=1)

    def _says_nothing(self, lead: str, now: datetime, speaker: str) -> bool:
        """An opener that names nothing of the town, no time, and no word any exemplar
        uses ('ooh', 'haha', 'btw'): it colours the question after it, it does not change
        what is asked. 'At work, who...' or 'Tonight, where...' keep theirs."""
        slots = find_slots(lead, self.lexicon, now, speaker)
        if _names_any(slots) or slots.window is not None:
            return False
        if find_time(" ".join(stem(w) for w in words(lead)), now) is not None:
            return False  # 'Sundays, what do you do?'
        return not (content_stems(lead) & self._ready().stems.vocab)



IN_TOPIC = 0.06  # how much nearer a pointing line is to the questions of what it points at


MEMO_SIZE = 20_000  # understood lines kept (cleared whole when full)
LEXICAL = 0.15  # weight of shared words beside the embedding's similarity
RESIDENT_LEXICAL = 0.3  # ... for a resident's own line

FOLLOW_WORDS = 2  # a line naming more than this is not a bare follow-up
# what a question after a trouble told may seem about when it asks what one would do
_ONES_DOING = frozenset({Aspect.DOING, Aspect.PLANS, Aspect.PAST, Aspect.ROUTINE, Aspect.GENERAL})
SMALL_TALK = frozenset({"time", "secret", "help"})  # labels of lines that name nothing
TROUBLE_LABELS = frozenset({"object.trouble", "object.state", "fridge"})  # asked of trouble


def _off_work(text: str, slots: Slots) -> bool:
    """'When you're not working, what do you do for fun?': a person not working is off
    work, no trouble; the line names no thing, and without that clause names no trouble."""
    if slots.obj or not _PERSON_NOT_WORKING.search(text):
        return False
    return troubles.trouble(_PERSON_NOT_WORKING.sub(" ", text)) is None


_PERSON_NOT_WORKING = re.compile(
    r"\b(?:you're|you are|your|ur|u r|i'm|i am|we're|we are|they're|they are|he's|she's)"
    r"\s+not\s+(?:working|at work)\b", re.I)  # fmt: skip


_UNMARKED_END = re.compile(r"[\w'\"]\s*$")  # a line ending without . ! ? (typed chat)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'll|i'd|me|my|mine|myself|im|ive)\b", re.I)
UNMARKED_MARGIN = 0.05  # how much nearer a question an unmarked line must be to be one
ELLIPTICAL_WORDS = 2  # a question this short leans on the one before it in the line
TWO_QUESTIONS_MARGIN = 0.1  # how much surer the earlier of two questions must be read
GREETING_WORDS = 5  # a lead read as a greeting but longer than this says more than hello
LEAD_MARGIN = 0.1  # ... and a sentence before a bare question, read as the question itself
_SELF_LEADS = frozenset({"statement.self", "greeting"})  # a lead no bare question leans on


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
