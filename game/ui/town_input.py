"""The town scene's part that answers the player's walking, clicks, drags, wheel and keys.

`TownInput` is a part of `town_scene.TownScene` (it works on the scene's own state): the
scene's `handle` sends each command here through its table of handlers.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.ui.actors import VISITOR_KEY
from game.ui.input import Command, PanelAction
from game.ui.panel import Panel
from game.world.town import AreaKind

VISITOR_STEP_S = 0.14  # the visitor walks about 7 tiles a real second
DRAG_THRESHOLD = 6  # pixels the pointer must move before a press becomes a drag


@dataclass
class Press:
    """A left-button press on the map: a click unless it moves far enough to be a drag."""

    pos: tuple[int, int]
    dragging: bool = False


class TownInput:
    """The town scene's commands: the visitor's walk, the pointer on the map and panels,
    Esc, T and F."""

    def _walk(self, command: Command) -> None:
        if command.pressed:
            if command.delta not in self.held:
                self.held.append(command.delta)
            self._step_visitor(command.delta)
            self.walk_timer = VISITOR_STEP_S
            self.camera.following = True
            self.watching = ""
        elif command.delta in self.held:
            self.held.remove(command.delta)

    def _step_visitor(self, delta: tuple[int, int]) -> None:
        if self.sim.player is not None:
            self.sim.player.move_visitor(*delta)

    def _walk_held(self, dt: float) -> None:
        if not self.held or self.typing():
            return
        self.walk_timer -= dt
        if self.walk_timer <= 0:
            self._step_visitor(self.held[-1])
            self.walk_timer += VISITOR_STEP_S
            self.walk_timer = max(self.walk_timer, 0.02)

    def _settle_visitor(self) -> None:
        """Standing still, the visitor steps off a resident's tile (or furniture)."""
        if not self.held and self.sim.player is not None:
            self.sim.player.settle_visitor()

    def _pointer_down(self, command: Command) -> None:
        if self._ui_at(command.pos):
            self.press = None
            return
        self.press = Press(command.pos)

    def _pointer_move(self, command: Command) -> None:
        self.actors.hover = command.pos
        press = self.press
        if press is None or not command.pressed:
            return
        if not press.dragging:
            dx, dy = command.pos[0] - press.pos[0], command.pos[1] - press.pos[1]
            press.dragging = abs(dx) + abs(dy) >= DRAG_THRESHOLD
            if press.dragging:
                self.watching = ""
                self.camera.pan(dx, dy)
            return
        self.camera.pan(*command.delta)

    def _pointer_up(self, command: Command) -> None:
        press, self.press = self.press, None
        if press is not None and press.dragging:
            return
        self.click(command.pos)

    def click(self, pos: tuple[int, int]) -> None:
        """A click: HUD first, then the panels, then whoever or whatever is on the map."""
        command = self.hud.click(pos)
        if command is not None:
            self.handle(command)
            return
        panel = self.panels.at(pos)
        if panel is not None:
            self.panels.focus_only(panel)
            self._panel_action(panel, panel.click(pos))
            return
        self.panels.focus_only(None)
        self._click_map(pos)

    def _click_map(self, pos: tuple[int, int]) -> None:
        fig = self.actors.pick(pos, self.camera)  # a pile: each click the next one in it
        if fig is not None and fig.key != VISITOR_KEY:
            self.open_inspector(fig.key)
            return
        wx, wy = self.camera.to_world(*pos)
        tile = self.sim.town.tile
        area = self.sim.town.area_at(int(wx // tile), int(wy // tile), AreaKind.OBJECT)
        if area is not None:
            self.open_editor(area.address)
        elif self.editor is not None:
            self.close_panel(self.editor)

    def _panel_action(self, panel: Panel, action: PanelAction) -> None:
        if action is PanelAction.CLOSE:
            self.close_panel(panel)
        elif action is PanelAction.TALK:  # talk with whom the panel is about
            self.open_chat(panel.subject)

    def _wheel(self, command: Command) -> None:
        panel = self.panels.at(command.pos)
        if panel is not None:
            panel.wheel(command.pos, command.value)
            return  # the wheel over a panel never zooms the map
        self.watching = ""
        self.camera.zoom_by(command.value, at=command.pos)

    def _back(self, command: Command) -> None:
        """Esc: leave the text box; else close the topmost panel; else the settings. Just
        after a box let go by itself, Esc only ends that moment (the box is already gone)."""
        focused = self.panels.focused()
        if focused is not None:
            focused.focus.set(None)
        elif self.keys_grace_until > self.actors.clock:
            self.keys_grace_until = 0.0
        elif self.panels:
            self.close_panel(next(iter(self.panels)))
        else:
            self.app.open_settings()

    def _talk(self, command: Command) -> None:
        target = self.talk_target()  # whom T answers: game/sim/player.py decides
        if target is not None and self._answering(target):
            self.panels.focus_only(self.chat)
            self.chat.focus.set(self.chat.box)  # answer whoever is already talking to us
            return
        if target is None:
            self.notes.push("No one to talk with here: walk up to someone in sight.")
            return
        if self.open_chat(target.resident) is not None and target.describe():
            self.notes.push(target.describe())  # whom T picked, and why

    def _follow(self, command: Command) -> None:
        self.camera.following, self.watching = True, ""
