"""The simulator's fast path deals and settles exactly what the tables' GameRound does."""

from __future__ import annotations

import hmac

import pytest

from tables.engine import PROFILES, RANKS, CardShoe, GameRound, Phase, derive_seed
from tables.engine import fastshoe, fastsim
from tables.engine.simulate import BET, STACK, _LegalView, parse_seed, play_rounds, simulate
from tables.engine.strategy import basic_strategy


def round_by_round(rules, rounds, seats, seed, fresh_shoe):
    """``simulate.play_rounds`` through GameRound, one (net, shoe number, cards dealt) per round."""
    shoes = 0
    shoe = CardShoe.from_seed(derive_seed(seed, b"shoe", shoes), rules.decks)
    stacks = {number: STACK for number in range(1, seats + 1)}
    for _ in range(rounds):
        if fresh_shoe or shoe.needs_reshuffle(rules):
            shoes += 1
            shoe = CardShoe.from_seed(derive_seed(seed, b"shoe", shoes), rules.decks)
        round_ = GameRound.new(rules=rules, shoe=shoe, seats=stacks)
        for number in stacks:
            round_.bet(number, BET)
        if round_.phase is Phase.INSURANCE:
            round_.close_insurance(actor="player")
        up_card = round_.dealer.cards[0]
        while round_.phase is Phase.PLAYERS:
            number, index = round_.to_act()
            cards = round_.seats[number].hands[index].cards
            getattr(round_, basic_strategy(rules, cards, up_card, _LegalView(round_, number, index)))(number, index)
        yield sum(seat.stack for seat in round_.seats.values()) - STACK * seats, shoes, shoe.dealt


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_the_fast_shoe_deals_the_order_of_the_shoe(decks):
    seed = parse_seed(f"erin-{decks}")
    shoe = fastsim.FastShoe(seed, decks)
    ranks = [shoe.draw() for _ in range(52 * decks)]
    assert ranks == [RANKS.index(card[0]) for card in CardShoe.from_seed(seed, decks).order()]
    with pytest.raises(fastsim.OutOfCards):
        shoe.draw()
    shoe.reset(derive_seed(seed, b"again"))
    assert [shoe.draw() for _ in range(5)] == [
        RANKS.index(card[0]) for card in CardShoe.from_seed(derive_seed(seed, b"again"), decks).order()[:5]]


def test_hmac_from_the_pads_is_hmac():
    key, message = parse_seed("frank"), b"shoe" + (7).to_bytes(8, "big")
    assert fastshoe.hmac_sha256(fastshoe.hmac_pads(key), message) == hmac.digest(key, message, "sha256")


CASES = [
    (slug, seats, fresh, seed)
    for slug in sorted(PROFILES)
    for seats in sorted({1, PROFILES[slug].seats})
    for fresh in (False, True)
    for seed in ("alice", "bob")
]


@pytest.mark.parametrize(("slug", "seats", "fresh", "seed"), CASES)
def test_the_fast_path_matches_the_round_round_by_round(slug, seats, fresh, seed):
    rules = PROFILES[slug]
    rounds = 500 if seats == 1 else 120
    expected = list(round_by_round(rules, rounds, seats, parse_seed(seed), fresh))
    assert list(fastsim.round_results(rules, rounds, seats, parse_seed(seed), fresh)) == expected


def test_a_round_that_runs_the_shoe_out_is_dealt_by_the_round(monkeypatch):
    rules = PROFILES["rocket-academy"]
    seed = parse_seed("carol")
    expected = list(round_by_round(rules, 40, 3, seed, False))
    real = fastsim._round
    calls = []

    def runs_out_every_third_round(table, shoe, seats):
        calls.append(shoe.dealt)
        if len(calls) % 3 == 0:
            shoe.dealt = shoe.size  # as if the shoe were empty: the round must be dealt by GameRound
            raise fastsim.OutOfCards
        return real(table, shoe, seats)

    monkeypatch.setattr(fastsim, "_round", runs_out_every_third_round)
    got = list(fastsim.round_results(rules, 40, 3, seed, False))
    assert [net for net, _, _ in got] == [net for net, _, _ in expected]


def test_simulate_gives_the_same_figures_with_either_engine():
    seed = parse_seed("dave")
    fast = simulate(profile="internet-7", rounds=3000, seats=2, seed=seed)
    slow = simulate(profile="internet-7", rounds=3000, seats=2, seed=seed, engine="round")
    assert {**fast, "rounds_per_second": 0} == {**slow, "rounds_per_second": 0}
    assert fastsim.play_rounds_fast(PROFILES["rocket-academy"], 800, 1, seed) == play_rounds(
        PROFILES["rocket-academy"], 800, 1, seed)
