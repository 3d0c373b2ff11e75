"""The start screen: a new game from a bundled scenario or a saved game, the player's name,
and which brain is running, said plainly.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import pygame

from game.core.clock import fmt_time
from game.core.errors import SmallvilleError
from game.sim.listing import SaveInfo, list_saves
from game.sim.saves import SaveError
from game.sim.view import describe_talk
from game.ui import theme
from game.ui.hud import date_text
from game.ui.input import Act, Command, Edit
from game.ui.scene import Scene
from game.ui.widgets import Button, Focus, TextBox
from game.world.scenario import bundled_scenarios, load_scenario

DOCTOR_COMMAND = "python main.py doctor"
DOCTOR_ROW = 22  # the doctor's line pushes the rest of the screen down by this much
COMPACT_BELOW = 640  # window heights below this get the tighter header
BLURB = {
    "smallville": "the whole town: 25 residents",
    "smallville100": "a bigger town: 100 residents, a second street of shops",
    "smallville500": "500 residents, for headless studies (slow in the window)",
    "three": "a quiet start: Isabella, Klaus and Maria",
}


@dataclass(frozen=True)
class Choice:
    scenario: str = ""  # a bundled scenario for a new game
    save: str = ""  # or a saved game's name


def brain_sentence(brain: str, llm=None, talk: str = "", residents: bool = False) -> str:
    """The brain in plain words, and who answers talk when that differs (--talk-brain),
    before a simulation exists to ask (the town's HUD then asks the simulation, which
    says it the same way)."""
    if llm is None:
        return describe_talk(brain, talk, residents=residents)
    url = llm.base_url or "https://api.openai.com/v1"
    return describe_talk(brain, talk, llm.model, url, residents)


def doctor_line(brain: str, llm=None, talk: str = "") -> str:
    """What `python main.py doctor` last said of the language model's endpoint, or how to
    ask it: a player learns before the town starts whether the model will keep up ('' when
    no model answers anything, which needs no endpoint)."""
    if "llm" not in (brain, talk):
        return ""
    from game.brains.llm.doctor import remembered  # only the model brain pays the import
    from game.core.config import LLMSettings

    verdict = remembered(llm or LLMSettings())
    return f"checked: {verdict}" if verdict else f"not checked yet: run `{DOCTOR_COMMAND}`"


def doctor_color(line: str) -> theme.Color:
    if line.startswith("checked: usable"):
        return theme.GOOD
    return theme.BAD if line.startswith("checked:") else theme.MUTED


def saved_games() -> list[SaveInfo]:
    """Every save, newest first ([] when the folder cannot be read; a save whose folder
    cannot be read is left out); the list scrolls."""
    try:
        saves = [s for s in list_saves() if not s.problem]
    except (OSError, SaveError):
        return []
    return sorted(saves, key=lambda s: s.saved_at, reverse=True)


def save_about(info: SaveInfo) -> str:
    """'smallville, Mon 13 Feb 2023 9:30 am, as Robin': which town, when in it, and who."""
    try:
        when = datetime.fromisoformat(info.game_time)
        moment = f"{date_text(when)} {fmt_time(when)}"
    except ValueError:
        moment = ""
    who = f"as {info.visitor}" if info.visitor else ""
    damage = "its autosave journal is damaged" if info.note and moment else info.note
    return ", ".join(p for p in (info.scenario, moment, who, damage) if p and p != "?")


def scenario_blurb(name: str) -> str:
    """What a scenario holds, in a few words: its own blurb, else its count of residents
    (read only then: the 500 town's file takes seconds to check)."""
    if name in BLURB:
        return BLURB[name]
    try:
        count = len(load_scenario(name).residents)
    except SmallvilleError:
        return BLURB.get(name, "")
    return BLURB.get(name, f"{count} residents")


class StartScene(Scene):
    """New game or load; Enter or Start begins with the highlighted choice."""

    def __init__(self, app, name: str, brain: str, llm=None) -> None:
        super().__init__(app)
        self.brain, self.llm = brain, llm
        self.talk, self.talk_residents = app.options.talk_brain, app.options.talk_residents
        self.doctor = doctor_line(brain, llm, self.talk)
        self.name_box = TextBox("your name", text=name, size=22, limit=40)
        self.focus = Focus(self.name_box)
        self.focus.set(self.name_box)  # so Enter starts straight away
        scenarios = bundled_scenarios()
        self.scenario_buttons = [Button(s, Choice(scenario=s), size=20) for s in scenarios]
        self.blurbs = {s: scenario_blurb(s) for s in scenarios}
        listed = saved_games()
        self.save_buttons = [Button(s.name, Choice(save=s.name), size=18) for s in listed]
        self.save_notes = {s.name: save_about(s) for s in listed}
        self.save_visitors = {s.name: s.visitor for s in listed}
        self.scroll = 0  # saves scrolled past
        self.visible = 0  # saves that fit
        self.list_rect = pygame.Rect(0, 0, 0, 0)
        self.typed_name = False  # the player typed a name: a picked save does not change it
        self.start_button = Button("Start", size=24)
        self.choice = Choice(scenario="smallville" if "smallville" in scenarios else scenarios[0])
        self.note = ""
        self.load_y = 0
        self.compact = False  # a short window: a tighter header
        self.blurb_x = 0

    def typing(self) -> bool:
        return self.focus.current is not None

    def handle(self, command: Command) -> None:
        act = command.act
        if act is Act.QUIT:
            self.app.quit()
        elif act is Act.POINTER_UP:
            self._click(command.pos)
        elif act is Act.BACK:
            self.focus.set(None)
        elif act is Act.SUBMIT:
            self.start()
        elif act in (Act.TYPE, Act.ERASE, Act.EDIT):
            self.name_box.edit(command)
            self.typed_name = True
        elif act is Act.NEXT_FIELD:
            self.focus.next()
        elif act is Act.WHEEL:
            self.scroll_by(-command.value)

    def scroll_by(self, rows: int) -> None:
        most = max(0, len(self.save_buttons) - self.visible)
        self.scroll = max(0, min(most, self.scroll + rows))

    def _click(self, pos: tuple[int, int]) -> None:
        for button in (*self.scenario_buttons, *self.shown_saves()):
            if button.hit(pos) and isinstance(button.key, Choice):
                self.pick(button.key)
                return  # the name box keeps the keyboard: Enter starts the choice
        if self.start_button.hit(pos):
            self.start()
            return
        if not self.focus.click(pos):
            self.focus.set(None)

    def pick(self, choice: Choice) -> None:
        """Highlight a choice; a save fills in the name its visitor had."""
        self.choice = choice
        visitor = self.save_visitors.get(choice.save, "")
        if visitor and not self.typed_name:
            self.name_box.text = visitor
            self.name_box.apply_edit(Edit.END)

    def shown_saves(self) -> list[Button]:
        return self.save_buttons[self.scroll : self.scroll + self.visible]

    def start(self) -> None:
        name = " ".join(self.name_box.text.split()) or "Visitor"
        try:
            self.app.begin(name, scenario=self.choice.scenario, save=self.choice.save)
        except SmallvilleError as exc:
            self.note = str(exc)

    def update(self, dt: float) -> None:
        """Lay out for the window: the saves list takes the room between the scenarios
        and the name box, and scrolls when the saves do not fit (800x480 and up)."""
        w, h = self.app.size
        x = max(20, w // 2 - 300)
        self.compact = h < COMPACT_BELOW
        y = (114 if self.compact else 170) + (DOCTOR_ROW if self.doctor else 0)
        right = x
        for button in self.scenario_buttons:
            button.on = self.choice == button.key
            if self.compact:  # one row of scenarios; the chosen one's blurb beside them
                right = button.fit(right, y, pad=14, height=32).right + 8
            else:
                button.fit(x, y, pad=14, height=32)
                y += 38
        self.blurb_x = right + 6
        self.load_y = (y + 44) if self.compact else (y + 6)
        self.start_button.fit(x, h - 58, pad=30, height=42)
        self.name_box.rect = pygame.Rect(x, self.start_button.rect.y - 46, 360, 36)
        top, bottom = self.load_y + 32, self.name_box.rect.y - 34
        self.list_rect = pygame.Rect(x, top, 600, max(0, bottom - top))
        self.visible = max(1, self.list_rect.height // 36)
        self.scroll_by(0)
        for button in self.save_buttons:
            button.rect = pygame.Rect(0, -100, 0, 0)  # not shown: not clickable
        for i, button in enumerate(self.shown_saves()):
            button.on = self.choice == button.key
            button.fit(x, top + i * 36, pad=12, height=30)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG)
        w, h = self.app.size
        x = max(20, w // 2 - 300)
        brain = f"Brain: {brain_sentence(self.brain, self.llm, self.talk, self.talk_residents)}"
        brain = theme.ellipsize(brain, theme.font(18 if self.compact else 20), w - x - 20)
        if self.compact:
            theme.blit_text(surface, "Smallville", (x, 8), 48, theme.ACCENT)
            tagline = "a town of generative agents, and you, a visitor"
            theme.blit_text(surface, tagline, (x + 220, 22), 20, theme.MUTED)
            theme.blit_text(surface, brain, (x, 56), 18)
            self._draw_doctor(surface, (x, 78), 15)
            theme.blit_text(surface, "New game", (x, 86 + self._shift), 22, theme.ACCENT)
        else:
            theme.blit_text(surface, "Smallville", (x, 18), 64, theme.ACCENT)
            tagline = "a town of generative agents, and you, a visitor"
            theme.blit_text(surface, tagline, (x, 72), 22, theme.MUTED)
            theme.blit_text(surface, brain, (x, 100), 20)
            self._draw_doctor(surface, (x, 124), 16)
            theme.blit_text(surface, "New game", (x, 138 + self._shift), 24, theme.ACCENT)
        for button in self.scenario_buttons:
            button.draw(surface)
            if not self.compact:
                blurb = self.blurbs.get(button.label, "")
                at = (button.rect.right + 14, button.rect.y + 8)
                theme.blit_text(surface, blurb, at, 18, theme.MUTED)
        if self.compact and self.choice.scenario:
            blurb = self.blurbs.get(self.choice.scenario, "")
            at = (self.blurb_x, self.scenario_buttons[0].rect.y + 8)
            theme.blit_text(surface, blurb, at, 18, theme.MUTED)
        title = "Load a saved game"
        more = len(self.save_buttons) - self.visible
        if more > 0:
            first, last = self.scroll + 1, min(len(self.save_buttons), self.scroll + self.visible)
            title += f"  ({first}-{last} of {len(self.save_buttons)}: wheel to scroll)"
        theme.blit_text(surface, title, (x, self.load_y), 22, theme.ACCENT)
        for button in self.shown_saves():
            button.draw(surface)
            note = self.save_notes.get(button.label, "")
            room = w - button.rect.right - 30
            note = theme.ellipsize(note, theme.font(17), max(40, room))
            theme.blit_text(
                surface, note, (button.rect.right + 14, button.rect.y + 7), 17, theme.MUTED
            )
        if not self.save_buttons:
            theme.blit_text(surface, "no saved games yet", (x, self.load_y + 34), 18, theme.MUTED)
        theme.blit_text(surface, "Your name", (x, self.name_box.rect.y - 24), 20, theme.ACCENT)
        self.name_box.draw(surface)
        self.start_button.draw(surface)
        hint = "Enter starts  ·  F1 in the town lists every control"
        theme.blit_text(
            surface,
            hint,
            (self.start_button.rect.right + 20, self.start_button.rect.y + 13),
            18,
            theme.MUTED,
        )
        if self.note:
            theme.blit_text(
                surface,
                self.note,
                (self.name_box.rect.right + 16, self.name_box.rect.y + 8),
                18,
                theme.BAD,
            )

    @property
    def _shift(self) -> int:
        return DOCTOR_ROW if self.doctor else 0

    def _draw_doctor(self, surface: pygame.Surface, at: tuple[int, int], size: int) -> None:
        """The doctor's verdict in one line, cut to the window's width."""
        if self.doctor:
            room = self.app.size[0] - at[0] - 20
            line = theme.ellipsize(self.doctor, theme.font(size), room)
            theme.blit_text(surface, line, at, size, doctor_color(self.doctor))
