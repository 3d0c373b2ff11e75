"""The exemplar data, and the exemplars as one town's Understander scores a line against them.

`exemplars.json` holds, per label, a kind, an aspect, the answer wanted and example lines
with their slots written as `{person}`, `{place}`, ... (`labels`). `Exemplars` is what is
built from them once per town: their vectors under the static embedder (and the sentence
model, when it ships), which of them ask, follow up or name which slots, their content
stems, the town's intent words and texts as vectors, and a speller for typed lines; and it
scores a line against them: the reader a speaker's line is read with, the line's frame, how
far each exemplar's slots are from the line's, the words they share, the neighbours' vote,
and an intent named by meaning. The steps that decide what a line is stay in
`understand.py`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from game.brains.protocol import Embedder

from .acts import ActKind, Aspect, Wh
from .form import _plain
from .slots import MASKS, STOP, Lexicon, Slots, content_stems, contracted, words
from .spelling import Speller
from .vectors import exemplar_vectors
from .voting import StemIndex, vote

EXEMPLARS = Path(__file__).with_name("exemplars.json")
FLOOR = 0.45  # below this similarity to any exemplar the label is 'general'
DEEP_FLOOR = 0.35  # the same under the sentence model, whose similarities run lower
NEIGHBOURS = 5  # exemplars that vote
SHARPNESS = 0.1  # a neighbour this much less similar than the nearest weighs 1/e of it
SLOTS = ("person", "place", "object", "event", "time")  # the slots an exemplar may name
SLOT_MISSING = 0.15  # an exemplar's slot the line does not fill
SLOT_EXTRA = 0.12  # a person or place the line names and the exemplar does not
ASKING = (ActKind.QUESTION, ActKind.OPINION, ActKind.INVITATION, ActKind.REQUEST)

INTENT_FLOOR = 0.42  # the meaning is near enough an intent's text ...
INTENT_MARGIN = 0.08  # ... and clearly nearer it than any other intent ...
INTENT_STRONG = 0.55  # ... or, for a line that seems about something else, very near it
WORD_NEAR = 0.5  # a word this near one of an intent's own words names the intent


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


@cache
def frame_stems(label: str) -> frozenset[str]:
    """The content stems of a label's exemplars: the words that frame a question of its kind
    ('anything interesting going on around town?' is framed by 'interest', 'going',
    'around', 'town'), so that what is left of a slot is what the question names."""
    found: set[str] = set()
    for group in labels():
        if group.name == label:
            for example in group.examples:
                found |= content_stems(example)
    return frozenset(found)


def exemplar_texts(path: Path = EXEMPLARS) -> list[str]:
    """Every exemplar line as it is compared: masked, lower case, in the data's order."""
    return [_masked_example(ex) for label in labels(path) for ex in label.examples]


def _masked_example(example: str) -> str:
    out = example
    for slot, word in MASKS.items():
        out = out.replace("{" + slot + "}", word)
    return " ".join(re.sub(r"[^\w'\- ]", " ", out.lower()).split())


