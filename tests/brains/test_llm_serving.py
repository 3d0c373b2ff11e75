"""How requests are served and shown (issue 22, part 4 and its small things), against the
real local protocol server: doctor's one-at-a-time measure per generated token with
answers of one length, the speed it keeps for the answer budgets, `config` showing the
cached settings with where each came from, max_tokens from the answer's schema, the
progress line ending before the next message, and the embeddings notice saying which
way an endpoint's embeddings failed."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
from llm_helpers import client, resident, serve, settings
from protocol_server import ProtocolServer

from game.brains import questions as B
from game.brains.audit import AuditLog
from game.brains.budget import BudgetGuard
from game.brains.llm import specs as Q
from game.brains.llm.doctor import FILL_TOKENS, check, remember
from game.brains.llm.embedder import open_embedder
from game.brains.llm.model import Signals
from game.brains.llm.room import answer_room, max_tokens_for
from game.brains.llm.settled import EndpointMemory, described, effective
from game.brains.llm.stack import Ledgers, build_model
from game.brains.usage import UsageMeter
from game.core.config import Config, OutputMode
from game.core.records import MemoryKind, Source
from game.mind import facts
from game.progress import ProgressLine


@pytest.fixture
def server():
    yield from serve()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))
    return EndpointMemory()


# -- doctor ------------------------------------------------------------------------------------


def fills(server: ProtocolServer) -> list[dict]:
    """The timing probe's requests: plain text with no schema."""
    return [r["body"] for r in server.chat_requests() if "Count from 1" in json.dumps(r["body"])]


def test_doctor_tells_one_at_a_time_serving_per_token_with_equal_lengths(tmp_path, cache):
    with ProtocolServer(slots=1) as server:
        server.token_seconds = 0.01  # a 32-token answer in about a third of a second
        verdict = check(settings(server.url, tmp_path))
        probes = fills(server)
    assert verdict.max_parallel == 1 and "one request at a time" in verdict.line()
    assert len(probes) == 4 and {b["max_tokens"] for b in probes} == {FILL_TOKENS}
    assert all("response_format" not in b for b in probes)
    assert f"({FILL_TOKENS} and {FILL_TOKENS} and {FILL_TOKENS} tokens)" in verdict.serving
    assert "lengths differ" not in verdict.serving
    assert 40 < verdict.tokens_per_second < 150  # 100 a second, less the server's overhead
    assert verdict.prompt_speed > 0 and verdict.settings()["timeout"] == 30  # reads fast
    remember(verdict)
    kept = cache.get(server.url, "test-model")
    assert kept.max_parallel == 1 and kept.tokens_per_second == round(verdict.tokens_per_second, 2)
    assert kept.mode_from == "doctor" and kept.first_token == 30


def test_doctor_sees_a_batching_server_serve_in_parallel(tmp_path, cache) -> None:
    with ProtocolServer(slots=4) as server:
        server.token_seconds = 0.01
        verdict = check(settings(server.url, tmp_path))
    assert verdict.max_parallel == 0 and "requests in parallel" in verdict.line()


def test_a_run_makes_its_budgets_from_the_speed_doctor_kept(tmp_path, cache) -> None:
    url = "http://127.0.0.1:9/v1"
    cache.put(url, "test-model", mode=OutputMode.JSON_OBJECT, max_parallel=1, tokens_per_second=4.0)
    s = settings(url, tmp_path, remember_endpoint=True)
    meter = UsageMeter()
    ledgers = Ledgers(meter, BudgetGuard(meter), AuditLog(None))
    stack = build_model(s, ledgers, Signals())
    assert stack.transport.pace.tokens_per_second == 4.0
    assert stack.transport.pace.budget(1500) == 750.0
    assert stack.ladder.mode is OutputMode.JSON_OBJECT


def test_the_first_token_deadline_covers_the_longest_prompt_at_the_measured_reading_speed(
    tmp_path, cache
) -> None:
    """A CPU that reads 40 prompt tokens a second needs 100 s for a 2,000-token prompt,
    twice that to be safe; a run with the timeout left at its default takes it, a run
    given a timeout keeps its own."""
    from game.brains.llm.doctor import Verdict

    slow = Verdict("u", "m", {}, OutputMode.JSON_OBJECT, "", 0.5, 4.0, "3 of 3", 1, [], "", 40.0)
    assert slow.first_token_deadline() == 100
    url = "http://127.0.0.1:9/v1"
    cache.put(url, "test-model", first_token=100)
    left = effective(settings(url, tmp_path, remember_endpoint=True, timeout=60.0))
    assert (left.first_token.value, left.first_token.source) == (100, "doctor cache")
    given = effective(settings(url, tmp_path, remember_endpoint=True, timeout=180.0))
    assert given.first_token.value == 180.0


# -- config ------------------------------------------------------------------------------------


def test_config_shows_the_cached_settings_and_where_each_came_from(tmp_path, cache) -> None:
    url = "http://127.0.0.1:9/v1"
    cache.put(url, "m", mode=OutputMode.JSON_OBJECT, mode_from="doctor", max_parallel=1)
    cache.put(url, "m", tokens_per_second=3.8)
    config = Config(llm=settings(url, tmp_path, model="m", remember_endpoint=True))
    text = described(config)
    assert 'output_mode = "json_object"  # doctor cache; auto starts here' in text
    assert "max_parallel = 1  # doctor cache" in text
    assert "first token within 5 s: timeout (default)" in text
    assert "2 x max_tokens / 3.8 tokens/s (doctor cache), at least 10 s" in text
    assert "789 s for 1,500 tokens" in text
    flags = {"llm.output_mode": "flag", "llm.max_parallel": "flag", "llm.timeout": "flag"}
    llm = settings(url, tmp_path, model="m", remember_endpoint=True)
    forced = Config(
        llm=llm.__class__(**{**llm.__dict__, "output_mode": OutputMode.TEXT, "max_parallel": 4}),
        sources=flags,
    )
    text = described(forced)
    assert 'output_mode = "text"  # flag' in text and "max_parallel = 4  # flag" in text
    assert "first token within 5 s: timeout (flag)" in text


