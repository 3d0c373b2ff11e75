"""The whole sentence model, in numpy: all-MiniLM-L6-v2's BERT forward pass on a line.

Why, beside the static embedder (`static_embed.py`): a static model averages its tokens'
vectors, so a sentence's frame ('got any ... around these parts?') weighs as much as what
it asks; the transformer reads the words together, which is what its training for
paraphrase similarity is about. On the conversation benchmark's held-out questions
(written without reading the exemplars) the aspect a question is understood as is right
0.732 of the time with this model against 0.654 with the static one.

It costs a forward pass per line (milliseconds for a short one), so the understander uses
it for the open-ended words of the visitor and of interviews, and the static model for the
residents' own lines. The weights ship with the game in `assets/embedder/minilm-l6.npz`
(written once by `tools/distill_embedder.py --full`): every matrix as int8 with one scale
per row, biases and norms as float32; 21 MB, nothing downloaded at run time, Apache-2.0
like the model. The forward pass reproduces the published cosines of the model to within
0.01 (int8 rounding); `tools/distill_embedder.py` checks it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from game.brains.static_embed import EmbedderAssetError, Tokenizer
from game.core.paths import ASSETS

FULL_ASSET = ASSETS / "embedder" / "minilm-l6.npz"
FULL_FORMAT = 1
LAYER_NORM_EPS = 1e-12
MAX_TOKENS = 128  # a line longer than this is read by its first 128 tokens
BATCH = 64  # lines per forward pass
CACHE = 4096  # lines whose vectors are kept (a conversation repeats itself)


@dataclass(frozen=True)
class Bert:
    """BERT encoder weights and shape (post-layer-norm, GELU)."""

    w: dict[str, np.ndarray]
    layers: int
    heads: int

    def encode(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Token ids (batch, seq) and attention mask -> last hidden states (batch, seq, h)."""
        w = self.w
        seq = ids.shape[1]
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:seq][None]
            + w["embeddings.token_type_embeddings.weight"][0][None, None]
        )
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        bias = np.where(mask[:, None, None, :] > 0, 0.0, -1e9).astype(np.float32)
        for layer in range(self.layers):
            x = self.block(x, bias, f"encoder.layer.{layer}.")
        return x

    def block(self, x: np.ndarray, bias: np.ndarray, p: str) -> np.ndarray:
        attended = self.attention(x, bias, p + "attention.self.")
        x = layer_norm(
            x + dense(attended, self.w, p + "attention.output.dense"),
            self.w[p + "attention.output.LayerNorm.weight"],
            self.w[p + "attention.output.LayerNorm.bias"],
        )
        hidden = gelu(dense(x, self.w, p + "intermediate.dense"))
        return layer_norm(
            x + dense(hidden, self.w, p + "output.dense"),
            self.w[p + "output.LayerNorm.weight"],
            self.w[p + "output.LayerNorm.bias"],
        )

    def attention(self, x: np.ndarray, bias: np.ndarray, p: str) -> np.ndarray:
        batch, seq, hidden = x.shape
        size = hidden // self.heads

        def heads(name: str) -> np.ndarray:
            y = dense(x, self.w, p + name)
            return y.reshape(batch, seq, self.heads, size).transpose(0, 2, 1, 3)

        q, k, v = heads("query"), heads("key"), heads("value")
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(size)) + bias
        scores -= scores.max(axis=-1, keepdims=True)
        probs = np.exp(scores)
        probs /= probs.sum(axis=-1, keepdims=True)
        return (probs @ v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)


def dense(x: np.ndarray, w: dict[str, np.ndarray], name: str) -> np.ndarray:
    """A torch Linear (weight is (out, in)), as one 2-D matrix product: numpy would run a
    3-D input as one small product per sentence, hundreds of times slower."""
    flat = x.reshape(-1, x.shape[-1]) @ w[name + ".weight"].T + w[name + ".bias"]
    return flat.reshape(*x.shape[:-1], -1)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + LAYER_NORM_EPS) * gamma + beta


def gelu(x: np.ndarray) -> np.ndarray:
    """The exact (erf) GELU BERT uses; numpy has no erf of its own."""
    return 0.5 * x * (1.0 + _erf(x * np.float32(1.0 / np.sqrt(2.0))))


_ERF_P = np.float32(0.3275911)
_ERF_A = tuple(
    np.float32(c) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)
)


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to 1.5e-7 (Abramowitz and Stegun 7.1.26), in float32: far below the model's own
    float32 rounding."""
    z = np.abs(x)
    t = 1.0 / (1.0 + _ERF_P * z)
    poly = _ERF_A[0]
    for coefficient in _ERF_A[1:]:
        poly = poly * t + coefficient
    y = 1.0 - poly * t * np.exp(-z * z)
    return np.copysign(y, x)


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sentence-transformers' mean pooling: average over real (unmasked) positions."""
    m = mask[..., None].astype(np.float32)
    return (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)


def unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


# ---------------------------------------------------------------------------------------
# The shipped weights


