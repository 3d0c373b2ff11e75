"""Where a place is and how far: read from the map's own sector rectangles, as a resident
would say it ('in the north-east of town, near The Willows Market and Pharmacy'; 'a short
walk from home, to the east'). The map is the town's truth, so no scenario words are needed.
"""

from __future__ import annotations

import math
import re

from game.brains.questions import AgentContext
from game.world.town import Area

# a part of town by the compass: the map's top is north
_PARTS = {(-1, -1): "north-west", (0, -1): "north", (1, -1): "north-east", (-1, 0): "west",
          (0, 0): "middle", (1, 0): "east", (-1, 1): "south-west", (0, 1): "south",
          (1, 1): "south-east"}  # fmt: skip
# how far, as a share of the town's breadth: nearer than the first is round the corner
_NEAR, _WALK = 0.2, 0.5
FAR = re.compile(r"\bhow (?:far|close|near)\b|\b(?:far|distance) (?:from|to|away)\b|"
                 r"\b(?:a )?long (?:walk|way)\b|\bwalking distance\b", re.I)  # fmt: skip


def _centre(area: Area) -> tuple[float, float]:
    r = area.rect
    return r.x + r.w / 2, r.y + r.h / 2


def _bounds(ctx: AgentContext) -> tuple[float, float, float, float]:
    xs = [a.rect.x for a in ctx.sectors] + [a.rect.x + a.rect.w for a in ctx.sectors]
    ys = [a.rect.y for a in ctx.sectors] + [a.rect.y + a.rect.h for a in ctx.sectors]
    return min(xs), min(ys), max(xs), max(ys)


def _sector(ctx: AgentContext, place: str) -> Area | None:
    return next((a for a in ctx.sectors if a.name == place), None)


def _third(value: float, low: float, high: float) -> int:
    """-1, 0 or 1: which third of [low, high] a coordinate is in."""
    span = max(high - low, 1.0)
    share = (value - low) / span
    return -1 if share < 1 / 3 else 1 if share > 2 / 3 else 0


def part_of_town(ctx: AgentContext, place: str) -> str:
    """'in the north-east of town, near Hobbs Cafe', or '' for a place the map lacks."""
    area = _sector(ctx, place)
    if area is None or not ctx.sectors:
        return ""
    x0, y0, x1, y1 = _bounds(ctx)
    cx, cy = _centre(area)
    part = _PARTS[(_third(cx, x0, x1), _third(cy, y0, y1))]
    where = "in the middle of town" if part == "middle" else f"in the {part} of town"
    others = [a for a in ctx.sectors if a.name != place and a.category != "home"] or [
        a for a in ctx.sectors if a.name != place]  # a landmark: a shop, not someone's house
    if not others:
        return where
    nearest = min(others, key=lambda a: math.dist(_centre(a), (cx, cy)))
    return f"{where}, near {nearest.name}"


def direction(dx: float, dy: float) -> str:
    """'to the east', 'to the north-west': the compass point of a step on the map."""
    angle = math.degrees(math.atan2(-dy, dx)) % 360  # the map's y grows southwards
    points = ("east", "north-east", "north", "north-west", "west", "south-west", "south",
              "south-east")  # fmt: skip
    return f"to the {points[int((angle + 22.5) // 45) % 8]}"


def how_far(ctx: AgentContext, place: str, start: str) -> str:
    """'It's a short walk from home, to the east.': the straight distance between the two
    sectors against the town's breadth, and which way."""
    a, b = _sector(ctx, start), _sector(ctx, place)
    if a is None or b is None:
        return ""
    if a.name == b.name:
        return "It's right here, the same place."
    x0, y0, x1, y1 = _bounds(ctx)
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    share = math.dist((ax, ay), (bx, by)) / max(math.dist((x0, y0), (x1, y1)), 1.0)
    said = "just round the corner" if share < _NEAR else "a short walk" if share < _WALK \
        else "right across town"  # fmt: skip
    start_words = "home" if start == ctx.persona.home else start
    return f"It's {said} from {start_words}, {direction(bx - ax, by - ay)}."
