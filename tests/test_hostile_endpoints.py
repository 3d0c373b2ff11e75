"""Hostile endpoints, one class of fault per test: the 3-resident town runs through the
command line against a protocol server that answers badly in one way every time.

Each run must end; lose no job (report and exit code agree); keep every seed memory and,
for whoever woke, the day's plan; count the bad answers as failures and fallbacks; and
leave nothing secret (the API key, forwards or reversed, or the URL's password) in any
file it wrote or on stderr."""

import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "brains"))

from protocol_server import ProtocolServer  # noqa: E402

from game.cli import main  # noqa: E402
from game.sim.saves import read_save  # noqa: E402
from game.world.scenario import load_scenario  # noqa: E402

KEY = "sk-test-7f3a9c1e5b2d4f6a8c0e"
PASSWORD = "pw-Hunter2-Zq9"
SECRETS = (KEY, KEY[::-1], PASSWORD)
CONFIG = """[llm]
timeout = 0.5
network_retries = 1
rest_seconds = 0.5
price_input_per_mtok = 1.0
price_output_per_mtok = 1.0
"""
HIDDEN = "\x00\x1b\u202e\u200b"

# Answers no question can use: every one must become a counted fallback.
BAD_ANSWERS = [
    "nested",  # an envelope nested 100,000 levels deep
    "nested_content",
    "null_message",
    "object_content",
    "error_text",  # NUL, terminal escapes, bidi marks and the key in an error message
    "drip",  # one byte every 50 ms: only a deadline on the whole request ends it
    "huge_length",  # a 2 GB Content-Length
    "gzip_bomb",  # 16 MB of zeros behind 16 KB of gzip
    "controls",  # control, bidi and zero-width characters in every string
]
# Embedding answers the client must refuse: after the probe (mid-run), or at the probe.
BAD_EMBEDDINGS = ["few_rows", "nan", "empty", "huge_dim", "ragged", "nested"]


