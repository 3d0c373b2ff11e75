"""What counts as news comes from fields: any scenario's event or intent, and the visitor's
words, passed on with their source (issue "Conversations that understand")."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from test_scripted_personas import DAY, Brain, context, heard, of, see, smallville

from game.brains.scripted import rsvp
from game.brains.scripted import talk as talk_rules
from game.brains.scripted.news import news_for, shareable
from game.core.codec import decode, encode
from game.core.records import Event, Fact, FactKind, MemoryKind, Rsvp, Source, Utterance
from game.mind import facts

BRAIN = Brain(seed=0)
NOW = DAY + timedelta(hours=10)
COOKOFF = Event(
    "The Rose and Crown Pub",
    datetime(2023, 2, 14, 18),
    datetime(2023, 2, 14, 20),
    "chili cook-off",
    "Tom Moreno",
)
COOKOFF_TEXT = "Tom is hosting a chili cook-off at The Rose and Crown Pub on February 14"
BAKE_SALE = "There is a bake sale at the college on Friday"


def resident(name: str):
    return smallville().resident(name)


def seed_fact(holder: str, text: str, event: Event | None = None, intent: str = "cookoff"):
    """A seed sentence tied to a scenario intent no keyword table has heard of."""
    fact = facts.statement(holder, text, Source.SEED, intent=intent, event=event)
    return of(0, fact, MemoryKind.OBSERVATION, 3, DAY)


def visitor_claim(listener: str, said: str = BAKE_SALE, when: datetime = NOW):
    fact = facts.visitor_claim("Vera", listener, said)
    return of(1, fact, MemoryKind.CHAT, 4, when - timedelta(minutes=30))


def told(speaker: str, partner: str, memories, history=()) -> Utterance:
    """The speaker's line once the greetings are over: the turn news is told in."""
    ctx = context(resident(speaker), NOW, tuple(memories))
    hello = (Utterance(speaker, "Hello!"), Utterance(partner, "Hi, how are you?"))
    return BRAIN.utter(ctx, partner, [*hello, *history])


# -- any event, any intent ------------------------------------------------------------------
def test_the_host_invites_to_an_event_no_table_knows() -> None:
    tom = resident("Tom Moreno")
    memories = (seed_fact(tom.name, COOKOFF_TEXT, COOKOFF),)
    news = news_for(memories, tom, "Jane Moreno", now=NOW)
    assert news and news[0].own and news[0].fact.intent == "cookoff"
    line = told(tom.name, "Jane Moreno", memories)
    assert line.shared is not None and line.shared.invited
    assert "chili cook-off" in line.text and "Rose and Crown" in line.text


def test_a_guest_passes_the_event_on_from_its_fields() -> None:
    shared = seed_fact("Tom Moreno", COOKOFF_TEXT, COOKOFF).fact
    memories = (heard(0, "Tom Moreno", COOKOFF_TEXT, importance=3, shared=shared),)
    line = told("Jane Moreno", "John Lin", memories)
    assert line.shared is not None and line.shared.event == COOKOFF
    assert not line.shared.invited  # only the host invites
    assert "cook-off" in line.text


def test_a_private_intent_is_never_news_even_with_an_event() -> None:
    tom = resident("Tom Moreno")
    fact = replace(seed_fact(tom.name, COOKOFF_TEXT, COOKOFF).fact, private=True)
    assert shareable((of(0, fact, MemoryKind.OBSERVATION, 9, DAY),), tom) == []


def test_a_dated_cause_is_pitched_for_support_not_votes() -> None:
    tom = resident("Tom Moreno")
    text = "Tom Moreno is collecting signatures to save the old bandstand"
    line = told(tom.name, "Jane Moreno", (seed_fact(tom.name, text, intent="bandstand"),))
    assert line.shares == text and "vote" not in line.text.lower()


def test_someone_who_cares_passes_on_an_intent_with_no_date() -> None:
    text = "Tom Moreno is collecting signatures to save the old bandstand"
    shared = seed_fact("Tom Moreno", text, intent="bandstand").fact
    memories = (heard(0, "Tom Moreno", text, importance=3, shared=shared),)
    jane = resident("Jane Moreno")  # Tom's wife: told by someone close
    assert [n.text for n in news_for(memories, jane, "John Lin", now=NOW)] == [text]
    stranger = replace(jane, relationships=(), interests=())
    assert news_for(memories, stranger, "John Lin", now=NOW) == []


