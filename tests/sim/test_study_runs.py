"""The study runner (issue 26): a failed run is retried once and then stored with its
error, the order in which runs finish never shows, a dead pool worker is one failed
attempt, Ctrl+C keeps what is stored, and `study` resumes from its store."""

import sqlite3

import pytest
import study_tasks

from game.cli import main
from game.sim.engines import LocalPool, Tally, drive
from game.sim.runs import RunResult, RunSpec, Setup, plan
from game.sim.store import Provenance, Store

THREE = Setup("three", "scripted", 1.0)
MADE = Provenance("test", None, "test")


class Backwards:
    """An engine of this process that finishes its runs last-started first, failing the
    seeds in `fails` (as often as told) and raising Ctrl+C at the run `interrupt_at`."""

    name = "backwards"

    def __init__(self, capacity=3, fails=None, interrupt_at=None):
        self.capacity, self.fails, self.interrupt_at = capacity, dict(fails or {}), interrupt_at
        self.flying, self.started, self.cancelled = [], [], False

    def start(self, spec):
        self.flying.append(spec)
        self.started.append(spec.seed)

    def in_flight(self):
        return len(self.flying)

    def finished(self, timeout):
        if len(self.started) == self.interrupt_at:
            raise KeyboardInterrupt
        spec = self.flying.pop()
        if self.fails.get(spec.seed, 0) > 0:
            self.fails[spec.seed] -= 1
            return [RunResult(spec, error=f"ValueError: seed {spec.seed} went wrong")]
        return [study_tasks.quick(spec)]

    def cancel(self):
        self.cancelled = True

    def close(self):
        pass


def stored_runs(specs, engine, tmp_path):
    tmp_path.mkdir(exist_ok=True)
    with Store.open(tmp_path / "s.db") as store:
        tally = drive(specs, engine, lambda r: store.put(r, MADE))
        return tally, store.runs()


def test_a_failure_is_retried_once_then_stored_with_its_error(tmp_path):
    engine = Backwards(fails={2: 5, 3: 1})  # 2 always fails, 3 only the first time
    tally, runs = stored_runs(plan([THREE], [1, 2, 3]), engine, tmp_path)
    assert (tally.done, tally.failed, tally.running) == (2, 1, 0)
    assert engine.started.count(2) == 2 and engine.started.count(3) == 2
    by_seed = {r.seed: r for r in runs}
    assert by_seed[3].ok and by_seed[3].attempts == 2
    assert not by_seed[2].ok and by_seed[2].attempts == 2
    assert by_seed[2].error == "ValueError: seed 2 went wrong" and by_seed[2].measures == ()


def test_the_order_runs_finish_in_never_shows(tmp_path):
    specs = plan([THREE], [5, 1, 4, 2, 3])
    _, one_by_one = stored_runs(specs, Backwards(capacity=1), tmp_path / "a")
    _, backwards = stored_runs(specs, Backwards(capacity=5), tmp_path / "b")
    assert one_by_one == backwards
    assert [r.seed for r in backwards] == [1, 2, 3, 4, 5]


def test_ctrl_c_cancels_the_rest_and_keeps_what_is_stored(tmp_path):
    engine = Backwards(capacity=1, interrupt_at=3)
    with Store.open(tmp_path / "s.db") as store:
        with pytest.raises(KeyboardInterrupt):
            drive(plan([THREE], [1, 2, 3, 4]), engine, lambda r: store.put(r, MADE))
        assert engine.cancelled
        assert [r.seed for r in store.runs()] == [1, 2]


def test_a_pool_worker_that_dies_is_one_failed_attempt_and_the_pool_goes_on(tmp_path):
    engine = LocalPool(1, task=study_tasks.dies_on_two)
    try:
        tally, runs = stored_runs(plan([THREE], [1, 2, 3]), engine, tmp_path)
    finally:
        engine.close()
    assert (tally.done, tally.failed) == (2, 1)
    failed = [r for r in runs if not r.ok]
    assert [(r.seed, r.attempts) for r in failed] == [(2, 2)]
    assert "BrokenProcessPool" in failed[0].error
    assert {r.seed: r.measures[0].value for r in runs if r.ok} == {1: 1.0, 3: 3.0}


def finished_at(db):
    with sqlite3.connect(db) as con:
        return dict(con.execute("SELECT scenario, finished_at || status FROM runs"))


def test_study_resumes_from_its_store_and_keeps_failures_with_their_errors(tmp_path, capsys):
    """Through the command: the store already holds seed 4 of 'three' (measures made up,
    so a run would show), and a scenario that does not exist fails twice and is kept
    with its error beside it; the study exits 1."""
    db = tmp_path / "study.db"
    held = study_tasks.quick(RunSpec(Setup("three", "scripted", 0.1), 4))
    with Store.open(db) as store:
        store.put(held, MADE)
    before = finished_at(db)
    missing = tmp_path / "nowhere.json"
    args = ["study", "--scenario", "three", "--scenario", str(missing), "--seeds", "4",
            "--hours", "0.1", "--workers", "1", "--store", str(db), "--quiet"]  # fmt: skip
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert "1 run(s) already in" in err and "--rerun" in err and "1 run(s) failed" in err
    assert "== three scripted 0.1h (seeds 4)" in out
    assert "== nowhere scripted 0.1h (seeds none; failed: seed 4)" in out
    assert "twice" in out.split("== three")[1]  # the held run's own (made-up) measure
    with Store.open(db) as store:
        runs = {r.setup.scenario: r for r in store.runs()}
    assert runs["three"].measures == held.measures  # not run again
    assert finished_at(db)["three"] == before["three"]
    failed = runs[str(missing)]
    assert not failed.ok and failed.attempts == 2 and "nowhere.json" in failed.error


def test_ray_missing_or_not_is_one_line_before_any_store(tmp_path, capsys, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_ray(name, *a, **k):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    db = tmp_path / "s.db"
    assert main(["study", "--scenario", "three", "--seeds", "1", "--engine", "ray",
                 "--store", str(db)]) == 2  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ['error: Ray is not installed: pip install -e ".[ray]" (the optional '
                   'extra), then try again']  # fmt: skip
    assert not db.exists()


def test_the_time_left_counts_down_between_finishes():
    tally = Tally(total=4, done=1, began=100.0, last=110.0)  # 10 s a run: 40 s in all
    assert tally.eta(110.0) == 30.0 and tally.eta(125.0) == 15.0 and tally.eta(160.0) == 0.0
    assert Tally(total=4, began=100.0).eta(120.0) is None
    assert Tally(total=1, done=1, began=100.0, last=101.0).eta(102.0) is None
