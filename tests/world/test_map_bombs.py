"""Hostile map files: a compressed layer that inflates to gigabytes, multi-member gzip,
deep nesting, oversize layers. Each is one MapError, found before pytmx inflates anything,
with little memory; an honest compressed map still loads."""

from __future__ import annotations

import base64
import gzip
import re
import struct
import time
import tracemalloc
import zlib
from functools import cache

import pytest
from tinymap import write_map

from game.core.errors import MapError
from game.world.tmx import load_town

ART = """
......
.##...
......
"""
AREAS = [("sector", "house", 0, 0, 3, 3), ("arena", "room", 0, 0, 3, 3)]
BOMB = 256 * 1024 * 1024  # bytes the hostile layer inflates to


def _with_data(path, data: str) -> None:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'<data encoding="csv">.*?</data>', data, text, flags=re.S)
    path.write_text(text, encoding="utf-8")


def _base64(raw: bytes, compression: str) -> str:
    return (
        f'<data encoding="base64" compression="{compression}">'
        f"{base64.b64encode(raw).decode()}</data>"
    )


@cache
def _zeros(size: int, compress) -> bytes:
    """`size` zero bytes compressed, without ever holding them all (once: squeezing 256 MB
    takes seconds, and several bombs are made of the same zeros)."""
    if compress is zlib.compress:
        packer = zlib.compressobj(9)
    else:
        packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    parts = [packer.compress(block) for _ in range(size // len(block))]
    return b"".join(parts) + packer.flush()


def _refused_fast(path) -> str:
    tracemalloc.start()
    began = time.perf_counter()
    try:
        with pytest.raises(MapError) as err:
            load_town(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    took = time.perf_counter() - began
    print(f"refused in {took:.3f} s, peak {peak / 1e6:.1f} MB: {err.value}")
    assert peak < 32 * 1024 * 1024  # the whole layer would be 256 MB
    assert "\n" not in str(err.value)
    return str(err.value)


@pytest.mark.parametrize("compression", ["zlib", "gzip"])
def test_a_compressed_bomb_layer_is_refused_before_it_inflates(tmp_path, compression):
    path = write_map(tmp_path / "bomb.tmx", ART, AREAS, {"visitor": (0, 0)})
    packer = zlib.compress if compression == "zlib" else gzip.compress
    _with_data(path, _base64(_zeros(BOMB, packer), compression))
    assert "inflates to more than" in _refused_fast(path)


def test_gzip_members_after_the_first_are_counted_too(tmp_path):
    path = write_map(tmp_path / "members.tmx", ART, AREAS, {"visitor": (0, 0)})
    honest = gzip.compress(struct.pack("<18L", *([1] * 18)))
    _with_data(path, _base64(honest + _zeros(BOMB, gzip.compress), "gzip"))
    assert "inflates to more than" in _refused_fast(path)


def test_an_honest_compressed_map_loads(tmp_path):
    path = write_map(tmp_path / "honest.tmx", ART, AREAS, {"visitor": (0, 0)})
    gids = [2 if ch == "#" else 1 for row in ART.strip().splitlines() for ch in row]
    raw = struct.pack(f"<{len(gids)}L", *gids)
    for compression, packer in (("zlib", zlib.compress), ("gzip", gzip.compress)):
        _with_data(path, _base64(packer(raw), compression))
        town = load_town(path)
        assert town.width == 6 and not town.walkable[1, 1] and town.walkable[0, 0]
        path = write_map(tmp_path / "honest.tmx", ART, AREAS, {"visitor": (0, 0)})


def test_deep_nesting_and_huge_layers_are_damaged_maps(tmp_path):
    path = write_map(tmp_path / "deep.tmx", ART, AREAS, {"visitor": (0, 0)})
    deep = "<properties>" * 5000 + "</properties>" * 5000
    path.write_text(path.read_text().replace("</map>", deep + "</map>"))
    assert "levels deep" in _refused_fast(path)
    path = write_map(tmp_path / "wide.tmx", ART, AREAS, {"visitor": (0, 0)})
    wide = path.read_text().replace('name="ground" width="6"', 'name="ground" width="99999"')
    path.write_text(wide)
    assert "outside 1..1000" in _refused_fast(path)


def test_a_csv_layer_with_more_tiles_than_declared_is_refused(tmp_path):
    path = write_map(tmp_path / "long.tmx", ART, AREAS, {"visitor": (0, 0)})
    _with_data(path, '<data encoding="csv">' + ",".join(["1"] * 100_000) + "</data>")
    assert "more tiles than" in _refused_fast(path)


def test_a_tileset_picture_that_decodes_to_gigabytes_is_refused(tmp_path):
    """A PNG header declaring 100,000 x 100,000 pixels: the window would decode it."""
    path = write_map(tmp_path / "art.tmx", ART, AREAS, {"visitor": (0, 0)})
    header = struct.pack(">II", 100_000, 100_000) + bytes([8, 6, 0, 0, 0])
    chunk = b"IHDR" + header
    png = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk
    png += struct.pack(">I", zlib.crc32(chunk)) + _zeros(BOMB, zlib.compress)[:4096]
    (tmp_path / "tiny.png").write_bytes(png)
    assert "100000 x 100000 pixels" in _refused_fast(path)


@pytest.mark.parametrize(
    ("name", "said"),
    [("../../etc", "holds '/'"), ("house\u202eesuoh", "holds U+202E"), ("x" * 65, "at most 64")],
)
def test_an_area_name_that_is_no_name_is_one_line(tmp_path, name, said):
    """Area names reach the terminal (`town`), prompts and saves: held to names' rules."""
    areas = [("sector", name, 0, 0, 3, 3), ("arena", "room", 0, 0, 3, 3)]
    with pytest.raises(MapError) as info:
        load_town(write_map(tmp_path / "m.tmx", ART, areas))
    assert said in str(info.value) and str(info.value).isprintable()
