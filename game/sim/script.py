"""Interventions at game times: a script of player actions a headless run applies.

Why a script: a researcher (or a test) who wants to know how the town takes a rumour, a
fire or a notice needs to do it again exactly, at the same minute of the same seed. A
script is a file of JSON lines, one action each:

    {"at": "2023-02-13 09:30", "do": "say", "to": "Latoya Williams", "text": "..."}
    {"at": "2023-02-13 10:00", "do": "set_state", "object": "Hobbs Cafe:kitchen:stove",
     "state": "burning"}
    {"at": "2023-02-13 11:00", "do": "inner_voice", "agent": "Klaus Mueller", "text": "..."}
    {"at": "2023-02-13 12:00", "do": "announce", "text": "..."}

Blank lines and lines starting with '#' are skipped. The whole file is checked before the
run starts: a bad line is one ScriptError naming the file and the line, and nothing of the
script has been done. Each action goes through the player's own commands
(game/sim/player.py), so a resident hears a scripted `say` exactly as in play.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar

from game.core.errors import SmallvilleError
from game.core.files import read_bounded, read_problem
from game.mind.perception import notice_boards
from game.sim.player import NOTICE_LIMIT, STATE_LIMIT
from game.world.town import AreaKind, Town

TEXT_LIMIT = 500  # characters of what is said, thought or posted (the player's limit)
MAX_LINES = 100_000  # a script longer than this is refused rather than read
MAX_BYTES = 16 * 1024 * 1024


class Do(StrEnum):
    """The actions a script may take: the player's commands, by the word a file uses."""

    SAY = "say"  # the visitor says `text` to resident `to`, standing beside them
    SET_STATE = "set_state"  # object `object` is set to `state`
    INNER_VOICE = "inner_voice"  # `text` becomes resident `agent`'s own thought
    ANNOUNCE = "announce"  # `text` is posted on every notice board


@dataclass(frozen=True)
class Say:
    at: datetime
    line: int
    to: str
    text: str
    do: ClassVar[Do] = Do.SAY


@dataclass(frozen=True)
class SetState:
    at: datetime
    line: int
    address: str  # the object's full address, resolved when the script was read
    state: str
    do: ClassVar[Do] = Do.SET_STATE


@dataclass(frozen=True)
class InnerVoice:
    at: datetime
    line: int
    agent: str
    text: str
    do: ClassVar[Do] = Do.INNER_VOICE


@dataclass(frozen=True)
class Announce:
    at: datetime
    line: int
    text: str
    do: ClassVar[Do] = Do.ANNOUNCE


Intervention = Say | SetState | InnerVoice | Announce

# The fields each action needs besides "at" and "do" (and may have: no others).
FIELDS: dict[Do, tuple[str, ...]] = {
    Do.SAY: ("to", "text"),
    Do.SET_STATE: ("object", "state"),
    Do.INNER_VOICE: ("agent", "text"),
    Do.ANNOUNCE: ("text",),
}


class ScriptError(SmallvilleError):
    """A script that cannot be run: the file and line, and what is wrong with it."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        where = f"{source}, line {line}" if line else source
        super().__init__(f"{where}: {problem}")
        self.source, self.line, self.problem = source, line, problem


@dataclass(frozen=True)
class Stage:
    """What a script is checked against: the town, its residents, the run's start."""

    town: Town
    residents: Collection[str]
    start: datetime


# -- reading ----------------------------------------------------------------------------------


