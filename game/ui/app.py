"""The game window: owns pygame, the scene stack and the frame loop.

Events come from an event source (pygame's queue by default), so a test can feed scripted
input, call `handle(event)` or `command(cmd)` directly, and step frames with a fixed dt via
`frame(dt)` instead of `run()`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.core.config import DEFAULT_WORKERS
from game.ui.help import HelpOverlay
from game.ui.input import Act, Command, translate
from game.ui.scene import SceneStack

if TYPE_CHECKING:
    from game.sim.view import SimView

DEFAULT_SIZE = (1280, 720)
MIN_SIZE = (800, 480)
MAX_DT = 0.25  # a longer frame (a load, a stall) counts as this much real time


@dataclass(frozen=True)
class Options:
    """How to open the game (the `play` command's flags)."""

    scenario: str = ""  # a bundled scenario: skip the start screen and play it
    load: str = ""  # a save to load: skip the start screen
    name: str = "Robin"  # the player's visitor name
    brain: str = "scripted"
    talk_brain: str = ""  # who answers interviews and the visitor's chat ('' = brain)
    talk_residents: bool = False  # ... and the residents' own conversations
    seed: int = 0
    workers: int = DEFAULT_WORKERS
    size: tuple[int, int] = DEFAULT_SIZE
    speed: int = 1
    fps: int = 60
    autosave_minutes: int = 60
    quit_after: float = 0.0  # real seconds; 0 = play until the window closes
    screenshot: str = ""  # write the last frame here on exit
    llm: object = None  # LLMSettings for brain "llm" (None: the brain's defaults)
    replay: str = ""  # a save whose recorded run to play back (no model calls)
    save_name: str = ""  # where F5 saves ('' = quicksave)


EventSource = Callable[[], Iterable[pygame.event.Event]]


class App:
    """The window and its loop. Scenes call back into it to switch screens."""

    def __init__(self, options: Options = Options(), events: EventSource | None = None) -> None:
        self.options = options
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat()  # held keys are tracked by the town, not repeated by SDL
        pygame.key.start_text_input()  # typed characters arrive as TEXTINPUT events
        self.screen = pygame.display.set_mode(options.size, pygame.RESIZABLE)
        pygame.display.set_caption("Smallville")
        self.events: EventSource = events or pygame.event.get
        self.stack = SceneStack()
        self.running = True
        self.elapsed = 0.0
        self.frame_ms: list[float] = []
        self._pending_notes: list[str] = []
        self._swallow_text = ""  # the text the key that opened a text box will type

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    @property
    def town(self):
        """The town scene, if a game is running (for tests and the benchmark)."""
        from game.ui.town_scene import TownScene

        return next((s for s in self.stack.scenes if isinstance(s, TownScene)), None)

    # -- screens --------------------------------------------------------------------------
    def start(self) -> None:
        """The first screen: straight into a game when the options name one."""
        o = self.options
        if o.replay:
            self.begin_replay(o.replay)
        elif o.scenario or o.load:
            self.begin(o.name, scenario=o.scenario, save=o.load)
        else:
            from game.ui.start import StartScene

            self.stack.replace(StartScene(self, o.name, o.brain, o.llm))

    def begin(self, name: str, scenario: str = "", save: str = "") -> None:
        """Start playing: a new game from a scenario, or a saved one."""
        self._draw_loading()
        from game.sim.simulation import ClockMode

        if save:  # a SaveError says what is wrong with the save in one line
            from game.sim.saves import load_with

            # the same endpoint, model and caps as a new game
            sim = load_with(save, self.options, mode=ClockMode.REALTIME)
            self.replace_town(sim, name)
            if sim.load_note:
                self.notify(sim.load_note)
            return
        from game.sim.factory import build_simulation

        o = self.options
        sim = build_simulation(
            scenario,
            seed=o.seed,
            brain=o.brain,
            mode=ClockMode.REALTIME,
            workers=o.workers,
            llm=o.llm,
            talk=o.talk_brain,
            own_talk=o.talk_residents,
        )
        self.replace_town(sim, name)

    def begin_replay(self, save: str) -> None:
        """Play a saved run back from its event log: no model calls, nothing changes."""
        from game.sim.replay import Replay
        from game.sim.saves import load_with

        self._draw_loading()
        self.replace_town(Replay(load_with(save, self.options)), self.options.name)
        self.notify("Replay: the recorded run plays back; speed keys work, commands do not.")

    def replace_town(self, sim: SimView, name: str) -> None:
        from game.ui.town_scene import TownScene

        o = self.options
        self.stack.replace(TownScene(self, sim, name, o.speed, o.autosave_minutes))
        for note in self._pending_notes:
            self.town.notes.push(note)
        self._pending_notes = []

    def notify(self, text: str) -> None:
        town = self.town
        if town is not None:
            town.notes.push(text)
        else:
            self._pending_notes.append(text)

    def open_settings(self) -> None:
        """The settings screen over the town (Esc with nothing open, or O)."""
        from game.ui.settings import SettingsScene

        if not any(isinstance(s, SettingsScene) for s in self.stack.scenes):
            self.stack.push(SettingsScene(self))

    def toggle_help(self) -> None:
        overlay = next((s for s in self.stack.scenes if isinstance(s, HelpOverlay)), None)
        if overlay is not None:
            self.stack.remove(overlay)
        else:
            self.stack.push(HelpOverlay(self))

    def quit(self) -> None:
        self.running = False

    def _draw_loading(self) -> None:
        from game.ui import theme

        self.screen.fill(theme.BG)
        theme.blit_text(self.screen, "Building the town...", (40, 40), 32, theme.ACCENT)
        pygame.display.flip()

    # -- input ----------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event, translated into commands for the top scene.

        A key that opens a text box (T opens the chat) also arrives as typed text right
        after: that text is dropped, so the box opens empty."""
        if event.type == pygame.TEXTINPUT and self._swallow_text:
            swallow, self._swallow_text = self._swallow_text, ""
            if event.text.lower() == swallow:
                return
        was_typing = self.typing()
        if event.type == pygame.KEYDOWN:
            self._swallow_text = ""
        for command in translate(event, typing=was_typing):
            self.command(command)
        if event.type == pygame.KEYDOWN and not was_typing and self.typing():
            self._swallow_text = (event.unicode or pygame.key.name(event.key)).lower()

    def typing(self) -> bool:
        top = self.stack.top
        return bool(top and top.typing())

    def command(self, command: Command) -> None:
        if command.act is Act.QUIT:
            self.quit()
        elif command.act is Act.RESIZE:
            self._resize(command.delta)
        else:
            self.stack.handle(command)

    def _resize(self, size: tuple[int, int]) -> None:
        size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        if size != self.screen.get_size():
            self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)

    # -- the loop -------------------------------------------------------------------------
    def frame(self, dt: float) -> None:
        """One frame: events, update by dt real seconds, draw, show."""
        for event in list(self.events()):
            self.handle(event)
        self.screen = pygame.display.get_surface() or self.screen
        self.stack.update(min(dt, MAX_DT))
        self.stack.draw(self.screen)
        pygame.display.flip()
        self.elapsed += dt

    def run(self) -> int:
        """Play until the window closes (or `quit_after` real seconds); returns an exit code."""
        if not self.stack.scenes:
            self.start()
        clock = pygame.time.Clock()
        clock.tick()
        try:
            while self.running and self.stack.scenes:
                dt = clock.tick(self.options.fps) / 1000.0
                began = time.perf_counter()
                self.frame(dt)
                self.frame_ms.append((time.perf_counter() - began) * 1000)
                if self.options.quit_after and self.elapsed >= self.options.quit_after:
                    break
            if self.options.screenshot:
                self.screenshot(self.options.screenshot)
        finally:
            self.close()
        return 0

    def screenshot(self, path: str | Path) -> Path:
        """Save what the window shows now as a PNG, whole or not at all (FileProblem)."""
        from game.ui.chart import write_png

        return write_png(self.screen, path, make_folder=True)

    def close(self) -> None:
        self.stack.close()
        pygame.display.quit()
