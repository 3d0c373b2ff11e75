"""The visitor's conversations through the sim API (issue 21): whom T talks with (the
greeter, never someone behind a wall), a finished conversation never taken up again, a
chat that holds while the resident moves a little, ends naturally, and logs one line."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from game.core.records import ActionKind
from game.sim.chats import CHAT_IDLE, CHAT_KEEP, CHAT_RANGE, ChatEnd, TalkWhy, distance
from game.sim.events import EventKind
from game.sim.factory import build_simulation
from game.sim.saves import load_game, save_game
from tests.sim.places import CAFE, ISABELLA, KLAUS, MARIA, cafe_row, place, wall_between


@pytest.fixture(scope="module")
def morning(tmp_path_factory):
    """The town of three lived to 10:30 once and saved: every test loads its own copy."""
    root = tmp_path_factory.mktemp("visitor-chats")
    sim = build_simulation("three", seed=0)
    midnight = datetime.combine(sim.now.date(), datetime.min.time())
    sim.run_until(midnight + timedelta(hours=10, minutes=30))
    save_game(sim, "morning", root)
    sim.close()
    return root, midnight + timedelta(hours=10, minutes=30)


@pytest.fixture
def town(morning):
    """The town of three at 10:30, everyone up (lockstep, the scripted brain)."""
    root, at = morning
    sim = load_game("morning", root)
    assert sim.now == at and not any(a.asleep for a in sim.agents.values())
    sim.player.add_visitor("Robin")
    yield sim
    sim.close()


def steps(sim, n: int = 1) -> None:
    for _ in range(n):
        sim.step()


def reply_to(sim, name: str, text: str) -> str:
    """The visitor says a line; the resident's answer (a step or two, the scripted brain)."""
    before = len(sim.chats.get(name, []))
    sim.player.visitor_say(name, text)
    for _ in range(6):
        sim.step()
        lines = sim.chats[name]
        if len(lines) > before + 1 and lines[-1].speaker == name:
            return lines[-1].text
    raise AssertionError(f"{name} did not answer {text!r}")


def visitor_events(sim) -> list:
    return [e for e in sim.log.of(EventKind.CONVERSATION) if e.data.get("visitor")]


# -- whom T talks with ---------------------------------------------------------------------
def test_the_greeter_gets_t_while_the_greeting_is_fresh(town):
    sim, player = town, town.player
    row = cafe_row(sim, 5)
    sim.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])  # right beside the visitor
    place(sim, KLAUS, row[3])  # three tiles off: he speaks first
    assert player.talk_target().resident == ISABELLA  # nobody greeted yet: the nearest
    player.greet(KLAUS)
    steps(sim, 2)
    assert sim.chats[KLAUS] and sim.chats[KLAUS][-1].speaker == KLAUS  # the greeting
    target = player.talk_target()
    assert (target.resident, target.why) == (KLAUS, TalkWhy.GREETED)
    assert "Klaus Mueller, who greeted you" in target.describe()
    steps(sim, int(CHAT_IDLE.total_seconds() // sim.step_seconds) + 2)  # unanswered
    assert player.chat_over(KLAUS) is ChatEnd.SILENCE
    assert player.talk_target().resident == ISABELLA  # the greeting went stale


def test_t_never_picks_someone_behind_a_wall(town):
    sim, player = town, town.player
    street, wall, room = wall_between(sim)
    sim.visitor.pos = street
    place(sim, ISABELLA, room)  # two tiles away, behind the wall
    for name in (KLAUS, MARIA):
        place(sim, name, (street[0] - 20, street[1]))  # far off
    assert distance(street, room) <= CHAT_RANGE and not sim.town.in_sight(street, room)
    assert not player.visitor_near(ISABELLA)
    assert player.talk_target() is None
    assert player.talk_target(chosen=ISABELLA) is None  # not even the one inspected
    place(sim, KLAUS, (street[0] - 3, street[1]))  # out in the street, in sight
    target = player.talk_target()
    assert (target.resident, target.why) == (KLAUS, TalkWhy.NEAREST)


def test_t_prefers_the_inspected_resident_in_reach(town):
    sim, player = town, town.player
    row = cafe_row(sim, 4)
    sim.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])
    place(sim, KLAUS, row[3])
    assert player.talk_target(chosen=KLAUS).resident == KLAUS
    assert player.talk_target(chosen=KLAUS).describe() == ""  # the player chose: no note


def test_no_greeting_from_further_than_the_visitor_can_answer(town):
    sim, player = town, town.player
    row = cafe_row(sim, CHAT_RANGE + 3)
    sim.visitor.pos = row[0]
    place(sim, KLAUS, row[-1])
    agent = sim.agents[KLAUS]
    sim.appliers.request_talk(agent, "Robin")  # he wished to say hello from across the room
    assert not player.chatting(KLAUS) and "Robin" not in agent.last_chat


