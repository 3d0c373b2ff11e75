"""Deeply nested or huge documents count as damaged wherever the game reads them: the
config file, scenario files and the record/replay cache (saves, journals, archives and
maps have their own tests: tests/sim/test_save_bombs.py, tests/world/test_map_bombs.py).
Each gives one line, or a miss for a cache entry; never a RecursionError or a hang."""

from __future__ import annotations

import sqlite3

import pytest

from game.brains.llm.recording import ReplayCache
from game.core.config import load_config
from game.core.errors import SmallvilleError
from game.world.scenario import load_scenario

DEEP = 200_000  # levels: far past Python's recursion limit


def _one_line(call) -> str:
    with pytest.raises(SmallvilleError) as info:
        call()
    text = str(info.value)
    print(text[:160])
    assert "\n" not in text
    return text


def test_a_deeply_nested_config_file_is_one_line(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("brain = " + "[" * DEEP + "]" * DEEP + "\n")
    assert "config.toml" in _one_line(lambda: load_config(path, env={}))


def test_a_huge_config_file_is_one_line_without_reading_it_all(tmp_path):
    path = tmp_path / "config.toml"
    with open(path, "wb") as f:
        f.truncate(600 * 1024 * 1024)  # sparse
    assert "larger than a config file" in _one_line(lambda: load_config(path, env={}))


def test_deeply_nested_and_huge_scenarios_are_one_line(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": 1, "residents": ' + "[" * DEEP + "]" * DEEP + "}")
    assert "deep.json" in _one_line(lambda: load_scenario(deep))
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(600 * 1024 * 1024)
    assert "larger than a scenario" in _one_line(lambda: load_scenario(huge))


def test_a_damaged_cache_entry_is_a_miss(tmp_path):
    path = tmp_path / "cache.sqlite"
    cache = ReplayCache(path)
    cache.put("fine", "chat", "m", {"content": "ok"})
    cache.close()
    db = sqlite3.connect(str(path))
    rows = [("deep", "[" * DEEP + "]" * DEEP), ("list", "[1, 2]"), ("huge", "x" * 20_000_000)]
    for key, answer in rows:
        db.execute("INSERT INTO answers VALUES (?, 'chat', 'm', ?)", (key, answer))
    db.commit()
    db.close()
    cache = ReplayCache(path)
    assert cache.get("fine") == {"content": "ok"}
    assert [cache.get(key) for key, _ in rows] == [None, None, None]
    cache.close()
