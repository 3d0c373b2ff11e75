"""Each typed question's model spec: templates fill from the question's fields, schemas
stay in the strict subset, and answers are checked for meaning (options offered,
importance 1-10, times inside the day, evidence in range) before anything reaches the
architecture."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import timedelta
from string import Template

import pytest
from llm_helpers import NOW, ctx, memory, resident

from game.brains import questions as B
from game.brains.llm import specs as Q
from game.brains.llm.client import render
from game.brains.llm.jsontext import Invalid, extract_json
from game.brains.llm.wire import plain_schema
from game.brains.questions import Draft, Place, Spot
from game.core.paths import PROMPTS
from game.core.records import MemoryKind, Observation, PlanItem, ReactionKind, Source
from game.mind import facts
from game.world.scenario import AnswerPart, Rubric

WAKE, SLEEP = NOW.replace(hour=7), NOW.replace(hour=23)
ITEM = PlanItem("studying for the seminar", NOW, 60, "Oak Hill College")
SPOTS = (
    Spot("library", "desk", "Oak Hill College:library:desk"),
    Spot("classroom", "", "Oak Hill College:classroom"),
)
MARIA_FACT = facts.doing("Maria Lopez", "reading", Source.SEEN)
MAYA = Observation("Maria Lopez", "Maria Lopez is reading", True, "reading", MARIA_FACT)
STOVE_FACT = facts.object_state("Lin family's house:kitchen:stove", "burning")
STOVE = Observation(
    "Lin family's house:kitchen:stove", "the stove is burning", False, "burning", STOVE_FACT
)
PLACES = (Place(resident().home), Place("Oak Hill College", 8 * 60, 22 * 60))


def draft(text: str) -> Draft:
    return Draft(MemoryKind.OBSERVATION, text, facts.statement("", text, Source.SEEN))


def sample_questions() -> dict[str, B.Question]:
    """One question of every class, as the architecture builds them."""
    mems = (memory(0, "Klaus is writing a paper"), memory(1, "Maria likes physics"))
    c = ctx(memories=mems)
    p = resident()
    return {
        "importance": B.RateImportance(p, (draft("a"), draft("b"))),
        "plan_day": B.PlanDay(c, "", WAKE, SLEEP, PLACES),
        "decompose_steps": B.DecomposeSteps(c, ITEM, SPOTS),
        "decompose_hours": B.DecomposeHours(c, ITEM, SPOTS),
        "choose_area": B.ChooseSector(c, "reading", ("Oak Hill College", "Hobbs Cafe")),
        "choose_spot": B.ChooseSpot(c, "reading", "Oak Hill College", SPOTS),
        "object_state": B.ActionDetails(p, "brewing", "kettle", "idle"),
        "spot_details": B.SpotDetails(
            c,
            B.ChooseSpot(c, "reading", "Oak Hill College", SPOTS),
            (B.ActionDetails(p, "reading", "desk", "idle"), B.Emoji(p, "reading")),
        ),
        "emoji": B.Emoji(p, "reading"),
        "react": B.React(c, MAYA),
        "react_each": B.ReactEach(c, (B.React(c, MAYA), B.React(c, STOVE))),
        "utter": B.Utter(c, "Maria Lopez", ()),
        "converse": B.Converse(c, ctx("Maria Lopez"), 6),
        "reflect_questions": B.ReflectQuestions(p, mems),
        "insights": B.Insights(p, "What drives Klaus?", mems),
        "insights_each": B.InsightsEach(p, (B.Insights(p, "What drives Klaus?", mems),)),
        "summarize": B.Summarize(p, "Klaus's core characteristics", mems),
        "answer": B.Answer(c, "Who is Maria?"),
        "judge": B.JudgeAnswer(
            "Klaus Mueller",
            "Who is running for mayor?",
            "Sam told me he is running for mayor.",
            "Sam Moore is running for mayor",
            Rubric((AnswerPart("Sam", ("Sam",)), AnswerPart("the office", ("mayor",)))),
        ),
        "rank": B.RankAnswers(
            p, "What is your occupation?", ("I study physics.", "I'm a student.", "No idea.")
        ),
    }


def sample_args() -> dict[str, B.Question]:
    return sample_questions()


def strict(schema: dict) -> list[str]:
    """What strict structured output would reject in a schema."""
    wrong = []
    if schema.get("type") == "object":
        props = schema.get("properties", {})
        if schema.get("additionalProperties") is not False:
            wrong.append("additionalProperties must be false")
        if sorted(schema.get("required", [])) != sorted(props):
            wrong.append("every property must be required")
        for value in props.values():
            wrong += strict(value)
    if schema.get("type") == "array":
        wrong += strict(schema["items"])
    for bad in ("minimum", "maximum", "minItems", "maxItems", "maxLength", "minLength"):
        if bad in schema:
            wrong.append(f"{bad} is not in the strict subset")
    return wrong


LIMITED = {
    "importance": "minItems",
    "plan_day": "pattern",
    "decompose_hours": "maxItems",
    "decompose_steps": "minLength",
    "object_state": "minLength",
    "spot_details": "pattern",
    "emoji": "minLength",
    "react": "maximum",
    "react_each": "minItems",
    "reflect_questions": "minItems",
    "insights": "minimum",
    "summarize": "minLength",
}


@pytest.mark.parametrize("name", sorted(LIMITED))
def test_schemas_carry_their_limits_for_grammar_bound_servers(name: str) -> None:
    question = next(q for q in Q.ALL if q.name == name)
    assert LIMITED[name] in json.dumps(question.schema(sample_args()[name]))


def test_importance_asks_for_exactly_one_rating_per_memory() -> None:
    args = sample_args()["importance"]
    ratings = Q.IMPORTANCE.schema(args)["properties"]["ratings"]
    assert ratings["minItems"] == ratings["maxItems"] == len(args.drafts)
    assert ratings["items"]["enum"] == list(range(1, 11))  # what every grammar honours
    assert (ratings["items"]["minimum"], ratings["items"]["maximum"]) == (1, 10)


def test_every_question_class_has_one_spec() -> None:
    assert [s.kind for s in Q.ALL] == list(B.ALL)
    assert {type(q) for q in sample_questions().values()} == set(B.ALL)


@pytest.mark.parametrize("question", Q.ALL, ids=lambda q: q.name)
def test_every_question_renders_and_has_a_strict_schema(question: Q.Spec) -> None:
    args = sample_args()[question.name]
    messages = render(question, args)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "$" not in messages[1]["content"], "a template variable was left unfilled"
    schema = question.schema(args)
    assert schema["title"] == question.name
    assert strict(plain_schema(schema)) == []  # what a strict mode refusing limits gets


def test_templates_are_files_and_use_only_their_variables() -> None:
    names = {q.template for q in Q.ALL} | {"system.txt"}
    assert names <= {p.name for p in PROMPTS.glob("*.txt")}
    for q in Q.ALL:
        wanted = set(re.findall(r"\$(\w+)", (PROMPTS / q.template).read_text()))
        given = set(q.view(sample_args()[q.name]))
        assert wanted <= given, (q.name, wanted - given)
        Template((PROMPTS / q.template).read_text()).substitute(dict.fromkeys(given, ""))


def test_importance_must_be_one_to_ten_and_one_per_memory() -> None:
    args = sample_args()["importance"]
    assert Q.IMPORTANCE.parse({"ratings": [3, 8.0]}, args) == (3, 8)
    with pytest.raises(Invalid, match="between 1 and 10"):
        Q.IMPORTANCE.parse({"ratings": [3, 99]}, args)
    with pytest.raises(Invalid, match="exactly 2"):
        Q.IMPORTANCE.parse({"ratings": [3]}, args)
    with pytest.raises(Invalid, match="integer"):
        Q.IMPORTANCE.parse({"ratings": ["high", 2]}, args)
    with pytest.raises(Invalid, match="true/false"):
        Q.IMPORTANCE.parse({"ratings": [True, 2]}, args)


def test_area_must_be_an_offered_option() -> None:
    args = sample_args()["choose_area"]
    assert Q.CHOOSE_SECTOR.parse({"choice": " hobbs cafe "}, args) == "Hobbs Cafe"
    with pytest.raises(Invalid, match="not one of the options"):
        Q.CHOOSE_SECTOR.parse({"choice": "the Moon"}, args)
    spot = Q.CHOOSE_SPOT.parse({"choice": "library: desk"}, sample_args()["choose_spot"])
    assert spot.address == "Oak Hill College:library:desk"


def test_plan_times_must_lie_inside_the_day() -> None:
    args = sample_args()["plan_day"]
    good = {
        "items": [
            {"start": "07:00", "activity": "getting up", "place": resident().home},
            {"start": "09:00", "activity": "studying", "place": "Oak Hill College"},
            {"start": "18:00", "activity": "having dinner", "place": ""},
        ]
    }
    items = Q.PLAN_DAY.parse(good, args)
    assert [i.minutes for i in items] == [120, 540, 300]
    assert items[-1].end == SLEEP and items[1].place == "Oak Hill College"
    late = {"items": [{**good["items"][0]}, {"start": "23:30", "activity": "x", "place": ""}]}
    with pytest.raises(Invalid, match="outside the day"):
        Q.PLAN_DAY.parse(late, args)
    nonsense = {"items": [{**good["items"][0]}, {"start": "noon", "activity": "x", "place": ""}]}
    with pytest.raises(Invalid, match="time like"):
        Q.PLAN_DAY.parse(nonsense, args)
    elsewhere = {"items": [good["items"][0], {**good["items"][1], "place": "Paris"}]}
    with pytest.raises(Invalid, match="places"):
        Q.PLAN_DAY.parse(elsewhere, args)


def test_a_plan_past_midnight_counts_the_next_day() -> None:
    args = replace(sample_args()["plan_day"], sleep=SLEEP + timedelta(hours=2))
    doc = {
        "items": [
            {"start": "22:00", "activity": "streaming", "place": ""},
            {"start": "00:30", "activity": "reading in bed", "place": ""},
        ]
    }
    items = Q.PLAN_DAY.parse(doc, args)
    assert items[1].start.day == NOW.day + 1 and items[1].minutes == 30


def test_decomposition_steps_carry_spot_state_emoji_and_importance() -> None:
    args = sample_args()["decompose_steps"]
    step = {"action": "reading", "minutes": 20, "spot": "library: desk", "state": "in use"}
    steps = Q.DECOMPOSE_STEPS.parse({"steps": [{**step, "emoji": "📚", "importance": 3}]}, args)
    assert steps[0].place == "Oak Hill College:library:desk" and steps[0].importance == 3
    assert (steps[0].state, steps[0].emoji) == ("in use", "📚")
    with pytest.raises(Invalid, match="spots"):
        Q.DECOMPOSE_STEPS.parse(
            {"steps": [{**step, "spot": "the Moon", "emoji": "📚", "importance": 3}]}, args
        )
    with pytest.raises(Invalid, match="emoji"):
        Q.DECOMPOSE_STEPS.parse({"steps": [{**step, "emoji": "book", "importance": 3}]}, args)


def test_evidence_numbers_must_point_at_given_memories() -> None:
    args = sample_args()["insights"]
    got = Q.INSIGHTS.parse({"insights": [{"insight": "Klaus works hard", "because": [2]}]}, args)
    assert got[0].evidence == (1,)
    with pytest.raises(Invalid, match="between 1 and 2"):
        Q.INSIGHTS.parse({"insights": [{"insight": "x", "because": [7]}]}, args)


def test_a_reflections_questions_get_their_insights_rated_in_one_answer() -> None:
    one = sample_args()["insights"]
    two = B.Insights(one.persona, "Whom does Klaus admire?", one.memories[:1])
    args = B.InsightsEach(one.persona, (one, two))
    said = {"insight": "Klaus works hard", "because": [2], "importance": 7}
    alone = {"insight": "Klaus admires Maria", "because": [1], "importance": 4}
    got = Q.INSIGHTS_EACH.parse({"answers": [{"insights": [said]}, {"insights": [alone]}]}, args)
    assert [[(i.text, i.evidence, i.importance) for i in a] for a in got] == [
        [("Klaus works hard", (1,), 7)],
        [("Klaus admires Maria", (0,), 4)],
    ]
    with pytest.raises(Invalid, match="'answers' must hold 2"):
        Q.INSIGHTS_EACH.parse({"answers": [{"insights": [said]}]}, args)
    with pytest.raises(Invalid, match="answer 2: .*between 1 and 1"):  # its own statements
        Q.INSIGHTS_EACH.parse({"answers": [{"insights": [said]}, {"insights": [said]}]}, args)
    prompt = "\n".join(m["content"] for m in render(Q.INSIGHTS_EACH, args))
    assert "Question 2: Whom does Klaus admire?" in prompt


def test_react_talk_needs_a_person_and_react_needs_an_action() -> None:
    args = sample_args()["react"]
    talk = Q.REACT.parse({"decision": "talk", "action": "", "minutes": 0}, args)
    assert talk.kind is ReactionKind.TALK and talk.target == "Maria Lopez"
    with pytest.raises(Invalid):
        Q.REACT.parse({"decision": "react", "action": "", "minutes": 5}, args)
    fact = facts.object_state("Hobbs Cafe:kitchen:stove", "burning")
    stove = Observation("Hobbs Cafe:kitchen:stove", "the stove is burning", False, "burning", fact)
    with pytest.raises(Invalid):
        Q.REACT.parse(
            {"decision": "talk", "action": "", "minutes": 0}, replace(args, observation=stove)
        )


def test_a_conversation_starts_with_the_first_speaker_and_ends() -> None:
    args = sample_args()["converse"]
    lines = [
        {"speaker": "Klaus Mueller", "say": "Hi Maria", "news": ""},
        {"speaker": "Maria Lopez", "say": "Hi!", "news": "the library closes early"},
    ]
    talk = Q.CONVERSE.parse({"lines": lines, "importance_a": 2, "importance_b": 4}, args)
    assert [u.end for u in talk.lines] == [False, True] and talk.importance == (2, 4)
    with pytest.raises(Invalid, match="speaks first"):
        Q.CONVERSE.parse({"lines": lines[::-1], "importance_a": 2, "importance_b": 2}, args)


def test_a_ranking_holds_every_label_once_and_its_fallback_is_no_verdict() -> None:
    args = sample_args()["rank"]
    schema = Q.RANK.schema(args)["properties"]["order"]
    assert schema["items"]["enum"] == ["A", "B", "C"] and schema["minItems"] == 3
    assert Q.RANK.parse({"order": ["C", "A", "B"]}, args) == (2, 0, 1)
    for wrong in (["A", "B"], ["A", "A", "B"], ["A", "B", "D"], "ABC"):
        with pytest.raises(Invalid):
            Q.RANK.parse({"order": wrong}, args)
    prompt = render(Q.RANK, args)[1]["content"]
    assert 'A. "I study physics."' in prompt and 'C. "No idea."' in prompt
    assert Q.RANK.fallback(None, args) == ()


def test_fallbacks_are_typed_answers_to_the_same_question() -> None:
    from game.brains.scripted import ScriptedBrain

    scripted = ScriptedBrain(0)
    for spec in Q.ALL:
        question = sample_args()[spec.name]
        answer = spec.fallback(scripted, question)
        assert B.is_answer(question, answer), (spec.name, answer)


def test_json_is_found_in_prose_and_fences() -> None:
    assert extract_json('Sure!\n```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json('noise {"a": {"b": [1, 2]}} trailing') == {"a": {"b": [1, 2]}}
    for bad in ("", "no json here", "[1, 2]", '{"a": 1'):
        with pytest.raises(Invalid):
            extract_json(bad)
