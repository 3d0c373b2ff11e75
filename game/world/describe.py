"""The environment tree rendered to language, as the prompts and the player read it."""

from __future__ import annotations

from collections.abc import Collection

from game.world.town import WORLD, AreaKind, Town


def _names(items: list[str]) -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _article(name: str) -> str:
    if name[:1].isupper() or name.lower().startswith(("the ", "a ", "an ")):
        return name
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def describe_area(town: Town, address: str, known: Collection[str] | None = None) -> list[str]:
    """Sentences for one node and its subtree: 'there is a stove in the kitchen'.

    `known` limits the rendering to the addresses an agent has seen (its own subgraph).
    """

    def seen(a: str) -> bool:
        return known is None or a in known

    area = town.areas[address]
    kids = [k for k in town.children(address) if seen(k.address)]
    lines: list[str] = []
    if area.kind is AreaKind.WORLD:
        if kids:
            lines.append(f"Smallville has {_names([k.name for k in kids])}.")
    elif area.kind is AreaKind.SECTOR and kids:
        lines.append(f"{area.name} has {_names(['the ' + k.name for k in kids])}.")
    elif area.kind is AreaKind.ARENA and kids:
        things = _names([_article(k.name) for k in kids])
        verb = "is" if len(kids) == 1 else "are"
        lines.append(f"In the {area.name} of {town.areas[area.parent].name} there {verb} {things}.")
    for kid in kids:
        if kid.kind is not AreaKind.OBJECT:
            lines.extend(describe_area(town, kid.address, known))
    return lines


def describe_tree(town: Town, known: Collection[str] | None = None) -> str:
    return "\n".join(describe_area(town, WORLD, known))


def describe_object(town: Town, address: str, state: str | None = None) -> str:
    """'the stove in the kitchen of Lin family's house is burning' (its state now, or
    the `state` given)."""
    return f"{object_phrase(town, address)} is {town.state(address) if state is None else state}"


def object_phrase(town: Town, address: str) -> str:
    """'the stove in the kitchen of Lin family's house': an object as people name it."""
    obj = town.areas[address]
    arena = town.areas[obj.parent]
    sector = town.areas[arena.parent]
    return f"the {obj.name} in the {arena.name} of {sector.name}"


def tree_dict(town: Town) -> list[dict]:
    """The tree as plain data, for `main.py town --json`."""
    return [
        {
            "name": sector.name,
            "kind": sector.category,
            "arenas": [
                {
                    "name": arena.name,
                    "objects": [
                        {"name": obj.name, "state": town.state(obj.address)}
                        for obj in town.children(arena.address, AreaKind.OBJECT)
                    ],
                }
                for arena in town.children(sector.address, AreaKind.ARENA)
            ],
        }
        for sector in town.sectors()
    ]
