"""The talk-only model brain measured: a scripted save's residents interviewed twice on the
conversation benchmark's questions, once by the scripted brain and once by a model through
`--talk-brain llm` (the same save, residents and questions), every answer judged by
game/sim/talk_judge.py against the benchmark's ground truth (benchmarks/conversation.py's
Truth, read from the save). Prints both brains' rates side by side (correct, vague,
non-answers, wrong, paraphrase consistency) and, per question kind (the benchmark's
categories), the model's seconds per answer, tokens per second and timeouts per request.

    python tests/real/talk_interviews.py --base-url http://127.0.0.1:8731/v1 --model qwen1.5b
    python tests/real/talk_interviews.py ... --residents 3 --questions 20 --phrasings 2

The save (scenario smallville, seed 7, 53 game hours: two days lived, up to the
benchmark's morning-after interview time, 2023-02-15 09:00) is built once in the work
folder with `main.py run` and reused. The model's requests go to its audit log there too.
tools/real_server.py --talk runs it as tests/real/test_real_talk.py. Last line JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import conversation as bench  # noqa: E402
from game.core.config import LLMSettings, cache_dir  # noqa: E402
from game.core.records import AnsweredBy  # noqa: E402
from game.sim.evaluation import ask_many  # noqa: E402

TIMEOUT = re.compile(r"no answer within|ran past its budget|timed out|timeout", re.IGNORECASE)


def pick(doc: dict, n: int, phrasings: int) -> dict:
    """`n` of the benchmark's questions, taken round-robin over its categories in file
    order (so 16 or more cover every category), each with its first `phrasings`
    phrasings; no follow-up pairs."""
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for entry in doc["questions"]:
        by_kind[entry["category"]].append(entry)
    queues, chosen = list(by_kind.values()), []
    while len(chosen) < min(n, len(doc["questions"])):
        for queue in queues:
            if queue and len(chosen) < n:
                chosen.append(queue.pop(0))
    trimmed = [{**e, "ask": e["ask"][: max(1, phrasings)]} for e in chosen]
    return {**doc, "questions": trimmed, "followups": []}


def env_for(work: Path) -> dict[str, str]:
    return {
        **os.environ,
        "SMALLVILLE_DATA": str(work / "data"),
        "SMALLVILLE_CONFIG": str(work / "no-config.toml"),
        "SMALLVILLE_CACHE": str(work / "cache"),
    }


def build_save(work: Path, seed: int, hours: float) -> Path:
    """The scripted save, made once: `main.py run --scenario smallville --save ...`."""
    name = f"scripted-s{seed}-{hours:g}h"
    folder = work / "data" / "saves" / name
    if (folder / "save.json").is_file():
        return folder
    note(f"building the scripted save {name} ({hours:g} game hours of 25 residents)")
    command = [sys.executable, str(ROOT / "main.py"), "run", "--scenario", "smallville",
               "--hours", f"{hours:g}", "--seed", str(seed), "--workers", "2",
               "--save", name, "--quiet"]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, env=env_for(work), capture_output=True, text=True)
    if done.returncode != 0 or not (folder / "save.json").is_file():
        raise SystemExit(f"the save was not made: {done.stderr[-2000:]}")
    return folder


def load(save: Path, llm: LLMSettings | None):
    """The save with the scripted brain answering, or (llm given) the model answering
    its talk: what `interview --load S --talk-brain llm` loads."""
    from game.sim.saves import load_game

    talk = {"talk": "llm", "llm": llm} if llm else {}
    return load_game(str(save), workers=2, **talk)


class AuditTail:
    """The audit log's lines written since the last `take()`."""

    def __init__(self, path: Path) -> None:
        self.path, self.offset = path, 0

    def take(self) -> list[dict[str, Any]]:
        if not self.path.is_file():
            return []
        size = self.path.stat().st_size
        if size < self.offset:  # the log rolled over
            self.offset = 0
        with self.path.open("rb") as f:
            f.seek(self.offset)
            data = f.read()
        end = data.rfind(b"\n") + 1
        self.offset += end
        return [json.loads(line) for line in data[:end].decode("utf-8").splitlines() if line]


