"""Word tables: how poignant a memory is, which emoji an action shows and what an object's
state becomes.

Each table is ordered data read top to bottom, so tuning is editing a line. Troubles (a
burning stove, a leaking shower) are the town's table (game.world.troubles): everything
about fixing one lives in its entry, and the emoji and object-state rules read it there.
"""

from __future__ import annotations

from functools import lru_cache

from game.core.records import Fact, FactKind
from game.world.scenario import Resident
from game.world.troubles import fix_of, trouble

from .util import content_words, has_any

# (score, keys): a memory scores the highest rule it matches. Keys match word starts.
IMPORTANCE_RULES: tuple[tuple[int, tuple[str, ...]], ...] = (
    (10, ("break ?up", "broke up", "divorc", "propos", "engaged", "died", "death", "dead\\b",
          "passed away", "funeral", "accepted (?:into|to)", "acceptance", "got married",
          "pregnan")),
    (9, ("fire", "on fire", "burning", "emergenc", "flood", "accident", "injur",
         "ambulance", "robbe", "stolen")),
    (8, ("crush", "ask\\w* .{0,30}\\bout\\b", "a date\\b", "in love", "confess", "kiss",
         "secret", "leaking", "broken", "fired from", "lost (?:his|her|their) job",
         "promot")),
    (7, ("party", "election", "mayor", "campaign", "invit", "wedding", "celebrat",
         "running for", "candida")),
    (6, ("exhibition", "show\\b", "concert", "festival", "grand opening", "podcast",
         "announc", "vote", "voting", "hosting", "first show")),
    (5, ("argu", "disagree", "debat", "advice", "worried", "excited", "heard", "told",
         "help", "gossip")),
    (4, ("chat", "conversation", "talk", "met\\b", "meet", "friend", "visit", "said",
         "greet")),
    (3, ("class", "teach", "lectur", "work", "stud", "research", "writ", "paint", "compos",
         "customer", "serving", "shopping", "coding", "code", "practis", "practic",
         "rehears", "photograph", "stream", "thesis", "proof", "exercis", "run", "train")),
    (2, ("eat", "lunch", "dinner", "breakfast", "clean", "tidy", "walk", "read", "coffee",
         "television", "tv\\b", "relax", "cook", "dishes", "garden", "sitting")),
    (1, ("sleep", "slept", "idle", "brush", "teeth", "nap", "toilet", "shower",
         "getting dressed", "making the bed", "bed\\b")),
)  # fmt: skip
IMPORTANCE_DEFAULT = 2
PUBLIC_NEWS = 7  # a public intent of the scenario, told or heard: the table's news level
EVERYDAY_MIN, EVERYDAY_MAX = 2, 4  # everyday doings scored in this range count a point less
IMPORTANCE_SELF_DEFAULT = 3  # a seed fact about oneself ('Isabella is the owner of ...')
IMPORTANCE_CHAT_DEFAULT = 4  # any conversation matters a little
# Interests that make related news matter more to someone: interest word -> news words.
INTEREST_TOPICS: dict[str, tuple[str, ...]] = {
    "politics": ("mayor", "election", "campaign", "vote", "council"),
    "community": ("party", "celebrat", "festival", "neighbour"),
    "art": ("exhibition", "show", "paint", "gallery"),
    "music": ("concert", "piano", "song"),
}

