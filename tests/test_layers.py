"""Layers import downward only, and nothing below game/ui imports pygame."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["core", "world", "brains", "mind", "sim", "ui"]


def game_modules():
    for path in sorted((ROOT / "game").rglob("*.py")):
        parts = path.relative_to(ROOT / "game").parts
        layer = parts[0] if len(parts) > 1 else None
        yield path, layer


def imported_names(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_layers_import_downward_only():
    wrong = []
    for path, layer in game_modules():
        if layer not in ORDER:
            continue
        for name in imported_names(path):
            parts = name.split(".")
            if parts[0] == "pygame" and layer != "ui":
                wrong.append(f"{path.relative_to(ROOT)} imports pygame")
            upward = (
                len(parts) > 1 and parts[1] in ORDER and ORDER.index(parts[1]) > ORDER.index(layer)
            )
            if parts[0] == "game" and upward:
                wrong.append(f"{path.relative_to(ROOT)} ({layer}) imports {name}")
    assert not wrong, "\n".join(wrong)


def test_everything_below_ui_imports_without_pygame():
    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path, layer in game_modules()
        if layer in ORDER[:-1]
    ]
    code = (
        "import sys; sys.modules['pygame'] = None\n"
        "import importlib\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name.removesuffix('.__init__'))\n"
        "assert sys.modules['pygame'] is None\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
