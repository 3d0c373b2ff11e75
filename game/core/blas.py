"""One thread for numpy's BLAS, set at process start.

The cognition pool runs 16 threads (`DEFAULT_WORKERS`), each doing small matrix products
(retrieval's relevance scores, the sentence embedder's forward pass). OpenBLAS, MKL and
OpenMP each start a thread per core for every product by default, and those threads spin
while they wait for a core the pool already holds: a 7-day headless soak took 7.8 s for
day 1 and 86.7 s for day 7 (retrieval on the largest stream 8.0 ms), against 7.5 to 9.8 s
a day (0.19 ms) with one BLAS thread. The products are small, so one thread loses
nothing. The libraries read their variables only when numpy is first imported, so
`one_blas_thread` must run before that; a variable the user set is left alone.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

BLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread() -> None:
    """Ask each BLAS for one thread, unless the user set its variable. Call it first
    thing in a program: once numpy is imported it is too late (then it does nothing)."""
    for name in BLAS_VARIABLES:
        os.environ.setdefault(name, "1")


def blas_threads() -> str:
    """How many threads numpy's BLAS runs, and how that is known, for a benchmark's
    figures: threadpoolctl's answer if installed, else the OpenBLAS numpy bundles asked
    directly, else the variable (`'1 (OPENBLAS_NUM_THREADS)'`)."""
    counted = _from_threadpoolctl() or _from_bundled_openblas()
    if counted:
        return counted
    for name in BLAS_VARIABLES:
        if os.environ.get(name):
            return f"{os.environ[name]} ({name})"
    return f"{os.cpu_count()} (unset: one per core)"


def blas_single_threaded() -> bool:
    """Whether numpy's BLAS is known to run one thread (every pool it has says so): a
    product's result may then not depend on how its rows are split among threads."""
    said = blas_threads()
    return all(part.strip().startswith("1 ") for part in said.split(","))


def _from_threadpoolctl() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return ""
    pools = [p for p in threadpool_info() if p.get("user_api") == "blas"]
    return ", ".join(f"{p['num_threads']} ({p['internal_api']})" for p in pools)


def _from_bundled_openblas() -> str:
    """The thread count the OpenBLAS in numpy's wheel reports (numpy loaded it already)."""
    numpy = sys.modules.get("numpy")
    if numpy is None or not numpy.__file__:
        return ""
    for path in sorted(Path(numpy.__file__).parent.with_name("numpy.libs").glob("*openblas*")):
        try:
            lib = ctypes.CDLL(str(path))
        except OSError:
            continue
        for symbol in ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads"):
            if hasattr(lib, symbol):
                return f"{getattr(lib, symbol)()} (OpenBLAS)"
    return ""
