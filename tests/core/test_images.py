"""A PNG's declared size is read from its first 24 bytes and refused above the cap,
whatever the rest of the file holds: the decoder never sees a picture that large."""

from __future__ import annotations

import struct
import time
import zlib

import pytest

from game.core.images import ImageError, checked_png, png_size


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, rows: int | None = None) -> bytes:
    """A PNG declaring width x height (8-bit RGBA), with `rows` rows of pixel data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    raw = b"".join(b"\x00" + b"\x80" * (4 * width) for _ in range(height if rows is None else rows))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw)) + _chunk(b"IEND", b""))  # fmt: skip


def test_an_honest_png_is_measured(tmp_path):
    path = tmp_path / "sheet.png"
    path.write_bytes(png(96, 128))
    size = checked_png(path, 4096)
    assert (size.width, size.height, size.pixels) == (96, 128, 96 * 128)


def test_a_small_file_declaring_a_huge_picture_is_refused_from_its_header(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(png(20000, 20000, rows=1))  # a few KB that would decode to 1.6 GB
    assert path.stat().st_size < 100_000
    start = time.perf_counter()
    with pytest.raises(ImageError) as info:
        checked_png(path, 4096)
    assert time.perf_counter() - start < 0.5
    assert "'bomb.png' is 20000 x 20000 pixels: too large (at most 4096 x 4096)" in str(info.value)


@pytest.mark.parametrize(("width", "height"), [(4097, 16), (16, 4097), (0, 16)])
def test_each_side_is_checked(tmp_path, width, height):
    path = tmp_path / "odd.png"
    path.write_bytes(png(width, height, rows=0))
    with pytest.raises(ImageError):
        checked_png(path, 4096)


def test_the_pixel_cap_is_checked_apart_from_the_sides(tmp_path):
    path = tmp_path / "wide.png"
    path.write_bytes(png(4000, 4000, rows=0))
    assert checked_png(path, 4096).pixels == 16_000_000
    with pytest.raises(ImageError, match="too large"):
        checked_png(path, 4096, max_pixels=1_000_000)


@pytest.mark.parametrize(
    ("content", "said"),
    [(b"GIF89a" + b"\x00" * 40, "not a PNG"), (b"\x89PNG\r\n\x1a\n", "too short"),
     (b"\x89PNG\r\n\x1a\n" + _chunk(b"tEXt", b"x" * 13), "not a PNG")],
)  # fmt: skip
def test_what_is_not_a_png_is_said(tmp_path, content, said):
    path = tmp_path / "fake.png"
    path.write_bytes(content)
    with pytest.raises(ImageError, match=said):
        png_size(path)


def test_a_missing_file_is_one_line(tmp_path):
    with pytest.raises(ImageError, match="cannot be read"):
        png_size(tmp_path / "none.png")
