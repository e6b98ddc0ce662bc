"""Lords of Vegas rules: the mutable game state.

The board is four flat lists indexed by lot: ``marker`` (seat or -1), ``tile`` (colour or -1),
``dieo`` (die owner or -1) and ``diev`` (die value, 0 without a die). Casinos (groups of touching tiles
of one colour) are derived by flood fill and cached until a tile changes.

A turn is: draw (automatic), then the ACTION phase of the active player until ``end``. Decisions
that interrupt it are phases of their own, each with its own ``to_act``: answering a trade offer,
the boss's lay-off choice, picking a die to move when all 12 are out, freeing a lot when all 10
markers are out, and placing re-rolled dice after a reorganization. With the ``open_market`` option a
MARKET round follows each turn, in which the other players may offer trades or pass.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.game import Action, Result, State
from ...core.rng import SeededRNG
from . import notation
from .data import (
    CARD_PAYS,
    COLORS,
    COST,
    DICE_PER_PLAYER,
    DIE,
    GAME_END,
    IN_EXCLUDED_BLOCK,
    INSTANT_WIN,
    LOT_NAMES,
    MARKERS_PER_PLAYER,
    NEIGHBORS,
    NUM_COLORS,
    NUM_LOTS,
    ON_STRIP,
    PAY_NAMES,
    START_MONEY,
    STRIP,
    TILES_PER_COLOR,
    advance_score,
    gamble_multiplier,
)

# Phases
ACTION, OFFER, LAYOFF, PICK_DIE, FREE_LOT, PLACE, OVER, MARKET = range(8)
PHASE_NAMES = ("action", "offer", "layoff", "pick_die", "free_lot", "place", "over", "market")

# What to do once a pick-die / free-lot decision is made.
RESUME_DRAW, RESUME_ACTION = 0, 1

END = ("end",)
PASS = ("pass",)
ACCEPT = ("accept",)
REFUSE = ("refuse",)
LAYOFF_YES = ("layoff", True)
LAYOFF_NO = ("layoff", False)

# Kinds of actions the active player may promise not to take (traded "actions this turn").
BAN_KINDS = ("build", "sprawl", "remodel", "reorg", "gamble")
ITEM_KINDS = ("$", "lot", "die") + tuple("no-" + k for k in BAN_KINDS)

ALL_DIE_VALUES = (1, 2, 3, 4, 5, 6)


def lot_name(lot: int) -> str:
    return LOT_NAMES[lot].upper()


class LordsOfVegasState(State):
    __slots__ = (
        "num_players",
        "options",
        "seed",
        "rng",
        "log",
        "marker",
        "tile",
        "dieo",
        "diev",
        "money",
        "score",
        "dice_out",
        "markers_out",
        "tiles_left",
        "deck",
        "discard",
        "ge_index",
        "active",
        "phase",
        "turn",
        "gambled",
        "reorged",
        "bans",
        "offers_made",
        "pending",
        "resume",
        "offer",
        "accepted",
        "place_queue",
        "_cas",
        "_over_reason",
        "market",
        "offer_return",
    )

    def __init__(self) -> None:  # filled by LordsOfVegasGame.create_state or clone
        pass

    # ------------------------------------------------------------------ set-up
    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> None:
        self.num_players = num_players
        self.options = options
        self.seed = seed
        rng = self.rng = SeededRNG(seed)
        self.log = []
        self.marker = [-1] * NUM_LOTS
        self.tile = [-1] * NUM_LOTS
        self.dieo = [-1] * NUM_LOTS
        self.diev = [0] * NUM_LOTS
        self.money = [0] * num_players
        self.score = [0] * num_players
        self.dice_out = [0] * num_players
        self.markers_out = [0] * num_players
        self.tiles_left = [TILES_PER_COLOR] * NUM_COLORS
        self.discard = []
        self.gambled = False
        self.reorged = 0
        self.bans = ()
        self.offers_made = 0
        self.pending = None
        self.resume = None
        self.offer = None
        self.accepted = ()
        self.place_queue = []
        self._cas = None
        self._over_reason = ""
        self.market = ()
        self.offer_return = ACTION
        self.turn = 0
        two = num_players == 2
        deck = list(range(NUM_LOTS))
        rng.shuffle(deck)
        self.log.append("the 48 lot cards are shuffled; Game End is set aside")
        # Deal from the end of the list (the top of the deck).
        for seat in range(num_players):
            got = []
            while len(got) < 2:
                card = deck.pop()
                self.discard.append(card)
                if two and IN_EXCLUDED_BLOCK[card]:
                    self.log.append(
                        f"seat {seat} is dealt {lot_name(card)}: F is not used with 2 players, dealt again"
                    )
                    continue
                got.append(card)
            for card in got:
                self.marker[card] = seat
                self.markers_out[seat] += 1
            self.money[seat] = START_MONEY[got[0]] + START_MONEY[got[1]]
            names = " and ".join(lot_name(c) for c in got)
            self.log.append(f"seat {seat} is dealt {names}: markers placed, starts with ${self.money[seat]}")
        # Split into 4 near-equal stacks; Game End goes on top of the 4th (bottom) stack. Stacks are
        # made top-down with the larger ones first, so the split (and Game End's depth) is public.
        size = len(deck)
        stacks = [size // 4 + (1 if i < size % 4 else 0) for i in range(4)]
        above = stacks[0] + stacks[1] + stacks[2]
        # deck[-1] is the top: Game End sits below the top `above` cards.
        self.ge_index = size - above
        deck.insert(self.ge_index, GAME_END)
        self.deck = deck
        self.log.append(f"Game End is placed under the top {above} of {size} cards")
        self.active = self._roll_off()
        self.phase = ACTION
        self._start_turn()

    def _roll_off(self) -> int:
        contenders = list(range(self.num_players))
        while True:
            rolls = {seat: self.rng.die() + self.rng.die() for seat in contenders}
            self.log.append("roll-off: " + ", ".join(f"seat {s} rolls {r}" for s, r in rolls.items()))
            best = max(rolls.values())
            contenders = [s for s, r in rolls.items() if r == best]
            if len(contenders) == 1:
                self.log.append(f"seat {contenders[0]} goes first")
                return contenders[0]

    # ------------------------------------------------------------------ casinos
    def casinos(self) -> tuple[tuple[tuple[int, ...], ...], list[int]]:
        """(casinos as tuples of lots, lot -> casino index or -1); cached until a tile changes."""
        cas = self._cas
        if cas is None:
            cas = self._cas = self._flood()
        return cas

    def _flood(self) -> tuple[tuple[tuple[int, ...], ...], list[int]]:
        tile = self.tile
        cid = [-1] * NUM_LOTS
        groups = []
        for start in range(NUM_LOTS):
            colour = tile[start]
            if colour < 0 or cid[start] >= 0:
                continue
            index = len(groups)
            cid[start] = index
            members = [start]
            stack = [start]
            while stack:
                lot = stack.pop()
                for nb in NEIGHBORS[lot]:
                    if cid[nb] < 0 and tile[nb] == colour:
                        cid[nb] = index
                        members.append(nb)
                        stack.append(nb)
            members.sort()
            groups.append(tuple(members))
        return tuple(groups), cid

    def _merge(self, seed: tuple[int, ...]) -> None:
        """Update the cached casinos after ``seed`` lots got (or changed to) one colour: tiles are
        never removed, so casinos only ever merge. Same result and order as a fresh flood fill."""
        cas = self._cas
        if cas is None:
            return
        groups, cid = cas
        tile = self.tile
        colour = tile[seed[0]]
        drop = set()
        if cid[seed[0]] >= 0:
            drop.add(cid[seed[0]])
        inside = set(seed)
        for lot in seed:
            for nb in NEIGHBORS[lot]:
                if tile[nb] == colour and nb not in inside:
                    index = cid[nb]
                    drop.add(index)
                    inside.update(groups[index])
        merged = [g for i, g in enumerate(groups) if i not in drop]
        merged.append(tuple(sorted(inside)))
        merged.sort()
        cid = [-1] * NUM_LOTS
        for i, g in enumerate(merged):
            for lot in g:
                cid[lot] = i
        self._cas = (tuple(merged), cid)

    def casino_of(self, lot: int) -> tuple[int, ...]:
        groups, cid = self.casinos()
        return groups[cid[lot]]

    def boss(self, lots: tuple[int, ...]) -> int:
        """Owner of the highest die (-1 without dice, or while different players tie)."""
        best = 0
        owner = -1
        dieo, diev = self.dieo, self.diev
        for lot in lots:
            v = diev[lot]
            if v > best:
                best = v
                owner = dieo[lot]
            elif v == best and v and dieo[lot] != owner:
                owner = -1
        return owner

    def cards_before_game_end(self) -> int:
        """Public: how many cards lie above Game End (its depth is fixed by the set-up split)."""
        return (
            max(0, len(self.deck) - 1 - self.ge_index)
            if self.deck and self.deck[self.ge_index] == GAME_END
            else 0
        )

    def on_strip(self, lots: tuple[int, ...]) -> bool:
        return not _STRIP_LOTS.isdisjoint(lots)

    # ------------------------------------------------------------------ contract: who acts
    @property
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == ACTION:
            return (self.active,)
        if phase == OVER:
            return ()
        if phase == OFFER:
            return tuple(s for s in self.offer_answerers() if s not in self.accepted)
        if phase == PLACE:
            return (self.place_queue[0][0],)
        if phase == MARKET:
            return (self.market[0],)
        return (self.pending[0],)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        keys = [(self.score[s], self.money[s]) for s in range(self.num_players)]
        return Result.from_keys([float(x) for x in self.score], keys)

    def offer_answerers(self) -> tuple[int, ...]:
        proposer, items = self.offer
        return tuple(sorted({item[0] for item in items} - {proposer}))

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, player: int) -> list[Action]:
        if player not in self.to_act:
            return []
        phase = self.phase
        if phase == ACTION:
            return self._legal_main(player)
        if phase == OFFER:
            return [ACCEPT, REFUSE]
        if phase == LAYOFF:
            return [LAYOFF_YES, LAYOFF_NO]
        if phase == PICK_DIE:
            target = self.pending[1]
            return [("take", lot) for lot in range(NUM_LOTS) if self.dieo[lot] == player and lot != target]
        if phase == FREE_LOT:
            return [("free", lot) for lot in range(NUM_LOTS) if self.marker[lot] == player]
        if phase == PLACE:
            return [("put", lot) for lot in self.place_queue[0][1]]
        if phase == MARKET:
            out: list[Action] = [PASS]
            if self.offers_made < self.options["max_offers"]:
                out.extend(self._offers(player))
            return out
        return []

    def _legal_main(self, p: int) -> list[Action]:
        out: list[Action] = [END]
        money = self.money[p]
        tiles_left = self.tiles_left
        bans = self.bans
        marker = self.marker
        colour_mask = 0
        for c in range(NUM_COLORS):
            if tiles_left[c]:
                colour_mask |= 1 << c
        # Build (tables of ready-made action tuples: no allocation per call)
        if colour_mask and not (bans and self._banned("build", -1)):
            for lot, owner in enumerate(marker):
                if owner == p and COST[lot] <= money and not (bans and self._banned("build", lot)):
                    out.extend(_BUILD[lot][colour_mask])
        groups, cid = self.casinos()
        if groups:
            self._legal_casinos(p, money, groups, out)
        if self.offers_made < self.options["max_offers"]:
            out.extend(self._offers(p))
        return out

    def _legal_casinos(self, p: int, money: int, groups: tuple, out: list[Action]) -> None:
        tiles_left = self.tiles_left
        bans = self.bans
        marker, tile, dieo, diev = self.marker, self.tile, self.dieo, self.diev
        two = self.num_players == 2
        reorged = self.reorged
        can_gamble = not self.gambled and money > 0 and not (bans and self._banned("gamble", -1))
        sprawled: set[int] = set()
        for g in groups:
            size = len(g)
            first = g[0]
            if size == 1:  # most casinos: no loop needed
                pips = diev[first]
                boss = dieo[first]
                mine = boss == p
                clash = reorged >> first & 1
            else:
                # One pass over the casino: boss, pips, our die, and dice reorganized this turn.
                best = 0
                boss = -1
                pips = 0
                mine = False
                clash = False
                for lot in g:
                    v = diev[lot]
                    if v:
                        o = dieo[lot]
                        pips += v
                        if o == p:
                            mine = True
                        if reorged >> lot & 1:
                            clash = True
                        if v > best:
                            best = v
                            boss = o
                        elif v == best and o != boss:
                            boss = -1
            if boss == p:
                colour = tile[first]
                # Sprawl ($12 is the cheapest sprawl)
                if tiles_left[colour] and money >= 12 and not (bans and self._banned_casino("sprawl", g)):
                    for lot in g:
                        for nb in NEIGHBORS[lot]:
                            if (
                                tile[nb] < 0
                                and marker[nb] < 0
                                and 2 * COST[nb] <= money
                                and not (two and IN_EXCLUDED_BLOCK[nb])
                            ):
                                key = nb * 8 + colour
                                if key not in sprawled and not (bans and self._banned("sprawl", nb)):
                                    sprawled.add(key)
                                    out.append(_SPRAWL[nb][colour])
                # Remodel
                if 5 * size <= money and not (bans and self._banned_casino("remodel", g)):
                    mask = 0
                    for c in range(NUM_COLORS):
                        if c != colour and tiles_left[c] >= size:
                            mask |= 1 << c
                    if mask:
                        out.extend(_REMODEL[first][mask])
            elif boss >= 0 and can_gamble and not (bans and self._banned_casino("gamble", g)):
                top = 5 * size
                if money < top:
                    top = money
                out.extend(_gamble_menu(first, top))
            if mine and not clash and pips <= money and not (bans and self._banned_casino("reorg", g)):
                out.append(_REORG[first])

    def _offers(self, p: int) -> list[Action]:
        """A few sensible trades to pick by number: buy a neighbour's lot, or sell a lot next to them,
        at the lot's printed cost (at most one of each per other player). Any other offer can be typed."""
        out: list[Action] = []
        marker, dieo, money, markers_out = self.marker, self.dieo, self.money, self.markers_out
        hold = self.options["markers_full"] == "hold"
        done = 0  # bit 2q: bought from q, bit 2q+1: sold to q
        p_room = hold or markers_out[p] < MARKERS_PER_PLAYER
        for lot, owner in enumerate(marker):
            if owner < 0:
                continue
            cost = COST[lot]
            if owner == p:
                for nb in NEIGHBORS[lot]:
                    q = marker[nb]
                    if q < 0:
                        q = dieo[nb]
                    if (
                        q >= 0
                        and q != p
                        and not done >> (2 * q + 1) & 1
                        and money[q] >= cost
                        and (hold or markers_out[q] < MARKERS_PER_PLAYER)
                    ):
                        done |= 1 << (2 * q + 1)
                        out.append(("offer", _items((q, p, "$", cost), (p, q, "lot", lot))))
            elif p_room and money[p] >= cost and not done >> (2 * owner) & 1:
                for nb in NEIGHBORS[lot]:
                    if marker[nb] == p or dieo[nb] == p:
                        done |= 1 << (2 * owner)
                        out.append(("offer", _items((p, owner, "$", cost), (owner, p, "lot", lot))))
                        break
        return out

    def _banned(self, kind: str, lot: int) -> bool:
        return any(bk == kind and (bl == lot or bl == -1) for bk, bl in self.bans)

    def _banned_casino(self, kind: str, lots: tuple[int, ...]) -> bool:
        return any(bk == kind and (bl == -1 or bl in lots) for bk, bl in self.bans)

    # ------------------------------------------------------------------ apply
    def apply(self, player: int, action: Action) -> None:
        self._require_turn(player)
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            raise MalformedAction("notation.unknown", f"not a Lords of Vegas action: {action!r}")
        handler = _HANDLERS.get((self.phase, action[0]))
        if handler is None:
            if action[0] == "offer" and self.phase in (ACTION, OFFER, MARKET):
                handler = LordsOfVegasState._act_offer
            else:
                raise IllegalAction(
                    f"phase.{PHASE_NAMES[self.phase]}",
                    f"'{action[0]}' is not possible now ({_PHASE_HINT[self.phase]})",
                )
        handler(self, player, action)

    # --- main-phase actions
    def _check_active(self, kind: str, lot: int, casino: tuple[int, ...] | None = None) -> None:
        if self.bans and (
            self._banned(kind, lot) or (casino is not None and self._banned_casino(kind, casino))
        ):
            raise IllegalAction("trade.promised", f"you traded away the right to {kind} there this turn")

    def _act_end(self, p: int, action: Action) -> None:
        _arity(action, 1)
        self.log.append(f"seat {p} ends the turn")
        if self.options["open_market"]:
            # The others, in seat order after the active player, may each open trades or pass.
            n = self.num_players
            self.market = tuple((p + k) % n for k in range(1, n))
            self.offers_made = 0
            self.phase = MARKET
            self.log.append("the market is open: the other players may offer trades")
            return
        self._next_turn()

    def _act_pass(self, p: int, action: Action) -> None:
        _arity(action, 1)
        self.market = self.market[1:]
        if not self.market:
            self._next_turn()

    def _next_turn(self) -> None:
        self.active = (self.active + 1) % self.num_players
        self._start_turn()

    def _act_build(self, p: int, action: Action) -> None:
        lot, colour = _lot_colour(action)
        if self.num_players == 2 and IN_EXCLUDED_BLOCK[lot]:
            raise IllegalAction("build.block_f", "block F is not used in a 2-player game")
        if self.marker[lot] != p:
            raise IllegalAction(
                "build.not_your_lot",
                f"you can only build on a lot with your marker; {lot_name(lot)} is not yours",
            )
        if not self.tiles_left[colour]:
            raise IllegalAction("build.sold_out", f"no {COLORS[colour]} tiles are left")
        cost = COST[lot]
        if self.money[p] < cost:
            raise IllegalAction(
                "build.money", f"building on {lot_name(lot)} costs ${cost}; you have ${self.money[p]}"
            )
        self._check_active("build", lot)
        self.money[p] -= cost
        self.marker[lot] = -1
        self.markers_out[p] -= 1
        self.log.append(f"seat {p} builds a {COLORS[colour]} casino on {lot_name(lot)} for ${cost}")
        self._place_tile(p, lot, colour)

    def _act_sprawl(self, p: int, action: Action) -> None:
        lot, colour = _lot_colour(action)
        if self.tile[lot] >= 0:
            raise IllegalAction("sprawl.occupied", f"{lot_name(lot)} already holds a casino tile")
        if self.marker[lot] >= 0:
            raise IllegalAction(
                "sprawl.owned_lot",
                f"{lot_name(lot)} is owned by seat {self.marker[lot]}; sprawl only onto unowned lots",
            )
        if self.num_players == 2 and IN_EXCLUDED_BLOCK[lot]:
            raise IllegalAction("sprawl.block_f", "block F is not used in a 2-player game")
        groups, cid = self.casinos()
        sources = [groups[cid[nb]] for nb in NEIGHBORS[lot] if self.tile[nb] == colour]
        if not sources:
            raise IllegalAction("sprawl.not_adjacent", f"{lot_name(lot)} touches no {COLORS[colour]} casino")
        bossed = [g for g in sources if self.boss(g) == p]
        if not bossed:
            raise IllegalAction(
                "sprawl.not_boss",
                f"you are not the boss of a {COLORS[colour]} casino next to {lot_name(lot)}",
            )
        if not self.tiles_left[colour]:
            raise IllegalAction("sprawl.sold_out", f"no {COLORS[colour]} tiles are left")
        cost = 2 * COST[lot]
        if self.money[p] < cost:
            raise IllegalAction(
                "sprawl.money", f"sprawling onto {lot_name(lot)} costs ${cost}; you have ${self.money[p]}"
            )
        if self.bans and (
            self._banned("sprawl", lot) or all(self._banned_casino("sprawl", g) for g in bossed)
        ):
            raise IllegalAction("trade.promised", "you traded away the right to sprawl there this turn")
        self.money[p] -= cost
        self.log.append(f"seat {p} sprawls a {COLORS[colour]} casino onto {lot_name(lot)} for ${cost}")
        self._place_tile(p, lot, colour)

    def _place_tile(self, p: int, lot: int, colour: int) -> None:
        self.tile[lot] = colour
        self.tiles_left[colour] -= 1
        self._merge((lot,))
        if self.dice_out[p] < DICE_PER_PLAYER:
            self.dieo[lot] = p
            self.diev[lot] = DIE[lot]
            self.dice_out[p] += 1
            self._after_action((lot,))
        else:
            self.log.append(
                f"seat {p} has all {DICE_PER_PLAYER} dice out and must move one to {lot_name(lot)}"
            )
            self.pending = (p, lot, DIE[lot])
            self.resume = (RESUME_ACTION,)
            self.phase = PICK_DIE

    def _act_remodel(self, p: int, action: Action) -> None:
        lot, colour = _lot_colour(action)
        if self.tile[lot] < 0:
            raise IllegalAction("remodel.no_casino", f"there is no casino on {lot_name(lot)}")
        g = self.casino_of(lot)
        if self.boss(g) != p:
            raise IllegalAction("remodel.not_boss", "only the boss may remodel a casino")
        old = self.tile[lot]
        if colour == old:
            raise IllegalAction(
                "remodel.same_color",
                f"the casino is already {COLORS[colour]}; remodel must change the colour",
            )
        if self.tiles_left[colour] < len(g):
            raise IllegalAction(
                "remodel.sold_out",
                f"{len(g)} {COLORS[colour]} tiles are needed; {self.tiles_left[colour]} are left",
            )
        cost = 5 * len(g)
        if self.money[p] < cost:
            raise IllegalAction(
                "remodel.money", f"remodelling {len(g)} tiles costs ${cost}; you have ${self.money[p]}"
            )
        self._check_active("remodel", lot, g)
        self.money[p] -= cost
        for t in g:
            self.tile[t] = colour
        self.tiles_left[old] += len(g)
        self.tiles_left[colour] -= len(g)
        self._merge(g)
        self.log.append(
            f"seat {p} remodels the {COLORS[old]} casino at {lot_name(lot)} ({len(g)} tiles) to {COLORS[colour]} for ${cost}"
        )
        self._after_action((lot,))

    def _act_reorg(self, p: int, action: Action) -> None:
        lot = _lot_only(action)
        if self.tile[lot] < 0:
            raise IllegalAction("reorganize.no_casino", f"there is no casino on {lot_name(lot)}")
        g = self.casino_of(lot)
        dice = [t for t in g if self.diev[t]]
        if not any(self.dieo[t] == p for t in dice):
            raise IllegalAction("reorganize.no_die", "you need a die in a casino to reorganize it")
        if any(self.reorged >> t & 1 for t in dice):
            raise IllegalAction("reorganize.once", "dice of this casino were already reorganized this turn")
        cost = sum(self.diev[t] for t in dice)
        if self.money[p] < cost:
            raise IllegalAction(
                "reorganize.money", f"reorganizing costs ${cost} ($1 per pip); you have ${self.money[p]}"
            )
        self._check_active("reorg", lot, g)
        self.money[p] -= cost
        die = self.rng.die
        by_owner: dict[int, list[int]] = {}
        for t in dice:
            self.reorged |= 1 << t
            by_owner.setdefault(self.dieo[t], []).append(t)
        # Owners roll in turn order from the reorganizer (only matters for scripted dice in tests).
        n = self.num_players
        order = [(p + k) % n for k in range(n) if (p + k) % n in by_owner]
        rolls = {owner: sorted((die() for _ in by_owner[owner]), reverse=True) for owner in order}
        self.log.append(
            f"seat {p} reorganizes the {COLORS[self.tile[lot]]} casino at {lot_name(lot)} for ${cost}: "
            + "; ".join(f"seat {o} rolls {', '.join(map(str, rolls[o]))}" for o in sorted(rolls))
        )
        queue = []
        for owner in order:
            lots = by_owner[owner]
            values = rolls[owner]
            if len(lots) == 1 or values[0] == values[-1]:
                for t, v in zip(lots, values, strict=True):
                    self.diev[t] = v
            else:
                for t in lots:
                    self.diev[t] = 0  # to be placed by its owner
                queue.append((owner, tuple(lots), tuple(values)))
        if queue:
            self.place_queue = queue
            self.phase = PLACE
        else:
            self._after_action((lot,))

    def _act_put(self, p: int, action: Action) -> None:
        lot = _lot_only(action)
        owner, lots, values = self.place_queue[0]
        if lot not in lots:
            raise IllegalAction("place.not_waiting", f"{lot_name(lot)} holds none of your re-rolled dice")
        self.diev[lot] = values[0]
        self.log.append(f"seat {p} puts a {values[0]} on {lot_name(lot)}")
        lots = tuple(t for t in lots if t != lot)
        values = values[1:]
        if len(lots) == 1 or values[0] == values[-1]:
            for t, v in zip(lots, values, strict=True):
                self.diev[t] = v
            self.place_queue = self.place_queue[1:]
        else:
            self.place_queue = [(owner, lots, values)] + self.place_queue[1:]
        if not self.place_queue:
            self.phase = ACTION
            self._after_action((lot,))

    def _act_gamble(self, p: int, action: Action) -> None:
        if (
            len(action) != 3
            or not isinstance(action[1], int)
            or not isinstance(action[2], int)
            or isinstance(action[2], bool)
        ):
            raise MalformedAction("notation.gamble", "gamble takes a lot and a bet")
        lot, bet = action[1], action[2]
        _check_lot(lot)
        if self.gambled:
            raise IllegalAction("gamble.once", "you may gamble only once per turn")
        if self.tile[lot] < 0:
            raise IllegalAction("gamble.no_casino", f"there is no casino on {lot_name(lot)}")
        g = self.casino_of(lot)
        boss = self.boss(g)
        if boss < 0:
            raise IllegalAction("gamble.no_boss", "nobody runs that casino")
        if boss == p:
            raise IllegalAction("gamble.own_casino", "you gamble at another player's casino, not your own")
        if bet < 1 or bet > 5 * len(g):
            raise IllegalAction("gamble.limit", f"the bet must be $1 to ${5 * len(g)} ($5 per tile)")
        if bet > self.money[p]:
            raise IllegalAction("gamble.money", f"you cannot bet more than your ${self.money[p]}")
        self._check_active("gamble", lot, g)
        self.gambled = True
        self.log.append(
            f"seat {p} bets ${bet} at seat {boss}'s {COLORS[self.tile[lot]]} casino at {lot_name(lot)}"
        )
        self.pending = (boss, p, bet)
        self.phase = LAYOFF

    def _act_layoff(self, boss: int, action: Action) -> None:
        if len(action) != 2 or not isinstance(action[1], bool):
            raise MalformedAction("notation.layoff", "layoff is yes or no")
        _, gambler, bet = self.pending
        lay = action[1]
        a, b = self.rng.die(), self.rng.die()
        total = a + b
        mult = gamble_multiplier(total)
        stake = bet * abs(mult)
        boss_part = stake // 2 if lay else stake
        note = " (half laid off to the bank)" if lay else ""
        if mult > 0:
            paid = min(boss_part, self.money[boss])
            self.money[boss] -= paid
            self.money[gambler] += paid + (stake - boss_part)
            self.log.append(
                f"seat {gambler} rolls {a}+{b}={total} and wins ${stake}{note}: seat {boss} pays ${paid}"
                + (f", the bank ${stake - boss_part}" if stake != boss_part else "")
            )
        else:
            self.money[gambler] -= bet
            self.money[boss] += boss_part
            self.log.append(
                f"seat {gambler} rolls {a}+{b}={total} and loses ${bet}{note}: seat {boss} gets ${boss_part}"
            )
        self.pending = None
        self.phase = ACTION

    # --- decisions inside a take-over or a build
    def _act_take(self, p: int, action: Action) -> None:
        src = _lot_only(action)
        _, target, value = self.pending
        if self.dieo[src] != p or src == target:
            raise IllegalAction(
                "pick_die.not_yours", f"pick one of your own dice on another tile, not {lot_name(src)}"
            )
        self.dieo[src] = -1
        self.diev[src] = 0
        prev = self.dieo[target]
        if prev >= 0:
            self.dice_out[prev] -= 1
        self.dieo[target] = p
        self.diev[target] = value
        self.log.append(
            f"seat {p} moves their die from {lot_name(src)} to {lot_name(target)} (showing {value}); {lot_name(src)} is left without a die"
        )
        self.pending = None
        self._resume()

    def _act_free(self, p: int, action: Action) -> None:
        lot = _lot_only(action)
        if self.marker[lot] != p:
            raise IllegalAction("free_lot.not_yours", f"free one of your own lots, not {lot_name(lot)}")
        _, target, _ = self.pending
        self.marker[lot] = -1
        self.marker[target] = p
        self.log.append(f"seat {p} frees {lot_name(lot)} to put a marker on {lot_name(target)}")
        self.pending = None
        self._resume()

    def _resume(self) -> None:
        resume = self.resume
        self.resume = None
        if resume[0] == RESUME_DRAW:
            self._finish_draw(resume[1], None)
        else:
            self.phase = ACTION
            self._after_action()

    # --- trading
    def _act_offer(self, p: int, action: Action) -> None:
        items = self.check_offer(p, action)
        if self.offers_made >= self.options["max_offers"]:
            raise IllegalAction("trade.limit", f"at most {self.options['max_offers']} offers per turn")
        if self.phase == OFFER:
            self.log.append(f"seat {p} refuses the offer and counters")
        else:
            self.offer_return = self.phase  # where play resumes once the offer is settled
        self.offers_made += 1
        self.log.append(f"seat {p} offers: {notation.describe_items(items)}")
        self.offer = (p, items)
        self.accepted = ()
        self.phase = OFFER
        if not self.offer_answerers():
            self._execute_offer()

    def check_offer(self, p: int, action: Action) -> tuple:
        """Validate an offer fully (raises) and return its items."""
        if len(action) != 2 or not isinstance(action[1], tuple) or not action[1]:
            raise MalformedAction("trade.empty", "an offer lists at least one item")
        items = action[1]
        n = self.num_players
        seen = set()
        give_money = [0] * n
        net_lots = [0] * n
        net_dice = [0] * n
        parties = set()
        for item in items:
            if not isinstance(item, tuple) or len(item) != 4:
                raise MalformedAction("trade.item", f"not a trade item: {item!r}")
            giver, receiver, kind, value = item
            if kind in ("points", "pts"):
                raise IllegalAction("trade.points", "points cannot be traded")
            if kind == "tile":
                raise IllegalAction("trade.tiles", "casino tiles cannot be traded (trade the die on them)")
            if kind not in ITEM_KINDS or not all(isinstance(x, int) for x in (giver, receiver, value)):
                raise MalformedAction("trade.item", f"not a trade item: {item!r}")
            if not (0 <= giver < n and 0 <= receiver < n) or giver == receiver:
                raise IllegalAction("trade.seats", "each item goes from one seat to another seat")
            parties.add(giver)
            parties.add(receiver)
            key = (kind, value) if kind != "$" else ("$", giver, receiver)
            if key in seen:
                raise IllegalAction("trade.duplicate", "an item appears twice in the offer")
            seen.add(key)
            if kind == "$":
                if value <= 0:
                    raise IllegalAction("trade.money", "money items are positive amounts")
                give_money[giver] += value
            elif kind == "lot":
                _check_lot(value)
                if self.marker[value] != giver:
                    raise IllegalAction("trade.not_owner", f"seat {giver} has no marker on {lot_name(value)}")
                net_lots[giver] -= 1
                net_lots[receiver] += 1
            elif kind == "die":
                _check_lot(value)
                if self.dieo[value] != giver:
                    raise IllegalAction("trade.not_owner", f"seat {giver} has no die on {lot_name(value)}")
                net_dice[giver] -= 1
                net_dice[receiver] += 1
            else:
                if value != -1:
                    _check_lot(value)
                context = self.offer_return if self.phase == OFFER else self.phase
                if giver != self.active or context != ACTION:
                    raise IllegalAction(
                        "trade.not_active", "only the active player can trade their actions this turn"
                    )
        if p not in parties:
            raise IllegalAction("trade.not_party", "you can only offer trades you take part in")
        for s in range(n):
            if give_money[s] > self.money[s]:
                raise IllegalAction("trade.money", f"seat {s} has only ${self.money[s]}")
            if (
                net_lots[s] > 0
                and self.options["markers_full"] == "free"
                and self.markers_out[s] + net_lots[s] > MARKERS_PER_PLAYER
            ):
                raise IllegalAction("trade.markers_full", f"seat {s} has no free marker for another lot")
            if self.dice_out[s] + net_dice[s] > DICE_PER_PLAYER:
                raise IllegalAction("trade.dice_full", f"seat {s} has no free die")
        return items

    def _act_accept(self, p: int, action: Action) -> None:
        _arity(action, 1)
        self.accepted = self.accepted + (p,)
        self.log.append(f"seat {p} accepts")
        if all(s in self.accepted for s in self.offer_answerers()):
            self._execute_offer()

    def _act_refuse(self, p: int, action: Action) -> None:
        _arity(action, 1)
        self.log.append(f"seat {p} refuses the offer")
        self.offer = None
        self.accepted = ()
        self.phase = self.offer_return

    def _execute_offer(self) -> None:
        _, items = self.offer
        self.execute_items(items)
        self.log.append("the trade is done")
        self.offer = None
        self.accepted = ()
        self.phase = self.offer_return
        dice = tuple(item[3] for item in items if item[2] == "die")
        if dice:
            self._after_action(dice)

    def execute_items(self, items: tuple) -> None:
        """Carry out validated trade items (all at once)."""
        for giver, receiver, kind, value in items:
            if kind == "$":
                self.money[giver] -= value
                self.money[receiver] += value
            elif kind == "lot":
                self.marker[value] = receiver
                self.markers_out[giver] -= 1
                self.markers_out[receiver] += 1
            elif kind == "die":
                self.dieo[value] = receiver
                self.dice_out[giver] -= 1
                self.dice_out[receiver] += 1
            else:
                self.bans = self.bans + ((kind[3:], value),)

    # ------------------------------------------------------------------ ties
    def _after_action(self, touched: tuple[int, ...] | None = None) -> None:
        """Re-roll ties for boss, free, until every casino has a single highest die. ``touched``
        names lots whose casinos changed (None: check every casino)."""
        groups, cid = self.casinos()
        dieo, diev = self.dieo, self.diev
        if touched is not None:
            groups = {groups[cid[lot]] for lot in touched if cid[lot] >= 0}
        for g in groups:
            if len(g) == 1:
                continue
            while True:
                best = 0
                owners = 0
                top: list[int] = []
                for lot in g:
                    v = diev[lot]
                    if v > best:
                        best = v
                        top = [lot]
                        owners = 1 << dieo[lot]
                    elif v == best and v:
                        top.append(lot)
                        owners |= 1 << dieo[lot]
                if owners & (owners - 1) == 0:
                    break
                die = self.rng.die
                for lot in top:
                    diev[lot] = die()
                self.log.append(
                    f"tie for boss at {lot_name(g[0])}: dice showing {best} re-rolled to "
                    + ", ".join(f"{diev[t]} (seat {dieo[t]})" for t in top)
                )

    # ------------------------------------------------------------------ turn flow
    def _start_turn(self) -> None:
        self.turn += 1
        self.gambled = False
        self.reorged = 0
        self.bans = ()
        self.offers_made = 0
        self.phase = ACTION
        self._draw()

    def _draw(self) -> None:
        p = self.active
        while True:
            card = self.deck.pop()
            self.discard.append(card)
            if card == GAME_END:
                self.log.append(f"seat {p} draws Game End: the Strip and the lots pay one last time")
                self._payout(STRIP)
                self._end("game end")
                return
            if self.num_players == 2 and IN_EXCLUDED_BLOCK[card]:
                self.log.append(
                    f"seat {p} draws {lot_name(card)} ({PAY_NAMES[CARD_PAYS[card]]}): nothing is placed on F; draws again"
                )
                self._payout(CARD_PAYS[card])
                if self.phase == OVER:
                    return
                continue
            self.log.append(f"seat {p} draws {lot_name(card)} ({PAY_NAMES[CARD_PAYS[card]]})")
            if self._take_over(p, card):
                self._finish_draw(card, (card,))
            return

    def _take_over(self, p: int, lot: int) -> bool:
        """Take over the drawn lot; False when a decision (free a lot / pick a die) comes first."""
        if self.tile[lot] < 0:
            if self.marker[lot] >= 0:  # cannot happen with a lot's own card; kept as a guard
                return True
            if self.markers_out[p] >= MARKERS_PER_PLAYER and self.options["markers_full"] == "free":
                self.log.append(f"seat {p} has all {MARKERS_PER_PLAYER} markers out and must free a lot")
                self.pending = (p, lot, 0)
                self.resume = (RESUME_DRAW, lot)
                self.phase = FREE_LOT
                return False
            self.marker[lot] = p
            self.markers_out[p] += 1
            self.log.append(f"seat {p} puts a marker on {lot_name(lot)}")
            return True
        prev = self.dieo[lot]
        if prev == p:
            return True
        value = self.diev[lot] if prev >= 0 else DIE[lot]
        if self.dice_out[p] >= DICE_PER_PLAYER:
            self.log.append(
                f"seat {p} has all {DICE_PER_PLAYER} dice out and must move one to {lot_name(lot)}"
            )
            self.pending = (p, lot, value)
            self.resume = (RESUME_DRAW, lot)
            self.phase = PICK_DIE
            return False
        if prev >= 0:
            self.dice_out[prev] -= 1
            self.log.append(
                f"seat {p} takes over {lot_name(lot)}: seat {prev}'s die is replaced, still showing {value}"
            )
        else:
            self.log.append(f"seat {p} takes over {lot_name(lot)}: a die showing {value} on the empty tile")
        self.dieo[lot] = p
        self.diev[lot] = value
        self.dice_out[p] += 1
        return True

    def _finish_draw(self, card: int, touched: tuple[int, ...] | None) -> None:
        self._after_action(touched)
        self._payout(CARD_PAYS[card])
        if self.phase != OVER:
            self.phase = ACTION

    def _payout(self, pays: int) -> None:
        money = self.money
        lot_income = [0] * self.num_players
        for owner in self.marker:
            if owner >= 0:
                lot_income[owner] += 1
        for s, amount in enumerate(lot_income):
            money[s] += amount
        parts = [f"seat {s} ${a}" for s, a in enumerate(lot_income) if a]
        if parts:
            self.log.append("lots pay: " + ", ".join(parts))
        groups, _ = self.casinos()
        tile, dieo, diev = self.tile, self.dieo, self.diev
        points: list[list[int]] = [[] for _ in range(self.num_players)]
        for g in groups:
            if pays == STRIP:
                if not self.on_strip(g):
                    continue
            elif tile[g[0]] != pays:
                continue
            boss = self.boss(g)
            if boss < 0:
                continue
            got = [0] * self.num_players
            for lot in g:
                if diev[lot]:
                    got[dieo[lot]] += diev[lot]
            for s, amount in enumerate(got):
                money[s] += amount
            points[boss].append(len(g))
            self.log.append(
                f"the {COLORS[tile[g[0]]]} casino at {lot_name(g[0])} ({len(g)} tiles) pays "
                + ", ".join(f"seat {s} ${a}" for s, a in enumerate(got) if a)
                + f"; boss seat {boss} scores {len(g)}"
            )
        for s, sizes in enumerate(points):
            if not sizes:
                continue
            sizes.sort()  # smallest casino first; equal sizes give the same result in any order
            before = self.score[s]
            square = before
            for size in sizes:
                square = advance_score(square, size)
            self.score[s] = square
            self.log.append(f"seat {s} moves from {before} to {square} points")
            if square >= INSTANT_WIN:
                self._end(f"seat {s} reaches {INSTANT_WIN} points")

    def _end(self, reason: str) -> None:
        if self.phase == OVER:
            return
        self.phase = OVER
        self._over_reason = reason
        self.pending = None
        self.log.append(f"the game ends ({reason})")

    # ------------------------------------------------------------------ views, copies
    def view(self, player: int | None) -> dict[str, Any]:
        base = self._base_view(player)
        groups, cid = self.casinos()
        bosses = [self.boss(g) for g in groups]
        board = []
        for lot in range(NUM_LOTS):
            entry: dict[str, Any] = {"lot": LOT_NAMES[lot]}
            if self.tile[lot] >= 0:
                entry["tile"] = COLORS[self.tile[lot]]
                entry["casino"] = LOT_NAMES[groups[cid[lot]][0]]
                if self.dieo[lot] >= 0:
                    entry["die"] = self.diev[lot]
                    entry["owner"] = self.dieo[lot]
            elif self.marker[lot] >= 0:
                entry["marker"] = self.marker[lot]
            board.append(entry)
        casinos = [
            {
                "lots": [LOT_NAMES[t] for t in g],
                "color": COLORS[self.tile[g[0]]],
                "size": len(g),
                "boss": bosses[i] if bosses[i] >= 0 else None,
                "strip": self.on_strip(g),
            }
            for i, g in enumerate(groups)
        ]
        undrawn = [0] * (NUM_COLORS + 1)
        for card in self.deck:
            undrawn[CARD_PAYS[card]] += 1
        ge_drawn = GAME_END in self.discard
        state: dict[str, Any] = {
            "turn": self.turn,
            "active": self.active,
            "phase": PHASE_NAMES[self.phase],
            "board": board,
            "casinos": casinos,
            "players": [
                {
                    "seat": s,
                    "money": self.money[s],
                    "score": self.score[s],
                    "dice_left": DICE_PER_PLAYER - self.dice_out[s],
                    "markers_left": MARKERS_PER_PLAYER - self.markers_out[s],
                }
                for s in range(self.num_players)
            ],
            "tiles_left": {COLORS[c]: self.tiles_left[c] for c in range(NUM_COLORS)},
            "deck_size": len(self.deck),
            "cards_left": {PAY_NAMES[c]: undrawn[c] for c in range(NUM_COLORS + 1)},
            "undrawn_lots": sorted(LOT_NAMES[c] for c in self.deck if c != GAME_END),
            "cards_before_game_end": None if ge_drawn else self.cards_before_game_end(),
            "discards": [LOT_NAMES[c] if c != GAME_END else "game end" for c in self.discard],
            "gambled": self.gambled,
            "offers_made": self.offers_made,
            "promised": [f"no {k}" + (f" at {LOT_NAMES[lot]}" if lot >= 0 else "") for k, lot in self.bans],
        }
        if self.phase == OFFER:
            proposer, items = self.offer
            state["offer"] = {
                "by": proposer,
                "items": notation.format_items(items),
                "text": notation.describe_items(items),
                "waiting_for": list(self.to_act),
            }
        elif self.phase == LAYOFF:
            boss, gambler, bet = self.pending
            state["gamble"] = {"boss": boss, "gambler": gambler, "bet": bet}
        elif self.phase in (PICK_DIE, FREE_LOT):
            state["decision"] = {"seat": self.pending[0], "lot": LOT_NAMES[self.pending[1]]}
        elif self.phase == MARKET:
            state["market"] = list(self.market)
        elif self.phase == PLACE:
            state["placing"] = [
                {"seat": o, "lots": [LOT_NAMES[t] for t in lots], "values": list(vals)}
                for o, lots, vals in self.place_queue
            ]
        base["state"] = state
        return base

    def clone(self) -> LordsOfVegasState:
        return self.lookahead_copy(self.rng.clone(), self.log[:])

    def lookahead_copy(self, rng: SeededRNG, log: list[str]) -> LordsOfVegasState:
        """A clone with the given random source and log (bots searching ahead pass their own dice
        and an empty log, which also saves copying them)."""
        twin = LordsOfVegasState.__new__(LordsOfVegasState)
        twin.num_players = self.num_players
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = rng
        twin.log = log
        twin.marker = self.marker[:]
        twin.tile = self.tile[:]
        twin.dieo = self.dieo[:]
        twin.diev = self.diev[:]
        twin.money = self.money[:]
        twin.score = self.score[:]
        twin.dice_out = self.dice_out[:]
        twin.markers_out = self.markers_out[:]
        twin.tiles_left = self.tiles_left[:]
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.ge_index = self.ge_index
        twin.active = self.active
        twin.phase = self.phase
        twin.turn = self.turn
        twin.gambled = self.gambled
        twin.reorged = self.reorged
        twin.bans = self.bans
        twin.offers_made = self.offers_made
        twin.pending = self.pending
        twin.resume = self.resume
        twin.offer = self.offer
        twin.accepted = self.accepted
        twin.place_queue = self.place_queue[:]
        twin._cas = self._cas  # immutable once built; rebuilt (not mutated) on change
        twin._over_reason = self._over_reason
        twin.market = self.market
        twin.offer_return = self.offer_return
        return twin

    def determinize(self, player: int, seed: int) -> LordsOfVegasState:
        """Reshuffle the undrawn lot cards; Game End keeps its public depth in the deck."""
        twin = super().determinize(player, seed)  # a clone with a fresh RNG
        deck = twin.deck
        if GAME_END in deck:
            at = deck.index(GAME_END)
            rest = [c for c in deck if c != GAME_END]
            twin.rng.shuffle(rest)
            rest.insert(at, GAME_END)
            twin.deck = rest
        else:
            twin.rng.shuffle(deck)
        return twin

    # ------------------------------------------------------------------ notation
    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def parse_action(self, text: str, player: int) -> Action:
        return notation.parse_action(text, player)


