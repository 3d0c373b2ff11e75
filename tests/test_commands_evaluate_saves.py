"""`evaluate --load a --load b` (game/commands.py): a save after the first that is damaged
or missing is said before any save is measured, and nothing is written."""

import pytest

from game.cli import main
from game.sim.saves import saves_root


@pytest.fixture(autouse=True)
def own_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "cfg" / "config.toml"))
    monkeypatch.setenv("SMALLVILLE_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    report = tmp_path_factory.mktemp("run") / "r.json"
    args = ["run", "--scenario", "three", "--hours", "0.5", "--quiet", "--report", str(report)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SMALLVILLE_CONFIG", str(tmp_path_factory.mktemp("cfg") / "config.toml"))
        assert main([*args, "--save", "eval-good"]) == 0
    return "eval-good"


def damaged(good: str) -> str:
    import shutil

    folder = saves_root() / "eval-damaged"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(saves_root() / good, folder)
    (folder / "save.json").write_bytes((saves_root() / good / "save.json").read_bytes()[:1000])
    return folder.name


@pytest.mark.parametrize("second", ["damaged", "missing"])
def test_a_bad_second_save_is_said_before_the_first_is_measured(
    second, good, tmp_path, monkeypatch, capsys
):
    import game.sim.evaluation as evaluation

    def never(*_args, **_kwargs):
        raise AssertionError("a save was measured")

    monkeypatch.setattr(evaluation, "measure", never)
    other = damaged(good) if second == "damaged" else "eval-nosuch"
    report = tmp_path / "eval.json"
    assert main(["evaluate", "--load", good, "--load", other, "--report", str(report)]) == 2
    err = capsys.readouterr().err
    words = "damaged" if second == "damaged" else "no save here"
    assert err.startswith("error:") and words in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # no report, no chart of the first


def test_two_good_saves_are_both_measured(good, tmp_path):
    report = tmp_path / "eval.json"
    assert main(["evaluate", "--load", good, "--load", good, "--report", str(report)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "eval-eval-good.png",
        "eval.json",
    ]
