"""How a line of talk is said: replies run on into what follows, now and then a line opens
with a spoken marker ('Well, ...'), a last line asks nothing, and no line runs past
LINE_LIMIT.
"""

from __future__ import annotations

import re

from .util import chance, pick

LINE_LIMIT = 200


def without_questions(text: str) -> str:
    """A last line asks nothing: nobody would be left to answer. Trailing questions go;
    words quoted inside the news stay as they were said."""
    parts = re.split(r"(?<=[.!?])\s+|(?<=[.!?][\"\u201d])\s+", text.strip())
    while len(parts) > 1 and parts[-1].endswith("?"):
        parts.pop()
    if parts[-1].endswith("?"):
        said, _, asked = parts[-1].rpartition("; ")  # 'X is hosting ...; are you going?'
        parts[-1] = (said if said else asked.rstrip("?")) + "."
    return " ".join(parts)


_SOFT = (
    "have did do is are apparently guess so word there's someone according oh yes just well "
    "any the what it's lovely good nice hello hi hey right anyway take catch enjoy weren't "
    "how there tell will can"
)
SOFT_STARTS = frozenset(_SOFT.split())


MARKERS = ("Well, ", "Oh, ", "So, ", "You know, ", "Honestly, ", "Mind you, ", "Say, ", "Now, ")
MARKED = 0.45  # the share of lines that open with a spoken marker


def coloured(text: str, *key: object) -> str:
    """Now and then a line opens as speech does ('Well, ...', 'You know, ...'), by a
    stable hash of the speaker, the listener and the turn."""
    first = text.split()[0].strip(",?.!") if text.split() else ""
    if chance(*key, "marker") >= MARKED or first.lower() in ("well", "oh", "so", "ha", "right"):
        return text
    if first.lower() in ("yes", "no", "not", "maybe", "sure"):
        return text  # an answer's yes or no comes first
    if first.lower() not in SOFT_STARTS and first != "I" and not first.startswith("I'"):
        return text  # a name, or a word a marker would read oddly before
    return pick(MARKERS, *key) + lower_first(text)


def joined(reply: str, content: str) -> str:
    """A short reply runs on into what follows ('Not bad, thanks; have you heard ...'), as
    people say it, instead of standing as a stock sentence of its own."""
    reply, content = reply.strip(), content.strip()
    if not reply or not content:
        return reply or content
    first = content.split()[0].strip(",?.!").lower()
    if len(reply.split()) <= 5 and reply.endswith(".") and first in SOFT_STARTS:
        return f"{reply[:-1]}; {lower_first(content)}"
    return f"{reply} {content}"


def lower_first(text: str) -> str:
    """A sentence's first letter made small to run on after a comma; 'I' stays 'I'."""
    first = text.split()[0] if text.split() else ""
    if first == "I" or first.startswith(("I'", "I’")):
        return text
    return text[:1].lower() + text[1:]


def sentence_of(text: str) -> str:
    return f"{text[:1].upper()}{text[1:]}."