# ---------------------------------------------------------------------- helpers
def _bet_menu(top: int) -> tuple[int, ...]:
    """Bets listed for picking by number: $1, every $5 step and the maximum (any bet can be typed)."""
    menu = _BET_MENUS.get(top)
    if menu is None:
        values = {1, top}
        values.update(range(5, top + 1, 5))
        menu = _BET_MENUS[top] = tuple(sorted(values))
    return menu


_BET_MENUS: dict[int, tuple[int, ...]] = {}
_STRIP_LOTS = frozenset(lot for lot in range(NUM_LOTS) if ON_STRIP[lot])
_GAMBLE_MENUS: dict[tuple[int, int], tuple[Action, ...]] = {}


def _gamble_menu(lot: int, top: int) -> tuple[Action, ...]:
    menu = _GAMBLE_MENUS.get((lot, top))
    if menu is None:
        menu = _GAMBLE_MENUS[(lot, top)] = tuple(("gamble", lot, bet) for bet in _bet_menu(top))
    return menu


def _by_mask(kind: str, lot: int) -> tuple[tuple[Action, ...], ...]:
    """Actions (kind, lot, colour) for every set of colours, indexed by the colour bitmask."""
    return tuple(
        tuple((kind, lot, c) for c in range(NUM_COLORS) if mask >> c & 1) for mask in range(1 << NUM_COLORS)
    )


