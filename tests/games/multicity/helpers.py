"""Shared helpers for the Multicity tests: exact positions from hand-made tiles, and checks."""

from __future__ import annotations

from tabletown.core.record import state_digest
from tabletown.games.multicity import GAME, MulticityState
from tabletown.games.multicity.actions import LENGTHS, Place
from tabletown.games.multicity.grid import END_H, END_V, MID_H, MID_V, coords, key, object_squares
from tabletown.games.multicity.tiles import HOLE, parse_tile


def custom(players: int, tiles: list[str], order: list[int] | None = None, **options) -> MulticityState:
    """A game on hand-made tiles drawn in ``order`` (start tile first); seat 0 plays first by default."""
    options.setdefault("first", "0")
    order = order or list(range(len(tiles)))
    options.setdefault("deck", len(order))
    resolved = GAME.resolve_options(players, options)
    layouts = [parse_tile(t) for t in tiles]
    return MulticityState(players, resolved, 0, tiles=layouts, order=order)


def squares(text: str) -> list[str]:
    """A tile written 'grb/yog/yrb' as the view shows its squares: nine letters in reading order."""
    return list(text.replace("/", ""))


def play(state: MulticityState, *moves: str) -> None:
    """Apply moves in notation, each by the seat whose turn it is."""
    for move in moves:
        state.apply_text(state.to_act[0], move)


def digest(state: MulticityState) -> tuple:
    """Everything a state holds, for 'nothing changed' checks (views plus the hidden parts)."""
    return (state_digest(state), *fingerprint(state))


def fingerprint(state: MulticityState) -> tuple:
    """The state's own fields (cheaper than views; the log is compared by length)."""
    return (
        len(state.log),
        tuple(state.stack),
        state.unused,
        tuple(sorted(state.cells.items())),
        tuple(sorted(state.occ.items())),
        tuple(tuple(c.items()) for c in state.cands),
        tuple(state.unplaced),
        tuple(state.objects),
        state.current,
        state.phase,
        state.final_index,
        state.drawn,
    )


def brute_force_placements(state: MulticityState, seat: int) -> set[Place]:
    """Every allowed placement for ``seat``, found square by square from first principles."""
    found = set()
    for square, code in state.cells.items():
        if code != seat:
            continue
        x, y = coords(square)
        for length in state.unplaced[seat]:
            for vertical in (False, True):
                action = Place(length, x, y, vertical)
                if state.placement_problem(seat, action) is None:
                    found.add(action)
    return found


def check_invariants(state: MulticityState) -> None:
    """What must hold after every action of every game."""
    n = state.num_players
    deck = state.options["deck"]
    drawn = 0 if state.drawn is None else 1
    assert len(state.tiles) + len(state.stack) + drawn == deck, "tiles are neither lost nor invented"
    assert len(state.tiles) <= deck
    # The city is connected edge to edge and every tile lies on the 3x3 grid.
    slots = set(state.tiles)
    seen, todo = {(0, 0)}, [(0, 0)]
    while todo:
        sx, sy = todo.pop()
        for near in ((sx + 1, sy), (sx - 1, sy), (sx, sy + 1), (sx, sy - 1)):
            if near in slots and near not in seen:
                seen.add(near)
                todo.append(near)
    assert seen == slots, "every tile touches the city by an edge"
    assert len(state.cells) == 9 * len(state.tiles)
    # Objects: ends on own colour, straight, on tiles, over no hole (unless kids), sharing per the reading.
    cover: dict[int, list[tuple[int, bool, bool]]] = {}
    for seat, action in state.objects:
        squares = object_squares(action)
        assert all(s in state.cells for s in squares)
        assert state.cells[squares[0]] == seat and state.cells[squares[-1]] == seat
        if not state.kids:
            assert all(state.cells[s] != HOLE for s in squares), "no object over a hole"
        for i, s in enumerate(squares):
            cover.setdefault(s, []).append((seat, i in (0, len(squares) - 1), action.vertical))
    for square, users in cover.items():
        if not state.loose:
            assert len(users) == 1, f"two objects share square {coords(square)}"
        else:
            assert len(users) <= 2
            if len(users) == 2:
                (_, end_a, v_a), (_, end_b, v_b) = users
                assert v_a != v_b and end_a != end_b, "only an end beside a crossing middle may share"
        flags = 0
        for _, end, vertical in users:
            flags |= (END_V if vertical else END_H) if end else (MID_V if vertical else MID_H)
        assert state.occ[square] == flags
    assert set(cover) == set(state.occ)
    for seat in range(n):
        placed = sorted(a.length for s, a in state.objects if s == seat)
        assert sorted(placed + list(state.unplaced[seat])) == list(LENGTHS), "each length once per seat"
    if state.is_over:
        assert state.to_act == ()
        assert state.result() is not None
    else:
        assert len(state.to_act) == 1
        assert state.legal_actions(state.to_act[0]), "whoever acts has something to do"


__all__ = [
    "brute_force_placements",
    "check_invariants",
    "custom",
    "digest",
    "fingerprint",
    "key",
    "play",
    "squares",
]
