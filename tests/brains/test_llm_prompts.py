"""Prompts with nothing to copy (issue 22): no placeholder example in any mode, concrete
examples from the resident's own facts that answer another question, the fields named in
words in json_object mode with the schema in response_format; and re-asks as documented
in docs/LLM.md, checked against the local protocol server."""

from __future__ import annotations

import json
import re

import pytest
from llm_helpers import client as make_client
from llm_helpers import ctx, serve, settings
from protocol_server import ProtocolServer
from test_llm_questions import sample_questions

from game.brains import questions as B
from game.brains.llm import specs as Q
from game.brains.llm.client import render
from game.brains.llm.model import (
    RETRY_TEMPERATURE_CAP,
    RETRY_WARMING,
    ChatRequest,
    Message,
    Role,
    reask_temperature,
)
from game.brains.llm.wire import chat_arguments
from game.core.config import OutputMode
from game.core.paths import ROOT

PLACEHOLDERS = re.compile(r'\.\.\.|…|<[a-z_ ]+>|"x"|\{\{')


@pytest.fixture
def server():
    yield from serve()


def wire(name: str, mode: OutputMode) -> tuple[str, dict]:
    """The last user message as the transport sends it in `mode`, and its arguments."""
    q = sample_questions()[name]
    spec = Q.SPECS[type(q)]
    msgs = tuple(Message(Role(m["role"]), m["content"]) for m in render(spec, q))
    args = chat_arguments(ChatRequest(msgs, spec.schema(q), "m", mode=mode))
    return args["messages"][-1]["content"], args


@pytest.mark.parametrize("mode", [OutputMode.JSON_SCHEMA, OutputMode.JSON_OBJECT])
@pytest.mark.parametrize("name", sorted(sample_questions()))
def test_no_prompt_holds_a_placeholder_to_copy(name: str, mode: OutputMode) -> None:
    said, _ = wire(name, mode)
    assert not PLACEHOLDERS.search(said), said


def test_no_template_ends_in_a_shape_with_placeholders() -> None:
    for path in (ROOT / "game" / "brains" / "prompts").glob("*.txt"):
        text = path.read_text(encoding="utf-8")
        assert not PLACEHOLDERS.search(text), path.name
        assert not re.search(r'Answer \{"', text), path.name


@pytest.mark.parametrize("name", sorted(sample_questions()))
def test_json_object_mode_names_the_fields_and_sends_the_schema(name: str) -> None:
    said, args = wire(name, OutputMode.JSON_OBJECT)
    q = sample_questions()[name]
    schema = Q.SPECS[type(q)].schema(q)
    assert args["response_format"]["type"] == "json_object"
    assert args["response_format"]["schema"]["properties"].keys() == schema["properties"].keys()
    for field in schema["properties"]:
        assert f'"{field}"' in said.rsplit("Reply with only", 1)[-1]


def example_of(text: str) -> dict:
    return json.loads(text.split("For example,", 1)[1].split(": ", 1)[1].splitlines()[0])


def test_the_answer_example_is_a_true_fact_about_the_resident_and_another_question() -> None:
    q = B.Answer(ctx(), "What do you do for a living, Klaus?")
    said = render(Q.ANSWER, q)[-1]["content"]
    shown = example_of(said)["answer"]
    assert "Oak Hill College Dorm" in shown  # where Klaus lives: not what was asked
    other = render(Q.ANSWER, B.Answer(ctx(), "Where do you live?"))[-1]["content"]
    assert "sociology student" in example_of(other)["answer"]


def test_the_object_state_example_is_another_kind_of_thing() -> None:
    q = B.ActionDetails(ctx().persona, "sleeping", "bed", "idle")
    said = render(Q.ACTION_DETAILS, q)[-1]["content"]
    assert "being slept in" in said  # the bed's own vocabulary is listed ...
    shown = said.split("For example,", 1)[1]
    assert "bed" not in shown.split(":")[0] and "sleep" not in shown  # ... the example is not a bed


