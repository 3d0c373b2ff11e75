"""Typed chat is spelled out before a line is read: shorthand by the table, typos by the
nearest vocabulary word one edit away, the town's names never touched; and a line typed
without its question mark is still a question when its words ask."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.brains.dialogue.acts import ActKind, Aspect
from game.brains.dialogue.spelling import Speller, chat_words
from tests.brains.test_dialogue import words

NOW = datetime(2023, 2, 13, 10, 0)
RANKED = ["the", "that", "what", "suppose", "typical", "morning", "wait", "tomorrow", "than"]


def test_shorthand_is_spelled_out_from_the_table():
    speller = Speller(RANKED)
    assert speller.fix("wat r u doing rn") == "what are you doing right now"
    assert chat_words()["dont"] == "don't"


def test_a_typo_becomes_the_most_frequent_word_one_edit_away():
    speller = Speller(RANKED)
    assert speller.fix("Where's the shop for taht?") == "Where's the shop for that?"
    assert speller.fix("Supose it rains tomorow") == "Suppose it rains tomorrow"
    assert speller.fix("a tipical mornin") == "a typical morning"


def test_names_short_words_and_words_without_a_neighbour_stay_as_typed():
    speller = Speller(RANKED, keep=["hobbs", "thet"])
    assert speller.fix("Hobbs") == "Hobbs"  # a name of the town
    assert speller.fix("thet") == "thet"
    assert speller.fix("zq xyzzy") == "zq xyzzy"  # short, or nothing one edit away


def test_forms_and_compounds_of_vocabulary_words_are_words_not_typos():
    """'bake' is one edit from 'make', but 'baked' says it is a word: a visitor's bake sale
    must reach the listener as said."""
    speller = Speller(["make", "baked", "screw", "driver", "plumbing", "lumber", "that"])
    assert speller.fix("a bake sale") == "a bake sale"  # 'baked' less its ending
    assert speller.fix("my plumber") == "my plumber"  # a sibling of 'plumbing'
    assert speller.fix("a screwdriver") == "a screwdriver"  # two words run together
    assert speller.fix("taht") == "that"  # still a typo: no form of a vocabulary word


@pytest.mark.parametrize(
    ("text", "aspect"),
    [
        ("whatcha up 2 rn", Aspect.DOING),
        ("so wat do u do 4 a living", Aspect.WORK),
        ("tomorow any plans", Aspect.PLANS),
        ("whos in ur family", Aspect.FAMILY),
    ],
)
def test_typed_chat_is_understood_as_the_question_it_is(text, aspect):
    act = words().understand(text, NOW)
    assert act.kind is ActKind.QUESTION and act.aspect is aspect, act


@pytest.mark.parametrize("text", ["my name is jo", "I'll see you when the party starts",
                                  "that's how it goes"])
def test_an_unmarked_line_whose_words_do_not_ask_is_not_a_question(text):
    assert not words().understand(text, NOW).asks


def test_shorthand_with_digits_is_spelled_out_and_times_are_left_as_typed():
    """'2moro' was read as '2' and 'moro' (then 'more'), so '2moro evening ur plan' asked
    of two o'clock today."""
    speller = Speller(RANKED)
    assert speller.fix("2moro evening ur plan") == "tomorrow evening your plan"
    assert speller.fix("c u at 5pm or 9:30") == "c you at 5pm or 9:30"
