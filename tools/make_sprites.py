"""Draw a chibi sprite sheet for every resident from the `look` fields of the scenario.

Usage: python tools/make_sprites.py [--out DIR]   (the residents of smallville and smallville100)

The art is ours: small pixel templates (one character per pixel) stamped in the colours of
each resident's `look`, so 25 people share one body plan yet read apart at a glance, and a
re-run reproduces the committed PNGs byte for byte (our own PNG writer, fixed zlib level).
A sheet is 3 columns (standing, left foot forward, right foot forward) by 4 rows (facing
down, left, right, up) of 32 x 32 RGBA frames.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from game.core.files import write_atomic  # noqa: E402
from game.core.names import slug as name_slug  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = Path("saves") / "scenarios" / "smallville.json"
SCENARIOS = (SCENARIO, Path("saves") / "scenarios" / "smallville100.json")
SPRITES = Path("assets") / "sprites"
FRAME = 32
VIEWS = ("down", "left", "right", "up")
STEPS = 3
ZLIB_LEVEL = 9

Color = tuple[int, int, int, int]

OUTLINE: Color = (36, 26, 38, 255)
FIXED: dict[str, Color] = {
    "B": (62, 44, 36, 255),  # shoes
    "E": (34, 26, 42, 255),  # eyes
    "W": (250, 250, 250, 255),  # eye highlight
}

# The visitor is the player: a traveller with a wide hat and a backpack, so they never
# pass for a resident.
VISITOR_LOOK: dict[str, str] = {
    "skin": "#e3b590",
    "hair": "#5a3b26",
    "hair_style": "hat",
    "shirt": "#5f7f3a",
    "pants": "#6a5540",
    "hat": "#8a5a2b",
    "backpack": "#b0703a",
}


@dataclass(frozen=True)
class Art:
    """A pixel template: `rows` of palette codes ('.' is see-through) placed at (x, y)."""

    x: int
    y: int
    rows: tuple[str, ...]

    def mirrored(self) -> Art:
        """The same art flipped left-right about its own box (for the other walk step)."""
        return Art(self.x, self.y, tuple(row[::-1] for row in self.rows))


# ---------------------------------------------------------------- bodies (x 9..22)

BODY_DOWN = (
    Art(9, 18, (
        ".sSSSSSSSSSSs.",
        "ssSSSSSSSSSSss",
        "ssSSSSSSSSSSss",
        "ssSSSSSSSSSSss",
        "KKSSSSSSSSSSKK",
        "KKsssssssssSKK",
        "..PPPPPPPPPP..",
        "...PPP..PPP...",
        "...PPP..PPP...",
        "...PpP..PpP...",
        "...PPP..PPP...",
        "..BBBB..BBBB..",
        "..BBBB..BBBB..",
    )),
    Art(9, 18, (
        ".sSSSSSSSSSSs.",
        "ssSSSSSSSSSSss",
        "ssSSSSSSSSSSss",
        "ssSSSSSSSSSSKK",
        "ssSSSSSSSSSSKK",
        "KKsssssssssS..",
        "KKPPPPPPPPPP..",
        "...PPP..PPP...",
        "...PPP..PPP...",
        "...PpP..BBBB..",
        "...PPP..BBBB..",
        "..BBBB........",
        "..BBBB........",
    )),
)

BODY_LEFT = (
    Art(9, 18, (
        "...SSSSSSS....",
        "...SSssSSS....",
        "...SSssSSS....",
        "...SSssSSS....",
        "...SSKKSSS....",
        "...ssKKsss....",
        "...PPPPPPP....",
        "....PPPpp.....",
        "....PPPpp.....",
        "....PPPpp.....",
        "....PPPpp.....",
        "...BBBBBB.....",
        "...BBBBBB.....",
    )),
    Art(9, 18, (
        "...SSSSSSS....",
        "...SSSSssS....",
        "...SSSSSss....",
        "...SSSSSSss...",
        "...SSSSSSsKK..",
        "...ssssss.KK..",
        "...PPPPPPP....",
        "...PPP.ppp....",
        "..PPP...ppp...",
        "..PPP...ppp...",
        ".PPP.....ppp..",
        "BBBB.....BBB..",
        "BBBB......BB..",
    )),
    Art(9, 18, (
        "...SSSSSSS....",
        "...SssSSSS....",
        "..ssSSSSSS....",
        ".ssSSSSSSS....",
        "KKsSSSSSSS....",
        "KK.sssssss....",
        "...PPPPPPP....",
        "...ppp.PPP....",
        "..ppp...PPP...",
        "..ppp...PPP...",
        ".ppp.....PPP..",
        "BBBB.....BBB..",
        "BBBB......BB..",
    )),
)

# ---------------------------------------------------------------- heads (x 8..22)

HEAD_DOWN = Art(9, 5, (
    "...KKKKKKKK...",
    ".KKKKKKKKKKKK.",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKEWKKKKEWKKK",
    "KKKEEKKKKEEKKK",
    "KKRKKKKKKKKRKK",
    "KKKKKKMMKKKKKK",
    ".KKKKKKKKKKKK.",
    "...kkkkkkkk...",
))

HEAD_LEFT = Art(8, 5, (
    "....KKKKKKKK...",
    "..KKKKKKKKKKKK.",
    ".KKKKKKKKKKKKKK",
    ".KKKKKKKKKKKKKK",
    ".KKKKKKKKKKKKKK",
    ".KKKKKKKKKKKKKK",
    ".KKKKKKKKKKKKKK",
    ".KEWKKKKKKKKKKK",
    "KKEEKKKKKkkKKKK",
    ".KRKKKKKKkkKKKK",
    ".KMKKKKKKKKKKKK",
    "..KKKKKKKKKKKK.",
    "....kkkkkkkk...",
))

HEAD_UP = Art(9, 5, (
    "...KKKKKKKK...",
    ".KKKKKKKKKKKK.",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    "KKKKKKKKKKKKKK",
    ".KKKKKKKKKKKK.",
    "...kkkkkkkk...",
))

HEADS = {"down": HEAD_DOWN, "left": HEAD_LEFT, "up": HEAD_UP}

# ---------------------------------------------------------------- hair (x 7..24)
# Each style has, per view, art drawn behind the body ("back") and over the head ("front").

CAP_DOWN = (
    ".....HHHHHHHH.....",
    "...HHHHHHHHHHHH...",
    "..HHHLLHHHHHHHHH..",
    ".HHHLLHHHHHHHHHHH.",
    ".HHHHHHHHHHHHHHHH.",
)
CAP_LEFT = (
    "......HHHHHHHH....",
    "....HHHHHHHHHHH...",
    "...HHLLHHHHHHHHH..",
    "..HHLLHHHHHHHHHHH.",
    "..HHHHHHHHHHHHHHH.",
)
CAP_UP = (
    ".....HHHHHHHH.....",
    "...HHHHHHHHHHHH...",
    "..HHHHHLLHHHHHHH..",
    ".HHHHHLLHHHHHHHHH.",
    ".HHHHHHHHHHHHHHHH.",
)
BACK_OF_HEAD = (
    ".HHHHHHHHHHHHHHHH.",
    ".HHHHHHHHHHHHHHHH.",
    ".HHHHHHHHHHHHHHHH.",
    ".HHHHHHHHHHHHHHHH.",
    ".HHHHHHHHHHHHHHHH.",
    ".HHHHHHHHHHHHHHHH.",
    "..HHHHHHHHHHHHHH..",
    "..hHHHHHHHHHHHHh..",
    "....hhhhhhhhhh....",
)

HAIR: dict[str, dict[str, dict[str, tuple[Art, ...]]]] = {
    "short": {
        "down": {"front": (Art(7, 3, CAP_DOWN + (
            ".HHHHHHHhHHHHhHHH.",
            ".HHHh.hHH..hHHHHH.",
            ".HH............HH.",
            ".Hh............hH.",
        )),)},
        "left": {"front": (Art(7, 3, CAP_LEFT + (
            "..HHhHHHHHHHHHHHH.",
            "..Hh.....HHHHHHHH.",
            "...........HHHHHH.",
            "...........hHHHHH.",
            "............hHHHh.",
            ".............hhh..",
        )),)},
        "up": {"front": (Art(7, 3, CAP_UP + BACK_OF_HEAD),)},
    },
    "long": {
        "down": {
            "back": (Art(7, 9, ("HHHHHHHHHHHHHHHHHH",) * 12 + ("hhhh..........hhhh",)),),
            "front": (Art(7, 3, CAP_DOWN + (
                ".HHHHHHHhhHHHHHHH.",
                ".HHHHHHh..hHHHHHH.",
                ".HHHHh......hHHHH.",
                ".HHH..........HHH.",
                ".HHH..........HHH.",
                ".HHH..........HHH.",
                ".HHH..........HHH.",
                ".HHH..........HHH.",
                ".HHH..........HHH.",
                ".hHh..........hHh.",
            )),),
        },
        "left": {
            "back": (Art(7, 18, ("...........HHHHHHH",) * 4 + ("...........hhhhhh.",)),),
            "front": (Art(7, 3, CAP_LEFT + (
                "..HHhHHHHHHHHHHHH.",
                "..Hh...HHHHHHHHHH.",
                ".......HHHHHHHHHH.",
                ".......HHHHHHHHHH.",
                ".......HHHHHHHHHHH",
                ".......hHHHHHHHHHH",
                "........HHHHHHHHHH",
                "........HHHHHHHHHH",
                "........hHHHHHHHHH",
                ".........hhhhhhhh.",
            )),),
        },
        "up": {"front": (Art(7, 3, CAP_UP + (
            ".HHHHHHHHHHHHHHHH.",
        ) * 10 + (
            "..HHHHHhHHhHHHHH..",
            "...HHHHhHHhHHHH...",
            "...HhHHhHHhHHhH...",
            "...h.h.h..h.h.h...",
        )),)},
    },
    "bun": {
        "down": {"front": (Art(7, 1, (
            ".....HHLLHHHH.....",
            ".....HHHHHHhH.....",
            "....hhHHHHHHhh....",
        ) + CAP_DOWN[1:] + (
            ".HHHHHHHHHHHHHHHH.",
            ".HHh..........hHH.",
            ".HH............HH.",
            ".Hh............hH.",
        )),)},
        "left": {"front": (Art(7, 2, (
            "................HHH.",
            "....HHHHHHHHH..HHLHH",
            "...HHHHHHHHHHHHHHHHH",
            "..HHLLHHHHHHHHhHHHHH",
            "..HHLHHHHHHHHHHhhHH.",
            "..HHHHHHHHHHHHHHHH..",
            "..HHhHHHHHHHHHHHHH..",
            "..Hh......HHHHHHHH..",
            "...........HHHHHH...",
            "...........hHHHHH...",
            "............hHHHh...",
            ".............hhh....",
        )),)},
        "up": {"front": (Art(7, 1, (
            ".....HHLLHHHH.....",
            ".....HHHHHHHH.....",
            "....hhHHHHHHhh....",
        ) + CAP_UP[1:] + BACK_OF_HEAD),)},
    },
    "ponytail": {
        "down": {
            "back": (Art(22, 6, (
                ".uu.", ".HHH", "HHHH", "HHHH", ".HHH", ".HHH", ".HHh", ".HHh",
                "..Hh", "..Hh", "..Hh", "..hh", "..h.",
            )),),
            "front": (Art(7, 3, CAP_DOWN + (
                ".HHHHHHHHHHHHHHHH.",
                ".HHHHHHHHhh..hHHH.",
                ".HHHHHhh.......HH.",
                ".HHh...........hH.",
            )),),
        },
        "left": {
            "back": (Art(22, 6, (
                "uu..", "HHH.", "HHHH", ".HHH", ".HHH", ".HHh", "..Hh", "..hh", "...h",
            )),),
            "front": (Art(7, 3, CAP_LEFT + (
                "..HHHHHHHHHHHHHHu.",
                "..HHh....HHHHHHHH.",
                "...........HHHHHH.",
                "...........hHHHHH.",
                "............hHHHh.",
                ".............hhh..",
            )),),
        },
        "up": {"front": (
            Art(7, 3, CAP_UP + BACK_OF_HEAD),
            Art(14, 13, ("uuuu", ".HH.", "HHHH", "HHHH", "HHHH", "HhHH", "HhHH", ".hH.", ".hh.")),
        )},
    },
    "curly": {
        "down": {"front": (Art(7, 2, (
            "....HH.HHHH.HH....",
            "...HHHHHHHHHHHH...",
            "..HHLHHHLHHHLHHH..",
            ".HHHHHHHHHHHHHHHH.",
            "HHLHHHLHHHHLHHHLHH",
            "HHHHHHHHHHHHHHHHHH",
            "HHHhHHHhHHhHHHhHHH",
            "HHH.hH..hH..hH.HHH",
            "HHH............HHH",
            "HHh............hHH",
            ".Hh............hH.",
        )),)},
        "left": {"front": (Art(7, 2, (
            ".....HH.HHHH.HH...",
            "....HHHHHHHHHHHH..",
            "...HHLHHHLHHHLHHH.",
            "..HHHHHHHHHHHHHHHH",
            ".HHLHHHLHHHHLHHHLH",
            ".HHHHHHHHHHHHHHHHH",
            ".HHhHHHhHHhHHHhHHH",
            ".Hh.hH...HHHLHHHHH",
            "..........HHHHHHHH",
            "..........HHHLHHHH",
            "..........hHHHHHHH",
            "...........hHHHHh.",
            "............hhhh..",
        )),)},
        "up": {"front": (Art(7, 2, (
            "....HH.HHHH.HH....",
            "...HHHHHHHHHHHH...",
            "..HHLHHHLHHHLHHH..",
            ".HHHHHHHHHHHHHHHH.",
            "HHLHHHLHHHHLHHHLHH",
            "HHHHHHHHHHHHHHHHHH",
            "HHHHLHHHHLHHHHLHHH",
            "HHHHHHHHHHHHHHHHHH",
            "HHLHHHHLHHHHLHHHHH",
            "HHHHHHHHHHHHHHHHHH",
            "HHHHHLHHHHHLHHHHHH",
            ".HHHHHHHHHHHHHHHH.",
            "..hHHHHHHHHHHHHh..",
            "...hhhhhhhhhhhh...",
        )),)},
    },
    "bald": {
        "down": {"front": (
            Art(12, 6, ("GG", "G.")),
            Art(7, 10, (".HH............HH.", ".HH............HH.", ".hH............Hh.")),
        )},
        "left": {"front": (
            Art(12, 6, ("GGG", "G..")),
            Art(19, 10, ("..HHH", ".HHHH", ".HHHH", "..hh.")),
        )},
        "up": {"front": (
            Art(14, 6, ("GGG", ".G.")),
            Art(7, 10, (
                ".HH............HH.",
                ".HHHH........HHHH.",
                ".HHHHHHHHHHHHHHHH.",
                "..hHHHHHHHHHHHHh..",
            )),
        )},
    },
    "hat": {
        "down": {"front": (
            Art(7, 9, (".HH............HH.", ".Hh............hH.")),
            Art(6, 1, (
                ".....TTTTTTTTTT.....",
                "....TTTTTTTTTTTT....",
                "....TTTTTTTTTTTT....",
                "....TTTTTTTTTTTT....",
                "....uuuuuuuuuuuu....",
                ".TTTTTTTTTTTTTTTTTT.",
                "TTTTTTTTTTTTTTTTTTTT",
                ".tttttttttttttttttt.",
            )),
        )},
        "left": {"front": (
            Art(17, 9, ("HHHHHH", "hHHHHH", ".hHHH.")),
            Art(5, 1, (
                "......TTTTTTTTTT....",
                ".....TTTTTTTTTTTT...",
                ".....TTTTTTTTTTTT...",
                ".....TTTTTTTTTTTT...",
                ".....uuuuuuuuuuuu...",
                "..TTTTTTTTTTTTTTTTT.",
                "TTTTTTTTTTTTTTTTTTTT",
                ".ttttttttttttttttt..",
            )),
        )},
        "up": {"front": (
            Art(7, 9, BACK_OF_HEAD[1:]),
            Art(6, 1, (
                ".....TTTTTTTTTT.....",
                "....TTTTTTTTTTTT....",
                "....TTTTTTTTTTTT....",
                "....TTTTTTTTTTTT....",
                "....uuuuuuuuuuuu....",
                ".TTTTTTTTTTTTTTTTTT.",
                "TTTTTTTTTTTTTTTTTTTT",
                ".tttttttttttttttttt.",
            )),
        )},
    },
}

# The visitor's backpack: straps from the front, the pack itself from behind or the side.
PACK = {
    "down": (Art(12, 18, ("a......a",) * 5),),
    "left": (Art(19, 18, ("AAA", "AAAA", "AaAA", "AaAA", "AAAA", "aaaa")),),
    "up": (Art(11, 18, (
        ".aAAAAAAa.",
        "aAAAAAAAAa",
        "AAaaaaaaAA",
        "AAAAAAAAAA",
        "AAAAAAAAAA",
        "AAAaaaaAAA",
        ".aaaaaaaa.",
    )),),
}


def hex_rgb(text: str) -> Color:
    """'#rrggbb' as an opaque RGBA tuple."""
    value = int(text.lstrip("#"), 16)
    return (value >> 16 & 255, value >> 8 & 255, value & 255, 255)


def scale(color: Color, factor: float) -> Color:
    """A darker (factor < 1) or lighter (factor > 1) tone, for shading without new inputs."""
    r, g, b = (min(255, round(c * factor)) for c in color[:3])
    return (r, g, b, color[3])


def mix(one: Color, two: Color, weight: float) -> Color:
    """`weight` of `two` blended into `one` (used for mouth and blush, derived from skin)."""
    r, g, b, a = (round(x + (y - x) * weight) for x, y in zip(one, two, strict=True))
    return (r, g, b, a)


def palette(look: Mapping[str, str]) -> dict[str, Color]:
    """Every template code -> colour for one resident; tones derive from the four inputs."""
    skin, hair = hex_rgb(look["skin"]), hex_rgb(look["hair"])
    shirt, pants = hex_rgb(look["shirt"]), hex_rgb(look["pants"])
    hat = hex_rgb(look.get("hat", look["hair"]))
    pack = hex_rgb(look.get("backpack", look["shirt"]))
    red, white = (200, 60, 70, 255), (255, 255, 255, 255)
    return {
        **FIXED,
        "K": skin, "k": scale(skin, 0.85), "G": scale(skin, 1.12),
        "M": mix(scale(skin, 0.7), red, 0.45), "R": mix(skin, red, 0.25),
        "H": hair, "h": scale(hair, 0.75), "L": mix(hair, white, 0.3),
        "S": shirt, "s": scale(shirt, 0.78),
        "P": pants, "p": scale(pants, 0.75),
        "T": hat, "t": scale(hat, 0.7), "u": mix(hat, red, 0.6),
        "A": pack, "a": scale(pack, 0.7),
    }


def stamp(surf: pygame.Surface, colors: Mapping[str, Color], art: Art) -> None:
    """Paint the template's runs of equal codes as horizontal lines."""
    for dy, row in enumerate(art.rows):
        start = 0
        while start < len(row):
            end = start
            while end + 1 < len(row) and row[end + 1] == row[start]:
                end += 1
            if row[start] != ".":
                y = art.y + dy
                pygame.draw.line(surf, colors[row[start]], (art.x + start, y), (art.x + end, y))
            start = end + 1