# -- a finished conversation is never taken up again ---------------------------------------
def test_a_finished_conversation_is_not_reopened(town, tmp_path):
    sim, player = town, town.player
    row = cafe_row(sim, 2)
    sim.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])
    player.begin_chat(ISABELLA)
    reply_to(sim, ISABELLA, "Hello! What do you do here?")
    reply_to(sim, ISABELLA, "Goodbye, see you!")
    assert player.chat_over(ISABELLA) is ChatEnd.GOODBYE
    assert sim.chats[ISABELLA][-1].end  # her goodbye
    talk = player.begin_chat(ISABELLA)  # T again, an hour or a day later
    assert talk.live and sim.chats[ISABELLA] == [] and player.chatting(ISABELLA)
    reply_to(sim, ISABELLA, "Hi again!")
    assert not sim.chats[ISABELLA][-1].end and player.chatting(ISABELLA)
    reply_to(sim, ISABELLA, "Bye now.")
    save_game(sim, "after-goodbye", tmp_path)  # a later day: the saved game loaded
    loaded = load_game("after-goodbye", tmp_path)
    try:
        assert loaded.chats[ISABELLA][-1].end  # the old transcript is kept...
        assert loaded.player.chat_over(ISABELLA) is None and loaded.player.live_chat is None
        fresh = loaded.player.begin_chat(ISABELLA)  # ...and never shown as going on
        assert fresh.live and loaded.chats[ISABELLA] == []
    finally:
        loaded.close()


# -- a chat holds while the two talk, and ends naturally -----------------------------------
def test_the_chat_holds_over_replies_while_the_resident_moves_a_little(town):
    sim, player = town, town.player
    row = cafe_row(sim, CHAT_KEEP)
    sim.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])
    place(sim, KLAUS, row[2])
    player.begin_chat(ISABELLA)
    said = ["Hi! I'm new in town.", "What do you like about the cafe?", "Do you play?", "Nice."]
    for i, line in enumerate(said):
        assert reply_to(sim, ISABELLA, line)
        assert player.chatting(ISABELLA), f"the chat ended after {i + 1} replies"
        place(sim, ISABELLA, row[min(i + 2, CHAT_KEEP - 1)])  # she steps to the next table
        sim.appliers.request_talk(sim.agents[KLAUS], ISABELLA)  # Klaus would like a word with her
        assert sim.agents[ISABELLA].conversation is None
        for _ in range(int(CHAT_IDLE.total_seconds() // sim.step_seconds) + 3):
            player.visitor_typing(ISABELLA)  # a long sentence being typed
            sim.step()
        assert player.chatting(ISABELLA) and not sim.agents[ISABELLA].path
    assert distance(sim.visitor.pos, sim.agents[ISABELLA].pos) > CHAT_RANGE  # yet in reach
    assert len([u for u in sim.chats[ISABELLA] if u.speaker == ISABELLA]) == len(said)


def test_one_log_line_per_conversation(town):
    sim, player = town, town.player
    row = cafe_row(sim, 2)
    sim.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])
    player.begin_chat(ISABELLA)
    for line in ("Hello!", "How is business?", "Any news in town?", "Bye!"):
        reply_to(sim, ISABELLA, line)
    events = visitor_events(sim)
    assert len(events) == 1, [e.text for e in events]
    assert events[0].data["participants"] == [ISABELLA, "Robin"]
    player.begin_chat(ISABELLA)
    reply_to(sim, ISABELLA, "Hello there!")
    reply_to(sim, ISABELLA, "What are you up to today?")
    assert len(visitor_events(sim)) == 2  # a second conversation, a second line


def test_the_chat_ends_in_silence_when_the_visitor_says_nothing(town):
    sim, player = town, town.player
    row = cafe_row(sim, 2)
    sim.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])
    reply_to(sim, ISABELLA, "Hello!")
    steps(sim, int(CHAT_IDLE.total_seconds() // sim.step_seconds) - 2)
    assert player.chatting(ISABELLA)  # she waits a while for an answer
    steps(sim, 4)
    assert player.chat_over(ISABELLA) is ChatEnd.SILENCE
    action = sim.agents[ISABELLA].action
    assert action is None or action.kind is not ActionKind.CHAT  # back to her day


def test_the_chat_ends_when_the_visitor_walks_away(town):
    sim, player = town, town.player
    row = cafe_row(sim, 2)
    sim.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])
    reply_to(sim, ISABELLA, "Hello!")
    far = next(
        t
        for t in sim.town.walkable_tiles_of(CAFE)
        if distance(t, row[1]) > CHAT_KEEP or not sim.town.in_sight(t, row[1])
    )
    sim.visitor.pos = far
    steps(sim)
    assert player.chat_over(ISABELLA) is ChatEnd.WALKED and not sim.visitor.talking_to


def test_the_chat_ends_when_the_next_plan_item_presses(town):
    sim, player = town, town.player
    row = cafe_row(sim, 2)
    sim.visitor.pos = row[0]
    place(sim, ISABELLA, row[1])
    due = sim.agents[ISABELLA].plan.next_start(sim.now)
    assert due is not None
    reply_to(sim, ISABELLA, "Hello!")
    talk = player.live_chat
    assert talk.due == due
    while sim.now < due:  # the visitor keeps talking right up to her next item
        player.visitor_typing(ISABELLA)
        sim.step()
    steps(sim, 2)
    assert player.chat_over(ISABELLA) is ChatEnd.PLAN
    item = next(i for i in sim.agents[ISABELLA].plan.broad if i.start == due)
    assert talk.ending() == f"{ISABELLA} has to go now: {item.description}."
    player.visitor_say(ISABELLA, "Wait, one more thing!")  # she answers on her way
    steps(sim, 2)
    assert player.chatting(ISABELLA)
    assert sim.agents[ISABELLA].action is None or "Robin" not in sim.agents[ISABELLA].status
