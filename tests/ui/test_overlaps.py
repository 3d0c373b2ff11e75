"""Nothing on the map covers anything else (issue 21): in a crowd with the chat open and a
greeting's toast up, no two bubbles share a pixel, none reaches under the HUD, a panel or
a toast, and the names beside the chat panel stay in view."""

from __future__ import annotations

import itertools

import pygame

from game.sim.factory import build_simulation
from game.ui.actors import FADED, VISITOR_KEY, _fade
from game.ui.layout import Layout
from game.ui.town_scene import invitation
from tests.ui.helpers import frames, realtime

CAFE = "Hobbs Cafe:cafe"
LINES = (
    "Happy Valentine's Day! Isabella has outdone herself with the decorations tonight.",
    "Have you tried the little heart-shaped cakes? I've had three already.",
    "I'm thinking of asking Maria to dance later, if the piano starts.",
    "Did you hear the election is next week? Sam has been campaigning all day.",
)


def party(make_app, size=(1280, 720)):
    """Sixteen residents standing close in the cafe, every one saying a long line, the
    visitor among them chatting with Isabella, and her greeting's toast up; paused."""
    sim = realtime(build_simulation("smallville", seed=5, workers=2))
    app = make_app(sim, size=size)
    town = app.town
    town.pacer.toggle_pause()
    tiles = sorted(sim.town.walkable_tiles_of(CAFE), key=lambda t: (t[1], t[0]))
    spots = [t for t in tiles if t[0] % 2 == 0][:16]
    names = ["Isabella Rodriguez"] + sorted(n for n in sim.agents if n != "Isabella Rodriguez")
    for name, tile in zip(names, spots, strict=False):
        agent = sim.agents[name]
        agent.asleep, agent.action, agent.path, agent.pos = False, None, [], tile
        agent.location = sim.town.address_at(*tile)
    sim.player.visitor_beside("Isabella Rodriguez")
    town.camera.following, town.watching = True, ""
    frames(app, 2)
    assert town.open_chat("Isabella Rodriguez") is not None
    until = town.actors.clock + 600
    for i, name in enumerate(names[:16]):
        town.speech[name] = (LINES[i % len(LINES)], until)
    town.speech[VISITOR_KEY] = ("What a party! Who made all these cakes?", until)
    town.notes.push(invitation("Klaus Mueller"))
    frames(app, 3)
    return app


def disjoint(rects) -> list[tuple[pygame.Rect, pygame.Rect]]:
    return [(a, b) for a, b in itertools.combinations(rects, 2) if a.colliderect(b)]


def test_a_crowd_of_bubbles_overlaps_nothing(make_app):
    app = party(make_app)
    town = app.town
    drawn = town.actors.bubbles
    speech = [r for _, kind, r in drawn if kind == "speech"]
    assert len(speech) >= 6, drawn  # the crowd still says things, stacked and smaller
    rects = [r for _, _, r in drawn]
    assert not disjoint(rects)
    labels = list(town.actors.labels.values())
    assert not disjoint(labels)
    assert not [(b, n) for b in rects for n in labels if b.colliderect(n)]
    hud, screen = town.hud.rect, app.screen.get_rect()
    toasts = town.notes.boxes(8, hud.bottom + 8, 380)
    assert toasts  # the greeting: "Klaus Mueller speaks to you: T to answer."
    for rect in rects + labels:
        assert screen.contains(rect) and not rect.colliderect(hud), rect
        assert not rect.colliderect(town.chat.rect), rect
        assert rect.collidelist(toasts) < 0, rect
    mine = [key for key, kind, _ in drawn if kind == "speech"]
    assert VISITOR_KEY in mine and "Isabella Rodriguez" in mine  # the chat's two first


def test_in_a_crowd_bubbles_shrink_and_old_lines_fade(make_app):
    app = party(make_app)
    heights = {key: r.height for key, kind, r in app.town.actors.bubbles if kind == "speech"}
    partner = heights.pop("Isabella Rodriguez")
    heights.pop(VISITOR_KEY)
    assert heights and max(heights.values()) < partner  # two small lines, not four
    assert _fade(0) == 255 and _fade(3) < 255 and _fade(60) == FADED


def test_names_beside_the_chat_panel_stay_in_view(make_app):
    app = party(make_app, size=(800, 480))
    town = app.town
    chat = town.chat.rect
    cam = town.camera
    beside = [
        fig
        for fig in town.actors.figures.values()
        if not chat.colliderect(town.actors.screen_rect(fig, cam))
        and app.screen.get_rect().contains(town.actors.screen_rect(fig, cam))
        and town.actors.screen_rect(fig, cam).top > town.hud.rect.bottom
    ]
    assert beside
    for box in town.actors.labels.values():
        assert not box.colliderect(chat)
    assert VISITOR_KEY in town.actors.labels or town.actors.screen_rect(
        town.actors.figures[VISITOR_KEY], cam
    ).colliderect(chat)


def test_the_layout_never_places_a_box_over_a_taken_one():
    area = pygame.Rect(0, 50, 400, 300)
    layout = Layout(area, [pygame.Rect(0, 0, 400, 50), pygame.Rect(0, 250, 200, 100)])
    placed = [layout.place(pygame.Rect(150, 40, 120, 30)) for _ in range(12)]
    shown = [box for box in placed if box is not None]
    assert len(shown) >= 6 and not disjoint(shown)
    for box in shown:
        assert area.contains(box) and box.collidelist(layout.blocked) < 0


def test_the_camera_keeps_the_visitor_clear_of_the_chat_panel(make_app):
    app = party(make_app, size=(800, 480))  # by the map's west edge: above the panel
    town = app.town
    body = town.actors.screen_rect(town.actors.figures[VISITOR_KEY], town.camera)
    partner = town.actors.screen_rect(town.actors.figures["Isabella Rodriguez"], town.camera)
    assert not body.colliderect(town.chat.rect) and not partner.colliderect(town.chat.rect)
    assert VISITOR_KEY in town.actors.labels
