"""The heads-up display: game time, speed buttons, which brain, model usage, notifications.

Notifications come from three places: new ERROR events in the simulation's log, read
incrementally so a long log costs nothing per frame; the brain's notices (the endpoint is
down, the budget is spent); and the UI itself (saves, loads, things that could not be done).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

import pygame

from game.core.clock import fmt_time
from game.sim.events import EventKind
from game.sim.pace import Pace
from game.sim.view import READ_ONLY, SCRIPTED_LABEL, SimView, Usage
from game.ui import theme
from game.ui.input import Act, Command
from game.ui.pacing import SPEEDS, Pacer
from game.ui.widgets import Button

BAR_HEIGHT = 46  # the bar's first row: time, date, speed buttons
ROW = 22  # each further row: the brain and usage when a narrow window has no room
# beside the buttons, and the warning that the model is the bottleneck
INFO_SIZE = 15
TOAST_SECONDS = 6.0
BRIEF_SECONDS = 2.5  # routine news (an autosave): shown briefly, never piling up
MAX_TOASTS = 5


@dataclass
class Toast:
    text: str
    color: theme.Color
    until: float
    count: int = 1
    brief: bool = False


@dataclass
class Notifications:
    """Short messages in the corner that fade after a few seconds; repeats are merged."""

    toasts: list[Toast] = field(default_factory=list)
    clock: float = 0.0
    _seen: int = 0  # how many log events have been read
    _notices_seen: int = 0  # how many of the brain's notices have been shown

    def push(self, text: str, color: theme.Color = theme.TEXT, brief: bool = False) -> None:
        """A toast; a `brief` one replaces the last brief one instead of counting up."""
        if brief:
            self.toasts = [t for t in self.toasts if not t.brief]
            self.toasts.append(Toast(text, color, self.clock + BRIEF_SECONDS, brief=True))
            self.toasts = self.toasts[-MAX_TOASTS:]
            return
        for toast in self.toasts:
            if toast.text == text:
                toast.count += 1
                toast.until = self.clock + TOAST_SECONDS
                return
        self.toasts.append(Toast(text, color, self.clock + TOAST_SECONDS))
        self.toasts = self.toasts[-MAX_TOASTS:]

    def dismiss(self, text: str) -> None:
        """Take a toast away before its time (an invitation that was answered)."""
        self.toasts = [t for t in self.toasts if t.text != text]

    def watch(self, sim: SimView) -> None:
        """Read the events logged since the last call; errors become toasts, and so do the
        brain's new notices."""
        events = sim.log.events
        if self._seen > len(events):  # a different (loaded) simulation
            self._seen = 0
        for event in events[self._seen :]:
            if event.kind is EventKind.ERROR:
                who = f"{event.agent}: " if event.agent else ""
                self.push(f"{who}{event.text}", theme.BAD)
        self._seen = len(events)
        notices = sim.notices()
        for text in notices[self._notices_seen :]:
            self.push(text, theme.ACCENT)
        self._notices_seen = len(notices)

    def restart(self, sim: SimView) -> None:
        """Start reading a (new) simulation's log from its end."""
        self._seen = len(sim.log.events)
        self._notices_seen = 0

    def update(self, dt: float) -> None:
        self.clock += dt
        self.toasts = [t for t in self.toasts if t.until > self.clock]

    def boxes(self, x: int, y: int, width: int) -> list[pygame.Rect]:
        """Where the toasts are drawn from (x, y) down (bubbles on the map keep clear)."""
        return [box for _, box, _ in self._layout(x, y, width)]

    def _layout(self, x: int, y: int, width: int) -> Iterator[tuple[Toast, pygame.Rect, list]]:
        fnt = theme.font(16)
        for toast in self.toasts:
            text = toast.text + (f"  (x{toast.count})" if toast.count > 1 else "")
            lines = theme.wrap(text, fnt, width - 20)[:3]
            h = len(lines) * fnt.get_linesize() + 10
            yield toast, pygame.Rect(x, y, width, h), lines
            y += h + 4

    def draw(self, surface: pygame.Surface, x: int, y: int, width: int) -> None:
        fnt = theme.font(16)
        for toast, box, lines in self._layout(x, y, width):
            theme.panel(surface, box, (20, 22, 30, 225))
            pygame.draw.rect(surface, toast.color, (box.x, box.y + 4, 4, box.height - 8))
            for i, line in enumerate(lines):
                surface.blit(
                    fnt.render(theme.safe_text(line), True, toast.color),
                    (box.x + 12, box.y + 5 + i * fnt.get_linesize()),
                )


