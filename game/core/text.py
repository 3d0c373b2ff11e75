"""Text from outside cleaned at the boundary: model answers, endpoint error messages and
what a person types, before any of it is stored, shown or printed.

Control characters (NUL, ESC and its terminal sequences), bidirectional overrides and
zero-width characters carry no meaning a resident could use, but they can crash a font
renderer, repaint a terminal, or make a memory read differently from what it holds.
Newlines and tabs survive (`single_line` folds them for one-line messages).
"""

from __future__ import annotations

import base64
import json
import re
from urllib.parse import unquote, urlsplit

# ESC [ ... final byte (CSI), ESC ] ... BEL/ST (OSC), and any other ESC + one character.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?|\x9b")
# Bidirectional marks, embeddings, overrides and isolates; zero-width characters; BOM.
_INVISIBLE = re.compile(
    "[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)
# Control characters (Unicode category Cc) but newline and tab, and lone surrogates.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def clean(text: str) -> str:
    """`text` without escape sequences, controls (except newline and tab), bidi and
    zero-width characters, or unpaired surrogates. Never raises on a str."""
    if not isinstance(text, str):
        text = str(text)
    text = _ESCAPES.sub("", text)
    return _CONTROLS.sub("", _INVISIBLE.sub("", text))


def single_line(text: str, limit: int = 300) -> str:
    """Cleaned, on one line, at most `limit` characters: for notices and error lines."""
    out = " ".join(clean(text).split())
    return out if len(out) <= limit else out[: limit - 3] + "..."


def clean_tree(value: object) -> object:
    """Every string in a parsed JSON value cleaned (keys too)."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        return {clean(str(k)): clean_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean_tree(v) for v in value]
    return value


# Phrases that name one of a kind take "the" ("the owner of Hobbs Cafe"); words spelt
# with a vowel but said with a consonant take "a", and the other way round.
_DEFINITE = ("owner ", "head ")
_ALREADY = ("a ", "an ", "the ")
_SAID_CONSONANT = ("uni", "use", "usu", "eu", "one ", "once")
_SAID_VOWEL = ("hour", "honest", "honou", "heir")


def with_article(phrase: str) -> str:
    """A role as a sentence says it: 'a photographer', 'an artist', 'the owner of Hobbs
    Cafe', so that "Latoya Williams is a photographer."; a phrase that has its article
    already is left as it is."""
    text = " ".join(phrase.split())
    low = text.lower()
    if not text or low.startswith(_ALREADY):
        return text
    if low.startswith(_DEFINITE):
        return f"the {text}"
    vowel = low[0] in "aeiou"
    if low.startswith(_SAID_CONSONANT):
        vowel = False
    elif low.startswith(_SAID_VOWEL):
        vowel = True
    return f"{'an' if vowel else 'a'} {text}"


def quoted(text: str) -> str:
    """`text` as quoted data: in double quotes, with quotes, backslashes and line breaks
    escaped, so nothing inside can end the quotation it sits in."""
    return json.dumps(clean(text), ensure_ascii=False)


# The user:password part of any URL in a text: never worth keeping, always worth hiding.
USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@?#]*@")


def public_url(url: str) -> str:
    """A URL fit to show or store: without its user:password part."""
    return USERINFO.sub(lambda m: m.group(1), url or "")


def url_secrets(url: str) -> list[str]:
    """The password (and user name) inside a URL, as secrets to redact elsewhere."""
    try:
        parts = urlsplit(url or "")
        user, password = unquote(parts.username or ""), unquote(parts.password or "")
    except ValueError:
        return []
    # the HTTP client sends them as Basic auth: an endpoint may echo that header back
    basic = base64.b64encode(f"{user}:{password}".encode()).decode() if password else ""
    found = [parts.password or "", password, basic, basic.rstrip("=")]
    return [s for s in found if len(s) >= 4]


def json_depth(value: object, limit: int) -> int:
    """How deeply containers nest (counted up to limit + 1), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        node, level = todo.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            deepest = max(deepest, level)
            if level <= limit:
                todo.extend((child, level + 1) for child in node)
    return deepest


def bounded_loads(text: str, max_depth: int = 64) -> object:
    """json.loads that raises ValueError, never RecursionError, for a hostile document."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if json_depth(value, max_depth) > max_depth:
        raise ValueError(f"nested more than {max_depth} levels deep")
    return value
