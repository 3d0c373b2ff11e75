"""The config file is valid TOML for any string: what the settings screen writes,
tomllib reads back exactly (an emoji in the model name was once written as a JSON
surrogate escape that TOML rejects, and every command after that exited 2)."""

import math
import tomllib

import pytest

from game.core import toml_text
from game.core.config import load_config
from game.core.errors import SmallvilleError

HOSTILE = [
    "qwen 🦙 7b",  # an emoji: astral plane, a surrogate pair in JSON
    "𝔐𝔬𝔡𝔢𝔩 𓀀 \U0010fffd",  # more of the astral planes, up to the last
    'say "hi"',
    "C:\\models\\new\\tiny",  # backslashes that look like escapes
    "line one\nline two\r\n",
    "tab\there",
    "nul\x00byte",
    "del\x7fete",
    "\x1b[31mred\x1b[0m\x07",  # a terminal's escape and bell
    "\u202eevil\u202c \u2066isolate\u2069 \u200b\u200d\ufeff",  # bidi marks, zero-width
    "\u2028\u2029",  # line and paragraph separators
    "'''\"\"\"",  # TOML's own multi-line quotes
    "key = \"value\"\n[llm]\napi_key = \"stolen\"",  # an attempt to add a table
    "",
    "\ue000 private use, \U000e0001 a tag",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_any_string_reads_back_as_written(text):
    doc = {"brain": text, "llm": {"model": text, text or "empty": text}}
    assert tomllib.loads(toml_text.dumps(doc)) == doc


def test_the_file_stays_one_line_a_setting_and_readable():
    """Control and format characters are escapes in the file, so it reads the same in an
    editor or a terminal as it does to tomllib."""
    text = toml_text.dumps({"llm": {"model": "a\nb\u202ec\x1b"}})
    assert text == '[llm]\nmodel = "a\\nb\\u202Ec\\u001B"\n'


def test_values_of_every_kind_round_trip():
    doc = {
        "workers": 16,
        "talk_residents": True,
        "x": -0.5,
        "big": 1e300,
        "listed": [1, "two", False],
        "llm": {"temperature": 0.7, "inline": {"a b": 1}, "inf": math.inf},
    }
    assert tomllib.loads(toml_text.dumps(doc)) == doc


def test_what_toml_cannot_hold_is_refused_not_written():
    with pytest.raises(SmallvilleError, match="lone surrogate"):
        toml_text.dumps({"model": "half \ud83d"})
    with pytest.raises(SmallvilleError, match="NoneType"):
        toml_text.dumps({"model": None})


@pytest.mark.parametrize("model", ["qwen 🦙 7b", 'a "quoted"\\ name\n\x00\x7f\u202e'])
def test_the_settings_screen_writes_a_config_every_command_reads(model, tmp_path, monkeypatch):
    from game.ui.settings import save_brain

    path = tmp_path / "config.toml"
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(path))
    key = 'sk-"quoted"\\back'  # the screen takes the whitespace out of a typed key
    save_brain("llm", "http://127.0.0.1:8080/v1", model, "MY_KEY", key)
    save_brain("llm", "http://127.0.0.1:8080/v1", model, "MY_KEY")  # read back, written again
    config = load_config(path, env={})
    assert config.brain == "llm" and config.llm.model == model
    assert tomllib.loads(path.read_text(encoding="utf-8"))["llm"]["api_key"] == key
