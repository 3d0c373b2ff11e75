"""A person described rather than named: 'the woman who owns Hobbs Cafe', 'the guy who runs
the pub'. The listener resolves the description as a townsperson would, from whom it
knows to work at the place the line names (its relations and those who introduced
themselves: `interview.known_people`), and answers about that person.
"""

from __future__ import annotations

import re
from dataclasses import replace

from game.brains.dialogue.acts import Act, Aspect
from game.brains.questions import AgentContext

from .. import interview as iv

# a word for a person, which with a place makes a description of someone there
_PERSON_NOUN = re.compile(
    r"\b(?:woman|man|guy|lady|gentleman|bloke|chap|fellow|fella|gal|girl|boy|person|owner|"
    r"proprietor|manager|boss|landlord|landlady)\b",
    re.I,
)
# ... and of one in charge, which picks the owner among the staff
_IN_CHARGE = re.compile(r"\b(?:owns?|owner|runs?|running|manag\w*|boss|proprietor|landl\w+)\b",
                        re.I)  # fmt: skip


def described(ctx: AgentContext, act: Act) -> Act:
    """`act` asked of the one person its description picks out at its place, if one does;
    else as it was."""
    if not act.asks or act.person or not act.place or not _PERSON_NOUN.search(act.text):
        return act
    me = ctx.persona
    staff = [(k.name, k.occupation) for k in iv.known_people(ctx) if k.workplace == act.place]
    if me.workplace == act.place:
        staff.append((me.name, me.occupation))
    if _IN_CHARGE.search(act.text):
        staff = [s for s in staff if _IN_CHARGE.search(s[1])] or staff
    if len(staff) != 1:
        return act
    return replace(act, person=staff[0][0], place="", label="person.about", aspect=Aspect.PERSON)
