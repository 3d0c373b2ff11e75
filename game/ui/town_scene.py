"""The town view: the map, the people, the HUD and the panels, on the real-time clock.

Each frame the scene asks the pacer how many 10-second steps the elapsed real time needs at
the chosen speed, runs them within a time budget (the rest waits for the next frame), and
never waits for a cognition job: those stay on the simulation's thread pool.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import pygame

from game.core.clock import fmt_time
from game.core.errors import SmallvilleError
from game.sim import saves
from game.sim.autosave import Autosaver
from game.sim.chats import TalkTarget
from game.sim.player import Visitor
from game.sim.simulation import ClockMode
from game.sim.view import SimView
from game.ui import theme
from game.ui.actors import VISITOR_KEY, ActorLayer
from game.ui.announce import AnnouncePanel
from game.ui.chat import ChatPanel
from game.ui.feed import Feed, change_text
from game.ui.hud import Hud, Notifications
from game.ui.input import Act, Command, PanelAction
from game.ui.inspector import Inspector
from game.ui.mapview import Camera, MapRenderer
from game.ui.objects import ObjectEditor
from game.ui.overlays import ObjectOverlays, notable
from game.ui.pacing import Pacer
from game.ui.panel import Dock, Panel, Panels
from game.ui.scene import Scene
from game.world.town import AreaKind

STEP_BUDGET_S = 0.008  # at most this much of a frame goes to sim steps
VISITOR_STEP_S = 0.14  # the visitor walks about 7 tiles a real second
DRAG_THRESHOLD = 6  # pixels the pointer must move before a press becomes a drag
SPEECH_SECONDS = 6.0
INVITE_SECONDS = 12.0  # how long "T to answer" stands after a resident greets the visitor
KEYS_GRACE_SECONDS = 1.0  # after a text box lets go by itself, keys are typing this long
CONFIRM_SECONDS = 5.0  # F9 must be pressed again within this to load over unsaved play
FAST_FORWARD_STEPS = 60  # steps a frame may run while the town is quiet (night)
FAST_FORWARD_BUDGET_S = 0.012
MARGIN = 8
TOAST_WIDTH = 380
QUICKSAVE = "quicksave"
# Every kind of panel, in layout order: side panels from the right edge in, stacked ones
# from the bottom up. A new panel is its module and its line here.
PANELS: tuple[type[Panel], ...] = (Inspector, ChatPanel, ObjectEditor, AnnouncePanel)
# Commands by which the player lets go of a text box (no grace period for keys after them).
_LETTING_GO = (Act.BACK, Act.SUBMIT, Act.POINTER_DOWN, Act.POINTER_UP)
_TEXT_ACTS = (Act.TYPE, Act.ERASE, Act.SUBMIT, Act.NEXT_FIELD, Act.EDIT)


@dataclass
class Press:
    """A left-button press on the map: a click unless it moves far enough to be a drag."""

    pos: tuple[int, int]
    dragging: bool = False


class TownScene(Scene):
    opaque = True
    runs_below = True  # the town keeps living under the help overlay

    def __init__(
        self, app, sim: SimView, visitor_name: str, speed: int = 1, autosave_minutes: int = 0
    ) -> None:
        super().__init__(app)
        self.sim = sim
        self.visitor = _ensure_visitor(sim, visitor_name)
        self.map = MapRenderer.load(sim.town.source)
        self.camera = Camera(view=app.size, world=self.map.size)
        self.map.prepare(self.camera.zoom)
        self.actors = ActorLayer(tile=sim.town.tile)
        self.pacer = Pacer(step_seconds=sim.step_seconds)
        self.pacer.set_speed(speed)
        self.hud = Hud()
        self.notes = Notifications()
        self.notes.restart(sim)
        self.panels = Panels(PANELS)
        self.keys_grace_until = 0.0  # real time until which keys are typing, going nowhere
        self._had_focus = False
        self.press: Press | None = None
        self.held: list[tuple[int, int]] = []  # walk directions held, latest last
        self.walk_timer = 0.0
        self.speech: dict[str, tuple[str, float]] = {}  # who -> (line, until real time)
        self._called: dict[str, object] = {}  # who -> the reaction whose call was shown
        self._chat_seen = {k: len(v) for k, v in sim.chats.items()}
        self.overlays = ObjectOverlays()
        self.feed = Feed()
        self.invited = ""  # who greeted the visitor: T answers them
        self._told_end = None  # the last conversation whose ending was told
        self.invited_until = 0.0
        self.confirm_load_until = 0.0
        self.fast_forward = False  # the whole town sleeps: the night runs fast
        self.watching = ""  # the resident the camera shows until the player takes over
        self.autosaver = Autosaver(sim, autosave_minutes)
        self.steps_run = 0
        self.last_step_ms = 0.0
        self._frame_resident(snap=True)

    # -- the open panels, by kind (for what the town does with each) ---------------------
    @property
    def inspector(self) -> Inspector | None:
        return self.panels.find(Inspector)

    @property
    def chat(self) -> ChatPanel | None:
        return self.panels.find(ChatPanel)

    @property
    def editor(self) -> ObjectEditor | None:
        return self.panels.find(ObjectEditor)

    @property
    def announce(self) -> AnnouncePanel | None:
        return self.panels.find(AnnouncePanel)

    def _panels(self) -> list[Panel]:
        """Open panels, topmost first (clicks and keys go to the first that wants them)."""
        return list(self.panels)

    # -- commands -------------------------------------------------------------------------
    def typing(self) -> bool:
        """A text box has the keyboard, or let go of it by itself a moment ago: keys meant
        for it are typing either way and never fire game commands."""
        return self.panels.focused() is not None or self.actors.clock < self.keys_grace_until

    def handle(self, command: Command) -> None:
        act = command.act
        if act in _TEXT_ACTS:
            panel = self.panels.focused()
            if panel is None and act is Act.NEXT_FIELD:  # Tab: the topmost panel's box
                panel = next((p for p in self.panels if p.focus.boxes), None)
            if panel is not None:
                panel.keys(command)
        else:
            handler = _HANDLERS.get(act)
            if handler is not None:
                handler(self, command)
        self._watch_focus(letting_go=act in _LETTING_GO)

    def _watch_focus(self, letting_go: bool = False) -> None:
        """A text box that lost the keyboard other than by the player's Esc, Enter or click
        (its panel closed, its tab went): for a moment keys still count as typing, so the
        rest of a sentence never runs as hotkeys."""
        focused = self.panels.focused() is not None
        if self._had_focus and not focused and not letting_go:
            self.keys_grace_until = self.actors.clock + KEYS_GRACE_SECONDS
        self._had_focus = focused

    def _walk(self, command: Command) -> None:
        if command.pressed:
            if command.delta not in self.held:
                self.held.append(command.delta)
            self._step_visitor(command.delta)
            self.walk_timer = VISITOR_STEP_S
            self.camera.following = True
            self.watching = ""
        elif command.delta in self.held:
            self.held.remove(command.delta)

    def _step_visitor(self, delta: tuple[int, int]) -> None:
        if self.sim.player is not None:
            self.sim.player.move_visitor(*delta)

    def _pointer_down(self, command: Command) -> None:
        if self._ui_at(command.pos):
            self.press = None
            return
        self.press = Press(command.pos)

    def _pointer_move(self, command: Command) -> None:
        self.actors.hover = command.pos
        press = self.press
        if press is None or not command.pressed:
            return
        if not press.dragging:
            dx, dy = command.pos[0] - press.pos[0], command.pos[1] - press.pos[1]
            press.dragging = abs(dx) + abs(dy) >= DRAG_THRESHOLD
            if press.dragging:
                self.watching = ""
                self.camera.pan(dx, dy)
            return
        self.camera.pan(*command.delta)

    def _pointer_up(self, command: Command) -> None:
        press, self.press = self.press, None
        if press is not None and press.dragging:
            return
        self.click(command.pos)

    def click(self, pos: tuple[int, int]) -> None:
        """A click: HUD first, then the panels, then whoever or whatever is on the map."""
        command = self.hud.click(pos)
        if command is not None:
            self.handle(command)
            return
        panel = self.panels.at(pos)
        if panel is not None:
            self.panels.focus_only(panel)
            self._panel_action(panel, panel.click(pos))
            return
        self.panels.focus_only(None)
        self._click_map(pos)

    def _click_map(self, pos: tuple[int, int]) -> None:
        fig = self.actors.pick(pos, self.camera)  # a pile: each click the next one in it
        if fig is not None and fig.key != VISITOR_KEY:
            self.open_inspector(fig.key)
            return
        wx, wy = self.camera.to_world(*pos)
        tile = self.sim.town.tile
        area = self.sim.town.area_at(int(wx // tile), int(wy // tile), AreaKind.OBJECT)
        if area is not None:
            self.open_editor(area.address)
        elif self.editor is not None:
            self.close_panel(self.editor)

    def _panel_action(self, panel: Panel, action: PanelAction) -> None:
        if action is PanelAction.CLOSE:
            self.close_panel(panel)
        elif action is PanelAction.TALK:  # talk with whom the panel is about
            self.open_chat(panel.subject)

    def _wheel(self, command: Command) -> None:
        panel = self.panels.at(command.pos)
        if panel is not None:
            panel.wheel(command.pos, command.value)
            return  # the wheel over a panel never zooms the map
        self.watching = ""
        self.camera.zoom_by(command.value, at=command.pos)

    def _back(self, command: Command) -> None:
        """Esc: leave the text box; else close the topmost panel; else the settings. Just
        after a box let go by itself, Esc only ends that moment (the box is already gone)."""
        focused = self.panels.focused()
        if focused is not None:
            focused.focus.set(None)
        elif self.keys_grace_until > self.actors.clock:
            self.keys_grace_until = 0.0
        elif self.panels:
            self.close_panel(next(iter(self.panels)))
        else:
            self.app.open_settings()

    def _talk(self, command: Command) -> None:
        target = self.talk_target()  # whom T answers: game/sim/player.py decides
        if target is not None and self._answering(target):
            self.panels.focus_only(self.chat)
            self.chat.focus.set(self.chat.box)  # answer whoever is already talking to us
            return
        if target is None:
            self.notes.push("No one to talk with here: walk up to someone in sight.")
            return
        if self.open_chat(target.resident) is not None and target.describe():
            self.notes.push(target.describe())  # whom T picked, and why

    def _follow(self, command: Command) -> None:
        self.camera.following, self.watching = True, ""

    def _save(self, command: Command) -> None:
        if self.sim.recorded:
            self.notes.push("A replay cannot be saved: it is the recorded run.", theme.ACCENT)
            return
        name = self.app.options.save_name or QUICKSAVE
        try:
            if self._autosaving_into(name) or self._held_elsewhere(name):
                return
            path = saves.save_game(self.sim, name)
        except (SmallvilleError, OSError) as exc:
            self.notes.push(f"could not save: {exc}", theme.ACCENT)
            return
        self.notes.push(f"saved as {name} ({path})", theme.GOOD)

    def _autosaving_into(self, name: str) -> bool:
        """F5 into this game's own autosave folder: an autosave now. A save there waited
        10 s on the lock this game holds for its autosaves, then was refused."""
        if not self.autosaver.holds(saves.name_folder(name)):
            return False
        if self.autosaver.now():
            self.notes.push(f"{name} is this game's autosave: autosaving now", theme.GOOD)
        else:
            self.notes.push(f"An autosave into {name} is being written: try F5 in a moment.")
        return True

    def _held_elsewhere(self, name: str) -> bool:
        """Another game holds that save's folder for its autosaves: said at once (the
        save would freeze the window for the lock's wait, then be refused)."""
        held = saves.claim(saves.name_folder(name), wait=0.0)
        if held is not None:
            held.release()
            return False
        self.notes.push(
            f"could not save: another game is autosaving as {name}; "
            "save under another name (play --save NAME)",
            theme.ACCENT,
        )
        return True

    def _load(self, command: Command) -> None:
        name = self.app.options.save_name or QUICKSAVE
        if self.confirm_load_until <= self.notes.clock:
            self.confirm_load_until = self.notes.clock + CONFIRM_SECONDS
            self.notes.push(
                f"Press F9 again to load {name}: play since your last save is lost.", theme.ACCENT
            )
            return
        self.confirm_load_until = 0.0
        try:  # the window plays a loaded game on its real-time clock, whatever the save ran
            # the same endpoint, model and caps as the game began with
            sim = saves.load_with(name, self.app.options, mode=ClockMode.REALTIME)
        except (SmallvilleError, OSError) as exc:
            self.notes.push(f"could not load {name}: {exc}", theme.ACCENT)
            return
        self.app.replace_town(sim, self.visitor.name if self.visitor else "Visitor")
        self.app.notify(f"loaded {name}")

    # -- panels ---------------------------------------------------------------------------
    def open_panel(self, kind: type, subject: str, make) -> Panel:
        """The open panel of `kind` showing `subject`, else a new one from `make()` (one
        of the kind showing something else closes)."""
        panel = self.panels.find(kind)
        if panel is None or panel.subject != subject:
            panel = self.panels.add(make())
        return panel

    def open_inspector(self, name: str) -> Inspector:
        inspector = self.open_panel(
            Inspector, name, lambda: Inspector(self.sim, name, self.actors.sprites)
        )
        self.actors.select(name)
        return inspector

    def open_chat(self, name: str) -> ChatPanel | None:
        if not self._near(name):
            self.notes.push(f"Walk closer to {name} to talk.")
            return None
        chat = self.open_panel(ChatPanel, name, lambda: ChatPanel(self.sim, name))
        self.panels.focus_only(chat)
        chat.focus.set(chat.box)
        self.sim.player.begin_chat(name)  # the one going on, else a new one (never an old)
        self.notes.dismiss(invitation(name))  # answered: the invitation has done its work
        self.invited = ""
        return chat

    def open_announce(self, command: Command | None = None) -> AnnouncePanel | None:
        """The announce panel, its text box ready for typing (in a replay: a note why not)."""
        if self.sim.player is None:
            self.notes.push("A replay cannot be changed: nothing can be announced.", theme.ACCENT)
            return None
        panel = self.open_panel(AnnouncePanel, "", lambda: AnnouncePanel(self.sim))
        self.panels.focus_only(panel)
        panel.focus.set(panel.box)
        return panel

    def open_editor(self, address: str) -> ObjectEditor:
        return self.open_panel(ObjectEditor, address, lambda: ObjectEditor(self.sim, address))

    def close_panel(self, panel: Panel) -> None:
        self.panels.remove(panel)
        inspected = self.inspector
        self.actors.select(inspected.subject if inspected is not None else None)

    def nearest_resident(self) -> str | None:
        """Whom T talks with (None in a replay, or with nobody in reach)."""
        target = self.talk_target()
        return target.resident if target is not None else None

    def talk_target(self) -> TalkTarget | None:
        """Whom T talks with, and why: the one who greeted the visitor (or talks with it),
        else the one open in the inspector if in reach, else the nearest awake resident
        in sight (game/sim/player.py decides)."""
        player = self.sim.player
        if player is None:
            return None
        return player.talk_target(self.inspector.name if self.inspector is not None else "")

    def _answering(self, target: TalkTarget) -> bool:
        """The chat panel shows the conversation going on that T goes on with."""
        chat, player = self.chat, self.sim.player
        same = chat is not None and chat.resident == target.resident
        return same and player is not None and player.chatting(target.resident)

    def _near(self, name: str) -> bool:
        """Whether the visitor stands near enough to talk (never, in a replay)."""
        player = self.sim.player
        return player is not None and player.visitor_near(name)

    # -- time passing ---------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.notes.update(dt)
        self.actors.clock += dt
        self._walk_held(dt)
        self._settle_visitor()
        self._run_steps(dt)
        self.notes.watch(self.sim)
        self._watch_objects(dt)
        self._watch_chats()
        self._tell_typing()
        self._close_finished()
        self._autosave()
        self._update_actors(dt)
        self._frame_resident()
        self._follow_visitor()
        self._layout(dt)
        self._watch_focus()

    def _settle_visitor(self) -> None:
        """Standing still, the visitor steps off a resident's tile (or furniture)."""
        if not self.held and self.sim.player is not None:
            self.sim.player.settle_visitor()

    def _walk_held(self, dt: float) -> None:
        if not self.held or self.typing():
            return
        self.walk_timer -= dt
        if self.walk_timer <= 0:
            self._step_visitor(self.held[-1])
            self.walk_timer += VISITOR_STEP_S
            self.walk_timer = max(self.walk_timer, 0.02)

    def _run_steps(self, dt: float) -> None:
        """The steps this frame owes the clock, within the time budget; while the town
        is quiet, as many as fit (the night runs fast until a few residents are up)."""
        self.fast_forward = self._quiet() and not self.pacer.paused
        if self.fast_forward:
            self._fast_forward()
            return
        due = self.pacer.due(dt)
        began = time.perf_counter()
        for done in range(due):
            self.sim.step()
            self.steps_run += 1
            if time.perf_counter() - began > STEP_BUDGET_S:
                self.pacer.give_back(due - done - 1)
                break
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

    def _autosave(self) -> None:
        """A periodic autosave: a snapshot here, the writing on a thread; a brief toast.
        What is not routine (another game holds `autosave`, so this one saves under its
        own name) stays up as a toast and in the log."""
        for report in self.autosaver.tick():
            color = theme.GOOD if report.ok else theme.MUTED
            self.notes.push(report.text, color, brief=report.brief)
            if not report.brief:
                self.feed.note(fmt_time(self.sim.now), report.text)

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

    def _layout(self, dt: float = 0.0) -> None:
        """Where the HUD and the panels go for the current window size."""
        w, h = self.app.size
        self.camera.resize((w, h))
        self.hud.update(self.sim, self.pacer, w, self.fast_forward)
        self.panels.layout((w, h), self.hud.rect.height, dt)  # the bar grows for warnings

    def _ui_at(self, pos: tuple[int, int]) -> bool:
        return self.hud.rect.collidepoint(pos) or self.panels.at(pos) is not None

    # -- drawing --------------------------------------------------------------------------
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

    def close(self) -> None:
        self.autosaver.close()  # a write in flight finishes before the town goes
        self.sim.close()


