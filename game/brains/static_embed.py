"""A real sentence embedder that runs on numpy alone: static token vectors distilled from
all-MiniLM-L6-v2 (`tools/distill_embedder.py`, the model2vec recipe).

Why static: a transformer forward pass per memory would cost milliseconds and need torch;
a lookup of one vector per WordPiece token and a weighted mean costs microseconds and keeps
most of what the model knows about words ("mayoral race" lands near "election", which no
n-gram hash can know). The asset `assets/embedder/minilm-static.npz` ships with the game,
so nothing is downloaded at run time.

The tokenizer is BERT's, uncased, in pure Python: clean and lower-case the text, strip
accents, split on whitespace and punctuation, then WordPiece greedy longest-match-first.
It must match the one the vectors were distilled with, or the vectors would be looked up
under the wrong names; the distiller imports it from here for that reason.
"""

from __future__ import annotations

import re
import threading
import unicodedata
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from game.core.errors import SmallvilleError, clip
from game.core.paths import ASSETS

ASSET = ASSETS / "embedder" / "minilm-static.npz"
ASSET_FORMAT = 1  # bumped when the npz layout changes; a stale file is refused by name
MAX_WORD_CHARS = 100  # BERT's limit: a longer "word" is one unknown token
UNKNOWN = "[UNK]"
CONTINUATION = "##"
_WORD_CACHE_LIMIT = 200_000  # distinct words remembered by one tokenizer


class EmbedderAssetError(SmallvilleError):
    """The embedder's bundled vector file is missing, unreadable or not what we wrote."""

    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(f"{path}: {clip(problem)} (regenerate it with tools/distill_embedder.py)")
        self.path = str(path)
        self.problem = problem


# ---------------------------------------------------------------------------------------
# BERT basic tokenizer + WordPiece


def _is_control(char: str) -> bool:
    if char in "\t\n\r":
        return False
    return unicodedata.category(char) in ("Cc", "Cf")


def _is_whitespace(char: str) -> bool:
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


def _is_punctuation(char: str) -> bool:
    """BERT counts every non-alphanumeric ASCII symbol ("$", "^", "`") as punctuation too."""
    cp = ord(char)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


def _clean(text: str) -> str:
    """Drop control characters and NULs, turn every kind of space into ' ', pad CJK."""
    out: list[str] = []
    for char in text:
        cp = ord(char)
        if cp == 0 or cp == 0xFFFD or _is_control(char):
            continue
        if _is_cjk(cp):
            out.append(f" {char} ")
        else:
            out.append(" " if _is_whitespace(char) else char)
    return "".join(out)


def _strip_accents(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")


def _split_punctuation(word: str) -> list[str]:
    pieces: list[str] = []
    current: list[str] = []
    for char in word:
        if _is_punctuation(char):
            if current:
                pieces.append("".join(current))
                current = []
            pieces.append(char)
        else:
            current.append(char)
    if current:
        pieces.append("".join(current))
    return pieces


# ASCII text, nearly all a town says, takes a regex path with the same result: in ASCII,
# every printable symbol that is not a letter or digit is BERT punctuation, and every
# control character but tab, newline and carriage return is dropped.
_ASCII_CONTROLS = {cp: None for cp in (*range(0, 9), 11, 12, *range(14, 32), 127)}
_ASCII_TOKEN = re.compile(r"[a-z0-9]+|[!-/:-@\[-`{-~]")


def basic_tokens(text: str) -> list[str]:
    """BERT's uncased basic tokenizer: 'Hello, Café!' -> ['hello', ',', 'cafe', '!']."""
    if text.isascii():
        return _ASCII_TOKEN.findall(text.translate(_ASCII_CONTROLS).lower())
    return slow_basic_tokens(text)


def slow_basic_tokens(text: str) -> list[str]:
    """The basic tokenizer character by character, for any Unicode text."""
    words: list[str] = []
    for word in _clean(text).lower().split():
        words += _split_punctuation(_strip_accents(word))
    return words


@dataclass(frozen=True)
class WordPiece:
    """Greedy longest-match-first WordPiece over a fixed vocabulary (BERT's algorithm).

    A word that cannot be covered by vocabulary pieces becomes one [UNK], as in BERT.
    """

    vocab: frozenset[str]

    def split(self, word: str) -> list[str]:
        """'unaffable' -> ['una', '##ffa', '##ble'] (with BERT's uncased vocabulary)."""
        if len(word) > MAX_WORD_CHARS:
            return [UNKNOWN]
        pieces: list[str] = []
        start = 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else CONTINUATION + word[start:end]
                if piece in self.vocab:
                    break
                end -= 1
            if end == start:
                return [UNKNOWN]
            pieces.append(piece)
            start = end
        return pieces


class Tokenizer:
    """Text -> WordPiece tokens, BERT uncased. Thread-safe: the per-word cache is only ever
    filled with values any thread would compute identically, and dict updates are atomic."""

    def __init__(self, vocab: Iterable[str]) -> None:
        self.wordpiece = WordPiece(frozenset(vocab))
        self._words: dict[str, list[str]] = {}

    def tokenize(self, text: str) -> list[str]:
        tokens: list[str] = []
        for word in basic_tokens(text):
            tokens += self._split(word)
        return tokens

    def _split(self, word: str) -> list[str]:
        cached = self._words.get(word)
        if cached is None:
            cached = self.wordpiece.split(word)
            if len(self._words) >= _WORD_CACHE_LIMIT:
                self._words.clear()  # bounded; refills with the words in use
            self._words[word] = cached
        return cached


# ---------------------------------------------------------------------------------------
# The static model


@dataclass(frozen=True)
class StaticModel:
    """What the npz holds: one row per token, and each token's weight in a sentence mean.

    `weighted` (vectors times weights) is what `embed` sums; `index` finds a token's row.
    """

    vocab: tuple[str, ...]
    vectors: np.ndarray  # float32 (len(vocab), dim)
    weights: np.ndarray  # float32 (len(vocab),)
    source: str  # the model the vectors were distilled from
    weighted: np.ndarray = field(init=False, repr=False, compare=False)
    index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        weighted = self.vectors * self.weights[:, None]
        weighted.setflags(write=False)
        object.__setattr__(self, "weighted", weighted)
        object.__setattr__(self, "index", {token: i for i, token in enumerate(self.vocab)})

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])


