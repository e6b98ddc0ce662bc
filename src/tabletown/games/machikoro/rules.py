"""Machi Koro (with optional Harbor) rules on the Tabletown engine contract.

Actions are small ints (see the ``A_*`` constants and :mod:`.notation`). A turn is a short chain of
phases: roll -> (Radio Tower re-roll?) -> (Harbor +2?) -> income, with pauses for the TV Station target
and the Business Center swap -> build -> end of turn (Airport, Amusement Park).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction, MalformedAction
from ...core.game import Result, State
from ...core.rng import SeededRNG
from .data import LANDMARK_CODES, landmarks
from .tables import SWAP, TAKE_CHOSEN, TAKE_EACH, TAKE_HALF, TAKE_PER_ICON, Tables

# --- actions --------------------------------------------------------------------------------------
A_ROLL1, A_ROLL2, A_KEEP, A_REROLL1, A_REROLL2, A_ADD2, A_NOADD, A_PASS, A_NOSWAP = range(9)
A_TV = 16  # + target seat
A_BUILD = 32  # + establishment index
A_LANDMARK = 64  # + landmark index
A_SWAP = 1024  # + ((mine * 32 + theirs) * 8 + target seat)


def swap_action(mine: int, target: int, theirs: int) -> int:
    return A_SWAP + (mine * 32 + theirs) * 8 + target


def decode_swap(action: int) -> tuple[int, int, int]:
    """(my card, target seat, their card)."""
    code = action - A_SWAP
    target = code % 8
    mine, theirs = divmod(code // 8, 32)
    return mine, target, theirs


# --- phases ---------------------------------------------------------------------------------------
ROLL, REROLL, HARBOR, TV, BUSINESS, BUILD, OVER = range(7)
PHASE_NAMES = ("roll", "reroll", "harbor", "tv_station", "business_center", "build", "over")

STATION, MALL, PARK, RADIO, CITYHALL, HARBOR_LM, AIRPORT = (1 << i for i in range(7))
LANDMARK_NAMES = tuple(c.name for c in landmarks())

START_COINS = 3


class MachiKoroState(State):
    __slots__ = (
        "num_players",
        "options",
        "seed",
        "rng",
        "log",
        "t",
        "coins",
        "cards",
        "lm",
        "supply",
        "decks",
        "current",
        "phase",
        "dice",
        "total",
        "rerolled",
        "built",
        "purple_stage",
        "park_at_start",
        "winner",
        "turn",
        "bank_paid",
        "bank_received",
        "city_hall_mode",
        "radio_same_dice",
        "park_same_turn",
    )

    # ------------------------------------------------------------------ set-up
    @classmethod
    def start(cls, num_players: int, options: dict[str, Any], seed: int, tables: Tables) -> MachiKoroState:
        s = cls.__new__(cls)
        s.num_players = num_players
        s.options = options
        s.seed = seed
        s.rng = SeededRNG(seed)
        s.log = []
        s.t = tables
        s.coins = [START_COINS] * num_players
        n = len(tables.cards)
        s.cards = []
        for _ in range(num_players):
            city = [0] * n
            for i, card in enumerate(tables.cards):
                city[i] = card.starting
            s.cards.append(city)
        s.lm = [CITYHALL if tables.harbor else 0] * num_players
        s.supply = [0] * n
        s.decks = []
        s.current = 0
        s.phase = ROLL
        s.dice = (0, 0)
        s.total = 0
        s.rerolled = False
        s.built = False
        s.purple_stage = 0
        s.park_at_start = False
        s.winner = -1
        s.turn = 1
        s.bank_paid = 0
        s.bank_received = 0
        s.city_hall_mode = options["city_hall"]
        s.radio_same_dice = options["radio_tower_dice"] == "same"
        s.park_same_turn = options["park_same_turn"]
        s.log.append(f"Game starts: {num_players} players, {START_COINS} coins each; P0 begins.")
        s._set_up_market()
        s._start_turn()
        return s

    def _set_up_market(self) -> None:
        t = self.t
        if not t.regions:
            for i in range(len(t.cards)):
                if t.in_play[i]:
                    self.supply[i] = t.copies[i]
            return
        for members, _ in t.regions:
            deck = [i for i in members for _ in range(t.copies[i])]
            self.rng.shuffle(deck)
            self.decks.append(deck)
        self.log.append(
            "The supply is shuffled into the market deck" + ("s." if len(self.decks) > 1 else ".")
        )
        for region in range(len(self.decks)):
            self._refill(region)

    def _refill(self, region: int) -> None:
        members, wanted = self.t.regions[region]
        deck = self.decks[region]
        supply = self.supply
        showing = sum(1 for i in members if supply[i])
        revealed = []
        while showing < wanted and deck:
            card = deck.pop()
            if not supply[card]:
                showing += 1
            supply[card] += 1
            revealed.append(self.t.codes[card])
        if revealed:
            self.log.append(f"Market reveals: {', '.join(revealed)}.")

    # ------------------------------------------------------------------ contract: who acts, what they may do
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else (self.current,)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        mask = self.t.victory_mask
        scores = [bin(m & mask).count("1") for m in self.lm]
        return Result.single_winner(self.num_players, self.winner, scores)

    def heuristic(self) -> list[float]:
        """Each seat's estimated rounds still needed to build its last landmark (the greedy bot's race
        estimate), mapped to (0, 1]: 1 at zero rounds, one half at five."""
        from .heuristics import turns_to_win

        return [1.0 / (1.0 + turns_to_win(self, seat) / 5.0) for seat in range(self.num_players)]

    def legal_actions(self, player: int) -> list[int]:
        if player != self.current or self.phase == OVER:
            return []
        phase = self.phase
        if phase == BUILD:
            return self._build_actions()
        if phase == ROLL:
            return [A_ROLL1, A_ROLL2] if self.lm[player] & STATION else [A_ROLL1]
        if phase == REROLL:
            return self._reroll_actions()
        if phase == HARBOR:
            return [A_ADD2, A_NOADD]
        if phase == TV:
            return [A_TV + p for p in range(self.num_players) if p != player]
        return [A_NOSWAP, *self._swap_actions()]

    def _reroll_actions(self) -> list[int]:
        two_dice = self.dice[1] != 0
        if self.radio_same_dice or not self.lm[self.current] & STATION:
            return [A_KEEP, A_REROLL2 if two_dice else A_REROLL1]
        return [A_KEEP, A_REROLL1, A_REROLL2]

    def _build_actions(self) -> list[int]:
        t = self.t
        p = self.current
        coins = self.coins[p]
        city = self.cards[p]
        supply = self.supply
        cost = t.cost
        purple = t.purple
        actions = [A_PASS]
        for i, left in enumerate(supply):
            if left and cost[i] <= coins and not (purple[i] and city[i]):
                actions.append(A_BUILD + i)
        built = self.lm[p]
        for j in t.buildable_landmarks:
            if not built >> j & 1 and t.landmark_cost[j] <= coins:
                actions.append(A_LANDMARK + j)
        return actions

    def _swap_actions(self) -> list[int]:
        p = self.current
        swappable = self.t.swappable
        mine = [i for i in swappable if self.cards[p][i]]
        actions = []
        for target in range(self.num_players):
            if target == p:
                continue
            theirs = [i for i in swappable if self.cards[target][i]]
            for a in mine:
                for b in theirs:
                    if a != b:
                        actions.append(swap_action(a, target, b))
        return actions

    # ------------------------------------------------------------------ contract: apply
    def apply(self, player: int, action: Any) -> None:
        if player != self.current or self.phase == OVER:
            self._require_turn(player)
        if type(action) is not int:
            raise MalformedAction("action.type", f"Machi Koro actions are whole numbers, not {action!r}")
        phase = self.phase
        if phase == BUILD:
            self._apply_build(action)
        elif phase == ROLL:
            self._apply_roll(action)
        elif phase == REROLL:
            self._apply_reroll(action)
        elif phase == HARBOR:
            self._apply_harbor(action)
        elif phase == TV:
            self._apply_tv(action)
        else:
            self._apply_business(action)

    def _wrong_phase(self, action: int) -> IllegalAction:
        return IllegalAction(
            f"phase.{PHASE_NAMES[self.phase]}",
            f"{self.format_action(action)!r} cannot be played now: the turn is in its "
            f"{PHASE_NAMES[self.phase].replace('_', ' ')} step",
        )

    def _apply_roll(self, action: int) -> None:
        if action == A_ROLL2:
            if not self.lm[self.current] & STATION:
                raise IllegalAction(
                    "roll.needs_train_station", "rolling two dice needs a built Train Station"
                )
        elif action != A_ROLL1:
            raise self._wrong_phase(action)
        self._roll(2 if action == A_ROLL2 else 1)
        if self.lm[self.current] & RADIO:
            self.phase = REROLL
        else:
            self._settle_dice()

    def _apply_reroll(self, action: int) -> None:
        if action not in (A_KEEP, A_REROLL1, A_REROLL2):
            raise self._wrong_phase(action)
        if action == A_KEEP:
            self.log.append(f"P{self.current} keeps the roll.")
        else:
            if action not in self._reroll_actions():
                rule = "reroll.same_dice" if self.radio_same_dice else "reroll.needs_train_station"
                raise IllegalAction(rule, "that number of dice is not allowed for this re-roll")
            self.rerolled = True
            self.log.append(f"P{self.current} uses the Radio Tower to re-roll.")
            self._roll(2 if action == A_REROLL2 else 1)
        self._settle_dice()

    def _settle_dice(self) -> None:
        """The dice are final: offer the Harbor's +2 where it applies, else resolve income."""
        if self.lm[self.current] & HARBOR_LM and self.total >= 10:
            self.phase = HARBOR
        else:
            self._resolve_income()

    def _apply_harbor(self, action: int) -> None:
        if action == A_ADD2:
            self.total += 2
            self.log.append(f"P{self.current} uses the Harbor: the roll counts as {self.total}.")
        elif action != A_NOADD:
            raise self._wrong_phase(action)
        self._resolve_income()

    def _roll(self, count: int) -> None:
        die = self.rng.die
        first = die()
        second = die() if count == 2 else 0
        self.dice = (first, second)
        self.total = first + second
        if second:
            self.log.append(f"P{self.current} rolls {first}+{second} = {self.total}.")
        else:
            self.log.append(f"P{self.current} rolls {first}.")

    # ------------------------------------------------------------------ income
    def _resolve_income(self) -> None:
        roll = self.total
        self._pay_red(roll)
        self._pay_green_blue(roll)
        self.purple_stage = 0
        self._continue_purple()

    def _pay_red(self, roll: int) -> None:
        reds = self.t.red[roll]
        if not reds:
            return
        n = self.num_players
        roller = self.current
        coins = self.coins
        codes = self.t.codes
        for k in range(1, n):
            owner = (roller - k) % n
            city = self.cards[owner]
            lm = self.lm[owner]
            for idx, amount, mall_bonus, needs_harbor in reds:
                copies = city[idx]
                if not copies or (needs_harbor and not lm & HARBOR_LM):
                    continue
                due = copies * (amount + (1 if mall_bonus and lm & MALL else 0))
                paid = min(due, coins[roller])
                coins[roller] -= paid
                coins[owner] += paid
                if paid == due:
                    self.log.append(f"P{roller} pays P{owner} {paid} for {codes[idx]} x{copies}.")
                else:
                    self.log.append(
                        f"P{roller} owes P{owner} {due} for {codes[idx]} x{copies} but pays only {paid}."
                    )

    def _pay_green_blue(self, roll: int) -> None:
        t = self.t
        roller = self.current
        coins = self.coins
        codes = t.codes
        city = self.cards[roller]
        for idx, amount, icons, per_card, mall_mode in t.green[roll]:
            copies = city[idx]
            if not copies:
                continue
            if icons:
                each = amount * sum(city[i] for i in icons)
            elif per_card >= 0:
                each = (amount + (1 if mall_mode and self.lm[roller] & MALL else 0)) * city[per_card]
            else:
                each = amount + (1 if mall_mode and self.lm[roller] & MALL else 0)
            gain = copies * each
            if gain:
                coins[roller] += gain
                self.bank_paid += gain
                self.log.append(f"P{roller} takes {gain} from the bank for {codes[idx]} x{copies}.")
        blues = t.blue[roll]
        if not blues:
            return
        tuna_roll = 0
        for owner in range(self.num_players):
            owner_city = self.cards[owner]
            has_harbor = self.lm[owner] & HARBOR_LM
            for idx, amount, needs_harbor, is_tuna in blues:
                copies = owner_city[idx]
                if not copies or (needs_harbor and not has_harbor):
                    continue
                if is_tuna:
                    if not tuna_roll:
                        a, b = self.rng.die(), self.rng.die()
                        tuna_roll = a + b
                        self.log.append(f"P{roller} rolls {a}+{b} = {tuna_roll} for the Tuna Boats.")
                    amount = tuna_roll
                gain = copies * amount
                coins[owner] += gain
                self.bank_paid += gain
                self.log.append(f"P{owner} takes {gain} from the bank for {codes[idx]} x{copies}.")

    def _continue_purple(self) -> None:
        """Resolve the roller's purple cards in order, pausing where the roller must choose."""
        purples = self.t.purple_by_roll[self.total]
        roller = self.current
        city = self.cards[roller]
        while self.purple_stage < len(purples):
            idx, kind, amount, min_coins, icons = purples[self.purple_stage]
            self.purple_stage += 1
            if not city[idx]:
                continue
            if kind == TAKE_CHOSEN:
                if self.num_players > 2:
                    self.phase = TV
                    return
                self._take(1 - roller, amount, "tv")
            elif kind == SWAP:
                if self._swap_actions():
                    self.phase = BUSINESS
                    return
                self.log.append(f"P{roller}'s Business Center finds nothing to swap.")
            else:
                self._take_from_each(kind, amount, min_coins, icons, self.t.codes[idx])
        self._enter_build()

    def _take(self, victim: int, due: int, code: str) -> None:
        roller = self.current
        paid = min(due, self.coins[victim])
        self.coins[victim] -= paid
        self.coins[roller] += paid
        short = "" if paid == due else f" (of {due} due)"
        self.log.append(f"P{victim} pays P{roller} {paid}{short} for {code}.")

    def _take_from_each(
        self, kind: int, amount: int, min_coins: int, icons: tuple[int, ...], code: str
    ) -> None:
        n = self.num_players
        roller = self.current
        for k in range(1, n):
            victim = (roller + k) % n
            if kind == TAKE_EACH:
                self._take(victim, amount, code)
            elif kind == TAKE_HALF:
                if self.coins[victim] >= min_coins:
                    self._take(victim, self.coins[victim] // 2, code)
            elif kind == TAKE_PER_ICON:
                victim_city = self.cards[victim]
                due = amount * sum(victim_city[i] for i in icons)
                if due:
                    self._take(victim, due, code)

    def _apply_tv(self, action: int) -> None:
        target = action - A_TV
        if not A_TV <= action < A_BUILD:
            raise self._wrong_phase(action)
        if target >= self.num_players:
            raise IllegalAction("tv_station.no_such_seat", f"there is no seat {target} in this game")
        if target == self.current:
            raise IllegalAction("tv_station.self", "the TV Station must take coins from an opponent")
        self._take(target, 5, "tv")
        self._continue_purple()

    def _apply_business(self, action: int) -> None:
        if action == A_NOSWAP:
            self.log.append(f"P{self.current} makes no Business Center swap.")
            self._continue_purple()
            return
        if action < A_SWAP:
            raise self._wrong_phase(action)
        mine, target, theirs = decode_swap(action)
        self._check_swap(mine, target, theirs)
        self.cards[self.current][mine] -= 1
        self.cards[self.current][theirs] += 1
        self.cards[target][theirs] -= 1
        self.cards[target][mine] += 1
        codes = self.t.codes
        self.log.append(f"P{self.current} swaps their {codes[mine]} for P{target}'s {codes[theirs]}.")
        self._continue_purple()

    def _check_swap(self, mine: int, target: int, theirs: int) -> None:
        n_cards = len(self.t.cards)
        if not (0 <= target < self.num_players) or mine >= n_cards or theirs >= n_cards:
            raise IllegalAction("business_center.unknown", "that swap names no such card or seat")
        if target == self.current:
            raise IllegalAction("business_center.self", "the Business Center swaps with an opponent")
        swappable = self.t.swappable
        if mine not in swappable or theirs not in swappable:
            raise IllegalAction(
                "business_center.tower", "purple (tower) cards and landmarks cannot be swapped"
            )
        if not self.cards[self.current][mine]:
            raise IllegalAction("business_center.not_owned", "you do not own the card you offer")
        if not self.cards[target][theirs]:
            raise IllegalAction("business_center.not_owned", f"P{target} does not own that card")
        if mine == theirs:
            raise IllegalAction(
                "business_center.same_card", "swapping a card for the same card changes nothing"
            )

    # ------------------------------------------------------------------ build
    def _enter_build(self) -> None:
        self.phase = BUILD
        p = self.current
        if self.city_hall_mode == "broke" and self.lm[p] & CITYHALL and self.coins[p] == 0:
            self.coins[p] = 1
            self.bank_paid += 1
            self.log.append(f"P{p} has no coins: City Hall gives 1.")

    def _apply_build(self, action: int) -> None:
        if action == A_PASS:
            self.log.append(f"P{self.current} builds nothing.")
            self._end_turn()
            return
        if A_BUILD <= action < A_BUILD + len(self.t.cards):
            self._build_establishment(action - A_BUILD)
        elif A_LANDMARK <= action < A_LANDMARK + len(LANDMARK_CODES):
            if self._build_landmark(action - A_LANDMARK):
                return
        else:
            raise self._wrong_phase(action)
        self._end_turn()

    def _build_establishment(self, i: int) -> None:
        t = self.t
        p = self.current
        code = t.codes[i]
        if not t.in_play[i]:
            raise IllegalAction(
                "build.not_in_game", f"{code} is a Harbor card and Harbor is not in this game"
            )
        if not self.supply[i]:
            rule = "build.not_in_market" if t.regions and self.decks[t.region_of[i]] else "build.sold_out"
            raise IllegalAction(rule, f"no {code} is available to buy")
        if t.purple[i] and self.cards[p][i]:
            raise IllegalAction(
                "build.one_purple_each", f"a city may hold only one {code} (purple cards are unique)"
            )
        if self.coins[p] < t.cost[i]:
            raise IllegalAction("build.cannot_afford", f"{code} costs {t.cost[i]}, you have {self.coins[p]}")
        self._pay_bank(p, t.cost[i])
        self.supply[i] -= 1
        self.cards[p][i] += 1
        self.built = True
        self.log.append(f"P{p} builds {code} for {t.cost[i]}.")
        if t.regions and not self.supply[i]:
            self._refill(t.region_of[i])

    def _build_landmark(self, j: int) -> bool:
        """Build landmark ``j``; True when it wins the game."""
        t = self.t
        p = self.current
        name = LANDMARK_NAMES[j]
        # Built first: City Hall in a Harbor game is not buildable because it starts built.
        if self.lm[p] >> j & 1:
            raise IllegalAction("build.landmark_built", f"{name} is already built")
        if not t.victory_mask >> j & 1:
            raise IllegalAction("build.landmark_not_in_game", f"{name} cannot be built in this game")
        cost = t.landmark_cost[j]
        if self.coins[p] < cost:
            raise IllegalAction("build.cannot_afford", f"{name} costs {cost}, you have {self.coins[p]}")
        self._pay_bank(p, cost)
        self.lm[p] |= 1 << j
        self.built = True
        self.log.append(f"P{p} builds the {name} for {cost}.")
        if self.lm[p] & t.victory_mask == t.victory_mask:
            self.phase = OVER
            self.winner = p
            self.log.append(f"P{p} has built every landmark and wins after {self.turn} turns.")
            return True
        return False

    def _pay_bank(self, p: int, amount: int) -> None:
        self.coins[p] -= amount
        self.bank_received += amount

    # ------------------------------------------------------------------ turn boundaries
    def _end_turn(self) -> None:
        p = self.current
        if not self.built and self.lm[p] & AIRPORT:
            self.coins[p] += 10
            self.bank_paid += 10
            self.log.append(f"P{p} built nothing: the Airport pays 10.")
        first, second = self.dice
        park = self.lm[p] & PARK if self.park_same_turn else self.park_at_start
        if park and second and first == second:
            self.log.append(f"P{p} rolled doubles: the Amusement Park gives another turn.")
        else:
            self.current = (p + 1) % self.num_players
        self.turn += 1
        self._start_turn()

    def _start_turn(self) -> None:
        p = self.current
        self.phase = ROLL
        self.rerolled = False
        self.built = False
        self.dice = (0, 0)
        self.total = 0
        self.park_at_start = bool(self.lm[p] & PARK)
        if self.city_hall_mode == "every_turn" and self.lm[p] & CITYHALL:
            self.coins[p] += 1
            self.bank_paid += 1
            self.log.append(f"P{p} takes 1 from the City Hall.")

    # ------------------------------------------------------------------ cloning and hidden information
    def clone(self) -> MachiKoroState:
        s = MachiKoroState.__new__(MachiKoroState)
        s.num_players = self.num_players
        s.options = self.options
        s.seed = self.seed
        s.rng = self.rng.clone()
        s.log = self.log.copy()
        s.t = self.t
        s.coins = self.coins.copy()
        s.cards = [city.copy() for city in self.cards]
        s.lm = self.lm.copy()
        s.supply = self.supply.copy()
        s.decks = [deck.copy() for deck in self.decks]
        s.current = self.current
        s.phase = self.phase
        s.dice = self.dice
        s.total = self.total
        s.rerolled = self.rerolled
        s.built = self.built
        s.purple_stage = self.purple_stage
        s.park_at_start = self.park_at_start
        s.winner = self.winner
        s.turn = self.turn
        s.bank_paid = self.bank_paid
        s.bank_received = self.bank_received
        s.city_hall_mode = self.city_hall_mode
        s.radio_same_dice = self.radio_same_dice
        s.park_same_turn = self.park_same_turn
        return s

    def determinize(self, player: int, seed: int) -> MachiKoroState:
        """Everyone sees the same things in Machi Koro; only the market deck order is unknown."""
        twin = super().determinize(player, seed)  # a clone with a fresh RNG
        for deck in twin.decks:
            twin.rng.shuffle(deck)
        return twin

    # ------------------------------------------------------------------ views
    def view(self, player: int | None) -> dict[str, Any]:
        from .notation import describe_pending

        data = self._base_view(player)
        t = self.t
        codes = t.codes
        data["state"] = {
            "turn": self.turn,
            "current": self.current,
            "phase": PHASE_NAMES[self.phase],
            "dice": [d for d in self.dice if d],
            "roll": self.total,
            "rerolled": self.rerolled,
            "harbor": t.harbor,
            "players": [
                {
                    "coins": self.coins[p],
                    "establishments": {codes[i]: n for i, n in enumerate(self.cards[p]) if n},
                    "landmarks": {
                        LANDMARK_CODES[j]: bool(self.lm[p] >> j & 1)
                        for j in range(len(LANDMARK_CODES))
                        if t.victory_mask >> j & 1 or (LANDMARK_CODES[j] == "cityhall" and t.harbor)
                    },
                }
                for p in range(self.num_players)
            ],
            "market": {codes[i]: n for i, n in enumerate(self.supply) if n},
            "market_deck_sizes": [len(d) for d in self.decks],
            "pending": describe_pending(self),
        }
        return data

    # ------------------------------------------------------------------ notation
    def format_action(self, action: Any) -> str:
        from .notation import format_action

        return format_action(self.t, action)

    def parse_action(self, text: str, player: int) -> int:
        from .notation import parse_action

        return parse_action(self.t, text)
