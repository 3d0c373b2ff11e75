"""Scenarios load, and each kind of bad file gives one clear line naming what is wrong."""

import copy
import json
import unicodedata

import pytest
from test_town_model import AREAS, ART
from tinymap import write_map

from game.core.errors import ScenarioError
from game.world.scenario import load_scenario
from game.world.tmx import load_town

LOOK = {"skin": "#c68642", "hair": "#222222", "shirt": "#aa3333", "pants": "#333355"}
GOOD = {
    "format": 1,
    "name": "tiny",
    "map": "smallville.tmx",
    "start": "2023-02-13T04:00",
    "intents": [
        {
            "id": "party",
            "holder": "John Lin",
            "text": "John Lin is hosting a party at Hobbs Cafe",
            "keywords": ["party"],
            "event": {
                "place": "Hobbs Cafe",
                "start": "2023-02-14T17:00",
                "end": "2023-02-14T19:00",
            },
        }
    ],
    "residents": [
        {
            "name": "John Lin",
            "age": 45,
            "traits": ["patient", "kind"],
            "occupation": "pharmacist",
            "wake": "06:00",
            "sleep": "22:00",
            "home": "Lin family's house",
            "bed": "Lin family's house:kitchen:stove",
            "workplace": "Hobbs Cafe",
            "routine": [
                {"start": "09:00", "end": "17:00", "place": "Hobbs Cafe", "activity": "work"}
            ],
            "known_places": ["Hobbs Cafe"],
            "relationships": {},
            "interests": ["local politics"],
            "look": {**LOOK, "hair_style": "short"},
            "seed": "John Lin is a pharmacist; John Lin loves his family",
        }
    ],
}


@pytest.fixture
def town(tmp_path):
    return load_town(write_map(tmp_path / "t.tmx", ART, AREAS, {}))


def write(tmp_path, doc) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return str(path)


def test_good_scenario_loads(tmp_path, town):
    scenario = load_scenario(write(tmp_path, GOOD), town)
    john = scenario.resident("John Lin")
    assert john.wake == 360 and john.sleep == 22 * 60
    assert john.seed_memories() == [
        "John Lin is a pharmacist.", "John Lin loves his family.",
        "John Lin is hosting a party at Hobbs Cafe.",  # the holder knows its intent
    ]
    assert scenario.intent("party").event.place == "Hobbs Cafe"
    assert scenario.intent("party").mentioned_in("a PARTY tonight")


def mutate(path: str, value):
    doc = copy.deepcopy(GOOD)
    target = doc
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return doc


def two_johns():
    doc = copy.deepcopy(GOOD)
    doc["residents"].append(copy.deepcopy(doc["residents"][0]))
    return doc


def look_alike(name: str):
    """A second resident whose name prints like the first's ('John Lin', 'john lin')."""
    doc = two_johns()
    doc["residents"][-1]["name"] = name
    return doc


def test_a_look_alike_in_unicode_is_a_duplicate(tmp_path, town):
    doc = look_alike(unicodedata.normalize("NFD", "Jóhn Lin"))  # the same letters,
    doc["residents"][0]["name"] = unicodedata.normalize("NFC", "Jóhn Lin")  # composed apart
    with pytest.raises(ScenarioError, match="duplicate name"):
        load_scenario(write(tmp_path, doc), town)


def test_a_long_name_is_shown_clipped(tmp_path, town):
    path = write(tmp_path, mutate("residents.0.name", "A" * 500))
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, town)
    assert "A" * 61 + "..." in str(info.value) and "A" * 62 not in str(info.value)


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (
            mutate("residents.0.home", "Lin house"),
            "resident 'John Lin': field 'home': unknown place",
        ),
        (mutate("residents.0.home", KeyError), "resident 'John Lin': field 'home': missing"),
        (mutate("residents.0.age", "old"), "field 'age': expected int, got str"),
        (mutate("residents.0.wake", "6am"), "field 'wake': expected a time as HH:MM"),
        (mutate("residents.0.workplace", "Nowhere"), "field 'workplace': unknown place"),
        (mutate("residents.0.bed", "Hobbs Cafe:cafe"), "field 'bed': 'Hobbs Cafe:cafe' is a arena"),
        (
            mutate("residents.0.relationships", {"Ghost": "friend"}),
            "'Ghost', who is not a resident",
        ),
        (mutate("residents.0.look.hair_style", "mohawk"), "unknown hair_style"),
        (two_johns(), "resident 'John Lin': field 'name': duplicate name"),
        (look_alike("john lin"), "resident 'john lin': field 'name': duplicate name"),
        (look_alike("John Lin."), "field 'name': duplicate name"),
        (mutate("intents.0.holder", "Nobody"), "holder 'Nobody' is not a resident"),
        (mutate("start", "Feb 13"), "field 'start': expected a date and time"),
        (mutate("format", 9), "unsupported format version"),
        (mutate("residents", []), "no residents"),
        ('{"format": 1, "residents": [', "not valid JSON"),
        ("[1, 2]", "expected an object"),
    ],
)
def test_bad_scenarios(tmp_path, town, doc, expected):
    path = write(tmp_path, doc)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, town)
    line = str(info.value)
    assert line.startswith(path) and expected in line and "\n" not in line