_BUILD = tuple(_by_mask("build", lot) for lot in range(NUM_LOTS))
_REMODEL = tuple(_by_mask("remodel", lot) for lot in range(NUM_LOTS))
_SPRAWL = tuple(tuple(("sprawl", lot, c) for c in range(NUM_COLORS)) for lot in range(NUM_LOTS))
_REORG = tuple(("reorg", lot) for lot in range(NUM_LOTS))


def _items(*items: tuple) -> tuple:
    return tuple(sorted(items))


def _check_lot(lot: Any) -> None:
    if not isinstance(lot, int) or isinstance(lot, bool) or not 0 <= lot < NUM_LOTS:
        raise MalformedAction("notation.lot", f"no such lot: {lot!r}")


def _lot_only(action: tuple) -> int:
    if len(action) != 2:
        raise MalformedAction("notation.arity", f"'{action[0]}' takes one lot")
    _check_lot(action[1])
    return action[1]


def _lot_colour(action: tuple) -> tuple[int, int]:
    if len(action) != 3:
        raise MalformedAction("notation.arity", f"'{action[0]}' takes a lot and a colour")
    _check_lot(action[1])
    colour = action[2]
    if not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour < NUM_COLORS:
        raise MalformedAction("notation.color", f"no such casino colour: {colour!r}")
    return action[1], colour


