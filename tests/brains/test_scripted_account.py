"""One's own account of an event: the facts everybody holds, then one's own part in it from
one's own memories (how long one stayed and whom one saw there, what one did instead, the
reason one gave; ahead of it, whether one goes and who else said they would), so that two
residents told the same news do not tell it back in the same sentence.
"""

from __future__ import annotations

from datetime import timedelta

from test_scripted_personas import context, did, heard, of, seen, smallville

from game.brains.dialogue.acts import Wh
from game.brains.scripted import answer
from game.brains.scripted.answer.account import done_in
from game.core.records import MemoryKind, Rsvp, Source
from game.mind import facts


def party():
    intent = smallville().intents[0]
    assert intent.event is not None
    return intent, intent.event


def news(index: int = 1):
    intent, event = party()
    return heard(index, event.host, intent.text, when=event.start - timedelta(days=1))


def at_party(index: int, name: str, doing: str, minutes: int):
    intent, event = party()
    fact = facts.doing(name, doing, Source.SELF, intent=intent.id)
    return of(index, fact, MemoryKind.OBSERVATION, 3, event.start + timedelta(minutes=minutes))


def said_no(index: int, name: str, reason: str):
    intent, event = party()
    about = news().fact
    fact = facts.rsvp(name, Rsvp.DECLINED, reason, about)
    return of(index, fact, MemoryKind.OBSERVATION, 5, event.start - timedelta(hours=20))


def told(name: str, memories, hours_after: float = 14) -> str:
    intent, event = party()
    me = smallville().resident(name)
    ctx = context(me, event.end + timedelta(hours=hours_after), tuple(memories), "", me.home)
    return answer.event_line(ctx, event, "", "", intent.id, Wh.NONE)


def test_two_guests_tell_the_same_event_each_with_their_own_stay_and_company():
    _, event = party()
    at = [event.start + timedelta(minutes=m) for m in (20, 30, 62, 66)]
    dance = [seen(3, "Maria Lopez", "dancing", t) for t in at[:2]]
    eat = [seen(3, "Klaus Mueller", "eating", t) for t in at[2:]]
    first = told("Carlos Gomez", [news(), at_party(2, "Carlos Gomez", "chatting", 5), *dance,
                                  at_party(4, "Carlos Gomez", "saying goodbye", 100)])  # fmt: skip
    second = told("Tom Moreno", [news(), at_party(2, "Tom Moreno", "getting a drink", 60), *eat,
                                 at_party(4, "Tom Moreno", "heading out", 68)])  # fmt: skip
    assert first != second
    assert "I went" in first and "Maria was there" in first and "Klaus" not in first
    assert "I went" in second and "Klaus was there" in second and "Maria" not in second
    assert "hour and a half" in first and "little while" in second


def test_only_those_met_while_one_was_there_are_said_to_have_been_there():
    _, event = party()
    early = [seen(2, "Maria Lopez", "taking a walk", event.start + timedelta(minutes=m))
             for m in (1, 3)]  # fmt: skip
    glimpse = seen(2, "Klaus Mueller", "reading", event.start + timedelta(minutes=40))
    pair = ("Carlos Gomez", "Tom Moreno")
    talk = of(5, facts.conversation(pair[0], pair, ()), MemoryKind.OBSERVATION, 4,
              event.start + timedelta(minutes=45))  # fmt: skip
    got = told("Carlos Gomez", [news(), *early, glimpse, talk,
                                at_party(3, "Carlos Gomez", "chatting", 30),
                                at_party(4, "Carlos Gomez", "leaving", 60)])  # fmt: skip
    assert "Maria" not in got and "Klaus" not in got and "Tom was there" in got, got
    there = of(6, facts.doing("Klaus Mueller", "reading", Source.SEEN, address=event.place),
               MemoryKind.OBSERVATION, 3, event.start + timedelta(minutes=50))  # fmt: skip
    got = told("Carlos Gomez", [news(), *early, there, at_party(3, "Carlos Gomez", "chatting", 30),
                                at_party(4, "Carlos Gomez", "leaving", 60)])  # fmt: skip
    assert "Klaus was there" in got and "Maria" not in got, got


def test_one_who_stayed_away_says_what_one_did_instead_else_the_reason_one_gave():
    _, event = party()
    me = "Klaus Mueller"
    home = did(2, me, "writing my research paper", event.start + timedelta(minutes=10))
    busy = told(me, [news(), said_no(3, me, "I have a paper due"), home])
    assert "didn't go" in busy and "writing my research paper" in busy, busy
    why = told(me, [news(), said_no(3, me, "I have a paper due")])
    assert "didn't go" in why and "paper due" in why and "won't go to" not in why, why
    bare = told(me, [news(), said_no(3, me, "")])  # no reason given: none is made up
    assert "didn't go" in bare and "won't go to" not in bare, bare


def test_ahead_of_an_event_one_says_whether_one_goes_and_who_else_does():
    intent, event = party()
    me = smallville().resident("Tom Moreno")
    before = event.start - timedelta(hours=6)
    ctx = context(me, before, (news(), said_no(2, me.name, "I'm on the late shift")), "", me.home)
    no = answer.event_line(ctx, event, "", "", intent.id, Wh.NONE)
    assert "won't make it" in no and "late shift" in no, no
    yes_fact = facts.rsvp(me.name, Rsvp.ACCEPTED, "", news().fact)
    yes = of(2, yes_fact, MemoryKind.OBSERVATION, 5, before - timedelta(hours=1))
    ctx = context(me, before, (news(), yes), "", me.home)
    assert "I've said I'll go" in answer.event_line(ctx, event, "", "", intent.id, Wh.NONE)


def test_an_evening_spent_at_an_event_is_told_as_the_event():
    intent, event = party()
    me = smallville().resident("Carlos Gomez")
    ctx = context(me, event.end + timedelta(hours=14),
                  (news(), at_party(2, me.name, "looking around", 10)), "", me.home)  # fmt: skip
    got = done_in(ctx, event.start - timedelta(hours=1), event.end)
    assert event.place in got and (event.what or "") in got and "looking around" not in got
