"""Turning the persona's third-person memories into its own first-person words.

Seeds and relationships are written about the persona ('Klaus is writing a paper', 'a man
he does not like'); when the persona speaks of them they become 'I'm writing a paper' and
'a man I do not like'.
"""

from __future__ import annotations

import re

from game.world.scenario import Resident

from .util import article, first_name, pronouns

PROJECT_KEYS = (
    "working on", "writing", "preparing", "building", "getting ready", "planning", "hopes",
    "dreams", "researching", "drawing", "painting", "wants", "practis", "training",
)  # fmt: skip


def first_person(fact: str, persona: Resident) -> str:
    """'Isabella Rodriguez is hosting a party' -> 'I'm hosting a party' for Isabella."""
    names = (persona.name, first_name(persona.name))
    rest = next((fact[len(n) + 1 :] for n in names if fact.startswith(n + " ")), None)
    if rest is None:
        return fact
    rest = subject_as_me(mine(rest, persona), persona)
    verb, _, tail = rest.partition(" ")
    head = {"is": "I'm", "has": "I have", "was": "I was", "does": "I do"}.get(verb)
    if head is None:
        head = "I " + (verb[:-3] + "y" if verb.endswith("ies") else verb.removesuffix("s"))
    return f"{head} {tail}".replace(" and is ", " and am ").strip()


def my_occupation(me: Resident) -> str:
    """'a software engineer building my own app': one's occupation with an article, in
    one's own words (the scenario writes it of the persona: 'building his own app')."""
    return article(subject_as_me(mine(me.occupation, me), me))


def subject_as_me(text: str, me: Resident) -> str:
    """'as many people as he can' said by Arthur: 'as many people as I can'; 'makes him
    smile' 'makes me smile'; 'proud of herself' 'proud of myself'. A seed clause is about
    its persona, so a he or she of the persona's own pronoun in it is the persona; with
    'they' it may be anyone ('their own cups'), so it is left alone."""
    subj, obj, _ = pronouns(me)
    if subj == "they":
        return text
    text = re.sub(rf"\b{obj}self\b" if obj == "him" else r"\bherself\b", "myself", text)
    if obj == "him":
        text = re.sub(r"\bhim\b", "me", text)
    text = re.sub(rf"\b{subj}'s (been|got)\b", r"I've \1", text)
    text = re.sub(rf"\b{subj}'s\b", "I'm", text)
    if not re.search(rf"\b{subj}\b", text):
        return text
    text = re.sub(rf"\b{subj}\b", "I", text)
    return re.sub(rf"\bI({ADVERBS}*) (\w+)", _fix_verb, text)


ADVERBS = r"(?: (?:often|sometimes|always|also|really|usually|never|still|just))"


def mine(text: str, me: Resident) -> str:
    """'writing his research paper' said by Klaus: 'writing my research paper'. 'her' is
    also the object ('jokes make her laugh'): then it becomes 'me', told by the word after
    it (a verb, a particle, the end of the phrase)."""
    _, obj, poss = pronouns(me)
    if poss == "their":
        return text
    if obj != poss:
        return re.sub(rf"\b{poss}\b", "my", text)

    def own(m: re.Match[str]) -> str:
        after = (m.group(1) or "").lower()
        return "me" if not after or after in OBJECT_AFTER else "my"

    return re.sub(rf"\b{poss}\b(?=(?:\s+(\w+))?)", own, text)


# Words after which 'her' is the object, not the possessive ('make her laugh', 'tell her
# that', 'love her and'): a noun after it ('her paints') makes it 'my'.
OBJECT_AFTER = frozenset(
    (
        "laugh",
        "smile",
        "cry",
        "feel",
        "think",
        "happy",
        "sad",
        "welcome",
        "comfortable",
        "proud",
        "up",
        "out",
        "down",
        "off",
        "about",
        "and",
        "or",
        "but",
        "to",
        "at",
        "in",
        "on",
        "by",
        "with",
        "from",
        "for",
        "a",
        "an",
        "the",
        "that",
        "this",
        "what",
        "how",
        "why",
        "so",
        "too",
        "again",
        "back",
        "away",
    )  # fmt: skip
)


def relation_in_first_person(relation: str, persona: Resident) -> str:
    """'a man he does not like' -> 'a man I don't like' (the persona's own words)."""
    subj, obj, poss = pronouns(persona)
    text = re.sub(r"^(?:her|his|their) ", "my ", relation)  # 'her husband': the persona's own
    if subj != "they":
        text = re.sub(rf"\b{subj}\b", "I", text)
        text = re.sub(rf"\b{poss}\b", "my", text)
        text = re.sub(rf"\b{obj}\b(?! I)", "me", text) if obj != poss else text
    text = re.sub(rf"\bI({ADVERBS}*) (\w+)", _fix_verb, text)
    return text.replace("I does not", "I don't").replace(" but has ", " but have ")


def _fix_verb(m: re.Match[str]) -> str:
    verb = m.group(2)
    fixed = {"is": "am", "has": "have", "does": "do", "was": "was"}.get(verb)
    if fixed is None:
        if verb.endswith(("shes", "ches", "sses", "xes", "oes")):  # 'goes' -> 'go'
            fixed = verb[:-2]
        elif verb.endswith("ies") and len(verb) > 4:  # 'studies' -> 'study' ('dies' stays)
            fixed = verb[:-3] + "y"
        elif verb.endswith("s") and not verb.endswith("ss"):
            fixed = verb[:-1]
        else:
            fixed = verb
    return f"I{m.group(1)} {fixed}"
