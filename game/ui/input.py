"""The one place where pygame events become game commands.

Why one module: the scenes never look at key codes, so the controls can be rebound, listed
in the help overlay and in docs/CONTROLS.md from the same table, and a test can drive the
game with commands or with raw pygame events alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import pygame

from game.sim.chats import CHAT_RANGE


class Act(Enum):
    QUIT = "quit"
    WALK = "walk"  # delta = direction, pressed = key down (True) or up (False)
    ZOOM = "zoom"  # value = +1 in, -1 out
    FOLLOW = "follow"  # the camera follows the visitor again
    POINTER_DOWN = "pointer_down"  # pos
    POINTER_MOVE = "pointer_move"  # pos, delta, pressed = left button held
    POINTER_UP = "pointer_up"  # pos
    WHEEL = "wheel"  # pos, value = +1 up / -1 down
    PAUSE = "pause"
    FASTER = "faster"
    SLOWER = "slower"
    SET_SPEED = "set_speed"  # value = game minutes per real second
    TALK = "talk"
    HELP = "help"
    SAVE = "save"
    LOAD = "load"
    BACK = "back"  # Esc: close the topmost panel or overlay
    TYPE = "type"  # text typed into the focused text box
    ERASE = "erase"  # backspace in the focused text box
    SUBMIT = "submit"  # Enter in the focused text box
    NEXT_FIELD = "next_field"  # Tab
    EDIT = "edit"  # an editing key in the focused text box: text = an Edit value
    LOG = "log"  # open or narrow the "what happened" log
    SETTINGS = "settings"  # the settings screen
    RESIZE = "resize"  # delta = new window size
    ANNOUNCE = "announce"  # open the announce panel: a notice on the town's boards


class Edit(Enum):
    """Editing keys a text box understands besides typing, Backspace and Enter."""

    LEFT = "left"
    RIGHT = "right"
    WORD_LEFT = "word_left"
    WORD_RIGHT = "word_right"
    HOME = "home"
    END = "end"
    DELETE = "delete"
    ERASE_WORD = "erase_word"
    SELECT_ALL = "select_all"
    COPY = "copy"
    CUT = "cut"
    PASTE = "paste"


class PanelAction(Enum):
    """What a click in a panel asks of the scene, beyond what the panel did itself."""

    NONE = "none"
    CLOSE = "close"
    TALK = "talk"  # the inspector's Talk button: open a chat with its resident


@dataclass(frozen=True)
class Command:
    act: Act
    pos: tuple[int, int] = (0, 0)
    delta: tuple[int, int] = (0, 0)
    value: int = 0
    text: str = ""
    pressed: bool = True


WALK_KEYS: dict[int, tuple[int, int]] = {
    pygame.K_w: (0, -1),
    pygame.K_UP: (0, -1),
    pygame.K_s: (0, 1),
    pygame.K_DOWN: (0, 1),
    pygame.K_a: (-1, 0),
    pygame.K_LEFT: (-1, 0),
    pygame.K_d: (1, 0),
    pygame.K_RIGHT: (1, 0),
}
SPEED_KEYS: dict[int, int] = {
    pygame.K_1: 1,
    pygame.K_2: 2,
    pygame.K_3: 4,
    pygame.K_4: 8,
    pygame.K_5: 16,
    pygame.K_6: 32,
}
# Keys that work everywhere, even while a text box has the focus.
GLOBAL_KEYS: dict[int, Act] = {
    pygame.K_F1: Act.HELP,
    pygame.K_F5: Act.SAVE,
    pygame.K_F9: Act.LOAD,
    pygame.K_ESCAPE: Act.BACK,
}
# Keys that act only when no text box has the focus (otherwise they are typing).
PLAY_KEYS: dict[int, Act] = {
    pygame.K_SPACE: Act.PAUSE,
    pygame.K_RIGHTBRACKET: Act.FASTER,
    pygame.K_LEFTBRACKET: Act.SLOWER,
    pygame.K_t: Act.TALK,
    pygame.K_c: Act.FOLLOW,
    pygame.K_HOME: Act.FOLLOW,
    pygame.K_h: Act.HELP,
    pygame.K_l: Act.LOG,
    pygame.K_o: Act.SETTINGS,
    pygame.K_n: Act.ANNOUNCE,
}
ZOOM_KEYS: dict[int, int] = {
    pygame.K_EQUALS: 1,
    pygame.K_PLUS: 1,
    pygame.K_KP_PLUS: 1,
    pygame.K_MINUS: -1,
    pygame.K_KP_MINUS: -1,
}

# (control, what it does): the help overlay and docs/CONTROLS.md both come from this table.
CONTROLS: tuple[tuple[str, str], ...] = (
    ("W A S D / arrow keys", "walk the visitor (walls block; a lamp post is walked round)"),
    (
        "T",
        f"talk: answer whoever greeted you, else the nearest resident in sight within "
        f"{CHAT_RANGE} tiles (or Talk in the inspector)",
    ),
    ("Left click a resident", "open the inspector: identity, plan, memories, reflections"),
    ("Left click an object", "open the object editor: read and change its state"),
    ("N", "announce: post a notice on the town's notice boards (read by those who pass)"),
    ("Left drag on the map", "pan the camera"),
    ("C / Home", "camera follows the visitor again"),
    ("Click a crowd again", "the next resident standing there (a name label is clickable)"),
    ("Mouse wheel / + / -", "zoom in and out around the cursor (over a panel: scroll it)"),
    ("Space", "pause or resume the town"),
    ("[ / ]", "slower / faster (1x, 2x, 4x, 8x, 16x, 32x)"),
    ("1 ... 6", "speed 1x, 2x, 4x, 8x, 16x, 32x (1x = one game minute per second)"),
    ("Enter", "send what is typed in the text box"),
    ("Tab", "next text box in a panel"),
    ("Ctrl+A / C / X / V", "select all, copy, cut, paste in a text box (Ctrl+arrows: words)"),
    ("L", 'open or narrow the "what happened" log'),
    ("Esc", "leave a text box, close the topmost panel; with none open, the settings"),
    ("O", "settings: speed, autosave, name, brain, window size"),
    ("F5", "save the game"),
    ("F9", "load the quick save (press twice: unsaved play is lost)"),
    ("F1 / H", "show or hide this help"),
    ("Close the window", "quit (nothing is saved unless you saved or autosave is on)"),
)


def controls_markdown() -> str:
    """The controls as a markdown table (docs/CONTROLS.md, pasted into the README)."""
    rows = ["| Control | What it does |", "|---|---|"]
    rows += [f"| {key} | {what} |" for key, what in CONTROLS]
    return "# Controls\n\n" + "\n".join(rows) + "\n"


def translate(event: pygame.event.Event, typing: bool = False) -> list[Command]:
    """Commands for one pygame event. `typing`: a text box has the keyboard focus."""
    kind = event.type
    if kind == pygame.QUIT:
        return [Command(Act.QUIT)]
    if kind == pygame.VIDEORESIZE:
        return [Command(Act.RESIZE, delta=(event.w, event.h))]
    if kind == pygame.TEXTINPUT:
        return [Command(Act.TYPE, text=event.text)] if typing else []
    if kind in (pygame.KEYDOWN, pygame.KEYUP):
        return _key(event, typing)
    return _mouse(event)


def _key(event: pygame.event.Event, typing: bool) -> list[Command]:
    down = event.type == pygame.KEYDOWN
    key = event.key
    if not down:
        return [_walk(key, False)] if key in WALK_KEYS else []  # a release is never text
    if key in GLOBAL_KEYS:
        return [Command(GLOBAL_KEYS[key])]
    if key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
        return [Command(Act.QUIT)]
    if typing:
        return _typing_key(key, event.mod)
    if key == pygame.K_TAB:
        return [Command(Act.NEXT_FIELD)]
    if key in (pygame.K_RETURN, pygame.K_KP_ENTER):  # no box to send it: the screen's
        return [Command(Act.SUBMIT)]  # default action (the start screen starts)
    if key in WALK_KEYS:
        return [_walk(key, True)]
    if key in PLAY_KEYS:
        return [Command(PLAY_KEYS[key])]
    if key in SPEED_KEYS:
        return [Command(Act.SET_SPEED, value=SPEED_KEYS[key])]
    if key in ZOOM_KEYS:
        return [Command(Act.ZOOM, value=ZOOM_KEYS[key])]
    return []


_PLAIN_EDITS: dict[int, Edit] = {
    pygame.K_LEFT: Edit.LEFT,
    pygame.K_RIGHT: Edit.RIGHT,
    pygame.K_HOME: Edit.HOME,
    pygame.K_END: Edit.END,
    pygame.K_DELETE: Edit.DELETE,
}
_CTRL_EDITS: dict[int, Edit] = {
    pygame.K_LEFT: Edit.WORD_LEFT,
    pygame.K_RIGHT: Edit.WORD_RIGHT,
    pygame.K_BACKSPACE: Edit.ERASE_WORD,
    pygame.K_a: Edit.SELECT_ALL,
    pygame.K_c: Edit.COPY,
    pygame.K_x: Edit.CUT,
    pygame.K_v: Edit.PASTE,
}


def _typing_key(key: int, mod: int = 0) -> list[Command]:
    ctrl = bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
    if ctrl and key in _CTRL_EDITS:
        return [Command(Act.EDIT, text=_CTRL_EDITS[key].value)]
    if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
        return [Command(Act.SUBMIT)]
    if key == pygame.K_BACKSPACE:
        return [Command(Act.ERASE)]
    if key == pygame.K_TAB:
        return [Command(Act.NEXT_FIELD)]
    if key in _PLAIN_EDITS:
        return [Command(Act.EDIT, text=_PLAIN_EDITS[key].value)]
    return []


def _walk(key: int, pressed: bool) -> Command:
    return Command(Act.WALK, delta=WALK_KEYS[key], pressed=pressed)


def _mouse(event: pygame.event.Event) -> list[Command]:
    kind = event.type
    if kind == pygame.MOUSEBUTTONDOWN and event.button == 1:
        return [Command(Act.POINTER_DOWN, pos=tuple(event.pos))]
    if kind == pygame.MOUSEBUTTONUP and event.button == 1:
        return [Command(Act.POINTER_UP, pos=tuple(event.pos))]
    if kind == pygame.MOUSEMOTION:
        held = bool(event.buttons and event.buttons[0])
        return [
            Command(Act.POINTER_MOVE, pos=tuple(event.pos), delta=tuple(event.rel), pressed=held)
        ]
    if kind == pygame.MOUSEWHEEL and event.y:
        pos = tuple(event.dict.get("pos") or pygame.mouse.get_pos())
        return [Command(Act.WHEEL, pos=pos, value=1 if event.y > 0 else -1)]
    return []


# Helpers for tests and scripted play: the pygame events a person would cause.
def key_event(key: int, down: bool = True, mod: int = 0) -> pygame.event.Event:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    return pygame.event.Event(kind, key=key, mod=mod, unicode="", scancode=0)


def text_event(text: str) -> pygame.event.Event:
    return pygame.event.Event(pygame.TEXTINPUT, text=text)


def typing_events(text: str) -> list[pygame.event.Event]:
    """What SDL sends as a person types `text` (ASCII): for each character its key going
    down, the character as text, the key coming up, so a test sees keys and text alike."""
    events = []
    for ch in text:
        key = ord(ch.lower())
        events += [key_event(key), text_event(ch), key_event(key, down=False)]
    return events


def click_events(pos: tuple[int, int]) -> list[pygame.event.Event]:
    """A left click (press and release at the same place)."""
    return [
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    ]


def wheel_event(pos: tuple[int, int], up: bool = True) -> pygame.event.Event:
    """A wheel turn with the pointer at `pos` (the dummy driver has no real pointer)."""
    return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1 if up else -1, pos=pos)
