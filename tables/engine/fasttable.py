"""The fast path's view of the rules: basic-strategy plays in a flat list and the
rule switches ``fastsim.py`` reads, each looked up once per simulation."""

from __future__ import annotations

from .rules import RuleSet, SplitAces, SplitBy, Surrender
from .strategy import basic_strategy

#: The initial bet of every seat (as ``simulate.BET``).
BET = 10

#: Rank index (A=0 .. K=12) -> point index (A=0 .. ten-values=9).
POINT = tuple(min(rank, 9) for rank in range(13))
_CARD = ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS")


class _Strategy:
    """Basic-strategy plays by (up card, total, soft, pair, may double, may surrender).

    A flat list indexed by those six, filled from ``basic_strategy`` on first use.
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.table: list[str | None] = [None] * (10 * 22 * 2 * 11 * 2 * 2)

    def play(self, up: int, total: int, soft: bool, pair: int, double: bool, surrender: bool) -> str:
        key = ((((up * 22 + total) * 2 + soft) * 11 + pair + 1) * 2 + double) * 2 + surrender
        return self.table[key] or self.ask(key)

    def ask(self, key: int) -> str:
        """The play at index ``key`` (as ``play`` computes it), filled from the chart on first use."""
        action = self.table[key]
        if action is None:
            rest, surrender = divmod(key, 2)
            rest, double = divmod(rest, 2)
            rest, pair = divmod(rest, 11)
            rest, soft = divmod(rest, 2)
            up, total = divmod(rest, 22)
            action = self.table[key] = self._ask(up, total, bool(soft), pair - 1, bool(double), bool(surrender))
        return action

    def _ask(self, up: int, total: int, soft: bool, pair: int, double: bool, surrender: bool) -> str:
        # Cards with this total and softness (the chart reads only those, or the pair).
        if pair >= 0:
            cards = [_CARD[pair], _CARD[pair]]
        elif soft:
            cards = ["AS", _CARD[total - 12]] if total > 12 else ["AS", "AS"]
        elif total <= 11:
            cards = ["2S", _CARD[total - 3]]
        else:
            cards = ["TS", _CARD[total - 11]] if total < 21 else ["TS", "9S", "2S"]
        legal = {"hit", "stand"}
        if pair >= 0:
            legal.add("split")
        if double:
            legal.add("double")
        if surrender:
            legal.add("surrender")
        return basic_strategy(self.rules, cards, _CARD[up], legal)


class SimTable:
    """What one simulation needs of the rules, looked up once."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        strategy = _Strategy(rules)
        self.play = strategy.play
        self.moves = strategy.table  # filled on first use by ``ask``
        self.ask = strategy.ask
        self.pays = BET * rules.blackjack_pays.numerator // rules.blackjack_pays.denominator
        self.peek = rules.dealer_peek
        self.obo = rules.original_bets_only
        self.hits_soft_17 = rules.dealer_hits_soft_17
        self.surrender = rules.surrender is Surrender.LATE
        self.das = rules.double_after_split
        self.by_rank = rules.split_by is SplitBy.RANK
        self.max_hands = rules.max_hands
        self.one_card_aces = rules.split_aces is SplitAces.ONE_CARD
        self.resplit_aces = rules.resplit_aces
