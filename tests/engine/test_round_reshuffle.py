from __future__ import annotations

from collections import Counter

from tables.engine import PROFILES, Phase, GameRound, CardShoe
from tables.engine.shoe import derive_seed


def test_a_single_deck_that_runs_out_mid_round_reshuffles_the_cards_off_the_table():
    rules = PROFILES["rocket-academy"]
    shoe = CardShoe.from_seed(derive_seed(b"\1" * 32, b"run-out"), 1)
    for _ in range(50):  # two cards left: the deal itself runs out
        shoe.draw()
    round_ = GameRound.new(rules=rules, shoe=shoe, seats={1: 100})
    round_.bet(1, 10)
    while round_.phase is not Phase.SETTLED:
        seat, hand = round_.to_act()
        round_.hit(seat, hand)
    assert [e.kind for e in round_.events].count("shoe_reshuffled") == 1
    on_table = Counter(round_.dealer.cards) + Counter(round_.seats[1].hands[0].cards)
    assert max(on_table.values()) == 1  # no card twice: only cards off the table came back
    assert shoe.reshuffles == 1 and shoe.needs_reshuffle(rules)
    copy = GameRound.from_json(round_.to_json())
    assert copy.to_json() == round_.to_json()


def test_the_mid_round_reshuffle_is_deterministic():
    def play() -> list[str]:
        shoe = CardShoe.from_seed(derive_seed(b"\2" * 32, b"run-out"), 1)
        for _ in range(51):
            shoe.draw()
        round_ = GameRound.new(rules=PROFILES["rocket-academy"], shoe=shoe, seats={1: 100})
        round_.bet(1, 10)
        return [e.card for e in round_.events if e.kind == "deal_card"]

    assert play() == play()
