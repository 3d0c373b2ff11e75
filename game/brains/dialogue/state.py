"""A conversation's state: who said what (as acts), the open question and the topic.

The state is rebuilt from the lines and their acts, so a saved chat needs no extra field
and both sides of a conversation read the same state. Both brains get it: the scripted
brain answers the open question before it moves on and never repeats a line; the model
brain's prompt states the open question.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .acts import Act, ActKind, Aspect


@dataclass(frozen=True)
class Said:
    """One line of the conversation and what it was understood as."""

    speaker: str
    text: str
    act: Act


@dataclass(frozen=True)
class DialogueState:
    """Everything said so far in one conversation, first line first.

    `met_before` says whether the two had met before this conversation began (a memory of
    talking, or a seeded relationship): 'Hi again' only then.
    """

    said: tuple[Said, ...] = ()
    met_before: bool = False

    def then(self, speaker: str, text: str, act: Act) -> DialogueState:
        """The state after one more line."""
        return DialogueState((*self.said, Said(speaker, text, act)), self.met_before)

    @property
    def last(self) -> Said | None:
        return self.said[-1] if self.said else None

    def open_question(self, listener: str) -> Said | None:
        """The question put to `listener` that is still unanswered: the other side's last
        line when it asks something (a later line of the listener's answers it)."""
        for s in reversed(self.said):
            if s.speaker == listener:
                return None
            if s.act.asks:
                return s
        return None

    @property
    def topic(self) -> Act | None:
        """What a follow-up such as 'and when?' is about: the newest question that had a
        topic, with what the answer to it named when the question itself named nothing
        ('Anything on this week?' - 'Isabella's party...' - 'Who's behind it?')."""
        for k in range(len(self.said) - 1, -1, -1):
            a = self.said[k].act
            if a.kind in (ActKind.GREETING, ActKind.FAREWELL, ActKind.THANKS):
                continue
            if not a.asks and not (_named(a) and self._replied(k)):
                continue  # ... or the remark the other side took up ('You must know Giorgio.')
            if a.aspect is Aspect.GENERAL and not (_named(a) or a.event):
                continue
            if _named(a):
                return a
            answer = next((s.act for s in self.said[k + 1 :] if _named(s.act)), None)
            if answer is None:
                return a
            return replace(a, person=answer.person, place=answer.place, intent=answer.intent)
        return next((s.act for s in reversed(self.said) if _named(s.act)), None)

    def _replied(self, k: int) -> bool:
        """Whether the other side spoke after line `k` (so that line was taken up)."""
        return k + 1 < len(self.said) and self.said[k + 1].speaker != self.said[k].speaker

    def lines_of(self, speaker: str) -> tuple[str, ...]:
        return tuple(s.text for s in self.said if s.speaker == speaker)

    def has_said(self, text: str) -> bool:
        """Whether any line of this conversation already said `text` (no repeats)."""
        key = _norm(text)
        return any(_norm(s.text) == key for s in self.said)

    def topics_of(self, speaker: str) -> tuple[tuple[str, ...], ...]:
        return tuple(s.act.topic_key for s in self.said if s.speaker == speaker)


def _named(a: Act) -> bool:
    return bool(a.person or a.place or a.intent)


def _norm(text: str) -> str:
    return " ".join("".join(c for c in text.lower() if c.isalnum() or c == " ").split())
