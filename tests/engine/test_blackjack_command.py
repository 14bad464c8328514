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
