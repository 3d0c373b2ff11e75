"""Notices on the town's boards: posted by the player (or a script's announce), read once
by each resident who passes a board, kept as a claim whose source is the board; they
survive a save, an autosave journal and a replay."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from game.core.errors import SmallvilleError
from game.core.records import FactKind, MemoryKind, Source
from game.mind.perception import board_name, notice_boards
from game.sim.autosave import AUTOSAVE, IncrementalWriter, snapshot
from game.sim.events import EventKind
from game.sim.factory import build_simulation
from game.sim.replay import Replay
from game.sim.saves import load_game, save_game, save_path
from game.sim.script import Script

BOARD = "Oak Hill College:hallway:notice board"
BOARD_NAME = "the notice board at Oak Hill College"
TEXT = "Open mic night at The Rose and Crown Pub on Wednesday at 8 pm, all welcome"


def awake_at(hour: int, seed: int = 1):
    sim = build_simulation("three", seed=seed)
    sim.run_until(sim.now.replace(hour=hour))
    return sim


def someone_awake(sim, but: str = "") -> str:
    """A resident awake and free to look at things (not asleep, not in a conversation)."""
    return next(
        n
        for n, a in sorted(sim.agents.items())
        if not a.asleep and a.conversation is None and n != but
    )


def stand_by_board(sim, name: str) -> None:
    """Put a resident on a free hallway tile beside the board (as if walking past)."""
    agent = sim.agents[name]
    area = sim.town.areas[BOARD]
    r = area.rect
    tiles = [(x, r.y + r.h) for x in range(r.x, r.x + r.w)] + [(r.x - 1, r.y), (r.x + r.w, r.y)]
    agent.pos = next(t for t in tiles if sim.town.is_walkable(*t))
    agent.path = []
    agent.location = sim.town.address_at(*agent.pos)
    assert agent.location == area.parent


def notice_memories(agent):
    records = [agent.memory.record(i) for i in range(len(agent.memory))]
    return [r for r in records if r.fact.source is Source.NOTICE]


def test_the_map_has_its_notice_board_named_as_people_say_it():
    sim = build_simulation("three", seed=0)
    assert notice_boards(sim.town) == (BOARD,)
    assert board_name(sim.town, BOARD) == BOARD_NAME
    sim.close()


def test_a_resident_by_the_board_reads_the_notice_once_as_a_claim():
    sim = awake_at(10)
    name = someone_awake(sim)
    reader = sim.agents[name]
    others = [a for n, a in sim.agents.items() if n != name]
    notice = sim.player.announce(TEXT)
    stand_by_board(sim, name)
    for _ in range(12):  # two minutes by the board
        sim.step()
        if reader.conversation is None:
            stand_by_board(sim, name)
    read = notice_memories(reader)
    assert len(read) == 1, "read once, however long she stands there"
    fact = read[0].fact
    assert read[0].kind in (MemoryKind.OBSERVATION, MemoryKind.CHAT)
    assert fact.kind is FactKind.CLAIM and fact.heard_from == BOARD_NAME
    assert fact.object == TEXT
    assert fact.event is not None and fact.event.place == "The Rose and Crown Pub"
    assert fact.event.start == datetime(2023, 2, 15, 20, 0) == notice.event.start
    for other in others:
        if "Oak Hill College" not in other.visited:  # never went to the college today
            assert notice_memories(other) == []  # nobody reads a board from elsewhere
    sim.player.announce("Second notice: the library closes at noon on Friday")
    for _ in range(6):
        sim.step()
        if reader.conversation is None:
            stand_by_board(sim, name)
    assert [r.fact.object for r in notice_memories(reader)][1:] == [
        "Second notice: the library closes at noon on Friday"
    ]
    sim.close()


def test_an_empty_notice_is_refused():
    sim = build_simulation("three", seed=0)
    with pytest.raises(SmallvilleError, match="needs some words"):
        sim.player.announce("   ")
    assert sim.player.notices == []
    sim.close()


def test_a_scripted_announce_is_read_by_a_student_who_walks_past(tmp_path):
    """No one is put anywhere: the students' own day takes them past the board."""
    sim = build_simulation("three", seed=1)
    path = tmp_path / "news.jsonl"
    path.write_text(json.dumps({"at": "2023-02-13 06:00", "do": "announce", "text": TEXT}))
    Script.load(path, sim).attach(sim)
    sim.run_until(datetime(2023, 2, 13, 12, 0))
    readers = {n for n, a in sim.agents.items() if notice_memories(a)}
    sim.close()
    assert readers & {"Maria Lopez", "Klaus Mueller"}
    assert "Isabella Rodriguez" not in readers  # she works at the cafe all morning
    posted = [e for e in sim.log.of(EventKind.PLAYER) if e.data.get("notice") == 1]
    assert posted and posted[0].data["boards"] == [BOARD]


def test_notices_and_their_readers_survive_a_save(tmp_path):
    sim = awake_at(10)
    name = someone_awake(sim)
    sim.player.announce(TEXT)
    stand_by_board(sim, name)
    sim.step()
    sim.step()
    assert notice_memories(sim.agents[name])
    save_game(sim, "notes", tmp_path)
    loaded = load_game("notes", tmp_path)
    assert loaded.player.notices == sim.player.notices
    assert loaded.player.notices_read == {name: {1}}
    other = someone_awake(loaded, but=name)
    for _ in range(3):
        for who in (name, other):
            if loaded.agents[who].conversation is None:
                stand_by_board(loaded, who)
        loaded.step()
    assert len(notice_memories(loaded.agents[name])) == 1  # not read again
    assert len(notice_memories(loaded.agents[other])) == 1  # a new reader still reads it
    replay = Replay(loaded)
    replay.run_until(replay.end)
    assert any("notice posted" in e.text for e in replay.log.events)
    loaded.close()
    sim.close()


def test_notices_posted_after_an_autosave_base_survive_its_journal(tmp_path):
    sim = awake_at(6)
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    assert writer.write(snapshot(sim)).base
    sim.player.announce(TEXT)
    sim.run_until(sim.now + timedelta(minutes=10))
    assert not writer.write(snapshot(sim)).base
    loaded = load_game(AUTOSAVE, tmp_path)
    assert [n.text for n in loaded.player.notices] == [TEXT]
    assert loaded.player.notices_read == sim.player.notices_read
    loaded.close()
    sim.close()