def read_script(path: Path | str, stage: Stage) -> tuple[Intervention, ...]:
    """Every intervention of a script file, checked whole; ScriptError at the first bad line."""
    source = str(path)
    try:
        raw = read_bounded(path, MAX_BYTES)  # /dev/zero ran out of memory
    except OSError as exc:  # a machine's problem, not the script's: one line, exit 1
        raise read_problem(source, exc, "the script") from None
    if len(raw) > MAX_BYTES:
        raise ScriptError(source, 0, f"larger than a script may be ({MAX_BYTES} bytes)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScriptError(source, 0, f"not UTF-8 text ({exc.reason})") from None
    return parse_script(text, source, stage)


def parse_script(text: str, source: str, stage: Stage) -> tuple[Intervention, ...]:
    """The interventions of a script's text, in the order they will happen (by time,
    then by line)."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise ScriptError(source, 0, f"more than {MAX_LINES} lines")
    out: list[Intervention] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            out.append(parse_line(line, number, stage))
        except ValueError as exc:
            raise ScriptError(source, number, str(exc)) from None
    return tuple(sorted(out, key=lambda i: (i.at, i.line)))


def parse_line(line: str, number: int, stage: Stage) -> Intervention:
    """One line as an intervention; ValueError says what is wrong with it."""
    try:
        doc = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a JSON object ({exc.msg} at column {exc.colno})") from None
    if not isinstance(doc, dict):
        raise ValueError(f"not a JSON object but {type(doc).__name__}")
    do = _action(doc)
    unknown = sorted(set(doc) - {"at", "do", *FIELDS[do]})
    if unknown:
        raise ValueError(f"{do.value!r} takes {_listing(FIELDS[do])}, not {_listing(unknown)}")
    at = _time(doc, stage.start)
    if do is Do.SAY:
        return Say(at, number, _resident(doc, "to", stage), _text(doc, "text", TEXT_LIMIT))
    if do is Do.INNER_VOICE:
        return InnerVoice(
            at, number, _resident(doc, "agent", stage), _text(doc, "text", TEXT_LIMIT)
        )
    if do is Do.SET_STATE:
        return SetState(at, number, _object(doc, stage.town), _text(doc, "state", STATE_LIMIT))
    if not notice_boards(stage.town):
        raise ValueError("this town has no notice board to post an announcement on")
    return Announce(at, number, _text(doc, "text", min(TEXT_LIMIT, NOTICE_LIMIT)))


def _action(doc: dict[str, Any]) -> Do:
    if "do" not in doc:
        raise ValueError(f'missing "do" (one of {_listing(list(Do))})')
    try:
        return Do(doc["do"])
    except (ValueError, TypeError):
        raise ValueError(f'unknown "do" {_shown(doc["do"])}: one of {_listing(list(Do))}') from None


def _time(doc: dict[str, Any], start: datetime) -> datetime:
    raw = _field(doc, "at")
    try:
        at = datetime.fromisoformat(raw.strip())
    except ValueError:
        raise ValueError(f'"at" {_shown(raw)} is not a time like "2023-02-13 09:30"') from None
    if at.tzinfo is not None:
        raise ValueError(f'"at" {_shown(raw)} has a time zone; give the game\'s own time')
    if at < start:
        raise ValueError(
            f'"at" {at:%Y-%m-%d %H:%M} is before the run starts ({start:%Y-%m-%d %H:%M})'
        )
    return at


def _field(doc: dict[str, Any], name: str) -> str:
    if name not in doc:
        raise ValueError(f'missing "{name}"')
    value = doc[name]
    if not isinstance(value, str):
        raise ValueError(f'"{name}" must be a string, not {_shown(value)}')
    return value


def _text(doc: dict[str, Any], name: str, limit: int) -> str:
    text = " ".join(_field(doc, name).split())
    if not text:
        raise ValueError(f'"{name}" is empty')
    if len(text) > limit:
        raise ValueError(f'"{name}" is {len(text)} characters long; at most {limit}')
    return text


def _resident(doc: dict[str, Any], name: str, stage: Stage) -> str:
    who = _field(doc, name).strip()
    if who in stage.residents:
        return who
    raise ValueError(f"no resident named {_shown(who)}{_guess(who, stage.residents)}")


def _object(doc: dict[str, Any], town: Town) -> str:
    address = _field(doc, "object")
    area = town.find(address) or town.resolve(address)
    if area is not None and area.kind is AreaKind.OBJECT:
        return area.address
    objects = [a.address for a in town.areas.values() if a.kind is AreaKind.OBJECT]
    raise ValueError(
        f"no object at {_shown(address)} (an address like 'Hobbs Cafe:kitchen:stove'; "
        "`main.py town` lists them)" + _guess(address, objects)
    )


def _guess(text: str, names: Collection[str]) -> str:
    close = difflib.get_close_matches(text, list(names), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _listing(items: Sequence[object]) -> str:
    return ", ".join(f'"{i}"' for i in items)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- running ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Applied:
    """One intervention done: which line, what, and the game time it happened."""

    line: int
    do: Do
    at: datetime
    done_at: datetime


@dataclass
class Script:
    """The interventions still to come; `attach` has the simulation apply each as soon
    as its game time comes (in the first step whose clock reaches it)."""

    source: str
    pending: list[Intervention]
    applied: list[Applied] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path | str, sim) -> Script:
        """A script checked against this simulation (its town, residents and clock)."""
        stage = Stage(sim.town, frozenset(sim.agents), sim.now)
        return cls(str(path), list(read_script(path, stage)))

    def attach(self, sim) -> None:
        sim.on_tick.append(self.apply_due)

    def apply_due(self, sim) -> None:
        while self.pending and self.pending[0].at <= sim.now:
            step = self.pending.pop(0)
            apply(sim, step)
            self.applied.append(Applied(step.line, step.do, step.at, sim.now))

    def report(self) -> dict[str, Any]:
        """For the run report: what was done when, and what the run ended before."""
        return {
            "file": self.source,
            "applied": [
                {"line": a.line, "do": a.do.value, "at": _minute(a.at), "done": _minute(a.done_at)}
                for a in self.applied
            ],
            "not_reached": [
                {"line": i.line, "do": i.do.value, "at": _minute(i.at)} for i in self.pending
            ],
        }


def apply(sim, step: Intervention) -> None:
    """Do one intervention through the player's commands, as a player would."""
    player = sim.player
    if isinstance(step, Say):
        player.visitor_beside(step.to)
        player.visitor_say(step.to, step.text)
    elif isinstance(step, SetState):
        player.set_object_state(step.address, step.state)
    elif isinstance(step, InnerVoice):
        player.inner_voice(step.agent, step.text)
    else:
        player.announce(step.text)


def _minute(when: datetime) -> str:
    return when.isoformat(sep=" ", timespec="seconds")
