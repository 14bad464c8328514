from __future__ import annotations

from tables.engine.simulate import parse_seed, play_rounds, simulate
from tables.engine import PROFILES

SEED = parse_seed("tests")


def test_a_simulation_reports_the_house_edge_and_its_confidence_interval():
    result = simulate(profile="atlantic-city", rounds=3000, seed=SEED)
    assert list(result) == ["profile", "rounds", "house_edge_pct", "ci95_pct", "rounds_per_second"]
    assert result["profile"] == "atlantic-city" and result["rounds"] == 3000
    # One round's standard deviation is about 1.15 bets: ci95 ~ 225 / sqrt(N) points.
    assert 3.0 < result["ci95_pct"] < 5.5
    assert abs(result["house_edge_pct"]) < 10
    assert result["rounds_per_second"] > 0


def test_the_same_seed_gives_the_same_figures_whatever_the_workers():
    one = simulate(profile="atlantic-city-multi", rounds=45_000, seats=3, seed=SEED, workers=1)
    two = simulate(profile="atlantic-city-multi", rounds=45_000, seats=3, seed=SEED, workers=2)
    assert one["house_edge_pct"] == two["house_edge_pct"] and one["ci95_pct"] == two["ci95_pct"]


def test_a_fresh_shoe_every_round_changes_the_deal():
    rules = PROFILES["internet-6"]
    assert play_rounds(rules, 500, 2, SEED) != play_rounds(rules, 500, 2, SEED, fresh_shoe=True)


def test_seeds_parse_from_hex_or_any_text():
    assert parse_seed("ab" * 32) == bytes([0xAB]) * 32
    assert len(parse_seed("hello")) == 32 and parse_seed("hello") == parse_seed("hello")
    assert parse_seed(None) != parse_seed(None)
