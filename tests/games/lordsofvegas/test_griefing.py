"""Security audit 29: a seat of a Lords of Vegas table making every offer it may, each answered by
the other seats, must stay far from the web's move limit for a table (MAX_LIVE_MOVES), where a table
ends without a result: else a losing seat could deny the others their result."""

from __future__ import annotations

import pytest

from tabletown.core.registry import get_game
from tabletown.core.session import bot_agent
from tabletown.games.lordsofvegas.phases import ACTION, MARKET, OFFER
from tabletown.web.tables import MAX_LIVE_MOVES


def griefing_offer(state, griefer, refuser):
    """An offer every other seat must answer and that changes nothing: the bots would each gain $1
    and accept, the refusing person always refuses."""
    others = [seat for seat in range(state.num_players) if seat not in (griefer, refuser)]
    parts = [f"{refuser}>{griefer}:$1"] + [f"{b}>{griefer}:$1 {griefer}>{b}:$2" for b in others]
    for text in (f"offer {' '.join(parts)}", f"offer {refuser}>{griefer}:$1"):
        try:
            action = state.parse_action(text, griefer)
            state.clone().apply(griefer, action)
            return action
        except Exception:
            continue
    return None


@pytest.mark.parametrize("seed", [0, 1])
def test_one_seat_cannot_drag_a_lords_of_vegas_table_to_the_move_limit(seed):
    """At the most offers a table may allow, with open_market, a seat offering whenever it may (each
    offer answered by the other three seats, the person refusing last) made a four-player game of
    5,358-5,883 moves, past MAX_LIVE_MOVES: the table ended without a result."""
    game = get_game("lordsofvegas")
    most = next(option.maximum for option in game.options if option.name == "max_offers")
    state = game.new_game(4, {"max_offers": most, "open_market": True}, seed)
    agents = [bot_agent(game.bots()["greedy"](seed * 7 + seat), seed) for seat in range(4)]
    griefer, refuser, moves, offers = 0, 1, 0, 0
    while not state.is_over:
        acting = sorted(state.to_act, key=lambda seat: seat == refuser)  # the bots answer first
        seat, action = acting[0], None
        if seat == griefer and state.phase in (ACTION, MARKET) and state.offers_made < most:
            action = griefing_offer(state, griefer, refuser)
            offers += action is not None
        elif seat == refuser and state.phase == OFFER:
            action = state.parse_action("refuse", refuser)
        state.apply(seat, action if action is not None else agents[seat](state, seat))
        moves += 1
    assert offers > 100  # the griefing did happen
    assert moves < MAX_LIVE_MOVES // 2
