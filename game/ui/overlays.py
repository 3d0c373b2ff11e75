"""Object states on the map: flames on a burning stove, drips under a leaking tap, a light
on a thing in use, and a short ring when a state changes.

Why on the map: the headline experiment (set a stove burning, watch its owner come and put
it out) must be visible without opening a panel. What is shown is decided in `update` from
the town's states and the event log (through SimView); `draw` only paints it. How a
trouble looks is its entry's `look` in game.world.troubles, the name of a painter here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol

import pygame

from game.sim.view import SimView, StateChange, state_changes
from game.ui.mapview import Camera
from game.world.town import AreaKind
from game.world.troubles import LIGHT, trouble

FLASH_SECONDS = 1.6  # how long the ring of a change lasts (real seconds)
# States in which a thing is at rest and drawn as the map shows it.
RESTING = frozenset({"idle", "off", "closed", "empty", "clean", "made", "tidy", ""})


def notable(old: str, new: str, default: str) -> bool:
    """Whether a change is news (a trouble starts or ends), not the routine of a thing
    going in and out of use."""
    return any(trouble(state) is not None for state in (old, new) if state != default)


def effect_of(state: str, default: str) -> str | None:
    """The painter of a state (None: the object is at rest and drawn as the map shows it):
    a trouble's look from the troubles table, else the warm light of a thing in use."""
    words = state.strip().lower()
    if words == default.strip().lower() or words in RESTING:
        return None
    found = trouble(words)
    return found.look if found is not None and found.look in PAINTERS else LIGHT


@dataclass(frozen=True)
class Shown:
    """One object's overlay: where (tiles) and how."""

    address: str
    effect: str  # the painter's name (a look in the troubles table, or light)
    rect: tuple[int, int, int, int]  # x, y, w, h in tiles


@dataclass
class ObjectOverlays:
    """The overlays of every object not at rest, and the rings of recent changes."""

    shown: dict[str, Shown] = field(default_factory=dict)
    flashes: list[tuple[tuple[int, int, int, int], float]] = field(default_factory=list)
    painted: set[str] = field(default_factory=set)  # drawn in the last frame (for tests)
    clock: float = 0.0
    _seen: int = -1  # the log events read so far (-1: not started)

    def update(self, sim: SimView, dt: float) -> list[StateChange]:
        """Decide what to draw; returns the state changes logged since the last call."""
        self.clock += dt
        town = sim.town
        shown = {}
        for address, state in town.states.items():
            area = town.areas.get(address)
            if area is None or area.kind is not AreaKind.OBJECT:
                continue
            effect = effect_of(state, area.default_state)
            if effect is not None:
                r = area.rect
                shown[address] = Shown(address, effect, (r.x, r.y, r.w, r.h))
        self.shown = shown
        return self._read_changes(sim)

    def _read_changes(self, sim: SimView) -> list[StateChange]:
        events = len(sim.log.events)
        if self._seen < 0 or self._seen > events:  # a new (or loaded) town: read on from now
            self._seen = events
            return []
        changes = state_changes(sim.log, self._seen)
        self._seen = events
        for change in changes:
            area = sim.town.areas.get(change.address)
            if area is not None:
                r = area.rect
                self.flashes.append(((r.x, r.y, r.w, r.h), self.clock + FLASH_SECONDS))
        self.flashes = [f for f in self.flashes if f[1] > self.clock][-20:]
        return changes

    def draw(self, surface: pygame.Surface, cam: Camera, tile: int) -> None:
        view = surface.get_rect()
        self.painted = set()
        for shown in self.shown.values():
            rect = _screen(shown.rect, cam, tile)
            if not view.colliderect(rect.inflate(60, 60)):
                continue
            PAINTERS[shown.effect](surface, rect, self.clock)
            self.painted.add(shown.address)
        for box, until in self.flashes:
            _ring(surface, _screen(box, cam, tile), 1 - (until - self.clock) / FLASH_SECONDS)


def _screen(box: tuple[int, int, int, int], cam: Camera, tile: int) -> pygame.Rect:
    x, y = cam.to_screen(box[0] * tile, box[1] * tile)
    return pygame.Rect(x, y, round(box[2] * tile * cam.zoom), round(box[3] * tile * cam.zoom))


def _alpha_layer(size: tuple[int, int]) -> pygame.Surface:
    return pygame.Surface((max(1, size[0]), max(1, size[1])), pygame.SRCALPHA)