class Exemplars:
    """The exemplars of `data` for the town of `lexicon`, built once (the Understander
    builds it under its lock), then only read."""

    def __init__(
        self,
        lexicon: Lexicon,
        embedder: Embedder,
        data: Path = EXEMPLARS,
        deep: Embedder | None = None,
    ) -> None:
        self.lexicon = lexicon
        self.embedder = embedder
        self.deep = deep  # the sentence model, for lines no resident said (see `reader`)
        texts, owners, needs = exemplar_texts(data), [], []
        for label in labels(data):
            for ex in label.examples:
                owners.append(label)
                needs.append([("{" + slot + "}") in ex for slot in SLOTS])
        self.matrix: np.ndarray = embedder.embed(texts)
        self.deep_matrix: np.ndarray | None = None
        if deep is not None:
            self.deep_matrix = exemplar_vectors(deep, texts)
        self.owners: list[Label] = owners
        self.follows = np.array([x.follow for x in owners], dtype=bool)
        self.asking = np.array([x.kind in ASKING for x in owners], dtype=bool)
        self.stems = StemIndex([content_stems(t) for t in texts])  # for word overlap
        self.by_name: dict[str, Label] = {}  # the first label of each name
        for owner in owners:
            self.by_name.setdefault(owner.name, owner)
        self.needs = np.array(needs, dtype=bool).reshape(len(texts), len(SLOTS))
        self.vocab = {w for t in texts for w in t.split()}
        self.speller = self._make_speller()
        self.terms = np.zeros((0, embedder.dim), dtype=np.float32)
        self.term_ids: list[str] = []
        terms = list(lexicon.intents)
        if terms:
            self.term_ids = [lexicon.intents[t] for t in terms]
            self.terms = embedder.embed(terms)
        self.intent_vectors: dict[str, np.ndarray] = {}
        ids = list(lexicon.intent_texts)
        if ids:
            vecs = embedder.embed([lexicon.intent_texts[i] for i in ids])
            self.intent_vectors = dict(zip(ids, vecs, strict=True))

    def _make_speller(self) -> Speller | None:
        """A corrector for typed lines over the static embedder's vocabulary (None with the
        hashed embedder, which has none); the town's names and the exemplars' words stay."""
        model = getattr(self.embedder, "model", None)
        ranked = getattr(model, "vocab", None)
        if not ranked:
            return None
        lex = self.lexicon
        names = [w for form in [*lex.people, *lex.places, *lex.objects] for w in words(form)]
        return Speller(ranked, keep=[*names, *lex.intents, *self.vocab])

    def reader(self, speaker: str) -> tuple[Embedder, np.ndarray]:
        """The embedder a line is read with, and the exemplars' vectors under it: the
        sentence model for the visitor's and an interviewer's open-ended words, the static
        one for a resident's own line (made from this game's templates, and said dozens of
        times an hour, where a forward pass each would slow the town)."""
        resident = speaker.lower() in self.lexicon.people
        if self.deep is None or self.deep_matrix is None or resident:
            return self.embedder, self.matrix
        return self.deep, self.deep_matrix

    def near_word(self, text: str) -> tuple[str, str]:
        """An intent a word names by meaning ('voting' for the election): the word whose
        vector is nearest one of the intent's own words, when near enough."""
        if not len(self.terms):
            return "", ""
        found = [w for w in words(text) if w not in STOP and len(w) > 3]
        if not found:
            return "", ""
        sims = self.embedder.embed(found) @ self.terms.T
        i, j = np.unravel_index(int(np.argmax(sims)), sims.shape)
        if sims[i, j] < WORD_NEAR:
            return "", ""
        return self.term_ids[int(j)], found[int(i)]

    def framed(self, query: str) -> str:
        """The line with every word no exemplar uses put as 'something': what is left is
        the frame of the question, which the exemplars are made of. Only the static model
        reads frames: it knows words, not sentences, while the sentence model reads a
        player's own words better than their frame (aspect accuracy on the held-out
        questions 0.752 against 0.732 with frames)."""
        return " ".join(w if w in STOP or w in self.vocab else MASKS["thing"]
                        for w in query.split())  # fmt: skip

    def unknown_words(self, query: str) -> list[str]:
        """The words of a line no exemplar uses and that are not the town's masks: what it
        names that the exemplars cannot ('the bake sale', 'the craft fair'), so an event
        question naming something unheard of fits the exemplars that name an event."""
        masks = set(" ".join(MASKS.values()).split())
        return [w for w in re.findall(r"[a-z][a-z'-]+", query.lower())
                if w not in STOP and w not in masks and w not in self.vocab
                and w.split("'")[0] not in self.vocab and not contracted(w)]  # fmt: skip

    @staticmethod
    def has_frame(frame: str) -> bool:
        """A frame is worth matching only if some word of it is an exemplar's own (not
        only 'what's something something')."""
        masks = set(" ".join(MASKS.values()).split())
        return any(w.split("'")[0] not in STOP and w not in masks for w in frame.split())

    def slot_misfit(self, slots: Slots, query: str = "") -> np.ndarray:
        """How far each exemplar's slots are from the line's: an exemplar naming someone
        ('what sort of person is {person}') fits a line that names nobody ('what sort of
        person are you?') worse, and one about oneself ('what do you do for a living') fits
        a line naming someone ('what does Giorgio do for a living?') worse."""
        event = bool(slots.intent) or bool(self.unknown_words(query))
        has = np.array([bool(slots.person), bool(slots.place), bool(slots.obj),
                        event, slots.window is not None], dtype=bool)  # fmt: skip
        missing = (self.needs & ~has).sum(axis=1)
        extra = (~self.needs[:, :2] & has[:2]).sum(axis=1)  # a person or a place unasked of
        return SLOT_MISSING * missing + SLOT_EXTRA * extra

    def overlap(self, query: str) -> np.ndarray:
        """The share of words a line and each exemplar have in common (Jaccard of stems):
        a nudge towards the exemplar worded most like it, on top of the meaning."""
        return self.stems.overlap(content_stems(query))

    def vote(
        self, sims: np.ndarray, floor: float = FLOOR, by_aspect: bool = True
    ) -> tuple[Label | None, float, str]:
        """The label the nearest exemplars vote for (game.brains.dialogue.voting.vote)."""
        return vote(sims, self.owners, self.by_name, floor, by_aspect, NEIGHBOURS, SHARPNESS)

    def intent_like(self, vec: np.ndarray, text: str, label: Label | None) -> str:
        """An intent the words do not name but the meaning does ('the mayoral race'): the
        nearest intent text, when close enough and the line is about events or news."""
        if not self.intent_vectors or label is None or label.name == "event.know":
            return ""  # 'is anything happening?' asks about every event, not the nearest
        full = self.embedder.embed([_plain(text)])[0]
        scored = sorted(((float(v @ full), i) for i, v in self.intent_vectors.items()),
                        reverse=True)  # fmt: skip
        runner_up = scored[1][0] if len(scored) > 1 else 0.0
        best, score = scored[0][1], scored[0][0]
        floor = INTENT_FLOOR if label.aspect in (Aspect.EVENT, Aspect.GENERAL) else INTENT_STRONG
        return best if score >= floor and score - runner_up >= INTENT_MARGIN else ""