def town_run(tmp_path, monkeypatch, capsys, setup, hours="4", extra=(), password=True):
    """The CLI's run of the three-resident town against a fault server; returns what a
    test reads: exit code, report, the save's document, stderr, the server."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(config))
    with ProtocolServer(latency=0.0) as server:
        setup(server)
        url = server.url
        if password:  # the client then sends Basic auth: its header is a secret too
            url = url.replace("http://", f"http://smallville:{PASSWORD}@")
        began = time.monotonic()
        code = main(
            ["run", "--scenario", "three", "--hours", hours, "--brain", "llm", "--model", "m"]
            + ["--base-url", url, "--quiet", "--save", "hostile"]
            + ["--report", str(tmp_path / "report.json")]
            + ["--audit-log", str(tmp_path / "data" / "audit.jsonl"), *extra]
        )
        wall = time.monotonic() - began
    err = capsys.readouterr().err
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    doc, _ = read_save("hostile", tmp_path / "data" / "saves")
    return code, report, doc, err, server, wall


def assert_whole(tmp_path, code, report, doc, err) -> None:
    """The run ended truthfully, with no job and no memory lost, and no secret kept."""
    assert report["jobs"] == {"failed": 0, "lost": 0, "unseeded": [], "failed_by_agent": {}}
    assert code == 0 and report["problems"] == []
    residents = {r.name: r for r in load_scenario("three").residents}
    woke = {e["agent"] for e in doc["log"] if e["kind"] == "wake"}
    assert woke, "someone woke within the run"
    for agent in doc["agents"]:
        texts, kinds = agent["memory"]["texts"], agent["memory"]["kinds"]
        seeds = residents[agent["name"]].seed_memories()
        assert texts[: len(seeds)] == seeds, f"{agent['name']} lost seed memories"
        if agent["name"] in woke:
            assert "plan" in kinds, f"{agent['name']} lost its plan"
    assert_no_secret(tmp_path, err)


def assert_no_secret(tmp_path, err: str) -> None:
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "audit.jsonl" for p in files)
    for path in files:
        data = path.read_bytes()
        for secret in SECRETS:
            assert secret.encode() not in data, (path.name, secret)
    assert not any(secret in err for secret in SECRETS)
    assert "\x1b" not in err and "\x00" not in err


@pytest.mark.parametrize("fault", BAD_ANSWERS)
def test_a_bad_answer_is_a_counted_fallback_and_costs_nothing_else(
    fault, tmp_path, monkeypatch, capsys
):
    def setup(server):
        server.always = fault

    code, report, doc, err, server, wall = town_run(tmp_path, monkeypatch, capsys, setup)
    assert_whole(tmp_path, code, report, doc, err)
    model = report["model"]
    assert model["failures"] > 0 and model["fallbacks"] > 0, model
    assert len(server.chat_requests()) > 0
    kept = json.dumps(doc, ensure_ascii=False)
    assert not any(ch in kept for ch in HIDDEN), "a hidden character reached the save"


def test_usage_counts_that_are_not_counts_are_estimated_so_the_budget_rises(
    tmp_path, monkeypatch, capsys
):
    """Negative, 1e400 and textual token counts: the answers are good, the counts are
    replaced by an estimate from the text, and a small budget is reached, not bypassed."""

    def setup(server):
        server.always = "bad_usage"

    extra = ["--budget-usd", "0.002"]
    code, report, doc, err, server, _ = town_run(tmp_path, monkeypatch, capsys, setup, "4", extra)
    assert_whole(tmp_path, code, report, doc, err)
    model = report["model"]
    assert model["prompt_tokens"] > 0 and model["completion_tokens"] > 0
    assert 0.002 <= model["cost_usd"] < 0.01, model["cost_usd"]
    assert model["budget_spent"].startswith("budget reached")
    assert model["fallbacks"] > 0  # past the budget the scripted brain answers


def test_a_key_echoed_in_answers_never_reaches_disk(tmp_path, monkeypatch, capsys):
    def setup(server):
        server.always = "key_echo"

    code, report, doc, err, server, _ = town_run(
        tmp_path, monkeypatch, capsys, setup, password=False
    )
    assert server.chat_requests()[0]["auth"] == f"Bearer {KEY}", "the key reached the endpoint"
    assert_whole(tmp_path, code, report, doc, err)  # and it is in no file the run wrote
    audit = (tmp_path / "data" / "audit.jsonl").read_text(encoding="utf-8")
    assert "(my key is [redacted])" in audit


EMBED_CASES = [("mid-run", f) for f in BAD_EMBEDDINGS] + [
    ("probe", f)
    for f in BAD_EMBEDDINGS
    if f != "ragged"  # the probe is a single row
]


@pytest.mark.parametrize(("when", "fault"), EMBED_CASES)
def test_bad_embeddings_are_refused_and_the_town_goes_on(
    fault, when, tmp_path, monkeypatch, capsys
):
    def setup(server):
        server.embed_always = fault
        if when == "mid-run":
            server.embed_faults.append("")  # the probe is answered well

    code, report, doc, err, _, _ = town_run(tmp_path, monkeypatch, capsys, setup, "4")
    assert_whole(tmp_path, code, report, doc, err)
    notices = " ".join(report["model"]["notices"])
    if when == "probe":
        assert not report["model"]["embedder"].startswith("openai:")
        assert "offline embedder" in notices
    else:
        assert report["model"]["embedder"].startswith("openai:")
        assert "embeddings failed" in notices or "unusable embeddings" in notices


def test_a_failing_save_is_one_line_and_the_report_is_still_written(tmp_path, monkeypatch, capsys):
    """A full disk while saving: one line, the report written, exit code 1."""
    import errno

    import game.sim.saves as saves

    def full(path, write):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(saves, "write_atomic", full)
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    report = tmp_path / "report.json"
    code = main(["run", "--scenario", "three", "--hours", "0.5", "--quiet", "--save", "s"]
                + ["--report", str(report)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1
    lines = [line for line in err.splitlines() if "could not save" in line]
    assert len(lines) == 1 and "the disk is full" in lines[0]
    assert "Traceback" not in err
    written = json.loads(report.read_text())
    assert written["problems"] and "the disk is full" in written["problems"][0]


@pytest.mark.parametrize("hours", ["nan", "inf", "-1", "1e9", "0"])
def test_hours_out_of_range_are_one_line(hours, capsys):
    assert main(["run", "--hours", hours, "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --hours must be") and "\n" not in err


@pytest.mark.parametrize("flag", [["--budget-usd", "nan"], ["--max-calls", "-5"]])
def test_caps_out_of_range_are_one_line(flag, capsys):
    assert main(["run", "--hours", "1", "--quiet", *flag]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err


def test_config_never_shows_a_url_password(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "none.toml"))
    assert main(["config", "--base-url", f"http://me:{PASSWORD}@localhost:1/v1"]) == 0
    out = capsys.readouterr().out
    assert PASSWORD not in out and 'base_url = "http://localhost:1/v1"' in out
