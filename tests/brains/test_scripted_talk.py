"""Reacting to what one sees, and conversations that pass news on (and keep secrets)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from test_scripted_personas import (
    BERT,
    DAY,
    LEO,
    NORA,
    Brain,
    context,
    heard,
    see,
    see_object,
    seeds,
    seen,
    smallville,
    talked,
)

from game.brains.scripted import talk as talk_rules
from game.brains.scripted.news import news_for, shareable
from game.core.records import CONTINUE, ReactionKind, Utterance
from game.world.scenario import Resident

BRAIN = Brain(seed=0)
NOW = DAY + timedelta(hours=10)
STOVE = "Lin family's house:kitchen:stove"
PARTY_FACT = (
    "Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe on February 14 "
    "from 5 pm to 7 pm"
)


def converse(a: Resident, b: Resident, mem_a=(), mem_b=(), status_a="", status_b=""):
    """Alternate lines until one side ends (or 12 lines, which would be a bug)."""
    ctx = {
        a.name: context(a, NOW, tuple(mem_a), status_a),
        b.name: context(b, NOW, tuple(mem_b), status_b),
    }
    history: list[Utterance] = []
    speaker, partner = a, b
    for _ in range(12):
        line = BRAIN.utter(ctx[speaker.name], partner.name, history)
        assert line.speaker == speaker.name
        history.append(line)
        if line.end:
            break
        speaker, partner = partner, speaker
    return history


# -- objects ---------------------------------------------------------------------------------
def test_a_burning_stove_is_turned_off() -> None:
    reaction = BRAIN.react(context(LEO), see_object(STOVE, "burning"))
    assert reaction.kind is ReactionKind.REACT
    assert reaction.target == STOVE
    assert reaction.action == "turning off the burning stove"
    assert 1 <= reaction.minutes <= 15


@pytest.mark.parametrize(
    ("state", "words"),
    [
        ("leaking water", "fixing the leaking"),
        ("broken", "repairing the broken"),
        ("on fire", "putting out the fire"),
        ("overflowing", "overflowing"),
        ("flooded", "mopping up"),
        ("smoking", "turning off"),
    ],
)
def test_trouble_states_get_a_fix(state: str, words: str) -> None:
    reaction = BRAIN.react(context(LEO), see_object("Leo Park's house:bathroom:shower", state))
    assert reaction.kind is ReactionKind.REACT and words in reaction.action
    assert reaction.target == "Leo Park's house:bathroom:shower"


@pytest.mark.parametrize(
    "state", ["idle", "in use", "cooking", "running water", "being slept in", "brewing coffee"]
)
def test_normal_states_are_left_alone(state: str) -> None:
    assert BRAIN.react(context(LEO), see_object(STOVE, state)) == CONTINUE


def test_no_second_reaction_while_already_on_it() -> None:
    ctx = context(LEO, status="turning off the burning stove")
    assert BRAIN.react(ctx, see_object(STOVE, "burning")) == CONTINUE


# -- whom to talk to ---------------------------------------------------------------------------
def test_talk_chance_follows_acquaintance_news_and_work() -> None:
    nora = context(NORA, NOW)
    friend = talk_rules.talk_chance(nora, see("Bert Hall"))
    stranger = talk_rules.talk_chance(nora, see("Leo Park"))
    visitor = talk_rules.talk_chance(nora, see("Visitor", visitor=True))
    assert stranger < friend and stranger < visitor
    news = context(NORA, NOW, seeds(NORA))  # Nora knows of her own book club gathering
    assert talk_rules.talk_chance(news, see("Leo Park")) > stranger
    busy = context(NORA, NOW, status="taking notes in class", location="Oak Hill College")
    assert talk_rules.talk_chance(busy, see("Leo Park")) < stranger
    hurry = context(NORA, NOW, status="going to the market")
    assert talk_rules.talk_chance(hurry, see("Leo Park")) < stranger


def test_talking_is_a_stable_pseudo_random_choice() -> None:
    ctx = context(NORA, NOW)
    first = [BRAIN.react(ctx, see(f"Person {i}")) for i in range(200)]
    assert first == [BRAIN.react(ctx, see(f"Person {i}")) for i in range(200)]
    talks = [r for r in first if r.kind is ReactionKind.TALK]
    expected = talk_rules.talk_chance(ctx, see("Person 0")) * 200
    assert abs(len(talks) - expected) < 0.5 * expected + 5
    assert all(r.target.startswith("Person ") for r in talks)


def test_no_talking_to_oneself() -> None:
    assert BRAIN.react(context(NORA), see("Nora Vance")) == CONTINUE


def test_base_chances_are_tunable_constants() -> None:
    for name in ("TALK_KNOWN", "TALK_STRANGER", "TALK_VISITOR", "TALK_NEWS_BONUS", "BUSY_FACTOR"):
        assert 0 < getattr(talk_rules, name) <= 1


# -- news ------------------------------------------------------------------------------------
def test_private_memories_are_never_shared() -> None:
    town = smallville()
    maria, klaus = town.resident("Maria Lopez"), town.resident("Klaus Mueller")
    assert not any("crush" in n.text for n in shareable(seeds(maria), maria))
    for partner in (klaus, town.resident("Isabella Rodriguez"), LEO):
        for line in converse(maria, partner, seeds(maria)):
            assert "crush" not in line.text.lower() and "crush" not in line.shares.lower()
    for line in converse(NORA, BERT, seeds(NORA)):
        assert "crush" not in line.text.lower() and "secret" not in line.text.lower()


def test_the_party_passes_to_someone_who_has_not_heard() -> None:
    news = heard(20, "Isabella Rodriguez", PARTY_FACT)
    town = smallville()
    maria, klaus = town.resident("Maria Lopez"), town.resident("Klaus Mueller")
    lines = converse(maria, klaus, (*seeds(maria), news), seeds(klaus))
    shared = [u for u in lines if u.speaker == maria.name and u.shares]
    assert shared and shared[0].shares == PARTY_FACT
    assert "Valentine" in shared[0].text
    assert shared[0].shared is not None and shared[0].shared.intent == "party"
    assert shared[0].shared.event == news.fact.event


def test_news_is_not_told_twice_or_back_to_its_teller() -> None:
    maria = smallville().resident("Maria Lopez")
    news = heard(20, "Isabella Rodriguez", PARTY_FACT)
    pair = ("Maria Lopez", "Klaus Mueller")
    lines = [("Maria Lopez", f"Have you heard? {PARTY_FACT}."), ("Klaus Mueller", "Oh nice!")]
    told = talked(21, "Maria Lopez", pair, lines, 6)
    assert news_for((news,), maria, "Klaus Mueller")
    assert not news_for((news,), maria, "Isabella Rodriguez")  # her own party, and she told it
    assert not news_for((news, told), maria, "Klaus Mueller")
    from_klaus = heard(22, "Klaus Mueller", PARTY_FACT)
    assert not news_for((from_klaus,), maria, "Klaus Mueller")


def test_the_host_invites_in_the_first_person() -> None:
    town = smallville()
    isabella, sam = town.resident("Isabella Rodriguez"), town.resident("Sam Moore")
    lines = converse(isabella, sam, seeds(isabella), seeds(sam))
    invite = next(u for u in lines if u.speaker == isabella.name and u.shares)
    assert "Isabella" not in invite.text and "I'm" in invite.text
    assert "Hobbs Cafe" in invite.text and "Valentine's Day party" in invite.text
    assert invite.shares.startswith("Isabella Rodriguez is planning a Valentine's Day party")
    assert invite.shared is not None and invite.shared.intent == "party"
    assert invite.shared.invited, "the host's own event news is an invitation"


def test_a_guest_answers_an_invitation_with_a_reason() -> None:
    town = smallville()
    isabella = town.resident("Isabella Rodriguez")
    answers = []
    for guest in town.residents:
        if guest.name == isabella.name:
            continue
        lines = converse(isabella, guest, seeds(isabella), seeds(guest))
        invite = next((i for i, u in enumerate(lines) if u.shared and u.shared.invited), None)
        if invite is None or invite + 1 >= len(lines):
            continue
        reply = lines[invite + 1]
        assert reply.speaker == guest.name and reply.rsvp is not None and reply.reason
        assert (reply.going, reply.going_to) == (reply.rsvp, lines[invite].shared.event)
        answers.append(reply.rsvp)
    assert len(answers) >= 5
    assert len(set(answers)) >= 2, "everyone answered alike"


def test_an_answer_given_before_is_said_again_as_fields() -> None:
    """Telling of an event one said yes to, or hearing of it again, the line says so, and
    the remembered conversation keeps who said yes by field (goers reads it)."""
    from test_scripted_personas import of

    from game.core.records import MemoryKind, Rsvp
    from game.mind import facts

    news = heard(20, "Isabella Rodriguez", PARTY_FACT)
    event = news.fact.event
    town = smallville()
    maria, klaus = town.resident("Maria Lopez"), town.resident("Klaus Mueller")

    def said_yes(name: str, index: int):
        fact = facts.rsvp(name, Rsvp.ACCEPTED, "", news.fact)
        return of(index, fact, MemoryKind.OBSERVATION, 7, NOW - timedelta(hours=1))

    lines = converse(maria, klaus, (news, said_yes(maria.name, 21)), ())
    told = next(u for u in lines if u.speaker == maria.name and u.shares)
    assert (told.going, told.going_to) == (Rsvp.ACCEPTED, event), told
    pair = (maria.name, klaus.name)
    kept = facts.conversation(klaus.name, pair, lines).lines
    assert any(k.speaker == maria.name and k.rsvp is Rsvp.ACCEPTED and k.event == event
               for k in kept), kept  # fmt: skip
    again = converse(maria, klaus, (news,), (news, said_yes(klaus.name, 22)))
    reply = again[again.index(next(u for u in again if u.shares)) + 1]
    assert reply.speaker == klaus.name and reply.rsvp is None, reply
    assert (reply.going, reply.going_to) == (Rsvp.ACCEPTED, event), reply
    quiet = converse(maria, klaus, (news,), ())
    assert all(u.going is None for u in quiet if u.speaker == maria.name)


def test_someone_who_knows_says_so() -> None:
    news = heard(20, "Maria Lopez", PARTY_FACT)
    town = smallville()
    klaus, ayesha = town.resident("Klaus Mueller"), town.resident("Ayesha Khan")

    def reply_to_news(lines: list[Utterance]) -> Utterance:
        return lines[lines.index(next(u for u in lines if u.shares)) + 1]

    both_know = reply_to_news(converse(klaus, ayesha, (news,), (news,)))
    assert both_know.speaker == ayesha.name
    assert "already" in both_know.text and "Maria" in both_know.text
    fresh = reply_to_news(converse(klaus, ayesha, (news,), ()))
    assert "already" not in fresh.text


def test_tom_is_gruff_about_sams_campaign() -> None:
    town = smallville()
    sam, tom = town.resident("Sam Moore"), town.resident("Tom Moreno")
    lines = converse(sam, tom, seeds(sam), seeds(tom))
    shared = next(i for i, u in enumerate(lines) if u.shares)
    assert "mayor" in lines[shared].shares
    answer = lines[shared + 1]
    assert answer.speaker == tom.name
    assert "believe it when I see it" in answer.text
    assert answer.text.startswith("No, Sam")  # to the candidate's face: an answer, to him
    assert len(lines) <= 5  # no love lost: a short exchange


def test_strangers_introduce_themselves() -> None:
    first = BRAIN.utter(context(NORA, NOW), "Leo Park", [])
    assert "I'm Nora" in first.text and "baker" in first.text
    visitor = BRAIN.utter(context(NORA, NOW), "Visitor", [])
    assert "welcome" in visitor.text.lower()


def test_every_pair_ends_in_four_to_eight_short_lines() -> None:
    town = smallville()
    people = town.residents
    for i, a in enumerate(people):
        b = people[(i * 7 + 3) % len(people)]
        if a is b:
            continue
        lines = converse(a, b, seeds(a), seeds(b), "reading", "having a coffee")
        assert 4 <= len(lines) <= 8, [u.text for u in lines]
        assert lines[-1].end and not any(u.end for u in lines[:-1])
        for u in lines:
            assert u.text.strip() and len(u.text) <= 200, u.text


def test_either_side_may_end_and_a_goodbye_is_answered() -> None:
    bye = Utterance("Leo Park", "Well, see you around, Nora.", end=True)
    hello = Utterance("Nora Vance", "Hi there, I don't think we've met.")
    line = BRAIN.utter(context(NORA, NOW), "Leo Park", [hello, bye])
    assert line.end


# -- the architecture's own memory shapes and the player's visitor ---------------------------
def test_conversations_are_understood_by_their_fields() -> None:
    from game.brains.scripted.news import chat_partner

    maria = smallville().resident("Maria Lopez")
    pair = ("Maria Lopez", "Klaus Mueller")
    lines = [("Maria Lopez", "Hi, Klaus!"), ("Klaus Mueller", f"Have you heard? {PARTY_FACT}.")]
    talk = talked(5, "Maria Lopez", pair, lines, 6)
    news = heard(6, "Klaus Mueller", PARTY_FACT)
    assert chat_partner(talk) == "Klaus Mueller" and chat_partner(news) == "Klaus Mueller"
    assert not news_for((talk, news), maria, "Klaus Mueller")  # he told her: not back to him
    assert news_for((talk, news), maria, "Ayesha Khan")[0].text == PARTY_FACT


def test_a_visitor_is_welcomed_and_answered_from_memory_only() -> None:
    from game.mind import facts

    klaus = smallville().resident("Klaus Mueller")
    fact = facts.doing("Robin", "looking around", facts.Source.VISITOR)
    robin = seen(1, "Robin", "looking around")
    robin = type(robin)(1, robin.kind, facts.render(fact), robin.created, 3, fact)
    ctx = context(klaus, NOW, (robin, heard(2, "Maria Lopez", PARTY_FACT)), "reading")
    first = BRAIN.utter(ctx, "Robin", [Utterance("Robin", "Hello there!")])
    assert "welcome to Smallville" in first.text and not first.end
    asked = [Utterance("Robin", "Hello!"), first, Utterance("Robin", "Is there a party soon?")]
    answer = BRAIN.utter(ctx, "Robin", asked)
    assert "Maria Lopez told me" in answer.text and not answer.end
    unknown = BRAIN.utter(ctx, "Robin", [*asked, answer, Utterance("Robin", "Who is mayor?")])
    assert "haven't heard" in unknown.text
    bye = BRAIN.utter(ctx, "Robin", [*asked, answer, Utterance("Robin", "Bye for now!")])
    assert bye.end


def test_a_last_line_keeps_its_news_and_quoted_words_but_asks_nothing() -> None:
    quoted = 'Carlos said: "Have you heard? There is a bake sale on Friday." Any idea if it is so?'
    assert talk_rules.without_questions(quoted) == (
        'Carlos said: "Have you heard? There is a bake sale on Friday."'
    )
    assert talk_rules.without_questions("Isabella is hosting a party; are you going?") == (
        "Isabella is hosting a party."
    )


def test_asked_what_one_makes_of_news_one_knew_one_gives_a_view() -> None:
    """'Sam is running for mayor; what do you make of that?' to one who had heard: 'Yes,
    Tom filled me in on Sam's campaign' answered whether one knew, not what was asked."""
    from test_scripted_personas import context

    from game.brains.scripted import talk_replies

    sam = "Sam Moore is running for mayor of Smallville in the upcoming local election"
    from game.mind import facts

    news = heard(20, "Tom Moreno", sam)
    klaus = smallville().resident("Klaus Mueller")
    fields = facts.seed(smallville().resident("Sam Moore"), sam, smallville().intents)
    asked = Utterance("Maria Lopez", f"{sam}; had you heard? What do you make of that?",
                      shares=sam, shared=fields)  # fmt: skip
    told = Utterance("Maria Lopez", f"{sam}; had you heard?", shares=sam, shared=fields)
    ctx = context(klaus, NOW, (news,))
    for seed in range(4):
        view = talk_replies._react_to_news(ctx, "Maria Lopez", asked, seed, (seed,))
        known = talk_replies._react_to_news(ctx, "Maria Lopez", told, seed, (seed,))
        assert len(view) > len(known) and "Sam" in view.split(". ", 1)[-1], (view, known)


def test_an_introduction_of_one_with_no_workplace_is_saved_and_read_back() -> None:
    """A resident with no workplace (None in the scenario) introduces itself with an empty
    workplace, so the memory holding the line saves and loads (a None there made a fresh
    save unreadable: 'memory 60 has a damaged fact')."""
    from game.brains.scripted.talk_greeting import introduced, who_i_am
    from game.core.codec import decode, encode
    from game.core.records import Fact
    from game.mind import facts

    idle = next(r for r in smallville().residents if r.workplace is None)
    intro = introduced(idle, f"Hi; {who_i_am(idle)}.")
    assert intro is not None and intro.workplace == ""
    line = Utterance(idle.name, f"Hi; {who_i_am(idle)}.", introduces=intro)
    fact = facts.conversation(idle.name, (idle.name, "Leo Park"), [line])
    assert decode(Fact, encode(fact, compact=True)) == fact
