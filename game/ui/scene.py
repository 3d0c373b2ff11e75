"""Scenes and the scene stack (the Tuxemon shape).

A scene handles commands, updates with the elapsed real time, and draws. Drawing never
changes game state: everything a frame shows is decided in `update`, so a test can draw a
frame twice and get the same picture, and a screenshot never disturbs the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ui.input import Command

if TYPE_CHECKING:
    from game.ui.app import App


class Scene:
    """One screen or overlay. `opaque` scenes hide the ones below them when drawn."""

    opaque = True
    runs_below = False  # keep updating while another scene is on top (the town under help)

    def __init__(self, app: App) -> None:
        self.app = app

    def typing(self) -> bool:
        """Whether a text box has the keyboard focus (keys become text, not commands)."""
        return False

    def handle(self, command: Command) -> None:
        """React to one command."""

    def update(self, dt: float) -> None:
        """Advance by dt real seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the scene. Must not change game state."""

    def close(self) -> None:
        """Release what the scene holds (a simulation's thread pool, for instance)."""


class SceneStack:
    """Only the top scene gets commands; scenes below keep updating if they ask to."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        self.scenes.append(scene)

    def pop(self) -> Scene | None:
        return self.scenes.pop() if self.scenes else None

    def replace(self, scene: Scene) -> None:
        """Swap the whole stack for one scene (start screen -> town, or a loaded game)."""
        for old in reversed(self.scenes):
            old.close()
        self.scenes = [scene]

    def remove(self, scene: Scene) -> None:
        if scene in self.scenes:
            self.scenes.remove(scene)

    def handle(self, command: Command) -> None:
        if self.top is not None:
            self.top.handle(command)

    def update(self, dt: float) -> None:
        top = self.top
        for scene in list(self.scenes):
            if scene is top or scene.runs_below:
                scene.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        start = 0
        for i, scene in enumerate(self.scenes):
            if scene.opaque:
                start = i
        for scene in self.scenes[start:]:
            scene.draw(surface)

    def close(self) -> None:
        for scene in reversed(self.scenes):
            scene.close()
        self.scenes = []