def outline(surf: pygame.Surface) -> None:
    """Ring the figure with a dark line so it reads on grass, floors and roads alike."""
    size = surf.get_width()
    solid = {(x, y) for y in range(size) for x in range(size) if surf.get_at((x, y)).a}
    for y in range(size):
        for x in range(size):
            if (x, y) in solid:
                continue
            if {(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)} & solid:
                surf.set_at((x, y), OUTLINE)


def body_art(view: str, step: int) -> Art:
    """The body for a view and walk step; facing down or up, step 2 mirrors step 1."""
    if view == "left":
        return BODY_LEFT[step]
    return BODY_DOWN[1].mirrored() if step == 2 else BODY_DOWN[step]


def frame(look: Mapping[str, str], view: str, step: int) -> pygame.Surface:
    """One 32 x 32 frame for 'down', 'left' or 'up' (right is left mirrored)."""
    colors = palette(look)
    hair = HAIR[look["hair_style"]][view]
    layers: list[Art] = [*hair.get("back", ()), body_art(view, step)]
    if "backpack" in look and view != "up":
        layers.extend(PACK[view])
    layers.extend([HEADS[view], *hair.get("front", ())])
    if "backpack" in look and view == "up":
        layers.extend(PACK[view])
    surf = pygame.Surface((FRAME, FRAME), pygame.SRCALPHA)
    for art in layers:
        stamp(surf, colors, art)
    outline(surf)
    return surf


