"""The command line: one subcommand per way into the town.

Every handler imports what it needs when it runs, so `town`, `run` and `interview` never
load pygame; only `play` and `replay` (and `evaluate`, for its chart) import the window.

Errors we raise on purpose (SmallvilleError) print as one line and exit 2, never as a
traceback; a file or folder that cannot be read or written (FileProblem, or any OSError
that reaches here) is one line and exit 1; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from contextlib import contextmanager

from game.core.config import DEFAULT_WORKERS
from game.core.errors import FileProblem, SmallvilleError

Handler = Callable[[argparse.Namespace], int]
MIN_SIZE, MAX_SIDE = (320, 240), 16384  # the window's smallest size, and its longest side


def _town(args: argparse.Namespace) -> int:
    from game.world.describe import describe_tree, tree_dict
    from game.world.scenario import load_world

    scenario, town = load_world(args.scenario)
    if args.json:
        doc = {
            "map": {"width": town.width, "height": town.height, "tile": town.tile},
            "sectors": tree_dict(town),
            "residents": [
                {"name": r.name, "home": r.home, "workplace": r.workplace}
                for r in scenario.residents
            ],
        }
        print(json.dumps(doc, indent=2))
        return 0
    print(f"{scenario.name}: {town.width} x {town.height} tiles of {town.tile} px")
    print(describe_tree(town))
    print(f"\n{len(scenario.residents)} residents:")
    for r in scenario.residents:
        print(f"  {r.name} ({r.age}), {r.occupation}; lives at {r.home}")
    return 0


def _start_run(args: argparse.Namespace, settings, build):
    """A new simulation, or a loaded save (its scenario and seed) with the same settings."""
    from game.sim.simulation import SimConfig

    if args.load:
        from game.sim.factory import refused_if_unused
        from game.sim.saves import load_with

        sim = load_with(args.load, settings)
        if sim.load_note:
            say(sim.load_note)
        return refused_if_unused(sim, settings)
    from game.core.config import refuse_unused_model_flags, talks_to_model
    from game.sim.factory import timing

    refuse_unused_model_flags(settings, talks_to_model(settings))

    config = SimConfig(
        seed=args.seed,
        workers=args.workers,
        timing=timing(args.brain),
    )
    return build(args.scenario, seed=args.seed, brain=args.brain, config=config)


def _run(args: argparse.Namespace) -> int:
    at: list = []  # the game time reached, then "saving" once the save has begun
    try:
        return _run_steps(args, at)
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: one line says what was kept
        if args.save and "saving" in at:  # atomic: the new save whole, or the old one
            exc.add_note(f"{args.save!r} is the new save or the one before, never half")
        elif args.save:
            reached = f" (stopped at {at[-1]:%Y-%m-%d %H:%M})" if at else ""
            exc.add_note(f"{args.save!r} was not saved{reached}")
        raise


def _run_steps(args: argparse.Namespace, at: list) -> int:
    import time
    from datetime import timedelta
    from functools import partial

    from game.core.config import config_from_args
    from game.progress import ProgressLine
    from game.sim.factory import build_simulation
    from game.sim.report import DayTimer, build_report

    hours = number("--hours", args.hours, 1 / 360, MAX_HOURS)
    if args.save is not None:
        _check_save_target(args.save)
    settings = config_from_args(args)  # defaults < config file < environment < flags
    args.brain, args.workers, args.llm = settings.brain, settings.workers, settings.llm
    build = partial(
        build_simulation,
        llm=settings.llm,
        talk=settings.talk_brain,
        own_talk=settings.talk_residents,
    )
    sim = _start_run(args, settings, build)
    script = _load_script(sim, args.script)  # the whole file checked before the run
    start = sim.now
    end = start + timedelta(hours=hours)
    total = max(1, int((end - start).total_seconds() // sim.config.step_seconds))
    began, first = time.perf_counter(), sim.steps  # a loaded save counts its own steps
    last = [began]
    line = ProgressLine(sys.stderr)  # ended before anything else is written

    def progress(s) -> None:
        now = time.perf_counter()
        if now - last[0] < 1.0 and s.now < end:
            return
        last[0] = now
        done = s.steps - first  # this run's: `run --load` of a 2 h save for 2 h said 200%
        rate = done / max(1e-9, now - began)
        line.show(f"{s.now:%Y-%m-%d %H:%M}  {100 * done / total:5.1f}%  {rate:7.0f} steps/s")

    timer = DayTimer(start)

    def watch(s) -> None:
        at[:] = [s.now]
        _stop_if_fatal(s)
        timer(s)
        if not args.quiet:
            progress(s)

    problems: list[str] = []
    try:
        with line.taking_logs():
            sim.run_until(end, watch)
        line.end()
        _stop_if_fatal(sim)
        if args.save:
            at.append("saving")
            _save(sim, args.save, problems)
    finally:
        line.end()
        sim.close()  # and the brain: its audit log and cache are flushed
    for problem in unwritten(sim.mind.brain):  # said as it happened; the exit code says it too
        problems.append(problem)
        say(f"error: {problem}")
    wall = time.perf_counter() - began
    report = build_report(sim, start, wall, sim.brain_name, timer.per_day())
    report["problems"] = problems
    if script is not None:
        report["script"] = script.report()
    _write_report(report, args.report, problems)
    lost = sim.jobs.lost
    if lost:
        say(f"{lost} cognition job(s) failed and their work was lost (see the report's jobs)")
    return 1 if lost or problems else 0


MAX_HOURS = 24 * 366  # a year of game time is the longest run we take


def _load_script(sim, path: str | None):
    """The run's interventions, attached to the simulation; a bad script is one error
    naming its file and line, and the simulation is closed with nothing done."""
    if not path:
        return None
    from game.sim.script import Script

    try:
        script = Script.load(path, sim)
    except BaseException:
        sim.close()
        raise
    script.attach(sim)
    return script


def number(flag: str, value: float, low: float, high: float) -> float:
    """A finite number in [low, high], else one clear line."""
    if not (isinstance(value, (int, float)) and math.isfinite(value) and low <= value <= high):
        raise SmallvilleError(f"{flag} must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


def say(line: str) -> None:
    """One line to stderr, cleaned: nothing from outside repaints the terminal."""
    from game.core.text import single_line

    print(single_line(line, 500), file=sys.stderr)


def _check_save_target(name: str) -> None:
    """A save name that is no name ('', '../x', CON) or a saves folder that cannot be
    written (read-only, a file in its place) fails before the run: it was found only
    when the run, hours of it perhaps, tried to save. A full disk is found at the save."""
    from game.core.files import check_writable
    from game.sim.saves import DOCUMENT, check_save_folder, name_folder

    folder = probe = name_folder(new_save_name(name))
    check_save_folder(folder)
    _refuse_held(folder)
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent  # the nearest folder there is: where the save's folder goes
    try:
        check_writable(probe / DOCUMENT)
    except FileProblem as exc:
        raise FileProblem(folder, f"{exc.cause} (at {probe}); nothing was run", "save to") from None


def _refuse_held(folder) -> None:
    """A save another game holds for its whole session (a window autosaving under it)
    is said before the run: `run --save autosave` beside an open window ran, then waited
    10 s and said it could not save. A writer of a moment (another `run --save` at its
    end) is waited for as long as the save itself would wait for it (LOCK_WAIT)."""
    from game.sim import saves
    from game.sim.saves import LOCK, SaveError, claim

    if not (folder / LOCK).is_file():
        return  # no save there yet, or not one a game can hold (check_save_folder says)
    try:
        held = claim(folder, wait=saves.LOCK_WAIT)
    except SaveError:
        return  # the save itself will say what is wrong with the folder
    if held is None:
        raise SaveError(
            folder,
            "another game holds this save (a game window autosaving under it); "
            "nothing was run: choose another name, or close that game",
        )
    held.release()


def new_save_name(name: object) -> str:
    """The name a new save is written under (`run --save`, `play --save`), checked before
    anything runs. Beyond what any save name must be (saves.name_folder), it does not
    begin with '-': `run --save=-x` saved, `saves` listed it, and `--load -x` could not
    load it (the command line reads it as an option). `--save=--` reaches here as a list."""
    from game.sim.saves import name_folder

    if not isinstance(name, str):
        raise SmallvilleError("'--' is no save name: choose another")
    if name.startswith("-"):
        raise SmallvilleError(
            f"{name[:70]!r}: a save name does not begin with '-' (the command line would "
            f"read it as an option, so --load {name[:70]} could not load it); choose another"
        )
    name_folder(name)
    return name


def _save(sim, name: str, problems: list[str]) -> None:
    """A save that fails (full disk, read-only folder, bad name, locked) is one line; the
    run still writes its report, and the previous save stays whole."""
    from game.sim.saves import save_game

    try:
        say(f"saved to {save_game(sim, name)}")
    except (SmallvilleError, OSError) as exc:
        problems.append(f"could not save {name!r}: {exc}")
        say(f"error: could not save: {exc}")


def _write_report(report: dict, path: str | None, problems: list[str]) -> None:
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if not path:
        print(text)
        return
    from game.core.files import write_atomic

    try:
        write_atomic(path, text + "\n")  # a report there before stays whole if this fails
    except FileProblem as exc:
        problems.append(f"could not write the report: {exc}")
        say(f"error: {exc}; the report follows")
        print(text)
        return
    say(f"report written to {path}")


def _drop_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush into the closed
    pipe does not print a traceback of its own (as the Python docs advise)."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.__stdout__.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def unwritten(brain) -> list[str]:
    """What a model brain could not write of what it was asked to keep (its audit log,
    its --record recording, on a full disk): a run that lost them exits 1, not 0."""
    return [str(p) for p in (getattr(brain, "unwritten", None) or ()) if p]


def _stop_if_fatal(sim) -> None:
    """The language-model brain sets `fatal` when a run must stop: an unusable endpoint
    under --strict, or a --replay that meets a request it never recorded."""
    reason = sim.fatal()
    if reason:
        raise SmallvilleError(reason)


def _config(args: argparse.Namespace) -> int:
    from game.brains.llm.settled import described
    from game.core.config import config_from_args

    print(described(config_from_args(args)))  # with what the doctor cache lays on
    return 0


def _play(args: argparse.Namespace) -> int:
    from game.commands import quiet_pygame
    from game.core.config import config_from_args

    quiet_pygame()
    from game.ui.app import App, Options
    from game.ui.settings import load_prefs

    settings = config_from_args(args)  # defaults < config file < environment < flags
    args.brain, args.workers = settings.brain, settings.workers
    if args.scenario and not args.load:  # a new game, no start screen to pick a save on
        from game.core.config import refuse_unused_model_flags, talks_to_model

        refuse_unused_model_flags(settings, talks_to_model(settings))
    prefs = load_prefs()  # the settings screen's choices, where no flag says otherwise
    width, height = _window_size(args.size) if args.size else prefs.size
    if args.save is not None:  # the name F5 writes to: said now, not at the first F5
        new_save_name(args.save)
    for flag, value, low, high in (
        ("--speed", args.speed, 1, 10_000),
        ("--autosave", args.autosave, 0, 24 * 60),
        ("--quit-after", args.quit_after, 0, 1e7),
    ):
        if value is not None:  # unset: the settings screen's choice
            number(flag, value, low, high)
    options = Options(
        llm=settings.llm,
        save_name=args.save or "",
        scenario=args.scenario or "",
        load=args.load or "",
        name=args.name or prefs.name,
        brain=args.brain,
        talk_brain=settings.talk_brain,
        talk_residents=settings.talk_residents,
        seed=args.seed,
        workers=args.workers,
        size=(width, height),
        speed=args.speed or prefs.speed,
        autosave_minutes=prefs.autosave_minutes if args.autosave is None else args.autosave,
        quit_after=args.quit_after,
        screenshot=args.screenshot or "",
    )
    return App(options).run()


def _window_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(n) for n in text.lower().split("x", 1))
    except ValueError:
        width = height = 0
    if not (MIN_SIZE[0] <= width <= MAX_SIDE and MIN_SIZE[1] <= height <= MAX_SIDE):
        low = f"{MIN_SIZE[0]}x{MIN_SIZE[1]}"  # '200x200' was told to look like 1280x720
        raise SmallvilleError(
            f"--size must be WIDTHxHEIGHT, from {low} to {MAX_SIDE}x{MAX_SIDE} "
            f"(such as 1280x720), not {text[:40]!r}"
        )
    return width, height


def _replay(args: argparse.Namespace) -> int:
    from game.commands import quiet_pygame
    from game.core.config import config_from_args

    quiet_pygame()
    from game.ui.app import App, Options

    number("--speed", args.speed, 1, 10_000)
    number("--quit-after", args.quit_after, 0, 1e7)
    settings = config_from_args(args)  # the save's brain is built as `run` would build it
    options = Options(
        llm=settings.llm,
        workers=settings.workers,
        replay=args.load,
        size=_window_size(args.size),
        speed=args.speed,
        autosave_minutes=0,
        quit_after=args.quit_after,
        screenshot=args.screenshot or "",
    )
    return App(options).run()


def _formatter(prog: str) -> argparse.HelpFormatter:
    """Room for the longest command name, so every command keeps its one-line description."""
    return argparse.HelpFormatter(prog, max_help_position=28, width=96)


def build_parser() -> argparse.ArgumentParser:
    """The commands in the order a player needs them: play first, research tools last."""
    parser = argparse.ArgumentParser(
        prog="main.py",
        usage="main.py [-h] COMMAND [options]",
        description="Smallville: 25 generative agents in a small town, and you, a visitor. "
        "With no command, opens the game (play).",
        formatter_class=_formatter,
    )
    sub = parser.add_subparsers(  # prog: "main.py run ...", not the usage line's text
        dest="command", metavar="COMMAND ...", title="commands", prog="main.py"
    )
    _add_play(sub)
    _add_replay(sub)
    config = sub.add_parser(
        "config", help="show the effective settings (API key masked)", formatter_class=_formatter
    )
    from game.commands import register
    from game.core.config import add_llm_arguments, add_talk_arguments

    add_llm_arguments(config, with_brain=True)
    add_talk_arguments(config)
    config.set_defaults(handler=_config)
    register(sub)  # saves, interview, evaluate, study, results
    run = sub.add_parser(
        "run", help="run the town headless and write a report", formatter_class=_formatter
    )
    run.add_argument("--scenario", default="smallville", help="bundled name or path to JSON")
    run.add_argument("--hours", type=float, default=24.0, help="game hours to run")
    run.add_argument("--seed", type=int, default=0, help="random seed (same seed, same run)")
    run.add_argument("--brain", choices=("scripted", "llm"), help="default: config, scripted")
    run.add_argument(
        "--workers", type=int, help=f"cognition threads (default: config, {DEFAULT_WORKERS})"
    )
    run.add_argument("--report", help="write the JSON report here (default: stdout)")
    run.add_argument("--quiet", action="store_true", help="no progress line")
    run.add_argument("--save", help="save the game under this name at the end")
    run.add_argument("--load", help="continue a saved game instead of a new one")
    run.add_argument(
        "--script",
        metavar="FILE",
        help="apply player actions at game times: JSON lines such as "
        '{"at": "2023-02-13 09:30", "do": "say", "to": "NAME", "text": "..."}; "do" is say '
        "(to, text), set_state (object, state), inner_voice (agent, text) or announce "
        "(text: a notice on the town's notice boards). The whole file is checked first.",
    )
    add_talk_arguments(run)
    add_llm_arguments(run)
    run.set_defaults(handler=_run)
    town = sub.add_parser(
        "town", help="print the town's map, areas and residents", formatter_class=_formatter
    )
    town.add_argument("--scenario", default="smallville", help="bundled name or path to JSON")
    town.add_argument("--json", action="store_true", help="print JSON instead of a tree")
    town.set_defaults(handler=_town)
    return parser


def _add_play(sub) -> None:
    from game.core.config import add_llm_arguments, add_talk_arguments

    play = sub.add_parser(
        "play", help="open the game window (the default command)", formatter_class=_formatter
    )
    play.add_argument("--scenario", help="new game of this scenario (skips the start screen)")
    play.add_argument("--load", help="load this saved game (skips the start screen)")
    play.add_argument("--name", help="the visitor's name (default: settings, Robin)")
    play.add_argument("--brain", default=None, help="scripted or llm (default: the config)")
    play.add_argument("--seed", type=int, default=0, help="random seed of a new game")
    play.add_argument("--workers", type=int, default=None, help="cognition threads")
    play.add_argument("--size", help="window size, WIDTHxHEIGHT (default: settings, 1280x720)")
    play.add_argument("--speed", type=int, help="game minutes per real second (default: 1)")
    play.add_argument("--autosave", type=int, help="every N game minutes, 0 = off (default: 60)")
    play.add_argument("--quit-after", type=float, default=0.0, help="real seconds, then exit")
    play.add_argument("--screenshot", help="save the last frame to this PNG on exit")
    play.add_argument("--save", help="the save name F5 writes to (default: quicksave)")
    add_talk_arguments(play)
    add_llm_arguments(play)
    play.set_defaults(handler=_play)


def _add_replay(sub) -> None:
    replay = sub.add_parser(
        "replay",
        help="play a saved run back in the window (no model calls)",
        formatter_class=_formatter,
    )
    replay.add_argument("--load", required=True, help="save name or folder")
    replay.add_argument("--speed", type=int, default=8, help="game minutes per real second")
    replay.add_argument("--size", default="1280x720", help="window size, WIDTHxHEIGHT")
    replay.add_argument("--quit-after", type=float, default=0.0, help="real seconds, then exit")
    replay.add_argument("--screenshot", help="save the last frame to this PNG on exit")
    from game.core.config import add_llm_arguments

    add_llm_arguments(replay)
    replay.set_defaults(handler=_replay)


def main(argv: Sequence[str] | None = None) -> int:
    """Every way in (main.py, a test, a script importing this) writes through the cleaned
    terminal: nothing from a file or a model repaints it (it was main.py's alone)."""
    from game.core.terminal import clean_terminal

    with clean_terminal():
        try:
            return _main(argv)
        except KeyboardInterrupt:  # Ctrl-C while the commands load, before one runs
            say("stopped")
            return 130


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv) or ["play"])
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        with _stopped_by_sigterm(handler not in (_play, _replay)):
            return handler(args)
    except FileProblem as exc:
        say(f"error: {exc}")
        return 1
    except BrokenPipeError:  # the reader went away (`saves | head -1`): nothing to tell it
        _drop_stdout()
        return 1
    except OSError as exc:  # a reader or writer not yet given its FileProblem: still one line
        from game.core.files import cause

        where = f"{exc.filename}: " if exc.filename else ""
        say(f"error: {where}{cause(exc)}")
        return 1
    except SmallvilleError as exc:
        say(f"error: {exc}")
        return 2
    except Terminated as exc:
        say(f"stopped by SIGTERM{_noted(exc)}")
        return 143  # 128 + 15, as a shell reports a process SIGTERM ended
    except KeyboardInterrupt as exc:
        say(f"stopped{_noted(exc)}")
        return 130


class Terminated(KeyboardInterrupt):
    """SIGTERM (a `kill`, a logout, a service manager) stops a command as Ctrl-C does:
    its `finally` blocks run (the cognition threads stop, the brain's logs are flushed),
    a save being written is never left half (saves are atomic), one line says so."""


@contextmanager
def _stopped_by_sigterm(wanted: bool):
    """SIGTERM raises Terminated in the main thread while a command runs. Not for the
    window: SDL turns SIGTERM into the window's close (autosaved, exit 0), and keeps a
    handler of ours instead when one is set."""
    import signal

    def stop(signum, frame) -> None:
        raise Terminated

    try:
        before = signal.signal(signal.SIGTERM, stop) if wanted else None
    except ValueError:  # not the main thread (a test calling main): nothing to catch it
        before = None
    try:
        yield
    finally:
        if before is not None:
            signal.signal(signal.SIGTERM, before)


def _noted(exc: BaseException) -> str:
    """What a command added to its interruption (`run --save`: that it saved nothing)."""
    notes = getattr(exc, "__notes__", None) or ()
    return "".join(f"; {note}" for note in notes)