def _fire(surface: pygame.Surface, rect: pygame.Rect, clock: float) -> None:
    """Flickering flames over the object and grey smoke rising from it."""
    size = max(rect.width, rect.height)
    layer = _alpha_layer((rect.width + size, rect.height + 2 * size))
    base_y = layer.get_height() - size // 3
    cx = layer.get_width() / 2
    for i in range(5):  # smoke puffs drift up and fade
        t = (clock * 0.6 + i / 5) % 1.0
        r = int(size * (0.18 + 0.35 * t))
        y = int(base_y - size * 0.6 - t * size * 1.5)
        x = int(cx + math.sin(clock * 1.5 + i) * size * 0.2)
        pygame.draw.circle(layer, (90, 90, 96, int(150 * (1 - t))), (x, y), r)
    for i, colour in enumerate(((230, 60, 20, 235), (250, 140, 30, 235), (255, 230, 90, 240))):
        scale = 1.0 - i * 0.28
        w = size * 0.9 * scale
        h = size * (1.0 + 0.25 * math.sin(clock * 9 + i * 2.1)) * scale
        points = [
            (cx - w / 2, base_y),
            (cx - w / 4, base_y - h * 0.55),
            (cx - w / 8 + math.sin(clock * 7 + i) * w / 6, base_y - h),
            (cx + w / 6, base_y - h * 0.6),
            (cx + w / 2, base_y),
        ]
        pygame.draw.polygon(layer, colour, points)
    surface.blit(
        layer, (rect.centerx - layer.get_width() // 2, rect.bottom - layer.get_height() + size // 3)
    )


def _water(surface: pygame.Surface, rect: pygame.Rect, clock: float) -> None:
    """A puddle under the object and drops falling into it."""
    size = max(8, rect.width)
    puddle = pygame.Rect(0, 0, int(size * 1.3), max(6, size // 3))
    puddle.midtop = (rect.centerx, rect.bottom - puddle.height // 2)
    layer = _alpha_layer(puddle.size)
    pygame.draw.ellipse(layer, (70, 140, 230, 170), layer.get_rect())
    surface.blit(layer, puddle)
    for i in range(3):
        t = (clock * 1.2 + i / 3) % 1.0
        x = rect.x + rect.width * (0.3 + 0.2 * i)
        y = rect.y + rect.height * 0.3 + t * rect.height * 0.8
        pygame.draw.circle(surface, (110, 180, 255), (int(x), int(y)), max(2, size // 10))


def _broken(surface: pygame.Surface, rect: pygame.Rect, clock: float) -> None:
    """A red warning mark that pulses."""
    r = max(7, rect.width // 3)
    centre = (rect.right - r // 2, rect.y + r // 2)
    lit = 0.6 + 0.4 * abs(math.sin(clock * 4))
    pygame.draw.circle(surface, (int(230 * lit), 40, 40), centre, r)
    pygame.draw.line(
        surface,
        (255, 255, 255),
        (centre[0], centre[1] - r // 2),
        (centre[0], centre[1] + r // 6),
        max(2, r // 4),
    )
    pygame.draw.circle(surface, (255, 255, 255), (centre[0], centre[1] + r // 2), max(1, r // 6))


def _light(surface: pygame.Surface, rect: pygame.Rect, clock: float) -> None:
    """A soft warm glow on the object (small, whatever the object's size: a big area in
    use, like a café's seating, must not wash over the room)."""
    size = min(max(rect.width, rect.height), 40)
    layer = _alpha_layer((size * 2, size * 2))
    glow = int(60 + 25 * math.sin(clock * 3))
    pygame.draw.circle(layer, (255, 220, 120, glow), (size, size), size)
    pygame.draw.circle(layer, (255, 235, 160, glow + 30), (size, size), size // 2)
    surface.blit(layer, (rect.centerx - size, rect.centery - size))


def _ring(surface: pygame.Surface, rect: pygame.Rect, progress: float) -> None:
    """The short effect of a change: a ring that widens and fades."""
    progress = max(0.0, min(1.0, progress))
    radius = int(min(rect.width, rect.height) * (0.5 + 0.7 * progress))
    layer = _alpha_layer((2 * radius + 4, 2 * radius + 4))
    colour = (255, 255, 255, int(220 * (1 - progress)))
    pygame.draw.circle(layer, colour, (radius + 2, radius + 2), radius, width=2)
    surface.blit(layer, (rect.centerx - radius - 2, rect.centery - radius - 2))


class Painter(Protocol):
    def __call__(self, surface: pygame.Surface, rect: pygame.Rect, clock: float) -> None: ...


# The looks a trouble may name in game.world.troubles, by name; a new look is one painter here.
PAINTERS: dict[str, Painter] = {"fire": _fire, "water": _water, "broken": _broken, LIGHT: _light}
