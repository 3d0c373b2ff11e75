"""A setting out of range is one line that says the range it must be in."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.core.config import Config, checked
from game.core.errors import SmallvilleError


def _with(**top) -> Config:
    return replace(Config(), **top)


@pytest.mark.parametrize(
    ("config", "said"),
    [
        (_with(workers=0), "'workers' must be from 1 to 256, not 0"),
        (_with(workers=300), "'workers' must be from 1 to 256, not 300"),
        (replace(Config(), llm=replace(Config().llm, timeout=0.0)), "more than 0 and at most 3600"),
        (replace(Config(), llm=replace(Config().llm, temperature=-1.0)), "from 0 to 2, not -1.0"),
    ],
)
def test_the_error_line_states_the_range_the_value_is_outside(config, said):
    """`--workers 0` was told the workers "must be from 0 to 256, not 0"."""
    with pytest.raises(SmallvilleError) as info:
        checked(config)
    assert said in str(info.value)


def test_a_value_at_the_bounds_passes():
    assert checked(_with(workers=1)).workers == 1
    assert checked(_with(workers=256)).workers == 256
