"""Importance, places, objects, emoji, reflection, summaries and interviews."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from test_scripted_personas import (
    BERT,
    DAY,
    IRIS,
    LEO,
    NORA,
    Brain,
    context,
    did,
    heard,
    memory,
    planned,
    roles_of,
    seeds,
    seen,
    smallville,
    talked,
)

from game.brains.scripted.util import pick
from game.core.records import PlanItem
from game.mind import facts
from game.world.town import AreaKind

BRAIN = Brain(seed=0)
NOW = DAY + timedelta(hours=15)
PARTY_FACT = (
    "Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe on February 14 "
    "from 5 pm to 7 pm"
)


# -- importance ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("cleaning up the room", 2, 2),
        ("asking your crush out on a date", 8, 8),
        ("brushing teeth", 1, 1),
        ("Isabella Rodriguez is sleeping", 1, 1),
        ("the bed is idle", 1, 1),
        ("Maria Lopez is studying at the desk", 2, 3),
        ("John Lin is eating breakfast", 1, 2),
        ("Leo Park is eating breakfast", 2, 2),
        ("Leo Park is studying for an exam", 2, 3),
        ("Conversation with Maria Lopez: Klaus: Hi! / Maria: Hello!", 3, 4),
        (f"Isabella Rodriguez said: {PARTY_FACT}", 6, 8),
        ("Jennifer Moore is preparing an exhibition of her paintings", 6, 8),
        ("the stove in the kitchen of Lin family's house is burning", 8, 9),
        ("Tom broke up with his girlfriend", 10, 10),
        ("Klaus proposed to Maria", 10, 10),
    ],
)
def test_importance_examples(text: str, low: int, high: int) -> None:
    (score,) = BRAIN.rate_importance(LEO, [text])
    assert low <= score <= high, (text, score)


def test_importance_is_one_to_ten_and_news_of_interest_matters_more() -> None:
    texts = ["", "x", "Sam Moore is running for mayor of Smallville", "a" * 500]
    assert all(1 <= s <= 10 for s in BRAIN.rate_importance(LEO, texts))
    election = "Sam Moore is running for mayor of Smallville"
    assert BRAIN.rate_importance(BERT, [election])[0] > BRAIN.rate_importance(LEO, [election])[0]


# -- choosing areas --------------------------------------------------------------------------
DORM = [
    "Ayesha Khan's room",
    "Klaus Mueller's room",
    "Maria Lopez's room",
    "common room",
    "bathroom 1",
    "bathroom 2",
]
LIN = ["Mei and John Lin's bedroom", "Eddy Lin's bedroom", "common room", "kitchen", "bathroom"]
SECTORS = [
    "Hobbs Cafe",
    "The Rose and Crown Pub",
    "Johnson Park",
    "Oak Hill College",
    "The Willows Market and Pharmacy",
    "Lin family's house",
    "Oak Hill College Dorm",
]


def choose(name: str, action: str, level: AreaKind, options, current="", hint="") -> str:
    persona = smallville().resident(name)
    roles = roles_of(options)
    return BRAIN.choose_area(context(persona), action, level, options, current, hint, roles)


@pytest.mark.parametrize(
    ("name", "action", "level", "options", "expected"),
    [
        ("Maria Lopez", "sleeping", AreaKind.SECTOR, SECTORS, "Oak Hill College Dorm"),
        ("Maria Lopez", "sleeping", AreaKind.ARENA, DORM, "Maria Lopez's room"),
        ("Maria Lopez", "studying physics", AreaKind.ARENA, DORM, "Maria Lopez's room"),
        ("Maria Lopez", "taking a shower", AreaKind.ARENA, DORM, "bathroom 1"),
        (
            "Maria Lopez",
            "streaming games online",
            AreaKind.OBJECT,
            ["bed", "desk", "streaming setup"],
            "streaming setup",
        ),
        (
            "Eddy Lin",
            "composing music",
            AreaKind.OBJECT,
            ["bed", "desk", "music keyboard"],
            "music keyboard",
        ),
        ("Eddy Lin", "practising scales", AreaKind.ARENA, LIN, "Eddy Lin's bedroom"),
        ("Eddy Lin", "watching TV", AreaKind.ARENA, LIN, "common room"),
        ("John Lin", "sleeping", AreaKind.ARENA, LIN, "Mei and John Lin's bedroom"),
        (
            "Isabella Rodriguez",
            "making espresso for a customer",
            AreaKind.OBJECT,
            ["cafe counter", "coffee machine", "cafe customer seating"],
            "coffee machine",
        ),
        ("Isabella Rodriguez", "having a beer", AreaKind.SECTOR, SECTORS, "The Rose and Crown Pub"),
        ("Isabella Rodriguez", "taking a walk", AreaKind.SECTOR, SECTORS, "Johnson Park"),
        (
            "John Lin",
            "filling a prescription",
            AreaKind.OBJECT,
            ["grocery shelves", "cashier counter", "pharmacy counter"],
            "pharmacy counter",
        ),
        (
            "Jennifer Moore",
            "painting watercolours",
            AreaKind.OBJECT,
            ["easel", "paint table"],
            "easel",
        ),
        ("Sam Moore", "cooking dinner", AreaKind.OBJECT, ["stove", "refrigerator"], "stove"),
    ],
)
def test_keyword_choices(name, action, level, options, expected) -> None:
    assert choose(name, action, level, options) == expected


def test_the_hint_wins_then_staying_put() -> None:
    hint = "Hobbs Cafe:cafe:cafe counter"
    assert choose("Maria Lopez", "sleeping", AreaKind.SECTOR, SECTORS, hint=hint) == "Hobbs Cafe"
    options = ["cafe counter", "coffee machine"]
    assert choose("Maria Lopez", "zzz", AreaKind.OBJECT, options, hint=hint) == "cafe counter"
    assert choose("Maria Lopez", "zzz", AreaKind.OBJECT, options, "coffee machine") == (
        "coffee machine"
    )
    assert choose("Eddy Lin", "eating dinner", AreaKind.ARENA, LIN, current="kitchen") == "kitchen"


def test_nobody_picks_someone_elses_room() -> None:
    for action in ("sleeping", "reading", "zzz", "getting dressed"):
        assert choose("Maria Lopez", action, AreaKind.ARENA, DORM) not in DORM[:2]
        assert choose("Eddy Lin", action, AreaKind.ARENA, LIN) != "Mei and John Lin's bedroom"


def test_choose_area_always_returns_an_option() -> None:
    words = ["sleep", "cook", "read", "walk", "zzz", "espresso", "paint", "tv", "class", "pub"]
    pools = [SECTORS, DORM, LIN, ["a"], ["stove", "bed", "desk"], ["x", "y", "z"]]
    for i in range(300):
        options = pools[i % len(pools)]
        action = " ".join(pick(words, i, k) for k in range(2))
        level = pick(list(AreaKind), i, "level")
        hint = pick(["", "Hobbs Cafe", "nowhere:at:all", "Lin family's house:kitchen:stove"], i)
        got = choose("Eddy Lin", action, level, options, pick(["", *options], i, "c"), hint)
        assert got in options


# -- objects and emoji -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "obj", "state"),
    [
        ("making espresso for a customer", "Hobbs Cafe:cafe:coffee machine", "brewing coffee"),
        ("cooking dinner", "Lin family's house:kitchen:stove", "cooking"),
        ("sleeping", "Lin family's house:Eddy Lin's bedroom:bed", "being slept in"),
        ("taking a shower", "x:bathroom:shower", "running water"),
        ("practising the piano", "Hobbs Cafe:cafe:piano", "being played"),
        ("watching the news", "x:common room:television", "showing the news"),
        ("writing a paragraph", "x:room:desk", "in use"),
        ("turning off the burning stove", "x:kitchen:stove", "off"),
        ("fixing the leaking shower", "x:bathroom:shower", "idle"),
    ],
)
def test_object_states(action: str, obj: str, state: str) -> None:
    assert BRAIN.object_state(LEO, action, obj, "idle") == state


@pytest.mark.parametrize(
    ("action", "symbol"),
    [
        ("sleeping", "😴"),
        ("making espresso", "☕"),
        ("cooking dinner", "🍳"),
        ("studying", "📚"),
        ("painting", "🎨"),
        ("playing the piano", "🎹"),
        ("taking a shower", "🚿"),
        ("brushing teeth", "🪥"),
        ("taking a walk", "🚶"),
        ("going for a run", "🏃"),
        ("chatting with Maria", "💬"),
        ("hosting the party", "🎉"),
        ("campaigning for mayor", "🗳️"),
        ("filling a prescription", "💊"),
        ("having a beer at the pub", "🍺"),
        ("taking photos", "📷"),
        ("writing code", "💻"),
        ("turning off the burning stove", "🧯"),
        ("fixing the leaking shower", "🔧"),
    ],
)
def test_emoji(action: str, symbol: str) -> None:
    assert BRAIN.emoji(action).startswith(symbol)
    assert 1 <= len(BRAIN.emoji(action)) <= 8


def test_emoji_default() -> None:
    assert BRAIN.emoji("zzz qqq") == "🙂"


# -- reflection ------------------------------------------------------------------------------
KLAUS, MARIA = "Klaus Mueller", "Maria Lopez"
PAIR = (KLAUS, MARIA)
FRIENDS = facts.statement(
    KLAUS, "Klaus is friends with his classmate Maria Lopez", facts.Source.SEED
)
STOVE = facts.object_state("Klaus Mueller's room:stove", "idle")


def klaus_memories():
    when = DAY + timedelta(hours=9)
    return (
        memory(0, "Klaus is friends with his classmate Maria Lopez", when=DAY, fact=FRIENDS),
        seen(1, "Maria Lopez", "studying at the desk", when),
        heard(2, "Maria Lopez", PARTY_FACT, 7, when),
        talked(3, "Klaus Mueller", PAIR, [(KLAUS, "Hi Maria!"), (MARIA, "Hey Klaus!")], 4, when),
        seen(4, "Maria Lopez", "drinking coffee at the cafe", when),
        did(5, "Klaus Mueller", "writing his research paper", when),
        did(6, "Klaus Mueller", "writing his research paper", when + timedelta(hours=1)),
        memory(7, "the stove is idle", importance=1, when=when, fact=STOVE),
    )


def test_reflect_questions_name_the_most_seen_person_and_the_news() -> None:
    klaus = smallville().resident("Klaus Mueller")
    questions = BRAIN.reflect_questions(klaus, klaus_memories())
    assert len(questions) == 3 and len(set(questions)) == 3
    assert "Maria Lopez" in questions[0]
    assert any("Valentine's Day party" in q for q in questions)
    assert len(BRAIN.reflect_questions(LEO, ())) == 3


def test_insights_cite_real_memories_and_invent_nobody() -> None:
    klaus = smallville().resident("Klaus Mueller")
    memories = klaus_memories()
    for question in BRAIN.reflect_questions(klaus, memories):
        found = BRAIN.insights(klaus, question, memories)
        assert 1 <= len(found) <= 5
        for insight in found:
            assert insight.evidence and all(0 <= i < len(memories) for i in insight.evidence)
            cited = " ".join(memories[i].text for i in insight.evidence)
            for name in re.findall(r"[A-Z][a-z]+ [A-Z][a-z]+", insight.text):
                assert name == klaus.name or name in cited or name.split()[0] in cited, insight


def test_insights_count_conversations() -> None:
    klaus = smallville().resident("Klaus Mueller")
    found = BRAIN.insights(
        klaus, "What is Klaus Mueller's relationship with Maria Lopez?", klaus_memories()
    )
    talked = next(i for i in found if "Maria Lopez" in i.text)
    assert talked.evidence == (2, 3)
    assert all(len(i.evidence) >= 2 for i in found), "an insight cites two memories or more"
    assert BRAIN.insights(klaus, "anything?", ()) == []


def test_summaries() -> None:
    klaus = smallville().resident("Klaus Mueller")
    memories = klaus_memories()
    core = BRAIN.summarize(klaus, "Klaus Mueller's core characteristics", memories)
    assert "kind and passionate" in core
    job = BRAIN.summarize(klaus, "Klaus Mueller's current daily occupation", memories)
    assert "sociology student" in job
    feel = BRAIN.summarize(
        klaus, "Klaus Mueller's feeling about his recent progress in life", memories
    )
    assert klaus.name in feel and "writing" in feel
    day = BRAIN.summarize(klaus, "what Klaus Mueller did on February 13", memories)
    assert "Maria Lopez" in day and "Hi Maria" not in day
    for text in (core, job, feel, day):
        assert 0 < len(text) < 600


# -- interviews ------------------------------------------------------------------------------
EMPTY_QUESTIONS = {
    "Who is running for mayor?": "haven't heard",
    "Do you know about any party?": "haven't heard",
    "Who is Giorgio Rossi?": "don't know who that is",
    "If you could spend time with one person you met recently, who would it be and why?": (
        "haven't really spent time"
    ),
    "What is your favourite book about dragons?": "don't know",
}


@pytest.mark.parametrize(("question", "words"), EMPTY_QUESTIONS.items())
def test_without_memories_nobody_claims_to_know(question: str, words: str) -> None:
    assert words in BRAIN.answer(context(LEO, NOW, ()), question)


def test_answers_name_their_source() -> None:
    tom = smallville().resident("Tom Moreno")
    sam = smallville().resident("Sam Moore")
    running = next(m.fact for m in seeds(sam) if m.fact.intent == "election")
    told = heard(1, "Sam Moore", "Sam Moore is running for mayor of Smallville", shared=running)
    news = heard(2, "Jane Moreno", PARTY_FACT)
    ctx = context(tom, NOW, (told, news))
    mayor = BRAIN.answer(ctx, "Who is running for mayor?")
    assert "Sam Moore is running for mayor" in mayor and "Sam told me" in mayor
    party = BRAIN.answer(ctx, "Do you know about any party?")
    assert "Jane Moreno told me" in party and "Valentine" in party
    assert "do not like" in BRAIN.answer(ctx, "Who is Sam Moore?")


def test_the_candidate_and_the_host_speak_for_themselves() -> None:
    town = smallville()
    sam, isabella = town.resident("Sam Moore"), town.resident("Isabella Rodriguez")
    assert BRAIN.answer(context(sam, NOW, seeds(sam)), "Who is running for mayor?").startswith(
        "Yes! I'm running for mayor"
    )
    party = BRAIN.answer(context(isabella, NOW, seeds(isabella)), "Do you know about any party?")
    assert party.startswith("Yes! I'm planning a Valentine's Day party")


def test_introduction_plans_and_emergencies() -> None:
    klaus = smallville().resident("Klaus Mueller")
    ctx = context(klaus, NOW, klaus_memories())
    intro = BRAIN.answer(ctx, "Give an introduction of yourself")
    assert intro.startswith("I'm Klaus Mueller") and "sociology" in intro
    ten = BRAIN.answer(ctx, "What will you be doing at 10 am tomorrow?")
    assert "researching gentrification" in ten
    assert "asleep" in BRAIN.answer(ctx, "What will you be doing at 3 am tomorrow?")
    fire = BRAIN.answer(ctx, "Your breakfast is burning! What would you do?")
    assert "turn off" in fire and "stove" in fire
    friend = BRAIN.answer(
        ctx, "If you could spend time with one person you met recently, who would it be and why?"
    )
    assert "Maria Lopez" in friend
    who = BRAIN.answer(ctx, "Who is Maria Lopez?")
    assert who.startswith("Maria Lopez is a classmate and friend")


def test_a_guest_says_where_it_will_be_during_the_party() -> None:
    maria = smallville().resident("Maria Lopez")
    news = heard(1, "Isabella Rodriguez", PARTY_FACT)
    got = BRAIN.answer(
        context(maria, NOW, (news,)), "What will you be doing at 6 pm on February 14?"
    )
    assert "Valentine's Day party" in got


def test_hand_made_personas_answer_too() -> None:
    for persona in (NORA, LEO, IRIS, BERT):
        ctx = context(persona, NOW, seeds(persona))
        assert persona.name in BRAIN.answer(ctx, "Give an introduction of yourself")
        assert BRAIN.answer(ctx, "What will you be doing at 10 am tomorrow?")


def plan_items() -> tuple[PlanItem, ...]:
    day = DAY + timedelta(days=1)
    rows = (
        ("10:00", 30, "waking up and getting ready for the day"),
        ("10:30", 30, "having breakfast"),
        ("11:00", 180, "attending physics classes"),
        ("14:00", 180, "studying physics"),
        ("17:00", 120, "going to Isabella's Valentine's Day party at Hobbs Cafe"),
        ("19:00", 300, "streaming games online"),
    )
    return tuple(
        PlanItem(text, day + timedelta(hours=int(at[:2]), minutes=int(at[3:])), minutes)
        for at, minutes, text in rows
    )


def test_the_plan_memory_answers_what_one_will_do() -> None:
    maria = smallville().resident("Maria Lopez")
    plan = planned(3, "Maria Lopez", plan_items(), DAY + timedelta(days=1, hours=10))
    ctx = context(maria, DAY + timedelta(days=1, hours=11), (plan,))
    got = BRAIN.answer(ctx, "What will you be doing at 3 pm?")
    assert got.startswith("According to my plan, I'll be studying physics")
    assert "2 pm to" in got  # the item's own time, so 'where/when will you be' is answered


def test_a_day_summary_tells_activities_people_and_news() -> None:
    klaus = smallville().resident("Klaus Mueller")
    got = BRAIN.summarize(klaus, "what Klaus Mueller did on Monday February 13", klaus_memories())
    assert got.startswith("Klaus spent the day writing")
    assert "talked with Maria Lopez" in got and "heard that Isabella Rodriguez" in got
    other_day = BRAIN.summarize(klaus, "what Klaus Mueller did on March 2", klaus_memories())
    assert other_day == "Klaus Mueller has no memories of that day."


def test_everyone_has_something_to_look_forward_to() -> None:
    """The event one means to go to first; else the work one cares about, else the day's
    plan or one's interests: never "I don't know anything about that"."""
    town = smallville()
    maria, klaus = town.resident("Maria Lopez"), town.resident("Klaus Mueller")
    news = heard(1, "Isabella Rodriguez", PARTY_FACT)
    party = BRAIN.answer(context(maria, NOW, (news,)), "What are you looking forward to?")
    assert party.startswith("I'm looking forward to going to Isabella's Valentine's Day party")
    assert "5 pm" in party
    work = BRAIN.answer(context(klaus, NOW, seeds(klaus)), "What are you looking forward to?")
    assert "research paper" in work and "know" not in work
    for persona in (NORA, LEO, IRIS, BERT):
        got = BRAIN.answer(context(persona, NOW, ()), "What are you excited about these days?")
        assert got and "don't know" not in got


