"""A config file as editors write it loads: Windows Notepad's byte-order mark included."""

from __future__ import annotations

from game.core.config import file_key, load_config


def test_a_config_file_that_begins_with_a_byte_order_mark_loads(tmp_path):
    """Saved from Notepad as UTF-8 it begins with EF BB BF: tomllib refused it as
    'Invalid statement (at line 1, column 1)' and every command exited 2; the key in it
    was not found either."""
    path = tmp_path / "config.toml"
    path.write_bytes('\ufeffbrain = "llm"\n[llm]\nmodel = "m-é"\napi_key = "sk-file"\n'.encode())
    config = load_config(path, env={})
    assert config.brain == "llm" and config.llm.model == "m-é"
    assert file_key(str(path)) == "sk-file"
