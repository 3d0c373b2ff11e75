"""The results store (issue 26): a round trip of runs and measures, replacing a run,
failed runs kept with their errors, and files that are not a store; the table by
condition read from it."""

import csv
import importlib.util
import sqlite3

import pytest

from game.core.errors import SmallvilleError
from game.sim.runs import Measure, RunResult, RunSpec, Setup, ablation_key, plan, setups
from game.sim.store import Provenance, Store
from game.sim.study import by_condition, condition_table
from game.study_commands import PARQUET_MISSING

MADE = Provenance("0.1.0", "abc123", "local")
THREE = Setup("three", "scripted", 12.0)


def result(seed: int, value: float, setup: Setup = THREE, error: str = "") -> RunResult:
    if error:
        return RunResult(RunSpec(setup, seed), error=error, attempts=2)
    measures = (Measure("density end", "both ways", 0.74, value),
                Measure("conversations", "event log", None, 10 * value))  # fmt: skip
    return RunResult(RunSpec(setup, seed), measures, 1.5, evaluation={"seed": seed})


def test_runs_measures_and_evaluations_come_back_as_they_went_in(tmp_path):
    path = tmp_path / "study.db"
    with Store.open(path) as store:
        store.put(result(2, 0.5), MADE)
        store.put(result(1, 1.0), MADE)
    with Store.open(path, create=False) as store:  # a second connection: it was committed
        runs = store.runs()
        assert [r.spec.key for r in runs] == sorted(r.spec.key for r in runs)
        assert [r.seed for r in runs] == [1, 2] and all(r.ok for r in runs)
        assert runs[1].measures == result(2, 0.5).measures
        assert store.evaluation(runs[0].spec.key) == {"seed": 1}
        assert store.held() == {r.spec.key for r in runs}
        header, rows = store.raw_rows()
        rows = list(rows)
    assert len(rows) == 4  # one row per run and measure
    row = dict(zip(header, rows[0], strict=True))
    assert row["seed"] == 1 and row["measure"] == "density end" and row["value"] == 1.0
    assert (row["version"], row["git_commit"], row["engine"]) == ("0.1.0", "abc123", "local")
    assert row["scenario"] == "three" and row["brain"] == "scripted" and row["hours"] == 12
    assert row["wall_seconds"] == 1.5 and row["condition"] == "three scripted 12h"