def invitation(name: str) -> str:
    """The toast of a resident who spoke first."""
    return f"{name} speaks to you: T to answer."


def _ensure_visitor(sim: SimView, name: str) -> Visitor | None:
    """The visitor walking this town: the loaded one, a new one with the player's name,
    or none at all in a replay."""
    if sim.visitor is not None or sim.player is None:
        return sim.visitor
    try:
        return sim.player.add_visitor(name)
    except SmallvilleError:
        return sim.player.add_visitor(f"{name} (visitor)")


_HANDLERS = {
    Act.WALK: TownScene._walk,
    Act.POINTER_DOWN: TownScene._pointer_down,
    Act.POINTER_MOVE: TownScene._pointer_move,
    Act.POINTER_UP: TownScene._pointer_up,
    Act.WHEEL: TownScene._wheel,
    Act.ZOOM: lambda self, c: self.camera.zoom_by(c.value),
    Act.FOLLOW: TownScene._follow,
    Act.LOG: lambda self, c: self.feed.toggle(),
    Act.SETTINGS: lambda self, c: self.app.open_settings(),
    Act.PAUSE: lambda self, c: self.pacer.toggle_pause(),
    Act.FASTER: lambda self, c: self.pacer.faster(),
    Act.SLOWER: lambda self, c: self.pacer.slower(),
    Act.SET_SPEED: lambda self, c: self.pacer.set_speed(c.value),
    Act.TALK: TownScene._talk,
    Act.ANNOUNCE: TownScene.open_announce,
    Act.HELP: lambda self, c: self.app.toggle_help(),
    Act.SAVE: TownScene._save,
    Act.LOAD: TownScene._load,
    Act.BACK: TownScene._back,
    Act.QUIT: lambda self, c: self.app.quit(),
}
