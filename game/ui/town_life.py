"""The town scene's part that passes time: the simulation's steps each frame, and what
the window makes of what happened (toasts, speech bubbles, invitations, the people moving).

`TownLife` is a part of `town_scene.TownScene` (it works on the scene's own state).
"""

from __future__ import annotations

import time

from game.core.clock import fmt_time
from game.ui import theme
from game.ui.actors import VISITOR_KEY
from game.ui.feed import change_text
from game.ui.overlays import notable
from game.ui.town_input import VISITOR_STEP_S

STEP_BUDGET_S = 0.008  # at most this much of a frame goes to sim steps
SPEECH_SECONDS = 6.0
INVITE_SECONDS = 12.0  # how long "T to answer" stands after a resident greets the visitor
FAST_FORWARD_STEPS = 60  # steps a frame may run while the town is quiet (night)
FAST_FORWARD_BUDGET_S = 0.012


class TownLife:
    """Each frame's steps (fast while the town sleeps) and the watching of the town."""

    def _run_steps(self, dt: float) -> None:
        """The steps this frame owes the clock, within the time budget; while the town
        is quiet, as many as fit (the night runs fast until a few residents are up)."""
        self.fast_forward = self._quiet() and not self.pacer.paused
        if self.fast_forward:
            self._fast_forward()
            return
        due = self.pacer.due(dt)
        began = time.perf_counter()
        ran = 0
        for _ in range(due):
            self.sim.step()
            self.steps_run += 1
            ran += 1
            if time.perf_counter() - began > STEP_BUDGET_S:
                self.pacer.give_back(due - ran)
                break
        self.pacer.ran(ran, dt)
        self.last_step_ms = (time.perf_counter() - began) * 1000

    def _quiet(self) -> bool:
        """Fewer than a fifth of the residents awake (at least one), and no chat open.
        Why not "until the first one wakes": in Smallville one early riser wakes at 4:10
        and the next near 5, and a new player watched one man shower at 1x for a minute."""
        agents = self.sim.agents.values()
        awake = sum(not a.asleep for a in agents)
        return bool(agents) and awake < max(1, len(agents) // 5) and self.chat is None

    def _fast_forward(self) -> None:
        began = time.perf_counter()
        for _ in range(FAST_FORWARD_STEPS):
            self.sim.step()
            self.steps_run += 1
            if time.perf_counter() - began > FAST_FORWARD_BUDGET_S or not self._quiet():
                break
        self.pacer.carry = 0.0
        self.pacer.remeasure()  # the night's steps say nothing of the chosen speed
        self.last_step_ms = (time.perf_counter() - began) * 1000

    def _watch_objects(self, dt: float) -> None:
        """State changes: the map shows them, a toast says them, the log keeps them."""
        areas = self.sim.town.areas
        for change in self.overlays.update(self.sim, dt):
            area = areas.get(change.address)
            if area is None or not (
                change.by_player or notable(change.old, change.state, area.default_state)
            ):
                continue  # a thing going in and out of use is no news
            who = "you" if change.by_player else change.by
            colour = theme.ACCENT if change.by_player else theme.GOOD
            text = f"{fmt_time(change.time)} {change_text(area.name, change.state, who)}"
            self.notes.push(text, colour)
        self.feed.watch(self.sim)

    def _tell_typing(self) -> None:
        """A draft in the chat box: the resident waits for the sentence (its silence does
        not run out while the player types). A chat that ended by itself says why, once."""
        chat, player = self.chat, self.sim.player
        if chat is None or player is None:
            return
        if chat.box.text:
            player.visitor_typing(chat.resident)
        talk = player.talks.get(chat.resident)
        if talk is not None and talk is not self._told_end and talk.ending():
            self._told_end = talk
            self.notes.push(talk.ending())

    def _watch_chats(self) -> None:
        """New chat lines (the visitor's or a resident's) become speech bubbles; a resident
        who greets the visitor gets an invitation (T to answer), never a panel."""
        for name, lines in self.sim.chats.items():
            seen = self._chat_seen.get(name, 0)
            if len(lines) < seen:  # a new conversation began on a fresh transcript
                seen = 0
            if len(lines) <= seen:
                continue
            self._chat_seen[name] = len(lines)
            line = lines[-1]
            key = name if line.speaker == name else VISITOR_KEY
            self.speech[key] = (line.text, self.actors.clock + SPEECH_SECONDS)
            if self.chat is None and line.speaker == name and self._near(name):
                self.invited, self.invited_until = name, self.actors.clock + INVITE_SECONDS
                self.notes.push(invitation(name), theme.LINK)

    def _close_finished(self) -> None:
        """Panels that close by themselves (a chat that is over, left alone for a moment
        to read the last line); the log says why."""
        for panel in list(self.panels):
            why = panel.finished
            if why:
                self.feed.note(fmt_time(self.sim.now), why)
                self.close_panel(panel)

    def _update_actors(self, dt: float) -> None:
        pace = max(self.pacer.steps_per_second, 6.0)
        clock = self.actors.clock
        for agent in self.sim.agents.values():
            self.actors.update_resident(self.sim, agent, dt, pace, self._speech_for(agent, clock))
        keys = set(self.sim.agents)
        invited = self.invited if self.invited_until > clock else ""
        self.actors.partner = self.chat.resident if self.chat is not None else invited
        if self.visitor is not None:
            said = self.speech.get(VISITOR_KEY)
            text = said[0] if said and said[1] > clock else ""
            self.actors.update_visitor(self.visitor, dt, 1 / VISITOR_STEP_S * 1.2, text)
            keys.add(VISITOR_KEY)
        self.actors.forget_missing(keys)
        self.actors.spread()

    def _speech_for(self, agent, clock: float) -> str:
        """What a resident is saying now: its line in a conversation, its chat reply, or
        what it called out on noticing trouble."""
        talk = agent.conversation
        if talk is not None:
            line = talk.line_at(self.sim.now)
            if line is not None and line.speaker == agent.name:
                return line.text
        self._call_out(agent, clock)
        said = self.speech.get(agent.name)
        return said[0] if said and said[1] > clock else ""

    def _call_out(self, agent, clock: float) -> None:
        """An action that calls something out ('Something's burning! The stove!') says it
        in a bubble once, as the player first sees it start."""
        action = agent.action
        if action is None or not action.said or self._called.get(agent.name) == action:
            return
        self._called[agent.name] = action
        self.speech[agent.name] = (action.said, clock + SPEECH_SECONDS)


def invitation(name: str) -> str:
    """The toast of a resident who spoke first."""
    return f"{name} speaks to you: T to answer."
