"""Shared set-up for the language-model brain's tests: a real local server, settings that
write only under tmp_path, and a resident to ask about."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from functools import cache
from pathlib import Path

from protocol_server import ProtocolServer

from game.brains.audit import AuditLog
from game.brains.budget import BudgetGuard
from game.brains.llm.client import ChatClient
from game.brains.questions import AgentContext
from game.brains.scripted import ScriptedBrain
from game.brains.usage import UsageMeter
from game.core.config import LLMSettings
from game.core.records import MemoryKind, MemoryRecord, Source
from game.mind import facts
from game.world.scenario import Resident, load_world

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2023, 2, 13, 9, 0)
SECRET = "sk-test-DO-NOT-LEAK-4242424242"


def serve() -> Iterator[ProtocolServer]:
    """The body of each test module's `server` fixture: a fresh server. (What an endpoint
    accepts is remembered per client, so nothing carries over between tests.)"""
    with ProtocolServer(latency=0.0) as s:
        yield s


@cache
def world():
    return load_world("three")


def resident(name: str = "Klaus Mueller") -> Resident:
    return world()[0].resident(name)


def town():
    return world()[1]


def memory(i: int, text: str) -> MemoryRecord:
    return MemoryRecord(
        i, MemoryKind.OBSERVATION, text, NOW, 3, facts.statement("", text, Source.SEEN)
    )


def ctx(name: str = "Klaus Mueller", memories=(), status: str = "reading") -> AgentContext:
    p = resident(name)
    return AgentContext(
        persona=p,
        now=NOW,
        summary=f"{p.name} is {p.occupation}.",
        location=p.home,
        status=status,
        memories=tuple(memories),
        known_places=(p.home, "Hobbs Cafe"),
    )


def settings(url: str, tmp: Path, **changes) -> LLMSettings:
    base = {
        "base_url": url,
        "model": "test-model",
        "audit_file": str(tmp / "audit.jsonl"),
        "network_retries": 2,
        "timeout": 5.0,
        "remember_endpoint": False,  # ports are reused: a test's rung must not leak on
    }
    return LLMSettings(**{**base, **changes})


def client(s: LLMSettings, waits: list[float] | None = None) -> tuple[ChatClient, list[str]]:
    """A client whose backoff sleeps are recorded (and short), and the notices it gave."""
    notices: list[str] = []
    meter = UsageMeter()
    waits = waits if waits is not None else []

    def sleep(seconds: float) -> None:
        waits.append(seconds)

    made = ChatClient(
        s,
        ScriptedBrain(0),
        meter,
        BudgetGuard(meter, s.budget_usd, s.max_calls),
        AuditLog(Path(s.audit_file) if s.audit_file else None),
        notify=notices.append,
        sleep=sleep,
    )
    return made, notices


def run_main(args: list[str], tmp: Path, key: str = SECRET, timeout: float = 120):
    """`python main.py ...` with every user folder under tmp and the key in the env."""
    env = {
        **os.environ,
        "SMALLVILLE_DATA": str(tmp / "data"),
        "SMALLVILLE_CONFIG": str(tmp / "no-config.toml"),
        "XDG_CACHE_HOME": str(tmp / "cache"),
        "SMALLVILLE_CACHE": str(tmp / "cache"),  # the settled modes of this test alone
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_DATA_HOME": str(tmp / "xdg-data"),
        "OPENAI_API_KEY": key,
    }
    env.pop("OPENAI_BASE_URL", None)
    env.pop("SMALLVILLE_MODEL", None)
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