def _read(path: Path) -> StaticModel:
    try:
        with np.load(path, allow_pickle=False) as data:
            fmt = int(data["format"])
            vocab = bytes(data["vocab"]).decode("utf-8").split("\n")
            vectors = np.asarray(data["vectors"], dtype=np.float32)
            weights = np.asarray(data["weights"], dtype=np.float32)
            source = bytes(data["source"]).decode("utf-8")
    except FileNotFoundError as exc:
        raise EmbedderAssetError(path, "the embedder's vector file is missing") from exc
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise EmbedderAssetError(path, f"unreadable embedder file ({exc})") from exc
    if fmt != ASSET_FORMAT:
        raise EmbedderAssetError(path, f"format {fmt}, this game reads format {ASSET_FORMAT}")
    _check_shapes(path, vocab, vectors, weights)
    return StaticModel(tuple(vocab), vectors, weights, source)


def _check_shapes(path: Path, vocab: list[str], vectors: np.ndarray, weights: np.ndarray) -> None:
    if vectors.ndim != 2 or vectors.shape[0] != len(vocab) or weights.shape != (len(vocab),):
        raise EmbedderAssetError(
            path,
            f"{len(vocab)} tokens but vectors {vectors.shape} and weights {weights.shape}",
        )
    if len(set(vocab)) != len(vocab):
        raise EmbedderAssetError(path, "the vocabulary repeats a token")
    if not (np.all(np.isfinite(vectors)) and np.all(np.isfinite(weights))):
        raise EmbedderAssetError(path, "vectors or weights are not finite numbers")


_models: dict[Path, StaticModel] = {}
_models_lock = threading.Lock()


def load_model(path: Path = ASSET) -> StaticModel:
    """The model in `path`, read once per process (every StaticEmbedder shares it)."""
    path = Path(path).resolve()
    with _models_lock:
        model = _models.get(path)
        if model is None:
            model = _models[path] = _read(path)
        return model


class StaticEmbedder:
    """Text -> unit float32 vector: the weighted mean of its tokens' distilled vectors.

    Lazy: the asset is read on first use (`embed`, `dim`, `tokenizer`), once per process, so
    building one costs nothing until it is needed. Deterministic (no randomness, a fixed
    order of float32 sums) and thread-safe (the model is read under a lock; the word cache
    only ever holds what any thread would compute). A text of no known token gives a zero
    row, as HashEmbedder does.
    """

    name = "minilm-static"

    def __init__(self, path: Path | str = ASSET) -> None:
        self.path = Path(path)
        self._loaded: tuple[StaticModel, Tokenizer] | None = None
        self._lock = threading.Lock()

    @property
    def model(self) -> StaticModel:
        return self._load()[0]

    @property
    def tokenizer(self) -> Tokenizer:
        return self._load()[1]

    @property
    def dim(self) -> int:
        return self.model.dim

    def _load(self) -> tuple[StaticModel, Tokenizer]:
        loaded = self._loaded
        if loaded is None:
            with self._lock:
                if self._loaded is None:
                    model = load_model(self.path)
                    self._loaded = (model, Tokenizer(model.index.keys()))
                loaded = self._loaded
        return loaded

    def token_ids(self, text: str) -> list[int]:
        """The rows of the tokens of `text` that have vectors (unknown pieces are skipped)."""
        model, tokenizer = self._load()
        return [i for i in map(model.index.get, tokenizer.tokenize(text)) if i is not None]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 (len(texts), dim), rows L2-normalised; a text of no known token -> zeros.

        One gather and one segmented sum for the whole batch, not numpy calls per text:
        their overhead would cost more than the arithmetic."""
        weighted = self.model.weighted
        rows = [self.token_ids(text) for text in texts]
        out = np.zeros((len(texts), weighted.shape[1]), dtype=np.float32)
        filled = [i for i, ids in enumerate(rows) if ids]
        if filled:
            flat = np.fromiter((t for i in filled for t in rows[i]), dtype=np.intp)
            starts = np.cumsum([0] + [len(rows[i]) for i in filled[:-1]])
            out[filled] = np.add.reduceat(weighted[flat], starts, axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def peek(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Everything: a lookup costs no request."""
        texts = list(dict.fromkeys(texts))
        return dict(zip(texts, self.embed(texts), strict=True)) if texts else {}

    def later(self, texts: Sequence[str]) -> None:
        """Nothing to fetch: `peek` gives every vector at once."""
