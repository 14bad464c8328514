"""``manage.py blackjack``: the thin Django shell around the engine's scenario runner and simulator."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "engine" / "scenarios" / "examples"


def manage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", "blackjack", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_the_scenario_command_prints_the_round_as_one_json_object():
    path = EXAMPLES / "ac-split-aces-one-card-each.json"
    out = StringIO()
    call_command("blackjack", "scenario", str(path), stdout=out)
    assert json.loads(out.getvalue()) == json.loads(path.read_text())["expect"]


def test_a_scenario_stopped_by_an_illegal_action_still_exits_0():
    result = manage("scenario", str(EXAMPLES / "ac-no-resplit.json"))
    assert result.returncode == 0
    error = json.loads(result.stdout)["error"]
    assert (error["action"], error["code"]) == (1, "illegal_action") and error["message"]


@pytest.mark.parametrize(
    ("content", "words"),
    [("{not json", "JSON"), ('{"profile": "vegas", "seats": [], "shoe": []}', "unknown profile")],
)
def test_a_file_that_is_not_a_scenario_is_reported_on_stderr_with_status_2(tmp_path, content, words):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    result = manage("scenario", str(bad))
    assert result.returncode == 2
    assert words in result.stderr and result.stdout == ""
    with pytest.raises(CommandError) as refused:
        call_command("blackjack", "scenario", str(bad))
    assert refused.value.returncode == 2


def test_simulate_prints_its_figures_as_the_last_line():
    out = StringIO()
    call_command("blackjack", "simulate", "--profile", "rocket-academy", "--rounds", "2000", "--seed", "t",
                 "--seats", "2", stdout=out)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    assert set(figures) == {"profile", "rounds", "house_edge_pct", "ci95_pct", "rounds_per_second"}
    assert figures["rounds"] == 2000 and figures["profile"] == "rocket-academy"


def test_simulate_without_a_terminal_draws_no_progress_bar():
    result = manage("simulate", "--profile", "atlantic-city", "--rounds", "1000", "--fresh-shoe")
    assert result.returncode == 0 and result.stderr == ""
    assert json.loads(result.stdout.strip().splitlines()[-1])["rounds"] == 1000


def test_simulate_refuses_more_seats_than_the_profile_has():
    with pytest.raises(CommandError):
        call_command("blackjack", "simulate", "--profile", "atlantic-city", "--rounds", "10", "--seats", "2")


def last_json(out: StringIO) -> dict:
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_ev_prints_the_value_of_every_legal_action_and_the_best():
    out = StringIO()
    call_command("blackjack", "ev", "--profile", "atlantic-city", "--hand", "T,6", "--dealer", "T", stdout=out)
    figures = last_json(out)
    assert figures["profile"] == "atlantic-city" and figures["hand"] == "T,6" and figures["dealer"] == "T"
    # No surrender at atlantic-city, no split for T-6, insurance only against an ace.
    assert list(figures["ev"]) == ["hit", "stand", "double"]
    assert figures["ev"]["stand"] == pytest.approx(-0.540827, abs=1e-6)
    assert figures["ev"]["hit"] == pytest.approx(-0.535975, abs=1e-6)
    assert figures["best"] == "hit"


def test_ev_takes_removed_cards_and_values_splits_surrender_and_insurance():
    out = StringIO()
    call_command("blackjack", "ev", "--profile", "rocket-academy", "--hand", "8,8", "--dealer", "T",
                 "--removed", "5,9,K", stdout=out)
    evs = last_json(out)["ev"]
    assert list(evs) == ["hit", "stand", "double", "split", "surrender"]
    assert evs["surrender"] == -0.5 and last_json(out)["best"] == "split"
    out = StringIO()
    call_command("blackjack", "ev", "--profile", "internet-6", "--hand", "A,7", "--dealer", "A", stdout=out)
    assert set(last_json(out)["ev"]) == {"hit", "stand", "double", "insurance"}


def test_ev_refuses_a_card_that_is_not_a_card_with_status_2():
    result = manage("ev", "--profile", "atlantic-city", "--hand", "T,X", "--dealer", "T")
    assert result.returncode == 2 and "not a card" in result.stderr and result.stdout == ""


def test_edge_prints_the_exact_edges_as_the_last_line():
    out = StringIO()
    call_command("blackjack", "edge", "--profile", "rocket-academy", stdout=out)
    figures = last_json(out)
    assert list(figures) == ["profile", "house_edge_pct", "basic_strategy_edge_pct", "sd_per_round", "seconds"]
    assert figures["house_edge_pct"] == pytest.approx(-0.3163, abs=0.0005)
    assert figures["basic_strategy_edge_pct"] == pytest.approx(-0.2691, abs=0.0005)
    assert figures["house_edge_pct"] < figures["basic_strategy_edge_pct"]  # optimal play does better
    assert 1.1 < figures["sd_per_round"] < 1.2
