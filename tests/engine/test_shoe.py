from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from tables.engine import PROFILES, DECK, IllegalAction, CardShoe
from tables.engine.errors import ErrorCode
from tables.engine.shoe import derive_seed

SEED = bytes(range(32))


def reference_order(seed: bytes, decks: int) -> list[str]:
    """docs/engine.md's algorithm written out independently of tables.engine.shoe."""
    stream = b"".join(hmac.new(seed, k.to_bytes(8, "big"), hashlib.sha256).digest() for k in range(200))
    cursor = 0
    cards = [card for _ in range(decks) for card in DECK]
    for i in range(len(cards)):
        n = len(cards) - i
        r = 0
        if n > 1:
            bits = (n - 1).bit_length()
            width = (bits + 7) // 8
            while True:
                r = int.from_bytes(stream[cursor:cursor + width], "big") & ((1 << bits) - 1)
                cursor += width
                if r < n:
                    break
        cards[i], cards[i + r] = cards[i + r], cards[i]
    return cards


def deal_all(shoe: CardShoe) -> list[str]:
    return [shoe.draw() for _ in range(shoe.cards_left)]


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_the_order_is_the_documented_function_of_the_seed(decks):
    assert CardShoe.from_seed(SEED, decks).order() == reference_order(SEED, decks)


def test_a_known_seed_deals_a_known_first_ten_cards():
    shoe = CardShoe.from_seed(SEED, 1)
    assert [shoe.draw() for _ in range(10)] == reference_order(SEED, 1)[:10]
    assert reference_order(SEED, 1)[:10] == KNOWN_FIRST_TEN


KNOWN_FIRST_TEN = ["6D", "AH", "2D", "4S", "3S", "2H", "9C", "QH", "9H", "6H"]


def test_the_lazy_deal_equals_the_eager_order_card_for_card():
    for index in range(5):
        seed = derive_seed(SEED, b"test", index)
        shoe = CardShoe.from_seed(seed, 8)
        eager = shoe.order()
        assert deal_all(shoe) == eager


def test_a_shoe_holds_each_card_exactly_decks_times():
    counts = Counter(deal_all(CardShoe.from_seed(SEED, 6)))
    assert set(counts) == set(DECK)
    assert set(counts.values()) == {6}


def test_the_same_seed_deals_the_same_cards_and_another_seed_does_not():
    first = CardShoe.from_seed(SEED, 8).order()
    assert CardShoe.from_seed(SEED, 8).order() == first
    assert CardShoe.from_seed(derive_seed(SEED, b"other"), 8).order() != first


def test_the_first_card_is_uniform_enough_over_many_seeds():
    counts = Counter(CardShoe.from_seed(derive_seed(SEED, b"u", i), 1).draw() for i in range(5200))
    assert set(counts) == set(DECK)
    # 100 expected per card; a chi-square over 51 degrees of freedom stays far below 100.
    chi2 = sum((count - 100) ** 2 / 100 for count in counts.values())
    assert chi2 < 100


def test_the_commitment_is_the_sha256_of_the_seed():
    assert CardShoe.from_seed(SEED, 8).commitment == hashlib.sha256(SEED).hexdigest()


def test_production_shoes_get_fresh_secret_seeds():
    one, two = CardShoe.new(8), CardShoe.new(8)
    assert len(one.seed) == 32 and one.seed != two.seed


def test_it_refuses_a_seed_that_is_not_256_bits():
    with pytest.raises(ValueError):
        CardShoe.from_seed(b"short", 8)


def test_a_stacked_shoe_deals_its_cards_then_is_exhausted():
    shoe = CardShoe.stacked(["AS", "KD"])
    assert [shoe.draw(), shoe.draw()] == ["AS", "KD"]
    with pytest.raises(IllegalAction) as refused:
        shoe.draw()
    assert refused.value.code is ErrorCode.SHOE_EXHAUSTED
    with pytest.raises(IllegalAction):
        shoe.reshuffle_remaining([])


def test_the_atlantic_city_multi_cut_card_falls_at_139_of_416():
    rules = PROFILES["atlantic-city-multi"]
    shoe = CardShoe.from_seed(SEED, 8)
    for _ in range(138):
        shoe.draw()
    assert not shoe.needs_reshuffle(rules)
    shoe.draw()
    assert shoe.needs_reshuffle(rules)


def test_the_internet_cut_card_falls_at_75_percent():
    rules = PROFILES["internet-6"]
    shoe = CardShoe.from_seed(SEED, 6)
    for _ in range(233):
        shoe.draw()
    assert not shoe.needs_reshuffle(rules)
    shoe.draw()
    assert shoe.needs_reshuffle(rules)


@pytest.mark.parametrize("slug", ["atlantic-city", "rocket-academy"])
def test_fresh_shoe_profiles_reshuffle_after_every_round(slug):
    rules = PROFILES[slug]
    shoe = CardShoe.from_seed(SEED, rules.decks)
    assert not shoe.needs_reshuffle(rules)
    shoe.draw()
    assert shoe.needs_reshuffle(rules)


def test_a_single_deck_running_out_reshuffles_the_cards_not_on_the_table():
    shoe = CardShoe.from_seed(SEED, 1)
    dealt = deal_all(shoe)
    on_table = dealt[:10]
    shoe.reshuffle_remaining(on_table)
    assert shoe.reshuffles == 1 and shoe.cards_left == 42
    rest = deal_all(shoe)
    assert Counter(rest) + Counter(on_table) == Counter(DECK)
    # Deterministic: the sub-seed is HMAC(seed, "reshuffle" + 1).
    again = CardShoe.from_seed(SEED, 1)
    deal_all(again)
    again.reshuffle_remaining(on_table)
    assert deal_all(again) == rest
    assert shoe.needs_reshuffle(PROFILES["rocket-academy"])


def test_a_shoe_round_trips_through_json_mid_deal_and_after_a_reshuffle():
    shoe = CardShoe.from_seed(SEED, 1)
    for _ in range(20):
        shoe.draw()
    copy = CardShoe.from_json(shoe.to_json())
    assert [copy.draw() for _ in range(10)] == [shoe.draw() for _ in range(10)]
    deal_all(shoe)
    shoe.reshuffle_remaining(["AS", "KD"])
    shoe.draw()
    copy = CardShoe.from_json(shoe.to_json())
    assert deal_all(copy) == deal_all(shoe)
    assert copy.to_json() == shoe.to_json()


def test_a_shoe_loaded_from_a_state_this_process_kept_deals_what_a_replay_deals():
    from tables.engine import shoe as shoe_module

    shoe = CardShoe.from_seed(derive_seed(b"resume".ljust(32, b"."), b"test"), 8)
    dealt = [shoe.draw() for _ in range(250)]
    saved = shoe.to_json()

    resumed = CardShoe.from_json(saved)  # takes the kept state: no replay
    shoe_module._RESUMABLE.clear()
    replayed = CardShoe.from_json(saved)  # replays 250 draws

    assert [resumed.draw() for _ in range(100)] == [replayed.draw() for _ in range(100)]
    assert resumed.dealt == replayed.dealt == 350 and len(set(dealt)) > 1
    # Drawing from the resumed shoe did not change the state kept for position 250.
    again = CardShoe.from_json(saved)
    shoe_module._RESUMABLE.clear()
    fresh = CardShoe.from_json(saved)
    assert [again.draw() for _ in range(5)] == [fresh.draw() for _ in range(5)]
