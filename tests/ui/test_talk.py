"""T and the chat in the window (issue 21), driven by scripted input events on the dummy
video driver: the greeter gets T, T never opens someone behind a wall, a finished
conversation is not reopened, and the chat stays open over several replies while the
resident moves a little, with one line in the log. The town is paused and the test steps
it, so nobody wanders off between the checks."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pygame
import pytest

from game.sim.chats import CHAT_IDLE, CHAT_KEEP, CHAT_RANGE, distance
from game.sim.factory import build_simulation
from game.sim.saves import load_game, save_game
from game.ui.input import key_event, text_event
from tests.sim.places import (
    CAFE,
    ISABELLA,
    KLAUS,
    MARIA,
    cafe_row,
    place,
    wall_between,
)
from tests.ui.helpers import FRAME, frames, realtime


@pytest.fixture(scope="module")
def morning(tmp_path_factory):
    """The town of three lived to 10:30 once and saved: every test loads its own copy."""
    root = tmp_path_factory.mktemp("talk")
    sim = build_simulation("three", seed=0, workers=2)
    midnight = datetime.combine(sim.now.date(), datetime.min.time())
    sim.run_until(midnight + timedelta(hours=10, minutes=30))
    save_game(sim, "morning", root)
    sim.close()
    return root, midnight + timedelta(hours=10, minutes=30)


@pytest.fixture
def app(make_app, morning):
    """The town of three at 10:30 in the window, paused (the test steps it)."""
    root, at = morning
    sim = load_game("morning", root, workers=2)
    assert sim.now == at
    app = make_app(realtime(sim))
    post(app, key_event(pygame.K_SPACE))
    frames(app, 1)
    assert app.town.pacer.paused
    return app


def post(app, events) -> None:
    for event in events if isinstance(events, list) else [events]:
        app.handle(event)


def press_t(app) -> None:
    post(app, [key_event(pygame.K_t), text_event("t")])  # SDL sends both for one press
    frames(app, 1)


def say(app, text: str) -> None:
    post(app, [text_event(text), key_event(pygame.K_RETURN)])


def think(app, done, seconds: float = 10.0) -> bool:
    """Step the paused town (and draw) until done(): the cognition threads get real time."""
    sim = app.town.sim
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sim.step()
        app.frame(FRAME)
        if done():
            return True
        time.sleep(0.005)
    return bool(done())


def answered(app, name: str, count: int):
    return lambda: sum(u.speaker == name for u in app.town.sim.chats.get(name, [])) >= count


def toasts(app) -> list[str]:
    return [t.text for t in app.town.notes.toasts]


def test_t_answers_the_resident_who_greeted_not_the_nearest(app):
    town, sim = app.town, app.town.sim
    row = cafe_row(sim, 5)
    town.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])  # beside the visitor
    place(sim, KLAUS, row[3])  # further off, and he says hello
    sim.player.greet(KLAUS)
    assert think(app, answered(app, KLAUS, 1))
    frames(app, 1)
    assert town.chat is None  # a greeting opens no panel
    press_t(app)
    assert town.chat is not None and town.chat.resident == KLAUS
    assert "Answering Klaus Mueller, who greeted you." in toasts(app)
    assert town.chat.box.focused and town.chat.box.text == ""


def test_t_never_opens_someone_behind_a_wall(app):
    town, sim = app.town, app.town.sim
    street, _, room = wall_between(sim)
    town.visitor.pos = street
    place(sim, ISABELLA, room)  # two tiles off, through the wall
    for name in (KLAUS, MARIA):
        place(sim, name, (street[0] - 20, street[1]))
    assert distance(street, room) <= CHAT_RANGE
    press_t(app)
    assert town.chat is None
    assert any("No one to talk with" in t for t in toasts(app))
    place(sim, KLAUS, (street[0] - 3, street[1]))  # in the street, in sight
    press_t(app)
    assert town.chat is not None and town.chat.resident == KLAUS
    assert "Talking with Klaus Mueller, the nearest resident in sight." in toasts(app)


def test_t_never_reopens_a_finished_conversation(app):
    town, sim = app.town, app.town.sim
    row = cafe_row(sim, 2)
    town.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])
    press_t(app)
    assert town.chat.resident == ISABELLA
    say(app, "Hello! What do you do here?")
    assert think(app, answered(app, ISABELLA, 1))
    say(app, "Goodbye, see you!")
    assert think(app, answered(app, ISABELLA, 2))
    frames(app, 1)
    assert town.chat is None or town.chat.ended  # her goodbye ended it
    assert sim.chats[ISABELLA][-1].end
    post(app, key_event(pygame.K_ESCAPE))  # let go of the box (if the panel is still up)
    press_t(app)  # later: T to her again
    chat = town.chat
    assert chat is not None and chat.resident == ISABELLA
    assert not chat.ended and list(chat.lines) == [], "the finished talk came back"
    assert chat.box.focused and sim.player.chatting(ISABELLA)
    say(app, "Hi again!")
    assert think(app, answered(app, ISABELLA, 1))
    assert not chat.ended and town.chat is chat


def test_the_chat_stays_open_over_replies_while_the_resident_moves_a_little(app):
    town, sim = app.town, app.town.sim
    row = cafe_row(sim, CHAT_KEEP)
    town.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])
    press_t(app)
    chat = town.chat
    assert chat.resident == ISABELLA
    lines = ["Hi! I'm new in town.", "What do you like about the cafe?", "Do you play?", "Nice."]
    silence = int(CHAT_IDLE.total_seconds() // sim.step_seconds) + 3
    for i, line in enumerate(lines):
        say(app, line)
        assert think(app, answered(app, ISABELLA, i + 1)), f"no answer to {line!r}"
        place(sim, ISABELLA, row[min(i + 2, CHAT_KEEP - 1)])  # a step to the next table
        post(app, text_event("and ..."))  # the next sentence, being typed a long while
        for _ in range(silence):
            sim.step()
            app.frame(FRAME)
        assert town.chat is chat and sim.player.chatting(ISABELLA), f"closed after {i + 1}"
        chat.box.text = ""
    assert distance(town.visitor.pos, sim.agents[ISABELLA].pos) > CHAT_RANGE
    frames(app, 1)
    mine = [line.text for line in town.feed.lines if "talks with the visitor" in line.text]
    assert mine == [f"{ISABELLA} talks with the visitor"]  # one line for the whole chat
    assert CAFE in sim.agents[ISABELLA].location
