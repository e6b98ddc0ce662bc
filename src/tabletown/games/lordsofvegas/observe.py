"""Lords of Vegas as numbers for learning agents (tabletown.rl): ``state.observation(seat)``.

Everything in Lords of Vegas is public except the order of the deck (which cards are still in it,
and how many lie above Game End, are public). A seat sees, with seats written relative to itself
(own first, then the others in turn order):

* per lot: whose marker is on it, the tile's colour, whose die and its value, whether its card is
  still in the deck or discarded;
* per seat: money, score, dice and markers still in hand;
* tiles left per colour, deck size, cards above Game End, the phase, whose turn it is, the turn
  number, the turn's flags (gambled, offers made, promises), and the pending decision (an offer's
  proposer, a layoff's boss, gambler and bet, the seat and lot of a die / free-lot choice, the size
  of a market or placement queue).

``install()`` (run when the game's package imports this module) puts ``observation`` on the
game's State; ``Game.observation_size`` measures its length.
"""

from __future__ import annotations

from . import GAME
from .data import DICE_PER_PLAYER, GAME_END, MARKERS_PER_PLAYER, NUM_COLORS, NUM_LOTS
from .phases import FREE_LOT, LAYOFF, MARKET, OFFER, PHASE_NAMES, PICK_DIE, PLACE
from .state import LordsOfVegasState

LordsOfVegasGame = type(GAME)


def observation(self: LordsOfVegasState, player: int) -> list[float]:
    n = self.num_players

    def rel(seat: int) -> int:
        return (seat - player) % n

    width = 2 * n + NUM_COLORS + 3
    lots = [0.0] * (NUM_LOTS * width)
    in_deck = set(self.deck)
    discarded = set(self.discard)
    marker, tile, dieo, diev = self.marker, self.tile, self.dieo, self.diev
    for lot in range(NUM_LOTS):
        at = lot * width
        if marker[lot] >= 0:
            lots[at + rel(marker[lot])] = 1.0
        if tile[lot] >= 0:
            lots[at + n + tile[lot]] = 1.0
        if dieo[lot] >= 0:
            lots[at + n + NUM_COLORS + rel(dieo[lot])] = 1.0
        lots[at + 2 * n + NUM_COLORS] = diev[lot] / 6.0
        lots[at + 2 * n + NUM_COLORS + 1] = 1.0 if lot in in_deck else 0.0
        lots[at + 2 * n + NUM_COLORS + 2] = 1.0 if lot in discarded else 0.0
    obs = lots
    for k in range(n):
        p = (player + k) % n
        obs += [
            self.money[p] / 50.0,
            self.score[p] / 60.0,
            (DICE_PER_PLAYER - self.dice_out[p]) / DICE_PER_PLAYER,
            (MARKERS_PER_PLAYER - self.markers_out[p]) / MARKERS_PER_PLAYER,
        ]
    obs += [left / 9.0 for left in self.tiles_left]
    ended = GAME_END in discarded
    obs += [len(self.deck) / 50.0, 0.0 if ended else self.cards_before_game_end() / 50.0, float(ended)]
    phase = self.phase
    obs += [1.0 if phase == k else 0.0 for k in range(len(PHASE_NAMES))]
    obs += [1.0 if rel(self.active) == k else 0.0 for k in range(n)]
    obs += [min(self.turn, 200) / 100.0, float(self.gambled), self.offers_made / 3.0, len(self.bans) / 5.0]
    proposer = [0.0] * n
    boss, gambler = [0.0] * n, [0.0] * n
    bet = 0.0
    chooser, chosen_lot = [0.0] * n, [0.0] * NUM_LOTS
    queue = 0.0
    if phase == OFFER and self.offer is not None:
        proposer[rel(self.offer[0])] = 1.0
    elif phase == LAYOFF and self.pending is not None:
        b, g, wager = self.pending
        boss[rel(b)] = 1.0
        gambler[rel(g)] = 1.0
        bet = wager / 10.0
    elif phase in (PICK_DIE, FREE_LOT) and self.pending is not None:
        chooser[rel(self.pending[0])] = 1.0
        chosen_lot[self.pending[1]] = 1.0
    elif phase == MARKET:
        queue = len(self.market) / 10.0
    elif phase == PLACE:
        queue = len(self.place_queue) / 10.0
    obs += proposer + boss + gambler + [bet] + chooser + chosen_lot + [queue]
    return obs


def install() -> None:
    if "observation" not in LordsOfVegasState.__dict__:
        LordsOfVegasState.observation = observation


install()
