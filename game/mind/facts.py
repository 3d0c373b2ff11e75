"""Memories as fields: how each kind of memory is made, and the one place its text is worded.

The architecture writes every memory through these constructors, so a memory's meaning
lives in its `Fact` (who, what, from whom, which plan item, which object and state, which
scenario intent) and its text is only a rendering for people and prompts. No layer reads
the text back to recover a field.

Whatever someone said is rendered as quoted data (`quoted`: in double quotes, escaped), in
a claim however many residents passed it on (with the chain of those who did) and in each
line of a remembered conversation: a prompt that shows the memory shows the words as
speech, never as its own text ('Giorgio Rossi said: ...' once carried a hostile line
unquoted into 151 prompts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from game.core.records import Event, Fact, FactKind, Line, PlanItem, Rsvp, Source, Utterance
from game.core.text import quoted
from game.world.describe import object_phrase
from game.world.scenario import Intent, Resident
from game.world.town import Town

LINE_LIMIT = 300  # characters of one remembered line of talk


# How a claim from outside is remembered once a neighbour passed it on: still quoted.
RELAYED_WORDS = {Source.VISITOR: "a visitor told them", Source.NOTICE: "a notice read"}
OUTSIDE = (Source.VISITOR, Source.NOTICE)  # claims from outside the town's residents
OUTSIDER = {Source.VISITOR: "a visitor", Source.NOTICE: "a notice"}
MAX_VIA = 8  # tellers a claim keeps in its chain: the first, and the latest after it
SHOWN_VIA = 3  # of them, named in its text (nearest first); the rest are counted


def render(fact: Fact, town: Town | None = None) -> str:
    """The memory's text, worded from its fields (the only place that words memories)."""
    kind = fact.kind
    if kind is FactKind.DOING:
        if fact.source is Source.VISITOR:
            return f"a visitor named {fact.subject} is {fact.object}"
        return f"{fact.subject} is {fact.object}"
    if kind is FactKind.OBJECT_STATE:
        name = object_phrase(town, fact.address) if town is not None else f"the {fact.address}"
        return f"{name} is {fact.state}"
    if kind is FactKind.CONVERSATION:
        said = " | ".join(f"{line.speaker}: {quoted(line.text)}" for line in fact.lines)
        return f"Conversation between {' and '.join(fact.participants)}: {said}"
    if kind is FactKind.CLAIM:
        return _claim_text(fact)
    if kind is FactKind.PLAN:
        return f"{fact.subject}'s plan for {day_label(fact.plan)}: " + "; ".join(
            plan_line(i) for i in fact.plan
        )
    return fact.object


def _claim_text(fact: Fact) -> str:
    """'Maria Lopez said: "..." (passed on from Latoya Williams, who had it from Sam
    Moore)': the words always quoted, and whom they came through."""
    words = quoted(fact.object)
    if fact.source is Source.VISITOR:
        return f"{fact.heard_from} (a visitor) said to {fact.subject}: {words}"
    if fact.origin in RELAYED_WORDS and not fact.via:
        return f"{fact.heard_from} said {RELAYED_WORDS[fact.origin]}: {words}"
    return f"{fact.heard_from} said: {words}{_chain_text(fact)}"


def _chain_text(fact: Fact) -> str:
    """' (passed on from A, who had it from B; it began with a visitor)', or ''."""
    nearest = list(reversed(fact.via))
    shown = ", who had it from ".join(nearest[:SHOWN_VIA])
    if len(nearest) > SHOWN_VIA:
        shown += f" and {len(nearest) - SHOWN_VIA} before them"
    began = f"it began with {OUTSIDER[fact.origin]}" if fact.origin in OUTSIDER else ""
    inside = "; ".join(p for p in (f"passed on from {shown}" if shown else "", began) if p)
    return f" ({inside})" if inside else ""


def day_label(items: Sequence[PlanItem]) -> str:
    return items[0].start.strftime("%A %B %d") if items else "the day"


