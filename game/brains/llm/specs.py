"""How the model brain asks each typed question: one spec per question class.

A Spec names its prompt template (a file in game/brains/prompts, our own words), how to
fill it from the question's fields (`view`), the JSON schema of the answer (`schema`, built
per question so that options become an enum), how to read and check the answer for
meaning (`parse`: the area must be one of the offered options, importance 1..10, times
inside the day, evidence numbers in range), and what stands in when the model cannot
answer (`fallback`: the scripted brain's answer to the same question). The one call path
(game/brains/llm/client.py) does the rest; nothing here knows about HTTP.

Schemas carry every limit JSON Schema can say (exact array lengths, string lengths,
integer ranges, HH:MM patterns, enums built from the real options), so a server that
turns the schema into a grammar (llama.cpp, vLLM, Ollama) cannot produce a wrong shape.
Every property is required and none is additional. `parse` checks the same limits again
and the meaning besides (placeholders, emoji that hold an emoji, distinct questions);
its error message goes back to the model on a retry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from game.brains.dialogue.state import DialogueState
from game.brains.llm import examples as ex
from game.brains.llm import sense
from game.brains.llm.jsontext import Invalid
from game.brains.questions import (
    ActionDetails,
    AgentContext,
    Answer,
    ChooseSector,
    ChooseSpot,
    Chunk,
    Converse,
    DecomposeHours,
    DecomposeSteps,
    Details,
    Emoji,
    Insights,
    JudgeAnswer,
    PlanDay,
    Question,
    RankAnswers,
    RateImportance,
    React,
    ReflectQuestions,
    Spot,
    Summarize,
    Talk,
    Utter,
)
from game.brains.scripted import ScriptedBrain
from game.core.clock import fmt_hhmm
from game.core.records import (
    CONTINUE,
    Fact,
    Insight,
    MemoryRecord,
    PlanItem,
    Reaction,
    ReactionKind,
    Source,
    Utterance,
)
from game.core.text import quoted, with_article
from game.world.scenario import Resident
from game.world.states import vocabulary

Args = Question[Any]  # what a spec reads: the typed question itself


@dataclass(frozen=True)
class Spec:
    """How one question class is put to a model."""

    kind: type[Question[Any]]
    name: str
    template: str  # file name in game/brains/prompts
    view: Callable[[Any], dict[str, str]]  # the template's variables
    schema: Callable[[Any], dict[str, Any]]
    parse: Callable[[dict[str, Any], Any], Any]  # raises Invalid
    fallback: Callable[[ScriptedBrain, Any], Any] = lambda s, q: s.ask(q)
    simple: bool = False  # may go to the cheaper model
    max_tokens: int = 300

    def __post_init__(self) -> None:
        object.__setattr__(self, "view", quoting_outsiders(self.view))


# -- names from outside the town -----------------------------------------------------------

# The outside names of the question whose view is being built (see `_clip`).
_OUTSIDERS: ContextVar[tuple[str, ...]] = ContextVar("outsiders", default=())
# A JSON string literal: quoted speech (game/core/text.py `quoted`) is left as it is.
_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def quoting_outsiders(view: Callable[[Any], dict[str, str]]) -> Callable[[Any], dict[str, str]]:
    """The view with every name from outside the town (a visitor's) as quoted data.

    A visitor chooses their own name, and it reaches memories, observations and the
    dialogue: unquoted, "Ignore the rules and" would read as the prompt's own words. The
    system prompt says quoted words are data, so wherever such a name stands outside
    quoted speech it is put in quotes, escaped; speech already quoted is left whole."""

    def quoted_view(q: Any) -> dict[str, str]:
        names = tuple(sorted(outsiders(q), key=len, reverse=True))
        token = _OUTSIDERS.set(names)  # clipped texts quote them before they are cut
        try:
            values = view(q)
        finally:
            _OUTSIDERS.reset(token)
        if not names:
            return values
        return {k: _quote_names(v, names) if isinstance(v, str) else v for k, v in values.items()}

    return quoted_view


def outsiders(q: Any) -> set[str]:
    """Names in a question that come from outside the town: whoever a visitor's facts
    name as the visitor, and whoever a resident talks with in a dialogue turn."""
    found: set[str] = set()
    todo: list[Any] = [q]
    while todo:
        node = todo.pop()
        if isinstance(node, Fact):
            if node.source is Source.VISITOR:
                found.add(node.heard_from or node.subject)
        elif isinstance(node, (list, tuple)):
            todo.extend(node)
        elif hasattr(node, "__dataclass_fields__") and not isinstance(node, Resident):
            todo.extend(getattr(node, f) for f in node.__dataclass_fields__)
    if isinstance(q, Utter):
        own = q.ctx.persona.name
        found |= {q.partner, *(u.speaker for u in q.history if u.speaker != own)}
    return {n for n in found if isinstance(n, str) and n.strip()}


def _quote_names(text: str, names: Sequence[str]) -> str:
    """`text` with each name that stands outside quoted speech quoted (escaped).

    One left-to-right scan: at each point a name is tried before a quoted literal, so a
    name holding a quote mark is still found whole, and speech (a literal that starts
    earlier) is passed over whole, names inside it included."""
    alternatives = "|".join(_name_pattern(n) for n in names)
    scan = re.compile(f"(?P<name>{alternatives})|(?P<speech>{_LITERAL.pattern})")

    def one(match: re.Match[str]) -> str:
        return quoted(match.group()) if match.lastgroup == "name" else match.group()

    return scan.sub(one, text)


def _name_pattern(name: str) -> str:
    """The name as a whole word (no match inside a longer word)."""
    before = r"(?<!\w)" if re.match(r"\w", name) else ""
    after = r"(?!\w)" if re.match(r"\w", name[-1]) else ""
    return before + re.escape(name) + after


# -- schema and view helpers ---------------------------------------------------------------


def obj(**props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def arr(items: dict[str, Any], low: int | None = None, high: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": items}
    if low is not None:
        out["minItems"] = low
    if high is not None:
        out["maxItems"] = high
    return out


def text(low: int = 1, high: int | None = None) -> dict[str, Any]:
    """Free text of `low` to `high` characters, with no angle brackets: a grammar then
    cannot echo the example's '<activity>'. The pattern carries the length too, since
    llama.cpp's converter reads a pattern and ignores minLength and maxLength beside it
    (a 135M model wrote a plan item past its context); it also leaves out the quote and
    the backslash, which a pattern's grammar would not escape."""
    counted = high is not None and high <= COUNTED_UP_TO
    times = f"{{{low},{high}}}" if counted else f"{{{low},}}"
    out: dict[str, Any] = {"type": "string", "minLength": low, "pattern": f"^{PLAIN}{times}$"}
    if high is not None:
        out["maxLength"] = high
    return out


def integer(low: int, high: int) -> dict[str, Any]:
    """A range; a short one is also an enum, since some grammar converters (llama-cpp-
    python's) ignore minimum and maximum but every one honours an enum."""
    out: dict[str, Any] = {"type": "integer", "minimum": low, "maximum": max(low, high)}
    if high - low < 16:
        out["enum"] = list(range(low, max(low, high) + 1))
    return out


PLAIN = '[^<>"\\\\]'  # one character of free text (a regex class)
COUNTED_UP_TO = 240  # longer limits stay out of the pattern: a grammar repeats per count
# Emoji and the arrows and symbols blocks; a grammar held to it writes an emoji, not
# '<emoji>' or '*I am ready,' (what SmolLM2-135M wrote without it).
EMOJI_PATTERN = "^[\u2190-\u2bff\U0001f300-\U0001faff\ufe0f\u200d]{1,12}$"
STR = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}
HHMM = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}
EMOJI_TEXT = {"type": "string", "minLength": 1, "maxLength": 12, "pattern": EMOJI_PATTERN}
SCORE = integer(1, 10)


