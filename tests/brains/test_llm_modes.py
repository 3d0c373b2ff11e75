"""The output-mode ladder alone: json_schema -> json_object -> text on format refusals,
parameters a model refuses learnt from its 400, all remembered by the instance only."""

from __future__ import annotations

import pytest
from llm_fakes import OK, FakeModel, ask

from game.brains.llm.model import FormatRefused, ParamRefused, Quirk, Refused
from game.brains.llm.modes import ModeLadder
from game.core.config import OutputMode as M


def modes(inner: FakeModel) -> list[M]:
    return [r.mode for r in inner.chats]


def test_json_schema_is_tried_first_and_kept() -> None:
    inner = FakeModel()
    ladder = ModeLadder(inner)
    ladder.chat(ask())
    ladder.chat(ask())
    assert modes(inner) == [M.JSON_SCHEMA, M.JSON_SCHEMA] and ladder.quirks == frozenset()


def test_each_format_refusal_steps_one_rung_down_and_is_remembered() -> None:
    inner = FakeModel(FormatRefused("400: json_schema"), FormatRefused("400: json_object"))
    ladder = ModeLadder(inner)
    assert ladder.chat(ask()) is OK
    ladder.chat(ask())
    assert modes(inner) == [M.JSON_SCHEMA, M.JSON_OBJECT, M.TEXT, M.TEXT]
    assert ladder.mode is M.TEXT


def test_a_refusal_of_plain_text_is_final() -> None:
    inner = FakeModel(*[FormatRefused("400: format")] * 4)
    with pytest.raises(Refused, match="rejected the request") as caught:
        ModeLadder(inner).chat(ask())
    assert not isinstance(caught.value, FormatRefused)  # a plain failure, not a step
    assert modes(inner) == [M.JSON_SCHEMA, M.JSON_OBJECT, M.TEXT]


def test_a_forced_mode_is_never_left() -> None:
    inner = FakeModel(FormatRefused("400: json_object"))
    ladder = ModeLadder(inner, forced=M.JSON_OBJECT)
    with pytest.raises(Refused):
        ladder.chat(ask())
    ladder.chat(ask())
    assert modes(inner) == [M.JSON_OBJECT, M.JSON_OBJECT]


def test_refused_parameters_are_learnt_once() -> None:
    inner = FakeModel(
        ParamRefused(Quirk.MAX_COMPLETION_TOKENS, "400: max_tokens"),
        ParamRefused(Quirk.NO_TEMPERATURE, "400: temperature"),
    )
    ladder = ModeLadder(inner)
    ladder.chat(ask())
    ladder.chat(ask())
    both = {Quirk.MAX_COMPLETION_TOKENS, Quirk.NO_TEMPERATURE}
    assert [r.quirks for r in inner.chats] == [
        frozenset(),
        {Quirk.MAX_COMPLETION_TOKENS},
        both,
        both,
    ]


def test_a_parameter_refused_again_after_adapting_is_final() -> None:
    refusal = ParamRefused(Quirk.NO_TEMPERATURE, "400: temperature")
    inner = FakeModel(refusal, refusal)
    with pytest.raises(Refused, match="temperature"):
        ModeLadder(inner).chat(ask())
    assert len(inner.chats) == 2


def test_two_ladders_share_nothing() -> None:
    first = ModeLadder(FakeModel(FormatRefused("400: json_schema")))
    first.chat(ask())
    second_inner = FakeModel()
    ModeLadder(second_inner).chat(ask())
    assert first.mode is M.JSON_OBJECT and modes(second_inner) == [M.JSON_SCHEMA]