def test_what_was_said_with_someone_comes_from_the_conversation() -> None:
    tom = smallville().resident("Tom Moreno")
    morning = DAY + timedelta(hours=9)
    chat = talked(1, "Tom Moreno", ("Klaus Mueller", "Tom Moreno"), (
        ("Klaus Mueller", "Hi Tom!"),
        ("Tom Moreno", "Hello Klaus."),
        ("Klaus Mueller", "I finished the chapter on rents. Now I need a break."),
    ), when=morning)  # fmt: skip
    ctx = context(tom, DAY + timedelta(hours=15), (chat,))
    got = BRAIN.answer(ctx, "What did you talk about with Klaus?")
    said = '"I finished the chapter on rents. Now I need a break."'
    assert got == f"We talked this morning. Klaus said: {said}"
    assert BRAIN.answer(ctx, "What did Klaus tell you?") == got
    news = heard(2, "Klaus Mueller", PARTY_FACT, when=morning)
    afternoon = context(tom, DAY + timedelta(hours=15), (chat, news))
    told = BRAIN.answer(afternoon, "What did Klaus say?")
    assert told.startswith("We talked this morning. Klaus told me that") and "party" in told
    later = context(tom, DAY + timedelta(days=1, hours=8), (chat,))
    assert "yesterday morning" in BRAIN.answer(later, "What did you talk about with Klaus?")
    nobody = BRAIN.answer(ctx, "Did you talk to Giorgio Rossi?")
    assert nobody == "I haven't talked with Giorgio lately."