def enum(values: Sequence[str]) -> dict[str, Any]:
    return {"type": "string", "enum": list(dict.fromkeys(values))}


def titled(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"title": name, **schema}


def hhmm(when: datetime) -> str:
    return when.strftime("%H:%M")


def numbered(texts: Sequence[str], limit: int = 160) -> str:
    if not texts:
        return "(nothing)"
    return "\n".join(f"{i}. {_clip(t, limit)}" for i, t in enumerate(texts, 1))


def memory_lines(memories: Sequence[MemoryRecord], limit: int = 160) -> str:
    """Each memory text once: retrieval can bring the same sight back three times."""
    return numbered(list(dict.fromkeys(m.text for m in memories)), limit)


def _clip(text: str, limit: int) -> str:
    """One line of at most `limit` characters. Names from outside the town are quoted
    first, and a cut inside quoted speech closes the quotes, so clipping never lets a
    visitor's words out of them."""
    text = " ".join(text.split())
    names = _OUTSIDERS.get()
    if names:
        text = _quote_names(text, names)
    if len(text) <= limit:
        return text
    cut = limit - 1
    for literal in _LITERAL.finditer(text):
        if literal.start() >= cut:
            break
        if cut < literal.end():
            head = text[: max(literal.start() + 1, cut - 1)]
            return head.rstrip("\\") + '…"'
    return text[:cut] + "…"


def persona_line(p: Resident) -> str:
    return f"{p.name} ({p.age}; {', '.join(p.traits)}) is {with_article(p.occupation)}."


