"""A cognition job that fails leaves its resident safe and loses nothing for good: a failed
seeding is tried again (never marked done), failures are counted for the report, and
repeated ones become a notice."""

import dataclasses
from datetime import timedelta

from game.sim.factory import build_simulation


class FlakyEmbedder:
    """The real embedder, failing its first `failures` calls (a bug in a job, not an
    answer: answers never fail a job)."""

    def __init__(self, inner, failures: int) -> None:
        self.inner, self.left = inner, failures
        self.name, self.dim = inner.name, inner.dim

    def _break(self) -> None:
        if self.left > 0:
            self.left -= 1
            raise RuntimeError("embedder broke")

    def embed(self, texts):
        self._break()
        return self.inner.embed(texts)

    def peek(self, texts):
        self._break()
        return self.inner.peek(texts)

    def later(self, texts):
        return self.inner.later(texts)


def town(failures: int):
    sim = build_simulation("three", seed=1)
    sim.mind = dataclasses.replace(sim.mind, embedder=FlakyEmbedder(sim.mind.embedder, failures))
    return sim


def test_a_failed_seeding_is_retried_and_nothing_is_lost():
    sim = town(failures=2)
    sim.run_until(sim.now + timedelta(hours=1))
    sim.close()
    health = sim.jobs.report()
    assert health["failed"] == 2 and health["lost"] == 0 and health["unseeded"] == []
    for agent in sim.agents.values():
        seeds = agent.persona.seed_memories()
        texts = [agent.memory.text(i) for i in range(len(agent.memory))]
        assert texts[: len(seeds)] == seeds and texts.count(seeds[0]) == 1
    assert sim.notices() == ()


def test_seeding_that_keeps_failing_is_lost_counted_and_told():
    sim = town(failures=10**6)
    sim.run_until(sim.now + timedelta(hours=2))
    sim.close()
    health = sim.jobs.report()
    assert health["lost"] == 3 and sorted(health["unseeded"]) == sorted(sim.agents)
    assert 3 * 3 <= health["failed"] <= 3 * 10  # retried, with a growing wait
    assert any("keeps failing" in n for n in sim.notices())
    assert all(len(a.memory) == 0 and not a.seeded for a in sim.agents.values())


def test_a_run_that_lost_work_says_so_in_its_report_and_exit_code(tmp_path, monkeypatch, capsys):
    import json

    import game.sim.factory as factory
    from game.cli import main

    real = factory.build_simulation

    def flaky_town(*args, **kwargs):
        sim = real(*args, **kwargs)
        broken = FlakyEmbedder(sim.mind.embedder, 10**6)
        sim.mind = dataclasses.replace(sim.mind, embedder=broken)
        return sim

    monkeypatch.setattr(factory, "build_simulation", flaky_town)
    report = tmp_path / "report.json"
    code = main(["run", "--scenario", "three", "--hours", "1", "--quiet", "--report", str(report)])
    assert code == 1
    assert json.loads(report.read_text())["jobs"]["lost"] == 3
    assert "3 cognition job(s) failed" in capsys.readouterr().err