def _event(**times):
    doc = copy.deepcopy(GOOD)
    doc["intents"][0]["event"] |= times
    return doc


HOSTILE = [
    (mutate("residents.0.name", "../../../../x/evil"), "field 'name': the name holds '/'"),
    (mutate("residents.0.name", "\x1b]0;owned\x07John"), "the name holds U+001B"),
    (mutate("residents.0.name", "John\u202eniL"), "the name holds U+202E"),
    (mutate("residents.0.name", "Jo\u200bhn"), "the name holds U+200B"),
    (mutate("residents.0.name", "J" * 65), "is 65 characters long (at most 64)"),
    (mutate("residents.0.occupation", "\x1b[2Jpharmacist"), "field 'occupation': holds control"),
    (mutate("residents.0.seed", "kind\u202e"), "field 'seed': holds control, bidi"),
    (mutate("residents.0.relationships", {"John Lin": "\x07"}), "field 'relationships'"),
    (mutate("start", "9999-12-31T04:00"), "field 'start': year 9999 is outside 1900..2999"),
    (mutate("start", "0001-01-01T00:00"), "year 1 is outside 1900..2999"),
    (mutate("start", "2023-02-13T04:00+05:00"), "with no time zone"),
    (_event(start="9999-12-31T17:00"), "field 'start': year 9999 is outside"),
    (_event(end="2023-02-14T16:00"), "field 'end': intent 'party': the event ends before"),
]


@pytest.mark.parametrize(("doc", "expected"), HOSTILE)
def test_hostile_names_texts_and_dates_are_one_clear_line(tmp_path, town, doc, expected):
    path = write(tmp_path, doc)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, town)
    line = str(info.value)
    assert expected in line and line.isprintable(), line  # no raw escape, bidi or newline


def test_names_of_any_script_load(tmp_path, town):
    doc = mutate("residents.0.name", "Zoë O'Brien-Ñúñez")
    doc["intents"][0]["holder"] = "Zoë O'Brien-Ñúñez"
    resident = load_scenario(write(tmp_path, doc), town).resident("Zoë O'Brien-Ñúñez")
    assert resident.slug == "zoë_obrien-ñúñez"


def test_town_refuses_a_hostile_name_in_one_line(tmp_path, capsys):
    from game.cli import main

    path = write(tmp_path, mutate("residents.0.name", "\x1b[31mJohn\x07 \u202eLin"))
    assert main(["town", "--scenario", path]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and "U+001B" in out.err
    assert not set(out.err) & {"\x1b", "\x07", "\u202e"}


def test_missing_file_names_bundled_scenarios(tmp_path):
    with pytest.raises(ScenarioError, match="no such scenario file"):
        load_scenario(tmp_path / "none.json")


def test_cli_prints_one_line_not_a_traceback(tmp_path, capsys):
    from game.cli import main

    path = write(tmp_path, mutate("residents.0.age", "old"))
    assert main(["town", "--scenario", path]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err and err.count("\n") == 1


def test_each_resident_knows_the_work_and_home_of_those_it_has_a_relation_with():
    residents = {r.name: r for r in load_scenario("smallville").residents}
    isabella, klaus = residents["Isabella Rodriguez"], residents["Klaus Mueller"]
    known = {k.name: k.said for k in isabella.acquainted}
    assert set(known) == {n for n, _ in isabella.relationships if n in residents}
    assert klaus.occupation in known[klaus.name] and klaus.home in known[klaus.name]
    assert isabella.name not in known
    klaus_known = next(k for k in residents["Maria Lopez"].acquainted if k.name == klaus.name)
    assert klaus_known.workplace == klaus.workplace and klaus_known.occupation == klaus.occupation


PHRASINGS = [
    "Is anyone throwing a party this week?",
    "Any parties I should know about?",
    "Anything fun going on in town soon?",
    "Heard about any get-togethers coming up?",
    "What's the social event of the week?",
]
MUST_NAME = [{"what": "host or place", "any_of": ["John", "Hobbs Cafe"]}]


def asked(**fields):
    """GOOD with its intent interviewed: the phrasings, a rubric and `fields` over them."""
    doc = copy.deepcopy(GOOD)
    doc["intents"][0] |= {"questions": PHRASINGS, "answer_must_name": MUST_NAME,
                          "follow_up": "Who's behind it, and when?"}  # fmt: skip
    doc["intents"][0] |= fields
    return {**doc, "intents": [{k: v for k, v in doc["intents"][0].items() if v is not KeyError}]}


def test_an_intent_declares_its_phrasings_and_a_follow_up(tmp_path, town):
    intent = load_scenario(write(tmp_path, asked(paper={"attended": 5})), town).intent("party")
    assert intent.questions == tuple(PHRASINGS) and intent.question == PHRASINGS[0]
    assert intent.follow_up == "Who's behind it, and when?"
    assert intent.paper.attended == 5 and intent.paper.diffusion is None


def test_a_single_question_still_loads(tmp_path, town):
    """Older scenarios declare one `question` (which may name what it asks about)."""
    doc = asked(questions=KeyError, follow_up=KeyError, question="Is John hosting a party?")
    intent = load_scenario(write(tmp_path, doc), town).intent("party")
    assert intent.questions == ("Is John hosting a party?",) and intent.follow_up == ""


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (asked(questions=PHRASINGS[:4]), "at least 5 phrasings, got 4"),
        (asked(questions=[*PHRASINGS[:4], PHRASINGS[0].upper()]), "a phrasing is given twice"),
        (asked(question="Any party?"), "either questions or question, not both"),
        (
            asked(questions=[*PHRASINGS[:4], "Is John hosting anything?"]),
            "'Is John hosting anything?' gives the answer away (names John)",
        ),
        (asked(follow_up="Is it at Hobbs Cafe?"), "gives the answer away (names Hobbs Cafe)"),
        (asked(questions=KeyError), "a follow_up needs questions to follow"),
        (asked(answer_must_name=[]), "has a question but no answer_must_name"),
        (asked(paper={"guests": 3}), "unknown figure 'guests'"),
        (asked(paper={"attended": "five"}), "'attended' must be a number"),
    ],
)
def test_bad_phrasings(tmp_path, town, doc, expected):
    path = write(tmp_path, doc)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, town)
    assert expected in str(info.value)


