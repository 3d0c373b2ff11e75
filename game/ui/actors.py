"""The people on the map: residents and the visitor, gliding between tiles.

The simulation moves a walker one whole tile per step; drawn as is, people would hop. Each
figure here chases its simulated tile at walking pace, so it slides smoothly and never
falls more than about a tile behind (a big jump, like a load, snaps).

`update` decides where everyone is drawn and what their bubbles say; `draw` only paints it,
its labels and bubbles laid out by `game.ui.layout` so none covers another or a panel.

A line said stays up for a few real seconds after its speaker falls silent, fading (a
conversation moves to the next line every half second at 1x), so a back-and-forth reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import pygame

from game.sim.player import Visitor
from game.sim.view import ResidentView, SimView
from game.ui import theme
from game.ui.emoji import EmojiRenderer, shared_renderer
from game.ui.layout import Layout
from game.ui.mapview import Camera
from game.ui.sprites import SpriteBank, slug, walk_column
from game.world.town import AreaKind

SNAP_TILES = 6.0  # farther than this behind: jump instead of gliding
CATCH_UP = 1.25  # glide a little faster than the sim walks so the lag never grows
SPREAD_PX = 12.0  # how far apart people sharing a tile are drawn
VISITOR_KEY = "\0visitor"  # actor key of the visitor (never a resident's name)
HOLD_SECONDS = 4.0  # a line stays up this long (real seconds) after it was first said
FRESH_SECONDS = 1.5  # then it fades, down to FADED
FADE_PER_SECOND = 45
FADED = 110  # alpha of the oldest line still shown
CROWD = 4  # this many people speaking in view: smaller bubbles that name their speaker
TAIL = 7  # pixels of a speech bubble's tail


@dataclass
class Glide:
    """A drawn position (in tiles) chasing the simulated one."""

    x: float
    y: float

    def update(self, target: tuple[int, int], dt: float, tiles_per_second: float) -> bool:
        """Move toward the target; returns whether the figure is still on its way."""
        dx, dy = target[0] - self.x, target[1] - self.y
        dist = math.hypot(dx, dy)
        if dist < 1e-3:
            return False
        step = tiles_per_second * dt
        if dist > SNAP_TILES or step >= dist:
            self.x, self.y = float(target[0]), float(target[1])
            return False
        self.x += dx / dist * step
        self.y += dy / dist * step
        return True


@dataclass
class Figure:
    """What to draw for one person this frame (decided in update)."""

    key: str
    name: str
    sheet: str
    glide: Glide
    facing: str = "down"
    moving: bool = False
    emoji: str = ""
    thinking: bool = False
    speech: str = ""
    is_visitor: bool = False
    selected: bool = False
    shift: float = 0.0  # world pixels sideways, so people sharing a tile stay apart
    lying: bool = False  # asleep in a bed: drawn lying on it
    pile: int = 1  # how many people are drawn on this figure's tile
    said_at: float = 0.0  # real time its current line was first shown


@dataclass
class ActorLayer:
    """Every figure on the map, with its sprites, labels and bubbles."""

    sprites: SpriteBank = field(default_factory=SpriteBank)
    emoji: EmojiRenderer = field(default_factory=shared_renderer)
    figures: dict[str, Figure] = field(default_factory=dict)
    clock: float = 0.0  # real seconds, for walk cycles and the thinking dots
    tile: int = 32
    labels: dict[str, pygame.Rect] = field(default_factory=dict)  # drawn name labels
    bubbles: list[tuple[str, str, pygame.Rect]] = field(default_factory=list)  # drawn:
    # (figure key, "speech" or "emoji", the rectangle it claimed)
    partner: str = ""  # whom the visitor is chatting with: their lines come first
    hover: tuple[int, int] | None = None  # the pointer, for labels shown on hover
    _pile: tuple[str, ...] = ()  # the last pile clicked, and which of it was picked
    _pile_pick: int = 0

    def track(self, key: str, name: str, sheet: str, pos: tuple[int, int]) -> Figure:
        """The figure for a person, created at its tile the first time it is seen."""
        fig = self.figures.get(key)
        if fig is None:
            fig = Figure(key, name, sheet, Glide(float(pos[0]), float(pos[1])))
            self.figures[key] = fig
        return fig

    def update_resident(
        self, sim: SimView, agent: ResidentView, dt: float, pace: float, speech: str
    ) -> None:
        fig = self.track(agent.name, agent.name, slug(agent.name), agent.pos)
        bed = _bed(sim, agent)
        fig.lying = bed is not None
        target = bed or agent.pos
        gliding = fig.glide.update(target, dt, pace * CATCH_UP)
        fig.moving = (gliding or bool(agent.path)) and not fig.lying
        fig.facing = agent.facing
        fig.emoji = agent.emoji
        fig.thinking = sim.thinking(agent.name)
        self._say(fig, speech)

    def update_visitor(self, visitor: Visitor, dt: float, pace: float, speech: str) -> None:
        fig = self.track(VISITOR_KEY, visitor.name, "visitor", visitor.pos)
        fig.name, fig.is_visitor = visitor.name, True
        fig.moving = fig.glide.update(visitor.pos, dt, pace)
        fig.facing = visitor.facing
        self._say(fig, speech)

    def _say(self, fig: Figure, speech: str) -> None:
        """A new line replaces the old one; silence keeps the old one up a while."""
        if speech and speech != fig.speech:
            fig.speech, fig.said_at = speech, self.clock
        elif not speech and self.clock - fig.said_at >= HOLD_SECONDS:
            fig.speech = ""

    def spread(self) -> None:
        """People standing on the same tile are drawn side by side, not on top of each other."""
        groups: dict[tuple[int, int], list[Figure]] = {}
        for fig in self.figures.values():
            groups.setdefault((round(fig.glide.x), round(fig.glide.y)), []).append(fig)
        for group in groups.values():
            group.sort(key=lambda f: f.key)
            width = min(SPREAD_PX, 2 * SPREAD_PX / max(1, len(group) - 1))
            for i, fig in enumerate(group):
                fig.shift = (i - (len(group) - 1) / 2) * width
                fig.pile = len(group)
        near = _near_cells(self.figures.values())
        for fig in self.figures.values():  # neighbours count as a crowd: shorter labels
            if fig.pile == 1 and any(
                o is not fig
                and abs(o.glide.x - fig.glide.x) < 2
                and abs(o.glide.y - fig.glide.y) < 1.5
                for o in near(fig)
            ):
                fig.pile = 2

    def forget_missing(self, keys: set[str]) -> None:
        for key in [k for k in self.figures if k not in keys]:
            del self.figures[key]

    def select(self, key: str | None) -> None:
        for fig in self.figures.values():
            fig.selected = fig.key == key

    # -- picking ------------------------------------------------------------------------
    def screen_rect(self, fig: Figure, cam: Camera) -> pygame.Rect:
        size = max(8, round(self.tile * cam.zoom))
        x, y = cam.to_screen(fig.glide.x * self.tile + fig.shift, fig.glide.y * self.tile)
        return pygame.Rect(x, y, size, size)

    def pick(self, pos: tuple[int, int], cam: Camera) -> Figure | None:
        """The figure under a screen point: a name label names one; over a pile of people,
        the front-most first and, clicked again, the next one in the pile."""
        for key, box in self.labels.items():
            if box.collidepoint(pos) and key in self.figures:
                self._pile = ()
                return self.figures[key]
        pile = self.pile_at(pos, cam)
        if not pile:
            self._pile = ()
            return None
        keys = tuple(f.key for f in pile)
        self._pile_pick = (self._pile_pick + 1) % len(keys) if keys == self._pile else 0
        self._pile = keys
        return pile[self._pile_pick]

    def pile_at(self, pos: tuple[int, int], cam: Camera) -> list[Figure]:
        """Everyone drawn under a screen point, front-most first."""
        return [
            fig
            for fig in reversed(self.ordered())  # drawn last = on top
            if self.screen_rect(fig, cam).inflate(4, 4).collidepoint(pos)
        ]

    # -- drawing --------------------------------------------------------------------------
    def ordered(self) -> list[Figure]:
        return sorted(self.figures.values(), key=lambda f: (f.glide.y, f.shift, f.key))

    def draw_bodies(self, surface: pygame.Surface, cam: Camera) -> None:
        """The sprites, back to front (drawn before the `above` layer)."""
        view = surface.get_rect()
        for fig in self.ordered():
            rect = self.screen_rect(fig, cam)
            if not view.colliderect(rect.inflate(40, 40)):
                continue
            if fig.selected:
                pygame.draw.ellipse(surface, theme.ACCENT, _shadow(rect), width=2)
            column = walk_column(fig.moving, self.clock)
            image = self.sprites.frame(fig.sheet, fig.facing, column, rect.width)
            if fig.lying:  # asleep: lying on the bed, head on the pillow
                image = pygame.transform.rotate(image, 90)
            surface.blit(image, rect)

    def draw_overlays(
        self,
        surface: pygame.Surface,
        cam: Camera,
        area: pygame.Rect | None = None,
        blocked: Sequence[pygame.Rect] = (),
    ) -> None:
        """Name labels, emoji bubbles, thinking marks and speech (over the `above` layer),
        laid out inside `area` (the map under the HUD) clear of the `blocked` rectangles
        (panels, toasts, the log) and of each other: names first, then what is said (the
        player's partner and the visitor first, then the newest lines), then emoji."""
        layout = Layout(area or surface.get_rect(), list(blocked))
        figures = [
            f for f in reversed(self.ordered()) if not layout.covered(self.screen_rect(f, cam))
        ]
        self.labels, self.bubbles = {}, []
        for fig in sorted(figures, key=lambda f: not self._in_focus(f)):  # stable: front first
            self._label(surface, fig, self.screen_rect(fig, cam), cam.zoom, layout)
        speakers = sorted(
            (f for f in figures if f.speech),
            key=lambda f: (not self._in_focus(f), self.clock - f.said_at, f.key),
        )
        crowd = len(speakers) >= CROWD
        for fig in speakers:
            self._speech(surface, fig, self.screen_rect(fig, cam), layout, crowd)
        for fig in figures:
            self._bubble(surface, fig, self.screen_rect(fig, cam), layout)

    def _in_focus(self, fig: Figure) -> bool:
        """The visitor, whoever it talks with, and the selected resident come first."""
        return fig.is_visitor or fig.selected or (bool(self.partner) and fig.key == self.partner)

    def _label(self, surface, fig: Figure, rect: pygame.Rect, zoom: float, layout) -> None:
        """A name under the figure. In a crowd names shorten to first names and stack; a
        label that would drift far from its person shows only on hover or when selected."""
        size = 15 if zoom >= 1 else 13
        colour = theme.ACCENT if fig.is_visitor or fig.selected else theme.TEXT
        hovered = self.hover is not None and rect.inflate(6, 6).collidepoint(self.hover)
        full = fig.selected or hovered or (zoom >= 1 and fig.pile == 1)
        text = fig.name if full else fig.name.split()[0]
        image = _label_image(text, size, colour)
        anchor = image.get_rect(midtop=(rect.centerx, rect.bottom + 1))
        keen = fig.selected or hovered or fig.is_visitor
        box = layout.place(anchor, up=False, reach=6 if keen else 3, wide=2 if keen else 1)
        if box is None:
            return  # too crowded: hover or select to see this name
        surface.blit(image, box)
        self.labels[fig.key] = box

    def _bubble(self, surface, fig: Figure, rect: pygame.Rect, layout: Layout) -> None:
        if fig.is_visitor or (not fig.emoji and not fig.thinking):
            return
        size = 20
        icon = self.emoji.render(fig.emoji or "💭", size)
        box = pygame.Rect(0, 0, icon.get_width() + 8, size + 6)
        dots = 28 if fig.thinking else 0  # the thinking mark sits right of the bubble
        want = pygame.Rect(0, 0, box.width + dots, box.height)
        want.midbottom = (rect.centerx + dots // 2, rect.top - 2)
        placed = layout.place(want, up=True, reach=2, wide=1)
        if placed is None:
            return
        box.topleft = placed.topleft
        pygame.draw.rect(surface, theme.BUBBLE, box, border_radius=9)
        pygame.draw.rect(surface, theme.BUBBLE_EDGE, box, width=1, border_radius=9)
        surface.blit(icon, icon.get_rect(center=box.center))
        if fig.thinking:
            _thinking(surface, (box.right + 2, box.top), self.clock)
        self.bubbles.append((fig.key, "emoji", placed))

    def _speech(self, surface, fig: Figure, rect: pygame.Rect, layout: Layout, crowd: bool) -> None:
        """A speech bubble with the line being said, above the speaker's emoji bubble. In
        a crowd it is smaller and names its speaker; a line fades as it grows old.

        A bubble pushed off its speaker's head names them too: in the 100-resident town
        Hailey's line ("I'm Hailey, a writer ...") rose over Tamara, standing a tile
        above her, and read as Tamara's, and one whose speaker stood at the inspector's
        edge floated beside it, nobody's."""
        small = crowd and not self._in_focus(fig)
        who = "" if fig.is_visitor or not crowd else fig.name.split()[0]
        body, want = _speech_box(fig, rect, who, small)
        spot = layout.find(want, up=True, reach=4, wide=2)
        if spot is not None and not (who or fig.is_visitor) and not layout.at_home(spot, want):
            body, want = _speech_box(fig, rect, fig.name.split()[0], small)
            spot = layout.find(want, up=True, reach=4, wide=2)
        if spot is None:
            return  # no room left in this crowd: the line is in the chat panel or the log
        placed = layout.claim(spot)
        above = placed.bottom <= rect.top + 4
        at = placed.topleft if above else (placed.x, placed.y + TAIL)
        alpha = _fade(self.clock - fig.said_at)
        body.set_alpha(alpha)
        surface.blit(body, at)
        _tail(surface, pygame.Rect(at, body.get_size()), rect, above, alpha)
        self.bubbles.append((fig.key, "speech", placed))


def _speech_box(
    fig: Figure, rect: pygame.Rect, who: str, small: bool
) -> tuple[pygame.Surface, pygame.Rect]:
    """A speech bubble's body and its natural place: over the speaker's head, above its
    emoji bubble if it has one, the tail included."""
    body = _speech_image(fig.speech, who, small)
    want = pygame.Rect(0, 0, body.get_width(), body.get_height() + TAIL)
    lift = 4 if fig.is_visitor or not (fig.emoji or fig.thinking) else 34
    want.midbottom = (rect.centerx, rect.top - lift)
    return body, want


def _near_cells(figures: Iterable[Figure]) -> Callable[[Figure], Iterator[Figure]]:
    """Who may stand within two tiles of a figure: those in its 2x2-tile cell and the
    eight around it. Checking every pair cost each frame of the 100-resident town
    10,000 comparisons; a figure's neighbours are a handful."""
    cells: dict[tuple[int, int], list[Figure]] = {}
    for fig in figures:
        cells.setdefault((int(fig.glide.x // 2), int(fig.glide.y // 2)), []).append(fig)

    def near(fig: Figure) -> Iterator[Figure]:
        cx, cy = int(fig.glide.x // 2), int(fig.glide.y // 2)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                yield from cells.get((cx + dx, cy + dy), ())

    return near


def _bed(sim: SimView, agent: ResidentView) -> tuple[int, int] | None:
    """The bed tile a sleeper lies on (None: awake, or asleep elsewhere)."""
    action = agent.action
    if not agent.asleep or action is None or not action.address:
        return None
    area = sim.town.areas.get(action.address)
    if area is None or area.kind is not AreaKind.OBJECT:
        return None
    return area.rect.x, area.rect.y


_labels: dict[tuple[str, int, tuple], pygame.Surface] = {}


def _label_image(text: str, size: int, colour: theme.Color) -> pygame.Surface:
    """A name on a dark translucent strip, cached (the same 26 names every frame)."""
    key = (text, size, tuple(colour))
    image = _labels.get(key)
    if image is None:
        words = theme.text_image(text, size, colour)
        image = pygame.Surface(words.get_rect().inflate(6, 2).size, pygame.SRCALPHA)
        image.fill((10, 12, 18, 170))
        image.blit(words, (3, 1))
        _labels[key] = image
    return image


def _shadow(rect: pygame.Rect) -> pygame.Rect:
    return pygame.Rect(rect.x + 2, rect.bottom - rect.height // 4, rect.width - 4, rect.height // 3)


def _thinking(surface: pygame.Surface, at: tuple[int, int], clock: float) -> None:
    """Three dots that light up in turn: this resident's mind is working on something."""
    box = pygame.Rect(at[0], at[1], 26, 12)
    pygame.draw.rect(surface, (60, 70, 110), box, border_radius=6)
    lit = int(clock * 3) % 3
    for i in range(3):
        colour = theme.ACCENT if i == lit else (170, 176, 200)
        pygame.draw.circle(surface, colour, (box.x + 6 + 7 * i, box.centery), 2)


def _fade(age: float) -> int:
    """A line's alpha: opaque while fresh, then fading to FADED."""
    return int(max(FADED, min(255, 255 - (age - FRESH_SECONDS) * FADE_PER_SECOND)))


_speeches: dict[tuple[str, str, bool], pygame.Surface] = {}


def _speech_image(text: str, who: str, small: bool) -> pygame.Surface:
    """A speech bubble's body (the tail is drawn where the bubble lands), cached: the
    same line is drawn for seconds. Small in a crowd; `who` names the speaker."""
    key = (text, who, small)
    image = _speeches.get(key)
    if image is not None:
        return image
    size, width, most = (13, 170, 2) if small else (15, 220, 4)
    fnt = theme.font(size)
    prefix = f"{who}: " if who else ""
    lines = theme.wrap(prefix + text, fnt, width)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = theme.ellipsize(lines[-1] + " ...", fnt, width)
    line_h = fnt.get_linesize()
    w = max(fnt.size(line)[0] for line in lines) + 14
    image = pygame.Surface((w, len(lines) * line_h + 10), pygame.SRCALPHA)
    pygame.draw.rect(image, theme.BUBBLE, image.get_rect(), border_radius=8)
    pygame.draw.rect(image, theme.BUBBLE_EDGE, image.get_rect(), width=1, border_radius=8)
    for i, line in enumerate(lines):
        at = (7, 5 + i * line_h)
        if i == 0 and prefix and line.startswith(prefix):
            name = fnt.render(theme.safe_text(prefix), True, theme.HIGHLIGHT)
            image.blit(name, at)
            line, at = line[len(prefix) :], (at[0] + name.get_width(), at[1])
        image.blit(fnt.render(theme.safe_text(line), True, theme.INK), at)
    if len(_speeches) > 200:
        _speeches.clear()
    _speeches[key] = image
    return image


def _tail(
    surface: pygame.Surface, body: pygame.Rect, speaker: pygame.Rect, above: bool, alpha: int
) -> None:
    """The bubble's tail, pointing down at the speaker (or up, for a bubble below)."""
    x = max(body.x + 8, min(body.right - 8, speaker.centerx))
    layer = pygame.Surface((12, TAIL + 2), pygame.SRCALPHA)
    if above:
        tip, at = [(1, 0), (11, 0), (6, TAIL + 1)], (x - 6, body.bottom - 1)
    else:
        tip, at = [(1, TAIL + 1), (11, TAIL + 1), (6, 0)], (x - 6, body.top - TAIL - 1)
    pygame.draw.polygon(layer, theme.BUBBLE, tip)
    layer.set_alpha(alpha)
    surface.blit(layer, at)