class Hud:
    """The top bar. Its buttons are speed controls and help; a click gives the same
    Command the keyboard would, so the scene handles both in one place."""

    def __init__(self) -> None:
        self.buttons = [Button("Pause", Command(Act.PAUSE), size=17)]
        self.buttons += [Button(f"{s}x", Command(Act.SET_SPEED, value=s), size=17) for s in SPEEDS]
        self.buttons.append(Button("Help (F1)", Command(Act.HELP), size=17))
        self.rect = pygame.Rect(0, 0, 0, BAR_HEIGHT)
        self.time_text = ""
        self.day_text = ""
        self.brain_text = ""
        self.usage_text = ""
        self.pace_text = ""  # the model, or the steps, are the bottleneck ('' when not)
        self.stacked = False  # brain and usage on a row of their own, under the buttons
        self.day_x = 0

    def update(self, sim: SimView, pacer: Pacer, width: int, fast_forward: bool = False) -> None:
        """Decide what the bar says and where its buttons sit (the brain's label is read
        each time: a spent budget switches the model brain to its scripted fallback)."""
        self.rect.width = width
        self.day_text = date_text(sim.now)
        self.time_text = fmt_time(sim.now)
        self.brain_text = sim.brain_label()
        usage = sim.model_usage()
        model = self.brain_text not in (SCRIPTED_LABEL, READ_ONLY) or usage.calls > 0
        self.usage_text = usage_line(usage) if model else ""
        if fast_forward:
            self.usage_text = "night: fast-forward until residents wake"
        self.day_x = 12 + theme.font(28).size(self.time_text)[0] + 10
        x = max(self.day_x + theme.font(17).size("Wed 30 Sep 2023")[0] + 16, 230)
        speed = Command(Act.SET_SPEED, value=pacer.speed)
        shown = Command(Act.PAUSE) if pacer.paused else speed  # the button lit up
        for button in self.buttons:
            button.on = button.key == shown
            x = button.fit(x, 10, pad=8).right + 4
        self.buttons[-1].fit(self.buttons[-2].rect.right + 14, 10, pad=8)
        # the night's fast-forward outruns any brain: waits then are the night's, not the model's
        self.pace_text = "" if fast_forward else pace_line(sim.pace(), pacer.speed)
        self.pace_text = self.pace_text or ("" if fast_forward else lag_line(pacer))
        fnt = theme.font(INFO_SIZE)
        need = max(fnt.size(self.brain_text)[0], fnt.size(self.usage_text)[0])
        self.stacked = need > self._side_room()
        self.rect.height = BAR_HEIGHT + ROW * (self.stacked + bool(self.pace_text))

    def _side_room(self) -> int:
        """Pixels right of the buttons for the brain and usage lines."""
        return self.rect.right - 12 - (self.buttons[-1].rect.right + 16)

    def click(self, pos: tuple[int, int]) -> Command | None:
        for button in self.buttons:
            if button.hit(pos) and isinstance(button.key, Command):
                return button.key
        return None

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.box_image(self.rect.size, (16, 18, 26, 228), 0, False), self.rect)
        pygame.draw.line(surface, theme.PANEL_EDGE, self.rect.bottomleft, self.rect.bottomright)
        surface.blit(theme.text_image(self.time_text, 28, theme.ACCENT), (12, 5))
        surface.blit(theme.text_image(self.day_text, 17, theme.MUTED), (self.day_x, 16))
        for button in self.buttons:
            button.draw(surface)
        if self.stacked:
            self._draw_info_row(surface, BAR_HEIGHT)
        else:
            self._draw_info_column(surface)
        if self.pace_text:
            y = self.rect.bottom - ROW
            fnt = theme.font(INFO_SIZE)
            text = theme.ellipsize(self.pace_text, fnt, self.rect.width - 24)
            surface.blit(theme.text_image(text, INFO_SIZE, theme.BAD), (12, y + 2))

    def _usage_image(self, text: str) -> pygame.Surface:
        night = self.usage_text.startswith("night")
        return theme.text_image(text, INFO_SIZE, theme.ACCENT if night else theme.MUTED)

    def _draw_info_column(self, surface: pygame.Surface) -> None:
        """Brain over usage, right of the buttons (a window wide enough for both)."""
        right, room = self.rect.right - 12, self._side_room()
        fnt = theme.font(INFO_SIZE)
        top = theme.text_image(theme.ellipsize(self.brain_text, fnt, room), INFO_SIZE)
        low = self._usage_image(theme.ellipsize(self.usage_text, fnt, room))
        surface.blit(top, (right - top.get_width(), 6))
        surface.blit(low, (right - low.get_width(), 25))

    def _draw_info_row(self, surface: pygame.Surface, y: int) -> None:
        """Brain left and usage right on a row under the buttons (a narrow window); the
        brain gets at most half the row, the usage the rest."""
        fnt = theme.font(INFO_SIZE)
        room = self.rect.width - 24 - 16
        brain = theme.ellipsize(self.brain_text, fnt, room // 2)
        left = theme.text_image(brain, INFO_SIZE)
        usage = theme.ellipsize(self.usage_text, fnt, room - left.get_width())
        low = self._usage_image(usage)
        surface.blit(left, (12, y + 2))
        surface.blit(low, (self.rect.right - 12 - low.get_width(), y + 2))


def date_text(when: datetime) -> str:
    """The one date format of every screen: 'Mon 13 Feb 2023'."""
    return f"{when:%a} {when.day} {when:%b %Y}"


def usage_line(usage: Usage) -> str:
    """'model calls 12 · tokens 3,400 in / 800 out · $0.0042 · json_object' (zeros on the
    scripted brain); the output mode says which rung of the ladder the endpoint settled on."""
    tokens = f"tokens {usage.prompt_tokens:,} in / {usage.completion_tokens:,} out"
    line = f"model calls {usage.calls:,} · {tokens} · ${usage.cost_usd:.4f}"
    return f"{line} · {usage.output_mode}" if usage.output_mode else line


def pace_line(pace: Pace, speed: int) -> str:
    """The warning when residents stand waiting for the model ('' when it keeps up), with
    what the player can do: a lower speed, unless the game already runs at the lowest."""
    if not pace.bottleneck:
        return ""
    waiting = f"the model is the bottleneck: residents wait {pace.recent_share:.0%} of the time"
    if speed > SPEEDS[0]:
        return f"{waiting}; try a lower speed ([ key or the {SPEEDS[0]}x button)"
    return f"{waiting}, even at {SPEEDS[0]}x: a faster model or endpoint would keep up"


def lag_line(pacer: Pacer) -> str:
    """The warning when the town runs well under the chosen speed ('' when it keeps up):
    the steps themselves take longer than the time they stand for (a big town on a small
    machine), so the bar's lit button no longer says how fast the town goes."""
    if not pacer.lagging or pacer.kept is None:
        return ""
    kept = (
        f"the town runs at {pacer.kept:.1f}x, not {pacer.speed}x: this computer steps it no faster"
    )
    if pacer.speed == SPEEDS[0]:
        return kept
    fits = max((s for s in SPEEDS if s <= pacer.kept), default=SPEEDS[0])
    return f"{kept}; try {fits}x"
