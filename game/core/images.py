"""A PNG's declared size, read from its header before anything decodes it.

A small file may declare a picture that needs gigabytes once decoded (a 1.5 MB PNG
declaring 20000 x 20000 pixels took the window to 3.3 GB), and the decoder allocates
the whole picture first. So every PNG the game loads is measured here, from its first
24 bytes (signature, IHDR length and type, width, height), and refused above a cap.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from game.core.errors import SmallvilleError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_HEADER = struct.Struct(">8sI4sII")  # signature, IHDR length, b"IHDR", width, height


class ImageError(SmallvilleError):
    """A picture that is no PNG, is damaged, or is larger than its use allows."""


@dataclass(frozen=True)
class ImageSize:
    width: int
    height: int

    @property
    def pixels(self) -> int:
        return self.width * self.height


def png_size(path: Path) -> ImageSize:
    """The width and height a PNG declares; ImageError if it is not a readable PNG."""
    try:
        with Path(path).open("rb") as f:
            head = f.read(_HEADER.size)
    except OSError as exc:
        raise ImageError(f"{Path(path).name[:60]!r}: cannot be read ({exc.strerror})") from None
    if len(head) < _HEADER.size:
        raise ImageError(f"{Path(path).name[:60]!r}: not a PNG (too short)")
    signature, _, kind, width, height = _HEADER.unpack(head)
    if signature != PNG_SIGNATURE or kind != b"IHDR":
        raise ImageError(f"{Path(path).name[:60]!r}: not a PNG")
    return ImageSize(width, height)


def checked_png(path: Path, max_side: int, max_pixels: int | None = None) -> ImageSize:
    """The PNG's size if it is a PNG within `max_side` on each side (and `max_pixels`
    in all), else ImageError saying how large it claims to be."""
    size = png_size(path)
    if not (size.width and size.height):
        name = Path(path).name[:60]
        raise ImageError(f"{name!r}: declares no pixels ({size.width} x {size.height})")
    limit = max_side * max_side if max_pixels is None else max_pixels
    if size.width > max_side or size.height > max_side or size.pixels > limit:
        raise ImageError(
            f"{Path(path).name[:60]!r} is {size.width} x {size.height} pixels:"
            f" too large (at most {max_side} x {max_side})"
        )
    return size
