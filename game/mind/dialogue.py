"""Hearing: every line a resident hears becomes a typed act before any brain sees it.

The understander is built once per town from its own words (residents, sectors, objects,
the scenario's intents) and a local sentence embedder, so understanding costs no model
request whichever brain runs. A conversation's state is rebuilt from its lines, so a saved
chat needs nothing more than its lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from game.brains.dialogue.acts import Act
from game.brains.dialogue.state import DialogueState
from game.brains.dialogue.understand import (
    Lexicon,
    Understander,
    dialogue_embedder,
    sentence_embedder,
)
from game.brains.dialogue.whose import of_whom
from game.core.records import Utterance
from game.world.scenario import Intent, Resident
from game.world.town import AreaKind, Town


def understander_for(
    town: Town, residents: Sequence[Resident], intents: Sequence[Intent]
) -> Understander:
    """The town's understander: its names, places and intents, and the local embedder."""
    sectors = [a.name for a in town.sectors()]
    objects = sorted({a.name for a in town.areas.values() if a.kind is AreaKind.OBJECT})
    lexicon = Lexicon.of([r.name for r in residents], sectors, (), objects, intents)
    return Understander(lexicon, dialogue_embedder(), deep=sentence_embedder())


def state_of(
    words: Understander | None,
    history: Sequence[Utterance],
    now: datetime,
    met_before: bool = False,
) -> DialogueState | None:
    """The conversation's state after `history`: each line understood in the light of the
    lines before it (so 'and when?' takes the topic of what came before)."""
    if words is None:
        return None
    state = DialogueState(met_before=met_before)
    for line in history:
        act = hear(words, line.text, now, state, line.speaker)
        state = state.then(line.speaker, line.text, act)
    return state


def hear(
    words: Understander, text: str, now: datetime, state: DialogueState | None, speaker: str = ""
) -> Act:
    """The act a line performs, asked of the one it is about: a question of someone else's
    work, day or plans, or of anyone's, is read again as asked of the listener, and that
    reading's aspect is the facet asked of them (`dialogue.whose`)."""
    act = words.understand(text, now, state, speaker)
    return of_whom(act, lambda line: words.understand(line, now, None, speaker), state)


def retrieval_query(words: Understander | None, act: Act) -> str:
    """The question as the retrieval query, with the topic a follow-up left unsaid ('and
    when?' about the party is recalled as the party)."""
    if words is None or not act.follow_up:
        return act.text
    extra = [act.person, act.place, act.event, words.lexicon.intent_texts.get(act.intent, "")]
    return " ".join([act.text, *[e for e in extra if e]])