def where(ctx: AgentContext) -> str:
    """The agent's address as prose ('Hobbs Cafe, cafe'), or 'outdoors'."""
    return ctx.location.replace(":", ", ") if ctx.location else "outdoors"


# -- answer checks -------------------------------------------------------------------------


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


# -- importance ----------------------------------------------------------------------------


def _importance_parse(data: dict[str, Any], q: RateImportance) -> tuple[int, ...]:
    n = len(q.drafts)
    ratings = want(data, "ratings", list)
    if len(ratings) != n:
        raise Invalid(f"give exactly {n} ratings, one per memory, not {len(ratings)}")
    return tuple(ranged({"rating": r}, "rating", 1, 10) for r in ratings)


IMPORTANCE = Spec(
    RateImportance,
    "importance",
    "importance.txt",
    lambda q: {
        "persona": persona_line(q.persona),
        "name": q.persona.name,
        "texts": numbered([d.text for d in q.drafts]),
        "example": ex.importance_example(q.persona),
    },
    lambda q: titled("importance", obj(ratings=arr(SCORE, len(q.drafts), len(q.drafts)))),
    _importance_parse,
    simple=True,
    max_tokens=80,
)


# -- the day plan --------------------------------------------------------------------------


def _hours_note(q: PlanDay, place: str) -> str:
    found = next((p for p in q.places if p.name == place), None)
    if found is None or found.opens is None or found.closes is None:
        return ""
    return f" (open {fmt_hhmm(found.opens)}-{fmt_hhmm(found.closes)})"


def plan_places(q: PlanDay) -> list[str]:
    return [p.name for p in q.places]


def _plan_view(q: PlanDay) -> dict[str, str]:
    ctx = q.ctx
    yesterday = q.yesterday.strip()
    return {
        "summary": ctx.summary,
        "yesterday": f"Yesterday: {_clip(yesterday, 400)}" if yesterday else "",
        "date": ctx.now.strftime("%A %B %d, %Y"),
        "name": ctx.persona.name,
        "wake": hhmm(q.wake),
        "sleep": hhmm(q.sleep),
        "memories": memory_lines(ctx.memories),
        "places": "; ".join(p + _hours_note(q, p) for p in plan_places(q)),
        "example": ex.plan_example(ctx.persona, plan_places(q)),
    }


