"""What the commands print reaches the terminal without escapes, BEL or bidi marks:
main.py writes every command's stdout and stderr through CleanText."""

from __future__ import annotations

import io
import runpy
import sys
from pathlib import Path

import pytest

from game.core.terminal import CleanText, clean_terminal

HOSTILE = "Klaus\x1b[2J\x1b]0;owned\x07 Mueller\u202e \u200bis here\x9b31m\n\tnext line"
SHOWN = "Klaus Mueller is here31m\n\tnext line"  # the lone C1 CSI goes, its inert rest stays
MAIN = Path(__file__).resolve().parents[2] / "main.py"


def test_clean_text_drops_what_repaints_a_terminal_and_keeps_lines():
    out = io.StringIO()
    stream = CleanText(out)
    assert stream.write(HOSTILE) == len(HOSTILE)
    print("\x07bell\r", file=stream)
    assert out.getvalue() == SHOWN + "bell\n"


def test_a_progress_line_may_start_with_a_carriage_return_and_nothing_else_may():
    out = io.StringIO()
    stream = CleanText(out, redraws=True)
    stream.write("\r12 steps/s\x1b[1A")
    stream.write("spoof\rover")
    assert out.getvalue() == "\r12 steps/sspoofover"
    plain = io.StringIO()
    CleanText(plain).write("\r12 steps/s")
    assert plain.getvalue() == "12 steps/s"


def test_clean_terminal_puts_the_streams_back():
    out, err = sys.stdout, sys.stderr
    with pytest.raises(RuntimeError), clean_terminal():
        assert isinstance(sys.stdout, CleanText) and isinstance(sys.stderr, CleanText)
        raise RuntimeError
    assert sys.stdout is out and sys.stderr is err


def test_main_py_cleans_whatever_a_command_prints(monkeypatch, capsys):
    import game.cli

    def command(argv=None) -> int:
        print(HOSTILE)
        print(HOSTILE, file=sys.stderr)
        return 0

    monkeypatch.setattr(game.cli, "_main", command)  # inside main's cleaned terminal
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(MAIN), run_name="__main__")
    assert done.value.code == 0
    printed = capsys.readouterr()
    assert printed.out == SHOWN + "\n" and printed.err == SHOWN + "\n"


def test_a_command_started_without_stdout_is_one_line_and_exit_1(tmp_path):
    """`main.py saves >&-`: Python sets sys.stdout to None, which was written to as a
    stream (an AttributeError traceback). Now the closed stream is an OSError: one line
    on stderr, exit 1."""
    import os
    import subprocess

    env = {
        **os.environ,
        "SMALLVILLE_DATA": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, str(MAIN), "saves"],
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(1),
        env=env,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.decode().strip() == (
        "error: nothing was printed: the standard output is closed"
    )
