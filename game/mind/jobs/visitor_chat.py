"""The visitor's chat: the resident hears the player and answers, remembering a claim."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from game.brains.event_words import parse_event
from game.brains.questions import Utter
from game.core.records import MemoryKind, Utterance
from game.mind import facts
from game.mind.agent import AgentSnapshot
from game.mind.dialogue import state_of
from game.mind.effects import NewMemory, VisitorReplied
from game.mind.jobs.at_hand import grounded
from game.mind.jobs.common import Mind, Note, new_memories
from game.mind.jobs.converse import speaker_context
from game.mind.jobs.recall import recall
from game.world.town import Town


def visitor_chat_job(
    mind: Mind, snap: AgentSnapshot, town: Town, visitor: str, history: Sequence[Utterance]
) -> VisitorReplied:
    """The resident hears the visitor and answers. What the visitor said is stored as a
    claim with the visitor as its source, never as a fact the resident saw; a time and
    place in the visitor's words are read once, here, as the event the claim names."""
    memories: tuple[NewMemory, ...] = ()
    if history and history[-1].speaker == visitor:
        said = history[-1].text
        places = [a.name for a in town.sectors()]
        event = parse_event(said, places, today=snap.now.date())
        fact = facts.visitor_claim(visitor, snap.name, said, event)
        memories = new_memories(mind, snap, [Note(MemoryKind.CHAT, fact)])
    ctx, idx = speaker_context(mind, snap, visitor, history, town)
    if history and history[-1].speaker == visitor:  # grounded as an interview is
        asked, idx_q = recall(mind, snap, [history[-1].text], k=15)
        known = {m.index for m in ctx.memories}
        more = [r for r in grounded(mind, snap, asked) if r.index not in known]
        ctx = replace(ctx, memories=tuple(ctx.memories) + tuple(more))
        idx = tuple(dict.fromkeys(idx + idx_q))
    state = state_of(mind.words, history, snap.now)
    line = mind.brain.ask(Utter(ctx, visitor, tuple(history), state))
    reply = replace(line, speaker=snap.name, text=line.text.strip()[:300] or "...")
    return VisitorReplied(snap.name, memories, idx, reply=reply)
