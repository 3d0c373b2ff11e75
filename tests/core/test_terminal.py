"""What the commands print reaches the terminal without escapes, BEL or bidi marks:
main.py writes every command's stdout through CleanText."""

from __future__ import annotations

import io
import runpy
import sys
from pathlib import Path

import pytest

from game.core.terminal import CleanText, clean_stdout

HOSTILE = "Klaus\x1b[2J\x1b]0;owned\x07 Mueller\u202e \u200bis here\x9b31m\n\tnext line"
MAIN = Path(__file__).resolve().parents[2] / "main.py"


def test_clean_text_drops_what_repaints_a_terminal_and_keeps_lines():
    out = io.StringIO()
    stream = CleanText(out)
    assert stream.write(HOSTILE) == len(HOSTILE)
    print("\x07bell", file=stream)
    assert out.getvalue() == "Klaus Mueller is here31m\n\tnext linebell\n"


def test_clean_stdout_puts_the_stream_back():
    before = sys.stdout
    with pytest.raises(RuntimeError), clean_stdout():
        assert isinstance(sys.stdout, CleanText)
        raise RuntimeError
    assert sys.stdout is before


def test_main_py_cleans_whatever_a_command_prints(monkeypatch, capsys):
    import game.cli

    def command() -> int:
        print(HOSTILE)
        return 0

    monkeypatch.setattr(game.cli, "main", command)
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(MAIN), run_name="__main__")
    assert done.value.code == 0
    assert capsys.readouterr().out == "Klaus Mueller is here31m\n\tnext line\n"
