"""The evaluation chart: diffusion over game time, the strict measures, and both networks
(the interviews' and the memory proxy's) before and after.

Drawn with pygame on an offscreen surface, saved as PNG: only the font module is
initialised, never the display, so it needs no video driver and no window. Every figure
is read from the typed Evaluation (game/sim/results.py), where each measure is computed
once and labelled by its method; the intents are the scenario's, by id.
"""

from __future__ import annotations

import io
import math
from datetime import datetime, timedelta
from pathlib import Path

import pygame

from game.core.files import write_atomic
from game.sim.results import Evaluation, number

W, H = 1500, 1100
BG, INK, GRID = (250, 248, 242), (40, 40, 48), (220, 216, 206)
COLOURS = [(214, 96, 77), (66, 133, 180), (96, 160, 88), (160, 110, 190)]


def _font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, size)


def _text(surface, text: str, pos: tuple[int, int], size: int = 22, colour=INK) -> None:
    surface.blit(_font(size).render(text, True, colour), pos)


def _diffusion_panel(
    surface, rect: pygame.Rect, curves: dict[str, tuple[tuple[str, int], ...]], residents: int, span
) -> None:
    pygame.draw.rect(surface, (255, 255, 255), rect)
    pygame.draw.rect(surface, GRID, rect, 1)
    _text(surface, "Residents who know (memory: fact.intent)", (rect.x, rect.y - 28), 26)
    t0, t1 = span
    total = max(1.0, (t1 - t0).total_seconds())
    for k in range(0, residents + 1, max(1, 5 if residents > 10 else 1)):
        y = rect.bottom - rect.height * k / residents
        pygame.draw.line(surface, GRID, (rect.x, y), (rect.right, y))
        _text(surface, str(k), (rect.x - 28, int(y) - 8), 20)
    day = t0.replace(hour=0, minute=0, second=0)
    while day <= t1:
        x = rect.x + rect.width * max(0.0, (day - t0).total_seconds()) / total
        pygame.draw.line(surface, GRID, (x, rect.y), (x, rect.bottom))
        _text(surface, day.strftime("%b %d"), (int(x) + 4, rect.bottom + 6), 20)
        day += timedelta(days=1)
    for i, (intent, points) in enumerate(sorted(curves.items())):
        colour = COLOURS[i % len(COLOURS)]
        xy = [(rect.x, rect.bottom)]
        for when, count in points:
            x = rect.x + rect.width * (datetime.fromisoformat(when) - t0).total_seconds() / total
            y = rect.bottom - rect.height * count / residents
            xy += [(x, xy[-1][1]), (x, y)]
        xy.append((rect.right, xy[-1][1]))
        pygame.draw.lines(surface, colour, False, xy, 3)
        _text(
            surface,
            f"{intent}: {points[-1][1] if points else 0}",
            (rect.x + 10, rect.y + 8 + 24 * i),
            24,
            colour,
        )


def _network_panel(surface, rect: pygame.Rect, names: list[str], edges, title: str) -> None:
    pygame.draw.rect(surface, (255, 255, 255), rect)
    pygame.draw.rect(surface, GRID, rect, 1)
    _text(surface, title, (rect.x, rect.y - 28), 26)
    cx, cy, r = rect.centerx, rect.centery, min(rect.width, rect.height) / 2 - 40
    pos = {
        n: (
            cx + r * math.cos(2 * math.pi * i / len(names)),
            cy + r * math.sin(2 * math.pi * i / len(names)),
        )
        for i, n in enumerate(names)
    }
    for a, b in edges:
        pygame.draw.aaline(surface, (120, 150, 190), pos[a], pos[b])
    for n, (x, y) in pos.items():
        pygame.draw.circle(surface, (214, 96, 77), (int(x), int(y)), 6)
        label = _font(16).render(n.split()[0], True, INK)
        surface.blit(label, (x + (8 if x >= cx else -8 - label.get_width()), y - 6))


def _measures_panel(surface, rect: pygame.Rect, result: Evaluation) -> None:
    """The strict figures, each with its method in a word."""
    pygame.draw.rect(surface, (255, 255, 255), rect)
    pygame.draw.rect(surface, GRID, rect, 1)
    _text(surface, "Measures (interviews, judged)", (rect.x, rect.y - 28), 26)
    for i, line in enumerate(_measure_lines(result)):
        _text(surface, line, (rect.x + 10, rect.y + 10 + 26 * i), 22)


def _measure_lines(result: Evaluation) -> list[str]:
    n = len(result.residents)
    lines = []
    for k, d in result.diffusion.items():
        low, high = d.spread
        lines.append(
            f"{k}: {d.start} -> {number(d.end)} of {n} judged, median of {len(d.phrasings)} "
            f"phrasings ({low}-{high}; {number(d.keyword_mentions)} keyword)"
        )
        for question in d.flagged:
            lines.append(f"  far from the rest: {question[:60]}")
        if d.model_end is not None:
            lines.append(f"{k}, model judge: {number(d.model_end)}")
    h = result.hallucinations
    lines.append(f"hallucinated {h.hallucinated} of {h.checked} checked ({h.rate})")
    if result.truth is not None:  # the answers checked against the save's own truth
        t, agree = result.truth, result.truth.paraphrase_consistency
        lines.append(f"truth: {t.contradicted} of {t.answers} contradicted, {t.stale} stale; "
                     f"paraphrases agree {'n/a' if agree is None else agree}")  # fmt: skip
    for k, a in result.attendance.items():
        lines.append(
            f"{k}: invited {len(a.invited)}, accepted {len(a.accepted)}, "
            f"declined {len(a.declined)}, attended {len(a.attended)}"
        )
    if result.ablations is not None:
        for condition, score in result.ablations.scores.items():
            lines.append(f"battery, {condition}: {score}")
    return lines


def draw_chart(path: str | Path, result: Evaluation, names: list[str], span) -> Path:
    """Write the chart PNG of one evaluation (`measure`'s result)."""
    pygame.font.init()
    surface = pygame.Surface((W, H))
    surface.fill(BG)
    curves = {k: m.curve for k, m in result.knowledge.items()}
    _diffusion_panel(surface, pygame.Rect(60, 60, 560, 440), curves, len(names), span)
    _measures_panel(surface, pygame.Rect(60, 600, 560, 440), result)
    nets = result.networks
    for row, (net, label) in enumerate(
        ((nets.interview, "interviews"), (nets.memory_proxy, "memory proxy"))
    ):
        y = 60 + 540 * row
        for col, (when, edges, value) in enumerate(
            (("start", net.edges_start, net.start), ("end", net.edges_end, net.end))
        ):
            _network_panel(
                surface,
                pygame.Rect(680 + 420 * col, y, 380, 440),
                names,
                edges,
                f"{label}, {when}: density {value}",
            )
    return write_png(surface, path)


def write_png(surface: pygame.Surface, path: str | Path, make_folder: bool = False) -> Path:
    """The surface as a PNG, written whole or not at all (FileProblem). Encoded in memory
    first: pygame's writer prints the errors of a file object's write as tracebacks and
    carries on, and saved straight to a path it left a 0-byte file on a full disk."""
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, Path(path).name or "image.png")
    return write_atomic(path, buffer.getvalue(), make_folder=make_folder)