# (keys, emoji): the first two rules that match give the bubble (one or two symbols). Fixing
# a trouble shows the trouble's own emoji first (see game.world.troubles).
EMOJI_RULES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("sleep", "nap\\b", "asleep", "going to bed"), "😴"),
    (("waking up", "alarm"), "⏰"),
    (("party", "celebrat", "decorat"), "🎉"),
    (("campaign", "canvass", "mayor", "election", "vote"), "🗳️"),
    (("shower", "bath"), "🚿"),
    (("brush", "teeth"), "🪥"),
    (("getting dressed", "dress"), "👕"),
    (("espresso", "coffee", "latte", "tea\\b"), "☕"),
    (("beer", "pub\\b", "bar\\b", "a drink\\b", "drinks\\b", "pint", "cocktail"), "🍺"),
    (("pharmacy", "medicine", "prescription"), "💊"),
    (("cook", "breakfast", "fry", "stove", "bak"), "🍳"),
    (("lunch", "dinner", "eat", "meal", "snack", "pastr", "supper"), "🍽️"),
    (("grocer", "shopping", "buying", "restock", "cashier", "store\\b", "market"), "🛒"),
    (("customer", "orders", "counter", "till\\b", "sale\\b", "serving"), "🧾"),
    (("stream",), "🎮"),
    (("piano", "keyboard", "compos", "music", "scales", "song"), "🎹"),
    (("paint", "watercolo", "easel", "canvas", "sketch"), "🎨"),
    (("animat", "drawing", "draw"), "✏️"),
    (("photo", "camera"), "📷"),
    (("code", "coding", "app\\b", "bug", "program", "software"), "💻"),
    (("tax", "legal", "client", "filing", "case"), "⚖️"),
    (("teach", "lectur", "grading", "workshop", "blackboard"), "🧑‍🏫"),
    (("stud", "research", "homework", "thesis", "notes", "class", "proof", "equation"), "📚"),
    (("writ", "poem", "novel", "manuscript", "outlin", "draft"), "✍️"),
    (("read", "book"), "📖"),
    (("rehears", "improv", "joke", "monologue", "comedy", "perform", "verses"), "🎭"),
    (
        (
            "run\\b",
            "running\\b(?! the| a )",
            "jog",
            "train",
            "exercising",
            "workout",
            "stretch",
            "sprint",
            "lap\\b",
            "push-ups",
        ),
        "🏃",
    ),
    (("walk", "stroll"), "🚶"),
    (("garden", "plant", "weed", "water the"), "🌱"),
    (("clean", "tidy", "wip", "wash", "dishes", "laundry", "sweep"), "🧹"),
    (("television", "tv\\b", "movie", "news"), "📺"),
    (("chat", "talk", "convers", "greet", "visit", "hanging out", "gossip"), "💬"),
    (("relax", "rest", "winding down", "unwind", "sofa"), "🛋️"),
    (("account", "ordering", "paperwork", "email", "bills", "planning"), "📋"),
    (("jotting", "crossing out", "right word", "to-do list", "plans for the day"), "📝"),
    (("working through a problem", "summaris", "reference", "underlining"), "📚"),
    (("mixing colours",), "🎨"),
    (("making the bed", "setting the table", "clearing the table", "putting things away"), "🧹"),
    (("dusting", "rubbish", "pruning"), "🧹"),
    (("watching a show", "flipping through channels"), "📺"),
    (("paying the bill", "takings", "comparing prices", "shopkeeper", "what is needed"), "🧾"),
    (("deliveries", "stock list", "supplier", "locking up", "along the shelves"), "📦"),
    (("window", "people go by", "birds", "pond", "bench"), "🌳"),
    (("phone", "messages", "magazine"), "📱"),
    (("second helping", "ingredients", "chopping", "oven"), "🍽️"),
    (("practising a new bit", "timing", "funny story", "audience"), "🎭"),
    (("listening to a friend", "laughing together"), "💬"),
    (("tests\\b",), "💻"),
    (("humming", "melody", "harmony", "recording"), "🎵"),
    (("shots", "light\\b", "picture", "framing"), "📷"),
    (("pool\\b",), "🎱"),
    (("catching breath",), "😅"),
    (("stirring", "seasoning", "plating", "vegetables", "food order"), "🍳"),
    (("glasses", "tab\\b"), "🍺"),
    (("unlocking", "closing up"), "🔑"),
    (("pyjamas",), "😴"),
    (("come and go",), "🌳"),
)
EMOJI_DEFAULT = "🙂"
EMOJI_MAX = 2

# (object keys, action keys, state): the first matching rule gives the object's state.
# Empty action keys match any action. Fixing a trouble comes first (game.world.troubles).
OBJECT_STATE_RULES: tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...] = (
    (("coffee machine",), ("espresso", "coffee", "latte", "cappuccino", "brew"), "brewing coffee"),
    (("coffee machine",), ("clean", "wip"), "being cleaned"),
    (("stove",), ("cook", "breakfast", "lunch", "dinner", "fry", "boil", "bak", "stir"), "cooking"),
    (("stove",), ("clean", "wip"), "being cleaned"),
    (("bed",), ("sleep", "nap", "asleep"), "being slept in"),
    (("bed",), ("making the bed",), "made"),
    (("shower",), (), "running water"),
    (("sink",), ("wash", "brush", "dishes", "rins", "fill"), "running water"),
    (("toilet",), (), "occupied"),
    (("refrigerator",), (), "open"),
    (("piano", "music keyboard"), (), "being played"),
    (("television",), ("football", "game", "match", "sport"), "showing a football match"),
    (("television",), ("movie", "film"), "showing a movie"),
    (("television",), (), "showing the news"),
    (("jukebox",), (), "playing music"),
    (("pool table",), (), "in a game of pool"),
    (("streaming setup",), (), "streaming live"),
    (("easel",), (), "holding a painting in progress"),
    (("bar counter",), ("pour", "serv", "drink", "beer", "tend"), "serving drinks"),
    (("cafe counter",), ("serv", "pastr", "order", "customer"), "serving customers"),
    (("pharmacy counter",), (), "filling a prescription"),
    (("blackboard",), (), "covered in notes"),
    (("house garden", "park garden"), ("water", "weed", "plant", "tend"), "being tended"),
)
OBJECT_STATE_DEFAULT = "in use"


