"""Each question as data: templates fill, schemas stay in the strict subset, and answers
are checked for meaning (options offered, importance 1-10, times inside the day, evidence
in range) before anything reaches the architecture."""

from __future__ import annotations

import re
from datetime import timedelta
from string import Template

import pytest
from llm_helpers import NOW, ctx, memory, resident

from game.brains.llm import questions as Q
from game.brains.llm.client import render
from game.brains.llm.jsontext import Invalid, extract_json
from game.core.paths import PROMPTS
from game.core.records import Observation, PlanItem, ReactionKind
from game.world.town import AreaKind

WAKE, SLEEP = NOW.replace(hour=7), NOW.replace(hour=23)
ITEM = PlanItem("studying for the seminar", NOW, 60, "Oak Hill College")
SPOTS = {"library: desk": "Oak Hill College:library:desk", "classroom": "Oak Hill College:room"}
MAYA = Observation("Maria Lopez", "Maria Lopez is reading", True, "reading")


def sample_args() -> dict[str, dict]:
    """Arguments for every question, as the brain builds them."""
    mems = [memory(0, "Klaus is writing a paper"), memory(1, "Maria likes physics")]
    c = ctx(memories=mems)
    p = resident()
    return {
        "importance": {"persona": p, "texts": ["a", "b"]},
        "plan_day": {"ctx": c, "yesterday": "", "wake": WAKE, "sleep": SLEEP},
        "decompose_steps": {"ctx": c, "item": ITEM, "grain": 15, "spots": SPOTS},
        "decompose_hours": {"ctx": c, "item": ITEM, "grain": 60, "spots": SPOTS},
        "choose_area": {
            "ctx": c,
            "action": "reading",
            "level": AreaKind.ARENA,
            "options": ["library", "classroom"],
            "current": "",
            "hint": "",
        },
        "object_state": {"persona": p, "action": "brewing", "obj": "kettle", "old_state": "idle"},
        "emoji": {"action": "reading"},
        "react": {"ctx": c, "observation": MAYA},
        "utter": {"ctx": c, "partner": "Maria Lopez", "history": ()},
        "converse": {"ctx_a": c, "ctx_b": ctx("Maria Lopez"), "max_turns": 6},
        "reflect_questions": {"persona": p, "recent": mems},
        "insights": {"persona": p, "question": "What drives Klaus?", "memories": mems},
        "summarize": {"persona": p, "topic": "Klaus's core characteristics", "memories": mems},
        "answer": {"ctx": c, "question": "Who is Maria?"},
    }


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


@pytest.mark.parametrize("question", Q.ALL, ids=lambda q: q.name)
def test_every_question_renders_and_has_a_strict_schema(question: Q.Question) -> None:
    args = sample_args()[question.name]
    messages = render(question, args)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "$" not in messages[1]["content"], "a template variable was left unfilled"
    schema = question.schema(args)
    assert schema["title"] == question.name
    assert strict(schema) == []


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
    assert Q.IMPORTANCE.parse({"ratings": [3, 8.0]}, args) == [3, 8]
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
    assert Q.CHOOSE_AREA.parse({"choice": " Library "}, args) == "library"
    with pytest.raises(Invalid, match="not one of the options"):
        Q.CHOOSE_AREA.parse({"choice": "the Moon"}, args)


def test_plan_times_must_lie_inside_the_day() -> None:
    args = sample_args()["plan_day"]
    good = {
        "items": [
            {"start": "07:00", "activity": "getting up", "place": resident().home},
            {"start": "09:00", "activity": "studying", "place": "Oak Hill College"},
            {"start": "18:00", "activity": "dinner", "place": ""},
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
    args = {**sample_args()["plan_day"], "sleep": SLEEP + timedelta(hours=2)}
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
    assert steps[0].address == "Oak Hill College:library:desk" and steps[0].importance == 3
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


def test_react_talk_needs_a_person_and_react_needs_an_action() -> None:
    args = sample_args()["react"]
    talk = Q.REACT.parse({"decision": "talk", "action": "", "minutes": 0}, args)
    assert talk.kind is ReactionKind.TALK and talk.target == "Maria Lopez"
    with pytest.raises(Invalid):
        Q.REACT.parse({"decision": "react", "action": "", "minutes": 5}, args)
    stove = Observation("Hobbs Cafe:kitchen:stove", "the stove is burning", False, "burning")
    with pytest.raises(Invalid):
        Q.REACT.parse({"decision": "talk", "action": "", "minutes": 0}, {"observation": stove})


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


def test_fallbacks_are_the_scripted_answers() -> None:
    from game.brains.scripted import ScriptedBrain

    scripted = ScriptedBrain(0)
    for q in Q.ALL:
        assert q.fallback(scripted, sample_args()[q.name]) is not None, q.name


def test_json_is_found_in_prose_and_fences() -> None:
    assert extract_json('Sure!\n```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json('noise {"a": {"b": [1, 2]}} trailing') == {"a": {"b": [1, 2]}}
    for bad in ("", "no json here", "[1, 2]", '{"a": 1'):
        with pytest.raises(Invalid):
            extract_json(bad)
