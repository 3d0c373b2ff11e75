"""Reading events out of words (a visitor's speech, seed sentences, questions), in the
phrasings people actually use."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from game.brains.event_words import event_host, event_name, find_window, parse_event
from game.core.records import Event

PLACES = ("Hobbs Cafe", "The Rose and Crown Pub", "Johnson Park", "Oak Hill College")
PARTY = (
    "Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe "
    "on February 14 from 5 pm to 7 pm"
)


def when(day: int, hour: int, minute: int = 0, month: int = 2) -> datetime:
    return datetime(2023, month, day, hour, minute)


def test_the_seeded_party() -> None:
    event = parse_event(PARTY, PLACES)
    assert event == Event(
        "Hobbs Cafe", when(14, 17), when(14, 19), "Valentine's Day party", "Isabella Rodriguez"
    )
    assert event.minutes == 120


@pytest.mark.parametrize(
    ("text", "start", "end", "place"),
    [
        (
            "party at the Rose and Crown Pub on Feb 14th, 5-7 pm",
            when(14, 17),
            when(14, 19),
            "The Rose and Crown Pub",
        ),
        (
            "a picnic in Johnson Park on Valentine's Day at 5 pm",
            when(14, 17),
            when(14, 19),
            "Johnson Park",
        ),
        (
            "dinner at Hobbs Cafe on 14 February from 11 to 1 pm",
            when(14, 11),
            when(14, 13),
            "Hobbs Cafe",
        ),
        (
            "a meeting at Hobbs Cafe on 2023-03-01 at 17:30",
            when(1, 17, 30, 3),
            when(1, 19, 30, 3),
            "Hobbs Cafe",
        ),
        (
            "a reading at Oak Hill College on March 3 between 6:30 pm and 8 pm",
            when(3, 18, 30, 3),
            when(3, 20, 0, 3),
            "Oak Hill College",
        ),
        ("a lunch at Hobbs Cafe on February 20 at noon", when(20, 12), when(20, 14), "Hobbs Cafe"),
        (
            "a concert at hobbs cafe on feb 16 from 8 pm to 10 pm",
            when(16, 20),
            when(16, 22),
            "Hobbs Cafe",
        ),
    ],
)
def test_phrasings(text: str, start: datetime, end: datetime, place: str) -> None:
    event = parse_event(text, PLACES)
    assert event is not None, text
    assert (event.place, event.start, event.end) == (place, start, end)


def test_relative_days_need_today() -> None:
    text = "Isabella: I'm hosting a party at Hobbs Cafe tomorrow from five to seven in the evening"
    assert parse_event(text, PLACES) is None
    event = parse_event(text, PLACES, today=date(2023, 2, 13))
    assert event is not None
    assert (event.start, event.end) == (when(14, 17), when(14, 19))
    assert event.host == "Isabella"


def test_weekday_and_tonight() -> None:
    monday = date(2023, 2, 13)
    event = parse_event(
        "quiz night at The Rose and Crown Pub on Wednesday at 8 pm", PLACES, today=monday
    )
    assert event is not None and event.start == when(15, 20)
    event = parse_event("drinks at The Rose and Crown Pub tonight", PLACES, today=monday)
    assert event is not None and event.start == when(13, 19)


def test_reported_speech_keeps_host() -> None:
    event = parse_event(f"Maria Lopez told me: {PARTY}", PLACES)
    assert event is not None
    assert event.host == "Isabella Rodriguez"


@pytest.mark.parametrize(
    "text",
    [
        "Isabella opens the cafe at eight in the morning and closes it at eight in the evening",
        "a party at Hobbs Cafe from 5 pm to 7 pm",  # no day
        "a party on February 14 from 5 pm to 7 pm",  # no place
        "a party at Hobbs Cafe on February 14",  # no time
        "a party at Hobbs Cafe on February 30 at 5 pm",  # no such day
        "",
    ],
)
def test_no_event_without_place_day_and_time(text: str) -> None:
    assert parse_event(text, PLACES) is None


def test_year_is_a_parameter() -> None:
    event = parse_event(PARTY, PLACES, year=2024)
    assert event is not None and event.start.year == 2024


def test_place_after_at_wins() -> None:
    text = "after a walk in Johnson Park, a party at Hobbs Cafe on February 14 at 6 pm"
    event = parse_event(text, PLACES)
    assert event is not None and event.place == "Hobbs Cafe"


def test_window_and_names() -> None:
    assert find_window("from 9 am to 11:30 am") == (9 * 60, 11 * 60 + 30)
    assert find_window("at 10 am tomorrow") == (10 * 60, 12 * 60)
    assert find_window("nothing here") is None
    assert event_name("Sam is throwing a surprise birthday party for Jennifer") == (
        "surprise birthday party"
    )
    assert event_host("Jennifer Moore is holding an exhibition at Hobbs Cafe") == "Jennifer Moore"
    assert event_host("a party at the pub") == ""


def test_possessive_event_names() -> None:
    assert event_name("going to Isabella's Valentine's Day party at Hobbs Cafe") == (
        "Valentine's Day party"
    )


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("Giorgio is hosting a stargazing evening in Johnson Park on February 14 from 7 pm to "
         "9 pm", "stargazing evening"),
        ("Arthur is hosting a quiz night at The Rose and Crown Pub on February 14 from 8 pm to "
         "10 pm", "quiz night"),
        ("Isabella is planning a Valentine's Day party at Hobbs Cafe on February 14 from 5 pm "
         "to 7 pm", "Valentine's Day party"),
        ("Tom is hosting a chili cook-off at The Rose and Crown Pub on February 14 from 6 pm to "
         "8 pm", "chili cook-off"),
    ],
)  # fmt: skip
def test_an_event_is_named_by_what_is_hosted_not_only_by_a_known_noun(text: str, what: str):
    """An event's name is what the host hosts, whether or not the code knows its kind: the
    host of a stargazing evening planned 'hosting the event at Johnson Park', and a quiz
    night's host 'the quiz', while the guests said 'quiz night'."""
    places = ("Johnson Park", "The Rose and Crown Pub", "Hobbs Cafe")
    event = parse_event(text, places, today=date(2023, 2, 13))
    assert event is not None and event.what == what
