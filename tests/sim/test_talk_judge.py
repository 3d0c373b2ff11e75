"""The conversation judge: verdicts from answer text and ground truth only."""

import pytest

from game.sim.talk_judge import (
    Expectation,
    Lexicon,
    Verdict,
    answers,
    clock_times,
    denies,
    judge,
    last_question,
    polarity,
    question_kind,
    shape,
    words,
)

WORK = Expectation(
    need=(("digital", "artist", "animator", "artists' co-living space"),),
    wrong=("Oak Hill College", "The Rose and Crown Pub"),
)
HOUSEHOLD = Expectation(
    need=(("Francisco", "Hailey", "Latoya", "Rajiv", "artists' co-living space"),),
    wrong=("Jennifer", "Klaus", "Tom"),
    topic=("live", "housemates"),
)
PARTY_OVER = Expectation(
    need=(("Isabella", "Hobbs Cafe"), ("February 14", "5 pm", "yesterday", "last night")),
    past=True,
    topic=("party", "Valentine's Day party"),
)
LEX = Lexicon(
    people=("Isabella Rodriguez", "Isabella", "Klaus Mueller", "Klaus"),
    places=("Hobbs Cafe", "Johnson Park", "cafe"),
    topics=("party", "valentine", "gentrification"),
)


def test_a_plain_denial_is_a_non_answer():
    assert judge("I don't know, to be honest.", WORK) is Verdict.NON_ANSWER
    assert judge("", WORK) is Verdict.NON_ANSWER


def test_the_right_workplace_or_occupation_is_correct():
    assert judge("I work from my room at the artists' co-living space.", WORK) is (
        Verdict.CORRECT_SPECIFIC
    )
    assert judge("I'm an animator.", WORK) is Verdict.CORRECT_SPECIFIC


def test_a_wrong_workplace_is_wrong_even_beside_a_right_word():
    assert judge("I'm an artist at Oak Hill College.", WORK) is Verdict.WRONG


def test_a_wrong_housemate_is_wrong():
    assert judge("I live with Hailey and Klaus.", HOUSEHOLD) is Verdict.WRONG
    assert judge("I live with Hailey and Rajiv.", HOUSEHOLD) is Verdict.CORRECT_SPECIFIC


def test_on_topic_but_unspecific_is_vague():
    assert judge("I live with some housemates.", HOUSEHOLD) is Verdict.VAGUE
    assert judge("It's quiet around here.", HOUSEHOLD) is Verdict.NON_ANSWER


def test_an_ended_event_spoken_of_as_upcoming_is_wrong():
    upcoming = "Isabella is hosting a Valentine's Day party at Hobbs Cafe on February 14 at 5 pm."
    assert judge(upcoming, PARTY_OVER) is Verdict.WRONG
    past = "Isabella hosted a party at Hobbs Cafe last night, on February 14. It was fun."
    assert judge(past, PARTY_OVER) is Verdict.CORRECT_SPECIFIC


def test_an_ended_event_without_any_tense_is_not_correct():
    assert judge("Isabella's party at Hobbs Cafe, February 14.", PARTY_OVER) is Verdict.VAGUE


def test_yes_no_against_the_truth():
    going = Expectation(yes=True)
    assert judge("Yes, I'll be there!", going) is Verdict.CORRECT_SPECIFIC
    assert judge("No, I can't make it.", going) is Verdict.WRONG
    assert judge("I don't know yet.", going) is Verdict.NON_ANSWER
    assert judge("I'm not going, sorry.", Expectation(yes=False)) is Verdict.CORRECT_SPECIFIC


def test_a_yes_no_question_may_be_answered_by_the_fact_but_not_against_it():
    early = Expectation(need=(("8 am", "eight"),), yes=False)
    assert judge("I get up around 8 am.", early) is Verdict.CORRECT_SPECIFIC
    assert judge("Yes, at 8 am.", early) is Verdict.WRONG
    assert judge("I get up when I like.", early) is Verdict.NON_ANSWER