def importance(persona: Resident, text: str, fact: Fact) -> int:
    """Poignancy 1..10 of one memory for this persona: its words by the keyword table,
    its shape (someone's everyday doing, a conversation) by its fields, and a public
    intent of the scenario (`fact.intent`, not private) stated or heard is news whatever
    its words: 'Jane is looking for volunteers to repaint the benches' rated 5 by 'help'
    and was neither passed on nor recalled as news, while the election rated 7 by 'mayor'."""
    score = _table_score(text)
    if fact.intent and not fact.private and fact.kind in (FactKind.CLAIM, FactKind.STATEMENT):
        score = max(score, PUBLIC_NEWS)
    seen = trouble(fact.state) if fact.kind is FactKind.OBJECT_STATE else None
    score = max(score, seen.importance if seen is not None else 0)
    if score == 0:
        score = _default_importance(persona, fact)
    score = _everyday(persona, fact, score)
    if score >= 2 and _touches_interest(persona, text):
        score += 1
    return max(1, min(10, score))


@lru_cache(maxsize=8192)
def _table_score(text: str) -> int:
    """The highest score of a rule the text matches (0: none): the table runs from the
    highest score down, so the first rule matched is the highest. Kept for the next call:
    a town remembers the same doings over and over ('Maria Lopez is eating lunch')."""
    return next((s for s, keys in IMPORTANCE_RULES if has_any(text, keys)), 0)


def _everyday(persona: Resident, fact: Fact, score: int) -> int:
    """A moment of someone's ordinary day ('Maria Lopez is studying at the desk', 'the stove
    ... is cooking') is worth a point less; one's own never drops below 2."""
    if not EVERYDAY_MIN <= score <= EVERYDAY_MAX:
        return score
    if fact.kind is FactKind.DOING and fact.subject == persona.name:
        return max(2, score - 1)
    if fact.kind in (FactKind.DOING, FactKind.OBJECT_STATE):
        return score - 1
    return score


def _default_importance(persona: Resident, fact: Fact) -> int:
    if fact.kind in (FactKind.CLAIM, FactKind.CONVERSATION):
        return IMPORTANCE_CHAT_DEFAULT
    if fact.subject == persona.name:
        return IMPORTANCE_SELF_DEFAULT
    return IMPORTANCE_DEFAULT


def _touches_interest(persona: Resident, text: str) -> bool:
    """News on a topic the persona cares about (local politics -> the mayor's race)."""
    return any(has_any(text, keys) for keys in _interest_keys(persona.interests))


@lru_cache(maxsize=1024)
def _interest_keys(interests: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The news words of each interest's words, read once a persona, not once a memory."""
    return tuple(INTEREST_TOPICS.get(w, ()) for i in interests for w in content_words(i))


def emoji(action: str) -> str:
    fixing = fix_of(action)
    found: list[str] = [fixing.emoji] if fixing else []
    for symbol in _table_emojis(action):
        if symbol not in found:
            found.append(symbol)
            if len(found) == EMOJI_MAX:
                break
    return "".join(found) or EMOJI_DEFAULT


@lru_cache(maxsize=4096)
def _table_emojis(action: str) -> tuple[str, ...]:
    """Every symbol of the table the action matches, in table order, once each. Kept for
    the next call: the same actions come back all day (the fix, from the troubles' table
    that a test may extend, is asked afresh each time)."""
    return tuple(dict.fromkeys(symbol for keys, symbol in EMOJI_RULES if has_any(action, keys)))


def object_state(action: str, obj: str, old_state: str) -> str:
    """The object's state while someone does `action` with it."""
    name = obj.split(":")[-1]
    fixing = fix_of(action)
    if fixing is not None and action.startswith(fixing.fix(name)):
        return fixing.fixed
    for obj_keys, action_keys, state in OBJECT_STATE_RULES:
        if obj_keys and not has_any(name, obj_keys):
            continue
        if not action_keys or has_any(action, action_keys):
            return state
    return OBJECT_STATE_DEFAULT
