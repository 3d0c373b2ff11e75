"""A study on a Ray cluster of two nodes gives the local pool's measures (issue 26).

The cluster is started inside the test on the loopback: a head (`ray start --head`) and a
second node (`ray start --address`), one CPU each, in a temporary folder of their own.
Each `ray start --block` leads a process group of its own, so the teardown ends exactly
the processes this test started (each group, then anything still naming its folder),
never another Ray on the machine, as `ray stop` would. Every wait has a deadline: a
cluster that does not come up in time fails the test rather than hanging the suite.
Skipped, saying why, where Ray is not installed (the `ray` extra).
"""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason='Ray is not installed: pip install -e ".[dev,ray]"')

from game.cli import main  # noqa: E402
from game.sim.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEEDS, HOURS = "1,2,3", "1"
START_WITHIN = 240  # seconds for both nodes to join, on a slow shared machine
STUDY_WITHIN = 400


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_command() -> str:
    beside = Path(sys.executable).with_name("ray")
    found = str(beside) if beside.exists() else shutil.which("ray")
    if not found:
        pytest.skip("Ray is installed but its `ray` command is not on this Python's path")
    return found


class Cluster:
    """The nodes this test started: their process groups and their folder."""

    def __init__(self, folder: str, env: dict[str, str]) -> None:
        self.folder, self.env, self.nodes, self.port = folder, env, [], free_port()
        self.address = f"127.0.0.1:{self.port}"

    def start(self, *args: str) -> None:
        log = open(Path(self.folder) / f"node{len(self.nodes)}.log", "wb")  # noqa: SIM115
        common = ["--num-cpus=1", "--node-ip-address=127.0.0.1", "--disable-usage-stats"]
        self.nodes.append(subprocess.Popen(
            [ray_command(), "start", *args, *common, "--block"], stdout=log,
            stderr=subprocess.STDOUT, env=self.env, start_new_session=True,
        ))  # fmt: skip
        log.close()

    def wait_for(self, cpus: int, deadline: float) -> None:
        """Until the cluster has `cpus` CPUs (a node each), asked from this process."""
        while True:
            self._alive()
            try:
                if not ray.is_initialized():
                    ray.init(address=self.address, logging_level="ERROR", log_to_driver=False)
                if ray.cluster_resources().get("CPU", 0) >= cpus:
                    return
            except (ConnectionError, RuntimeError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the Ray cluster had not {cpus} CPUs after {START_WITHIN} s")
            time.sleep(1)

    def _alive(self) -> None:
        for node in self.nodes:
            if node.poll() is not None:
                logs = "".join(p.read_text(errors="replace")[-800:]
                               for p in Path(self.folder).glob("node*.log"))  # fmt: skip
                pytest.fail(f"a Ray node exited ({node.returncode}): {logs}")

    def stop(self) -> None:
        if ray.is_initialized():
            ray.shutdown()
        for node in reversed(self.nodes):  # a throwaway cluster: no graceful stop (20+ s)
            _signal_group(node.pid, signal.SIGKILL)
            node.wait(10)
        _kill_naming(self.folder)
        shutil.rmtree(self.folder, ignore_errors=True)


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, sig)


def _kill_naming(folder: str) -> None:
    """Ray's workers lead groups of their own; each names the cluster's folder."""
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if folder.encode() in (proc / "cmdline").read_bytes():
                os.kill(int(proc.name), signal.SIGKILL)
        except (OSError, ValueError):
            continue


@pytest.fixture(scope="module")
def cluster():
    folder = tempfile.mkdtemp(prefix="ray")  # short: Ray's socket paths have a length limit
    # Token authentication is for clusters others can reach; this one is on the loopback.
    env = os.environ | {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    with pytest.MonkeyPatch.context() as mp:
        for name in ("RAY_AUTH_MODE", "RAY_USAGE_STATS_ENABLED"):
            mp.setenv(name, env[name])
        mp.delenv("RAY_ADDRESS", raising=False)
        nodes = Cluster(folder, env)
        try:
            deadline = time.monotonic() + START_WITHIN
            nodes.start("--head", f"--port={nodes.port}", "--include-dashboard=false",
                        f"--temp-dir={folder}")  # fmt: skip
            nodes.wait_for(1, deadline)
            nodes.start(f"--address={nodes.address}")
            nodes.wait_for(2, deadline)
            assert len([n for n in ray.nodes() if n["Alive"]]) == 2
            ray.shutdown()  # the study connects by itself, as a user's would
            yield nodes
        finally:
            nodes.stop()


def measures(db: Path) -> dict[str, tuple]:
    with Store.open(db, create=False) as store:
        return {r.spec.key: r.measures for r in store.runs() if r.ok}


def test_two_ray_nodes_give_the_local_pools_measures(cluster, tmp_path):
    study = ["study", "--scenario", "three", "--seeds", SEEDS, "--hours", HOURS, "--quiet"]
    on_ray = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *study, "--engine", "ray",
         "--ray-address", cluster.address, "--store", str(tmp_path / "ray.db")],
        capture_output=True, text=True, timeout=STUDY_WITHIN, env=cluster.env,
    )  # fmt: skip
    assert on_ray.returncode == 0, on_ray.stderr[-3000:]
    assert main([*study, "--workers", "2", "--store", str(tmp_path / "pool.db")]) == 0
    ray_runs, pool_runs = measures(tmp_path / "ray.db"), measures(tmp_path / "pool.db")
    assert len(ray_runs) == 3 and all(ray_runs.values())
    assert ray_runs == pool_runs
    with Store.open(tmp_path / "ray.db", create=False) as store:
        header, rows = store.raw_rows()
        engines = {dict(zip(header, row, strict=True))["engine"] for row in rows}
    assert engines == {"ray"}
