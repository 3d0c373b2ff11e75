"""The game window on the dummy video driver: the town renders, the panels work, the frame
loop keeps going while a slow brain thinks."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import numpy as np
import pygame

from game.core.records import MemoryKind
from game.sim.factory import build_simulation
from game.ui.input import click_events, key_event, text_event
from game.ui.inspector import Jump, Tab
from game.ui.start import Choice
from tests.ui.helpers import frames, realtime, run_until

STOVE = "Isabella Rodriguez's apartment:kitchen:stove"


def screen_pixels(app) -> np.ndarray:
    return pygame.surfarray.array3d(app.screen)


def screen_pos(app, tile: tuple[float, float]) -> tuple[int, int]:
    town = app.town
    size = town.sim.town.tile
    return town.camera.to_screen((tile[0] + 0.5) * size, (tile[1] + 0.5) * size)


def look_at_tile(app, tile) -> None:
    town = app.town
    size = town.sim.town.tile
    town.camera.following = False
    town.camera.look_at((tile[0] + 0.5) * size, (tile[1] + 0.5) * size)


def post(app, events) -> None:
    for event in events if isinstance(events, list) else [events]:
        app.handle(event)


def type_text(app, text: str) -> None:
    post(app, text_event(text))
    post(app, key_event(pygame.K_RETURN))


def test_the_town_renders_with_its_residents(make_app):
    app = make_app()
    frames(app, 10)
    pixels = screen_pixels(app)
    assert pixels.std() > 20, "the screen is blank"
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 200, "too few colours for a town"
    town = app.town
    assert set(town.sim.agents) <= set(town.actors.figures)
    name = "Isabella Rodriguez"
    look_at_tile(app, town.sim.agents[name].pos)
    frames(app, 2)
    fig = town.actors.figures[name]
    assert app.screen.get_rect().contains(town.actors.screen_rect(fig, town.camera))


def test_the_hud_shows_time_speed_brain_and_usage(make_app):
    app = make_app()
    frames(app, 2)
    hud = app.town.hud
    assert hud.time_text.endswith("am") and "scripted residents" in hud.brain_text
    assert "$" not in hud.usage_text  # no cost meter while the scripted brain runs
    post(app, key_event(pygame.K_4))
    frames(app, 1)
    assert app.town.pacer.speed == 8
    post(app, key_event(pygame.K_SPACE))
    before = app.town.sim.now
    frames(app, 30)
    assert app.town.sim.now == before  # paused


def test_clicking_a_resident_opens_the_inspector_with_memories(make_app):
    app = make_app()
    name = "Klaus Mueller"
    run_until(app, lambda: len(app.town.sim.agents[name].memory) > 0, 10)
    look_at_tile(app, app.town.sim.agents[name].pos)
    frames(app, 2)
    fig = app.town.actors.figures[name]
    post(app, click_events(screen_pos(app, (fig.glide.x, fig.glide.y))))
    frames(app, 1)
    inspector = app.town.inspector
    assert inspector is not None and inspector.name == name
    inspector.open_tab(Tab.MEMORIES)
    frames(app, 1)
    texts = " ".join(s.text for row in inspector.list.rows for s in row.spans)
    assert "memories" in texts and len(inspector.list.rows) > 1
    first = app.town.sim.agents[name].memory.record(0).text
    assert first.split()[0] in texts


def test_the_visitor_walks_and_walls_block(make_app):
    app = make_app()
    town = app.town
    start = town.visitor.pos
    moved = False
    for key in (pygame.K_d, pygame.K_s, pygame.K_a, pygame.K_w):
        post(app, key_event(key))
        frames(app, 20)
        post(app, key_event(key, down=False))
        moved |= town.visitor.pos != start
    assert moved
    walkable = town.sim.town.walkable
    assert walkable[town.visitor.pos[1], town.visitor.pos[0]]


def test_an_edited_stove_is_turned_off_by_the_resident(make_app):
    sim = build_simulation("three", seed=3, workers=4)
    isabella = sim.agents["Isabella Rodriguez"]
    deadline = sim.now + timedelta(hours=6)
    while sim.now < deadline and not isabella.location.endswith(":kitchen"):
        sim.step()
    assert isabella.location.endswith(":kitchen")
    app = make_app(realtime(sim))
    stove = sim.town.areas[STOVE].rect
    look_at_tile(app, (stove.x, stove.y))
    frames(app, 1)
    post(app, click_events(screen_pos(app, (stove.x, stove.y))))
    frames(app, 1)
    editor = app.town.editor
    assert editor is not None and editor.address == STOVE
    post(app, click_events(editor.box.rect.center))
    type_text(app, "burning")
    assert sim.town.state(STOVE) == "burning"
    edited = sim.now
    post(app, key_event(pygame.K_6))  # 32x: a game minute in under 2 real seconds
    assert run_until(app, lambda: sim.town.state(STOVE) != "burning", 30)
    assert sim.now - edited <= timedelta(minutes=15)
    frames(app, 1)
    assert any("Isabella" in line for line in editor.history)


def test_a_chat_round_trip_stores_the_visitors_words_as_a_claim(make_app):
    sim = build_simulation("three", seed=3, workers=4)
    klaus = sim.agents["Klaus Mueller"]
    while sim.now.hour < 9 or klaus.asleep:
        sim.step()
    app = make_app(realtime(sim))
    town = app.town
    town.visitor.pos = _free_tile_near(sim, klaus.pos)
    frames(app, 1)
    post(app, key_event(pygame.K_t))
    frames(app, 1)
    assert town.chat is not None and town.chat.resident == "Klaus Mueller"
    type_text(app, "I heard the library closes early today.")
    assert run_until(app, lambda: len(sim.chats.get("Klaus Mueller", [])) >= 2, 10)
    lines = sim.chats.get("Klaus Mueller", [])
    assert lines[0].speaker == "Robin" and lines[1].speaker == "Klaus Mueller"
    frames(app, 2)
    shown = " ".join(s.text for row in town.chat.list.rows for s in row.spans)
    assert "library closes early" in shown and "Klaus Mueller:" in shown
    memory = klaus.memory
    heard = [memory.record(i) for i in range(len(memory)) if "library closes" in memory.text(i)]
    assert heard, "the visitor's words are not in his memory"
    assert heard[0].kind is MemoryKind.CHAT and heard[0].heard_from == "Robin"


def test_the_frame_loop_keeps_running_while_a_slow_brain_thinks(make_app):
    from benchmarks.frames import build

    sim = build("three", delay=1.0, seed=0, workers=4)
    app = make_app(sim)
    times = []
    for _ in range(90):
        t0 = time.perf_counter()
        app.frame(1 / 60)
        times.append(time.perf_counter() - t0)
    assert any(sim.thinking(n) for n in sim.agents), "the slow brain should be thinking"
    assert max(times) < 0.25 and sorted(times)[len(times) // 2] < 0.05
    assert sim.steps >= 8  # the clock moved on while every mind was busy
    assert any(f.thinking for f in app.town.actors.figures.values())


def test_help_overlay_and_screenshot(make_app, tmp_path):
    app = make_app()
    frames(app, 1)
    post(app, key_event(pygame.K_F1))
    frames(app, 1)
    assert len(app.stack.scenes) == 2
    shot = app.screenshot(tmp_path / "help.png")
    assert shot.stat().st_size > 10_000
    post(app, key_event(pygame.K_ESCAPE))
    assert len(app.stack.scenes) == 1


def _free_tile_near(sim, pos):
    for r in range(1, 4):
        for dx in range(-r, r + 1):
            for dy in range(-r, r + 1):
                tile = (pos[0] + dx, pos[1] + dy)
                if sim.town.is_walkable(*tile) and tile != pos:
                    return tile
    return pos


def test_drag_pans_and_zoom_steps_through_levels(make_app):
    app = make_app()
    frames(app, 1)
    cam = app.town.camera
    before = cam.center
    post(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(600, 400), button=1))
    for x in range(600, 400, -20):
        post(
            app,
            pygame.event.Event(pygame.MOUSEMOTION, pos=(x, 400), rel=(-20, 0), buttons=(1, 0, 0)),
        )
    post(app, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(400, 400), button=1))
    frames(app, 1)
    assert cam.center[0] > before[0] and not cam.following
    assert app.town.inspector is None and app.town.editor is None  # a drag is not a click
    for _ in range(6):
        post(app, key_event(pygame.K_EQUALS))
        frames(app, 1)
    assert cam.zoom == 3.0 and screen_pixels(app).std() > 10
    for _ in range(8):
        post(app, key_event(pygame.K_MINUS))
        frames(app, 1)
    assert cam.zoom == 0.5 and screen_pixels(app).std() > 10
    post(app, key_event(pygame.K_c))
    frames(app, 1)
    assert cam.following


def test_the_window_resizes_and_the_panels_follow(make_app):
    app = make_app()
    app.town.open_inspector("Maria Lopez")
    post(app, pygame.event.Event(pygame.VIDEORESIZE, w=900, h=600, size=(900, 600)))
    frames(app, 1)
    assert app.size == (900, 600)
    assert app.screen.get_rect().contains(app.town.inspector.rect)
    assert app.town.hud.rect.width == 900


def test_f5_saves_and_f9_loads_the_quick_save(make_app, monkeypatch, tmp_path):
    from game.sim.simulation import ClockMode

    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path))
    app = make_app()
    frames(app, 30)
    post(app, key_event(pygame.K_F5))
    frames(app, 1)
    texts = [t.text for t in app.town.notes.toasts]
    assert any(t.startswith("saved as quicksave") for t in texts), texts
    sim = app.town.sim
    from game.sim.saves import read_save

    doc, _ = read_save("quicksave")  # the frame that saved may have stepped the clock on
    saved_at = datetime.fromisoformat(doc["clock"])
    saved_pos = tuple(doc["visitor"]["pos"])
    saved_memories = {a["name"]: len(a["memory"]["texts"]) for a in doc["agents"]}
    post(app, key_event(pygame.K_d))
    frames(app, 60)
    post(app, key_event(pygame.K_d, down=False))
    post(app, key_event(pygame.K_F9))
    assert app.town.sim is sim, "the first F9 only asks"
    assert any("Press F9 again" in t.text for t in app.town.notes.toasts)
    post(app, key_event(pygame.K_F9))
    loaded = app.town.sim
    assert loaded is not sim and loaded.now == saved_at and loaded.visitor.pos == saved_pos
    assert {n: len(a.memory) for n, a in loaded.agents.items()} == saved_memories
    assert loaded.config.mode is ClockMode.REALTIME and app.town.visitor.name == "Robin"
    assert any("loaded quicksave" in t.text for t in app.town.notes.toasts)
    frames(app, 30)
    assert loaded.now > saved_at  # and it plays on, on the real-time clock


def test_the_start_screen_starts_a_new_game(tmp_path):
    from game.ui.app import App, Options

    app = App(Options(autosave_minutes=0), events=lambda: [])
    try:
        app.start()
        frames(app, 1)
        start = app.stack.top
        three = next(b for b in start.scenario_buttons if b.key == Choice(scenario="three"))
        post(app, click_events(three.rect.center))
        post(app, click_events(start.name_box.rect.center))
        for _ in "Robin":
            post(app, key_event(pygame.K_BACKSPACE))
        post(app, text_event("Quinn"))
        post(app, key_event(pygame.K_RETURN))
        frames(app, 2)
        assert app.town is not None and app.town.visitor.name == "Quinn"
        assert set(app.town.sim.agents) == {"Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"}
    finally:
        app.close()


def test_errors_in_the_log_become_notifications(make_app):
    from game.sim.events import EventKind

    app = make_app()
    frames(app, 1)
    sim = app.town.sim
    sim.log.add(sim.now, EventKind.ERROR, "Maria Lopez", "plan_day failed: TimeoutError")
    frames(app, 1)
    assert any("plan_day failed" in t.text for t in app.town.notes.toasts)


def test_drawing_changes_no_game_state(make_app):
    app = make_app()
    frames(app, 5)
    town = app.town
    town.open_inspector("Maria Lopez")
    frames(app, 1)
    sim = town.sim
    before = (sim.now, sim.steps, len(sim.log), {n: a.pos for n, a in sim.agents.items()})
    first = app.screen.copy()
    app.stack.draw(first)
    second = app.screen.copy()
    app.stack.draw(second)
    after = (sim.now, sim.steps, len(sim.log), {n: a.pos for n, a in sim.agents.items()})
    assert before == after
    assert pygame.image.tobytes(first, "RGB") == pygame.image.tobytes(second, "RGB")


def test_talk_from_the_inspector_and_leave(make_app):
    app = make_app()
    town = app.town
    sim = town.sim
    maria = sim.agents["Maria Lopez"]
    town.visitor.pos = _free_tile_near(sim, maria.pos)
    inspector = town.open_inspector("Maria Lopez")
    frames(app, 1)
    assert inspector.talk_button.enabled
    post(app, click_events(inspector.talk_button.rect.center))
    frames(app, 1)
    assert town.chat is not None and town.chat.resident == "Maria Lopez" and town.typing()
    post(app, key_event(pygame.K_ESCAPE))  # leaves the text box first
    assert not town.typing() and town.chat is not None
    post(app, click_events(town.chat.close_button.rect.center))
    assert town.chat is None and sim.visitor.talking_to == ""


def test_memory_filters_search_and_jump_to_evidence(make_app):
    app = make_app()
    name = "Isabella Rodriguez"
    sim = app.town.sim
    assert run_until(app, lambda: len(sim.agents[name].memory) >= 5, 10)
    inspector = app.town.open_inspector(name)
    inspector.open_tab(Tab.MEMORIES)
    frames(app, 1)
    memory = sim.agents[name].memory
    kind = memory.record(0).kind
    button = next(b for b in inspector.filter_buttons if b.label.lower().startswith(kind.value))
    post(app, click_events(button.rect.center))
    frames(app, 1)
    shown = [int(r.tag) for r in inspector.list.rows if r.tag]
    assert shown and all(memory.record(i).kind is kind for i in shown)
    inspector.kind = None
    word = memory.text(0).split()[-1].strip(".").lower()
    post(app, click_events(inspector.search.rect.center))
    post(app, text_event(word))
    frames(app, 1)
    shown = [int(r.tag) for r in inspector.list.rows if r.tag]
    assert 0 in shown and all(word in memory.text(i).lower() for i in shown)
    inspector.follow(Jump(1))  # what a click on an evidence link does
    frames(app, 1)
    row = next(r for r in inspector.list.rows if r.tag == "1")
    assert row.highlight and inspector.search.text == "" and inspector.kind is None


def test_the_start_screen_loads_a_saved_game(monkeypatch, tmp_path):
    from game.sim.saves import save_game
    from game.ui.app import App, Options

    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path))
    sim = build_simulation("three", seed=2, workers=2)
    for _ in range(30):
        sim.step()
    sim.player.add_visitor("Sasha")
    save_game(sim, "mine")
    sim.close()
    app = App(Options(autosave_minutes=0), events=lambda: [])
    try:
        app.start()
        frames(app, 1)
        button = next(b for b in app.stack.top.save_buttons if b.key == Choice(save="mine"))
        post(app, click_events(button.rect.center))
        post(app, click_events(app.stack.top.start_button.rect.center))
        frames(app, 1)
        assert app.town is not None and app.town.visitor.name == "Sasha"
        assert app.town.sim.steps >= 30
    finally:
        app.close()