def test_a_public_intent_heard_is_news_whatever_its_words() -> None:
    """The scenario declares the intent public: heard, it rates as news (the election's
    level), so whoever hears it passes it on and recalls it as news; a private one, or the
    same words with no intent, rate by their words ('help': 5)."""
    from game.brains.scripted.lexicon import importance
    from game.brains.scripted.news import NEWS_MIN_IMPORTANCE

    text = "Jane Moreno is looking for volunteers to help her repaint the old benches"
    shared = seed_fact("Jane Moreno", text, intent="benches").fact
    stranger = replace(resident("John Lin"), relationships=(), interests=())
    rating = importance(stranger, text, facts.claim("Jane Moreno", text, shared))
    assert rating >= NEWS_MIN_IMPORTANCE
    memories = (heard(0, "Jane Moreno", text, importance=rating, shared=shared),)
    assert [n.text for n in news_for(memories, stranger, "Tom Moreno", now=NOW)] == [text]
    secret = replace(shared, private=True)
    assert importance(stranger, text, facts.claim("Jane Moreno", text, secret)) < 6
    plain = facts.claim("Jane Moreno", text, None)
    assert importance(stranger, text, plain) < NEWS_MIN_IMPORTANCE


# -- the visitor's words ---------------------------------------------------------------------
def test_a_visitors_news_is_passed_on_as_the_visitors_words() -> None:
    latoya = "Latoya Williams"
    line = told(latoya, "Rajiv Patel", (visitor_claim(latoya),))
    assert line.shares == BAKE_SALE and "visitor" in line.text.lower()
    assert "bake sale at the college on Friday" in line.text
    second = facts.claim(latoya, line.shares, line.shared)
    assert (second.source, second.origin, second.heard_from) == (
        Source.HEARD,
        Source.VISITOR,
        latoya,
    )
    assert not second.subject  # it was about what was said, not about Latoya
    assert facts.render(second) == f'{latoya} said a visitor told them: "{BAKE_SALE}"'


def test_a_third_resident_still_knows_it_came_from_a_visitor() -> None:
    first = facts.claim("Latoya Williams", BAKE_SALE, visitor_claim("Latoya Williams").fact)
    memories = (of(0, first, MemoryKind.CHAT, 4, NOW - timedelta(hours=1)),)
    line = told("Rajiv Patel", "Abigail Chen", memories)
    assert "Latoya" in line.text and "visitor" in line.text.lower()
    third = facts.claim("Rajiv Patel", line.shares, line.shared)
    assert third.origin is Source.VISITOR and third.heard_from == "Rajiv Patel"
    assert third.kind is FactKind.CLAIM and not third.intent


def test_words_about_the_visitor_themself_stay_in_quotes() -> None:
    said = "I'm opening a bakery with a tasting on Friday"
    line = told("Latoya Williams", "Rajiv Patel", (visitor_claim("Latoya Williams", said),))
    assert f'"{said}"' in line.text  # 'I' is the visitor: never the teller's own words


def test_a_skeptic_repeats_a_strangers_claim_only_after_meeting_them_before() -> None:
    skeptic = replace(resident("Latoya Williams"), traits=("skeptical",))
    claim = visitor_claim(skeptic.name)
    assert news_for((claim,), skeptic, "Rajiv Patel", now=NOW) == []
    earlier = visitor_claim(skeptic.name, "Lovely town you have here", NOW - timedelta(days=1))
    assert news_for((earlier, replace(claim, index=2)), skeptic, "Rajiv Patel", now=NOW)


def test_a_visitors_remark_is_passed_on_only_if_it_matters_and_interests() -> None:
    latoya = resident("Latoya Williams")
    remark = visitor_claim(latoya.name, "The sky looked grey this morning")
    assert news_for((remark,), latoya, "Rajiv Patel", now=NOW) == []
    dull = replace(remark, importance=7)  # it matters, but names no event nor her interests
    assert news_for((dull,), latoya, "Rajiv Patel", now=NOW) == []
    topical = visitor_claim(latoya.name, "The photography club is closing down")
    assert news_for((replace(topical, importance=7),), latoya, "Rajiv Patel", now=NOW)


