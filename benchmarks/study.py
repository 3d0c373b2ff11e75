"""Wall time of one study on each engine: 8 seeds x 12 game hours of the 3-resident town on
1, 2 and 4 local workers, and on Ray with two nodes (one CPU each), in one run.

Each engine runs the same runs into a store of its own; the figures must agree run by
run (`same_measures`), since a run's measures depend on its seed and condition alone.
The Ray cluster is started here on the loopback (`ray start --head`, then a second
`ray start --address`) and its process groups are ended at the end; without Ray
installed that row is skipped and says why. On a machine with fewer cores than workers
the larger pools only queue: read the figures beside `cores` and the machine's load.

Usage: python benchmarks/study.py [--seeds 1,...,8] [--hours 12] [--workers 1,2,4] [--no-ray]
       (last line is JSON)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.core.blas import one_blas_thread  # noqa: E402

one_blas_thread()

from game.sim.engines import LocalPool, RayEngine, drive  # noqa: E402
from game.sim.runs import Setup, plan  # noqa: E402
from game.sim.store import Store, provenance  # noqa: E402


def timed(engine, specs, folder: Path, label: str) -> tuple[float, dict]:
    """Seconds for the whole study on `engine`, and each run's measures by key."""
    began = time.perf_counter()
    with Store.open(folder / f"{label}.db") as store:
        made = provenance(engine.name)
        try:
            tally = drive(specs, engine, lambda r: store.put(r, made))
        finally:
            engine.close()
        wall = time.perf_counter() - began
        held = [r for r in store.runs() if r.ok]
    each = sum(r.wall_seconds for r in held) / max(1, len(held))
    print(f"{label}: {wall:.1f} s ({tally.done} done, {tally.failed} failed; "
          f"{each:.1f} s a run)", flush=True)  # fmt: skip
    return wall, {r.spec.key: r.measures for r in held}


class Loopback:
    """Two Ray nodes on 127.0.0.1, each `ray start --block` leading its own process group."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="ray")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.address = f"127.0.0.1:{self.port}"
        self.env = os.environ | {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
        os.environ.update({k: self.env[k] for k in ("RAY_AUTH_MODE", "RAY_USAGE_STATS_ENABLED")})
        self.nodes: list[subprocess.Popen] = []

    def start(self, within: float = 300) -> None:
        import ray

        deadline = time.monotonic() + within
        self._node("--head", f"--port={self.port}", "--include-dashboard=false",
                   f"--temp-dir={self.folder}")  # fmt: skip
        self._wait(ray, 1, deadline)
        self._node(f"--address={self.address}")
        self._wait(ray, 2, deadline)
        ray.shutdown()

    def _node(self, *args: str) -> None:
        ray_cli = Path(sys.executable).with_name("ray")
        command = [str(ray_cli) if ray_cli.exists() else "ray", "start", *args,
                   "--num-cpus=1", "--node-ip-address=127.0.0.1", "--block"]  # fmt: skip
        self.nodes.append(subprocess.Popen(command, env=self.env, start_new_session=True,
                                           stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL))  # fmt: skip

    def _wait(self, ray, cpus: int, deadline: float) -> None:
        while time.monotonic() < deadline:
            with contextlib.suppress(ConnectionError, RuntimeError):
                if not ray.is_initialized():
                    ray.init(address=self.address, logging_level="ERROR", log_to_driver=False)
                if ray.cluster_resources().get("CPU", 0) >= cpus:
                    return
            time.sleep(1)
        raise RuntimeError(f"the Ray cluster had not {cpus} CPUs in time")

    def stop(self) -> None:
        for node in reversed(self.nodes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(node.pid, signal.SIGKILL)
            node.wait(10)
        for proc in Path("/proc").glob("[0-9]*"):  # the workers, in groups of their own
            with contextlib.suppress(OSError, ValueError):
                if self.folder.encode() in (proc / "cmdline").read_bytes():
                    os.kill(int(proc.name), signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)


def on_ray(specs, folder: Path) -> tuple[float | None, dict | None, str]:
    """The Ray row: its wall time (cluster start not counted) and measures, or why not."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return None, None, 'skipped: Ray is not installed (pip install -e ".[ray]")'
    cluster = Loopback()
    try:
        began = time.perf_counter()
        cluster.start()
        print(f"ray cluster of 2 nodes up in {time.perf_counter() - began:.1f} s", flush=True)
        wall, runs = timed(RayEngine(cluster.address), specs, folder, "ray-2-nodes")
        return wall, runs, "2 nodes on 127.0.0.1, 1 CPU each"
    finally:
        cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="1,2,3,4,5,6,7,8")
    parser.add_argument("--hours", type=float, default=12.0)
    parser.add_argument("--scenario", default="three")
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    specs = plan([Setup(args.scenario, "scripted", args.hours)], seeds)
    out: dict = {"benchmark": "study", "scenario": args.scenario, "seeds": len(seeds),
                 "game_hours": args.hours, "cores": os.cpu_count(),
                 "load_at_start": round(os.getloadavg()[0], 1)}  # fmt: skip
    folder = Path(tempfile.mkdtemp(prefix="study-bench"))
    measures = []
    try:
        for n in (int(w) for w in args.workers.split(",")):
            wall, runs = timed(LocalPool(n), specs, folder, f"local-{n}")
            out[f"local_{n}_workers_seconds"] = round(wall, 1)
            measures.append(runs)
        if not args.no_ray:
            wall, runs, note = on_ray(specs, folder)
            out["ray_2_nodes_seconds"] = None if wall is None else round(wall, 1)
            out["ray"] = note
            if runs is not None:
                measures.append(runs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    out["runs_ok"] = min(len(m) for m in measures)
    out["same_measures"] = all(m == measures[0] for m in measures)
    out["load_at_end"] = round(os.getloadavg()[0], 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
