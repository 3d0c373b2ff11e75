"""The API key set through the settings screen (issue 14): typed with scripted input events
into a masked box, written only to the config file (0600), then used by a run against the
local protocol server, and found in no save, report, audit log or error output."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pygame

from game.cli import main
from game.ui.input import click_events, key_event, text_event
from tests.ui.helpers import frames

sys.path.insert(0, str(Path(__file__).parents[1] / "brains"))

from protocol_server import ProtocolServer  # noqa: E402

KEY = "sk-typed-in-the-screen-4f2a9d"


def post(app, events) -> None:
    for event in events:
        app.handle(event)


def type_into(app, box, text: str) -> None:
    post(app, click_events(box.rect.center))
    post(app, [text_event(text)])


def test_the_key_typed_in_the_settings_goes_only_to_the_config_file(
    make_app, tmp_path, monkeypatch, capsys
):
    config = tmp_path / "config" / "config.toml"
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(config))
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with ProtocolServer() as server:
        app = make_app()
        frames(app, 1)
        post(app, [key_event(pygame.K_ESCAPE)])
        frames(app, 1)
        settings = app.stack.top
        assert "not set" in settings.key_box.placeholder
        type_into(app, settings.url_box, server.url)
        type_into(app, settings.key_box, KEY)
        post(
            app,
            click_events(next(b for b in settings.brain_buttons if b.key[1] == "llm").rect.center),
        )
        frames(app, 1)  # the box draws dots, never the key
        assert settings.key_box.shown_text() == "\u2022" * len(KEY)
        post(app, click_events(settings.save_button.rect.center))
        frames(app, 1)
        assert "saved to config.toml" in settings.note, settings.note
        assert settings.key_box.text == "" and "****2a9d" in settings.key_box.placeholder
        assert KEY not in settings.key_box.placeholder
        app.close()

        assert config.stat().st_mode & 0o777 == 0o600
        doc = tomllib.loads(config.read_text(encoding="utf-8"))
        assert doc["brain"] == "llm" and doc["llm"]["api_key"] == KEY
        assert doc["llm"]["base_url"] == server.url

        capsys.readouterr()
        code = main(
            ["run", "--scenario", "three", "--hours", "1", "--model", "m", "--quiet"]
            + ["--save", "keyed", "--report", str(tmp_path / "data" / "report.json")]
            + ["--audit-log", str(tmp_path / "data" / "audit.jsonl")]
        )
        assert code == 0
        auths = {r.get("auth") for r in server.requests}
    assert auths == {f"Bearer {KEY}"}, "the run used the key from the file"
    out = capsys.readouterr()
    written = [p for p in (tmp_path / "data").rglob("*") if p.is_file()]
    names = {p.name for p in written}
    assert {"report.json", "audit.jsonl"} <= names and "save.json" in names
    for path in written:
        assert KEY.encode() not in path.read_bytes(), path.name
    assert KEY not in out.out and KEY not in out.err


def test_damaged_prefs_give_the_defaults(tmp_path, monkeypatch):
    """A prefs file nested past reason, too large or of the wrong shape is ignored."""
    from game.ui.settings import Prefs, load_prefs, prefs_path

    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "config.toml"))
    path = prefs_path()
    for bad in ("[" * 100_000, '{"speed": ' + "1" * 200_000 + "}", "[1, 2]", '{"size": 7}'):
        path.write_text(bad, encoding="utf-8")
        assert load_prefs() == Prefs()
