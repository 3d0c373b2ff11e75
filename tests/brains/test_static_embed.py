"""The static MiniLM embedder: BERT's tokenizer, the bundled vectors and their errors."""

import random
import string
import threading
from pathlib import Path

import numpy as np
import pytest

from game.brains.protocol import Embedder
from game.brains.static_embed import (
    ASSET,
    ASSET_FORMAT,
    EmbedderAssetError,
    StaticEmbedder,
    Tokenizer,
    WordPiece,
    basic_tokens,
    load_model,
    slow_basic_tokens,
)
from game.core.errors import SmallvilleError


@pytest.fixture(scope="module")
def emb() -> StaticEmbedder:
    return StaticEmbedder()


def cos(emb: StaticEmbedder, a: str, b: str) -> float:
    va, vb = emb.embed([a, b])
    return float(va @ vb)


# --- tokenizer ---------------------------------------------------------------------------


def test_basic_tokens_lowercase_strip_accents_and_split_punctuation():
    assert basic_tokens("Hello, Café!") == ["hello", ",", "cafe", "!"]
    assert basic_tokens("Isabella's get-together (5 pm)") == [
        "isabella", "'", "s", "get", "-", "together", "(", "5", "pm", ")",
    ]  # fmt: skip
    assert basic_tokens("  tab\there\nnewline ") == ["tab", "here", "newline"]
    assert basic_tokens("a\x00b\x7fc") == ["abc"]  # control characters vanish
    assert basic_tokens("Ñandú über 東京") == ["nandu", "uber", "東", "京"]
    assert basic_tokens("") == []


def test_ascii_fast_path_matches_the_character_by_character_tokenizer():
    rng = random.Random(7)
    alphabet = string.printable + "\x00\x01\x0b\x1f\x7f"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        assert basic_tokens(text) == slow_basic_tokens(text), repr(text)


def test_wordpiece_greedy_longest_match_first():
    wp = WordPiece(frozenset({"un", "una", "##aff", "##able", "##ffa", "##ble", "a", "##a"}))
    assert wp.split("unaffable") == ["una", "##ffa", "##ble"]  # longest first piece wins
    assert WordPiece(frozenset({"un", "##aff", "##able"})).split("unaffable") == [
        "un", "##aff", "##able",
    ]  # fmt: skip
    assert wp.split("aaa") == ["a", "##a", "##a"]
    assert wp.split("unx") == ["[UNK]"]  # one uncovered piece makes the whole word unknown
    assert wp.split("a" * 101) == ["[UNK]"]


def test_tokenizer_with_the_bundled_vocabulary(emb):
    assert emb.tokenizer.tokenize("unaffable") == ["una", "##ffa", "##ble"]
    assert emb.tokenizer.tokenize("The mayoral race!") == ["the", "mayoral", "race", "!"]
    assert emb.tokenizer.tokenize("Hobbs Cafe") == ["hobbs", "cafe"]
    tok = Tokenizer(["hello"])
    assert tok.tokenize("hello hello world") == ["hello", "hello", "[UNK]"]


# --- the embedder ------------------------------------------------------------------------


def test_protocol_shape_and_unit_rows(emb):
    assert isinstance(emb, Embedder)
    texts = ["Isabella is planning a party", "the stove is burning", "Sam runs for mayor"]
    out = emb.embed(texts)
    assert out.dtype == np.float32 and out.shape == (3, emb.dim) and emb.dim >= 64
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    assert emb.embed([]).shape == (0, emb.dim)


def test_text_with_no_known_token_is_a_zero_row(emb):
    out = emb.embed(["", "   ", "\x00", "hello"])
    assert not np.any(out[:3])
    assert np.linalg.norm(out[3]) == pytest.approx(1.0, abs=1e-5)


def test_deterministic_across_instances_batches_and_threads(emb):
    texts = ["Klaus is writing a paper", "Maria streams games", "the sink is leaking"]
    first = emb.embed(texts)
    again = StaticEmbedder().embed(list(reversed(texts)))[::-1]
    alone = np.stack([emb.embed([t])[0] for t in texts])
    assert np.array_equal(first, again) and np.array_equal(first, alone)
    results: list[np.ndarray] = []
    threads = [threading.Thread(target=lambda: results.append(emb.embed(texts))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(np.array_equal(first, r) for r in results)


def test_peek_gives_everything_and_later_is_free(emb):
    got = emb.peek(["a party", "a party", "the stove"])
    assert set(got) == {"a party", "the stove"}
    assert np.array_equal(got["the stove"], emb.embed(["the stove"])[0])
    emb.later(["anything"])


def test_the_model_is_read_once_per_process(emb):
    assert load_model(ASSET) is emb.model is StaticEmbedder().model


def test_meaning_not_just_shared_words(emb):
    party = "Is there a party soon?"
    assert cos(emb, party, "a get-together at the cafe") > cos(emb, party, "the stove")
    race = "What do you make of the mayoral race?"
    assert cos(emb, race, "Who is running in the election?") > cos(
        emb, race, "Have you tried the pastries at the bakery?"
    )
    fire = "There's a fire in the kitchen!"
    assert cos(emb, fire, "the stove is burning") > cos(emb, fire, "Maria streams games")


# --- a missing or damaged asset ----------------------------------------------------------


def write_asset(path: Path, **override) -> Path:
    fields = {
        "format": np.int64(ASSET_FORMAT),
        "vocab": np.frombuffer(b"hello\nworld", dtype=np.uint8),
        "vectors": np.eye(2, 4, dtype=np.float16),
        "weights": np.ones(2, dtype=np.float32),
        "source": np.frombuffer(b"test", dtype=np.uint8),
    }
    fields.update(override)
    np.savez(path, **fields)
    return path


def test_a_small_valid_asset_works(tmp_path):
    emb = StaticEmbedder(write_asset(tmp_path / "ok.npz"))
    assert emb.dim == 4
    assert np.allclose(emb.embed(["Hello world"])[0], np.array([1, 1, 0, 0]) / np.sqrt(2))


def test_missing_file_names_the_file(tmp_path):
    path = tmp_path / "nowhere.npz"
    with pytest.raises(EmbedderAssetError, match="nowhere.npz.*missing") as info:
        StaticEmbedder(path).embed(["hi"])
    assert isinstance(info.value, SmallvilleError)


@pytest.mark.parametrize(
    "damage, problem",
    [
        (lambda p: p.write_bytes(b"not a numpy file at all"), "unreadable"),
        (lambda p: p.write_bytes(write_asset(p).read_bytes()[:300]), "unreadable"),
        (lambda p: write_asset(p, format=np.int64(99)), "format 99"),
        (lambda p: write_asset(p, weights=np.ones(3, np.float32)), "2 tokens but"),
        (lambda p: write_asset(p, vocab=np.frombuffer(b"a\na", np.uint8)), "repeats"),
        (lambda p: write_asset(p, vectors=np.full((2, 4), np.nan, np.float16)), "finite"),
        (lambda p: np.savez(p, format=np.int64(ASSET_FORMAT)), "unreadable"),
    ],
)
def test_damaged_file_raises_a_clear_error(tmp_path, damage, problem):
    path = tmp_path / "damaged.npz"
    damage(path)
    with pytest.raises(EmbedderAssetError, match=problem) as info:
        StaticEmbedder(path).embed(["hi"])
    assert "damaged.npz" in str(info.value) and "\n" not in str(info.value)
