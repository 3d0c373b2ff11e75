"""The town view: the map, the people, the HUD and the panels, on the real-time clock.

Each frame the scene asks the pacer how many 10-second steps the elapsed real time needs at
the chosen speed, runs them within a time budget (the rest waits for the next frame), and
never waits for a cognition job: those stay on the simulation's thread pool.

The scene is this module's `TownScene` with its parts, one concern a module, all working
on the scene's state: `town_input` (walking, the pointer, Esc, T), `town_saves` (F5, F9,
the autosave), `town_life` (each frame's steps and what the window makes of them) and
`town_view` (where the camera looks, and the drawing).
"""

from __future__ import annotations

from game.core.errors import SmallvilleError
from game.sim.autosave import Autosaver
from game.sim.chats import TalkTarget
from game.sim.player import Visitor
from game.sim.view import SimView
from game.ui import theme
from game.ui.actors import ActorLayer
from game.ui.announce import AnnouncePanel
from game.ui.chat import ChatPanel
from game.ui.feed import Feed
from game.ui.hud import Hud, Notifications
from game.ui.input import Act, Command
from game.ui.inspector import Inspector
from game.ui.mapview import Camera, MapRenderer
from game.ui.objects import ObjectEditor
from game.ui.overlays import ObjectOverlays
from game.ui.pacing import Pacer
from game.ui.panel import Panel, Panels
from game.ui.scene import Scene
from game.ui.town_input import Press, TownInput
from game.ui.town_life import TownLife, invitation
from game.ui.town_saves import TownSaves
from game.ui.town_view import TownView

KEYS_GRACE_SECONDS = 1.0  # after a text box lets go by itself, keys are typing this long
# Every kind of panel, in layout order: side panels from the right edge in, stacked ones
# from the bottom up. A new panel is its module and its line here.
PANELS: tuple[type[Panel], ...] = (Inspector, ChatPanel, ObjectEditor, AnnouncePanel)
# Commands by which the player lets go of a text box (no grace period for keys after them).
_LETTING_GO = (Act.BACK, Act.SUBMIT, Act.POINTER_DOWN, Act.POINTER_UP)
_TEXT_ACTS = (Act.TYPE, Act.ERASE, Act.SUBMIT, Act.NEXT_FIELD, Act.EDIT)


class TownScene(TownInput, TownSaves, TownLife, TownView, Scene):
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

    def _layout(self, dt: float = 0.0) -> None:
        """Where the HUD and the panels go for the current window size."""
        w, h = self.app.size
        self.camera.resize((w, h))
        self.hud.update(self.sim, self.pacer, w, self.fast_forward)
        self.panels.layout((w, h), self.hud.rect.height, dt)  # the bar grows for warnings

    def _ui_at(self, pos: tuple[int, int]) -> bool:
        return self.hud.rect.collidepoint(pos) or self.panels.at(pos) is not None

    def close(self) -> None:
        self.autosaver.close()  # a write in flight finishes before the town goes
        self.sim.close()


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
