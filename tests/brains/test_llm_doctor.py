"""`doctor` against the local protocol server: which output modes and embeddings work,
whether requests are served one at a time, and the verdict kept for the next run."""

from __future__ import annotations

from llm_helpers import run_main, settings
from protocol_server import ProtocolServer

from game.brains.llm import doctor
from game.brains.llm.doctor import Verdict, check, remember
from game.brains.llm.openai_chat import OpenAIChat
from game.brains.llm.settled import EndpointMemory
from game.core.config import OutputMode


def test_a_llama_like_server_gets_json_object_and_one_request_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))
    with ProtocolServer(latency=0.1, slots=1) as server:
        server.like_llama(embeddings=True)
        verdict = check(settings(server.url, tmp_path))
    assert verdict.modes["json_schema"].startswith("refused (500")
    assert verdict.mode is OutputMode.JSON_OBJECT and verdict.modes["text"] == "works"
    assert "one vector per token" in verdict.embeddings
    assert verdict.follows_schema == "3 of 3" and verdict.max_parallel == 1
    assert verdict.settings() == {
        "output_mode": "json_object",
        "max_parallel": 1,
        "timeout": 30,
        "embeddings": False,
    }
    remember(verdict)
    kept = EndpointMemory().get(server.url, "test-model")
    assert (kept.mode, kept.max_parallel) == (OutputMode.JSON_OBJECT, 1)
    assert kept.verdict.startswith("usable in json_object mode")


def test_a_server_that_stops_a_running_answer_for_the_next_serves_one_at_a_time(
    tmp_path, monkeypatch
) -> None:
    """llama-cpp-python's server ends a streaming answer with [DONE] and no finish reason
    when another request waits (interrupt_requests): the pair then has one answer, which
    used to read as 'in parallel' (Qwen 1.5B, 2 of 2 tries), and a run sending two at
    once would have each request cut short by the next."""
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))
    said: list[str] = []
    with ProtocolServer(latency=0.02, slots=1) as server:
        server.like_llama()
        server.interrupts = True
        server.token_seconds = 0.01
        verdict = check(settings(server.url, tmp_path), said.append)
        interrupted = [log for log in server.streams if log.interrupted]
    assert interrupted, "the pair never met: the test server did not interrupt"
    assert verdict.max_parallel == 1 and verdict.settings()["max_parallel"] == 1
    serving = next(line for line in said if "serving" in line)
    assert "one at a time" in serving and "the pair failed" in serving


def test_the_serving_probe_waits_for_a_slow_first_token_whatever_the_timeout(
    tmp_path,
) -> None:
    """Qwen 1.5B on a shared CPU read the probe's prompt cold in over the default 60 s:
    the probe was given up, its speed unmeasured, and the verdict said 'in parallel'
    with a 30 s deadline. The probe has its own deadline; unmeasured serving says so."""
    said: list[str] = []
    with ProtocolServer(latency=0.0, slots=1) as server:
        server.like_llama()
        server.first_token_seconds = 0.6
        chat = OpenAIChat(server.url, lambda: "sk-test", timeout=0.4)
        try:
            timing = doctor._timing(chat, settings(server.url, tmp_path), frozenset(), said.append)
        finally:
            chat.close()
    assert timing is not None and timing.speed > 0 and timing.serial, said
    unmeasured = Verdict("u", "m", {}, OutputMode.TEXT, "", 0.2, 0.0, "3 of 3", 0)
    assert "serving not measured" in unmeasured.line()


def test_a_parallel_server_with_everything(tmp_path) -> None:
    with ProtocolServer(latency=0.1, slots=8) as server:
        verdict = check(settings(server.url, tmp_path))
    assert verdict.mode is OutputMode.JSON_SCHEMA and verdict.max_parallel == 0
    assert verdict.embeddings.startswith("works (64 dimensions)")


def test_the_doctor_command_prints_a_verdict_and_fails_on_a_dead_endpoint(tmp_path) -> None:
    with ProtocolServer() as server:
        server.like_llama()
        done = run_main(["doctor", "--base-url", server.url, "--model", "m"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "verdict: usable in json_object mode" in done.stdout
    assert 'output_mode = "json_object"' in done.stdout
    dead = run_main(["doctor", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"], tmp_path)
    assert dead.returncode == 1 and "verdict: unusable" in dead.stdout
