"""What the opt-in real-server tests measure, from a run's audit log: per question, how many
answers came back, how many of those that finished (not cut off by max_tokens, counted
apart) fit their schema's shape (what a grammar-bound server promises), how many passed
the semantic checks, how many re-asks came back byte-identical, and how fast it wrote.

Also runnable alone on an audit log: `python tests/real/real_figures.py audit.jsonl`.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.brains.audit import read_audit  # noqa: E402
from game.brains.llm.jsontext import Invalid, extract_json  # noqa: E402


def shape_problems(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Where `value` breaks `schema` (the subset our schemas use); [] when it fits."""
    kind = schema.get("type")
    if "enum" in schema and value not in schema["enum"]:
        return [f"{path}: not one of the options"]
    if kind == "object":
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        props = schema.get("properties", {})
        out = [f"{path}.{k}: missing" for k in schema.get("required", []) if k not in value]
        if schema.get("additionalProperties") is False:
            out += [f"{path}.{k}: not asked for" for k in value if k not in props]
        for key, sub in props.items():
            if key in value:
                out += shape_problems(value[key], sub, f"{path}.{key}")
        return out
    if kind == "array":
        if not isinstance(value, list):
            return [f"{path}: not a list"]
        low, high = schema.get("minItems", 0), schema.get("maxItems", len(value))
        out = [] if low <= len(value) <= high else [f"{path}: {len(value)} entries"]
        for i, entry in enumerate(value):
            out += shape_problems(entry, schema.get("items", {}), f"{path}[{i}]")
        return out
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{path}: not an integer"]
        low, high = schema.get("minimum", value), schema.get("maximum", value)
        return [] if low <= value <= high else [f"{path}: {value} out of range"]
    if kind == "boolean":
        return [] if isinstance(value, bool) else [f"{path}: not true/false"]
    if kind == "string":
        if not isinstance(value, str):
            return [f"{path}: not text"]
        low, high = schema.get("minLength", 0), schema.get("maxLength", len(value))
        if not low <= len(value) <= high:
            return [f"{path}: {len(value)} characters"]
        pattern = schema.get("pattern")
        return [] if not pattern or re.search(pattern, value) else [f"{path}: breaks pattern"]
    return []


@dataclass
class Tally:
    answers: int = 0
    finished: int = 0
    shaped: int = 0
    repeats: int = 0  # an answer identical to the one just rejected
    valid: int = 0
    cut_off: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        return {
            "answers": self.answers,
            "shape_pass": round(self.shaped / self.finished, 3) if self.finished else None,
            "semantic_pass": round(self.valid / self.answers, 3) if self.answers else None,
            "cut_off": self.cut_off,
            "identical_reasks": self.repeats,
            "tokens_per_s": round(self.completion_tokens / self.seconds, 1)
            if self.seconds
            else None,
        }


def read(path: Path) -> list[dict[str, Any]]:
    """Whole lines only: a run killed midway may end its log with half a line."""
    return read_audit(path)


def figures(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Per question and overall; an answer is semantically valid when no 'invalid'
    verdict follows it (the client writes the verdict on the line after the answer)."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    modes: set[str] = set()
    last: dict[tuple[str, str], str] = {}  # (question, agent) -> the answer just rejected
    failed = 0
    for i, line in enumerate(lines):
        if "error" in line and not str(line["error"]).startswith("invalid"):
            failed += 1
        if "answer" not in line or "request" not in line:
            continue
        modes.add(line.get("mode", ""))
        t = tallies[line["question"]]
        t.answers += 1
        t.completion_tokens += int(line.get("completion_tokens", 0))
        t.seconds += float(line.get("seconds", 0.0))
        cut = line.get("finish_reason") == "length"
        t.cut_off += cut
        t.finished += not cut
        key = (line["question"], line.get("agent", ""))
        reask = line["request"].get("seed") is not None
        t.repeats += reask and last.get(key) == line["answer"]
        schema = (line["request"].get("response_format") or {}).get("schema") or {}
        try:
            problems = shape_problems(extract_json(line["answer"]), schema)
        except Invalid as exc:
            problems = [str(exc)]
        t.shaped += not problems and not cut
        t.problems += problems[:1]
        verdict = lines[i + 1] if i + 1 < len(lines) else {}
        rejected = str(verdict.get("error", "")).startswith("invalid")
        last[key] = line["answer"] if rejected else ""
        t.valid += not problems and not rejected
    total = Tally()
    for t in tallies.values():
        total.answers += t.answers
        total.finished += t.finished
        total.repeats += t.repeats
        total.shaped += t.shaped
        total.valid += t.valid
        total.cut_off += t.cut_off
        total.completion_tokens += t.completion_tokens
        total.seconds += t.seconds
    return {
        "modes": sorted(modes),
        "failed_requests": failed,
        "total": total.row(),
        "by_question": {name: t.row() for name, t in sorted(tallies.items())},
        "examples_of_problems": {n: t.problems[:3] for n, t in sorted(tallies.items())},
    }


def table(found: dict[str, Any]) -> str:
    head = f"{'question':<18} {'answers':>7} {'shape':>6} {'valid':>6} {'cut':>4} {'same':>4}"
    rows = [f"{head} {'tok/s':>6}"]
    for name, row in [*found["by_question"].items(), ("total", found["total"])]:
        shape = f"{row['shape_pass']:.0%}" if row["shape_pass"] is not None else "-"
        valid = f"{row['semantic_pass']:.0%}" if row["semantic_pass"] is not None else "-"
        speed = f"{row['tokens_per_s']:.1f}" if row["tokens_per_s"] else "-"
        same = row["identical_reasks"]
        rows.append(
            f"{name:<18} {row['answers']:>7} {shape:>6} {valid:>6} {row['cut_off']:>4} "
            f"{same:>4} {speed:>6}"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    result = figures(read(Path(sys.argv[1])))
    print(table(result))
    print(json.dumps(result))
