"""Numpy archives (.npz, a zip of .npy files) read with bounded memory.

np.load of a zip trusts it: a member may declare a huge shape (numpy allocates it before
reading a byte) or inflate far past its size on disk. Saves and autosave journals come
from a folder anyone can write into, so before reading we check the zip's directory and
each array's header: the whole archive may inflate to at most a fixed multiple of its size
on disk (our own arrays barely compress), and no array may be larger than its member.
"""

from __future__ import annotations

import math
import stat
import zipfile
import zlib
from pathlib import Path

import numpy as np

MAX_MEMBERS = 10_000  # arrays in one archive (a save of 25 residents has 100)
MAX_RATIO = 20  # inflated bytes per byte on disk (float arrays compress about 1.1x)
FLOOR = 64 * 1024 * 1024  # small archives may always inflate to this much


def load_npz(path: Path | str) -> dict[str, np.ndarray]:
    """Every array of the archive; ValueError (one line) when it is damaged or a bomb.
    OSError (FileNotFoundError included) passes through."""
    path = Path(path)
    st = path.stat()
    if not stat.S_ISREG(st.st_mode):  # a link to /dev/zero read 2.6 GB before it failed
        raise ValueError("not a file (a device, a pipe or a folder)")
    budget = max(FLOOR, MAX_RATIO * st.st_size)
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            _check_directory(infos, budget)
            for info in infos:
                _check_header(archive, info)
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, KeyError, zlib.error) as exc:
        raise ValueError(f"not a valid archive ({type(exc).__name__}: {exc})") from None
    except (NotImplementedError, RuntimeError) as exc:  # unknown compression, encryption
        raise ValueError(f"unsupported archive ({exc})") from None


def check_npz(path: Path | str, checksums: bool = True) -> dict[str, tuple[int, ...]]:
    """Each array's name and shape, with every byte read against its checksum but no
    array built: what the saves listing asks of an autosave's rows files, so that it
    shows only what loading would take (a truncated or scribbled file fails here as it
    would in load_npz; ValueError, one line). Without `checksums`, only the directory and
    headers are read (a base's arrays: megabytes). OSError passes through."""
    path = Path(path)
    st = path.stat()
    if not stat.S_ISREG(st.st_mode):
        raise ValueError("not a file (a device, a pipe or a folder)")
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            _check_directory(infos, max(FLOOR, MAX_RATIO * st.st_size))
            names = [i.filename.removesuffix(".npy") for i in infos]
            shapes = [_check_header(archive, i, read_through=checksums) for i in infos]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, KeyError, zlib.error) as exc:
        raise ValueError(f"not a valid archive ({type(exc).__name__}: {exc})") from None
    except (NotImplementedError, RuntimeError) as exc:
        raise ValueError(f"unsupported archive ({exc})") from None
    return dict(zip(names, shapes, strict=True))


def _check_directory(infos: list[zipfile.ZipInfo], budget: int) -> None:
    if len(infos) > MAX_MEMBERS:
        raise ValueError(f"{len(infos)} arrays is more than an archive of ours holds")
    total = sum(i.file_size for i in infos)
    if total > budget:
        raise ValueError(f"inflates to {total} bytes, more than it can hold ({budget})")
    for info in infos:
        if not info.filename.endswith(".npy") or info.flag_bits & 0x1:
            raise ValueError(f"unexpected member {info.filename[:60]!r}")


def _check_header(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, read_through: bool = False
) -> tuple[int, ...]:
    """The array a member declares fits in the member (the zip reader stops at its size);
    its shape. `read_through`: the rest of the member is read too, in the same pass, so
    the zip reader checks its CRC at the end (BadZipFile when it fails)."""
    with archive.open(info) as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"array format {version} of {info.filename[:60]!r}")
        while read_through and f.read(1 << 20):
            pass
    if dtype.hasobject:
        raise ValueError(f"{info.filename[:60]!r} holds objects, not numbers")
    declared = math.prod(shape) * dtype.itemsize
    if declared > info.file_size:
        raise ValueError(f"{info.filename[:60]!r} declares {declared} bytes in {info.file_size}")
    return tuple(shape)
