"""--judge llm: the model judges with the fixed rubric prompt through the one call path,
and its verdict is reported beside the keyword judge's, never instead of it."""

from __future__ import annotations

import pytest
from llm_helpers import serve, settings

from game.brains.llm import LLMBrain
from game.sim.measures import judge_answers
from game.world.scenario import load_scenario

PARTY = load_scenario("three").intent("party")
ANSWERS = {
    "Klaus Mueller": "Isabella told me she is hosting a party at Hobbs Cafe at 5 pm.",
    "Maria Lopez": "As far as I know, Klaus Mueller is meeting new people at the party.",
}


@pytest.fixture
def server():
    yield from serve()


@pytest.mark.parametrize("model_says", [True, False])
def test_model_verdicts_beside_keyword_verdicts(server, tmp_path, model_says):
    server.forced["judge"] = {"carries": model_says}
    brain = LLMBrain(settings(server.url, tmp_path), seed=0)
    try:
        verdicts = judge_answers(PARTY, ANSWERS, brain)
    finally:
        brain.close()
    assert verdicts["Klaus Mueller"].carries and not verdicts["Maria Lopez"].carries
    assert {v.model for v in verdicts.values()} == {model_says}
    prompts = [r for r in server.chat_requests() if "grading one answer" in str(r)]
    assert len(prompts) == 2 and "host or place" in str(prompts[0])