def test_how_one_is_is_an_answer_with_the_day_in_it() -> None:
    tom = smallville().resident("Tom Moreno")
    chat = talked(1, "Tom Moreno", ("Jane Moreno", "Tom Moreno"), (("Jane Moreno", "Hi!"),))
    ctx = context(tom, DAY + timedelta(hours=15), (chat,), status="running the grocery store")
    for question in ("How are you feeling today?", "How are you?", "Are you happy?"):
        got = BRAIN.answer(ctx, question)
        assert "running the grocery store" in got and "talk with Jane" in got
        assert "don't know" not in got


EVERYDAY_QUESTIONS = (
    "Hi! What's your name?",
    "Where do you work?",
    "What do you like to do for fun?",
    "Do you have any plans for this weekend?",
    "Who are your friends?",
    "What's new?",
    "Tell me about your family.",
    "What did you have for breakfast?",
    "Where are you right now?",
    "Have you heard any gossip?",
    "How are you?",
)


@pytest.mark.parametrize("name", ["Isabella Rodriguez", "Klaus Mueller", "Tom Moreno"])
def test_everyday_questions_get_an_answer_of_their_own(name: str) -> None:
    """What a visitor asks first: each gets an answer, not the fallback, and no two of
    these questions get the same answer."""
    persona = smallville().resident(name)
    ctx = context(persona, NOW, seeds(persona), status="reading a book")
    answers = [BRAIN.answer(ctx, q) for q in EVERYDAY_QUESTIONS]
    for question, got in zip(EVERYDAY_QUESTIONS, answers, strict=True):
        assert got and "don't know anything" not in got and "All I can tell" not in got, question
    assert len(set(answers)) >= len(answers) - 2  # news and gossip may agree


