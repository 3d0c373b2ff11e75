"""Same seed, same answers: in any call order and from any number of threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from test_scripted_personas import DAY, HAND_MADE, Brain, context, heard, see, seeds, smallville

from game.brains.protocol import Brain as BrainProtocol
from game.brains.scripted import ScriptedBrain
from game.core.records import PlanItem, Utterance
from game.world.town import AreaKind

PARTY = (
    "Isabella Rodriguez is hosting a Valentine's Day party at "
    "Hobbs Cafe on February 14 from 5 pm to 7 pm"
)


def battery(brain: Brain, persona) -> list[object]:
    """One call of every question for one persona; the answers, in order."""
    now = DAY + timedelta(hours=12)
    memories = (*seeds(persona), heard(99, "Isabella Rodriguez", PARTY))
    ctx = context(persona, now, memories, "reading")
    wake = datetime(2023, 2, 14) + timedelta(minutes=persona.wake)
    plan = brain.plan_day(context(persona, wake, memories), "", wake)
    item = PlanItem("having lunch at Hobbs Cafe", now, 45, "Hobbs Cafe")
    hello = Utterance("Maria Lopez", "Hi! How are you?")
    return [
        brain.rate_importance(persona, [m.text for m in memories]),
        plan,
        [brain.decompose(ctx, i, 60) for i in plan],
        brain.decompose(ctx, item, 15),
        brain.choose_area(ctx, "reading", AreaKind.ARENA, ["kitchen", "common room"], "", ""),
        brain.object_state(persona, "cooking", "x:kitchen:stove", "idle"),
        brain.emoji("making espresso"),
        [brain.react(ctx, see(f"Person {i}")) for i in range(20)],
        brain.utter(ctx, "Maria Lopez", [hello]),
        brain.reflect_questions(persona, memories),
        brain.insights(persona, "What is on their mind?", memories),
        brain.summarize(persona, f"{persona.name}'s core characteristics", memories),
        brain.answer(ctx, "Do you know about any party?"),
    ]


def people():
    return [*HAND_MADE, *smallville().residents[:8]]


def test_the_scripted_brain_is_a_brain() -> None:
    brain = ScriptedBrain()
    assert isinstance(brain, BrainProtocol)
    assert brain.name == "scripted" and brain.seed == 0


def test_same_seed_same_answers_in_any_order() -> None:
    forward = {p.name: battery(Brain(3), p) for p in people()}
    brain = Brain(3)
    backward = {p.name: battery(brain, p) for p in reversed(people())}
    assert forward == backward
    brain.plan_day(context(HAND_MADE[0]), "yesterday was long", DAY)  # unrelated calls between
    assert battery(brain, HAND_MADE[1]) == forward[HAND_MADE[1].name]


def test_threads_get_the_same_answers() -> None:
    brain = Brain(5)
    alone = [battery(brain, p) for p in people()]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(lambda p: battery(brain, p), people() * 2))
    assert together == alone * 2


def test_seeds_change_some_answers() -> None:
    a = [battery(Brain(1), p) for p in people()]
    b = [battery(Brain(2), p) for p in people()]
    assert a != b
