"""The audit wrapper alone: a line per request with its reply or its failure, a line per
embeddings batch sent, and no secret in the file."""

from __future__ import annotations

import json

import pytest
from llm_fakes import FakeModel, ask

from game.brains.audit import REDACTED, AuditLog
from game.brains.llm.auditing import Audited
from game.brains.llm.model import ChatReply, EmbedReply, EmbedRequest, EndpointDown, Transient

KEY = "sk-audit-test-987654"


def lines(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_a_request_and_its_reply_or_failure_are_one_line_each(tmp_path) -> None:
    log = AuditLog(tmp_path / "a.jsonl")
    reply = ChatReply('{"ratings": [4]}', 30, 6, 0.1234, "stop", replayed=True)
    model = Audited(FakeModel(reply, Transient("server error (500); gave up")), log, "http://x")
    model.chat(ask("first"))
    with pytest.raises(Transient):
        model.chat(ask("second"))
    log.close()
    ok, failed = lines(tmp_path / "a.jsonl")
    assert ok["question"] == "importance" and ok["agent"] == "Klaus" and ok["model"] == "m"
    assert ok["endpoint"] == "http://x" and ok["messages"][1] == {
        "role": "user",
        "content": "first",
    }
    assert (ok["answer"], ok["prompt_tokens"], ok["completion_tokens"]) == (
        '{"ratings": [4]}',
        30,
        6,
    )
    assert ok["seconds"] == 0.123 and ok["replayed"] is True and ok["finish_reason"] == "stop"
    assert failed["error"] == "server error (500); gave up" and "answer" not in failed
    assert failed["messages"][1]["content"] == "second"


def test_an_echoed_key_is_redacted(tmp_path) -> None:
    log = AuditLog(tmp_path / "a.jsonl", secrets=[KEY])
    model = Audited(FakeModel(EndpointDown(f"Incorrect API key provided: {KEY}")), log)
    with pytest.raises(EndpointDown):
        model.chat(ask())
    log.close()
    text = (tmp_path / "a.jsonl").read_text()
    assert KEY not in text and REDACTED in text


def test_embeddings_batches_sent_are_logged_and_replayed_ones_not(tmp_path) -> None:
    log = AuditLog(tmp_path / "a.jsonl")
    replayed = EmbedReply(((1.0,),), replayed=True)
    model = Audited(FakeModel(EmbedReply(((1.0,), (2.0,)), 9, 0.5), replayed), log)
    model.embed(EmbedRequest(("a", "b"), "e"))
    model.embed(EmbedRequest(("a",), "e"))
    log.close()
    (only,) = lines(tmp_path / "a.jsonl")
    assert only["question"] == "embeddings" and only["texts"] == 2 and only["prompt_tokens"] == 9


def test_the_audit_log_clips_long_strings_and_rolls_past_its_size(tmp_path):
    import json as _json

    from game.brains.audit import MAX_FIELD, AuditLog

    path = tmp_path / "audit.jsonl"
    log = AuditLog(path, max_bytes=50_000)
    for i in range(40):
        log.write({"question": "plan", "answer": "x" * 100_000, "n": i})
    log.close()
    rolled = path.with_name("audit.jsonl.1")
    assert rolled.is_file() and path.stat().st_size <= 50_000
    last = [_json.loads(line) for line in path.read_text().splitlines()][-1]
    assert last["n"] == 39 and len(last["answer"]) < MAX_FIELD + 100


def test_an_audit_folder_that_cannot_be_written_turns_the_log_off_not_the_run(tmp_path):
    from game.brains.audit import AuditLog

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be")
    log = AuditLog(blocker / "audit" / "llm.jsonl")
    log.write({"question": "plan"})  # no error
    log.close()
    assert "cannot be written" in log.problem and "\n" not in log.problem


def test_url_passwords_and_reversed_keys_are_redacted():
    from game.brains.audit import redact, url_secrets

    url = "http://me:s3cret-pass@host:8/v1"
    line = redact(
        f"cannot reach {url}; key ssap-terc3s; yek-terces", url_secrets(url) + ["secret-key"]
    )
    assert "s3cret-pass" not in line and "ssap-terc3s" not in line and "yek-terces" not in line


def test_a_full_disk_leaves_the_audit_log_whole_lines_and_turns_it_off(tmp_path, monkeypatch):
    """A buffered file left half a line when the disk filled. A write that fails midway
    (a few bytes out, then ENOSPC) is cut back off."""
    import errno
    import os

    import game.brains.audit as audit

    path = tmp_path / "audit.jsonl"
    log = AuditLog(path)
    log.write({"question": "first"})
    real = os.write

    def full(fd: int, data) -> int:
        if len(data) > 8:
            return real(fd, bytes(data[:8]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(audit.os, "write", full)
    log.write({"question": "second", "answer": "x" * 500})
    monkeypatch.setattr(audit.os, "write", real)
    log.write({"question": "third"})  # the log is off: nothing more
    log.close()
    assert "cannot be written" in log.problem
    assert [r["question"] for r in lines(path)] == ["first"]


def test_a_reader_passes_over_a_half_last_line_and_damaged_lines(tmp_path):
    from game.brains.audit import read_audit

    path = tmp_path / "audit.jsonl"
    path.write_bytes(b'{"question": "a"}\nnot json\n[1]\n{"question": "b"}\n{"question": "c", "ans')
    assert [r["question"] for r in read_audit(path)] == ["a", "b"]
