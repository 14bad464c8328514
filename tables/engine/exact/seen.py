"""What a player at the table has seen: the cards the coach takes out of the shoe.

A player has seen every card dealt since the shoe was shuffled, except the
dealer's hole card:

- **Earlier rounds of the shoe.** Every card of an earlier round was face up
  once its hole card was turned. They are the first ``n`` cards of the shoe's
  order, ``n`` the cards it dealt before this round: a seeded shoe's order is
  rebuilt from its seed (``CardShoe.order()``), a stacked shoe's is its list
  of cards (the ``cards`` of its JSON). Neither leaves the server: only the
  composition, what a card counter at the table knows, is used.
- **This round's face-up cards**: every seat's, every split hand's, the up card.
- **A mid-round reshuffle** (RULES.md, rocket-academy: the cards not on the
  table are reshuffled and dealing goes on) puts back every card off the
  table: the earlier rounds', and this round's busted, surrendered or paid
  hands'. From then on a player knows only that the cards on the table then
  (``CardShoe.kept_out``), the hole card apart, are out of the new shoe, and
  sees the cards dealt from it.

    seen_before_round(shoe_json, events) -> tuple[str, ...]   the earlier rounds' cards
    shoe_json(shoe) -> dict                                  what the first needs of a live shoe
    seen_now(round_, before) -> Counter                       every card seen as the round stands
    ReplayShoe.of(events, decks)                              a recorded round's cards, running out where it did
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from ..errors import ErrorCode, IllegalAction
from ..events import Event, EventKind
from ..round_state import RoundState
from ..shoe import CardShoe


@lru_cache(maxsize=16)
def _order(seed: bytes, decks: int) -> tuple[str, ...]:
    return tuple(CardShoe.from_seed(seed, decks).order())


def shoe_json(shoe: CardShoe) -> dict[str, Any]:
    """The parts of a shoe's JSON that ``seen_before_round`` reads (without storing its lazy state)."""
    data: dict[str, Any] = {
        "seed": shoe.seed.hex() if shoe.seed is not None else None,
        "decks": shoe.decks, "reshuffles": shoe.reshuffles, "dealt": shoe.dealt,
    }
    if shoe.is_stacked:
        data["cards"] = shoe.order()
    return data


def seen_before_round(shoe: dict[str, Any], events: Sequence[Event]) -> tuple[str, ...]:
    """The cards dealt from the shoe before this round (``shoe``: its JSON, ``events``: the round's so far).

    ``dealt`` counts every card since the shoe was built, across a mid-round
    reshuffle; a shoe that reshuffled is never used for another round, so the
    cards before this one are always the first of its first order. A stacked
    shoe never reshuffles: its ``cards`` are its order.
    """
    dealt_here = sum(1 for event in events if event.kind is EventKind.DEAL_CARD)
    start = shoe["dealt"] - dealt_here
    if start <= 0:
        return ()
    if shoe.get("seed") is None:
        return tuple(shoe.get("cards", ())[:start])
    return _order(bytes.fromhex(shoe["seed"]), shoe["decks"])[:start]


def seen_now(round_: RoundState, before: Iterable[str]) -> Counter[str]:
    """Every card the players have seen since the shoe was last shuffled, as ``round_`` stands.

    ``before``: the earlier rounds' cards (``seen_before_round``). The hole card
    is never among them; the hand deciding and the up card are.
    """
    events = round_.events
    last = next((i for i in range(len(events) - 1, -1, -1) if events[i].kind is EventKind.SHOE_RESHUFFLED), None)
    if last is None:
        seen = Counter(before)
        start = 0
    else:
        # Out of the new shoe: the cards on the table at the reshuffle, but the face-down hole card.
        seen = Counter(round_.shoe.kept_out)
        seen.subtract(event.card for event in events[:last] if event.kind is EventKind.DEAL_CARD and not event.face_up)
        start = last + 1
    seen.update(event.card for event in events[start:] if event.kind is EventKind.DEAL_CARD and event.face_up)
    return +seen


class ReplayShoe(CardShoe):
    """A recorded round's cards in the order it dealt them, running out where its shoe did.

    A stacked shoe of the dealt cards would deal straight through a mid-round
    reshuffle, and the rebuilt round would lack its ``shoe_reshuffled`` event.
    This one runs out at the same card, so the round reshuffles as it did and
    ``kept_out`` holds the cards that were on the table then.
    """

    __slots__ = ("_breaks", "_kept")

    @classmethod
    def of(cls, events: Iterable[Event], decks: int) -> ReplayShoe:
        cards: list[str] = []
        breaks: list[int] = []
        for event in events:
            if event.kind is EventKind.DEAL_CARD:
                cards.append(event.card)
            elif event.kind is EventKind.SHOE_RESHUFFLED:
                breaks.append(len(cards))
        shoe = cls(seed=None, decks=decks, cards=tuple(cards), stacked=True)
        shoe._breaks = breaks
        shoe._kept = ()
        return shoe

    def draw(self) -> str:
        if self._breaks and self.dealt == self._breaks[0]:
            raise IllegalAction(ErrorCode.SHOE_EXHAUSTED, "The recorded shoe ran out here.")
        return super().draw()

    def reshuffle_remaining(self, on_table: Iterable[str]) -> None:
        if not self._breaks or self.dealt != self._breaks[0]:
            raise IllegalAction(ErrorCode.SHOE_EXHAUSTED, "The recorded shoe did not run out here.")
        self._breaks.pop(0)
        self.reshuffles += 1
        self._kept = tuple(on_table)

    @property
    def kept_out(self) -> tuple[str, ...]:
        return self._kept