def sheet(look: Mapping[str, str]) -> pygame.Surface:
    """The 3 x 4 sheet: columns are walk steps, rows are down, left, right, up."""
    out = pygame.Surface((FRAME * STEPS, FRAME * len(VIEWS)), pygame.SRCALPHA)
    for row, view in enumerate(VIEWS):
        for step in range(STEPS):
            if view == "right":
                image = pygame.transform.flip(frame(look, "left", step), True, False)
            else:
                image = frame(look, view, step)
            out.blit(image, (step * FRAME, row * FRAME))
    return out


def png_bytes(width: int, height: int, rgba: bytes) -> bytes:
    """A minimal RGBA PNG; no timestamps or text chunks, so equal pixels give equal bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    stride = width * 4
    raw = b"".join(b"\x00" + rgba[y * stride:(y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, ZLIB_LEVEL)) + chunk(b"IEND", b""))


def write_png(path: Path, surf: pygame.Surface) -> None:
    """Save a surface through our own PNG writer (pygame's encoder may vary by build)."""
    data = pygame.image.tobytes(surf, "RGBA")
    png = png_bytes(surf.get_width(), surf.get_height(), data)
    write_atomic(path, png, make_folder=True)


def slug(name: str) -> str:
    """The sprite file stem for a resident: 'Isabella Rodriguez' -> 'isabella_rodriguez',
    the game's own (game.core.names.slug), so a name like a path writes no file outside
    the sprites folder and the window finds the sheet it wrote."""
    return name_slug(name)


def load_looks(scenario: Path) -> dict[str, dict[str, str]]:
    """Resident name -> look, in scenario order."""
    data = json.loads(scenario.read_text(encoding="utf-8"))
    return {res["name"]: res["look"] for res in data["residents"]}


def make_all(out_root: Path, scenario: Path) -> list[Path]:
    """Write every resident's sheet and the visitor's under out_root/assets/sprites."""
    folder = out_root / SPRITES
    written = []
    looks = {slug(name): look for name, look in load_looks(scenario).items()}
    looks["visitor"] = VISITOR_LOOK
    for stem, look in looks.items():
        path = folder / f"{stem}.png"
        write_png(path, sheet(look))
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry: draw all sheets into --out (default: the repository root), for
    the first town and for the 100 town's newcomers (the 500 town's others are drawn as
    plain figures: it is for headless studies)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="root to write assets/sprites in")
    args = parser.parse_args(argv)
    written = {p for scenario in SCENARIOS for p in make_all(args.out, ROOT / scenario)}
    print(f"wrote {len(written)} sprite sheets to {args.out / SPRITES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
