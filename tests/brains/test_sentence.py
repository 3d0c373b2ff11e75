"""The whole sentence model the understander reads the visitor with (game/brains/sentence.py):
the shipped int8 weights reproduce the model's published similarities, a damaged file is a
clear error, and the shipped exemplar vectors are those of today's exemplars."""

import numpy as np
import pytest

from game.brains.dialogue.understand import exemplar_texts
from game.brains.dialogue.vectors import key_of, shipped_path
from game.brains.sentence import FULL_ASSET, SentenceEmbedder, quantize, read_full
from game.brains.static_embed import EmbedderAssetError

# cosines the sentence-transformers documentation publishes for all-MiniLM-L6-v2
PUBLISHED = (
    ("The weather is lovely today.", "It's so sunny outside!", 0.6660),
    ("The weather is lovely today.", "He drove to the stadium.", 0.1046),
    ("The new movie is awesome", "The new movie is so great", 0.8939),
    ("A man is playing guitar", "A woman watches TV", -0.0327),
)


@pytest.fixture(scope="module")
def model() -> SentenceEmbedder:
    return SentenceEmbedder()


def test_the_shipped_model_reproduces_the_published_similarities(model):
    for a, b, published in PUBLISHED:
        va, vb = model.embed([a, b])
        assert abs(float(va @ vb) - published) < 0.01, (a, b)


def test_a_paraphrase_is_nearer_than_a_line_about_something_else(model):
    ask, same, other = model.embed(
        ["Got any relatives around these parts?", "do you have family in town",
         "what time do you get up"]
    )  # fmt: skip
    assert float(ask @ same) > float(ask @ other) + 0.1


def test_vectors_are_unit_rows_and_the_same_line_gives_the_same_vector(model):
    v = model.embed(["hello there", "hello there", ""])
    assert v.shape == (3, 384) and np.allclose(np.linalg.norm(v[:2], axis=1), 1.0, atol=1e-5)
    assert np.array_equal(v[0], v[1])


def test_int8_rows_keep_their_scale():
    m = np.random.default_rng(1).normal(size=(20, 16)).astype(np.float32)
    q, s = quantize(m)
    assert q.dtype == np.int8 and np.abs(q.astype(np.float32) * s - m).max() < 0.02


def test_a_damaged_model_file_is_a_clear_error_naming_it(tmp_path):
    bad = tmp_path / "minilm-l6.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(EmbedderAssetError, match="minilm-l6.npz"):
        read_full(bad)
    with pytest.raises(EmbedderAssetError, match="missing"):
        read_full(tmp_path / "absent.npz")


def test_the_shipped_exemplar_vectors_are_those_of_todays_exemplars(model):
    """If this fails, exemplars.json changed: python tools/distill_embedder.py --exemplars"""
    with np.load(shipped_path(model)) as data:
        assert bytes(data["key"]).decode() == key_of(model, exemplar_texts())
    assert FULL_ASSET.exists()
