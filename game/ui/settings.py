"""The settings screen (Esc with nothing open, or O): speed, autosave interval, visitor
name, which brain and endpoint, window size; it says which brain runs now.

Where each setting lives: the brain, endpoint, model, the name of the environment
variable that may hold the API key, and the key itself go to the config file (config.toml,
the file `python main.py config` shows), written atomically and owner-only (0600). The key
is typed into a masked box, shown only masked, and written nowhere else; the environment
variable, when set, still wins over the file.
Who talks (--talk-brain, --talk-residents: the visitor's chat and interviews, and maybe
the residents' own conversations, sent to the model while the town stays scripted) goes
to the config file beside the brain.
Play preferences (speed, autosave, name, window size) go to play.json beside the config
file. Brain changes take effect in the next game: a running town keeps its brain. The name
shown is the one the visitor walking the town has; a window size chosen applies on Save.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import pygame

from game.core import toml_text
from game.core.config import config_path, file_key, mask, read_toml, write_private
from game.core.errors import SmallvilleError
from game.core.files import write_atomic
from game.core.text import bounded_loads
from game.ui import theme
from game.ui.input import Act, Command
from game.ui.pacing import SPEEDS
from game.ui.scene import Scene
from game.ui.widgets import Button, Focus, TextBox

AUTOSAVE_CHOICES = (0, 30, 60, 120)  # game minutes (0 = off)
SIZES = ((800, 480), (1280, 720), (1600, 900), (1920, 1080))
BRAINS = ("scripted", "llm")
# Who answers talk: (talk_brain, talk_residents) and the button's words.
TALKS: tuple[tuple[tuple[str, bool], str], ...] = (
    (("", False), "as the brain"),
    (("llm", False), "llm: chat, interviews"),
    (("llm", True), "llm: all talk"),
    (("scripted", False), "scripted"),
)
PREFS_FILE = "play.json"


@dataclass(frozen=True)
class Prefs:
    """Play preferences kept between games."""

    speed: int = 1
    autosave_minutes: int = 60
    name: str = "Robin"
    size: tuple[int, int] = (1280, 720)


PREFS_LIMIT = 64 * 1024  # bytes: the file holds four small values


def prefs_path() -> Path:
    return config_path().parent / PREFS_FILE


def load_prefs() -> Prefs:
    """The saved preferences: a value of the wrong type or out of the range its flag
    takes is its default, the rest kept (defaults when there is no file or it is
    damaged). An edited play.json with "speed": Infinity gave an OverflowError traceback
    at `play`, and "size": [100000, 100000] a 16384 x 16384 window (1.5 GB)."""
    try:
        with prefs_path().open("rb") as f:
            raw = f.read(PREFS_LIMIT + 1)
        if len(raw) > PREFS_LIMIT:
            return Prefs()
        doc = bounded_loads(raw.decode("utf-8"), max_depth=8)
    except (OSError, ValueError):
        return Prefs()
    if not isinstance(doc, dict):
        return Prefs()
    default = Prefs()
    name = doc.get("name")
    return Prefs(
        _whole(doc.get("speed"), 1, MAX_SPEED, default.speed),
        _whole(doc.get("autosave_minutes"), 0, MAX_AUTOSAVE, default.autosave_minutes),
        name[:40] if isinstance(name, str) and name.strip() else default.name,
        _size(doc.get("size"), default.size),
    )


MAX_SPEED, MAX_AUTOSAVE = 10_000, 24 * 60  # as --speed and --autosave take them
MIN_SIZE, MAX_SIDE = (320, 240), 16384  # as --size takes it (game/cli.py)


def _whole(value: Any, low: int, high: int, default: int) -> int:
    """`value` if it is a whole number in [low, high], else `default`."""
    ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    return value if ok else default


def _size(value: Any, default: tuple[int, int]) -> tuple[int, int]:
    """A window size [width, height] within what --size takes, else `default`."""
    if not isinstance(value, list) or len(value) != 2:
        return default
    width = _whole(value[0], MIN_SIZE[0], MAX_SIDE, 0)
    height = _whole(value[1], MIN_SIZE[1], MAX_SIDE, 0)
    return (width, height) if width and height else default


def save_prefs(prefs: Prefs) -> Path:
    """Written whole or not at all (FileProblem), the folder made if need be."""
    doc = {**asdict(prefs), "size": list(prefs.size)}
    return write_atomic(prefs_path(), json.dumps(doc, indent=1), make_folder=True)


def save_brain(
    brain: str,
    base_url: str,
    model: str,
    key_env: str,
    key: str = "",
    talk: tuple[str, bool] = ("", False),
) -> Path:
    """Write the brain settings into the config file, keeping whatever else it says; a
    non-empty `key` replaces the stored API key (blank keeps the one there). `talk` is
    (talk_brain, talk_residents); a talk brain of '' (the brain's own) is left out."""
    path = config_path()
    doc: dict[str, Any] = {}
    if path.is_file():
        doc = read_toml(path)
    doc["brain"] = brain
    doc.pop("talk_brain", None)
    if talk[0]:
        doc["talk_brain"] = talk[0]
    doc["talk_residents"] = bool(talk[1])
    llm = dict(doc.get("llm", {}))
    llm.update(base_url=base_url, model=model or "gpt-4o-mini", api_key_env=key_env)
    if key:
        llm["api_key"] = key
    doc["llm"] = llm
    write_private(path, toml_text.dumps(doc))  # any string reads back as typed
    return path


def current_name(app) -> str:
    """The name the player plays under: the visitor walking the town (a save's, or the
    one typed on the start screen), else the name the next game will take."""
    town = app.town
    visitor = town.visitor if town is not None else None
    return visitor.name if visitor is not None else app.options.name


class SettingsScene(Scene):
    """A panel over the town; the town keeps running underneath."""

    opaque = False

    def __init__(self, app) -> None:
        super().__init__(app)
        town = app.town
        llm = app.options.llm
        self.brain = app.options.brain if app.options.brain in BRAINS else "scripted"
        talk = (str(app.options.talk_brain or ""), bool(app.options.talk_residents))
        self.talk = talk if talk in [t for t, _ in TALKS] else TALKS[0][0]
        self.now_running = town.sim.brain_label() if town is not None else ""
        self.name_box = TextBox("visitor name", text=current_name(app), limit=40)
        self.url_box = TextBox(
            "endpoint (blank: api.openai.com)", text=llm.base_url if llm is not None else ""
        )
        self.model_box = TextBox("model", text=llm.model if llm is not None else "gpt-4o-mini")
        self.key_env_box = TextBox(
            "key variable", text=(llm.api_key_env if llm is not None else "OPENAI_API_KEY")
        )
        self.key_box = TextBox("", limit=200, secret=True)
        self.focus = Focus(
            self.name_box, self.url_box, self.model_box, self.key_env_box, self.key_box
        )
        self.speed_buttons = [Button(f"{s}x", ("speed", s), size=16) for s in SPEEDS]
        self.autosave_buttons = [
            Button("off" if m == 0 else f"{m} min", ("autosave", m), size=16)
            for m in AUTOSAVE_CHOICES
        ]
        self.brain_buttons = [Button(b, ("brain", b), size=16) for b in BRAINS]
        self.talk_buttons = [Button(label, ("talk", t), size=16) for t, label in TALKS]
        self.size_buttons = [Button(f"{w}x{h}", ("size", (w, h)), size=16) for w, h in SIZES]
        self.save_button = Button("Save settings", size=18)
        self.close_button = Button("Close (Esc)", size=18)
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.note = ""
        self.rows: list[tuple[str, int]] = []
        # The window size chosen; it applies on Save (resizing at once re-centred the
        # panel and moved the Save button away from under the pointer).
        self.size: tuple[int, int] = app.size

    # -- what is set ------------------------------------------------------------------------
    @property
    def speed(self) -> int:
        town = self.app.town
        return town.pacer.speed if town is not None else self.app.options.speed

    @property
    def autosave_minutes(self) -> int:
        town = self.app.town
        return town.autosaver.minutes if town is not None else self.app.options.autosave_minutes

    def key_text(self) -> str:
        """The key in use, masked, and where it comes from (never the key itself): the
        key box's placeholder, so typing a new key replaces it."""
        env = self.key_env_box.text.strip() or "OPENAI_API_KEY"
        if os.environ.get(env):
            return f"{mask(os.environ[env])} from ${env} (wins over the file)"
        stored = file_key(str(config_path()))
        if stored:
            return f"{mask(stored)} in {config_path().name}: type to replace"
        return "not set: type a key (stored only in the config file)"

    def typing(self) -> bool:
        return self.focus.current is not None

    # -- commands ---------------------------------------------------------------------------
    def handle(self, command: Command) -> None:
        act = command.act
        if act is Act.QUIT:
            self.app.quit()
        elif act in (Act.BACK, Act.SETTINGS):
            if self.focus.current is not None and act is Act.BACK:
                self.focus.set(None)
            else:
                self.app.stack.remove(self)
        elif act is Act.POINTER_UP:
            self.click(command.pos)
        elif act is Act.NEXT_FIELD:
            self.focus.next()
        elif act in (Act.TYPE, Act.ERASE, Act.EDIT, Act.SUBMIT) and self.focus.current:
            submitted = self.focus.current.edit(command)
            if submitted is not None:
                self.apply()

    def click(self, pos: tuple[int, int]) -> None:
        for button in self._choices():
            if button.hit(pos):
                self.choose(*button.key)
                return
        if self.save_button.hit(pos):
            self.apply()
        elif self.close_button.hit(pos):
            self.app.stack.remove(self)
        elif not self.focus.click(pos):
            self.focus.set(None)

    def choose(self, what: str, value: Any) -> None:
        """A choice takes effect at once (the brain: in the next game)."""
        town = self.app.town
        if what == "speed" and town is not None:
            town.pacer.set_speed(value)
        elif what == "autosave" and town is not None:
            town.autosaver.minutes = value
        elif what == "brain":
            self.brain = value
        elif what == "talk":
            self.talk = value
        elif what == "size":
            self.size = value
            self.note = f"the window becomes {value[0]}x{value[1]} when you save"
        key = {"speed": "speed", "autosave": "autosave_minutes"}.get(what)
        if key:
            self.app.options = replace(self.app.options, **{key: value})

    def apply(self) -> None:
        """Save: preferences to play.json, the brain to the config file; the window
        takes the size chosen."""
        name = " ".join(self.name_box.text.split())[:40] or "Robin"
        talk_brain, talk_residents = self.talk
        options = replace(
            self.app.options,
            name=name,
            brain=self.brain,
            talk_brain=talk_brain,
            talk_residents=talk_residents,
            size=self.size,
        )
        self.app.options = options
        prefs = Prefs(self.speed, self.autosave_minutes, name, self.size)
        try:
            save_prefs(prefs)
            path = save_brain(
                self.brain,
                self.url_box.text.strip(),
                self.model_box.text.strip(),
                self.key_env_box.text.strip() or "OPENAI_API_KEY",
                "".join(self.key_box.text.split()),
                self.talk,
            )
        except (OSError, ValueError, tomllib.TOMLDecodeError, SmallvilleError) as exc:
            self.note = f"could not save the settings: {theme.safe_text(str(exc), 200)}"
            return
        self.key_box.text = ""  # the box now shows the stored key, masked
        self.focus.set(None)
        self.note = f"saved to {path.name} (the brain takes effect in the next game)"
        if self.size != self.app.size:
            self.app.command(Command(Act.RESIZE, delta=self.size))

    def _choices(self) -> list[Button]:
        return [
            *self.speed_buttons,
            *self.autosave_buttons,
            *self.brain_buttons,
            *self.talk_buttons,
            *self.size_buttons,
        ]

    # -- layout and drawing -----------------------------------------------------------------
    def update(self, dt: float) -> None:
        w, h = self.app.size
        self.rect = pygame.Rect(0, 0, min(720, w - 20), min(496, h - 20))
        self.rect.center = (w // 2, h // 2)
        x0, y = self.rect.x + 190, self.rect.y + 70
        self.rows = []
        for label, buttons, on in (
            ("Speed", self.speed_buttons, self.speed),
            ("Autosave every", self.autosave_buttons, self.autosave_minutes),
            ("Brain (next game)", self.brain_buttons, self.brain),
            ("Who talks (next)", self.talk_buttons, self.talk),
            ("Window size", self.size_buttons, self.size),
        ):
            self.rows.append((label, y))
            x = x0
            for button in buttons:
                button.on = button.key[1] == on
                x = button.fit(x, y, pad=8, height=26).right + 4
            y += 36
        for label, box in (
            ("Visitor name", self.name_box),
            ("Endpoint", self.url_box),
            ("Model", self.model_box),
            ("Key variable", self.key_env_box),
            ("API key", self.key_box),
        ):
            self.rows.append((label, y))
            box.rect = pygame.Rect(x0, y, self.rect.right - x0 - 20, 28)
            y += 36
        self.key_box.placeholder = self.key_text()
        self.save_button.fit(self.rect.x + 20, self.rect.bottom - 46, height=32)
        self.close_button.fit(self.save_button.rect.right + 12, self.rect.bottom - 46, height=32)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.box_image(surface.get_size(), (0, 0, 0, 140), 0, False), (0, 0))
        r = self.rect
        theme.panel(surface, r, (28, 32, 44, 245))
        theme.blit_text(surface, "Settings", (r.x + 20, r.y + 12), 28, theme.ACCENT)
        running = theme.ellipsize(f"Running now: {self.now_running}", theme.font(16), r.width - 180)
        theme.blit_text(surface, running, (r.x + 160, r.y + 20), 16, theme.MUTED)
        for label, y in self.rows:
            theme.blit_text(surface, label, (r.x + 20, y + 5), 17, theme.MUTED)
        for widget in (
            *self._choices(),
            self.name_box,
            self.url_box,
            self.model_box,
            self.key_env_box,
            self.key_box,
            self.save_button,
            self.close_button,
        ):
            widget.draw(surface)
        if self.note:
            theme.blit_text(
                surface,
                theme.ellipsize(self.note, theme.font(15), r.width - 300),
                (self.close_button.rect.right + 14, r.bottom - 38),
                15,
                theme.GOOD,
            )
