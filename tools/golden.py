"""Golden runs: a few seeded headless runs, kept so a refactor can show what it changed.

Each run goes through `python main.py run` exactly as a person would (a fresh data folder,
the LLM brain against the local protocol server from the tests) and is reduced to what
must not drift: the report without its timing fields, and every resident's memory texts.

    python tools/golden.py --write      # record tests/golden/*.json
    python tools/golden.py              # run again and list what differs from them
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.core.files import write_atomic

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
TIMING = ("wall_seconds", "wall_seconds_per_day", "peak_rss_mb")
# The model section's totals and per-resident counts include embedding requests; the
# per-question counts of the chat questions stay.
TRANSPORT = ("by_agent", "calls", "prompt_tokens", "cost_usd")


@dataclass(frozen=True)
class GoldenRun:
    name: str
    args: tuple[str, ...]
    llm: bool = False
    memories: bool = True  # keep every memory text (small towns only)


RUNS = (
    GoldenRun("scripted-three-24h", ("--scenario", "three", "--hours", "24", "--seed", "1")),
    GoldenRun(
        "scripted-smallville-12h",
        ("--scenario", "smallville", "--hours", "12", "--seed", "7"),
        memories=False,
    ),
    GoldenRun("llm-three-4h", ("--scenario", "three", "--hours", "4", "--seed", "1"), llm=True),
)


def _env(tmp: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "SMALLVILLE_DATA": str(tmp / "data"),
        "SMALLVILLE_CONFIG": str(tmp / "no-config.toml"),
        "XDG_CACHE_HOME": str(tmp / "cache"),
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "OPENAI_API_KEY": "sk-golden",
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    env.pop("OPENAI_BASE_URL", None)
    return env


def run_one(run: GoldenRun, workers: int = 8, latency: float = 0.0) -> dict[str, Any]:
    """The run's report (less timing) and, if kept, each resident's memory texts."""
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        args = ["run", *run.args, "--report", "r.json", "--quiet", "--save", "golden"]
        args += ["--workers", str(workers)]
        server = None
        if run.llm:
            sys.path.insert(0, str(ROOT / "tests" / "brains"))
            from protocol_server import ProtocolServer

            server = ProtocolServer(latency=latency).__enter__()
            args += ["--brain", "llm", "--base-url", server.url, "--model", "M"]
        try:
            done = subprocess.run(
                [sys.executable, str(ROOT / "main.py"), *args],
                cwd=tmp,
                env=_env(tmp),
                capture_output=True,
                text=True,
                timeout=900,
            )
        finally:
            if server is not None:
                server.__exit__(None, None, None)
        if done.returncode != 0:
            raise SystemExit(f"{run.name} failed:\n{done.stderr[-2000:]}")
        report = json.loads((tmp / "r.json").read_text(encoding="utf-8"))
        out: dict[str, Any] = {"report": _without_timing(report)}
        if run.memories:
            out["memories"] = _memory_texts(tmp / "data" / "saves" / "golden" / "save.json")
        return out


def _without_timing(doc: Any) -> Any:
    """The document less what measures the machine rather than the run: timings, and
    how many embedding requests carried the texts (concurrent retrievals share requests
    as the threads happen to meet; every text's vector is the same either way)."""
    if isinstance(doc, dict):
        out = {k: _without_timing(v) for k, v in doc.items() if k not in TIMING}
        out = {k: v for k, v in out.items() if "latency" not in k}
        if "by_question" in out:  # the model section
            out = {k: v for k, v in out.items() if k not in TRANSPORT}
            out["by_question"] = {q: t for q, t in out["by_question"].items() if q != "embeddings"}
        return out
    if isinstance(doc, list):
        return [_without_timing(v) for v in doc]
    return doc


def _memory_texts(path: Path) -> dict[str, list[str]]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return {a["name"]: list(a["memory"]["texts"]) for a in doc["agents"]}


def lines(doc: dict[str, Any]) -> list[str]:
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=True).splitlines()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the golden files")
    parser.add_argument("--only", help="one run by name")
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.0, help="model seconds per answer")
    args = parser.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    differ = 0
    for run in RUNS:
        if args.only and run.name != args.only:
            continue
        got = run_one(run, args.workers, args.latency)
        path = GOLDEN / f"{run.name}.json"
        if args.write:
            write_atomic(path, "\n".join(lines(got)) + "\n")
            print(f"wrote {path.relative_to(ROOT)}")
            continue
        want = json.loads(path.read_text(encoding="utf-8"))
        diff = list(
            difflib.unified_diff(lines(want), lines(got), "golden", "now", n=0, lineterm="")
        )
        differ += bool(diff)
        print(f"{run.name}: {'same' if not diff else f'{len(diff)} diff lines'}")
        for line in diff[:60]:
            print("  " + line)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
