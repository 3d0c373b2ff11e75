"""Settings: defaults < config file < environment < flags, and the key never a setting."""

from __future__ import annotations

import argparse

import pytest

from game.core.config import (
    DEFAULT_WORKERS,
    Config,
    OutputMode,
    add_llm_arguments,
    config_from_args,
    describe,
    load_config,
    mask,
    write_private,
)
from game.core.errors import SmallvilleError

FILE = """
brain = "llm"
workers = 4
[llm]
model = "from-file"
cheap_model = "small-from-file"
base_url = "http://file:1/v1"
output_mode = "json_object"
price_input_per_mtok = 0.5
budget_usd = 2.5
"""


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_llm_arguments(parser, with_brain=True)
    return parser.parse_args(list(argv))


def test_defaults_without_file_or_environment(tmp_path) -> None:
    config = load_config(tmp_path / "none.toml", env={})
    assert config == Config() and config.workers == DEFAULT_WORKERS and config.brain == "scripted"
    assert config.llm.model == "gpt-4o-mini" and config.llm.output_mode is OutputMode.AUTO


def test_file_then_environment_then_flags(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(FILE)
    env = {"SMALLVILLE_MODEL": "from-env", "OPENAI_BASE_URL": "http://env:2/v1"}
    config = load_config(path, env=env)
    assert (config.brain, config.workers) == ("llm", 4)
    assert config.llm.cheap_model == "small-from-file" and config.llm.budget_usd == 2.5
    assert config.llm.model == "from-env" and config.llm.base_url == "http://env:2/v1"
    assert config.llm.output_mode is OutputMode.JSON_OBJECT
    assert config.sources["llm.model"] == "$SMALLVILLE_MODEL"
    assert config.sources["llm.cheap_model"] == str(path)
    final = config_from_args(parse("--model", "from-flag", "--workers", "2", "--strict"), config)
    assert final.llm.model == "from-flag" and final.workers == 2 and final.llm.strict
    assert final.llm.base_url == "http://env:2/v1" and final.sources["llm.model"] == "flag"
    assert final.llm.prices() == (0.5, 0.0)


def test_known_prices_unless_configured() -> None:
    config = load_config(env={"SMALLVILLE_CONFIG": "/nonexistent"})
    assert config.llm.prices() == (0.15, 0.60)  # gpt-4o-mini, the default model


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[llm]\napi_key = 12\n", "api_key"),
        ('[llm]\nkey_file = "/elsewhere"\n', "unknown setting"),
        ("[llm]\nmodle = 1\n", "unknown setting"),
        ('colour = "red"\n', "unknown settings"),
        ('[llm]\nbudget_usd = "lots"\n', "budget_usd"),
        ('[llm]\noutput_mode = "xml"\n', "output_mode"),
        ("[llm\n", "cannot read"),
    ],
)
def test_a_bad_file_is_one_clear_error(tmp_path, text, problem) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(SmallvilleError, match=problem):
        load_config(path, env={})


def test_record_and_replay_exclude_each_other() -> None:
    with pytest.raises(SmallvilleError, match="exclude"):
        config_from_args(parse("--record", "--replay"), Config())


def test_the_key_is_read_from_the_named_variable_and_shown_masked(monkeypatch) -> None:
    monkeypatch.setenv("MY_KEY", "sk-abcdefghijklmnop1234")
    config = config_from_args(parse("--api-key-env", "MY_KEY"), Config())
    assert config.llm.api_key() == "sk-abcdefghijklmnop1234"
    assert "sk-abcdefghijklmnop1234" not in repr(config)
    shown = describe(config)
    assert "****1234" in shown and "sk-abcdefghijklmnop1234" not in shown
    assert mask("") == "(not set)" and mask("short") == "****"


FILE_KEY = "sk-fromthefile-5678"


def test_a_key_in_the_file_is_read_at_use_and_the_environment_wins(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    write_private(path, f'[llm]\napi_key = "{FILE_KEY}"\nmodel = "m"\n')
    assert path.stat().st_mode & 0o777 == 0o600
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    config = load_config(path, env={})
    assert config.llm.api_key() == FILE_KEY and config.llm.key_source() == str(path)
    assert FILE_KEY not in repr(config) and "llm.api_key" not in config.sources
    shown = describe(config)
    assert "****5678" in shown and FILE_KEY not in shown
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fromtheenvironment-0000")
    assert config.llm.api_key() == "sk-fromtheenvironment-0000"
    monkeypatch.setenv("MY_KEY", "sk-fromaflagsvariable-1111")
    flagged = config_from_args(parse("--api-key-env", "MY_KEY"), config)
    assert flagged.llm.api_key() == "sk-fromaflagsvariable-1111"
    assert "****1111" in describe(flagged) and "$MY_KEY" in describe(flagged)


def test_output_mode_timeout_and_max_parallel_are_flags_and_settings(tmp_path) -> None:
    flags = parse("--output-mode", "json_object", "--timeout", "90", "--max-parallel", "1")
    llm = config_from_args(flags, Config()).llm
    assert (llm.output_mode, llm.timeout, llm.max_parallel) == (OutputMode.JSON_OBJECT, 90.0, 1)
    path = tmp_path / "c.toml"
    path.write_text('[llm]\noutput_mode = "text"\nmax_parallel = 2\ntimeout = 5\n')
    llm = load_config(path, env={}).llm
    assert (llm.output_mode, llm.timeout, llm.max_parallel) == (OutputMode.TEXT, 5.0, 2)
    with pytest.raises(SmallvilleError, match="max_parallel"):
        config_from_args(parse("--max-parallel", "5000"), Config())