def plan_line(item: PlanItem) -> str:
    """'09:00-12:00 working at the cafe': one broad item, as plans and the inspector show it."""
    return f"{item.start:%H:%M}-{item.end:%H:%M} {item.description}"


# -- what an agent does, and what it sees ---------------------------------------------------


def doing(
    name: str, action: str, source: Source, plan_item: str = "", intent: str = "",
    address: str = "",
) -> Fact:  # fmt: skip
    """'Maria Lopez is studying at the desk': one's own action, or someone seen doing it
    (`address`: where the one seen was, so who was at an event is read by field)."""
    return Fact(
        FactKind.DOING,
        source,
        subject=name,
        predicate="is",
        object=action,
        plan_item=plan_item,
        intent=intent,
        address=address,
    )


def object_state(address: str, state: str) -> Fact:
    """An object seen in a state ('the stove ... is burning')."""
    return Fact(
        FactKind.OBJECT_STATE,
        Source.SEEN,
        subject=address,
        predicate="is",
        object=state,
        address=address,
        state=state,
    )


# -- talk -----------------------------------------------------------------------------------


def conversation(holder: str, participants: tuple[str, str], lines: Sequence[Utterance]) -> Fact:
    """A whole conversation as the holder remembers it: with whom, and every line."""
    partner = participants[1] if holder == participants[0] else participants[0]
    kept = tuple(
        Line(u.speaker, u.text.strip()[:LINE_LIMIT], u.going, u.going_to, u.introduces)
        for u in lines if u.text.strip()
    )  # fmt: skip
    return Fact(
        FactKind.CONVERSATION,
        Source.HEARD,
        subject=partner,
        predicate="talked with",
        heard_from=partner,
        participants=participants,
        lines=kept,
    )


def claim(
    speaker: str,
    said: str,
    shared: Fact | None,
    intent: Intent | None = None,
    relayed: Fact | None = None,
) -> Fact:
    """'Sam Moore said: "Sam Moore is running for mayor"': news heard from another resident.

    `shared` is the news as the speaker knew it, in fields (the scripted brain passes it
    on); a model's line gives only words, and then `intent` is what the words were matched
    to (by the scenario's own keywords) when the memory was written, and `relayed` the
    speaker's own memory of a claim those words repeat (`repeated_claim`), if any. A claim
    that began with the visitor or a notice keeps that `origin` however many residents
    passed it on, every claim keeps the chain of residents it came through (`via`), and
    all stay quoted words: `said` is what was said, never the teller's fact.
    """
    base = shared or Fact(FactKind.STATEMENT, Source.HEARD, object=said)
    if intent is not None and not base.intent:
        base = _with_intent(base, intent)
    came_from = shared or relayed
    first = came_from.first_source if came_from is not None else base.first_source
    origin = first if first in OUTSIDE else None
    return Fact(
        FactKind.CLAIM,
        Source.HEARD,
        subject="" if origin else base.subject,  # a visitor's claim was about its listener
        predicate="said" if origin else base.predicate,
        object=said,
        heard_from=speaker,
        intent=base.intent,
        event=base.event,
        private=base.private,
        plan_item=base.plan_item,
        invited=base.invited,
        origin=origin,
        via=chain_of(came_from),
    )


def chain_of(told: Fact | None) -> tuple[str, ...]:
    """The residents a claim came through before its next teller: the chain of the claim
    the teller heard, and the one who told the teller. A visitor or a notice is the
    claim's `origin`, not a link of the chain; the teller's own knowledge has none."""
    if told is None or told.kind is not FactKind.CLAIM or told.source is not Source.HEARD:
        return ()
    chain = tuple(n for n in (*told.via, told.heard_from) if n)
    return chain if len(chain) <= MAX_VIA else (chain[0], *chain[-(MAX_VIA - 1) :])


_WORD = re.compile(r"[^\W_]{3,}")
SAME_WORDS = 0.6  # share of the shorter text's words the other must hold to repeat it


