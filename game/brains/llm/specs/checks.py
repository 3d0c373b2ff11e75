"""Checks of an answer's fields, for form and for meaning.

Each raises Invalid with a message the model is given on a retry, so the words say what
to write instead; the limits are the schema's again, since not every server enforces it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game.brains.llm import sense
from game.brains.llm.jsontext import Invalid
from game.world.states import vocabulary


def want(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise Invalid(f"the field {key!r} is missing")
    value = data[key]
    if isinstance(value, bool) and kind is not bool:
        raise Invalid(f"{key!r} must be {_kind_name(kind)}, not true/false")
    if kind is int and isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, kind):
        raise Invalid(f"{key!r} must be {_kind_name(kind)}, not {type(value).__name__}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", bool: "true or false", list: "a list"}
    return names.get(kind, "an object") if isinstance(kind, type) else "an object"


# Words a tiny model echoes from the schema or the prompt instead of answering.
SCHEMA_WORDS = frozenset(
    {
        *("string", "integer", "boolean", "object", "array", "null", "type", "properties"),
        *("required", "items", "enum", "minitems", "maxitems", "minlength", "maxlength"),
        *("schema", "example", "text", "answer", "value"),
    }
)


def placeholder(value: str, key: str) -> bool:
    """'...', '{{name}}', '<text>', 'string', or the field's own name: not an answer."""
    low = value.strip().lower().strip(".…!?\"' ")
    bare = key.split("[")[0].lower()
    if not low or "{{" in value or "..." in value or "…" in value:
        return True
    if value.strip().startswith("<") and value.strip().endswith(">"):
        return True
    return low in SCHEMA_WORDS or low in (bare, bare.replace("_", " "), bare + "_" + "state")


def text_field(data: Mapping[str, Any], key: str, limit: int, empty: bool = False) -> str:
    value = " ".join(want(data, key, str).split())
    if not value and not empty:
        raise Invalid(f"{key!r} must not be empty")
    if len(value) > limit:
        raise Invalid(f"{key!r} is too long: at most {limit} characters")
    if value and placeholder(value, key):
        raise Invalid(f"{key!r} is a placeholder ({value[:40]!r}); write the real answer")
    return value


def ranged(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = want(data, key, int)
    if not low <= value <= high:
        raise Invalid(f"{key!r} must be between {low} and {high}, not {value}")
    return value


def items(data: Mapping[str, Any], key: str, low: int, high: int) -> list[Any]:
    value = want(data, key, list)
    if not low <= len(value) <= high:
        raise Invalid(f"{key!r} must hold {low} to {high} entries, not {len(value)}")
    for entry in value:
        if not isinstance(entry, dict):
            raise Invalid(f"every entry of {key!r} must be an object")
    return value


def one_of(value: str, options: Sequence[str], what: str) -> str:
    """The option `value` names (case and spacing forgiven); Invalid otherwise."""
    wanted = " ".join(value.split()).lower()
    for option in options:
        if " ".join(option.split()).lower() == wanted:
            return option
    shown = ", ".join(repr(o) for o in options)
    raise Invalid(f"{value!r} is not one of the {what} offered: {shown}")


def check_emoji(value: str) -> str:
    value = value.strip()
    bad = not value or len(value) > 12 or any(c.isascii() and c.isalnum() for c in value)
    if bad or not any(is_emoji(c) for c in value):
        raise Invalid(f"'emoji' must be one to three emoji, not {value!r}")
    return value


def is_emoji(char: str) -> bool:
    """A pictograph or symbol from the emoji blocks ('?' or '*' is not one)."""
    code = ord(char)
    return (
        0x1F300 <= code <= 0x1FAFF
        or 0x2600 <= code <= 0x27BF
        or 0x2B00 <= code <= 0x2BFF
        or 0x2190 <= code <= 0x21FF
        or code in (0x231A, 0x231B, 0x23F0, 0x23F3, 0x2328, 0x2702, 0x3030, 0x303D)
    )


def state_phrase(value: str) -> str:
    """An object's state: a short phrase of plain words ('in use', 'brewing coffee'),
    not a command word ('Escape'), a field name ('object_state') or a sentence."""
    words = value.split()
    plain = all(w.replace("-", "").replace("'", "").isalpha() for w in words)
    low = value.lower()
    if not 1 <= len(words) <= 6 or not plain or "_" in value or low in ("escape", "none", "n/a"):
        raise Invalid(f"'state' must be a short state phrase like 'in use', not {value!r}")
    return value


def activity(data: Mapping[str, Any], key: str, limit: int) -> str:
    """A doing: free text that says what is done (not a clock time, not a bare noun)."""
    value = text_field(data, key, limit)
    problem = sense.activity_problem(value, key)
    if problem:
        raise Invalid(problem)
    return value


def object_state(state: str, obj: str, role: Any, action: str) -> str:
    """A state the object's kind can be in (game/world/object_states.json), or a new one
    that passes sense.state_problem's check."""
    state = state_phrase(state)
    table = vocabulary()
    problem = sense.state_problem(state, table.kind_of(obj, role), action, obj, table)
    if problem:
        raise Invalid(problem)
    return state