def test_a_relayed_claim_survives_a_save() -> None:
    fact = facts.claim("Latoya Williams", BAKE_SALE, visitor_claim("Latoya Williams").fact)
    assert decode(Fact, encode(fact, compact=True)) == fact
    assert decode(Fact, {"kind": "claim", "source": "heard"}).origin is None  # an old save


# -- answering an invitation -----------------------------------------------------------------
def test_work_at_the_venue_is_no_clash_and_a_topical_interest_is_the_reason() -> None:
    arthur = resident("Arthur Burton")  # tends the bar at the pub every evening
    decision = rsvp.decide(context(arthur, NOW), COOKOFF, "Tom Moreno", 0)
    assert decision is not None and "until" not in decision.reason
    cook = replace(resident("Jane Moreno"), interests=("music", "cooking"), relationships=())
    answers = [rsvp.decide(context(cook, NOW), COOKOFF, "John Lin", seed) for seed in range(8)]
    accepted = [a for a in answers if a is not None and a.answer is Rsvp.ACCEPTED]
    assert accepted and {a.reason for a in accepted} == {"I love cooking"}


def test_talk_module_still_reads_news_by_fields() -> None:
    """The talk rules' news comes from news_for, so a host with news seeks people out."""
    tom = resident("Tom Moreno")
    ctx = context(tom, NOW, (seed_fact(tom.name, COOKOFF_TEXT, COOKOFF),))
    without = context(tom, NOW, ())
    seen = see("Jane Moreno")
    assert talk_rules.talk_chance(ctx, seen) > talk_rules.talk_chance(without, seen)


def test_a_notice_is_passed_on_as_what_the_notice_says() -> None:
    board = "the notice board at Hobbs Cafe"
    fact = facts.notice_claim(board, "Latoya Williams", "Quiz night at the pub on Friday")
    memories = (of(0, fact, MemoryKind.OBSERVATION, 4, NOW - timedelta(hours=1)),)
    line = told("Latoya Williams", "Rajiv Patel", memories)
    assert board in line.text and '"Quiz night at the pub on Friday"' in line.text
    relayed = facts.claim("Latoya Williams", line.shares, line.shared)
    assert relayed.origin is Source.NOTICE and "a notice read" in facts.render(relayed)


def test_a_host_asks_whoever_it_meets_at_its_own_event_to_join_until_it_is_over() -> None:
    """Tamara, welcoming the first guests at her book launch in the pub, met Arthur (at the
    bar he runs) and talked of his regulars: an event under way was no news to anyone, so
    the host never asked him. Under way, the host still asks; a guest does not pass it on,
    and once it is over nobody does."""
    tom, jane = resident("Tom Moreno"), resident("Jane Moreno")
    hosted = (seed_fact(tom.name, COOKOFF_TEXT, COOKOFF),)
    during = COOKOFF.start + timedelta(minutes=20)
    news = news_for(hosted, tom, "Arthur Burton", now=during)
    assert news and news[0].own
    ctx = context(tom, during, hosted)
    hello = (Utterance(tom.name, "Hello!"), Utterance("Arthur Burton", "Hi, how are you?"))
    line = BRAIN.utter(ctx, "Arthur Burton", list(hello))
    assert line.shared is not None and line.shared.invited, line.text
    assert "chili cook-off" in line.text and "8 pm" in line.text, line.text
    heard_of = (heard(1, tom.name, COOKOFF_TEXT, shared=hosted[0].fact),)
    assert news_for(heard_of, jane, "Arthur Burton", now=during) == []
    assert news_for(hosted, tom, "Arthur Burton", now=COOKOFF.end) == []


def test_a_short_question_before_a_visitor_s_news_is_not_passed_on_as_asked() -> None:
    said = "Guess what? There is a quiz night at the pub on Thursday."
    line = told("Latoya Williams", "Rajiv Patel", (visitor_claim("Latoya Williams", said),))
    assert "quiz night at the pub on Thursday" in line.text and "Guess what?" not in line.text


def test_a_question_in_quotes_asks_yes_or_no_as_the_quoted_question_does() -> None:
    from game.brains.dialogue.form import is_yes_no

    assert is_yes_no('Tom told me a visitor said: "Have you heard? There is a fair."')
    assert is_yes_no('Interesting. "Do you know if it\'s so?')