@dataclass
class Usage:
    """The model's work for one question kind."""

    answers: int = 0
    wall: float = 0.0  # seconds from question to answer, re-asks and fallbacks included
    requests: int = 0
    timeouts: int = 0
    replies: int = 0
    reply_seconds: float = 0.0
    completion_tokens: int = 0
    prompt_tokens: int = 0
    by: Counter = field(default_factory=Counter)

    def add(self, lines: list[dict[str, Any]], seconds: float, by: AnsweredBy) -> None:
        self.answers += 1
        self.wall += seconds
        self.by[by.value] += 1
        for line in lines:
            failure = str(line.get("retry") or line.get("error") or "")
            if "answer" in line and "request" in line:
                self.requests += 1
                self.replies += 1
                self.reply_seconds += float(line.get("seconds", 0.0))
                self.completion_tokens += int(line.get("completion_tokens", 0))
                self.prompt_tokens += int(line.get("prompt_tokens", 0))
            elif "refused" in line or (failure and not failure.startswith("invalid")):
                self.requests += 1  # a request that reached the wire and failed
                self.timeouts += bool(TIMEOUT.search(failure))

    def merge(self, other: Usage) -> None:
        for name in ("answers", "wall", "requests", "timeouts", "replies", "reply_seconds",
                     "completion_tokens", "prompt_tokens"):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.by.update(other.by)

    def row(self) -> dict[str, Any]:
        return {
            "answers": self.answers,
            "seconds_per_answer": round(self.wall / self.answers, 1) if self.answers else None,
            "requests": self.requests,
            "timeouts": self.timeouts,
            "timeout_rate": bench.share(self.timeouts, self.requests),
            "tokens_per_s": round(self.completion_tokens / self.reply_seconds, 2)
            if self.reply_seconds
            else None,
            "prompt_tokens_per_reply": round(self.prompt_tokens / self.replies)
            if self.replies
            else None,
            "answered_by": dict(self.by),
        }


def note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def interview_both(save: Path, doc: dict, residents: int, settings: LLMSettings, audit: Path):
    """The same questions to the same residents, scripted then model; both tallies and
    the model's usage by question kind."""
    scripted, model = bench.Tally(), bench.Tally()
    usage: dict[str, Usage] = defaultdict(Usage)
    sim = load(save, None)
    try:
        names = bench.spread(sim, residents)
        when = sim.now.isoformat(timespec="minutes")
        work = [(name, asked) for name in names for asked in bench.instances(sim, name, doc)]
        for name, asked in work:
            got = [ask_many(sim, name, [q])[0].answer for q in asked.ask]
            scripted.add_single(asked, got, name, when)
    finally:
        sim.close()
    total = sum(len(a.ask) for _, a in work)
    note(f"{len(names)} residents ({', '.join(names)}) at {when}: {total} answers each brain")
    sim, tail = load(save, settings), AuditTail(audit)
    try:
        done = 0
        for name, asked in work:
            got = []
            for q in asked.ask:
                began = time.perf_counter()
                item = ask_many(sim, name, [q])[0]
                seconds = time.perf_counter() - began
                usage[asked.category].add(tail.take(), seconds, item.by)
                got.append(item.answer)
                done += 1
                note(f"[{done}/{total}] {name} {asked.id} ({item.by.value}, {seconds:.1f} s): "
                     f"{q} -> {item.answer[:160]}")  # fmt: skip
            model.add_single(asked, got, name, when)
    finally:
        sim.close()
    return names, when, scripted, model, usage


def summary(args, names, when, scripted, model, usage) -> dict[str, Any]:
    overall = Usage()
    for u in usage.values():
        overall.merge(u)
    kinds = sorted(set(scripted.by_category) | set(usage))
    s_cat, m_cat = scripted.categories(), model.categories()
    return {
        "benchmark": "talk_interviews",
        "model": args.model,
        "base_url": args.base_url,
        "interviewed_at": when,
        "residents": names,
        "questions": args.questions,
        "phrasings": args.phrasings,
        "scripted": scripted.rates(),
        "llm": model.rates(),
        "llm_usage": overall.row(),
        "by_kind": {
            k: {"scripted": s_cat.get(k, {}), "llm": m_cat.get(k, {}), **usage[k].row()}
            for k in kinds
        },
    }


ROWS = (
    ("answers", "answers (the resident knows)"),
    ("correct_specific", "correct"),
    ("vague", "vague"),
    ("non_answer", "non-answers"),
    ("wrong", "wrong (contradicted by the save)"),
    ("both_phrasings_correct", "both phrasings correct"),
    ("both_phrasings_same_verdict", "paraphrase consistency (same verdict)"),
    ("not_knowing_answers", "answers (the resident cannot know)"),
    ("honest_when_not_knowing", "honest when not knowing"),
    ("invented_when_not_knowing", "invented when not knowing"),
)


