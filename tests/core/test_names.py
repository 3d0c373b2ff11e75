"""Names are names: letters of any script, spaces and ' - ., at most 64 characters; a
slug made from any string stays a plain file name."""

from __future__ import annotations

import pytest

from game.core.names import MAX_NAME, name_problem, place_problem, slug

GOOD = ["Klaus Mueller", "José García", "Zoë O'Brien-Smith", "J. R. Smith", "李小龍",
        "Ольга Петрова", "محمد علي", "अनिल कुमार", "Seán Ó Brádaigh",
        "Ngũgĩ wa Thiong’o"]  # fmt: skip
BAD = {
    "../../../../x/evil": "'/'",
    "Klaus\\Mueller": "'\\\\'",
    "C:evil": "':'",
    "\x1b[31mRed Klaus": "U+001B",
    "Bell\x07 Ringer": "U+0007",
    "Eve\u202eLive": "U+202E",
    "Zero\u200bWidth": "U+200B",
    "Tab\tName": "U+0009",
    "New\nLine": "U+000A",
    "Agent 47": "'4'",
    "Robert'); DROP TABLE": "')'",
    "x" * (MAX_NAME + 1): f"at most {MAX_NAME}",
    " Klaus": "must start with a letter",
    "Klaus  Mueller": "single spaces",
    "'Klaus": "must start with a letter",
    "": "must not be empty",
}


@pytest.mark.parametrize("name", GOOD)
def test_names_of_any_script_are_names(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(("name", "said"), BAD.items(), ids=[repr(k)[:20] for k in BAD])
def test_anything_else_is_named_as_the_problem(name, said):
    problem = name_problem(name)
    assert problem is not None and said in problem
    assert all(c.isprintable() for c in problem)  # the problem line shows, never does


@pytest.mark.parametrize("name", [*GOOD, *BAD])
def test_a_slug_is_a_plain_file_name_whatever_the_name(name):
    made = slug(name)
    assert made and made == slug(made)  # non-empty, and a slug is its own slug
    assert not set(made) & set("/\\:. \x00\x1b\u202e\u200b")
    assert all(c.isalnum() or c in "_-" for c in made)


def test_slugs_of_the_bundled_names_are_their_sheets():
    assert slug("Klaus Mueller") == "klaus_mueller"
    assert slug("Isabella Rodriguez") == "isabella_rodriguez"
    assert slug("../../../../x/evil") == "xevil"


@pytest.mark.parametrize("name", ["Lin family's house", "desk (2)", "Hobbs Cafe", "Café Nº 5"])
def test_places_may_hold_digits_and_a_few_marks(name):
    assert place_problem(name) is None


@pytest.mark.parametrize("name", ["a/b", "house\u202e", "room\u200d", "x" * 65, "bar;baz"])
def test_places_may_not_hold_path_bidi_or_odd_characters(name):
    assert place_problem(name) is not None
