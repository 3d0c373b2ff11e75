"""Turning the persona's third-person memories into its own first-person words.

Seeds and relationships are written about the persona ('Klaus is writing a paper', 'a man
he does not like'); when the persona speaks of them they become 'I'm writing a paper' and
'a man I do not like'.
"""

from __future__ import annotations

import re

from game.world.scenario import Resident

from .util import first_name, pronouns

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
    poss = pronouns(persona)[2]
    if poss != "their":
        rest = re.sub(rf"\b{poss}\b", "my", rest)
    verb, _, tail = rest.partition(" ")
    head = {"is": "I'm", "has": "I have", "was": "I was", "does": "I do"}.get(verb)
    if head is None:
        head = "I " + (verb[:-3] + "y" if verb.endswith("ies") else verb.removesuffix("s"))
    return f"{head} {tail}".replace(" and is ", " and am ").strip()


def mine(text: str, me: Resident) -> str:
    """'writing his research paper' said by Klaus: 'writing my research paper'."""
    poss = pronouns(me)[2]
    return re.sub(rf"\b{poss}\b", "my", text) if poss != "their" else text


def relation_in_first_person(relation: str, persona: Resident) -> str:
    """'a man he does not like' -> 'a man I don't like' (the persona's own words)."""
    subj, obj, poss = pronouns(persona)
    text = relation
    if subj != "they":
        text = re.sub(rf"\b{subj}\b", "I", text)
        text = re.sub(rf"\b{poss}\b", "my", text)
        text = re.sub(rf"\b{obj}\b(?! I)", "me", text) if obj != poss else text
    text = re.sub(
        r"\bI((?: (?:often|sometimes|always|also|really|usually))*) (\w+)", _fix_verb, text
    )
    return text.replace("I does not", "I don't").replace(" but has ", " but have ")


def _fix_verb(m: re.Match[str]) -> str:
    verb = m.group(2)
    fixed = {"is": "am", "has": "have", "does": "do", "was": "was"}.get(verb)
    if fixed is None:
        if verb.endswith(("shes", "ches", "sses", "xes")):
            fixed = verb[:-2]
        elif verb.endswith("s") and not verb.endswith("ss"):
            fixed = verb[:-1]
        else:
            fixed = verb
    return f"I{m.group(1)} {fixed}"
