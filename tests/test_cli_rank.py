"""`evaluate --rank` end to end through main.py against the local protocol server (issue 23,
item 4): a scripted save's battery answered under each condition and by a human file,
ranked by a fake judge whose preference is known (the longer answer is the more
believable), and the report's ratings checked against the Weng-Lin update worked here
from the orders that preference gives. Without a model judge, one line and no ranking."""

from __future__ import annotations

import json
import math
import re
import sys
from itertools import combinations
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "brains"))

from llm_helpers import run_main  # noqa: E402
from protocol_server import ProtocolServer  # noqa: E402

KLAUS = "Klaus Mueller"
CONDITIONS = ("full", "no reflection", "no reflection or planning", "no memory")
# Longer than anything the scripted brain says, so the human is always first.
HUMAN = {
    "What is your occupation?": "I'm a sociology student at Oak Hill College. " * 14,
    "Who do you live with?": "I share the dorm with other students; we cook together. " * 12,
}


def shown_of(prompt: str) -> dict[str, str]:
    """The labelled answers as the judge's prompt lists them ('A. "words"')."""
    return {k: json.loads(v) for k, v in re.findall(r'^([A-Z])\. (".*")$', prompt, re.M)}


def longest_first(shown: dict[str, str]) -> list[str]:
    return sorted(shown, key=lambda k: (-len(shown[k]), k))


def judge_by_length(schema: dict, prompt: str) -> dict:
    return {"order": longest_first(shown_of(prompt))}


@pytest.fixture(scope="module")
def save(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("rank")
    done = run_main(
        ["run", "--scenario", "three", "--hours", "3", "--seed", "4", "--save", "plain",
         "--report", "r.json", "--quiet"],
        tmp,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return tmp


def one_line_error(done) -> str:
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def weng_lin(matches: list[dict[str, int]]) -> dict[str, tuple[float, float]]:
    """Weng and Lin's Plackett-Luce update as their Algorithm 4 states it, one player a
    team: mu 25, sigma 25/3, beta 25/6, kappa 1e-4, gamma = sigma / c, no drift."""
    mu: dict[str, float] = {}
    var: dict[str, float] = {}
    for places in matches:
        for k in places:
            mu.setdefault(k, 25.0), var.setdefault(k, (25 / 3) ** 2)
        c = math.sqrt(sum(var[k] + (25 / 6) ** 2 for k in places))
        e = {k: math.exp(mu[k] / c) for k in places}
        new = {}
        for i in places:
            omega = delta = 0.0
            for q in places:
                if places[q] > places[i]:
                    continue
                a_q = sum(places[s] == places[q] for s in places)
                p = e[i] / sum(e[s] for s in places if places[s] >= places[q])
                omega += ((i == q) - p) / a_q
                delta += p * (1 - p) / a_q
            gamma = math.sqrt(var[i]) / c
            new[i] = (
                mu[i] + var[i] / c * omega,
                var[i] * max(1 - gamma * var[i] / c**2 * delta, 1e-4),
            )
        for k, (m, v) in new.items():
            mu[k], var[k] = m, v
    return {k: (mu[k], math.sqrt(var[k])) for k in mu}


def test_the_fake_judges_rankings_give_the_hand_worked_ratings(save, tmp_path):
    human = tmp_path / "human.jsonl"
    rows = [{"agent": KLAUS, "question": q, "answer": a} for q, a in HUMAN.items()]
    human.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with ProtocolServer() as server:
        server.makers["rank"] = judge_by_length
        done = run_main(
            ["evaluate", "--load", "plain", "--rank", "--judge", "llm", "--human", str(human),
             "--base-url", server.url, "--model", "M", "--report", "e.json"],
            save,
            timeout=600,
        )  # fmt: skip
        prompts = [
            r["body"]["messages"][1]["content"]
            for r in server.chat_requests()
            if "for believability" in r["body"]["messages"][1]["content"]
        ]
    assert done.returncode == 0, done.stderr
    assert "believability:" in done.stdout and "d(human over full)" in done.stdout
    section = json.loads((save / "e.json").read_text(encoding="utf-8"))["believability"]
    rankings = [r for r in section["rankings"] if r["order"]]
    assert len(rankings) == len(prompts) == section["matches"]["judged"] > 0

    # what the judge saw: the answers alone, shuffled, no condition named
    for prompt in prompts:
        assert not any(c in prompt for c in (*CONDITIONS, "human", "condition"))
    assert len({r["who"]["full"] for r in rankings}) > 1

    # the report's order is the fake's preference, read back through the labels
    places: list[dict[str, int]] = []
    for r in rankings:
        order = longest_first(r["shown"])
        assert r["order"] == order
        places.append({c: order.index(label) for c, label in r["who"].items()})
    human_rankings = [p for p in places if "human" in p]
    assert len(human_rankings) == 2 and all(p["human"] == 0 for p in human_rankings)

    # the ratings, worked from those places
    expected = weng_lin(places)
    got = section["conditions"]
    assert set(got) == set(expected) == {*CONDITIONS, "human"}
    for c, (mu, sigma) in expected.items():
        assert (got[c]["mu"], got[c]["sigma"]) == pytest.approx((mu, sigma), abs=1e-4)
    assert got["human"]["mean_rank"] == 1 and got["human"]["matches"] == 2
    assert list(got) == sorted(got, key=lambda c: -got[c]["mu"])

    # Cohen's d from the per-match ranks (ties share the mean of their places)
    def ranks(p: dict[str, int]) -> dict[str, float]:
        out, first = {}, 1
        for place in sorted(set(p.values())):
            group = [c for c in p if p[c] == place]
            out |= {c: first + (len(group) - 1) / 2 for c in group}
            first += len(group)
        return out

    per_match = [ranks(p) for p in places]
    effects = {(e["a"], e["b"]): e for e in section["effects"]}
    for a, b in combinations((*CONDITIONS, "human"), 2):
        both = [m for m in per_match if a in m and b in m]
        xa, xb = [m[a] for m in both], [m[b] for m in both]
        ss = sum((x - sum(xa) / len(xa)) ** 2 for x in xa)
        ss += sum((x - sum(xb) / len(xb)) ** 2 for x in xb)
        pooled = math.sqrt(ss / (2 * len(both) - 2))
        d = None if pooled == 0 else (sum(xb) - sum(xa)) / len(both) / pooled
        effect = effects[a, b] if (a, b) in effects else effects[b, a]
        sign = 1 if (a, b) in effects else -1
        assert effect["matches"] == len(both)
        if d is None:
            assert effect["cohens_d"] is None
        else:
            assert effect["cohens_d"] == pytest.approx(sign * d, abs=1e-4)


def test_without_a_model_judge_the_command_says_so_and_ranks_nothing(save):
    line = one_line_error(run_main(["evaluate", "--load", "plain", "--rank"], save))
    assert "--rank needs a model judge (--judge llm" in line
    line = one_line_error(run_main(["evaluate", "--load", "plain", "--human", "h.jsonl"], save))
    assert "--human FILE is the baseline of --rank" in line


def test_a_wrong_human_file_is_refused_before_anything_is_asked(save, tmp_path):
    human = tmp_path / "human.jsonl"
    human.write_text('{"agent": "Nobody", "question": "Hi?", "answer": "x"}\n', encoding="utf-8")
    with ProtocolServer() as server:
        done = run_main(
            ["evaluate", "--load", "plain", "--rank", "--judge", "llm", "--human", str(human),
             "--base-url", server.url, "--model", "M"],
            save,
        )  # fmt: skip
        assert server.chat_requests() == []
    assert "line 1: no resident named 'Nobody'" in one_line_error(done)