def percent(v: Any) -> str:
    return f"{v:.0%}" if isinstance(v, float) else str(v)


def table(s: dict[str, Any]) -> str:
    out = [f"{'':40} {'scripted':>9} {s['model']:>10}"]
    for key, label in ROWS:
        out.append(f"{label:40} {percent(s['scripted'][key]):>9} {percent(s['llm'][key]):>10}")
    u = s["llm_usage"]
    out.append(f"model answered / scripted fallback: {u['answered_by'].get('model', 0)} / "
               f"{u['answered_by'].get('scripted fallback', 0)}; {u['requests']} requests, "
               f"{u['timeouts']} timeouts, {u['tokens_per_s']} tokens/s, "
               f"{u['seconds_per_answer']} s an answer")  # fmt: skip
    out.append("")
    out.append(f"{'kind':10} {'n':>3} {'correct s/m':>11} {'non-ans s/m':>11} {'wrong s/m':>11} "
               f"{'s/ans':>6} {'tok/s':>6} {'timeouts':>9}")  # fmt: skip
    for kind, row in s["by_kind"].items():
        sc, mc = row["scripted"], row["llm"]

        def pair(key: str, sc=sc, mc=mc) -> str:
            return f"{percent(sc.get(key, '-'))}/{percent(mc.get(key, '-'))}"

        speed = row["tokens_per_s"] if row["tokens_per_s"] is not None else "-"
        out.append(f"{kind:10} {row['answers']:>3} {pair('correct_specific'):>11} "
                   f"{pair('non_answer'):>11} {pair('wrong'):>11} "
                   f"{row['seconds_per_answer'] or '-':>6} {speed:>6} "
                   f"{row['timeouts']:>3}/{row['requests']:<5}")  # fmt: skip
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base-url", default=os.environ.get("SMALLVILLE_REAL_BASE_URL", ""))
    p.add_argument("--model", default=os.environ.get("SMALLVILLE_REAL_MODEL", "qwen1.5b"))
    p.add_argument("--residents", type=int, default=3)
    p.add_argument("--questions", type=int, default=20, help="benchmark questions asked")
    p.add_argument("--phrasings", type=int, default=2, help="phrasings of each (1 or 2)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--hours", type=float, default=53.0, help="game hours the save lives")
    p.add_argument("--timeout", type=float, default=180.0, help="seconds to a first token")
    p.add_argument("--work", default=os.environ.get("SMALLVILLE_REAL_WORK", ""),
                   help="where the save, cache and audit log go "
                        "(default: the user cache folder's real-server/talk)")  # fmt: skip
    p.add_argument("--out", default="", help="write the figures here (JSON)")
    p.add_argument("--rows", default="", help="write every judged answer here (JSON lines)")
    args = p.parse_args(argv)
    if not args.base_url:
        p.error("--base-url (or SMALLVILLE_REAL_BASE_URL) is needed: a server to ask")
    work = Path(args.work).expanduser() if args.work else cache_dir() / "real-server" / "talk"
    work.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("SMALLVILLE_CACHE", str(work / "cache"))  # the endpoint memory
    save = build_save(work, args.seed, args.hours)
    audit = work / f"audit-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
    settings = LLMSettings(base_url=args.base_url, model=args.model, timeout=args.timeout,
                           max_parallel=1, embeddings=False, audit_file=str(audit))  # fmt: skip
    doc = pick(bench.load_questions(), args.questions, args.phrasings)
    began = time.perf_counter()
    found = interview_both(save, doc, args.residents, settings, audit)
    s = summary(args, *found)
    s["wall_seconds"] = round(time.perf_counter() - began, 1)
    s["audit_log"] = audit.name
    if args.rows:
        scripted, model = found[2].quotes, found[3].quotes
        rows = [{**m, "scripted_answer": s_["answer"], "scripted_verdict": s_["verdict"]}
                for m, s_ in zip(model, scripted, strict=True)]  # fmt: skip
        Path(args.rows).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    if args.out:
        Path(args.out).write_text(json.dumps(s, indent=1), encoding="utf-8")
    print(table(s), file=sys.stderr)
    print(json.dumps(s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