def test_the_bundled_phrasings_do_not_give_the_answer_away():
    for name in ("smallville", "three"):
        for intent in load_scenario(name).intents:
            if intent.questions:
                assert len(intent.questions) >= 5 and intent.follow_up
                assert not any(intent.given_away(q) for q in intent.questions)


def test_neighbours_are_the_residents_of_the_nearest_homes_on_the_map():
    """Geometry, not words: the row of apartments are each other's neighbours, and a
    house alone at the map's edge has only the one nearest home."""
    from game.world.scenario import load_world

    scenario, _ = load_world("smallville")
    by_name = {r.name: r for r in scenario.residents}
    giorgio = {n for h in by_name["Giorgio Rossi"].neighbours for n in h.residents}
    assert giorgio == {"Carlos Gomez", "Isabella Rodriguez"}  # the apartments either side
    for r in scenario.residents:
        homes = [h.home for h in r.neighbours]
        assert r.home not in homes and len(homes) == len(set(homes)) and 1 <= len(homes) <= 2
        assert all(by_name[n].home == h.home for h in r.neighbours for n in h.residents)


def test_a_holder_whose_seed_speaks_of_its_intent_is_not_told_it_twice(tmp_path, town):
    doc = copy.deepcopy(GOOD)
    doc["residents"][0]["seed"] = "John Lin is a pharmacist; John is throwing a party on Tuesday"
    john = load_scenario(write(tmp_path, doc), town).resident("John Lin")
    assert john.seed_memories() == [
        "John Lin is a pharmacist.", "John is throwing a party on Tuesday."]
    other = copy.deepcopy(GOOD)
    other["intents"][0]["holder"] = "John Lin"
    other["residents"][0]["seed"] = "John Lin is a pharmacist"
    told = load_scenario(write(tmp_path, other), town).resident("John Lin").seed_memories()
    assert told[-1] == "John Lin is hosting a party at Hobbs Cafe."


def test_an_intent_keyword_is_a_whole_word_in_any_of_its_forms():
    from game.world.scenario import Intent

    app = Intent("app", "Ryan Park", "Ryan Park wants people to test his app", ("app",))
    assert app.mentioned_in("Would you try my new app?") and app.mentioned_in("two apps")
    for text in ("I'm so happy today", "an apple a day", "she applied", "it snapped"):
        assert not app.mentioned_in(text), text
    party = Intent("p", "Ann Lee", "Ann is having a party", ("party", "volunteer", "celebrate"))
    for text in ("parties", "she partied", "volunteers", "volunteering", "celebrating"):
        assert party.mentioned_in(text), text
    assert not party.mentioned_in("a partyline") and not party.mentioned_in("counterparty")


@pytest.mark.parametrize("blocked", ["all", "cafe"])
def test_a_place_with_no_tile_to_stand_on_is_one_clear_line(tmp_path, blocked):
    """A map whose tiles were all blocked loaded and ran: every resident asleep in bed,
    then 'making espresso' at home, never reaching the cafe, and not a word said. Now a
    resident's place (or an event's) without a walkable tile is refused at load."""
    rows = ART.strip().splitlines()
    if blocked == "all":
        rows = ["#" * len(r) for r in rows]
    else:  # the cafe (x 7..10, y 1..4) walled in solid
        rows = [r[:7] + "####" + r[11:] if 1 <= y <= 4 else r for y, r in enumerate(rows)]
    town = load_town(write_map(tmp_path / "blocked.tmx", "\n".join(rows), AREAS, {}))
    with pytest.raises(ScenarioError) as err:
        load_scenario(write(tmp_path, GOOD), town)
    place = "Lin family's house" if blocked == "all" else "Hobbs Cafe"
    assert f"{place!r} has no walkable tile" in str(err.value) and "\n" not in str(err.value)