def quantize(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 with one float32 scale per row (symmetric): a quarter of the bytes, and the
    rounding stays below what the sentence similarities notice."""
    scale = np.abs(matrix).max(axis=1, keepdims=True) / 127.0
    scale[scale == 0] = 1.0
    return np.round(matrix / scale).astype(np.int8), scale.astype(np.float32)


def write_full(path: Path, bert: Bert, vocab: Sequence[str]) -> None:
    """The asset `read_full` reads: names prefixed 'q:' are int8 with a 's:' scale."""
    arrays: dict[str, np.ndarray] = {"format": np.int64(FULL_FORMAT)}
    arrays["layers"], arrays["heads"] = np.int64(bert.layers), np.int64(bert.heads)
    arrays["vocab"] = np.frombuffer("\n".join(vocab).encode("utf-8"), dtype=np.uint8)
    for name, value in bert.w.items():
        if value.ndim == 2 and value.shape[0] > 8:
            q, s = quantize(value.astype(np.float32))
            arrays["q:" + name], arrays["s:" + name] = q, s
        else:
            arrays["f:" + name] = value.astype(np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


def read_full(path: Path = FULL_ASSET) -> tuple[Bert, list[str]]:
    """The weights, dequantized to float32, and the vocabulary in id order."""
    try:
        data = np.load(path, allow_pickle=False)
    except FileNotFoundError as exc:
        raise EmbedderAssetError(path, "the sentence model's file is missing") from exc
    except (OSError, ValueError) as exc:
        raise EmbedderAssetError(path, f"unreadable sentence model ({exc})") from exc
    with data:
        if "format" not in data.files or int(data["format"]) != FULL_FORMAT:
            raise EmbedderAssetError(path, f"not a format {FULL_FORMAT} sentence model")
        w: dict[str, np.ndarray] = {}
        for key in data.files:
            if key.startswith("q:"):
                name = key[2:]
                w[name] = data[key].astype(np.float32) * data["s:" + name]
            elif key.startswith("f:"):
                w[key[2:]] = data[key]
        vocab = bytes(data["vocab"]).decode("utf-8").split("\n")
        bert = Bert(w, int(data["layers"]), int(data["heads"]))
    if not all(np.isfinite(v).all() for v in w.values()):
        raise EmbedderAssetError(path, "weights are not finite numbers")
    return bert, vocab


_loaded: dict[Path, tuple[Bert, list[str]]] = {}
_loaded_lock = threading.Lock()


def load_full(path: Path = FULL_ASSET) -> tuple[Bert, list[str]]:
    """Read once per process: every SentenceEmbedder shares the weights."""
    path = Path(path).resolve()
    with _loaded_lock:
        if path not in _loaded:
            _loaded[path] = read_full(path)
        return _loaded[path]


class SentenceEmbedder:
    """Text -> unit float32 vector (384): MiniLM's mean-pooled last layer.

    Lazy (the weights are read on first use), deterministic, thread-safe (a lock around the
    forward pass and the cache: numpy already uses the cores within one product)."""

    name = "minilm-l6"
    dim = 384

    def __init__(self, path: Path | str = FULL_ASSET) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._ready: tuple[Bert, Tokenizer, dict[str, int]] | None = None
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def _load(self) -> tuple[Bert, Tokenizer, dict[str, int]]:
        if self._ready is None:
            bert, vocab = load_full(self.path)
            self._ready = (bert, Tokenizer(vocab), {t: i for i, t in enumerate(vocab)})
        return self._ready

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 (len(texts), 384), rows L2-normalised."""
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            for first in range(0, len(missing), BATCH):
                chunk = missing[first : first + BATCH]
                for text, vector in zip(chunk, self._forward(chunk), strict=True):
                    self._cache[text] = vector
            out = np.zeros((len(texts), self.dim), dtype=np.float32)
            for i, text in enumerate(texts):
                out[i] = self._cache[text]
                self._cache.move_to_end(text)
            while len(self._cache) > CACHE:
                self._cache.popitem(last=False)
            return out

    def _forward(self, texts: Sequence[str]) -> np.ndarray:
        bert, tokenizer, ids = self._load()
        return sentence_vectors(bert, tokenizer, ids, texts).astype(np.float32)


def sentence_vectors(
    bert: Bert, tokenizer: Tokenizer, ids: dict[str, int], texts: Sequence[str],
    limit: int = MAX_TOKENS,
) -> np.ndarray:  # fmt: skip
    """[CLS] tokens [SEP] through the model, mean-pooled and unit length, as
    sentence-transformers embeds a sentence (the game and the distilling tool share it)."""
    unknown = ids["[UNK]"]
    rows = [[ids["[CLS]"], *[ids.get(t, unknown) for t in tokenizer.tokenize(s)][:limit],
             ids["[SEP]"]] for s in texts]  # fmt: skip
    seq = max(len(r) for r in rows)
    batch = np.zeros((len(rows), seq), dtype=np.int64)
    mask = np.zeros((len(rows), seq), dtype=np.int64)
    for i, r in enumerate(rows):
        batch[i, : len(r)] = r
        mask[i, : len(r)] = 1
    return unit(mean_pool(bert.encode(batch, mask), mask))
