"""CONVERSE: two residents talk, both sides, then each remembers and re-plans on its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from game.brains.protocol import answers_locally
from game.brains.questions import AgentContext, Converse, Utter
from game.core.records import MemoryKind, MemoryRecord, Rsvp, Utterance
from game.mind import facts
from game.mind.agent import AgentSnapshot, Conversation
from game.mind.dialogue import hear, state_of
from game.mind.effects import Conversed
from game.mind.jobs.at_hand import commitments, fresh_claims
from game.mind.jobs.common import Mind, Note, Surroundings, context, each, new_memories
from game.mind.jobs.planning import plan_rest_of_day
from game.mind.jobs.recall import NEWS, recall, relationship_query, warm
from game.mind.plan import DayPlan
from game.world.town import Town


def _speaker_queries(
    speaker: AgentSnapshot, listener: str, history: Sequence[Utterance]
) -> list[str]:
    queries = [relationship_query(speaker.name, listener), listener]
    return queries + [history[-1].text] if history else queries


def speaker_context(
    mind: Mind, speaker: AgentSnapshot, listener: str, history: Sequence[Utterance], town: Town
) -> tuple[AgentContext, tuple[int, ...]]:
    records, idx = recall(mind, speaker, _speaker_queries(speaker, listener, history), k=5)
    on_mind = replace(mind.settings.retrieval, importance_weight=2.0, relevance_weight=0.5)
    news, idx2 = recall(mind, speaker, [NEWS], k=6, settings=on_mind)
    merged = records + [r for r in news if r.index not in idx]
    seen = {r.index for r in merged}
    merged += [r for r in commitments(speaker) if r.index not in seen]  # one's own cause
    seen = {r.index for r in merged}
    merged += [r for r in fresh_claims(speaker) if r.index not in seen]  # what one just heard
    return context(speaker, town, merged), idx + idx2


def _whole_conversation(mind, first, second, town, touched) -> tuple[list[Utterance], tuple]:
    """A brain that answers Converse writes both sides at once (the paper suggests it),
    each side from the context the turn-by-turn loop would give its first line; the same
    answer rates the conversation for each side."""
    warm(mind, [first, second], [*_speaker_queries(first, second.name, ()), NEWS,
                                 *_speaker_queries(second, first.name, ())])  # fmt: skip
    ctx_a, idx_a = speaker_context(mind, first, second.name, (), town)
    ctx_b, idx_b = speaker_context(mind, second, first.name, (), town)
    touched[first.name].extend(idx_a)
    touched[second.name].extend(idx_b)
    names = (first.name, second.name)
    talk = mind.brain.ask(Converse(ctx_a, ctx_b, mind.settings.max_turns))
    lines = [u for u in talk.lines if u.speaker in names]
    lines = [replace(u, text=u.text.strip()[:300]) for u in lines if u.text.strip()]
    return lines[: mind.settings.max_turns], talk.importance


def _turn_by_turn(mind, first, second, town, touched) -> list[Utterance]:
    history: list[Utterance] = []
    speaker, listener = first, second
    state = state_of(mind.words, (), first.now)
    for _ in range(mind.settings.max_turns):
        ctx, idx = speaker_context(mind, speaker, listener.name, history, town)
        touched[speaker.name].extend(idx)
        if state is not None and history:  # the last line, heard by its listener
            last = history[-1]
            state = state.then(
                last.speaker,
                last.text,
                hear(mind.words, last.text, speaker.now, state, last.speaker),
            )
        line = mind.brain.ask(Utter(ctx, listener.name, tuple(history), state))
        history.append(replace(line, speaker=speaker.name, text=line.text.strip()[:300]))
        if line.end or not line.text.strip():
            break
        speaker, listener = listener, speaker
    return history


def converse_job(
    mind: Mind, first: AgentSnapshot, second: AgentSnapshot, world: Surroundings
) -> list[Conversed]:
    touched: dict[str, list[int]] = {first.name: [], second.name: []}
    ratings: tuple[int, int] = (0, 0)
    if mind.brain.knows(Converse):
        history, ratings = _whole_conversation(mind, first, second, world.town, touched)
    else:
        history = _turn_by_turn(mind, first, second, world.town, touched)
    talk = Conversation((first.name, second.name), tuple(history), first.now)

    def side(i: int) -> Conversed:
        """What one of the two remembers and replans: independent of the other's."""
        me, other = (first, second) if i == 0 else (second, first)
        pair, rating = talk.participants, ratings[i]
        notes = [Note(MemoryKind.CHAT, facts.conversation(me.name, pair, history), rating)]
        notes += [_heard(mind, u, other) for u in history if u.speaker == other.name and u.shares]
        answers = _answers(me.name, history)
        notes += answers
        memories = new_memories(mind, me, notes)
        touched_me = tuple(dict.fromkeys(touched[me.name]))
        plan = _replan_for(mind, me, world.town, answers, memories)
        return Conversed(me.name, memories, touched_me, conversation=talk, plan=plan)

    return each(side, [0, 1], at_once=not answers_locally(mind.brain))


def _answers(name: str, history: Sequence[Utterance]) -> list[Note]:
    """The resident's own answers to events told of in the conversation (its `rsvp` lines,
    each answering the partner's line before it): remembered, with the reason."""
    out = []
    for before, line in zip(history, history[1:], strict=False):
        if line.speaker == name and line.rsvp is not None and before.shared is not None:
            fact = facts.rsvp(name, line.rsvp, line.reason, before.shared)
            out.append(Note(MemoryKind.OBSERVATION, fact, known=7))
    return out


def _replan_for(
    mind: Mind, snap: AgentSnapshot, town: Town, answers: Sequence[Note], memories
) -> DayPlan | None:
    """An answer to an event later today re-plans the rest of the day: around it when
    accepted, without it when declined (an event on another day is planned that day)."""
    today = snap.now.date()
    going = [
        n for n in answers
        if n.fact.rsvp in (Rsvp.ACCEPTED, Rsvp.DECLINED) and n.fact.event is not None
        and n.fact.event.start.date() == today and n.fact.event.end > snap.now
    ]  # fmt: skip
    if not going or not mind.settings.ablation.planning:
        return None
    mem = next((m for m in memories if m.fact is going[0].fact), None)
    text = mem.text if mem is not None else facts.render(going[0].fact)
    fact = going[0].fact
    record = MemoryRecord(len(snap.memory), MemoryKind.OBSERVATION, text, snap.now, 7, fact)
    plan, _, _ = plan_rest_of_day(mind, snap, town, extra=(record,))
    return plan


def _heard(mind: Mind, line: Utterance, teller: AgentSnapshot) -> Note:
    """News heard in a line: its fields when the speaker knew them, else its words tied to
    the scenario intent whose keywords they use and to the teller's own memory of a claim
    they repeat (so a model's retelling keeps the chain of sources, and the words stay
    quoted however often they are passed on)."""
    if line.shared is not None:
        return Note(MemoryKind.CHAT, facts.claim(line.speaker, line.shares, line.shared))
    intent = facts.intent_named(line.shares, mind.intents)
    relayed = facts.repeated_claim(line.shares, teller.memory.facts)
    return Note(MemoryKind.CHAT, facts.claim(line.speaker, line.shares, None, intent, relayed))
