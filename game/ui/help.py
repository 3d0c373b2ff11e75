"""The help overlay (F1): every control, from the same table as docs/CONTROLS.md.

It sits on top of the town, which keeps running underneath.
"""

from __future__ import annotations

import pygame

from game.ui import theme
from game.ui.input import CONTROLS, Act, Command
from game.ui.scene import Scene

CLOSERS = (Act.HELP, Act.BACK, Act.POINTER_UP)


class HelpOverlay(Scene):
    opaque = False

    def handle(self, command: Command) -> None:
        if command.act in CLOSERS:
            self.app.stack.remove(self)
        elif command.act is Act.QUIT:
            self.app.quit()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.box_image(surface.get_size(), (0, 0, 0, 150), 0, False), (0, 0))
        fnt = theme.font(18)
        key_w = max(fnt.size(k)[0] for k, _ in CONTROLS) + 24
        what_w = max(fnt.size(w)[0] for _, w in CONTROLS)
        line = fnt.get_linesize() + 6
        box = pygame.Rect(0, 0, key_w + what_w + 48, line * len(CONTROLS) + 96)
        box.center = surface.get_rect().center
        theme.panel(surface, box, (28, 32, 44, 245))
        theme.blit_text(surface, "Controls", (box.x + 24, box.y + 16), 28, theme.ACCENT)
        y = box.y + 56
        for key, what in CONTROLS:
            theme.blit_text(surface, key, (box.x + 24, y), 18, theme.ACCENT)
            theme.blit_text(surface, what, (box.x + 24 + key_w, y), 18)
            y += line
        hint = "F1, H, Esc or a click closes this help"
        theme.blit_text(surface, hint, (box.x + 24, box.bottom - 30), 16, theme.MUTED)
