"""The start screen: a new game from a bundled scenario or a saved game, the player's name,
and which brain is running, said plainly.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.core.errors import SmallvilleError
from game.sim.saves import SaveInfo, list_saves
from game.sim.view import describe_brain
from game.ui import theme
from game.ui.input import Act, Command
from game.ui.scene import Scene
from game.ui.widgets import Button, Focus, TextBox
from game.world.scenario import bundled_scenarios, load_scenario

BLURB = {
    "smallville": "the whole town: 25 residents",
    "three": "a quiet start: Isabella, Klaus and Maria",
}


@dataclass(frozen=True)
class Choice:
    scenario: str = ""  # a bundled scenario for a new game
    save: str = ""  # or a saved game's name


def brain_sentence(brain: str, llm=None) -> str:
    """The brain in plain words, before a simulation exists to ask (the town's HUD then
    asks the simulation, which says it the same way)."""
    if llm is None:
        return describe_brain(brain)
    return describe_brain(brain, llm.model, llm.base_url or "https://api.openai.com/v1")


def saved_games(limit: int = 6) -> list[SaveInfo]:
    """The newest few saves to offer ([] when the folder cannot be read)."""
    try:
        return list_saves()[:limit]
    except OSError:
        return []


def save_about(info: SaveInfo) -> str:
    """'smallville, 2023-02-13 09:30': which town, and when in it."""
    when = info.game_time.replace("T", " ")[:16]
    return ", ".join(p for p in (info.scenario, when) if p and p != "?")


def scenario_blurb(name: str) -> str:
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
        self.name_box = TextBox("your name", text=name, size=22, limit=40)
        self.focus = Focus(self.name_box)
        self.focus.set(self.name_box)  # so Enter starts straight away
        scenarios = bundled_scenarios()
        self.scenario_buttons = [Button(s, Choice(scenario=s), size=20) for s in scenarios]
        self.blurbs = {s: scenario_blurb(s) for s in scenarios}
        listed = saved_games()
        self.save_buttons = [Button(s.name, Choice(save=s.name), size=18) for s in listed]
        self.save_notes = {s.name: save_about(s) for s in listed}
        self.start_button = Button("Start", size=24)
        self.choice = Choice(scenario="smallville" if "smallville" in scenarios else scenarios[0])
        self.note = ""
        self.load_y = 0

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
        elif act is Act.TYPE:
            self.name_box.type(command.text)
        elif act is Act.ERASE:
            self.name_box.erase()
        elif act is Act.NEXT_FIELD:
            self.focus.next()

    def _click(self, pos: tuple[int, int]) -> None:
        for button in (*self.scenario_buttons, *self.save_buttons):
            if button.hit(pos) and isinstance(button.key, Choice):
                self.choice = button.key
        if self.start_button.hit(pos):
            self.start()
            return
        if not self.focus.click(pos):
            self.focus.set(None)

    def start(self) -> None:
        name = " ".join(self.name_box.text.split()) or "Visitor"
        try:
            self.app.begin(name, scenario=self.choice.scenario, save=self.choice.save)
        except SmallvilleError as exc:
            self.note = str(exc)

    def update(self, dt: float) -> None:
        w, _ = self.app.size
        x = w // 2 - 300
        y = 250
        for button in self.scenario_buttons:
            button.on = self.choice == button.key
            button.fit(x, y, pad=14, height=34)
            y += 44
        self.load_y = y + 14
        y = self.load_y + 36
        for button in self.save_buttons:
            button.on = self.choice == button.key
            button.fit(x, y, pad=12, height=30)
            y += 38
        if not self.save_buttons:
            y += 30
        self.name_box.rect = pygame.Rect(x, y + 44, 360, 38)
        self.start_button.fit(x, self.name_box.rect.bottom + 60, pad=30, height=44)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG)
        w, _ = self.app.size
        x = w // 2 - 300
        theme.blit_text(surface, "Smallville", (x, 60), 72, theme.ACCENT)
        theme.blit_text(
            surface, "a town of generative agents, and you, a visitor", (x, 124), 22, theme.MUTED
        )
        theme.blit_text(surface, f"Brain: {brain_sentence(self.brain, self.llm)}", (x, 164), 20)
        theme.blit_text(surface, "New game", (x, 214), 24, theme.ACCENT)
        for button in self.scenario_buttons:
            button.draw(surface)
            blurb = self.blurbs.get(button.label, "")
            theme.blit_text(
                surface, blurb, (button.rect.right + 14, button.rect.y + 8), 18, theme.MUTED
            )
        theme.blit_text(surface, "Load a saved game", (x, self.load_y), 24, theme.ACCENT)
        for button in self.save_buttons:
            button.draw(surface)
            note = self.save_notes.get(button.label, "")
            theme.blit_text(
                surface, note, (button.rect.right + 14, button.rect.y + 7), 17, theme.MUTED
            )
        if not self.save_buttons:
            theme.blit_text(surface, "no saved games yet", (x, self.load_y + 34), 18, theme.MUTED)
        theme.blit_text(surface, "Your name", (x, self.name_box.rect.y - 28), 20, theme.ACCENT)
        self.name_box.draw(surface)
        self.start_button.draw(surface)
        theme.blit_text(
            surface,
            "Enter starts  ·  F1 in the town lists every control",
            (self.start_button.rect.right + 20, self.start_button.rect.y + 14),
            18,
            theme.MUTED,
        )
        if self.note:
            theme.blit_text(
                surface, self.note, (x, self.start_button.rect.bottom + 16), 18, theme.BAD
            )
