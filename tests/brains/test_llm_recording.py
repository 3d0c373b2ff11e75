"""Record and replay alone: a recorded answer replays without the network, a recorded
failure replays as the same failure, an unreachable endpoint is never recorded, and
embeddings are recorded per text."""

from __future__ import annotations

import pytest
from disks import full_disk_fixture  # noqa: F401
from llm_fakes import OK, FakeModel, Offline, ask, vector

from game.brains.llm.model import (
    BadReply,
    ChatReply,
    EmbedRequest,
    EndpointDown,
    NoEmbeddings,
    Refused,
    ReplayMiss,
    Transient,
)
from game.brains.llm.recording import Recording, ReplayCache, request_key


@pytest.fixture
def path(tmp_path):
    return tmp_path / "rec.sqlite3"


def recorded(path, inner: FakeModel, *requests) -> list:
    cache = ReplayCache(path)
    model = Recording(inner, cache)
    out = []
    for request in requests:
        try:
            out.append(model.chat(request))
        except Exception as exc:  # noqa: BLE001 - the outcome is what is compared
            out.append(exc)
    cache.close()
    return out


def replaying(path) -> Recording:
    return Recording(Offline(), ReplayCache(path, replay=True))


def test_a_recorded_answer_replays_without_the_network(path) -> None:
    reply = ChatReply('{"ratings": [3]}', 12, 4, 0.8, "stop")
    assert recorded(path, FakeModel(reply), ask()) == [reply]
    again = replaying(path).chat(ask())
    assert again == ChatReply('{"ratings": [3]}', 12, 4, 0.0, "stop", replayed=True)


def test_the_key_is_what_decides_the_answer(path) -> None:
    recorded(path, FakeModel(), ask("one"))
    model = replaying(path)
    model.chat(ask("one", agent="someone else", purpose="other"))  # who asked: not the key
    for changed in (ask("two"), ask("one", model="other-model"), ask("one", schema={"x": 1})):
        with pytest.raises(ReplayMiss, match="--replay: the recording at .* has no answer"):
            model.chat(changed)


def test_a_failed_request_replays_as_the_same_failure(path) -> None:
    recorded(path, FakeModel(Transient("gave up"), Refused("400: no")), ask("a"), ask("b"))
    model = replaying(path)
    with pytest.raises(Transient, match="gave up"):
        model.chat(ask("a"))
    with pytest.raises(Refused, match="400: no"):
        model.chat(ask("b"))


def test_recording_asks_a_failed_request_again(path) -> None:
    inner = FakeModel(Transient("timeout"), OK)
    outcomes = recorded(path, inner, ask(), ask())
    assert isinstance(outcomes[0], Transient) and outcomes[1] == OK and len(inner.chats) == 2


def test_an_unreachable_endpoint_is_never_recorded(path) -> None:
    outcomes = recorded(path, FakeModel(EndpointDown("refused")), ask())
    assert isinstance(outcomes[0], EndpointDown)
    with pytest.raises(ReplayMiss):
        replaying(path).chat(ask())


def test_a_damaged_entry_is_a_bad_reply_not_a_crash(path) -> None:
    cache = ReplayCache(path)  # content that is not text (a missing usage is estimated)
    cache.put(request_key("chat", "m", ask().key()), "chat", "m", {"content": 5})
    cache.close()
    with pytest.raises(BadReply, match="damaged"):
        replaying(path).chat(ask())


def test_embeddings_are_recorded_per_text_and_replay_in_any_batching(path) -> None:
    cache = ReplayCache(path)
    inner = FakeModel()
    model = Recording(inner, cache)
    model.embed(EmbedRequest(("a", "bb"), "e"))
    mixed = model.embed(EmbedRequest(("bb", "ccc", "a", "ccc"), "e"))
    assert [r.texts for r in inner.embeds] == [("a", "bb"), ("ccc",)]  # only what was missing
    assert mixed.vectors == tuple(map(vector, ("bb", "ccc", "a", "ccc"))) and not mixed.replayed
    cache.close()
    again = replaying(path).embed(EmbedRequest(("ccc", "a"), "e"))
    assert again.vectors == (vector("ccc"), vector("a")) and again.replayed
    with pytest.raises(ReplayMiss, match="no embedding"):
        replaying(path).embed(EmbedRequest(("a", "never seen"), "e"))


def test_an_endpoint_without_embeddings_is_recorded_from_the_probe(path) -> None:
    cache = ReplayCache(path)
    with pytest.raises(NoEmbeddings):
        Recording(FakeModel(NoEmbeddings("404: none")), cache).embed(EmbedRequest(("p",), "e"))
    cache.close()
    with pytest.raises(NoEmbeddings, match="404: none"):
        replaying(path).embed(EmbedRequest(("p",), "e"))


@pytest.mark.skipif(not hasattr(__import__("os"), "getuid") or __import__("os").getuid() != 0,
                    reason="needs root to give a folder to another user")  # fmt: skip
def test_recording_into_another_user_s_folder_says_whose_it_is(tmp_path) -> None:
    """As an unprivileged user, a cache folder owned by root was said to be read-only."""
    import os

    from game.brains.llm.recording import _unwritable

    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, 12345, 12345)
    assert _unwritable(theirs) == "it belongs to another user"
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o555)
    assert _unwritable(mine) == "it is read-only"


def test_a_full_disk_is_said_as_such_and_the_cache_is_kept(full_disk, tmp_path, path) -> None:
    """On a full disk (a real tmpfs), --record was told 'not a usable record/replay cache
    (disk I/O error); move it aside to start anew' of a good cache, and '(database or
    disk is full)' of a new one, which stayed behind as an empty file."""
    import shutil

    from game.core.errors import FileProblem

    if not full_disk.real:
        pytest.skip("SQLite writes past the simulated disk: needs a real tmpfs (root)")
    recorded(path, FakeModel([OK]), ask("hello"))
    good = full_disk.folder / "good.sqlite3"
    shutil.copy(path, good)
    before = good.read_bytes()
    full_disk.fill()
    for where in (good, full_disk.folder / "new.sqlite3"):
        with pytest.raises(FileProblem, match="the disk is full"):
            ReplayCache(where)
    assert good.read_bytes() == before and not (full_disk.folder / "new.sqlite3").exists()
