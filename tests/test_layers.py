"""Layers import downward only, and nothing below game/ui imports pygame.

The layers are game/core < world < brains < mind < sim < ui. The top-level modules of
game (cli, commands, study_commands) sit above them all: they may import anything, and
nothing in the layers may import them. Relative imports count as much as absolute ones.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["core", "world", "brains", "mind", "sim", "ui"]
TOP = ["cli", "commands", "study_commands"]  # game's own modules, above every layer


def game_modules():
    """Each source file under game/ with its layer (None for game's top-level modules)."""
    for path in sorted((ROOT / "game").rglob("*.py")):
        parts = path.relative_to(ROOT / "game").parts
        layer = parts[0] if len(parts) > 1 else None
        yield path, layer


def module_name(path: Path) -> str:
    """'game/brains/scripted/talk.py' -> 'game.brains.scripted.talk'; a package's
    __init__.py is the package itself."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def resolve(importer: str, is_package: bool, module: str | None, level: int) -> str:
    """The absolute name a `from <dots><module> import ...` in `importer` refers to."""
    if level == 0:
        return module or ""
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    if level - 1 >= len(package):
        raise ValueError(f"{'.' * level}{module or ''} climbs above the top of {importer}")
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def imported_names(path: Path):
    """Every module (or module.attribute) the file imports, made absolute."""
    importer, is_package = module_name(path), path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(importer, is_package, node.module, node.level)
            # `from .. import sim` imports a module by its alias: name it, so its layer shows
            yield from (base if a.name == "*" else f"{base}.{a.name}" for a in node.names)


def layer_problem(layer: str | None, name: str) -> str | None:
    """Why a module in `layer` may not import `name`, or None when it may."""
    parts = name.split(".")
    if parts[0] == "pygame" and layer != "ui":
        return "imports pygame"
    if parts[0] != "game" or len(parts) < 2 or layer is None:
        return None
    if parts[1] in TOP:
        return f"({layer}) imports {name}, which sits above every layer"
    if parts[1] in ORDER and ORDER.index(parts[1]) > ORDER.index(layer):
        return f"({layer}) imports {name}"
    return None


def test_layers_import_downward_only():
    wrong = []
    for path, layer in game_modules():
        if layer is not None and layer not in ORDER:
            continue
        for name in imported_names(path):
            problem = layer_problem(layer, name)
            if problem:
                wrong.append(f"{path.relative_to(ROOT)} {problem}")
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_the_top_level_modules_and_relative_imports():
    """The walk reaches cli and commands, and a real relative import resolves."""
    layers = {module_name(path): layer for path, layer in game_modules()}
    assert layers["game.cli"] is None and layers["game.commands"] is None
    talk = ROOT / "game" / "brains" / "scripted" / "talk.py"
    assert "game.brains.scripted.interview" in set(imported_names(talk))


@pytest.mark.parametrize(
    ("importer", "is_package", "module", "level", "expected"),
    [
        ("game.brains.scripted.x", False, "sim", 3, "game.sim"),
        ("game.brains.scripted.x", False, "util", 1, "game.brains.scripted.util"),
        ("game.brains.scripted.x", False, None, 2, "game.brains"),
        ("game.brains.scripted", True, "talk", 1, "game.brains.scripted.talk"),
        ("game.brains.scripted", True, None, 2, "game.brains"),
        ("game.sim.saves", False, "core.paths", 2, "game.core.paths"),
        ("game.cli", False, "pygame", 0, "pygame"),
    ],
)
def test_relative_imports_resolve_to_absolute_names(importer, is_package, module, level, expected):
    assert resolve(importer, is_package, module, level) == expected


def test_a_relative_import_upward_is_caught():
    """`from ...sim import y` in game/brains/scripted/x.py reaches up into sim."""
    name = resolve("game.brains.scripted.x", False, "sim", 3) + ".y"
    assert layer_problem("brains", name) == "(brains) imports game.sim.y"
    up = resolve("game.brains.scripted.x", False, None, 3) + ".ui"  # from ... import ui
    assert layer_problem("brains", up) == "(brains) imports game.ui"


def test_no_layer_may_import_the_command_line():
    assert layer_problem("ui", "game.cli.main") is not None
    assert layer_problem("core", "game.commands") is not None
    assert layer_problem(None, "game.ui.app.App") is None  # cli and commands: anything


def test_a_relative_import_above_the_top_is_an_error():
    with pytest.raises(ValueError, match="climbs above"):
        resolve("game.cli", False, "x", 3)


def test_everything_below_ui_imports_without_pygame():
    modules = [module_name(path) for path, layer in game_modules() if layer in ORDER[:-1]]
    code = (
        "import sys; sys.modules['pygame'] = None\n"
        "import importlib\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "assert sys.modules['pygame'] is None\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
