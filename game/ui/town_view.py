"""The town scene's part that decides what the window shows: where the camera looks
(a busy resident, or the visitor, clear of the panels) and the drawing of a frame.

`TownView` is a part of `town_scene.TownScene` (it works on the scene's own state).
"""

from __future__ import annotations

from dataclasses import replace

import pygame

from game.ui.actors import VISITOR_KEY
from game.ui.panel import Dock

MARGIN = 8
TOAST_WIDTH = 380


class TownView:
    """The camera's framing and the frame's drawing."""

    def _frame_resident(self, snap: bool = False) -> None:
        """Until the player walks, drags or zooms, the camera shows a resident who is doing
        something (the town's first minutes, and `--screenshot`, show someone)."""
        if snap:
            self.camera.following = False
            self.watching = self._busiest_resident()
        elif self.watching:
            agent = self.sim.agents.get(self.watching)
            if agent is None or agent.asleep:
                self.watching = self._busiest_resident() or self.watching
        agent = self.sim.agents.get(self.watching)
        if agent is None or self.camera.following:
            if snap:
                self.camera.following = True
            return
        fig = self.actors.figures.get(agent.name)
        x, y = (fig.glide.x, fig.glide.y) if fig and not snap else agent.pos
        tile = self.sim.town.tile
        aside = self._aside()
        self.camera.look_at(*self._clear_of_stack((x + 0.5) * tile, (y + 0.5) * tile, aside))

    def _clear_of_stack(self, wx: float, wy: float, aside: float) -> tuple[float, float]:
        """Where the camera looks to show the world point (wx, wy): `aside` of it, and
        with panels stacked bottom left (the chat, the object editor) open, so that the
        point lands in the middle of the map right of them or above them, the larger of
        the two where the map's edge lets it."""
        look = (wx + aside, wy)
        stacked = [p.rect for p in (self.chat, self.editor, self.announce) if p is not None]
        stacked = [r for r in stacked if r.width and r.height]
        if not stacked:
            return look
        w, h = self.app.size
        top = self.hud.rect.bottom
        right = self.inspector.rect.x if self.inspector is not None else w
        block = stacked[0].unionall(stacked[1:])
        beside = pygame.Rect(block.right, top, max(0, right - block.right), h - top)
        above = pygame.Rect(0, top, right, max(0, block.top - top))
        zoom = self.camera.zoom
        for room in sorted((beside, above), key=lambda r: -r.width * r.height):
            centre = (wx - (room.centerx - w / 2) / zoom, wy - (room.centery - h / 2) / zoom)
            trial = replace(self.camera, center=centre)
            trial.clamp()
            if room.inflate(-16, -16).collidepoint(trial.to_screen(wx, wy)):
                return trial.center
        return look

    def _busiest_resident(self) -> str:
        """An awake resident (one walking or doing something first), else any resident."""
        agents = sorted(self.sim.agents.values(), key=lambda a: a.name)
        awake = [a for a in agents if not a.asleep]
        doing = [a for a in awake if a.action is not None or a.path]
        pool = doing or awake or agents
        return pool[0].name if pool else ""

    def _follow_visitor(self, snap: bool = False) -> None:
        if self.visitor is None or not self.camera.following:
            return
        fig = self.actors.figures.get(VISITOR_KEY)
        x, y = (fig.glide.x, fig.glide.y) if fig and not snap else self.visitor.pos
        tile = self.sim.town.tile
        # With the inspector open, centre the visitor in the part of the map still visible.
        aside = self._aside()
        self.camera.look_at(*self._clear_of_stack((x + 0.5) * tile, (y + 0.5) * tile, aside))

    def _aside(self) -> float:
        """How far right of the centre the camera looks, in world pixels, so that what it
        shows stays in the middle of the map left visible by the side panels."""
        width = max(
            (min(p.size[0], self.app.size[0] // 2) for p in self.panels.docked(Dock.SIDE)),
            default=-MARGIN,
        )
        return (width + MARGIN) / 2 / self.camera.zoom

    def draw(self, surface: pygame.Surface) -> None:
        self.map.draw_below(surface, self.camera)
        self.overlays.draw(surface, self.camera, self.sim.town.tile)
        self.actors.draw_bodies(surface, self.camera)
        self.map.draw_above(surface, self.camera)
        self.actors.draw_overlays(surface, self.camera, *self._overlay_room(surface))
        self.hud.draw(surface)
        self.panels.draw(surface)
        self.notes.draw(surface, MARGIN, self.hud.rect.bottom + MARGIN, TOAST_WIDTH)
        self.feed.draw(surface, self.feed_room())

    def _overlay_room(self, surface: pygame.Surface) -> tuple[pygame.Rect, list[pygame.Rect]]:
        """Where names and bubbles may go: the map under the HUD, clear of the panels, the
        toasts (a greeting's "speaks to you" among them) and the log."""
        w, h = surface.get_size()
        bar = self.hud.rect.bottom
        area = pygame.Rect(0, bar, w, max(0, h - bar))
        toasts = self.notes.boxes(MARGIN, bar + MARGIN, TOAST_WIDTH)
        return area, [p.rect for p in self._panels()] + toasts + [self.feed.rect]

    def feed_room(self) -> pygame.Rect:
        """Where the "what happened" log may go: bottom right, left of the inspector and
        right of the chat and editor; an empty rect when they leave it too little room."""
        w, h = self.app.size
        side = self.panels.docked(Dock.SIDE)
        right = min((p.rect.x for p in side), default=w) - MARGIN
        width = min(420, max(200, right - 560))
        stacked = [p.rect.right + MARGIN for p in self.panels.docked(Dock.STACK)]
        width = min(width, right - max(stacked, default=MARGIN))
        if width < 180:
            return pygame.Rect(0, 0, 0, 0)
        bar = self.hud.rect.bottom
        return pygame.Rect(right - width, bar + MARGIN, width, h - bar - 2 * MARGIN)
