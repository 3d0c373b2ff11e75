"""What a person's or a place's name may hold, and the file name made from it.

A resident's name goes into file names (its sprite sheet), onto the terminal (`town`,
`interview`) and into every prompt, so it is held to what names are: letters of any
script, spaces and the marks names use (' - .). Path characters, control characters,
bidirectional overrides and zero-width characters have no business in a name; a file
that holds them is refused when it is read, in one line, rather than allowed to choose
which file `play` opens or to repaint the terminal.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 64  # characters of a resident's name
MAX_PLACE = 64  # characters of a place's or an object's name on the map
NAME_MARKS = " '’-."  # what a name may hold besides letters
# What an area's name may hold besides letters, digits and the marks of names: the map
# names things like "Hobbs Cafe", "Lin family's house" or "desk (2)".
PLACE_MARKS = NAME_MARKS + "&,()!?#+"


def _is_letter(char: str) -> bool:
    """A letter of any script, or a mark that combines with one (accents, vowel signs)."""
    return char.isalpha() or unicodedata.category(char) in ("Mn", "Mc")


def name_problem(name: str) -> str | None:
    """Why `name` is not a person's name (None: it is one)."""
    if not name.strip():
        return "must not be empty"
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long (at most {MAX_NAME})"
    odd = next((c for c in name if not (_is_letter(c) or c in NAME_MARKS)), None)
    if odd is not None:
        return (f"holds {shown_char(odd)}: a name has only letters, spaces and ' - ."
                " (no digits, path, control, bidi or zero-width characters)")  # fmt: skip
    if not _is_letter(name[0]) or name != name.strip() or "  " in name:
        return "must start with a letter, with single spaces between its words"
    return None


def place_problem(name: str) -> str | None:
    """Why `name` is not fit to name a place or a thing (None: it is)."""
    if len(name) > MAX_PLACE:
        return f"is {len(name)} characters long (at most {MAX_PLACE})"
    odd = next((c for c in name if not (_is_letter(c) or c.isdigit() or c in PLACE_MARKS)), None)
    if odd is not None:
        return (f"holds {shown_char(odd)}: a place's name has letters, digits, spaces and"
                f" {' '.join(PLACE_MARKS.strip())} only")  # fmt: skip
    return None


def shown_char(char: str) -> str:
    """A character named so that it shows whatever it is: 'U+202E', never the raw mark."""
    if char.isprintable() and not char.isspace():
        return f"{char!r} (U+{ord(char):04X})"
    return f"U+{ord(char):04X}"


_NOT_SLUG = re.compile(r"[^\w-]+")


def slug(name: str) -> str:
    """'Klaus Mueller' -> 'klaus_mueller': a file name that can hold nothing but word
    characters and '-', whatever `name` holds, so it never leaves its folder."""
    low = unicodedata.normalize("NFC", name).lower().replace(" ", "_")
    return _NOT_SLUG.sub("", low).strip("-") or "unnamed"


def save_name_problem(name: str) -> str:
    """What in a save name is refused, shown whatever it holds ("it holds 'é' (U+00E9),
    U+200B: "): a zero-width space or a right-to-left mark is named, never printed raw."""
    odd = list(dict.fromkeys(c for c in name if not _SAVE_NAME_CHAR.fullmatch(c)))
    if odd:
        more = f" and {len(odd) - 4} more" if len(odd) > 4 else ""
        return f"it holds {', '.join(shown_char(c) for c in odd[:4])}{more}: "
    if len(name) > 64:
        return f"it is {len(name)} characters long: "
    return ""


_SAVE_NAME_CHAR = re.compile(r"[A-Za-z0-9 _-]")