def test_a_resident_who_does_not_know_may_say_so_but_not_invent():
    bake = Expectation(need=(("bake sale",), ("college", "Friday", "3 pm")), unknown=True)
    assert judge("I haven't heard anything about that.", bake) is Verdict.CORRECT_SPECIFIC
    assert judge("Yes, the bake sale at the college on Friday.", bake) is Verdict.WRONG


def test_polarity_and_denial():
    assert polarity("Yeah, sure.") is True
    assert polarity("Nope.") is False
    assert polarity("I don't know.") is None
    assert polarity("No idea, sorry.") is False
    assert denies("Never heard of it.") and not denies("I know Klaus well.")


def test_content_words_drop_stopwords_and_possessives():
    assert words("Isabella's party at the cafe") == ["isabella", "party", "cafe"]


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When does it start?", "when"),
        ("What time is the party?", "when"),
        ("Where are you off to?", "where"),
        ("Who is hosting it?", "who"),
        ("Say, Klaus, are you coming?", "yesno"),
        ("How's work going?", "open"),
    ],
)
def test_question_kinds(question, kind):
    assert question_kind(question) == kind


def test_a_reply_answers_by_kind_or_by_shared_words():
    assert answers("When is the party?", "Tomorrow at 5 pm.", LEX)
    assert not answers("When is the party?", "I've been thinking about cooking.", LEX)
    assert answers("Are you coming?", "Yes, of course!", LEX)
    assert answers("How is your gentrification paper?", "The gentrification paper is slow.", LEX)
    assert not answers("Where is Klaus?", "I don't know.", LEX)
    assert not answers("How was your morning?", "How was yours?", LEX)


def test_last_question_of_a_line():
    assert last_question("Hi Klaus. How are you? Busy?") == "Busy?"
    assert last_question("Hello there.") == ""


def test_shapes_fold_names_places_numbers_and_topics():
    a = shape("Isabella is throwing a party at Hobbs Cafe at 5 pm.", LEX)
    b = shape("Klaus is throwing a party at Johnson Park at 7 pm.", LEX)
    assert a == b == "<name> is throwing a <topic> at <place> at <num>"
    assert shape("Klaus is reading.", LEX) != shape("Klaus is cooking.", LEX)


# -- clock times ---------------------------------------------------------------------------

WAKES_AT_FOUR = Expectation(
    need=(("4:00 am", "4:00am", "04:00", "4:00", "4 am", "4am", "four", "four o'clock"),),
    topic=("get up", "wake"),
)


def test_clock_times_are_read_with_the_half_of_the_day_they_may_mean():
    assert clock_times("I get up at 4 AM") == [frozenset({240})]
    assert clock_times("around 6:00") == [frozenset({360, 1080})]
    assert clock_times("from 5 to 7 pm") == [frozenset({1020}), frozenset({1140})]
    assert clock_times("at 16:00, or at noon") == [frozenset({960}), frozenset({720})]
    assert clock_times("ten o'clock") == [frozenset({600, 1320})]
    assert clock_times("I have 2 kids and I'm up by 6") == []  # not said as times


def test_a_time_the_truth_contradicts_is_wrong():
    """Qwen 1.5B said 'around 6:00 AM' of one who wakes at 4: not a non-answer."""
    for said in ("I usually get up around 6:00 AM.", "Around 5 AM.", "At 16:00."):
        assert judge(said, WAKES_AT_FOUR) is Verdict.WRONG, said
    assert judge("I usually get up at 4 AM.", WAKES_AT_FOUR) is Verdict.CORRECT_SPECIFIC
    assert judge("Early, around 4:20 am.", WAKES_AT_FOUR) is not Verdict.WRONG  # within slack
    assert judge("Early, I'd say.", WAKES_AT_FOUR) is not Verdict.WRONG  # no time said


def test_a_group_that_is_not_all_times_is_not_read_as_one():
    """The party's need 'on February 14, or at 5 pm, or yesterday' is not a clock time:
    a time beside the date contradicts nothing."""
    said = "Isabella hosted it at Hobbs Cafe on February 14, from 6 to 8 pm."
    assert judge(said, PARTY_OVER) is Verdict.CORRECT_SPECIFIC
