"""Game-window fixtures: a real window on the dummy video driver, a town of three.

Only the tests that check rendering or play through the window use these; everything else
in tests/ui needs no window.
"""

from __future__ import annotations

import pytest

from game.sim.factory import build_simulation
from game.sim.simulation import ClockMode


@pytest.fixture
def make_app():
    """make_app(sim=None, **options) -> an App showing the town (closed after the test)."""
    from game.ui.app import App, Options

    apps = []

    def make(sim=None, events=None, **options):
        options.setdefault("autosave_minutes", 0)
        app = App(Options(**options), events=events or (lambda: []))
        sim = sim or build_simulation("three", seed=0, mode=ClockMode.REALTIME, workers=4)
        app.replace_town(sim, options.get("name", "Robin"))
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()
