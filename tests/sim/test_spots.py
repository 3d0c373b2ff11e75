"""Residents take distinct spots where the map offers them (issue 14): chairs at the cafe's
tables, stools at the bar, the two seats of a bench; when the seats are gone, a tile beside
the object in the same room, never a wall or a doorway."""

from __future__ import annotations

from game.sim.factory import build_simulation

SEATING = "Hobbs Cafe:cafe:cafe customer seating"
BAR = "The Rose and Crown Pub:pub:bar counter"
BENCH = "Johnson Park:park:park bench"


def seat_everyone(sim, address: str) -> list[tuple[int, int]]:
    """Send each resident in turn to the object; each stands where they were sent."""
    chosen = []
    for agent in sim.agents.values():
        tile = sim.actions.goal_tile(agent, address)
        agent.pos, agent.path = tile, []
        chosen.append(tile)
    return chosen


def beside_blocked(sim, address: str, tile, steps) -> bool:
    rect = sim.town.areas[address].rect
    return any(
        rect.has_tile(tile[0] + dx, tile[1] + dy)
        and not sim.town.is_walkable(tile[0] + dx, tile[1] + dy)
        for dx, dy in steps
    )


def test_customers_take_distinct_chairs_beside_the_tables():
    sim = build_simulation("three", seed=0)
    tiles = seat_everyone(sim, SEATING)
    assert len(set(tiles)) == len(tiles) == 3
    for tile in tiles:
        assert sim.town.areas[SEATING].rect.has_tile(*tile) and sim.town.is_walkable(*tile)
        assert beside_blocked(sim, SEATING, tile, ((1, 0), (-1, 0))), tile  # at a table


def test_stools_at_the_bar_then_beside_it_in_the_room_never_a_doorway():
    sim = build_simulation("three", seed=0)
    tiles = seat_everyone(sim, BAR)
    assert len(set(tiles)) == 3
    assert all(beside_blocked(sim, BAR, t, ((0, 1), (0, -1))) for t in tiles)
    seats = [t for _, t in sim.spots.seats(BAR)]
    room = sim.town.areas["The Rose and Crown Pub:pub"].rect
    spot = sim.spots.choose(BAR, set(seats), lambda n: 0)
    assert spot not in seats and sim.town.is_walkable(*spot) and room.has_tile(*spot)
    assert not sim.spots.doorway(spot)


def test_a_bench_seats_two_and_the_third_stands_beside_it():
    sim = build_simulation("three", seed=0)
    tiles = seat_everyone(sim, BENCH)
    rect = sim.town.areas[BENCH].rect
    assert len(set(tiles)) == 3
    assert sum(rect.has_tile(*t) for t in tiles) == rect.w * rect.h == 2
    standing = next(t for t in tiles if not rect.has_tile(*t))
    assert sim.town.is_walkable(*standing) and not sim.spots.doorway(standing)
    assert max(abs(standing[0] - rect.x), abs(standing[1] - rect.y)) <= 2
