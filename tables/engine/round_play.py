"""The players' decisions once the cards are out: hit, stand, double, split and
surrender (each a triad), and the stakes a double may take."""

from __future__ import annotations

from .cards import VALUE
from .errors import ErrorCode, IllegalAction
from .events import Event, EventKind, check_actor
from .hand import Hand
from .round_flow import RoundFlow
from .rules import SplitAces, SplitBy, Surrender
from .state import Phase, SeatState

_NOT_YET = {
    Phase.BETTING: "The cards have not been dealt yet.",
    Phase.DEALING: "The cards are being dealt.",
    Phase.INSURANCE: "Everyone must answer the insurance offer before play starts.",
    Phase.DEALER: "It is the dealer's turn.",
}


class RoundPlay(RoundFlow):
    """The decisions on a hand, in the ``players`` phase."""

    __slots__ = ()

    def _check_turn(self, seat: int, hand: int) -> tuple[SeatState, Hand]:
        phase = self.phase
        if phase is not Phase.PLAYERS:
            if phase is Phase.SETTLED:
                raise IllegalAction(ErrorCode.EXTRA_ACTION, "The round is over: no more actions.")
            raise IllegalAction(ErrorCode.OUT_OF_TURN, _NOT_YET[phase])
        turn_seat = self.order[self._turn_index]
        turn_hand = self._turn_hand
        if seat != turn_seat or hand != turn_hand:
            place = self.seats[turn_seat]
            which = f", hand {turn_hand + 1}" if len(place.hands) > 1 else ""
            raise IllegalAction(ErrorCode.OUT_OF_TURN, f"It is not your turn: seat {turn_seat}{which} is to play.")
        place = self.seats[seat]
        return place, place.hands[hand]

    # -- hit ------------------------------------------------------------------------

    def verify_hit(self, seat: int, hand: int = 0) -> None:
        # A hand to act is below 21 (21 finishes a hand at once), so it may always draw.
        self._check_turn(seat, hand)

    def can_hit(self, seat: int, hand: int = 0) -> bool:
        return self._can(self.verify_hit, seat, hand)

    def hit(self, seat: int, hand: int = 0, *, actor: str = "player") -> Event:
        check_actor(actor)
        _, played = self._check_turn(seat, hand)
        event = self._emit(EventKind.HIT, actor, seat, hand)
        self._deal_to(seat, hand, played)
        if played.finished:
            self._advance()
        return event

    # -- stand ----------------------------------------------------------------------

    def verify_stand(self, seat: int, hand: int = 0) -> None:
        self._check_turn(seat, hand)

    def can_stand(self, seat: int, hand: int = 0) -> bool:
        return self._can(self.verify_stand, seat, hand)

    def stand(self, seat: int, hand: int = 0, *, actor: str = "player") -> Event:
        check_actor(actor)
        _, played = self._check_turn(seat, hand)
        played.finished = True
        event = self._emit(EventKind.STAND, actor, seat, hand)
        self._advance()
        return event

    # -- double ---------------------------------------------------------------------

    def _check_doubling(self, seat: int, hand: int) -> tuple[SeatState, Hand]:
        """Raise unless the hand may be doubled at all, whatever the stake."""
        place, played = self._check_turn(seat, hand)
        rules = self.rules
        if len(played.cards) != 2:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "You can double only on the first two cards of a hand.")
        if played.from_split and not rules.double_after_split:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "You cannot double after a split at this table.")
        if not rules.double_on_21 and played.total == 21:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "You cannot double on 21.")
        return place, played

    def _double_stakes(self, place: SeatState, played: Hand) -> range | None:
        stake = played.bet
        if self.rules.double_for_less:
            # RULES.md internet: "double for less", from 1 chip up to the hand's bet.
            top = min(stake, place.stack)
            return range(1, top + 1) if top >= 1 else None
        return range(stake, stake + 1) if place.stack >= stake else None

    def double_range(self, seat: int, hand: int = 0) -> range | None:
        """The extra stakes ``hand`` may double for now; None when it may not double."""
        try:
            place, played = self._check_doubling(seat, hand)
        except IllegalAction:
            return None
        return self._double_stakes(place, played)

    def verify_double(self, seat: int, hand: int = 0, amount: int | None = None) -> int:
        """Raise unless the hand may double for ``amount``; return the extra stake.

        With no ``amount`` the stake is the most :meth:`double_range` allows.
        """
        place, played = self._check_doubling(seat, hand)
        allowed = self._double_stakes(place, played)
        stake = played.bet
        for_less = self.rules.double_for_less
        if allowed is None:
            if for_less:
                raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "You have no chips left to double with.")
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"You need {stake} chips to double and hold {place.stack}.")
        if amount is None:
            return allowed[-1]
        if type(amount) is int and amount in allowed:
            return amount
        if not for_less:
            raise IllegalAction(ErrorCode.BAD_AMOUNT, f"A double at this table is exactly your bet of {stake} chips.")
        if type(amount) is int and 1 <= amount <= stake:
            raise IllegalAction(ErrorCode.BAD_AMOUNT, f"You hold only {place.stack} chips.")
        raise IllegalAction(ErrorCode.BAD_AMOUNT, f"A double is from 1 to {stake} chips (your bet).")

    def can_double(self, seat: int, hand: int = 0, amount: int | None = None) -> bool:
        return self._can(self.verify_double, seat, hand, amount)

    def double(self, seat: int, hand: int = 0, amount: int | None = None, *, actor: str = "player") -> Event:
        check_actor(actor)
        stake = self.verify_double(seat, hand, amount)
        place = self.seats[seat]
        played = place.hands[hand]
        place.stack -= stake
        played.bet += stake
        played.doubled += stake
        event = self._emit(EventKind.DOUBLE, actor, seat, hand, chips=-stake)
        # RULES.md: a double takes exactly one more card, then the hand is finished.
        self._deal_to(seat, hand, played)
        played.finished = True
        self._advance()
        return event

    # -- split ----------------------------------------------------------------------

    def verify_split(self, seat: int, hand: int = 0) -> None:
        place, played = self._check_turn(seat, hand)
        rules = self.rules
        cards = played.cards
        if rules.split_by is SplitBy.RANK:
            pair = len(cards) == 2 and cards[0][0] == cards[1][0]
            kind = "rank"
        else:
            pair = len(cards) == 2 and VALUE[cards[0]] == VALUE[cards[1]]
            kind = "value"
        if not pair:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"You can split only two cards of the same {kind}.")
        if len(place.hands) >= rules.max_hands:
            if rules.max_hands == 2:
                raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "You cannot re-split at this table.")
            raise IllegalAction(
                ErrorCode.ILLEGAL_ACTION, f"You can split into at most {rules.max_hands} hands at this table."
            )
        if played.from_split and cards[0][0] == "A" and not rules.resplit_aces:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "Split aces cannot be split again.")
        if place.stack < played.bet:
            raise IllegalAction(
                ErrorCode.ILLEGAL_ACTION, f"You need {played.bet} chips to split and hold {place.stack}."
            )

    def can_split(self, seat: int, hand: int = 0) -> bool:
        return self._can(self.verify_split, seat, hand)

    def split(self, seat: int, hand: int = 0, *, actor: str = "player") -> Event:
        check_actor(actor)
        self.verify_split(seat, hand)
        place = self.seats[seat]
        played = place.hands[hand]
        first, second = played.cards
        stake = played.bet
        place.stack -= stake
        # RULES.md: hand i splits into hands i and i+1; later hands move up by one.
        played.cards = []
        played.hard = played.aces = 0
        played.add(first)
        played.from_split = True
        new = Hand(stake)
        new.add(second)
        new.from_split = True
        if first[0] == "A" and self.rules.split_aces is SplitAces.ONE_CARD:
            played.one_card = new.one_card = True
        place.hands.insert(hand + 1, new)
        event = self._emit(EventKind.SPLIT, actor, seat, hand, card=second, chips=-stake)
        # The first hand gets its second card at once; the next one when play reaches it.
        self._deal_to(seat, hand, played)
        if played.one_card:
            played.finished = True
        if played.finished:
            self._advance()
        return event

    # -- surrender ------------------------------------------------------------------

    def verify_surrender(self, seat: int, hand: int = 0) -> None:
        _, played = self._check_turn(seat, hand)
        if self.rules.surrender is Surrender.NONE:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "There is no surrender at this table.")
        if len(played.cards) != 2:
            raise IllegalAction(
                ErrorCode.ILLEGAL_ACTION, "You can surrender only a two-card hand before you act on it."
            )

    def can_surrender(self, seat: int, hand: int = 0) -> bool:
        return self._can(self.verify_surrender, seat, hand)

    def surrender(self, seat: int, hand: int = 0, *, actor: str = "player") -> Event:
        check_actor(actor)
        self.verify_surrender(seat, hand)
        place = self.seats[seat]
        played = place.hands[hand]
        played.surrendered = True
        played.finished = True
        event = self._emit(EventKind.SURRENDER, actor, seat, hand)
        # RULES.md rocket-academy: the hand ends and floor(bet / 2) is returned.
        self._settle_hand(place, hand, played, "surrender", played.bet // 2)
        self._advance()
        return event