def test_the_step_example_uses_a_spot_of_this_sector() -> None:
    said = render(Q.DECOMPOSE_STEPS, sample_questions()["decompose_steps"])[-1]["content"]
    assert example_of(said)["spot"] in ("library: desk", "classroom", "")


# -- re-asks -------------------------------------------------------------------------------


def test_reask_temperatures_follow_the_documented_steps() -> None:
    assert (RETRY_WARMING, RETRY_TEMPERATURE_CAP) == (0.15, 1.2)
    assert [reask_temperature(0.7, k) for k in range(4)] == [0.7, 0.85, 1.0, 1.15]
    assert [reask_temperature(1.0, k) for k in range(3)] == [1.0, 1.15, 1.2]
    assert reask_temperature(1.5, 2) == 1.5  # never cooler than the configured base
    doc = (ROOT / "docs" / "LLM.md").read_text(encoding="utf-8")
    assert "min(1.2, base + 0.15 × k)" in doc


def test_reasks_step_from_the_base_change_the_seed_and_never_quote_the_answer(
    server: ProtocolServer, tmp_path
) -> None:
    server.always = "wrong_types"  # every answer invalid: the question and two re-asks
    c, _ = make_client(settings(server.url, tmp_path, temperature=0.7, validation_retries=3))
    c.ask(Q.IMPORTANCE, sample_questions()["importance"], "Klaus Mueller")
    bodies = [r["body"] for r in server.chat_requests()]
    assert [b["temperature"] for b in bodies] == [0.7, 0.85, 1.0, 1.15]
    assert [b.get("seed") for b in bodies] == [None, 1, 2, 3]
    for body in bodies[1:]:
        assert [m["role"] for m in body["messages"]] == ["system", "user"]
        assert body["messages"][-1]["content"].count("rejected") == 1


def test_no_two_reasks_send_one_prompt(server: ProtocolServer, tmp_path) -> None:
    """The same problem twice still changes the prompt: the note counts the rejected
    answers (a server serving a prompt it has cached, grammar-bound, repeats itself)."""
    server.always = "wrong_types"
    c, _ = make_client(settings(server.url, tmp_path, validation_retries=3))
    c.ask(Q.IMPORTANCE, sample_questions()["importance"], "Klaus Mueller")
    said = [r["body"]["messages"][-1]["content"] for r in server.chat_requests()]
    assert len(said) == 4 and len(set(said)) == 4
    first = said[0]
    notes = [s.removeprefix(first).strip() for s in said[1:]]
    assert all(s.startswith(first) for s in said[1:])  # the first ask, then the note
    assert notes[0].startswith("An earlier answer to this was rejected: ")
    assert notes[1].startswith("2 earlier answers to this were rejected, each because ")
    assert notes[2].startswith("3 earlier answers to this were rejected, each because ")
    problem = notes[0].removeprefix("An earlier answer to this was rejected: ").split(".")[0]
    assert all(problem in n for n in notes)  # named each time, never the answer itself


def test_a_reask_names_each_earlier_problem_in_order() -> None:
    ask = ChatRequest((Message(Role.USER, "Rate it."),), {}, "m", temperature=0.7)
    again = ask.corrected("'ratings' must be numbers", 2, ["the answer is not JSON"])
    assert again.correction.startswith(
        "2 earlier answers to this were rejected: the answer is not JSON; "
        "then 'ratings' must be numbers."
    )
    assert (again.seed, again.temperature) == (2, 1.0)


def test_byte_identical_reasks_are_counted(server: ProtocolServer, tmp_path) -> None:
    server.always = "wrong_types"  # the same wrong answer every time
    c, _ = make_client(settings(server.url, tmp_path))
    c.ask(Q.IMPORTANCE, sample_questions()["importance"], "Klaus Mueller")
    usage = c.meter.snapshot()
    assert usage["identical_reasks"] == 2 and usage["retries"] == 2
    assert usage["by_question"]["importance"]["identical_reasks"] == 2
