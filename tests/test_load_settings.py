"""Every path that loads a save uses the settings `run` uses (game/sim/saves.py
`load_with`): `replay --load` builds the save's brain against the endpoint given on the
command line, never the default one; and a --brain that differs from the save's brain is
one line naming both."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "brains"))

from protocol_server import ProtocolServer, refused_url  # noqa: E402

from game.cli import main  # noqa: E402

KEY = "sk-test-load-settings-1234"


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", refused_url())  # the default: nobody there
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    return tmp_path


def _run(*extra: str) -> int:
    return main(["run", "--scenario", "three", "--hours", "0.25", "--quiet", *extra])


def test_replay_builds_the_saves_brain_with_the_command_lines_endpoint(data, capsys):
    with ProtocolServer(latency=0.0) as server:
        llm = ["--brain", "llm", "--base-url", server.url, "--model", "m"]
        assert _run(*llm, "--save", "recorded", "--report", str(data / "r.json")) == 0
        before = len(server.requests)
        code = main(
            ["replay", "--load", "recorded", "--quit-after", "0.05"]
            + ["--base-url", server.url, "--model", "m"]
        )
        asked = server.requests[before:]
    err = capsys.readouterr().err
    print(err[-300:])
    assert code == 0, err
    assert any(r["path"].endswith("/embeddings") for r in asked)  # the probe, here


def test_a_brain_flag_that_differs_from_the_saves_brain_is_one_line(data, capsys):
    assert _run("--save", "scripted-game", "--report", str(data / "r.json")) == 0
    capsys.readouterr()
    code = _run("--load", "scripted-game", "--brain", "llm", "--base-url", refused_url())
    err = capsys.readouterr().err.strip()
    print(err)
    assert code == 2 and len(err.splitlines()) == 1
    assert "scripted brain" in err and "llm brain" in err
