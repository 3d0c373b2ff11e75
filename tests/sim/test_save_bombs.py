"""Files a save is read from that inflate or nest without bound: the memory arrays (a
zip), an autosave's rows and journal. Each counts as damaged (one SaveError line) or ends
the journal where it is damaged, quickly and with little memory; nothing crashes."""

from __future__ import annotations

import json
import time
import tracemalloc
import zipfile
from datetime import timedelta

import numpy as np
import pytest

from game.sim.autosave import AUTOSAVE, JOURNAL, IncrementalWriter, snapshot
from game.sim.factory import build_simulation
from game.sim.listing import list_saves
from game.sim.saves import SaveError, read_save, save_game, save_path

BOMB = 256 * 1024 * 1024  # bytes one array inflates to


def write_bomb(path, member: str = "a0_created.npy") -> None:
    """A .npz whose one array is BOMB bytes of zeros, a few hundred KB on disk."""
    header = {"descr": "<f8", "fortran_order": False, "shape": (BOMB // 8,)}
    block = bytes(1024 * 1024)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        f = archive.open(member, "w", force_zip64=True)
        np.lib.format.write_array_header_1_0(f, header)
        for _ in range(BOMB // len(block)):
            f.write(block)
        f.close()


def bounded(call):
    """Run `call` under tracemalloc; its result (or exception), peak bytes, seconds."""
    tracemalloc.start()
    began = time.perf_counter()
    try:
        try:
            result = call()
        except Exception as exc:  # noqa: BLE001 - the caller checks which
            result = exc
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    took = time.perf_counter() - began
    print(f"{took:.3f} s, peak {peak / 1e6:.1f} MB: {str(result)[:160]}")
    return result, peak


@pytest.fixture
def sim():
    sim = build_simulation("three", seed=3, workers=2)
    sim.run_until(sim.now.replace(hour=6, minute=20))
    yield sim
    sim.close()


def test_an_arrays_file_that_inflates_without_bound_is_a_damaged_save(tmp_path, sim):
    folder = save_game(sim, "bombed", tmp_path)
    arrays = json.loads((folder / "save.json").read_text())["arrays"]
    write_bomb(folder / arrays)
    error, peak = bounded(lambda: read_save("bombed", tmp_path))
    assert isinstance(error, SaveError) and "damaged memory arrays" in str(error)
    assert "\n" not in str(error) and peak < 32 * 1024 * 1024


def test_an_array_that_declares_more_than_its_file_holds_is_a_damaged_save(tmp_path, sim):
    folder = save_game(sim, "liar", tmp_path)
    arrays = json.loads((folder / "save.json").read_text())["arrays"]
    header = {"descr": "<f8", "fortran_order": False, "shape": (10**12,)}
    with zipfile.ZipFile(folder / arrays, "w") as archive:
        f = archive.open("a0_created.npy", "w")
        np.lib.format.write_array_header_1_0(f, header)
        f.write(bytes(64))
        f.close()
    error, _ = bounded(lambda: read_save("liar", tmp_path))
    assert isinstance(error, SaveError) and "declares" in str(error)


def _autosave(tmp_path, sim, increments: int) -> IncrementalWriter:
    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    for _ in range(increments):
        sim.run_until(sim.now + timedelta(minutes=20))
        writer.write(snapshot(sim))
    return writer


def test_a_rows_bomb_ends_the_journal_where_it_is(tmp_path, sim):
    writer = _autosave(tmp_path, sim, 1)
    base_clock = json.loads((writer.folder / "save.json").read_text())["clock"]
    line = json.loads((writer.folder / JOURNAL).read_text().splitlines()[0])
    write_bomb(writer.folder / line["rows"])
    doc, peak = bounded(lambda: read_save(AUTOSAVE, tmp_path)[0])
    assert doc["clock"] == base_clock and peak < 32 * 1024 * 1024


def test_a_deeply_nested_journal_line_ends_the_journal_there(tmp_path, sim):
    writer = _autosave(tmp_path, sim, 1)
    committed = read_save(AUTOSAVE, tmp_path)[0]["clock"]
    with open(writer.folder / JOURNAL, "a") as f:
        f.write('{"base": ' + "[" * 200_000 + "]" * 200_000 + "}\n")
    doc, _ = bounded(lambda: read_save(AUTOSAVE, tmp_path)[0])
    assert isinstance(doc, dict) and doc["clock"] == committed


def test_a_huge_journal_is_a_damaged_save_without_reading_it(tmp_path, sim):
    writer = _autosave(tmp_path, sim, 1)
    with open(writer.folder / JOURNAL, "r+b") as f:
        f.truncate(600 * 1024 * 1024)  # sparse: costs no disk
    error, peak = bounded(lambda: read_save(AUTOSAVE, tmp_path))
    assert isinstance(error, SaveError) and "journal" in str(error)
    assert peak < 32 * 1024 * 1024


def test_the_saves_list_shows_a_bombed_or_nested_save_as_damaged(tmp_path, sim):
    save_game(sim, "fine", tmp_path)
    deep = tmp_path / "deep"
    deep.mkdir()
    (deep / "save.json").write_text("[" * 200_000 + "]" * 200_000)
    huge = tmp_path / "huge"
    huge.mkdir()
    with open(huge / "save.json", "wb") as f:
        f.truncate(600 * 1024 * 1024)
    rows, peak = bounded(lambda: {s.name: s.scenario for s in list_saves(tmp_path)})
    assert rows == {"deep": "(damaged)", "fine": rows["fine"], "huge": "(damaged)"}
    assert rows["fine"] != "(damaged)" and peak < 32 * 1024 * 1024


@pytest.mark.parametrize("kind", ["device", "pipe"])
def test_a_journal_or_arrays_file_with_no_end_is_damaged_not_read(tmp_path, sim, kind):
    """A link to /dev/zero at journal.jsonl made `saves` die of a MemoryError and
    `interview --load` read 2 GB; at the arrays, 2.6 GB; a pipe there would never end."""
    import os

    if kind == "device" and not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    if kind == "pipe" and not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    folder = save_game(sim, "endless", tmp_path)

    def plant(path):
        if kind == "device":
            os.symlink("/dev/zero", path)
        else:
            os.mkfifo(path)

    plant(folder / JOURNAL)
    listed, peak = bounded(lambda: {s.name: (s.scenario, s.note) for s in list_saves(tmp_path)})
    assert peak < 32 * 1024 * 1024  # listed as loading takes it: damaged, and why
    assert listed["endless"] == (
        "(damaged)",
        "the journal is not a file (a device, a pipe or a folder)",
    )
    error, peak = bounded(lambda: read_save("endless", tmp_path))
    assert isinstance(error, SaveError) and "journal is not a file" in str(error)
    (folder / JOURNAL).unlink()
    arrays = folder / json.loads((folder / "save.json").read_text())["arrays"]
    arrays.unlink()
    plant(arrays)
    error, peak = bounded(lambda: read_save("endless", tmp_path))
    assert isinstance(error, SaveError) and "not a file" in str(error)
    assert peak < 32 * 1024 * 1024


def test_a_journal_padded_with_lines_reads_only_as_many_as_autosaves_write(tmp_path, sim):
    """1.5 million planted one-line entries (46 MB, of another base) made `saves` parse
    every one of them, twice: 21 s for one listing. Only the first MAX_LINES are read;
    the rest are said as lines loading does not read."""
    from game.sim.autosave import MAX_LINES, read_journal

    writer = IncrementalWriter(save_path(AUTOSAVE, tmp_path))
    writer.write(snapshot(sim))
    sim.run_until(sim.now + timedelta(minutes=20))
    writer.write(snapshot(sim))
    with (writer.folder / JOURNAL).open("ab") as f:
        f.write(b'{"base":"other","increment":1}\n' * (3 * MAX_LINES))
    journal = read_journal(writer.folder)
    assert len(journal.entries) == MAX_LINES and journal.total == 3 * MAX_LINES + 1
    [info] = list_saves(tmp_path)
    doc, _ = read_save(AUTOSAVE, tmp_path)
    assert info.game_time == doc["clock"] == sim.now.isoformat()  # our line still applies
    assert f"more than autosaves write ({MAX_LINES})" in info.note