def _arity(action: tuple, n: int) -> None:
    if len(action) != n:
        raise MalformedAction("notation.arity", f"'{action[0]}' takes no arguments")


_HANDLERS = {
    (ACTION, "end"): LordsOfVegasState._act_end,
    (ACTION, "build"): LordsOfVegasState._act_build,
    (ACTION, "sprawl"): LordsOfVegasState._act_sprawl,
    (ACTION, "remodel"): LordsOfVegasState._act_remodel,
    (ACTION, "reorg"): LordsOfVegasState._act_reorg,
    (ACTION, "gamble"): LordsOfVegasState._act_gamble,
    (OFFER, "accept"): LordsOfVegasState._act_accept,
    (OFFER, "refuse"): LordsOfVegasState._act_refuse,
    (LAYOFF, "layoff"): LordsOfVegasState._act_layoff,
    (PICK_DIE, "take"): LordsOfVegasState._act_take,
    (FREE_LOT, "free"): LordsOfVegasState._act_free,
    (PLACE, "put"): LordsOfVegasState._act_put,
    (MARKET, "pass"): LordsOfVegasState._act_pass,
}

_PHASE_HINT = (
    "it is your main phase: build, sprawl, remodel, reorg, gamble, offer or end",
    "an offer is waiting: accept, refuse, or counter with an offer",
    "the boss decides: layoff or nolayoff",
    "pick which of your dice to move: take <lot>",
    "free one of your lots first: free <lot>",
    "place your re-rolled dice: put <lot>",
    "the game is over",
    "the market is open after a turn: offer a trade or pass",
)
