"""Hand values and the mutable hand the round deals into."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import VALUE


def hand_value(cards: Iterable[str]) -> tuple[int, bool]:
    """Best total of ``cards`` and whether it is soft (an ace counted as 11).

    RULES.md: an ace counts 11 when that does not bust the hand, else 1.
    """
    hard = 0
    has_ace = False
    for card in cards:
        value = VALUE[card]
        hard += value
        if value == 1:
            has_ace = True
    if has_ace and hard <= 11:
        return hard + 10, True
    return hard, False


def hand_total(cards: Iterable[str]) -> int:
    return hand_value(cards)[0]


def is_natural(cards: list[str] | tuple[str, ...]) -> bool:
    """Two cards making 21; only a natural on an unsplit hand is a blackjack."""
    return len(cards) == 2 and hand_value(cards)[0] == 21


class Hand:
    """One hand of cards with the stake on it (a player's hand or the dealer's).

    ``bet`` is the whole stake, doubles included; ``doubled`` the part added by
    a double (RULES.md: OBO returns it against a dealer blackjack).
    """

    __slots__ = (
        "cards", "hard", "aces", "bet", "doubled", "from_split", "one_card",
        "natural", "finished", "surrendered", "settled", "outcome",
    )

    def __init__(self, bet: int = 0, cards: Iterable[str] = ()) -> None:
        self.cards: list[str] = []
        self.hard = 0
        self.aces = 0
        self.bet = bet
        self.doubled = 0
        self.from_split = False
        # Split aces that take exactly one card (RULES.md "split aces").
        self.one_card = False
        self.natural = False
        self.finished = False
        self.surrendered = False
        self.settled = False
        self.outcome: str | None = None
        for card in cards:
            self.add(card)

    def copy(self) -> Hand:
        """A hand of its own in the same state."""
        other = Hand.__new__(Hand)
        for name in Hand.__slots__:
            setattr(other, name, getattr(self, name))
        other.cards = list(self.cards)
        return other

    def add(self, card: str) -> None:
        self.cards.append(card)
        value = VALUE[card]
        self.hard += value
        if value == 1:
            self.aces += 1

    @property
    def total(self) -> int:
        hard = self.hard
        return hard + 10 if self.aces and hard <= 11 else hard

    @property
    def soft(self) -> bool:
        return bool(self.aces) and self.hard <= 11

    @property
    def busted(self) -> bool:
        return self.hard > 21

    @property
    def live(self) -> bool:
        """Still against the dealer: not busted, surrendered or already paid."""
        return not self.settled and self.hard <= 21

    def __repr__(self) -> str:
        return f"Hand({' '.join(self.cards)}, total={self.total}, bet={self.bet})"
