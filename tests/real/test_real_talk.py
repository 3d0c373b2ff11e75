"""Opt-in: a real model answers a scripted save's interviews (`--talk-brain llm`), judged
beside the scripted brain on the conversation benchmark's questions
(tests/real/talk_interviews.py). Skipped unless SMALLVILLE_REAL_BASE_URL is set and
SMALLVILLE_REAL_TALK=1 (tools/real_server.py --talk sets both).

    SMALLVILLE_REAL_TALK_ARGS   more arguments for talk_interviews.py, e.g.
                                "--residents 2 --questions 10"
    SMALLVILLE_REAL_FIGURES     the figures go beside it as <name>.talk.json

What is asserted is what any model must do: every answer judged for both brains, the
model asked and answering (not the scripted fallback for all of them). The rates are
measured and printed, not asserted.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

BASE_URL = os.environ.get("SMALLVILLE_REAL_BASE_URL", "")
TALK = os.environ.get("SMALLVILLE_REAL_TALK", "") == "1"
HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(
    not (BASE_URL and TALK), reason="set SMALLVILLE_REAL_BASE_URL and SMALLVILLE_REAL_TALK=1"
)


def test_the_model_answers_a_scripted_saves_interviews_beside_the_scripted_brain(tmp_path):
    out = tmp_path / "talk.json"
    target = os.environ.get("SMALLVILLE_REAL_FIGURES")
    if target:
        out = Path(target).with_suffix(".talk.json")
    extra = shlex.split(os.environ.get("SMALLVILLE_REAL_TALK_ARGS", ""))
    command = [sys.executable, str(HERE / "talk_interviews.py"), "--out", str(out), *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=6 * 3600)
    print(done.stderr[-6000:])
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(out.read_text(encoding="utf-8"))
    assert found["scripted"]["answers"] == found["llm"]["answers"] > 0
    by = found["llm_usage"]["answered_by"]
    assert by.get("model", 0) > 0, by
    assert sum(by.values()) == found["llm_usage"]["answers"]
