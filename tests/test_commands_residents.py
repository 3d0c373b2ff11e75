"""`interview --agent` of a name that is no resident (game/commands.py): the line names
the resident meant when one is close, and shows the name clipped."""

import pytest

from game.commands import no_resident

NAMES = ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]


@pytest.mark.parametrize(
    "typed", ["klaus mueller", "Klaus  Mueller", " Klaus Mueller", "KLAUS MUELLER"]
)
def test_a_name_differing_in_spaces_or_case_says_so(typed):
    said = no_resident(typed, NAMES)
    assert said.startswith(repr(typed))
    assert "differs from 'Klaus Mueller' only in spaces or case" in said


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("Klaus", "Klaus Mueller"), ("maria", "Maria Lopez"), ("Klaus Müller", "Klaus Mueller")],
)
def test_a_first_name_or_a_near_spelling_is_guessed(typed, meant):
    assert no_resident(typed, NAMES).endswith(f"did you mean {meant!r}?")


def test_no_close_name_lists_some_residents_and_clips_the_name():
    said = no_resident("Z" * 5000, NAMES + ["Adam Smith", "Ayesha Khan"])
    assert len(said) < 200 and "..." in said
    assert "its residents: Adam Smith, Ayesha Khan, Isabella Rodriguez, Klaus Mueller, ..." in said


def test_interview_of_an_unknown_resident_is_one_line(tmp_path, monkeypatch, capsys):
    from game.cli import main

    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "config.toml"))
    run = [
        "run",
        "--scenario",
        "three",
        "--hours",
        "0.1",
        "--quiet",
        "--report",
        str(tmp_path / "r"),
    ]
    assert main([*run, "--save", "residents-three"]) == 0
    capsys.readouterr()
    assert main(["interview", "--load", "residents-three", "--agent", "Klaus", "hi"]) == 2
    err = capsys.readouterr().err
    assert (
        err.strip()
        == "error: no resident named 'Klaus' in this save; did you mean 'Klaus Mueller'?"
    )
