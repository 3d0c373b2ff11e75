"""Every module of the game stays small enough to read: no source file in game/ over 700
lines and no class over 400 (the code, not its data: the exemplar lines are JSON)."""

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parents[1] / "game"
MAX_FILE_LINES, MAX_CLASS_LINES = 700, 400


def test_no_game_file_over_700_lines_and_no_class_over_400():
    sources = sorted(GAME.rglob("*.py"))
    assert len(sources) > 50  # the walk found the game
    too_long = []
    for path in sources:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(GAME).as_posix()
        if len(text.splitlines()) > MAX_FILE_LINES:
            too_long.append(f"{name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text, filename=name)):
            if isinstance(node, ast.ClassDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_CLASS_LINES:
                    too_long.append(f"{name}: class {node.name}, {lines} lines")
    assert not too_long, too_long
