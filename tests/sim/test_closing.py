"""Ending a run or closing the window cancels the model requests in flight: against a
server that never answers (and a client timeout far longer than the test), closing the
simulation, or the window with the dummy video driver, returns within about a second,
and the cognition threads end too (a process can then exit)."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "brains"))

from llm_helpers import settings  # noqa: E402
from protocol_server import ProtocolServer  # noqa: E402

from game.sim.factory import build_simulation  # noqa: E402
from game.sim.simulation import ClockMode  # noqa: E402

BOUND = 3.0  # seconds: "within a second", with room for a loaded machine
HANG = 60.0  # how long the server sits on every chat request


@pytest.fixture
def hanging():
    with ProtocolServer(latency=0.0) as server:
        server.always = "hang"
        server.hang_seconds = HANG
        yield server


def _llm(server, tmp_path):
    return settings(server.url, tmp_path, timeout=HANG, network_retries=0)


def _in_flight(sim, server, limit: float = 20.0) -> None:
    """Step until the server holds chat requests it will not answer."""
    end = time.monotonic() + limit
    while not server.chat_requests():
        assert time.monotonic() < end, "no request reached the server"
        sim.step()
        time.sleep(0.01)


def _cognition_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(("mind", "ThreadPool"))]


def _closed_within(close) -> float:
    before = {t.ident for t in threading.enumerate()}
    began = time.monotonic()
    close()
    returned = time.monotonic() - began
    while any(t.ident not in before or t.is_alive() for t in _cognition_threads()):
        if time.monotonic() - began > BOUND:
            break
        time.sleep(0.02)
    ended = time.monotonic() - began
    print(f"close returned in {returned:.2f} s; its threads ended in {ended:.2f} s")
    assert returned < BOUND
    assert not [t.name for t in _cognition_threads() if t.is_alive()]
    return returned


def test_closing_a_simulation_cancels_requests_in_flight(hanging, tmp_path):
    sim = build_simulation(
        "three", seed=1, brain="llm", llm=_llm(hanging, tmp_path), mode=ClockMode.REALTIME
    )
    _in_flight(sim, hanging)
    _closed_within(sim.close)


def test_closing_the_window_cancels_requests_in_flight(hanging, tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    from game.ui.app import App, Options

    app = App(Options(brain="llm", llm=_llm(hanging, tmp_path), workers=2, autosave_minutes=0))
    app.begin("Visitor", "three")
    sim = app.stack.top.sim
    _in_flight(sim, hanging)
    _closed_within(app.close)
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"
