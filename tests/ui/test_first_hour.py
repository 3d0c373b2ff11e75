"""The first hour of play (issue 14): the window driven by scripted input events on the
dummy video driver; the checks read state (what the scene decided to show), not pixels."""

from __future__ import annotations

import pygame
import pytest

from game.sim.factory import build_simulation
from game.ui.input import click_events, key_event, text_event, wheel_event
from game.ui.settings import SettingsScene
from tests.ui.helpers import frames, realtime, run_until

STOVE = "Isabella Rodriguez's apartment:kitchen:stove"


def post(app, events) -> None:
    for event in events if isinstance(events, list) else [events]:
        app.handle(event)


def awake_town(hour: int = 9):
    """The town of three, run in lockstep to a morning hour, then on the window's clock."""
    sim = build_simulation("three", seed=3, workers=2)
    while sim.now.hour < hour or all(a.asleep for a in sim.agents.values()):
        sim.step()
    return realtime(sim)


def look_at(app, tile) -> None:
    town = app.town
    size = town.sim.town.tile
    town.camera.following, town.watching = False, ""
    town.camera.look_at((tile[0] + 0.5) * size, (tile[1] + 0.5) * size)


def test_a_burning_stove_is_drawn_on_the_map_and_told(make_app):
    app = make_app(awake_town())
    town = app.town
    frames(app, 1)
    town.sim.player.set_object_state(STOVE, "burning")
    stove = town.sim.town.areas[STOVE].rect
    look_at(app, (stove.x, stove.y))
    frames(app, 2)
    assert town.overlays.shown[STOVE].effect == "fire"
    assert STOVE in town.overlays.painted
    assert any("The stove is now burning" in t.text for t in town.notes.toasts)
    assert any("The stove is now burning" in line.text for line in town.feed.lines)
    town.sim.player.set_object_state(STOVE, "idle")
    frames(app, 1)
    assert STOVE not in town.overlays.shown and STOVE not in town.overlays.painted


def _next_to(sim, name: str) -> tuple[int, int]:
    pos = sim.agents[name].pos
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
        tile = (pos[0] + dx, pos[1] + dy)
        if sim.town.is_walkable(*tile):
            return tile
    return pos


def test_a_greeting_opens_no_panel_and_t_answers_with_an_empty_box(make_app):
    sim = awake_town()
    name = next(a.name for a in sim.agents.values() if not a.asleep)
    app = make_app(sim)
    town = app.town
    town.visitor.pos = _next_to(sim, name)
    frames(app, 1)
    sim.player.greet(name)  # what a resident who notices the visitor does
    assert run_until(app, lambda: bool(sim.chats.get(name)), 10)
    frames(app, 1)
    assert town.chat is None, "a greeting must not open a panel"
    assert town.invited == name
    assert any("T to answer" in t.text for t in town.notes.toasts)
    assert town.actors.figures[name].speech  # the greeting shows as a bubble
    post(app, [key_event(pygame.K_t), text_event("t")])  # SDL sends both for one press
    assert town.chat is not None and town.chat.resident == name
    assert town.chat.box.focused and town.chat.box.text == ""
    assert not any("T to answer" in t.text for t in town.notes.toasts)  # answered
    post(app, key_event(pygame.K_ESCAPE))  # leave the box, then T again
    post(app, [key_event(pygame.K_t), text_event("t")])
    assert town.chat.box.focused and town.chat.box.text == ""
    post(app, text_event("hello"))
    assert town.chat.box.text == "hello"


def test_the_chat_closes_by_itself_when_the_resident_is_out_of_reach(make_app):
    sim = awake_town()
    name = next(a.name for a in sim.agents.values() if not a.asleep)
    app = make_app(sim)
    town = app.town
    town.visitor.pos = _next_to(sim, name)
    frames(app, 1)
    assert town.open_chat(name) is not None
    post(app, key_event(pygame.K_ESCAPE))
    town.visitor.pos = sim.town.spawns.get("visitor") or town.visitor.pos
    if sim.player.visitor_near(name):
        pytest.skip("the spawn is within reach of this resident")
    assert run_until(app, lambda: town.chat is None, 5)
    assert any(name in line.text and "chat closed" in line.text for line in town.feed.lines)


def test_a_click_on_a_pile_cycles_and_a_name_label_picks(make_app):
    sim = awake_town()
    app = make_app(sim)
    town = app.town
    post(app, key_event(pygame.K_SPACE))  # paused: nobody walks off
    tile = sim.agents["Isabella Rodriguez"].pos
    for agent in sim.agents.values():
        agent.pos, agent.path = tile, []
    look_at(app, tile)
    frames(app, 30)
    pile = town.actors.pile_at(
        town.actors.screen_rect(town.actors.figures["Isabella Rodriguez"], town.camera).center,
        town.camera,
    )
    assert len(pile) >= 2
    at = town.actors.screen_rect(pile[0], town.camera).center
    picked = []
    for _ in range(len(pile)):
        post(app, click_events(at))
        frames(app, 1)
        picked.append(town.inspector.name)
    assert sorted(picked) == sorted(f.key for f in pile), picked
    post(app, click_events(at))
    frames(app, 1)
    assert town.inspector.name == picked[0]  # round again
    key, label = next(iter(town.actors.labels.items()))
    if key in sim.agents:
        post(app, click_events(label.center))
        frames(app, 1)
        assert town.inspector.name == key