def test_config_without_a_cache_says_the_speed_is_assumed(tmp_path, cache) -> None:
    known = effective(settings("http://127.0.0.1:9/v1", tmp_path, remember_endpoint=True))
    assert known.output_mode.value is OutputMode.AUTO and known.output_mode.source == "default"
    text = described(Config(llm=settings("http://127.0.0.1:9/v1", tmp_path)))
    assert "2 tokens/s (assumed: not measured: run doctor)" in text


def test_the_config_command_prints_the_cached_mode(tmp_path, cache, monkeypatch, capsys):
    from game.cli import main

    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "none.toml"))
    cache.put("http://127.0.0.1:9/v1", "m", mode=OutputMode.JSON_OBJECT, mode_from="doctor")
    assert main(["config", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]) == 0
    out = capsys.readouterr().out
    assert 'output_mode = "json_object"  # doctor cache' in out
    assert "# then the answer's budget" in out


# -- max_tokens from the schema ----------------------------------------------------------------


def draft(text: str) -> B.Draft:
    return B.Draft(MemoryKind.OBSERVATION, text, facts.statement("", text, Source.SEEN))


def test_max_tokens_come_from_the_schema_and_never_exceed_the_declared_ceiling() -> None:
    one = B.RateImportance(resident(), (draft("Klaus is reading"),))
    schema = Q.IMPORTANCE.schema(one)
    assert max_tokens_for(schema, Q.IMPORTANCE.max_tokens) < Q.IMPORTANCE.max_tokens
    small = {"type": "object", "properties": {"area": {"type": "string", "enum": ["cafe", "park"]}}}
    assert answer_room(small) < 40
    long = {"type": "object", "properties": {"t": {"type": "string", "maxLength": 6000}}}
    assert max_tokens_for(long, 400) == 400
    assert answer_room({"type": "array", "items": long, "maxItems": 1000}) == 4096


def test_a_question_is_sent_with_its_schema_room(tmp_path, server) -> None:
    chat, _ = client(settings(server.url, tmp_path))
    q = B.RateImportance(resident(), (draft("Klaus is reading"), draft("Maria is painting")))
    request = chat.request_for(Q.IMPORTANCE, q)
    assert request.max_tokens == answer_room(request.schema) < Q.IMPORTANCE.max_tokens
    assert chat.ask(Q.IMPORTANCE, q) and server.chat_requests()[-1]["body"]["max_tokens"] == (
        request.max_tokens
    )


# -- the progress line -------------------------------------------------------------------------


def test_the_progress_line_ends_before_anything_else_is_written() -> None:
    out = io.StringIO()
    line = ProgressLine(out)
    line.show("04:01   10.0%   1 steps/s")
    line.say("a notice")
    line.show("04:02  100.0%   2 steps/s")
    line.end()
    line.end()  # nothing open: nothing written
    print("saved to x", file=out)
    assert out.getvalue() == (
        "\r04:01   10.0%   1 steps/s\na notice\n\r04:01   10.0%   1 steps/s"
        "\r04:02  100.0%   2 steps/s\nsaved to x\n"
    )


def test_warnings_logged_during_a_run_get_their_own_line() -> None:
    out = io.StringIO()
    line = ProgressLine(out)
    line.show("1 steps/s")
    with line.taking_logs():
        logging.getLogger("smallville.llm").warning("the endpoint rests")
    assert "1 steps/s\nthe endpoint rests\n" in out.getvalue()


def test_a_run_says_saved_on_a_line_of_its_own(tmp_path, monkeypatch, capsys) -> None:
    from game.cli import main

    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "none.toml"))
    report = tmp_path / "r.json"
    args = ["run", "--scenario", "three", "--hours", "0.05", "--save", "p", "--report"]
    assert main([*args, str(report)]) == 0
    err = capsys.readouterr().err
    assert "steps/s" in err and "steps/ssaved" not in err
    assert re.search(r"steps/s *\nsaved to ", err), err


# -- the embeddings notice ---------------------------------------------------------------------


def notice(server: ProtocolServer, tmp_path) -> str:
    chat, _ = client(settings(server.url, tmp_path))
    said: list[str] = []
    embedder = open_embedder(chat, True, "e", 16, said.append)
    assert embedder.name.startswith("hash") and len(said) == 1
    return said[0]


def test_the_embeddings_notice_tells_no_endpoint_from_per_token_vectors(tmp_path) -> None:
    with ProtocolServer() as server:
        server.embeddings = False
        missing = notice(server, tmp_path)
    with ProtocolServer() as server:
        server.like_llama(embeddings=True)
        per_token = notice(server, tmp_path)
    assert "has no /v1/embeddings (404" in missing and "per token" not in missing
    assert "answered one vector per token" in per_token
    assert "has no /v1/embeddings" not in per_token
    assert all("offline embedder" in n for n in (missing, per_token))
