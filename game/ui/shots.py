"""Screenshots for the README, taken by playing the game with scripted input.

Usage: python -m game.ui.shots [OUT_DIR] [--scenario smallville] [--hour 9.5]

The town is run headless (lockstep, the scripted brain) to a lively hour first, then opened
in the window on the real-time clock; a click opens the inspector, T and typed words make
a chat. Works on the dummy video driver, so it needs no display.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pygame

from game.sim.factory import build_simulation
from game.sim.simulation import ClockMode
from game.ui.app import App, Options
from game.ui.input import click_events, key_event, text_event
from game.ui.inspector import Tab

FRAME = 1 / 60


def prepared(scenario: str, hour: float, seed: int):
    """A simulation run headless to `hour` o'clock, then switched to the window's clock."""
    sim = build_simulation(scenario, seed=seed)
    day = sim.now.replace(hour=0, minute=0, second=0)
    sim.run_until(day + timedelta(hours=hour))
    sim.config = replace(sim.config, mode=ClockMode.REALTIME)
    return sim


def play(app: App, seconds: float) -> None:
    for _ in range(int(seconds / FRAME)):
        app.frame(FRAME)
        time.sleep(0.002)  # let the thread pool answer, as real time would


def send(app: App, events) -> None:
    for event in events if isinstance(events, list) else [events]:
        app.handle(event)


def busiest_tile(sim) -> tuple[int, int]:
    """Where most awake residents are, so the town shot shows people."""
    awake = [a for a in sim.agents.values() if not a.asleep] or list(sim.agents.values())
    return max(
        (a.pos for a in awake),
        key=lambda p: sum(abs(p[0] - b.pos[0]) <= 25 and abs(p[1] - b.pos[1]) <= 14 for b in awake),
    )


def walk_next_to(app: App, resident: str) -> None:
    """Put the visitor beside a resident (a shortcut for a long walk)."""
    sim = app.town.sim
    target = sim.agents[resident].pos
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1)):
        tile = (target[0] + dx, target[1] + dy)
        if sim.town.is_walkable(*tile):
            sim.visitor.pos = tile
            break
    app.town.camera.following = True


def street_tile_near(sim, tile: tuple[int, int]) -> tuple[int, int]:
    """The nearest walkable street tile: a visitor there is seen by no one indoors."""
    town = sim.town
    streets = [
        (x, y)
        for y in range(town.height)
        for x in range(town.width)
        if town.is_walkable(x, y) and not town.address_at(x, y)
    ]
    return min(streets, key=lambda t: abs(t[0] - tile[0]) + abs(t[1] - tile[1]))


def town_shot(app: App, out: Path) -> None:
    town = app.town
    sim = town.sim
    sim.visitor.pos = street_tile_near(sim, busiest_tile(sim))
    town.camera.following, town.watching = True, ""
    town.camera.zoom = 0.75  # wide enough to show a good part of the town and its people
    play(app, 3)
    app.screenshot(out / "town.png")
    town.camera.zoom = 1.5


def inspector_shot(app: App, out: Path, resident: str) -> None:
    town = app.town
    fig = town.actors.figures[resident]
    size = town.sim.town.tile
    town.camera.following = False
    town.camera.look_at((fig.glide.x + 8) * size, (fig.glide.y + 0.5) * size)
    play(app, 0.2)
    pos = town.camera.to_screen((fig.glide.x + 0.5) * size, (fig.glide.y + 0.5) * size)
    send(app, click_events(pos))
    play(app, 0.3)
    town.inspector.open_tab(Tab.MEMORIES)
    play(app, 0.3)
    app.screenshot(out / "inspector.png")


def chat_shot(app: App, out: Path, resident: str) -> None:
    town = app.town
    if town.inspector is not None:
        town.close_panel(town.inspector)
    walk_next_to(app, resident)
    play(app, 0.5)
    send(app, key_event(pygame.K_t))
    for line in ("Hello! I'm new in town. What do you do here?", event_question(app.town.sim)):
        send(app, text_event(line))
        send(app, key_event(pygame.K_RETURN))
        play(app, 2.5)
    app.screenshot(out / "chat.png")


def event_question(sim) -> str:
    """The visitor asks of the scenario's first event ('... the book launch at The Rose
    and Crown Pub?'), or of the town's news when it has none."""
    event = next((i.event for i in sim.scenario.intents if i.event and not i.private), None)
    if event is None:
        return "What's the latest news around town?"
    if not event.what:
        return f"Did you hear what's on at {event.place}?"
    return f"Did you hear about the {event.what} at {event.place}?"


def greeting_shot(app: App, out: Path, resident: str) -> None:
    """A resident greets the visitor: a speech bubble and "T to answer", no panel."""
    town = app.town
    for panel in list(town._panels()):
        town.close_panel(panel)
    walk_next_to(app, resident)
    town.sim.player.greet(resident)
    for _ in range(int(8 / FRAME)):
        app.frame(FRAME)
        time.sleep(0.002)
        if town.invited == resident:
            break
    play(app, 0.3)
    app.screenshot(out / "greeting.png")


def stove_shot(out: Path, seed: int = 3) -> None:
    """The headline experiment: a stove set burning, and its owner on the way to put it
    out (the town of three, so the owner is at home)."""
    sim = build_simulation("three", seed=seed)
    owner = sim.agents["Isabella Rodriguez"]
    while not owner.location.endswith(":kitchen"):
        sim.step()
    sim.run_until(sim.now + timedelta(minutes=5))
    sim.config = replace(sim.config, mode=ClockMode.REALTIME)
    app = App(Options(autosave_minutes=0), events=lambda: [])
    app.replace_town(sim, "Robin")
    town = app.town
    try:
        stove = next(a for a in sim.town.areas if a.endswith("kitchen:stove")
                     and a.startswith("Isabella"))  # fmt: skip
        town.open_editor(stove)
        play(app, 0.2)
        town.editor.apply("burning")
        town.watching, town.camera.following = owner.name, False
        town.pacer.set_speed(4)
        for _ in range(int(60 / FRAME)):
            app.frame(FRAME)
            time.sleep(0.002)
            fixing = owner.action is not None and "burning" in owner.action.description
            if fixing and _distance(owner.pos, sim.town.access_tile(stove)) <= 1:
                break
        town.pacer.toggle_pause()
        play(app, 0.5)
        app.screenshot(out / "stove.png")
    finally:
        app.close()


def _distance(a: tuple[int, int], b: tuple[int, int] | None) -> int:
    return 99 if b is None else max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def no_display() -> None:
    """SDL's dummy drivers, unless the caller chose others: set by the script when it runs,
    before the window opens, since importing this module must leave the environment alone."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="docs/screenshots")
    parser.add_argument("--scenario", default="smallville")
    parser.add_argument("--hour", type=float, default=9.5, help="game hour of the shots")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resident", default="Klaus Mueller")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    no_display()
    app = App(Options(autosave_minutes=0), events=lambda: [])
    app.replace_town(prepared(args.scenario, args.hour, args.seed), "Robin")
    try:
        town_shot(app, out)
        inspector_shot(app, out, args.resident)
        chat_shot(app, out, args.resident)
        greeting_shot(app, out, "Isabella Rodriguez")
    finally:
        app.close()
    stove_shot(out)
    print(f"screenshots written to {out}")


if __name__ == "__main__":
    main()
