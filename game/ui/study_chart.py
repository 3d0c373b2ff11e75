"""The results store as a picture: each measure by condition, means with error bars over
seeds, and the paper's figure beside them.

Drawn with the project's own chart code (pygame on an offscreen surface, font module only,
no display), as the evaluation's chart is: a plotting library would be one more dependency
of the default install for a grid of dots and bars, and this way both charts look alike
and are written whole or not at all (write_png).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pygame

from game.sim.study import ConditionRows, Row
from game.ui.chart import BG, COLOURS, GRID, INK, _font, _text, write_png

PANEL_W, PANEL_H, COLUMNS, MARGIN = 360, 230, 4, 40
PAPER = (150, 60, 60)


def draw_study_chart(path: str | Path, groups: Sequence[ConditionRows]) -> Path:
    """Write the PNG: a panel per measure, a dot and bar per condition."""
    pygame.font.init()
    names = _measures(groups)
    rows = max(1, -(-len(names) // COLUMNS))
    legend = 30 * len(groups) + 20
    surface = pygame.Surface((COLUMNS * PANEL_W + MARGIN, rows * PANEL_H + legend + MARGIN))
    surface.fill(BG)
    _legend(surface, groups)
    for i, name in enumerate(names):
        x = MARGIN + (i % COLUMNS) * PANEL_W
        y = legend + MARGIN + (i // COLUMNS) * PANEL_H
        cells = [next((r for r in g.rows if r.measure == name), None) for g in groups]
        _panel(surface, pygame.Rect(x, y, PANEL_W - 50, PANEL_H - 70), name, cells)
    return write_png(surface, path)


def _measures(groups: Sequence[ConditionRows]) -> list[str]:
    """Every measure any condition has, in the tables' order."""
    seen: dict[str, None] = {}
    for g in groups:
        seen.update((r.measure, None) for r in g.rows if r.values)
    return list(seen)


def _legend(surface: pygame.Surface, groups: Sequence[ConditionRows]) -> None:
    for i, g in enumerate(groups):
        colour = COLOURS[i % len(COLOURS)]
        pygame.draw.circle(surface, colour, (MARGIN + 6, 22 + 30 * i), 6)
        seeds = f"{len(g.seeds)} seeds" + (f", {len(g.failed)} failed" if g.failed else "")
        _text(surface, f"{g.setup.label} ({seeds})", (MARGIN + 20, 14 + 30 * i), 24)
    _text(surface, "dot: mean; bar: mean +- sd over seeds; dashed: the paper",
          (MARGIN + 700, 14), 22, PAPER)  # fmt: skip


def _panel(surface, rect: pygame.Rect, name: str, cells: Sequence[Row | None]) -> None:
    pygame.draw.rect(surface, (255, 255, 255), rect)
    pygame.draw.rect(surface, GRID, rect, 1)
    _text(surface, name[:44], (rect.x, rect.y - 22), 20)
    low, high = _span(cells)
    _axis(surface, rect, low, high)
    step = rect.width / (len(cells) + 1)
    for i, row in enumerate(cells):
        if row is None or row.mean is None:
            continue
        x = int(rect.x + step * (i + 1))
        _error_bar(surface, rect, x, row, low, high, COLOURS[i % len(COLOURS)])
    paper = next((r.paper for r in cells if r is not None and r.paper is not None), None)
    if paper is not None:
        _dashed(surface, rect, _y(rect, paper, low, high))
        _text(surface, f"paper {paper:g}", (rect.right - 80, _y(rect, paper, low, high) - 16),
              18, PAPER)  # fmt: skip


def _span(cells: Sequence[Row | None]) -> tuple[float, float]:
    """The panel's value range: every bar and the paper, from 0 when all are positive."""
    values = [0.0]
    for r in cells:
        if r is None or r.mean is None:
            continue
        values += [r.mean - (r.sd or 0), r.mean + (r.sd or 0), r.low or 0, r.high or 0]
        values += [r.paper] if r.paper is not None else []
    low, high = min(values), max(values)
    return (low, high + 1.0) if high == low else (low, high + 0.08 * (high - low))


def _y(rect: pygame.Rect, value: float, low: float, high: float) -> int:
    return int(rect.bottom - rect.height * (value - low) / (high - low))


def _axis(surface, rect: pygame.Rect, low: float, high: float) -> None:
    for k in range(5):
        value = low + (high - low) * k / 4
        y = _y(rect, value, low, high)
        pygame.draw.line(surface, GRID, (rect.x, y), (rect.right, y))
        label = _font(16).render(f"{value:.3g}", True, INK)
        surface.blit(label, (rect.x - label.get_width() - 4, y - 6))


def _error_bar(surface, rect, x: int, row: Row, low: float, high: float, colour) -> None:
    mean, sd = row.mean or 0.0, row.sd or 0.0
    top, bottom = _y(rect, mean + sd, low, high), _y(rect, mean - sd, low, high)
    pygame.draw.line(surface, colour, (x, top), (x, bottom), 2)
    for y in (top, bottom):
        pygame.draw.line(surface, colour, (x - 6, y), (x + 6, y), 2)
    pygame.draw.circle(surface, colour, (x, _y(rect, mean, low, high)), 6)
    _text(surface, f"{mean:.3g}", (x + 8, _y(rect, mean, low, high) - 8), 18, colour)


def _dashed(surface, rect: pygame.Rect, y: int) -> None:
    for x in range(rect.x, rect.right, 12):
        pygame.draw.line(surface, PAPER, (x, y), (min(x + 6, rect.right), y), 2)
