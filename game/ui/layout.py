"""Name labels and bubbles laid out as rectangles, so that none covers another, the HUD,
a panel or a toast.

Why a layout and not "draw it over the head": at the Valentine's party seventeen people
stand a tile apart in one cafe, and bubbles drawn where they belong piled up unreadably; a
bubble near the top of the view slid under the HUD, a toast covered the line a resident was
saying to the player, and the chat panel hid the names beside it. Each overlay has a
natural place. It is tried there first, then at nearby places, nearest first; the first
one inside the map's visible part and clear of everything laid out before it wins. An
overlay with no free place is left out, and overlays are laid out most important first,
so what drops in a crowd is the least important (an old line, an emoji).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field

import pygame

GAP = 2  # pixels kept between two overlays


@dataclass
class Layout:
    """The free part of the map for this frame, and the rectangles claimed in it."""

    area: pygame.Rect  # the map's visible part (under the HUD)
    blocked: list[pygame.Rect] = field(default_factory=list)  # panels, toasts, the log
    taken: list[pygame.Rect] = field(init=False)  # those, and every overlay laid out

    def __post_init__(self) -> None:
        self.taken = list(self.blocked)

    def fits(self, box: pygame.Rect) -> bool:
        return self.area.contains(box) and box.collidelist(self.taken) < 0

    def claim(self, box: pygame.Rect) -> pygame.Rect:
        self.taken.append(box.inflate(2 * GAP, 2 * GAP))
        return box

    def covered(self, box: pygame.Rect) -> bool:
        """Whether a person drawn at `box` is hidden (outside the map or under a panel)."""
        if not self.area.colliderect(box):
            return True
        return any(other.contains(box) for other in self.blocked)

    def place(
        self, box: pygame.Rect, up: bool = True, reach: int = 3, wide: int = 2
    ) -> pygame.Rect | None:
        """The nearest free place for `box` (None: there is none within reach), claimed.

        `up`: stack upward first (a bubble over a head), else downward (a name under
        feet); `reach`: how many box heights it may move that way (half that the other
        way, as at the top of the map); `wide`: how many half widths it may move sideways."""
        spot = self.find(box, up, reach, wide)
        return None if spot is None else self.claim(spot)

    def find(
        self, box: pygame.Rect, up: bool = True, reach: int = 3, wide: int = 2
    ) -> pygame.Rect | None:
        """Where `place` would put `box`, not claimed: a caller may first see whether the
        box lands at its natural place (a speech bubble that does not names its speaker)."""
        probes = candidates(box, self.area, up, reach, wide)
        return next((probe for probe in probes if self.fits(probe)), None)

    def at_home(self, spot: pygame.Rect, box: pygame.Rect) -> bool:
        """Whether `spot` is `box`'s natural place (moved inside the map only)."""
        return spot == box.clamp(self.area)


def candidates(
    box: pygame.Rect, area: pygame.Rect, up: bool, reach: int, wide: int
) -> Iterator[pygame.Rect]:
    """Places for a box near its natural one, nearest first, each moved inside `area`."""
    seen: set[tuple[int, int]] = set()
    for dx, dy in _offsets(box.width // 2 + GAP, box.height // 2 + GAP, up, reach, wide):
        probe = box.move(dx, dy).clamp(area)
        if probe.topleft not in seen:
            seen.add(probe.topleft)
            yield probe


@functools.lru_cache(maxsize=1024)
def _offsets(
    step_x: int, step_y: int, up: bool, reach: int, wide: int
) -> tuple[tuple[int, int], ...]:
    """Offsets in half-box steps: the preferred direction costs its distance, the other
    one twice that, sideways one and a half times (a stack reads better than a row).
    Cached: a frame of the 100-resident town asks for them up to a hundred times, for a handful
    of box sizes (name labels, emoji bubbles, a few speech bubbles)."""
    ahead = -1 if up else 1
    rows = [(j * ahead, j) for j in range(0, 2 * reach + 1)]
    rows += [(-j * ahead, 2 * j) for j in range(1, reach + 1)]
    out: list[tuple[float, int, int]] = []
    for row, cost in rows:
        for i in range(-wide, wide + 1):
            out.append((cost + 1.5 * abs(i), i * step_x, row * step_y))
    out.sort(key=lambda o: (o[0], abs(o[1]), o[2] * ahead))
    return tuple((dx, dy) for _, dx, dy in out)