def test_a_run_put_again_replaces_the_old_one(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        store.put(result(1, 1.0), MADE)
        store.put(result(1, 0.25), MADE)
        (run,) = store.runs()
        assert run.measures[0].value == 0.25
        assert len(list(store.raw_rows()[1])) == 2


def test_a_failed_run_is_kept_with_its_error_and_is_not_held(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        store.put(result(1, 1.0), MADE)
        store.put(result(2, 0, error="SmallvilleError: no scenario 'nowhere'"), MADE)
        failed = [r for r in store.runs() if not r.ok]
        assert [(r.seed, r.attempts, r.error) for r in failed] == [
            (2, 2, "SmallvilleError: no scenario 'nowhere'")
        ]
        assert store.held() == {RunSpec(THREE, 1).key}  # the next study runs it again
        (group,) = by_condition(store.runs())
    assert group.seeds == (1,) and group.failed == (2,)
    assert "failed: seed 2" in condition_table([group])


def test_a_file_that_is_not_a_store_is_one_line(tmp_path):
    junk = tmp_path / "notes.db"
    junk.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(SmallvilleError, match="not a results store"):
        Store.open(junk)
    assert junk.read_text().startswith("these are my notes")
    with pytest.raises(SmallvilleError, match="no results store"):
        Store.open(tmp_path / "missing.db", create=False)


def test_a_store_of_a_newer_version_is_refused(tmp_path):
    path = tmp_path / "new.db"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version=99")
    with pytest.raises(SmallvilleError, match="newer version"):
        Store.open(path)


def test_the_table_by_condition_by_hand():
    other = Setup("three", "scripted", 12.0, ablation_key("memory"))
    runs = [result(s, v) for s, v in ((3, 0.5), (1, 1.0), (2, 0.75))] + [result(1, 0.1, other)]
    held = [_Held(r) for r in runs]
    groups = by_condition(reversed(held))  # the order runs come in never shows
    assert [g.setup.label for g in groups] == ["three scripted 12h", "three scripted 12h no memory"]
    density = groups[0].rows[0]
    assert density.values == (1.0, 0.75, 0.5)  # by seed
    assert (density.mean, density.sd, density.low, density.high) == (0.75, 0.25, 0.5, 1.0)
    assert density.paper == 0.74 and groups[1].rows[0].sd == 0.0
    text = condition_table(groups)
    assert "== three scripted 12h (seeds 1,2,3)" in text
    assert "density end" in text and "0.74" in text


def test_a_study_plans_every_condition_seed_and_repeat_once():
    conditions = setups(["three", "smallville"], ["scripted"], [1.0, 2.0], ["", "reflection"])
    specs = plan(conditions, [2, 1, 2], repeats=2)
    assert len(specs) == 2 * 2 * 2 * 2 * 2  # the seed given twice is one seed
    assert [s.key for s in specs] == sorted(s.key for s in specs)
    assert ablation_key("planning, reflection") == ablation_key("reflection,planning,full")
    with pytest.raises(SmallvilleError, match="--ablate takes"):
        ablation_key("memroy")


class _Held:
    """A RunResult as the table reads a stored run."""

    def __init__(self, r: RunResult) -> None:
        self.setup, self.seed, self.ok, self.measures = r.spec.setup, r.spec.seed, r.ok, r.measures


def filled_store(path):
    with Store.open(path) as store:
        for seed, value in ((1, 1.0), (2, 0.5)):
            store.put(result(seed, value), MADE)
        store.put(result(1, 0.25, Setup("three", "scripted", 12.0, "memory")), MADE)
    return path


def test_results_prints_the_table_and_exports_it(tmp_path, capsys):
    from game.cli import main

    db = filled_store(tmp_path / "study.db")
    table, raw, png = tmp_path / "t.csv", tmp_path / "raw.csv", tmp_path / "p.png"
    assert main(["results", "--store", str(db), "--csv", str(table), "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "== three scripted 12h (seeds 1,2)" in out and "no memory (seeds 1)" in out
    rows = list(csv.DictReader(table.open()))
    assert len(rows) == 4  # two conditions x two measures
    density = next(r for r in rows if r["ablate"] == "full" and r["measure"] == "density end")
    assert (density["n"], density["mean"], density["sd"], density["paper"]) == (
        "2", "0.75", "0.3536", "0.74")  # fmt: skip
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["results", "--store", str(db), "--csv", str(raw), "--raw"]) == 0
    assert len(list(csv.DictReader(raw.open()))) == 3 * 2  # one per run and measure


def test_parquet_without_pyarrow_is_one_line_and_a_missing_store_too(tmp_path, capsys):
    from game.cli import main

    db = filled_store(tmp_path / "study.db")
    out = tmp_path / "t.parquet"
    code = main(["results", "--store", str(db), "--parquet", str(out)])
    if importlib.util.find_spec("pyarrow") is None:
        assert code == 2
        assert capsys.readouterr().err.strip() == f"error: {PARQUET_MISSING}"
    else:
        import pyarrow.parquet as pq

        assert code == 0 and pq.read_table(out).num_rows == 4
    assert main(["results", "--store", str(tmp_path / "none.db")]) == 2
    assert "no results store" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_each_run_has_a_valid_save_name_of_its_own(tmp_path):
    from game.sim.saves import name_folder

    long = Setup("/some/where/a-town-with-a-very-long-name.json", "llm", 0.25,
                 ablation_key("memory,planning,reflection"))  # fmt: skip
    specs = plan([long, THREE], [1, 2], repeats=2)
    names = {s.save_name for s in specs}
    assert len(names) == len(specs)
    for name in names:
        assert name_folder(name, tmp_path).parent == tmp_path  # refused names raise
