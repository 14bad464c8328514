"""What the round does by itself: the deal, insurance offers, the peek, moving the
turn on, the dealer's play and settlement (RULES.md, to the chip)."""

from __future__ import annotations

from .cards import VALUE
from .errors import IllegalAction
from .events import EventKind
from .hand import Hand
from .rules import InsuranceRule
from .round_state import RoundState
from .state import InsuranceStatus, Phase, SeatState, SeatStatus


class RoundFlow(RoundState):
    """Everything nobody decides; the players' decisions (``round_betting``,
    ``round_play``) call into it."""

    __slots__ = ()

    # -- cards ----------------------------------------------------------------------

    def _draw(self) -> str:
        try:
            return self.shoe.draw()
        except IllegalAction:  # the shoe ran out; a stacked shoe raises again below
            self._reshuffle_mid_round()
            return self.shoe.draw()

    def _reshuffle_mid_round(self) -> None:
        # RULES.md rocket-academy: "the cards not on the table are reshuffled". On the
        # table: the dealer's cards and every hand still in play; busted, surrendered
        # and paid hands have been collected. A stacked shoe raises shoe_exhausted.
        on_table = list(self.dealer.cards)
        for number in self.order:
            for hand in self.seats[number].hands:
                if hand.live:
                    on_table.extend(hand.cards)
        self.shoe.reshuffle_remaining(on_table)
        self._emit(EventKind.SHOE_RESHUFFLED)

    def _deal_to(self, seat: int, index: int, hand: Hand) -> None:
        card = self._draw()
        hand.add(card)
        self._emit(EventKind.DEAL_CARD, "house", seat, index, card)
        # RULES.md: a hand that reaches 21 (or busts) is finished at once.
        if hand.hard > 21 or hand.total == 21:
            hand.finished = True

    def _deal_dealer(self, face_up: bool = True) -> None:
        card = self._draw()
        self.dealer.add(card)
        self._emit(EventKind.DEAL_CARD, "house", None, None, card, face_up)

    # -- the deal -------------------------------------------------------------------

    def _deal(self) -> None:
        self.phase = Phase.DEALING
        seats = self.seats
        order = self.order = [n for n, place in seats.items() if place.status is SeatStatus.BETTING]
        if not order:
            self._finish()
            return
        hands = []
        for number in order:
            hand = Hand(seats[number].bet)
            seats[number].hands = [hand]
            hands.append(hand)
        # RULES.md deal order: seats, dealer up-card, seats again, hole card face down.
        for number, hand in zip(order, hands):
            self._deal_to(number, 0, hand)
        self._deal_dealer()
        for number, hand in zip(order, hands):
            self._deal_to(number, 0, hand)
            if hand.finished:
                hand.natural = True
        self._deal_dealer(face_up=False)
        self._offer_insurance()

    def _insurance_stakes(self, place: SeatState) -> range | None:
        """The insurance stakes the rules allow ``place`` (``insurance_range`` asks this too)."""
        rule = self.rules.insurance
        if rule is InsuranceRule.NONE:
            return None
        half = place.bet // 2
        if rule is InsuranceRule.HALF_BET:
            # RULES.md atlantic-city: exactly floor(bet / 2); not offered when that is 0.
            return range(half, half + 1) if 1 <= half <= place.stack else None
        # RULES.md internet: any stake from 1 to floor(bet / 2), as far as the stack goes.
        top = min(half, place.stack)
        return range(1, top + 1) if top >= 1 else None

    def _offer_insurance(self) -> None:
        if self.rules.insurance is not InsuranceRule.NONE and VALUE[self.dealer.cards[0]] == 1:
            offered = False
            for number in self.order:
                place = self.seats[number]
                # Not offered when floor(bet / 2) = 0, nor to a seat that cannot pay for it.
                if self._insurance_stakes(place) is not None:
                    place.insurance_status = InsuranceStatus.PENDING
                    offered = True
            if offered:
                self.phase = Phase.INSURANCE
                return
        self._after_insurance()

    def _after_insurance(self) -> None:
        dealer = self.dealer
        up_value = VALUE[dealer.cards[0]]
        if up_value == 1 or up_value == 10:
            if self.rules.dealer_peek:
                # RULES.md: the peek comes after insurance; a dealer blackjack ends the round.
                blackjack = dealer.total == 21
                self.dealer_blackjack = blackjack
                self._emit(EventKind.PEEK, outcome="blackjack" if blackjack else "no_blackjack")
                self._settle_insurance(blackjack)
                if blackjack:
                    self._reveal_hole_card()
                    self._settle_round()
                    return
            # No peek (internet): the hole card decides at the end; naturals wait.
        else:
            self.dealer_blackjack = False
        if self.dealer_blackjack is False:
            # The dealer cannot hold blackjack: naturals are paid 3:2 at once.
            for number in self.order:
                place = self.seats[number]
                hand = place.hands[0]
                if hand.natural:
                    self._settle_hand(place, 0, hand, "blackjack", self._blackjack_payout(hand.bet))
        self.phase = Phase.PLAYERS
        self._turn_index = 0
        self._turn_hand = 0
        self._advance()

    def _blackjack_payout(self, bet: int) -> int:
        pays = self.rules.blackjack_pays
        # RULES.md: stake + floor(3 x bet / 2); the fraction stays with the house.
        return bet + bet * pays.numerator // pays.denominator

    def _settle_insurance(self, dealer_blackjack: bool) -> None:
        for number in self.order:
            place = self.seats[number]
            if place.insurance_status is InsuranceStatus.TAKEN:
                chips = 3 * place.insurance if dealer_blackjack else 0
                place.stack += chips
                self._emit(
                    EventKind.INSURANCE_SETTLED, "house", number, chips=chips,
                    outcome="win" if dealer_blackjack else "lose",
                )

    # -- the turn -------------------------------------------------------------------

    def _advance(self) -> None:
        """Move the turn to the next hand that needs a decision, or to the dealer."""
        order = self.order
        seats = self.seats
        index = self._turn_index
        position = self._turn_hand
        while index < len(order):
            number = order[index]
            hands = seats[number].hands
            while position < len(hands):
                hand = hands[position]
                if not hand.finished:
                    if len(hand.cards) == 1:
                        # The next split hand gets its second card now that play reaches it.
                        self._deal_to(number, position, hand)
                        if hand.one_card:
                            hand.finished = True
                    if not hand.finished:
                        self._turn_index = index
                        self._turn_hand = position
                        return
                position += 1
            index += 1
            position = 0
        self._turn_index = index
        self._turn_hand = 0
        self._play_dealer()

    # -- the dealer and settlement --------------------------------------------------

    def _reveal_hole_card(self) -> None:
        self.hole_revealed = True
        self._emit(EventKind.HOLE_CARD_REVEALED, card=self.dealer.cards[1])

    def _play_dealer(self) -> None:
        self.phase = Phase.DEALER
        dealer = self.dealer
        self._reveal_hole_card()
        if self.dealer_blackjack is None:
            # No peek: the dealer's blackjack shows only now; insurance is settled now.
            self.dealer_blackjack = dealer.total == 21
            self._settle_insurance(self.dealer_blackjack)
        if not self.dealer_blackjack and self._any_live_hand():
            # RULES.md: the dealer stands on all 17s (unless the rules say hit soft 17).
            hits_soft_17 = self.rules.dealer_hits_soft_17
            while dealer.total < 17 or (hits_soft_17 and dealer.total == 17 and dealer.soft):
                self._deal_dealer()
        self._settle_round()

    def _any_live_hand(self) -> bool:
        for number in self.order:
            for hand in self.seats[number].hands:
                if hand.live:
                    return True
        return False

    def _settle_round(self) -> None:
        dealer_blackjack = self.dealer_blackjack
        dealer_total = self.dealer.total
        obo = self.rules.original_bets_only
        for number in self.order:
            place = self.seats[number]
            for index, hand in enumerate(place.hands):
                if hand.settled:
                    continue
                if dealer_blackjack:
                    if hand.natural:
                        outcome, chips = "push", hand.bet
                    else:
                        # RULES.md OBO: only the original bet is lost; every double and
                        # split stake comes back, busted hands included.
                        outcome = "bust" if hand.hard > 21 else "lose"
                        chips = hand.bet - (place.bet if index == 0 else 0) if obo else 0
                elif hand.natural:
                    outcome, chips = "blackjack", self._blackjack_payout(hand.bet)
                elif hand.hard > 21:
                    outcome, chips = "bust", 0
                else:
                    total = hand.total
                    if dealer_total > 21 or total > dealer_total:
                        outcome, chips = "win", 2 * hand.bet
                    elif total == dealer_total:
                        outcome, chips = "push", hand.bet
                    else:
                        outcome, chips = "lose", 0
                self._settle_hand(place, index, hand, outcome, chips)
        self._finish()

    def _settle_hand(self, place: SeatState, index: int, hand: Hand, outcome: str, chips: int) -> None:
        hand.settled = True
        hand.outcome = outcome
        place.stack += chips
        self._emit(EventKind.SETTLE, "house", place.number, index, chips=chips, outcome=outcome)

    def _finish(self) -> None:
        self.phase = Phase.SETTLED
        self._emit(EventKind.ROUND_SETTLED)
