"""How long one retrieval takes on big memory streams.

An agent retrieves several times per game minute of activity, for 25 agents, on a
two-core machine, so one query must cost milliseconds even after months of game time.
Builds seeded random streams of 10k and 100k memories (dim 256), times `retrieve` (k=30)
with the paper's settings, and reports the original code's settings and a kinds filter too.

Runs with one BLAS thread, as `main.py` sets it for the game (unless the environment
sets OPENBLAS_NUM_THREADS, OMP_NUM_THREADS or MKL_NUM_THREADS), and reports the count
with its figures: with a thread per core, the same machine measured 8.0 ms at 10k
memories idle and 0.67 ms loaded, so a figure without its thread count says little.

Run from the repo root: python benchmarks/retrieval.py [--quick]
The last line printed is JSON for tooling.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.core.blas import blas_threads, one_blas_thread  # noqa: E402

one_blas_thread()  # as main.py does, before numpy loads

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from datetime import timedelta  # noqa: E402

import numpy as np  # noqa: E402

from game.core.clock import EPOCH  # noqa: E402
from game.core.mind_settings import ORIGINAL_CODE_RETRIEVAL, RetrievalSettings  # noqa: E402
from game.core.records import MemoryKind  # noqa: E402
from game.mind.memory import MemoryStream  # noqa: E402
from game.mind.retrieval import retrieve  # noqa: E402

DIM = 256
K = 30
SEED = 2023


def build_stream(n: int, seed: int = SEED) -> MemoryStream:
    """n memories over ~60 game days, mixed kinds, 2% mentioning 'idle', some touched."""
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((n, DIM)).astype(np.float32)
    minutes = np.sort(rng.integers(0, 60 * 24 * 60, size=n))
    kinds = rng.choice(list(MemoryKind), size=n, p=[0.7, 0.1, 0.1, 0.1])
    importance = rng.integers(1, 11, size=n)
    idle = rng.random(n) < 0.02
    stream = MemoryStream(DIM)
    for i in range(n):
        text = f"memory {i} is idle" if idle[i] else f"memory {i}"
        created = EPOCH + timedelta(minutes=int(minutes[i]))
        stream.add(kinds[i], text, created, int(importance[i]), vectors[i])
    touched = rng.choice(n, size=n // 10, replace=False)
    stream.touch(touched.tolist(), EPOCH + timedelta(minutes=int(minutes[-1])))
    return stream


def time_ms(fn: Callable[[], object], repeats: int) -> np.ndarray:
    fn()  # warm up caches and BLAS threads
    out = np.empty(repeats)
    for r in range(repeats):
        start = time.perf_counter()
        fn()
        out[r] = (time.perf_counter() - start) * 1e3
    return out


def summary(label: str, ms: np.ndarray) -> str:
    return (
        f"  {label:<34} median {np.median(ms):7.3f} ms   p99 {np.percentile(ms, 99):7.3f} ms"
        f"   ({len(ms)} runs)"
    )


def bench(n: int, repeats: int) -> dict[str, np.ndarray]:
    start = time.perf_counter()
    stream = build_stream(n)
    print(f"{n} memories built in {time.perf_counter() - start:.2f} s")
    view = stream.view()
    rng = np.random.default_rng(SEED + 1)
    query = rng.standard_normal(DIM).astype(np.float32)
    now = EPOCH + timedelta(days=61)
    paper = RetrievalSettings(k=K)
    cases: dict[str, Callable[[], object]] = {
        "retrieve (paper settings)": lambda: retrieve(view, query, now, paper),
        "retrieve (original-code settings)": lambda: retrieve(
            view, query, now, ORIGINAL_CODE_RETRIEVAL, k=K
        ),
        "retrieve (reflections only)": lambda: retrieve(
            view, query, now, paper, kinds={MemoryKind.REFLECTION}
        ),
        "view() + retrieve (paper)": lambda: retrieve(stream.view(), query, now, paper),
    }
    results = {}
    for label, fn in cases.items():
        results[label] = ms = time_ms(fn, repeats)
        print(summary(label, ms))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args()
    repeats = (100, 20) if args.quick else (1000, 200)
    threads = blas_threads()
    print(f"BLAS threads: {threads}")
    small = bench(10_000, repeats[0])
    large = bench(100_000, repeats[1])
    key = "retrieve (paper settings)"
    report = {
        "benchmark": "retrieval",
        "blas_threads": threads,
        "median_ms_10k": round(float(np.median(small[key])), 4),
        "median_ms_100k": round(float(np.median(large[key])), 4),
        "p99_ms_10k": round(float(np.percentile(small[key], 99)), 4),
        "p99_ms_100k": round(float(np.percentile(large[key], 99)), 4),
        "median_ms_10k_original_code": round(
            float(np.median(small["retrieve (original-code settings)"])), 4
        ),
        "median_ms_100k_original_code": round(
            float(np.median(large["retrieve (original-code settings)"])), 4
        ),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