def test_news_told_in_person_names_the_teller_once() -> None:
    klaus = smallville().resident("Klaus Mueller")
    news = heard(1, "Isabella Rodriguez", PARTY_FACT)
    got = BRAIN.answer(context(klaus, NOW, (news,)), "Any news?")
    assert got.startswith("Have you heard?") and "Valentine" in got


def test_likes_favourites_belongings_and_small_talk_stay_in_character() -> None:
    maria = smallville().resident("Maria Lopez")
    ctx = context(maria, NOW, seeds(maria))
    ask = lambda q: BRAIN.answer(ctx, q)  # noqa: E731
    assert ask("Do you like physics?") == "Yes, I love physics!"
    assert ask("Do you like living in Smallville?").startswith("I do.")
    assert ask("What's your favourite food?").startswith("I don't know, it's hard to pick")
    assert ask("Do you have a dog?") == "No pets, no."
    assert "secret" in ask("Tell me a secret.")
    assert ask("What time is it?") == "It's about 3 pm."
    assert "Sam Moore" not in ask("What's your favourite thing about Smallville?")
    nothing = ask("What is the meaning of life?")
    assert "don't know" in nothing and "physics" in nothing  # in character, not a stray fact


def test_going_to_an_event_is_a_yes_or_no_from_the_plan() -> None:
    maria = smallville().resident("Maria Lopez")
    news = heard(1, "Isabella Rodriguez", PARTY_FACT)
    got = BRAIN.answer(context(maria, NOW, (news,)), "Are you going to the party?")
    assert got.startswith("Yes! I'll be going to Isabella's Valentine's Day party")


def test_asked_what_is_coming_the_day_after_an_event_one_speaks_of_it_as_past() -> None:
    """'Anything worth going out for in the next few days?' the morning after the party:
    one who knew of it says nothing is coming and that the party was yesterday, as people
    do, not 'Nothing in particular on the calendar' as if it never was (a future phrasing
    found 4 of the 22 knowers its past twin found on a hidden-style run)."""
    from game.brains.scripted.interview_plans import _ahead

    arthur = smallville().resident("Arthur Burton")
    party = smallville().intents[0].event
    assert party is not None
    news = heard(1, "Isabella Rodriguez", PARTY_FACT, when=party.start - timedelta(days=1))
    morning = party.end + timedelta(hours=14)
    said = _ahead(context(arthur, morning, (news,)), "Anything on in the next few days?", 0)
    assert "Valentine's Day party" in said and "yesterday" in said, said
    week_on = _ahead(context(arthur, morning + timedelta(days=4), (news,)), "Anything on?", 0)
    assert "Valentine's Day party" not in week_on, week_on  # old news is not brought up