def repeated_claim(words: str, known: Sequence[Fact]) -> Fact | None:
    """The latest claim among `known` (a teller's memories) that `words` repeat: what a
    model's line passed on, so the listener's memory keeps where the words came from."""
    said = {w.lower() for w in _WORD.findall(words)}
    if not said:
        return None
    for fact in reversed(known):
        if fact.kind is not FactKind.CLAIM:
            continue
        heard = {w.lower() for w in _WORD.findall(fact.object)}
        if heard and len(said & heard) >= SAME_WORDS * min(len(said), len(heard)):
            return fact
    return None


RSVP_VERBS = {Rsvp.ACCEPTED: "will go to", Rsvp.MAYBE: "might go to", Rsvp.DECLINED: "won't go to"}


def rsvp(holder: str, answer: Rsvp, reason: str, about: Fact) -> Fact:
    """The holder's own answer to an event it was told of, with its reason, tied to the
    event and intent the news named (so plans and the evaluation read it by field)."""
    event = about.event
    what = (event.what or "event") if event is not None else "it"
    host = f"{event.host}'s " if event is not None and event.host else "the "
    place = f" at {event.place}" if event is not None else ""
    said = f"{holder} {RSVP_VERBS[answer]} {host}{what}{place}"
    return Fact(
        FactKind.STATEMENT,
        Source.SELF,
        subject=holder,
        predicate=answer.value,
        object=f"{said}: {reason}" if reason else said,
        heard_from="",
        intent=about.intent,
        event=event,
        rsvp=answer,
        reason=reason,
    )


def visitor_claim(visitor: str, listener: str, said: str, event: Event | None = None) -> Fact:
    """What the player's visitor said: kept as the visitor's claim, never as a fact."""
    return Fact(
        FactKind.CLAIM,
        Source.VISITOR,
        subject=listener,
        predicate="was told",
        object=said,
        heard_from=visitor,
        event=event,
    )


def notice_claim(board: str, reader: str, text: str, event: Event | None = None) -> Fact:
    """A notice read on a board ('the notice board at Oak Hill College'): a claim whose
    source is the board, as a visitor's words are the visitor's, never a fact seen."""
    return Fact(
        FactKind.CLAIM,
        Source.NOTICE,
        subject=reader,
        predicate="read",
        object=text,
        heard_from=board,
        event=event,
    )


# -- plans and thoughts ----------------------------------------------------------------------


def plan(name: str, items: Sequence[PlanItem]) -> Fact:
    return Fact(FactKind.PLAN, Source.SELF, subject=name, predicate="plans", plan=tuple(items))


def statement(subject: str, text: str, source: Source, **fields: object) -> Fact:
    """A sentence that is itself the memory: a seed fact, an insight, an inner voice."""
    return Fact(FactKind.STATEMENT, source, subject=subject, object=text, **fields)


def seed(persona: Resident, sentence: str, intents: Sequence[Intent]) -> Fact:
    """One sentence of the seed paragraph, tied to the scenario intent it states."""
    intent = next((i for i in intents if i.mentioned_in(sentence)), None)
    fact = statement(persona.name, sentence, Source.SEED)
    return _with_intent(fact, intent) if intent is not None else fact


def _with_intent(fact: Fact, intent: Intent) -> Fact:
    return replace(fact, intent=intent.id, event=intent.event, private=intent.private)


def intent_named(text: str, intents: Sequence[Intent]) -> Intent | None:
    """The scenario intent whose keywords a model's or a visitor's words use, if any."""
    return next((i for i in intents if i.mentioned_in(text)), None)


def is_idle(fact: Fact) -> bool:
    """An idle object or agent: the original code leaves such memories out of retrieval."""
    return (fact.kind is FactKind.OBJECT_STATE and fact.state == "idle") or (
        fact.kind is FactKind.DOING and fact.object == "idle"
    )