def hours_between(start: datetime, end: datetime) -> dict[str, Any]:
    """HH:MM within [start, end): the hours spelt out in the pattern, so a grammar cannot
    write 23:00 for a day that ends at 23:00 (a tiny model did, three times running)."""
    last = end - timedelta(minutes=1)
    span = min(24, int((last - start.replace(minute=0)).total_seconds() // 3600) + 1)
    hours = sorted({(start.hour + i) % 24 for i in range(max(1, span))})
    return {"type": "string", "pattern": f"^({'|'.join(f'{h:02d}' for h in hours)}):[0-5][0-9]$"}


def _plan_schema(q: PlanDay) -> dict[str, Any]:
    start = hours_between(q.wake, q.sleep)
    entry = obj(start=start, activity=text(3, 120), place=enum([*plan_places(q), ""]))
    return titled("plan_day", obj(items=arr(entry, 2, 12)))


def clock_time(text: str, after: datetime, until: datetime, key: str) -> datetime:
    """'13:30' as the first such moment at or after `after`; must not pass `until`."""
    try:
        hour, minute = (int(x) for x in text.strip().split(":"))
        day = after.replace(hour=hour, minute=minute, second=0, microsecond=0)
    except ValueError:
        raise Invalid(f"{key!r} must be a time like 13:30, not {text!r}") from None
    if day < after - timedelta(minutes=1):
        day += timedelta(days=1)
    if day >= until:
        raise Invalid(f"{key!r} {text} is outside the day ({hhmm(after)} to {hhmm(until)})")
    return max(day, after)


def _plan_parse(data: dict[str, Any], q: PlanDay) -> tuple[PlanItem, ...]:
    places = plan_places(q)
    timed = []
    for entry in items(data, "items", 2, 12):
        start = clock_time(want(entry, "start", str), q.wake, q.sleep, "start")
        place = want(entry, "place", str)
        place = one_of(place, places, "places") if place.strip() else ""
        timed.append((start, activity(entry, "activity", 120), place))
    timed.sort(key=lambda t: t[0])
    ends = [t[0] for t in timed[1:]] + [q.sleep]
    out = []
    for (start, text, place), end in zip(timed, ends, strict=True):
        minutes = int((end - start).total_seconds() // 60)
        if minutes > 0:
            out.append(PlanItem(text, start, minutes, place))
    who = q.ctx.persona.name
    problem = (
        sense.plan_problem(out, q.wake, q.sleep, who)
        or sense.block_time_problem(out)
        or sense.day_part_problem(out, q.wake)
        or sense.plan_event_problem(out, q.ctx.memories, who)
    )
    if problem:
        raise Invalid(problem)
    return tuple(out)


PLAN_DAY = Spec(
    PlanDay, "plan_day", "plan_day.txt", _plan_view, _plan_schema, _plan_parse, max_tokens=600
)


# -- decomposition ---------------------------------------------------------------------------


def _spot_labels(q: DecomposeHours | DecomposeSteps) -> list[str]:
    return [s.label for s in q.spots]


# The longest action a decomposition may name (the prompt asks for 5 to 15 minutes): a
# short range a grammar-building server can enforce as an enum (see grammar_schema).
STEP_MINUTES = 60


def _step_minutes(q: DecomposeHours | DecomposeSteps) -> int:
    return min(q.item.minutes, STEP_MINUTES)


def _step_schema(q: DecomposeHours | DecomposeSteps) -> dict[str, Any]:
    return obj(
        action=text(3, 100),
        minutes=integer(1, _step_minutes(q)),
        spot=enum([*_spot_labels(q), ""]),
        state=text(2, 60),
        emoji=EMOJI_TEXT,
        importance=SCORE,
    )


def _decompose_view(q: DecomposeHours | DecomposeSteps) -> dict[str, str]:
    ctx, item = q.ctx, q.item
    spots = _spot_labels(q)
    place = f" at {item.place.replace(':', ', ')}" if item.place else ""
    listing = "\n".join(f"- {s}" for s in spots) if spots else "- (none listed)"
    return {
        "persona": persona_line(ctx.persona),
        "name": ctx.persona.first_name,
        "start": hhmm(item.start),
        "end": hhmm(item.end),
        "description": item.description,
        "place": place,
        "minutes": str(item.minutes),
        "memories": memory_lines(ctx.memories, 120),
        "spots": listing,
        "example": ex.step_example(item.description, _spot_kinds(q)),
    }


def _spot_kinds(q: DecomposeHours | DecomposeSteps) -> dict[str, str]:
    """Each spot's label and the kind of its object ('' for a room as a whole)."""
    table = vocabulary()
    return {s.label: table.kind_of(s.object, s.role) if s.object else "" for s in q.spots}


def _parse_step(entry: dict[str, Any], q: DecomposeHours | DecomposeSteps) -> PlanItem:
    """An action with what the same answer said about it: where, the object's state while
    it runs, its emoji and its importance (so none of them costs another request)."""
    item = q.item
    label = want(entry, "spot", str)
    address = ""
    if label.strip():
        chosen = one_of(label, _spot_labels(q), "spots")
        address = next(s.address for s in q.spots if s.label == chosen)
    action = activity(entry, "action", 100)
    if address:
        misplaced = sense.spot_problem(action, chosen, _spot_kinds(q))
        if misplaced:
            raise Invalid(misplaced)
    state = text_field(entry, "state", 60, empty=True) if address else ""
    if state:
        spot = next(s for s in q.spots if s.address == address)
        state = object_state(state, spot.object, spot.role, action) if spot.object else ""
    return PlanItem(
        action,
        item.start,
        ranged(entry, "minutes", 1, _step_minutes(q)),
        address or item.place,
        state,
        check_emoji(want(entry, "emoji", str)),
        ranged(entry, "importance", 1, 10),
    )


def _steps_parse(data: dict[str, Any], q: DecomposeSteps) -> tuple[PlanItem, ...]:
    return tuple(_parse_step(e, q) for e in items(data, "steps", 1, 24))


DECOMPOSE_STEPS = Spec(
    DecomposeSteps,
    "decompose_steps",
    "decompose_steps.txt",
    _decompose_view,
    lambda q: titled("decompose_steps", obj(steps=arr(_step_schema(q), 1, 24))),
    _steps_parse,
    max_tokens=700,
)


def _hours_parse(data: dict[str, Any], q: DecomposeHours) -> tuple[Chunk, ...]:
    out = []
    for entry in items(data, "hours", 1, 24):
        steps = tuple(_parse_step(e, q) for e in items(entry, "steps", 1, 12))
        minutes = ranged(entry, "minutes", 1, q.item.minutes)
        hour = replace(q.item, description=activity(entry, "activity", 100), minutes=minutes)
        out.append(Chunk(hour, steps))
    return tuple(out)


DECOMPOSE_HOURS = Spec(
    DecomposeHours,
    "decompose_hours",
    "decompose_hours.txt",
    _decompose_view,
    lambda q: titled(
        "decompose_hours",
        obj(
            hours=arr(
                obj(
                    activity=text(3, 100),
                    minutes=integer(1, q.item.minutes),
                    steps=arr(_step_schema(q), 1, 12),
                ),
                1,
                24,
            )
        ),
    ),
    _hours_parse,
    max_tokens=1500,
)


# -- where to act ----------------------------------------------------------------------------


def _choice_view(ctx: AgentContext, action: str, current: str, hint: str) -> dict[str, str]:
    p = ctx.persona
    return {
        "name": p.name,
        "occupation": p.occupation,
        "home": p.home,
        "action": action,
        "current": f" {p.first_name} is now in: {current}." if current else "",
        "hint": f" The plan had in mind: {hint.replace(':', ', ')}." if hint else "",
    }


CHOOSE_SECTOR = Spec(
    ChooseSector,
    "choose_area",
    "choose_area.txt",
    lambda q: {
        **_choice_view(q.ctx, q.action, q.current, q.hint),
        "level": "place",
        "options": "; ".join(q.options),
    },
    lambda q: titled("choose_area", obj(choice=enum(q.options))),
    lambda d, q: one_of(want(d, "choice", str), q.options, "options"),
    simple=True,
    max_tokens=60,
)


def _spot_parse(data: dict[str, Any], q: ChooseSpot) -> Spot:
    label = one_of(want(data, "choice", str), [s.label for s in q.spots], "spots")
    return next(s for s in q.spots if s.label == label)


CHOOSE_SPOT = Spec(
    ChooseSpot,
    "choose_spot",
    "choose_area.txt",
    lambda q: {
        **_choice_view(q.ctx, q.action, q.current, q.hint),
        "level": f"spot in {q.sector} (room: object)",
        "options": "; ".join(s.label for s in q.spots),
    },
    lambda q: titled("choose_spot", obj(choice=enum([s.label for s in q.spots]))),
    _spot_parse,
    simple=True,
    max_tokens=60,
)


# -- objects and emoji -----------------------------------------------------------------------


def _details_parse(data: dict[str, Any], q: ActionDetails) -> Details:
    state = object_state(text_field(data, "state", 60), q.obj, q.role, q.action)
    return Details(state, check_emoji(want(data, "emoji", str)))


def _details_view(q: ActionDetails) -> dict[str, str]:
    table = vocabulary()
    return {
        "name": q.persona.name,
        "action": q.action,
        "obj": q.obj,
        "old_state": q.old_state,
        "states": ", ".join(table.states(table.kind_of(q.obj, q.role))),
        "example": ex.state_example(q.action, q.obj),
    }


ACTION_DETAILS = Spec(
    ActionDetails,
    "object_state",
    "object_state.txt",
    _details_view,
    lambda q: titled("object_state", obj(state=text(2, 60), emoji=EMOJI_TEXT)),
    _details_parse,
    simple=True,
    max_tokens=60,
)

EMOJI = Spec(
    Emoji,
    "emoji",
    "emoji.txt",
    lambda q: {"action": q.action, "example": ex.emoji_example(q.action)},
    lambda q: titled("emoji", obj(emoji=EMOJI_TEXT)),
    lambda d, q: check_emoji(want(d, "emoji", str)),
    simple=True,
    max_tokens=30,
)


# -- reacting --------------------------------------------------------------------------------


def _react_options(q: React) -> list[str]:
    return ["continue", "react", "talk"] if q.observation.is_agent else ["continue", "react"]


# The most relevant memories a reaction is decided on (retrieval gives them best first):
# the question is asked often, and the last few rarely change the answer.
REACT_MEMORIES = 6


def _react_view(q: React) -> dict[str, str]:
    ctx, obs = q.ctx, q.observation
    # no quote marks in a filled-in part unless someone is quoted (see client.prompt)
    talk = f" or talk: start a conversation with {obs.subject}." if obs.is_agent else ""
    return {
        "summary": ctx.summary,
        "time": ctx.now.strftime("%A %H:%M"),
        "name": ctx.persona.name,
        "status": ctx.status or "idle",
        "where": where(ctx),
        "observation": obs.text,
        "memories": memory_lines(ctx.memories[:REACT_MEMORIES]),
        "talk": talk,
    }


def _react_parse(data: dict[str, Any], q: React) -> Reaction:
    obs = q.observation
    decision = one_of(want(data, "decision", str), _react_options(q), "decisions")
    if decision == "continue":
        return CONTINUE
    if decision == "talk":
        return Reaction(ReactionKind.TALK, target=obs.subject)
    action = activity(data, "action", 100)
    if action.lower() in ("continue", "react", "talk") or len(action.split()) < 2:
        raise Invalid(f"'action' must say what to do, like 'going to help', not {action!r}")
    minutes = ranged(data, "minutes", 1, 120)
    return Reaction(ReactionKind.REACT, action, minutes, "" if obs.is_agent else obs.subject)


REACT = Spec(
    React,
    "react",
    "react.txt",
    _react_view,
    lambda q: titled(
        "react",
        obj(decision=enum(_react_options(q)), action=text(3, 100), minutes=integer(1, 120)),
    ),
    _react_parse,
    max_tokens=100,
)


# -- dialogue --------------------------------------------------------------------------------


def history_lines(history: Sequence[Utterance]) -> str:
    """Each line as quoted speech (JSON-escaped), so words a visitor typed can never pass
    for the prompt's own instructions: the system prompt says quotes are speech only."""
    if not history:
        return "(nothing yet)"
    return "\n".join(f"{quoted(u.speaker)} said: {quoted(u.text)}" for u in history)


def _utter_view(q: Utter) -> dict[str, str]:
    ctx = q.ctx
    return {
        "summary": ctx.summary,
        "time": ctx.now.strftime("%A %H:%M"),
        "name": ctx.persona.name,
        "where": where(ctx),
        "status": ctx.status or "idle",
        "partner": q.partner,
        "memories": memory_lines(ctx.memories),
        "history": history_lines(q.history),
        "open": open_question(q.state, ctx.persona.name),
    }


def open_question(state: DialogueState | None, name: str) -> str:
    """The question still waiting for `name`'s answer, stated (quoted, as all speech), so
    the model answers it before the talk moves on; and the topic a follow-up refers to."""
    asked = state.open_question(name) if state is not None else None
    if asked is None:
        return f"Nothing is being asked of {name} right now."
    act = asked.act
    about = ", ".join(x for x in (act.aspect.value, act.person, act.place, act.intent,
                                  act.event) if x and x != "general")  # fmt: skip
    topic = f" It is about: {about}." if about else ""
    follow = " It follows up on what was said before." if act.follow_up else ""
    return (
        f"Open question for {name}, from {quoted(asked.speaker)}: {quoted(asked.text)}."
        f"{topic}{follow} {name} answers it before anything else."
    )


def _earlier(q: Answer) -> str:
    if q.state is None or not q.state.said:
        return ""
    lines = "\n".join(f"{quoted(s.speaker)} said: {quoted(s.text)}" for s in q.state.said[-6:])
    return f"Earlier in this conversation:\n{lines}"


def _answer_open(q: Answer) -> str:
    act = q.act
    if act is None or not act.follow_up:
        return ""
    about = ", ".join(x for x in (act.person, act.place, act.intent, act.event) if x)
    return f"This follows up on the earlier questions (about {about or act.aspect.value})."


def _utter_parse(data: dict[str, Any], q: Utter) -> Utterance:
    say = text_field(data, "say", 400)
    news = text_field(data, "news", 200, True)
    return Utterance(q.ctx.persona.name, say, want(data, "end", bool), news)


UTTER = Spec(
    Utter,
    "utter",
    "utter.txt",
    _utter_view,
    lambda q: titled("utter", obj(say=text(1, 400), end=BOOL, news=text(0, 200))),
    _utter_parse,
    max_tokens=200,
)


def _pair(q: Converse) -> tuple[str, str]:
    return q.ctx_a.persona.name, q.ctx_b.persona.name


def _converse_view(q: Converse) -> dict[str, str]:
    ca, cb = q.ctx_a, q.ctx_b
    return {
        "a": ca.persona.name,
        "b": cb.persona.name,
        "time": ca.now.strftime("%A %H:%M"),
        "where": where(ca),
        "summary_a": ca.summary,
        "memories_a": memory_lines(ca.memories, 140),
        "summary_b": cb.summary,
        "memories_b": memory_lines(cb.memories, 140),
        "max_turns": str(q.max_turns),
    }


def _converse_parse(data: dict[str, Any], q: Converse) -> Talk:
    names = _pair(q)
    lines = []
    for entry in items(data, "lines", 2, 4 * q.max_turns)[: q.max_turns]:
        speaker = one_of(want(entry, "speaker", str), names, "speakers")
        say = text_field(entry, "say", 400)
        lines.append(Utterance(speaker, say, False, text_field(entry, "news", 200, True)))
    if lines[0].speaker != names[0]:
        raise Invalid(f"{names[0]} speaks first")
    scores = (ranged(data, "importance_a", 1, 10), ranged(data, "importance_b", 1, 10))
    return Talk((*lines[:-1], replace(lines[-1], end=True)), scores)


def _scripted_turns(s: ScriptedBrain, q: Converse) -> Talk:
    """The scripted brain's turn-by-turn conversation, each side from its own context."""
    speaker, listener = q.ctx_a, q.ctx_b
    history: list[Utterance] = []
    for _ in range(q.max_turns):
        line = s.ask(Utter(speaker, listener.persona.name, tuple(history)))
        history.append(replace(line, speaker=speaker.persona.name))
        if line.end or not line.text.strip():
            break
        speaker, listener = listener, speaker
    return Talk(tuple(history))


CONVERSE = Spec(
    Converse,
    "converse",
    "converse.txt",
    _converse_view,
    lambda q: titled(
        "converse",
        obj(
            lines=arr(
                obj(speaker=enum(_pair(q)), say=text(1, 400), news=text(0, 200)),
                2,
                4 * q.max_turns,
            ),
            importance_a=SCORE,
            importance_b=SCORE,
        ),
    ),
    _converse_parse,
    _scripted_turns,
    max_tokens=900,
)


# -- reflection and summaries ---------------------------------------------------------------


def _questions_parse(data: dict[str, Any], q: ReflectQuestions) -> tuple[str, ...]:
    out = []
    for i, text in enumerate(want(data, "questions", list)):
        out.append(text_field({f"questions[{i}]": text}, f"questions[{i}]", 200))
    if not 1 <= len(out) <= 5:
        raise Invalid(f"give 3 questions, not {len(out)}")
    if len({" ".join(t.lower().split()) for t in out}) != len(out):
        raise Invalid("the questions must be different from each other")
    if any(sense.copies(t, ex.reflect_example(q.persona)[0]) for t in out):
        raise Invalid("a question copies the example; ask about these memories instead")
    return tuple(out[:3])


REFLECT_QUESTIONS = Spec(
    ReflectQuestions,
    "reflect_questions",
    "reflect_questions.txt",
    lambda q: {
        "persona": persona_line(q.persona),
        "name": q.persona.name,
        "memories": memory_lines(q.recent, 120),
        "example": ex.reflect_example(q.persona)[1],
    },
    lambda q: titled("reflect_questions", obj(questions=arr(text(10, 200), 3, 3))),
    _questions_parse,
    max_tokens=200,
)


def _insights_parse(data: dict[str, Any], q: Insights) -> tuple[Insight, ...]:
    n = len(q.memories)
    out = []
    for entry in items(data, "insights", 1, 5):
        cited = want(entry, "because", list)
        numbers = [ranged({"because": c}, "because", 1, max(1, n)) for c in cited]
        if not numbers:
            raise Invalid("every insight must cite at least one statement number")
        insight = text_field(entry, "insight", 240)
        if len(insight.split()) < 3:
            raise Invalid(f"'insight' must be a sentence, not {insight!r}")
        out.append(Insight(insight, tuple(c - 1 for c in numbers)))
    return tuple(out)


INSIGHTS = Spec(
    Insights,
    "insights",
    "insights.txt",
    lambda q: {
        "persona": persona_line(q.persona),
        "name": q.persona.name,
        "question": q.question,
        "memories": numbered([m.text for m in q.memories]),  # cited by number: all kept
    },
    lambda q: titled(
        "insights",
        obj(
            insights=arr(
                obj(
                    insight=text(10, 240),
                    because=arr(integer(1, max(1, len(q.memories))), 1, 5),
                ),
                1,
                5,
            )
        ),
    ),
    _insights_parse,
    max_tokens=500,
)


def _summary_parse(data: dict[str, Any], q: Summarize) -> str:
    """The summary opens every later prompt: it must name the resident and be about them."""
    summary = text_field(data, "summary", 600)
    names = q.persona.name.lower().split()
    if not any(n in summary.lower() for n in names):
        raise Invalid(f"the summary must be about {q.persona.name} and name them")
    if len(summary.split()) < 4:
        raise Invalid("the summary must be at least a sentence")
    if sense.copies(summary, ex.summary_example(q.persona, q.topic)[0]):
        raise Invalid(f"the summary copies the example; summarize {q.topic} instead")
    if sense.echoes(summary, q.topic):
        raise Invalid("the summary only repeats its topic; say what the memories show")
    borrowed = sense.borrowed_occupation(summary, q.persona)
    if borrowed:
        raise Invalid(borrowed)
    places = _persona_places(q.persona, q.memories)
    problem = sense.event_problems(summary, q.memories, places, q.persona.name)
    if problem:
        raise Invalid(problem)
    return summary


def _persona_places(p: Resident, memories: Sequence[MemoryRecord] = ()) -> list[str]:
    """The places a resident's own facts name: known places, home, work, events."""
    events = [m.fact.event.place for m in memories if m.fact.event is not None]
    named = [*p.known_places, p.home, p.workplace or "", *events]
    return list(dict.fromkeys(x.split(":")[0] for x in named if x))


SUMMARIZE = Spec(
    Summarize,
    "summarize",
    "summarize.txt",
    lambda q: {
        "name": q.persona.name,
        "topic": q.topic,
        "memories": memory_lines(q.memories, 140),
        "example": ex.summary_example(q.persona, q.topic)[1],
    },
    lambda q: titled("summarize", obj(summary=text(20, 600))),
    lambda d, q: _summary_parse(d, q),
    max_tokens=200,
)


def _answer_parse(data: dict[str, Any], q: Answer) -> str:
    """An answer must answer: not repeat the question, not copy the example, and not give
    an event a host, place or time that the resident's memories contradict."""
    said = text_field(data, "answer", 1200)
    if sense.echoes(said, q.question):
        raise Invalid("the answer repeats the question instead of answering it")
    aspect = q.act.aspect if q.act is not None else None
    example = ex.answer_example(q.ctx.persona, q.question, aspect)[0]
    if sense.copies(said, example.answer) and not example.answers_question(aspect):
        raise Invalid("the answer copies the example; answer the question that was asked")
    me = q.ctx.persona.name
    places = [*_persona_places(q.ctx.persona, q.ctx.memories), *(a.name for a in q.ctx.sectors)]
    problem = sense.event_problems(said, q.ctx.memories, places, me, me, q.ctx.now.date())
    if problem:
        raise Invalid(problem)
    return said


# An interview answer the model could not give is the scripted brain's, and says so
# wherever it is shown (interview output, the player's panel, the evaluation's rows): an
# interview leaves no memory, so the mark never reaches a prompt.
FALLBACK_MARK = "[scripted fallback: the model gave no usable answer]"

ANSWER = Spec(
    Answer,
    "answer",
    "answer.txt",
    lambda q: {
        "summary": q.ctx.summary,
        "time": q.ctx.now.strftime("%A %B %d, %H:%M"),
        "name": q.ctx.persona.name,
        "status": q.ctx.status or "idle",
        "memories": memory_lines(q.ctx.memories, 200),
        "question": quoted(q.question),
        "earlier": _earlier(q),
        "open": _answer_open(q),
        "example": ex.answer_example(
            q.ctx.persona, q.question, q.act.aspect if q.act is not None else None
        )[1],
    },
    lambda q: titled("answer", obj(answer=text(1, 1200))),
    lambda d, q: _answer_parse(d, q),
    lambda s, q: f"{FALLBACK_MARK} {s.ask(q)}",
    max_tokens=400,
)


def _judge_parse(data: dict[str, Any], q: JudgeAnswer) -> bool:
    return bool(want(data, "carries", bool))


JUDGE = Spec(
    JudgeAnswer,
    "judge",
    "judge.txt",
    lambda q: {
        "question": q.question,
        "answer": _clip(q.answer, 1200),
        "speaker": q.resident,
        "fact": q.fact,
        "rubric": "\n".join(f"- {p.what}" for p in q.rubric.parts),
    },
    lambda q: titled("judge", obj(carries=BOOL)),
    _judge_parse,
    simple=True,
    max_tokens=40,
)


def _rank_parse(data: dict[str, Any], q: RankAnswers) -> tuple[int, ...]:
    """Every label exactly once: an ordering, not a pick of favourites."""
    order = want(data, "order", list)
    labels = q.labels
    if any(not isinstance(x, str) or x.strip() not in labels for x in order):
        raise Invalid(f"'order' may hold only the labels {', '.join(labels)}")
    picked = [labels.index(x.strip()) for x in order]
    if len(set(picked)) != len(picked) or len(picked) != len(labels):
        raise Invalid(f"'order' must hold each of {', '.join(labels)} exactly once")
    return tuple(picked)


def _labelled(q: RankAnswers) -> str:
    """One line per answer: its label and its words, quoted (an answer is data)."""
    pairs = zip(q.labels, q.answers, strict=True)
    return "\n".join(f"{label}. {quoted(_clip(a, 800))}" for label, a in pairs)


RANK = Spec(
    RankAnswers,
    "rank",
    "rank.txt",
    lambda q: {
        "persona": persona_line(q.persona),
        "name": q.persona.name,
        "question": quoted(_clip(q.question, 400)),
        "answers": _labelled(q),
        "labels": ", ".join(q.labels),
    },
    lambda q: titled("rank", obj(order=arr(enum(q.labels), len(q.labels), len(q.labels)))),
    _rank_parse,
    # No scripted stand-in: a ranking the model did not give is no verdict, never a guess.
    fallback=lambda s, q: (),
    max_tokens=60,
)

ALL: tuple[Spec, ...] = (
    IMPORTANCE,
    PLAN_DAY,
    DECOMPOSE_HOURS,
    DECOMPOSE_STEPS,
    CHOOSE_SECTOR,
    CHOOSE_SPOT,
    ACTION_DETAILS,
    EMOJI,
    REACT,
    UTTER,
    CONVERSE,
    REFLECT_QUESTIONS,
    INSIGHTS,
    SUMMARIZE,
    ANSWER,
    JUDGE,
    RANK,
)
SPECS: Mapping[type[Question[Any]], Spec] = {s.kind: s for s in ALL}