def test_zoom_keeps_the_world_point_under_the_cursor(make_app):
    app = make_app()
    town = app.town
    frames(app, 1)
    look_at(app, (60, 40))
    frames(app, 1)
    cam = town.camera
    cursor = (400, 300)
    before, zoom = cam.to_world(*cursor), cam.zoom
    post(app, wheel_event(cursor, up=True))
    frames(app, 1)
    after = cam.to_world(*cursor)
    assert cam.zoom > zoom
    assert abs(after[0] - before[0]) < 1 and abs(after[1] - before[1]) < 1


def test_the_night_runs_fast_until_someone_wakes_and_the_camera_shows_a_resident(make_app):
    app = make_app()  # a new game at 4 am, everyone asleep
    town = app.town
    frames(app, 1)
    assert town.fast_forward and "fast-forward" in town.hud.usage_text
    assert run_until(app, lambda: not town.fast_forward, 20)
    awake = [a for a in town.sim.agents.values() if not a.asleep]
    assert awake and town.sim.now.hour < 8
    frames(app, 2)
    watched = town.sim.agents[town.watching]
    fig = town.actors.figures[watched.name]
    assert app.screen.get_rect().contains(town.actors.screen_rect(fig, town.camera))


def test_esc_with_nothing_open_opens_the_settings(make_app, tmp_path, monkeypatch):
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    app = make_app()
    frames(app, 1)
    post(app, key_event(pygame.K_ESCAPE))
    frames(app, 1)
    settings = app.stack.top
    assert isinstance(settings, SettingsScene)
    assert "scripted residents" in settings.now_running
    button = next(b for b in settings.speed_buttons if b.key == ("speed", 8))
    post(app, click_events(button.rect.center))
    assert app.town.pacer.speed == 8
    button = next(b for b in settings.autosave_buttons if b.key == ("autosave", 30))
    post(app, click_events(button.rect.center))
    assert app.town.autosaver.minutes == 30
    assert "not set" in settings.key_text()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment-77")
    assert settings.key_text().startswith("****t-77 from $OPENAI_API_KEY")
    post(app, key_event(pygame.K_ESCAPE))
    assert app.stack.top is app.town


def test_the_plan_tab_opens_at_the_current_item_and_the_stove_history_scrolls(make_app):
    from game.ui.inspector import NOW_TAG, Tab

    sim = awake_town(hour=10)
    app = make_app(sim)
    town = app.town
    name = next(a.name for a in sim.agents.values() if not a.asleep and a.plan.broad)
    inspector = town.open_inspector(name)
    inspector.open_tab(Tab.PLAN)
    frames(app, 2)
    rows = inspector.list.rows
    now = next(i for i, row in enumerate(rows) if row.tag == NOW_TAG)
    above = sum(row.height for row in rows[:now])
    assert (
        inspector.list.offset
        >= min(above - 40, inspector.list.content_height - inspector.list.rect.height) - 1
    )
    assert now > 3 and inspector.list.offset > 0
    editor = town.open_editor(STOVE)
    for state in ("burning", "idle", "leaking", "idle", "smoking", "idle", "broken", "idle"):
        sim.player.set_object_state(STOVE, state)
        frames(app, 1)
    mine = editor.history[-8:]
    assert all(line.split("  ")[1].startswith("you:") for line in mine)
    assert mine[0].endswith("-> burning") and mine[-1].endswith("broken -> idle")
    bottom = editor.list.offset
    assert editor.list.content_height > editor.list.rect.height and bottom > 0
    editor.wheel(editor.rect.center, 3)
    assert editor.list.offset < bottom


def test_the_night_runs_fast_until_a_fifth_of_the_town_is_up_and_never_in_a_chat(make_app):
    sim = build_simulation("smallville", seed=0, workers=2)
    app = make_app(realtime(sim))
    town, agents = app.town, list(sim.agents.values())
    for agent in agents:
        agent.asleep = True
    assert town._quiet()
    for agent in agents[:4]:  # an early riser or four: still the night
        agent.asleep = False
    assert town._quiet()
    agents[4].asleep = False  # five of 25: the town is up
    assert not town._quiet()
    for agent in agents[1:]:
        agent.asleep = True
    assert town._quiet()
    town.visitor.pos = agents[0].pos  # beside their bed, within talking range
    assert town.open_chat(agents[0].name) is not None
    assert not town._quiet()  # a night chat runs at the chosen speed
