"""Fuzz every file the game reads: a damaged file gives one clear error line (our own
error type, naming the file), never a traceback, and never changes the file."""

import copy
import hashlib
import json
import random
import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from game.core.errors import SmallvilleError
from game.core.paths import MAPS, SCENARIOS
from game.sim.factory import build_simulation
from game.sim.saves import load_game, save_game
from game.world.scenario import load_scenario
from game.world.tmx import load_town

HUGE = [10**30, -(10**30), 1e308, "x" * 100_000, [], {}, None, True, [[[[[]]]]]]


def byte_mutations(data: bytes, seed: int, count: int):
    """Truncations and random byte flips of a file's bytes."""
    rng = random.Random(seed)
    for i in range(count):
        raw = bytearray(data)
        if i % 3 == 0:
            yield bytes(raw[: rng.randrange(len(raw))])
            continue
        for _ in range(rng.randint(1, 30)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        yield bytes(raw)


def json_mutations(doc, seed: int, count: int):
    """Wrong types, missing fields and huge values at random places in a JSON document."""
    rng = random.Random(seed)
    for _ in range(count):
        mutated = copy.deepcopy(doc)
        node, key = _random_slot(mutated, rng)
        if node is None:
            continue
        if rng.random() < 0.3 and isinstance(node, dict):
            del node[key]
        else:
            node[key] = rng.choice(HUGE)
        yield mutated


def _random_slot(doc, rng):
    """A (container, key) pair somewhere in the document."""
    node = doc
    for _ in range(rng.randint(1, 6)):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return None, None
        key = rng.choice(keys)
        child = node[key]
        if not isinstance(child, (dict, list)) or not child or rng.random() < 0.25:
            return node, key
        node = child
    return None, None


def assert_clean_failure(call, path: Path) -> None:
    """Either it loads, or it raises our error with one line naming the file."""
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    try:
        call()
    except SmallvilleError as exc:
        line = str(exc)
        assert "\n" not in line and str(path.name) in line, line
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_fuzz_scenario_bytes(tmp_path):
    data = (SCENARIOS / "smallville.json").read_bytes()
    path = tmp_path / "fuzz.json"
    for raw in byte_mutations(data, 1, 60):
        path.write_bytes(raw)
        assert_clean_failure(lambda: load_scenario(path), path)


def test_fuzz_scenario_fields(tmp_path):
    town = load_town(MAPS / "smallville.tmx")
    doc = json.loads((SCENARIOS / "smallville.json").read_text())
    path = tmp_path / "fuzz.json"
    for mutated in json_mutations(doc, 2, 300):
        path.write_text(json.dumps(mutated))
        assert_clean_failure(lambda: load_scenario(path, town), path)


def test_fuzz_map(tmp_path):
    shutil.copy(MAPS / "town.tsx", tmp_path / "town.tsx")
    data = (MAPS / "smallville.tmx").read_bytes()
    path = tmp_path / "smallville.tmx"
    for raw in byte_mutations(data, 3, 40):
        path.write_bytes(raw)
        assert_clean_failure(lambda: load_town(path), path)


@pytest.mark.parametrize(
    "edit",
    [
        ('width="100"', 'width="1000000000"'),
        ('height="72"', 'height="-5"'),
        ('tilewidth="32"', 'tilewidth="0"'),
        ('name="areas"', 'name="nothing"'),
        ('class="sector"', 'class="castle"'),
        ('source="town.tsx"', 'source="missing.tsx"'),
    ],
)
def test_map_with_bad_values(tmp_path, edit):
    shutil.copy(MAPS / "town.tsx", tmp_path / "town.tsx")
    text = (MAPS / "smallville.tmx").read_text().replace(*edit, 1)
    path = tmp_path / "smallville.tmx"
    path.write_text(text)
    with pytest.raises(SmallvilleError) as info:
        load_town(path)
    assert "\n" not in str(info.value) and "smallville.tmx" in str(info.value)


def test_fuzz_tileset(tmp_path):
    shutil.copy(MAPS / "smallville.tmx", tmp_path / "smallville.tmx")
    data = (MAPS / "town.tsx").read_bytes()
    path = tmp_path / "town.tsx"
    for raw in byte_mutations(data, 4, 30):
        path.write_bytes(raw)
        before = hashlib.sha256(raw).hexdigest()
        try:
            load_town(tmp_path / "smallville.tmx")
        except SmallvilleError as exc:
            assert "\n" not in str(exc)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.fixture(scope="module")
def good_save(tmp_path_factory):
    root = tmp_path_factory.mktemp("saves")
    sim = build_simulation("three", seed=1)
    sim.run_until(sim.now + timedelta(hours=2))
    save_game(sim, "good", root)
    sim.close()
    return root / "good"


def test_fuzz_save_document(good_save, tmp_path):
    doc = json.loads((good_save / "save.json").read_text())
    folder = tmp_path / "fuzz"
    shutil.copytree(good_save, folder)
    path = folder / "save.json"
    for mutated in json_mutations(doc, 5, 150):
        path.write_text(json.dumps(mutated))
        assert_clean_failure(lambda: load_game(str(folder)).close(), path)


def test_fuzz_save_bytes(good_save, tmp_path):
    folder = tmp_path / "fuzz"
    shutil.copytree(good_save, folder)
    for target in [folder / "save.json", *folder.glob("*.npz")]:
        data = target.read_bytes()
        for raw in byte_mutations(data, 6, 25):
            target.write_bytes(raw)
            assert_clean_failure(lambda: load_game(str(folder)).close(), target)
        target.write_bytes(data)


CONFIG = b"""brain = "llm"
workers = 4

[llm]
base_url = "http://127.0.0.1:8080/v1"
model = "small-model"
timeout = 20.0
budget_usd = 1.5
"""


def test_fuzz_config_file(tmp_path):
    from game.core.config import load_config

    path = tmp_path / "config.toml"
    path.write_bytes(CONFIG)
    assert load_config(path, env={}).llm.model == "small-model"
    for raw in byte_mutations(CONFIG, 7, 80):
        path.write_bytes(raw)
        assert_clean_failure(lambda: load_config(path, env={}), path)
    for value in ('"many"', "-3", "1e400", "[1, 2]", "{ a = 1 }", '"' + "x" * 5000 + '"'):
        for key in ("workers", "timeout", "budget_usd", "model"):
            text = CONFIG.decode().replace(f"\n{key} =", f"\n{key} = {value}\n# {key} =", 1)
            path.write_text(text)
            assert_clean_failure(lambda: load_config(path, env={}), path)


def test_damaged_replay_cache_is_a_clear_error(tmp_path):
    from game.brains.llm.recording import ReplayCache

    path = tmp_path / "llm-cache.sqlite3"
    ReplayCache(path).close()
    data = path.read_bytes()
    for raw in [b"not a database at all" * 50, *byte_mutations(data, 8, 10)]:
        path.write_bytes(raw)
        before = hashlib.sha256(raw).hexdigest()
        try:
            ReplayCache(path, replay=True).close()
        except SmallvilleError as exc:
            assert "\n" not in str(exc)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before
