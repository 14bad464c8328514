"""Every scenario file under tests/engine/scenarios/ plays out as its "expect" says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tables.engine.scenario import ScenarioError, load_scenario, run_scenario

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("**/*.json"))


def test_there_are_example_and_rule_scenarios():
    assert len(list((HERE / "examples").glob("*.json"))) >= 7
    assert len(list((HERE / "rules").glob("*.json"))) >= 30


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_the_scenario_plays_out_as_expected(path):
    scenario = load_scenario(path)
    assert scenario.expect, "a scenario in the suite says what it expects"
    output = run_scenario(scenario)
    if "error" in scenario.expect:
        assert "error" in output, json.dumps(output)
        error = output["error"]
        assert {key: error[key] for key in scenario.expect["error"]} == scenario.expect["error"]
        assert error["message"]
    else:
        assert "error" not in output, json.dumps(output)
        for key, value in scenario.expect.items():
            assert output[key] == value, f"{key}: {json.dumps(output[key])}"


def base(**changes):
    data = {"profile": "atlantic-city", "seats": [{"seat": 1, "stack": 100, "bet": 10}],
            "shoe": ["TH", "9C", "9D", "8S"], "actions": [{"seat": 1, "action": "stand"}]}
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "JSON"),
        (json.dumps(base(profile="vegas")), "unknown profile"),
        (json.dumps(base(shoe=["TH", "1C"])), "not a card"),
        (json.dumps(base(profile="rocket-academy", shoe=["TH", "TH", "9D", "8S"])), "appears 2 times"),
        (json.dumps(base(seats=[{"seat": 2, "stack": 100, "bet": 10}])), "does not exist"),
        (json.dumps(base(seats=[])), "non-empty"),
        (json.dumps(base(seats=[{"seat": 1, "stack": 5, "bet": 10}])), "holds only"),
        (json.dumps(base(actions=[{"seat": 1, "action": "dance"}])), "action 0"),
        (json.dumps([1, 2]), "JSON object"),
    ],
)
def test_a_file_that_is_not_a_scenario_is_refused_with_a_reason(text, words):
    with pytest.raises(ScenarioError) as refused:
        load_scenario(text)
    assert words in str(refused.value)


def test_a_missing_file_is_refused():
    with pytest.raises(ScenarioError):
        load_scenario(Path("/nonexistent/scenario.json"))


def test_a_scenario_loads_from_text_or_a_dict():
    assert load_scenario(json.dumps(base())) == load_scenario(base())
    assert run_scenario(load_scenario(base()))["seats"][0]["net"] == 10
