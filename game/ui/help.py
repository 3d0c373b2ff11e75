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
    rect = pygame.Rect(0, 0, 0, 0)  # the box, set by `layout` at each draw

    def handle(self, command: Command) -> None:
        if command.act in CLOSERS:
            self.app.stack.remove(self)
        elif command.act is Act.QUIT:
            self.app.quit()

    def layout(self, size: tuple[int, int]) -> tuple[int, int, int]:
        """(text size, line height, key column width): the largest text, down to 12 px,
        at which every control fits the window's height; `rect` is the box."""
        w, h = size
        for text_size, gap in ((s, g) for s in range(18, 11, -1) for g in (6, 4, 2)):
            fnt = theme.font(text_size)
            line = fnt.get_linesize() + gap
            height = line * len(CONTROLS) + 90
            if height <= h - 16:
                break
        key_w = max(fnt.size(k)[0] for k, _ in CONTROLS) + 20
        what_w = max(fnt.size(t)[0] for _, t in CONTROLS)
        self.rect = pygame.Rect(0, 0, min(key_w + what_w + 48, w - 16), min(height, h - 16))
        self.rect.center = (w // 2, h // 2)
        return text_size, line, key_w

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.box_image(surface.get_size(), (0, 0, 0, 150), 0, False), (0, 0))
        text_size, line, key_w = self.layout(surface.get_size())
        box, fnt = self.rect, theme.font(text_size)
        theme.panel(surface, box, (28, 32, 44, 245))
        theme.blit_text(surface, "Controls", (box.x + 24, box.y + 14), 26, theme.ACCENT)
        y = box.y + 54
        room = box.width - 48 - key_w
        for key, what in CONTROLS:
            theme.blit_text(surface, key, (box.x + 24, y), text_size, theme.ACCENT)
            what = theme.ellipsize(what, fnt, room)
            theme.blit_text(surface, what, (box.x + 24 + key_w, y), text_size)
            y += line
        hint = "F1, H, Esc or a click closes this help"
        theme.blit_text(surface, hint, (box.x + 24, box.bottom - 28), 15, theme.MUTED)
