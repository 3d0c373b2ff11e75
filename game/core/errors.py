"""Errors the player may see.

Every error that can reach a person carries a one-line message naming what was wrong and
where (file, resident, field), so the CLI can print it without a traceback.
"""

from __future__ import annotations

MAX_PROBLEM = 300  # characters: a damaged file must not flood the screen with its contents
NAME_SHOWN = 64  # characters of a name an error names: a name is at most 64 long


def clip(text: str, most: int = MAX_PROBLEM) -> str:
    """One line, of reasonable length, whatever a damaged file put into it."""
    line = " ".join(str(text).split())
    return line if len(line) <= most else line[: most - 3] + "..."


class SmallvilleError(Exception):
    """Base of every error we raise on purpose; its str() is the line shown to a person."""


class SettingsError(SmallvilleError):
    """A setting that cannot be used (a malformed base URL, a number out of range): a
    problem of the flags, environment or config file, whatever is being loaded, so a
    save being loaded does not take the blame for it."""


class MapError(SmallvilleError):
    """The map file is missing, unreadable or breaks the conventions of docs/MAP.md."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {clip(problem)}")
        self.path = path
        self.problem = problem


class ScenarioError(SmallvilleError):
    """A scenario file is malformed or names something the map lacks."""

    def __init__(
        self, path: str, problem: str, resident: str | None = None, field: str | None = None
    ) -> None:
        where = [path]
        if resident is not None:
            where.append(f"resident {clip(resident, NAME_SHOWN)!r}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(": ".join([*where, clip(problem)]))
        self.path = path
        self.resident = resident
        self.field = field
        self.problem = problem


class FileProblem(SmallvilleError):
    """A file or folder that cannot be read or written: a full disk, a read-only or
    missing folder, no permission, a link where a file should be. The command line prints
    it as one line and exits 1 (a problem of the machine, not of what was typed); nothing
    that was whole before is left half written (game/core/files.py)."""

    def __init__(self, path: object, cause: str, doing: str = "write") -> None:
        super().__init__(f"cannot {doing} {clip(str(path))}: {clip(cause)}")
        self.path = str(path)
        self.cause = cause
